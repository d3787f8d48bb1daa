#include "util/option_codecs.h"

#include <fmt/format.h>

namespace t2n::options {

Error usage(std::string message, std::string hint) {
    return Error(Stage::Load, ErrorCode::Usage, std::move(message), std::move(hint));
}

namespace {
Json inputJson(const InputSpec& s) {
    Json j;
    j["name"] = s.name;
    j["shape"] = s.shape;
    j["dtype"] = std::string(dtypeName(s.dtype));
    if (!s.valuesFile.empty()) {
        j["values_file"] = s.valuesFile;
        j["values_member"] = s.valuesMember;
    }
    if (!s.values.empty())
        j["values"] = s.values;
    if (s.randomRange)
        j["random_range"] = {s.randomRange->low, s.randomRange->high};
    return j;
}

InputSpec inputFrom(const Json& j, const std::string& path) {
    using namespace json;
    InputSpec s;
    Object o(j, path);
    o.field("name", [&](const Json& v, const std::string& p) { s.name = str(v, p); });
    o.field("shape", [&](const Json& v, const std::string& p) {
        size_t i = 0;
        for (const auto& d : array(v, p))
            s.shape.push_back(counted(d, fmt::format("{}[{}]", p, i++), INT64_MAX));
    });
    o.field("dtype", [&](const Json& v, const std::string& p) {
        auto dt = parseDType(str(v, p));
        if (!dt)
            throw bad(p, fmt::format("'{}' is not a dtype", v.get<std::string>()),
                      "use f32, f16, f64, i64, i32, i16, i8, u8 or bool");
        s.dtype = *dt;
    });
    o.field("values_file", [&](const Json& v, const std::string& p) { s.valuesFile = str(v, p); });
    o.field("values_member",
            [&](const Json& v, const std::string& p) { s.valuesMember = str(v, p); });
    o.field("values", [&](const Json& v, const std::string& p) {
        size_t i = 0;
        for (const auto& x : array(v, p)) {
            const std::string at = fmt::format("{}[{}]", p, i++);
            if (x.is_boolean())
                s.values.push_back(x.get<bool>() ? 1 : 0);
            else if (x.is_number())
                s.values.push_back(x.get<double>());
            else
                throw bad(at, "is not a number", "give the example values as numbers");
        }
    });
    o.field("random_range", [&](const Json& v, const std::string& p) {
        const auto& pair = array(v, p);
        if (pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number_integer() ||
            pair[0].get<int64_t>() > pair[1].get<int64_t>())
            throw bad(p, "is not a pair [LOW, HIGH] of integers with LOW <= HIGH",
                      "random_range draws example integers from LOW to HIGH, both included");
        s.randomRange = InputSpec::IntegerRange{pair[0].get<int64_t>(), pair[1].get<int64_t>()};
    });
    o.done();
    if (s.name.empty())
        throw bad(path + ".name", "is missing or empty", "every input needs a name");
    if (s.randomRange &&
        (!s.values.empty() || !s.valuesFile.empty() || isFloat(s.dtype) || s.dtype == DType::Bool))
        throw bad(path + ".random_range",
                  "is given with values, a values file or a non-integer dtype",
                  "random_range draws integers; give it alone, with an integer dtype");
    // A member is a name inside values_file's .npz: alone it means nothing
    // (and a recipe written back would drop it).
    if (!s.valuesMember.empty() && s.valuesFile.empty())
        throw bad(path + ".values_member", "is given without values_file",
                  "values_member names an array of the .npz that values_file gives");
    return s;
}
} // namespace

Json inputsJson(const ExportOptions& o) {
    Json j = Json::array();
    for (const auto& s : o.inputs)
        j.push_back(inputJson(s));
    return j;
}

void inputsFromJson(ExportOptions& o, const Json& j, const std::string& path) {
    o.inputs.clear();
    size_t i = 0;
    for (const auto& e : json::array(j, path))
        o.inputs.push_back(inputFrom(e, fmt::format("{}[{}]", path, i++)));
}

Texts inputsText(const ExportOptions& o) {
    Texts out;
    for (const auto& s : o.inputs)
        out.push_back(s.toString());
    return out;
}

void inputsFromText(ExportOptions& o, const Texts& v) {
    o.inputs.clear();
    for (const auto& s : v)
        o.inputs.push_back(InputSpec::parse(s));
    util::checkNameLengths(o);
}

Json dynamicAxesJson(const ExportOptions& o) {
    Json j = Json::array();
    for (const auto& d : o.dynamicAxes) {
        Json a = {{"tensor", d.tensor}, {"axis", d.axis}, {"symbol", d.symbol}};
        // Only when given: recipes without a rule keep their bytes.
        if (d.multipleOf > 0)
            a["multiple_of"] = d.multipleOf;
        if (d.min > 0)
            a["min"] = d.min;
        j.push_back(a);
    }
    return j;
}

void dynamicAxesFromJson(ExportOptions& o, const Json& j, const std::string& path) {
    using namespace json;
    o.dynamicAxes.clear();
    size_t i = 0;
    for (const auto& e : array(j, path)) {
        std::string at = fmt::format("{}[{}]", path, i++);
        DynamicAxis d;
        Object a(e, at);
        a.field("tensor", [&](const Json& x, const std::string& q) { d.tensor = str(x, q); });
        a.field("axis", [&](const Json& x, const std::string& q) {
            const int64_t axis = integer(x, q);
            if (axis < -64 || axis > 64)
                throw bad(q, fmt::format("is {}", axis), "an axis of a tensor of rank <= 64");
            d.axis = static_cast<int>(axis);
        });
        a.field("symbol", [&](const Json& x, const std::string& q) { d.symbol = str(x, q); });
        auto size = [&](int64_t& into) {
            return [&into](const Json& x, const std::string& q) {
                const int64_t n = integer(x, q);
                if (n < 1 || n > (int64_t(1) << 30))
                    throw bad(q, fmt::format("is {}", n), "a whole number from 1");
                into = n;
            };
        };
        a.field("multiple_of", size(d.multipleOf));
        a.field("min", size(d.min));
        a.done();
        // The text form validates names and symbols.
        o.dynamicAxes.push_back(parsed(at, [&] { return DynamicAxis::parse(d.toString()); }));
    }
}

Texts dynamicAxesText(const ExportOptions& o) {
    Texts out;
    for (const auto& d : o.dynamicAxes)
        out.push_back(d.toString());
    return out;
}

void dynamicAxesFromText(ExportOptions& o, const Texts& v) {
    o.dynamicAxes.clear();
    for (const auto& s : v)
        o.dynamicAxes.push_back(DynamicAxis::parse(s));
    util::checkNameLengths(o);
}

Json propertiesJson(const ExportOptions& o) {
    Json j = Json::array();
    for (const auto& [k, v] : o.properties)
        j.push_back({{"key", k}, {"value", v}});
    return j;
}

void propertiesFromJson(ExportOptions& o, const Json& j, const std::string& path) {
    using namespace json;
    o.properties.clear();
    size_t i = 0;
    for (const auto& e : array(j, path)) {
        std::string key, value;
        Object kv(e, fmt::format("{}[{}]", path, i++));
        kv.field("key", [&](const Json& x, const std::string& q) { key = str(x, q); });
        kv.field("value", [&](const Json& x, const std::string& q) { value = str(x, q); });
        kv.done();
        o.properties.emplace_back(key, value);
    }
}

Texts propertiesText(const ExportOptions& o) {
    Texts out;
    for (const auto& [k, v] : o.properties)
        out.push_back(k + "=" + v);
    return out;
}

void propertiesFromText(ExportOptions& o, const Texts& v) {
    o.properties.clear();
    for (const auto& p : v) {
        auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0)
            throw usage(fmt::format("bad property '{}'", p), "write KEY=VALUE");
        o.properties.emplace_back(p.substr(0, eq), p.substr(eq + 1));
    }
}

} // namespace t2n::options
