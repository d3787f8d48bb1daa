#include "archive/sibling_path.h"

#include "util/strings.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <vector>

#include <unistd.h>

namespace t2n::archive {

namespace {

// ".NAME.t2n-probe-4194304-0123456789abcdef": 36 bytes around NAME at most
// (the longest kind, a pid of 7 digits), in a file name of 255.
constexpr std::size_t kMaxStem = 255 - 36;
constexpr std::size_t kHashedStemCut = kMaxStem - 9; // then "~" and 8 hex digits

// The destination's name as its siblings spell it.
std::string stemOf(const std::string& name) {
    if (name.size() <= kMaxStem)
        return name;
    return fmt::format("{}~{:08x}", name.substr(0, kHashedStemCut),
                       static_cast<uint32_t>(std::hash<std::string>{}(name)));
}

std::mutex g_ownMutex;
std::vector<OwnTemporary>& owned() {
    static std::vector<OwnTemporary> all;
    return all;
}

void remember(OwnTemporary t) {
    std::lock_guard lock(g_ownMutex);
    owned().push_back(std::move(t));
}

} // namespace

std::filesystem::path siblingPath(const std::filesystem::path& final, std::string_view kind) {
    thread_local std::mt19937_64 rng{(static_cast<uint64_t>(std::random_device{}()) << 32) ^
                                     static_cast<uint64_t>(::getpid())};
    const std::filesystem::path p =
        final.parent_path() / fmt::format(".{}.t2n-{}-{}-{:016x}",
                                          stemOf(final.filename().string()), kind,
                                          static_cast<long>(::getpid()), rng());
    remember({p, final, std::string(kind)});
    return p;
}

void noteTemporary(const std::filesystem::path& path) {
    remember({path, {}, "work"});
}

std::filesystem::path makePrivateTempFolder(std::string_view prefix, Stage stage) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    if (ec)
        dir = "/tmp";
    std::string name = (dir / fmt::format("{}XXXXXX", prefix)).string();
    // mkdtemp creates the folder (mode 0700) under a name it picks, or fails:
    // never a folder or a link someone made there before.
    if (::mkdtemp(name.data()) == nullptr) {
        const int err = errno;
        throw Error(stage, ErrorCode::OutputPath,
                    fmt::format("cannot create a work folder in '{}': {}", dir.string(),
                                std::strerror(err)),
                    "set TMPDIR to a writable directory");
    }
    noteTemporary(name);
    return name;
}

std::vector<OwnTemporary> ownTemporaries() {
    std::lock_guard lock(g_ownMutex);
    return owned();
}

namespace {
struct Parts {
    std::string stem;
    SiblingName name;
};

std::optional<Parts> parseParts(std::string_view name) {
    // From the end: "-<16 hex>", then "-<pid>" (absent before t2n 0.1), then
    // ".t2n-<kind>"; what is left between the leading '.' and it is the stem.
    if (name.size() < 1 + 1 + 5 + 1 + 1 + 16 || name.front() != '.')
        return std::nullopt;
    const std::string_view random = name.substr(name.size() - 16);
    if (random.find_first_not_of("0123456789abcdef") != std::string_view::npos ||
        name[name.size() - 17] != '-')
        return std::nullopt;
    std::string_view rest = name.substr(1, name.size() - 18);
    Parts out;
    if (const auto dash = rest.rfind('-'); dash != std::string_view::npos) {
        // "<kind>-<pid>"; in an older name the last dash is the marker's own.
        const auto marker = rest.rfind(".t2n-", dash);
        auto pid = util::parseInt<long>(rest.substr(dash + 1));
        if (pid && *pid > 0 && marker != std::string_view::npos && marker + 5 < dash) {
            out.name.pid = static_cast<pid_t>(*pid);
            rest = rest.substr(0, dash);
        }
    }
    const auto marker = rest.rfind(".t2n-");
    if (marker == std::string_view::npos || marker == 0 || marker + 5 >= rest.size())
        return std::nullopt;
    out.name.kind = std::string(rest.substr(marker + 5));
    if (out.name.kind.find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos)
        return std::nullopt;
    out.stem = std::string(rest.substr(0, marker));
    return out;
}
} // namespace

std::optional<SiblingName> parseSiblingName(std::string_view name) {
    auto parts = parseParts(name);
    if (!parts)
        return std::nullopt;
    // A stem of kMaxStem bytes may be a cut one: its destination is unknown.
    if (parts->stem.size() < kMaxStem)
        parts->name.finalName = parts->stem;
    return parts->name;
}

std::optional<SiblingName> parseSiblingName(std::string_view name, std::string_view finalName) {
    auto parts = parseParts(name);
    if (!parts || parts->stem != stemOf(std::string(finalName)))
        return std::nullopt;
    parts->name.finalName = std::string(finalName);
    return parts->name;
}

} // namespace t2n::archive
