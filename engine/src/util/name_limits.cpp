#include "util/name_limits.h"

#include "t2n/error.h"

#include <fmt/format.h>

namespace t2n::util {

void checkNameLength(std::string_view name, std::string_view what) {
    if (name.size() <= kMaxNameBytes)
        return;
    throw Error(Stage::Load, ErrorCode::Usage,
                fmt::format("the {} '{}...' is {} bytes long; t2n takes names of at most {} bytes",
                            what, name.substr(0, 40), name.size(), kMaxNameBytes),
                "give a shorter name");
}

void checkNameLengths(const ExportOptions& options) {
    for (const auto& s : options.inputs) {
        checkNameLength(s.name, "input name");
        checkNameLength(s.valuesMember, ".npz member name");
    }
    for (const auto& n : options.inputNames)
        checkNameLength(n, "input name");
    for (const auto& n : options.outputNames)
        checkNameLength(n, "output name");
    for (const auto& a : options.dynamicAxes) {
        checkNameLength(a.tensor, "dynamic axis's tensor name");
        checkNameLength(a.symbol, "dynamic axis's symbol");
    }
}

namespace {
// The path as a person can read it: a NUL and other control bytes as \xNN,
// so that the message itself cannot be cut or forge lines.
std::string shownPath(std::string_view path) {
    std::string out;
    for (const char c : path.substr(0, 200)) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
            out += fmt::format("\\x{:02x}", u);
        else
            out += c;
    }
    return path.size() > 200 ? out + "..." : out;
}
} // namespace

void checkPathText(std::string_view path, std::string_view what, Stage stage, ErrorCode code) {
    // NUL is the only byte a Linux path cannot hold ('/' only separates).
    const auto nul = path.find('\0');
    if (nul == std::string_view::npos)
        return;
    throw Error(stage, code,
                fmt::format("the {} '{}' holds a NUL byte (at byte {}), which no file name can "
                            "hold: the system would use only '{}'",
                            what, shownPath(path), nul, shownPath(path.substr(0, nul))),
                "give the path without the \\0 (a NUL cut the text, or the file was edited)");
}

void checkOptionPaths(const ExportOptions& options) {
    for (const auto& s : options.inputs)
        checkPathText(s.valuesFile, fmt::format("values file of input '{}'", s.name));
    checkPathText(options.debugBundle, "debug bundle path");
    checkPathText(options.tractBinary, "tract binary path");
}

} // namespace t2n::util
