// Stage write: graph.nnef and one .dat per variable into an artifact,
// streamed tensor by tensor, committed (renamed into place) only at the end.
#pragma once

#include "archive/tensor_stats.h"
#include "nnef/document.h"
#include "t2n/artifact.h"
#include "t2n/outputs.h"

#include <functional>
#include <string>

namespace t2n::archive {

struct WriteProgress {
    /// Called after each block with the fraction of bytes written so far.
    std::function<void(double fraction, const std::string& file)> progress;
    /// Polled after every block; true abandons the artifact (nothing is left).
    std::function<bool()> cancelled;
    /// After each variable's file: its index in doc.variables and statistics.
    std::function<void(size_t index, const TensorStats&)> variableWritten;
};

/// Returns the artifact's size in bytes. Throws t2n::Error (Write). With
/// `into`, the finished artifact waits there under its temporary name until
/// `into` publishes it; without, it is put in place at once.
uint64_t writeDocument(const nnef::Document& doc, const std::string& graphText,
                       const Artifact& artifact, const WriteProgress& hooks = {},
                       PendingOutputs* into = nullptr);

} // namespace t2n::archive
