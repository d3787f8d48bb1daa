#include "report/display_text.h"

#include <fmt/format.h>

#include <cstdint>

namespace t2n::report {

namespace {

// The code point at `at` and its length in bytes; length 0 when the bytes
// there are not UTF-8 (overlong forms and surrogates included).
std::pair<uint32_t, size_t> decodeAt(std::string_view s, size_t at) {
    const auto b0 = static_cast<unsigned char>(s[at]);
    if (b0 < 0x80)
        return {b0, 1};
    const size_t n = b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : b0 >= 0xc0 ? 2 : 0;
    if (n == 0 || b0 > 0xf4 || at + n > s.size())
        return {0, 0};
    uint32_t cp = b0 & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[at + k]);
        if ((b & 0xc0) != 0x80)
            return {0, 0};
        cp = cp << 6 | (b & 0x3f);
    }
    constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return {0, 0};
    return {cp, n};
}

bool isBidiControl(uint32_t cp) {
    return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

} // namespace

std::string displayText(std::string_view text, bool keepNewlines) {
    std::string out;
    out.reserve(text.size());
    for (size_t at = 0; at < text.size();) {
        const auto [cp, n] = decodeAt(text, at);
        if (n == 0) {
            out += "\xef\xbf\xbd"; // U+FFFD for the one byte that is not UTF-8
            ++at;
            continue;
        }
        if ((cp < 0x20 && cp != '\t' && !(keepNewlines && cp == '\n')) || cp == 0x7f)
            out += fmt::format("\\x{:02x}", cp);
        else if (cp >= 0x80 && cp < 0xa0)
            out += fmt::format("\\u{:04x}", cp);
        else if (isBidiControl(cp))
            out += fmt::format("[U+{:04X}]", cp);
        else
            out.append(text.substr(at, n));
        at += n;
    }
    return out;
}

std::string terminalText(std::string_view text) {
    const std::string shown = displayText(text, true);
    std::string out;
    out.reserve(shown.size());
    for (size_t i = 0; i < shown.size(); ++i) {
        out += shown[i];
        if (shown[i] == '\n' && i + 1 < shown.size() && shown[i + 1] != ' ')
            out += "  ";
    }
    return out;
}

} // namespace t2n::report
