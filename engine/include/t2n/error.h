// Errors are values with context: the stage that failed, the node it failed
// on (kind, module path, TorchScript source line) and a hint for the user.
// They travel as exceptions inside the engine and reach front ends whole.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace t2n {

enum class Stage { Load, Harden, Trace, Translate, Write, Check, Report };
std::string_view stageName(Stage s);

/// Distinct process exit codes for the command line, one per failure family.
enum class ErrorCode {
    Usage = 2,         ///< bad command line or bad --input spec
    ModelFile = 3,     ///< missing, unreadable or not a TorchScript archive
    Unsupported = 4,   ///< operators the target cannot express
    OutputPath = 5,    ///< output not writable, bad suffix
    ModelRun = 6,      ///< the model failed on the example inputs
    InvalidOption = 7, ///< an export option is inconsistent with the model
    Cancelled = 8,     ///< stopped on request; nothing was written
    Internal = 10,     ///< a bug in t2n: please report
};

/// Where in the TorchScript graph something happened.
struct NodeRef {
    std::string kind;       ///< e.g. aten::cumsum
    std::string modulePath; ///< e.g. encoder.layers.0 (empty: top-level module)
    std::string sourceFile; ///< Python file recorded in the TorchScript archive
    int sourceLine = 0;     ///< 1-based; 0 when unknown
    std::string sourceText; ///< the statement itself, when recorded
    std::string valueName;  ///< first output's debug name

    /// "aten::cumsum in block_a (model.py:41)"
    std::string describe() const;
};

struct Diagnostic {
    std::string message;
    NodeRef node;
    bool hasNode = false;
};

class Error : public std::runtime_error {
public:
    Error(Stage stage, ErrorCode code, std::string message, std::string hint = {});
    Error(Stage stage, ErrorCode code, std::string message, NodeRef node, std::string hint = {});

    Stage stage() const { return stage_; }
    ErrorCode code() const { return code_; }
    const std::string& message() const { return message_; }
    const std::string& hint() const { return hint_; }
    /// Every node concerned (an unsupported-operator error lists all of them).
    const std::vector<Diagnostic>& details() const { return details_; }
    Error& addDetail(Diagnostic d);

    /// Full human-readable text: "[translate] message\n  at ...\n  hint: ...".
    std::string render() const;

private:
    Stage stage_;
    ErrorCode code_;
    std::string message_;
    std::string hint_;
    std::vector<Diagnostic> details_;
};

} // namespace t2n
