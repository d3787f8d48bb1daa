// Stage load: quantized TorchScript archives of PyTorch 1.3, which LibTorch
// 1.13 cannot compile or unpickle as they are.
#pragma once

#include <caffe2/serialize/inline_container.h>

#include <optional>
#include <string>

namespace t2n::load {

/// The bytes of the archive `reader` reads, rewritten for LibTorch 1.13 when
/// it is a PyTorch 1.3 quantized archive (packed weights declared `Tensor`,
/// quantized tensors pickled with a bare scale and zero point); nullopt for
/// any other archive. Held in memory: nothing is written to disk. Throws
/// t2n::Error (Load, ModelFile) naming `shown` when its pickle has an
/// opcode the rewrite does not know.
std::optional<std::string>
rewriteOldQuantizedArchive(caffe2::serialize::PyTorchStreamReader& reader,
                           const std::string& shown);

} // namespace t2n::load
