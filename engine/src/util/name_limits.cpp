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

} // namespace t2n::util
