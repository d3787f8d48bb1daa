#include "archive/sibling_path.h"

#include <fmt/format.h>

#include <random>

#include <unistd.h>

namespace t2n::archive {

std::filesystem::path siblingPath(const std::filesystem::path& final, std::string_view kind) {
    thread_local std::mt19937_64 rng{(static_cast<uint64_t>(std::random_device{}()) << 32) ^
                                     static_cast<uint64_t>(::getpid())};
    return final.parent_path() /
           fmt::format(".{}.t2n-{}-{:016x}", final.filename().string(), kind, rng());
}

} // namespace t2n::archive
