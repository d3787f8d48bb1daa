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

/// Refuses (Error(Load, Usage)) an example input with a zero-size
/// dimension: t2n runs the model on example values, and an empty example
/// runs no kernel the way a real one does (the check would then blame the
/// archive for what is an input without data). `input` names it.
void checkExampleHasData(const std::vector<int64_t>& shape, std::string_view input);

} // namespace t2n::util
