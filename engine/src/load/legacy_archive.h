// Stage load: TorchScript archives of PyTorch 1.0-1.2 (model.json, code/,
// tensors/), which Debian's LibTorch 1.13 has no reader for.
#pragma once

#include <torch/script.h>

#include <caffe2/serialize/inline_container.h>

#include <memory>
#include <string>

namespace t2n::load {

/// True when `reader`'s archive is the legacy layout: model.json and no data.pkl.
bool isLegacyArchive(caffe2::serialize::PyTorchStreamReader& reader);

/// The module the legacy archive describes, built as PyTorch 1.13's own
/// legacy importer built it (import_legacy.cpp, left out of Debian's build):
/// model.json's module tree and tensor table, attributes.pkl, and each
/// module's code compiled against its module. Nothing is written to disk.
/// Throws t2n::Error (Load, ModelFile) naming `shown` for what it cannot read.
torch::jit::Module loadLegacyArchive(std::shared_ptr<caffe2::serialize::PyTorchStreamReader> reader,
                                     const std::string& shown);

} // namespace t2n::load
