#include "t2n/error.h"

#include <fmt/format.h>
#include <iterator>

namespace t2n {

std::string_view stageName(Stage s) {
    switch (s) {
    case Stage::Load:
        return "load";
    case Stage::Harden:
        return "harden";
    case Stage::Trace:
        return "trace";
    case Stage::Translate:
        return "translate";
    case Stage::Write:
        return "write";
    case Stage::Check:
        return "check";
    case Stage::Report:
        return "report";
    }
    return "?";
}

std::string NodeRef::describe() const {
    std::string out = fmt::format("{}{}", kind.empty() ? "node" : kind,
                                  valueName.empty() ? "" : fmt::format(" (%{})", valueName));
    if (modulePath.empty())
        out.append(" in the top-level module");
    else
        fmt::format_to(std::back_inserter(out), " in module '{}'", modulePath);
    if (sourceLine > 0)
        fmt::format_to(std::back_inserter(out), " at {}:{}",
                       sourceFile.empty() ? "<unknown>" : sourceFile, sourceLine);
    return out;
}

Error::Error(Stage stage, ErrorCode code, std::string message, std::string hint)
    : std::runtime_error(message), stage_(stage), code_(code), message_(std::move(message)),
      hint_(std::move(hint)) {}

Error::Error(Stage stage, ErrorCode code, std::string message, NodeRef node, std::string hint)
    : Error(stage, code, std::move(message), std::move(hint)) {
    details_.push_back(Diagnostic{message_, std::move(node), true});
}

Error& Error::addDetail(Diagnostic d) {
    details_.push_back(std::move(d));
    return *this;
}

std::string Error::render() const {
    std::string out = fmt::format("[{}] {}", stageName(stage_), message_);
    auto to = std::back_inserter(out);
    for (const auto& d : details_) {
        // A detail about no node (one input candidate tried, one option) is its message.
        if (!d.hasNode) {
            if (!d.message.empty() && d.message != message_)
                fmt::format_to(to, "\n  - {}", d.message);
            continue;
        }
        fmt::format_to(to, "\n  at {}", d.node.describe());
        if (!d.node.sourceText.empty())
            fmt::format_to(to, "\n     | {}", d.node.sourceText);
        if (d.message != message_)
            fmt::format_to(to, "\n     {}", d.message);
    }
    if (!hint_.empty())
        fmt::format_to(to, "\n  hint: {}", hint_);
    return out;
}

} // namespace t2n
