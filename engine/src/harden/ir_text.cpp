#include "t2n/ir_text.h"

#include <string>

namespace t2n {

namespace {
constexpr std::string_view kMangle = "___torch_mangle_";

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isWord(char c) {
    return isDigit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isNameChar(char c) {
    return isWord(c) || c == '.';
}

// A value name (what follows '%', the longest run of word characters and
// dots) with its ending number masked: all digits -> '#'; a name that
// starts with a letter and ends in ".<digits>" -> that number '#'.
void appendMasked(std::string_view name, std::string& out) {
    size_t digits = 0;
    while (digits < name.size() && isDigit(name[name.size() - 1 - digits]))
        ++digits;
    if (digits > 0 && digits == name.size()) {
        out += '#';
        return;
    }
    const size_t stem = name.size() - digits; // up to and including the dot
    const bool letterFirst = !name.empty() && !isDigit(name[0]) && name[0] != '.';
    if (digits > 0 && stem >= 2 && name[stem - 1] == '.' && letterFirst) {
        out.append(name.substr(0, stem));
        out += '#';
        return;
    }
    out.append(name);
}

// "___torch_mangle_<digits>." removed wherever it is.
std::string withoutMangles(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (size_t i = 0; i < line.size();) {
        if (line.compare(i, kMangle.size(), kMangle) == 0) {
            size_t j = i + kMangle.size();
            while (j < line.size() && isDigit(line[j]))
                ++j;
            if (j > i + kMangle.size() && j < line.size() && line[j] == '.') {
                i = j + 1;
                continue;
            }
        }
        out += line[i++];
    }
    return out;
}
} // namespace

std::string canonicalValueNumbers(std::string_view text) {
    const std::string line = withoutMangles(text);
    std::string out;
    out.reserve(line.size());
    for (size_t i = 0; i < line.size();) {
        if (line[i] != '%') {
            out += line[i++];
            continue;
        }
        size_t end = i + 1;
        while (end < line.size() && isNameChar(line[end]))
            ++end;
        out += '%';
        appendMasked(std::string_view(line).substr(i + 1, end - i - 1), out);
        i = end;
    }
    return out;
}

} // namespace t2n
