// Small models written in TorchScript inside a test (torch::jit::Module::define),
// saved, exported with the real engine and read back: the pattern tests of
// issue 11 (models nobody here wrote) show the TorchScript before and the NNEF
// after, and the check compares the archive with LibTorch running the model.
#pragma once

#include "export_test_util.h" // maxAbsError
#include "support.h"
#include "t2n/session.h"

#include <torch/script.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace t2n::test {

/// Saves a module whose forward() is `source` (TorchScript) as DIR/NAME.pt.
inline std::filesystem::path saveDefined(const std::filesystem::path& dir, const std::string& name,
                                         const std::string& source) {
    torch::jit::Module m("__torch__." + name);
    m.define(source);
    m.eval();
    auto path = dir / (name + ".pt");
    m.save(path.string());
    return path;
}

struct DefinedExport {
    t2n::ExportReport report;
    std::string graph; ///< graph.nnef text
    std::string torchScript;
};

/// Exports `model` into the folder artifact MODEL_TAG.nnef beside it and
/// reads graph.nnef back.
inline DefinedExport exportDefined(const std::filesystem::path& model, t2n::ExportOptions options,
                                   const std::string& tag) {
    options.compressionLevel.reset();
    DefinedExport out;
    t2n::Session session;
    session.load(model);
    out.torchScript = session.torchScriptText();
    auto artifact = model.parent_path() / (model.stem().string() + "_" + tag + ".nnef");
    out.report = session.exportModel(artifact, options);
    std::ifstream in(out.report.artifact.path / "graph.nnef");
    std::stringstream text;
    text << in.rdbuf();
    out.graph = text.str();
    return out;
}

} // namespace t2n::test
