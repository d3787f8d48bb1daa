// Small string helpers shared by the option parsers.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::util {

std::vector<std::string_view> split(std::string_view text, char sep);
/// `text` without leading and trailing spaces, tabs and newlines.
std::string_view trim(std::string_view text);

template <typename Int> std::optional<Int> parseInt(std::string_view s) {
    Int v{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep);

} // namespace t2n::util
