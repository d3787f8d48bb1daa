#include "t2n/options.h"
#include "t2n/error.h"
#include "util/strings.h"

#include <array>
#include <fmt/format.h>

namespace t2n {

namespace {
constexpr std::array<std::pair<NamingScheme, std::string_view>, 4> kSchemes{{
    {NamingScheme::Raw, "raw"},
    {NamingScheme::NaturalVerbose, "natural_verbose"},
    {NamingScheme::NaturalVerboseCamel, "natural_verbose_camel"},
    {NamingScheme::Numeric, "numeric"},
}};
constexpr std::array<std::pair<LogLevel, std::string_view>, 6> kLevels{{
    {LogLevel::Trace, "trace"},
    {LogLevel::Debug, "debug"},
    {LogLevel::Info, "info"},
    {LogLevel::Warn, "warn"},
    {LogLevel::Error, "error"},
    {LogLevel::Off, "off"},
}};

template <typename E, size_t N>
std::optional<E> lookup(const std::array<std::pair<E, std::string_view>, N>& table,
                        std::string_view name) {
    for (auto& [e, n] : table)
        if (n == name)
            return e;
    return std::nullopt;
}
template <typename E, size_t N>
std::string_view nameOf(const std::array<std::pair<E, std::string_view>, N>& table, E e) {
    for (auto& [v, n] : table)
        if (v == e)
            return n;
    return "?";
}
} // namespace

std::string_view namingSchemeName(NamingScheme s) {
    return nameOf(kSchemes, s);
}
std::optional<NamingScheme> parseNamingScheme(std::string_view n) {
    return lookup(kSchemes, n);
}
std::string_view logLevelName(LogLevel l) {
    return nameOf(kLevels, l);
}
std::optional<LogLevel> parseLogLevel(std::string_view n) {
    return lookup(kLevels, n);
}

const std::vector<std::string>& knownTractVersions() {
    // Every tract release from 0.21.0 to 0.23.9 (and 0.20.22, the oldest one
    // torch_to_nnef still sweeps), oldest first: the last one is the default
    // target. What each version has is in nnef/tract_versions.cpp.
    static const std::vector<std::string> versions = [] {
        std::vector<std::string> v{"0.20.22"};
        for (int patch = 0; patch <= 17; ++patch)
            v.push_back(fmt::format("0.21.{}", patch));
        for (int patch = 0; patch <= 3; ++patch)
            v.push_back(fmt::format("0.22.{}", patch));
        for (int patch = 0; patch <= 9; ++patch)
            v.push_back(fmt::format("0.23.{}", patch));
        return v;
    }();
    return versions;
}

TargetSpec TargetSpec::parse(std::string_view text) {
    TargetSpec spec;
    auto at = text.find('@');
    std::string_view kind = text.substr(0, at);
    std::string_view v = at == std::string_view::npos ? std::string_view{} : text.substr(at + 1);
    if (kind == "khronos") {
        spec.kind = TargetKind::Khronos;
        if (at != std::string_view::npos && v != kKhronosNnefVersion)
            throw Error(
                Stage::Load, ErrorCode::Usage,
                fmt::format("t2n writes Khronos NNEF {} only, not '{}'", kKhronosNnefVersion, v),
                fmt::format("use 'khronos' or 'khronos@{}'", kKhronosNnefVersion));
        return spec;
    }
    if (kind != "tract")
        throw Error(Stage::Load, ErrorCode::Usage, fmt::format("unknown target '{}'", kind),
                    "use 'tract', 'tract@X.Y.Z' or 'khronos'");
    if (at != std::string_view::npos) {
        if (!v.empty() && v.front() == 'v')
            v.remove_prefix(1);
        auto parts = util::split(v, '.');
        bool ok = parts.size() == 3;
        for (auto p : parts) // digits only: "-1" is no version part
            ok = ok && !p.empty() && p.find_first_not_of("0123456789") == std::string_view::npos &&
                 util::parseInt<int>(p).has_value();
        if (!ok)
            throw Error(Stage::Load, ErrorCode::Usage,
                        fmt::format("bad tract version '{}'", text.substr(at + 1)),
                        "write the version as X.Y.Z, e.g. tract@0.21.13");
        spec.version = std::string(v);
    }
    return spec;
}

std::string TargetSpec::toString(bool resolveDefault) const {
    if (kind == TargetKind::Khronos)
        return resolveDefault ? fmt::format("khronos@{}", kKhronosNnefVersion) : "khronos";
    if (version.empty() && !resolveDefault)
        return "tract";
    return "tract@" + (version.empty() ? knownTractVersions().back() : version);
}

DynamicAxis DynamicAxis::parse(std::string_view text) {
    auto bad = [&](std::string why) {
        return Error(Stage::Load, ErrorCode::Usage,
                     fmt::format("bad dynamic axis '{}': {}", text, why),
                     "write NAME:AXIS=SYMBOL, e.g. input:0=B (the symbol a letter followed by "
                     "letters, digits or '_'), optionally with the sizes the axis accepts: "
                     "x:2=H:multiple-of=32,min=64");
    };
    // The sizes the axis accepts follow the symbol after one more ':' (a
    // symbol holds no ':', so NAME:AXIS=SYMBOL reads as before).
    DynamicAxis d;
    std::string_view rule;
    if (auto last = text.rfind(':'); last != std::string_view::npos) {
        const std::string_view tail = text.substr(last + 1);
        if (tail.starts_with("multiple-of=") || tail.starts_with("min=")) {
            rule = tail;
            text = text.substr(0, last);
        }
    }
    for (size_t at = 0; !rule.empty() && at <= rule.size();) {
        const size_t comma = std::min(rule.find(',', at), rule.size());
        const std::string_view item = rule.substr(at, comma - at);
        const size_t eq = item.find('=');
        const std::string_view key = item.substr(0, eq);
        const auto n = eq == std::string_view::npos ? std::nullopt
                                                    : util::parseInt<int64_t>(item.substr(eq + 1));
        if (!n || *n < 1 || *n > (int64_t(1) << 30))
            throw bad(fmt::format("'{}' is not KEY=N with N a whole number from 1", item));
        if (key == "multiple-of")
            d.multipleOf = *n;
        else if (key == "min")
            d.min = *n;
        else
            throw bad(fmt::format("unknown rule '{}' (multiple-of=N or min=N)", key));
        at = comma + 1;
    }
    auto colon = text.rfind(':');
    auto eq = text.find('=', colon == std::string_view::npos ? 0 : colon);
    if (colon == std::string_view::npos || eq == std::string_view::npos)
        throw bad("expected NAME:AXIS=SYMBOL");
    d.tensor = std::string(text.substr(0, colon));
    auto axis = util::parseInt<int>(text.substr(colon + 1, eq - colon - 1));
    if (!axis)
        throw bad("the axis is not an integer");
    d.axis = *axis;
    d.symbol = std::string(text.substr(eq + 1));
    bool ok = !d.symbol.empty() && std::isalpha(static_cast<unsigned char>(d.symbol[0]));
    for (char c : d.symbol)
        ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (d.tensor.empty() || !ok)
        throw bad("the name is empty or the symbol is not an identifier");
    return d;
}

std::string DynamicAxis::ruleText() const {
    std::string out;
    if (multipleOf > 0)
        out = fmt::format("multiple-of={}", multipleOf);
    if (min > 0)
        out += fmt::format("{}min={}", out.empty() ? "" : ",", min);
    return out;
}

std::string DynamicAxis::toString() const {
    const std::string rule = ruleText();
    return fmt::format("{}:{}={}{}{}", tensor, axis, symbol, rule.empty() ? "" : ":", rule);
}

} // namespace t2n
