#include "archive/sibling_path.h"

#include "util/strings.h"

#include <fmt/format.h>

#include <random>

#include <unistd.h>

namespace t2n::archive {

std::filesystem::path siblingPath(const std::filesystem::path& final, std::string_view kind) {
    thread_local std::mt19937_64 rng{(static_cast<uint64_t>(std::random_device{}()) << 32) ^
                                     static_cast<uint64_t>(::getpid())};
    return final.parent_path() / fmt::format(".{}.t2n-{}-{}-{:016x}", final.filename().string(),
                                             kind, static_cast<long>(::getpid()), rng());
}

std::optional<SiblingName> parseSiblingName(std::string_view name, std::string_view finalName) {
    const std::string prefix = fmt::format(".{}.t2n-", finalName);
    if (!name.starts_with(prefix))
        return std::nullopt;
    name.remove_prefix(prefix.size());
    const auto dash = name.find('-');
    if (dash == std::string_view::npos || dash == 0)
        return std::nullopt;
    SiblingName out;
    out.kind = std::string(name.substr(0, dash));
    name.remove_prefix(dash + 1);
    // "<pid>-<16 hex>" now, "<16 hex>" before the pid was recorded.
    if (const auto next = name.find('-'); next != std::string_view::npos) {
        auto pid = util::parseInt<long>(name.substr(0, next));
        if (!pid || *pid <= 0)
            return std::nullopt;
        out.pid = static_cast<pid_t>(*pid);
        name.remove_prefix(next + 1);
    }
    if (name.size() != 16 || name.find_first_not_of("0123456789abcdef") != std::string_view::npos)
        return std::nullopt;
    return out;
}

} // namespace t2n::archive
