// NNEF identifiers: [A-Za-z_][A-Za-z0-9_]*, not a keyword, unique per graph.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace t2n::nnef {

bool isKeyword(std::string_view s);
/// Replaces invalid characters with '_', prefixes 'v' before a leading digit
/// and 'v_' before a leading true, false or inf (tract would read a literal),
/// appends '_' to keywords. Never returns an empty string.
std::string sanitizeIdentifier(std::string_view s);

/// Hands out unique identifiers. In numeric mode every identifier is v<N>
/// in order of request, whatever the base.
class IdentifierPool {
public:
    explicit IdentifierPool(bool numeric = false) : numeric_(numeric) {}
    /// Reserves `name` exactly (graph inputs, outputs); false if taken.
    bool reserve(const std::string& name);
    bool taken(const std::string& name) const { return used_.count(name) != 0; }
    /// sanitize(base), or base_1, base_2 ... when taken.
    std::string make(std::string_view base);
    /// Like make() but ignores numeric mode (variables keep label names).
    std::string makeNamed(std::string_view base);

private:
    bool numeric_;
    int counter_ = 0;
    std::unordered_set<std::string> used_;
    std::unordered_map<std::string, int> nextSuffix_; ///< last suffix given per base
};

} // namespace t2n::nnef
