#include "nnef/identifiers.h"

#include <array>
#include <cctype>

namespace t2n::nnef {

bool isKeyword(std::string_view s) {
    static constexpr std::array<std::string_view, 20> kKeywords{
        "version", "extension", "graph",     "fragment", "tensor",   "integer", "scalar",
        "logical", "string",    "true",      "false",    "for",      "in",      "if",
        "else",    "yield",     "length_of", "shape_of", "range_of", "fragment"};
    for (auto k : kKeywords)
        if (k == s)
            return true;
    return false;
}

std::string sanitizeIdentifier(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 1);
    for (char c : s)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
        out.insert(out.begin(), 'v');
    // tract's parser tries a literal before an identifier and does not look
    // past the literal's last letter: `true_mask`, `false_x` and (since tract
    // 0.20.19, which reads `inf`) `infinity` would read as true, false or inf
    // followed by garbage. Such names take a prefix.
    for (std::string_view word : {"true", "false", "inf"})
        if (out.starts_with(word)) {
            out.insert(0, "v_");
            return out;
        }
    if (isKeyword(out))
        out += '_';
    return out;
}

bool IdentifierPool::reserve(const std::string& name) {
    return used_.insert(name).second;
}

std::string IdentifierPool::make(std::string_view base) {
    if (numeric_) {
        std::string name;
        do
            name = "v" + std::to_string(counter_++);
        while (used_.count(name));
        used_.insert(name);
        return name;
    }
    return makeNamed(base);
}

std::string IdentifierPool::makeNamed(std::string_view base) {
    std::string clean = sanitizeIdentifier(base);
    if (used_.insert(clean).second)
        return clean;
    // The smallest free suffix: names are never given back, so it only
    // grows, and the search goes on where the last one for this base ended
    // (from 1 each time was quadratic: 8,000 chained adds spent 30 s here).
    int& i = nextSuffix_[clean];
    for (;;) {
        std::string candidate = clean + "_" + std::to_string(++i);
        if (used_.insert(candidate).second)
            return candidate;
    }
}

} // namespace t2n::nnef
