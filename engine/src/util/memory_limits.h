// Sizes that come from the user or from a file (--input shapes, a .npy
// header, a recipe) are checked before anything is allocated: an element
// count that overflows, or more bytes than the machine has, is a clear
// error naming the number instead of a LibTorch crash deep in a stage.
#pragma once

#include "t2n/dtype.h"
#include "t2n/error.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace t2n::util {

/// Bytes of memory available now (MemAvailable of /proc/meminfo, else the
/// physical memory); the environment variable T2N_MEMORY_LIMIT (bytes) lowers it.
uint64_t availableMemory();

/// Bytes of a dense tensor of `shape` and `dtype`. Throws Error(stage,
/// Usage) naming `what` when a dimension is negative, the element count or
/// byte size overflows 64 bits, or the bytes exceed availableMemory() (with
/// `workingWidth` bytes per element when making it needs a wider buffer).
uint64_t checkedTensorBytes(const std::vector<int64_t>& shape, DType dtype, Stage stage,
                            std::string_view what, uint64_t workingWidth = 0);

/// An example input's name and shape.
struct ExampleShape {
    std::string_view input;
    std::vector<int64_t> shape;
};

/// Refuses (Error(Load, Usage)) examples of which every one has a
/// zero-size dimension, naming the first: t2n runs the model on example
/// values, and with no data at all no kernel runs the way a real one does
/// (the check would then blame the archive for inputs without data). An
/// empty input beside others with data is what some models take (fastai's
/// x_cat of a table with no categorical columns) and passes.
void checkExamplesHaveData(const std::vector<ExampleShape>& examples);

} // namespace t2n::util
