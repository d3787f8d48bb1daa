#include "t2n/recipe.h"

#include "t2n/error.h"
#include "t2n/outputs.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>

namespace t2n {

using Json = nlohmann::ordered_json;

namespace {
Error bad(const std::string& path, const std::string& what, std::string hint) {
    return Error(Stage::Load, ErrorCode::Usage, fmt::format("recipe: {} {}", path, what),
                 std::move(hint));
}

std::string typeName(const Json& j) {
    return j.type_name();
}

// One JSON object of the recipe: reads the keys it knows and refuses the rest.
class Object {
public:
    Object(const Json& j, std::string path) : j_(j), path_(std::move(path)) {
        if (!j.is_object())
            throw bad(path_, fmt::format("is {}, expected an object", typeName(j)),
                      "see `t2n export --save-recipe` for a complete example");
    }

    template <class Read> void field(const std::string& key, Read&& read) {
        known_.push_back(key);
        if (j_.contains(key))
            read(j_.at(key), path_ + "." + key);
    }

    void done() const {
        for (const auto& [key, value] : j_.items())
            if (std::find(known_.begin(), known_.end(), key) == known_.end())
                throw bad(path_ + "." + key, "is not a recipe key",
                          fmt::format("keys here: {}", fmt::join(known_, ", ")));
    }

private:
    const Json& j_;
    std::string path_;
    std::vector<std::string> known_;
};

std::string str(const Json& j, const std::string& path) {
    if (!j.is_string())
        throw bad(path, fmt::format("is {}, expected a string", typeName(j)), "quote the value");
    return j.get<std::string>();
}
bool boolean(const Json& j, const std::string& path) {
    if (!j.is_boolean())
        throw bad(path, fmt::format("is {}, expected true or false", typeName(j)),
                  "write true or false without quotes");
    return j.get<bool>();
}
int64_t integer(const Json& j, const std::string& path) {
    if (!j.is_number_integer())
        throw bad(path, fmt::format("is {}, expected an integer", typeName(j)),
                  "write a whole number without quotes");
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
        throw bad(path, fmt::format("is {}, more than a 64-bit integer holds", j.dump()),
                  "write a smaller number");
    return j.get<int64_t>();
}
// A count or a size: an integer from 0 to `max`.
int64_t counted(const Json& j, const std::string& path, int64_t max) {
    const int64_t v = integer(j, path);
    if (v < 0 || v > max)
        throw bad(path, fmt::format("is {}, expected an integer from 0 to {}", v, max),
                  "sizes and counts are never negative");
    return v;
}
const Json& array(const Json& j, const std::string& path) {
    if (!j.is_array())
        throw bad(path, fmt::format("is {}, expected an array", typeName(j)),
                  "write a list in [ ]");
    return j;
}
std::vector<std::string> strings(const Json& j, const std::string& path) {
    std::vector<std::string> out;
    size_t i = 0;
    for (const auto& e : array(j, path))
        out.push_back(str(e, fmt::format("{}[{}]", path, i++)));
    return out;
}

// Values that have a text form parse through it, with the JSON path in front.
template <class F> auto parsed(const std::string& path, F&& parse) {
    try {
        return parse();
    } catch (const Error& e) {
        throw bad(path, e.message(), e.hint());
    }
}

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
    return j;
}

InputSpec inputFrom(const Json& j, const std::string& path) {
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
    o.done();
    if (s.name.empty())
        throw bad(path + ".name", "is missing or empty", "every input needs a name");
    return s;
}

Json hardenJson(const harden::HardenOptions& h) {
    Json j;
    j["freeze"] = h.freeze;
    j["skip"] = std::vector<std::string>(h.skip.begin(), h.skip.end());
    j["rewrite_limit"] = h.rewriteLimit ? Json(*h.rewriteLimit) : Json();
    j["snapshots"] = h.snapshots;
    j["max_rounds"] = h.maxRounds;
    return j;
}

void hardenFrom(const Json& j, const std::string& path, harden::HardenOptions& h) {
    Object o(j, path);
    o.field("freeze", [&](const Json& v, const std::string& p) { h.freeze = boolean(v, p); });
    o.field("skip", [&](const Json& v, const std::string& p) {
        auto names = strings(v, p);
        h.skip = std::set<std::string>(names.begin(), names.end());
    });
    o.field("rewrite_limit", [&](const Json& v, const std::string& p) {
        if (v.is_null())
            h.rewriteLimit.reset();
        else
            h.rewriteLimit = counted(v, p, INT64_MAX);
    });
    o.field("snapshots", [&](const Json& v, const std::string& p) { h.snapshots = boolean(v, p); });
    o.field("max_rounds", [&](const Json& v, const std::string& p) {
        h.maxRounds = static_cast<int>(counted(v, p, 1 << 20));
    });
    o.done();
}
} // namespace

std::string toJson(const ExportRecipe& r, int indent) {
    const ExportOptions& o = r.options;
    Json j;
    j["t2n_recipe"] = kRecipeVersion;
    j["model"] = r.model.string();
    j["output"] = r.output.string();
    j["inputs"] = Json::array();
    for (const auto& s : o.inputs)
        j["inputs"].push_back(inputJson(s));
    j["input_names"] = o.inputNames;
    j["output_names"] = o.outputNames;
    j["target"] = o.target.toString(/*resolveDefault=*/false);
    j["dynamic_axes"] = Json::array();
    for (const auto& d : o.dynamicAxes)
        j["dynamic_axes"].push_back({{"tensor", d.tensor}, {"axis", d.axis}, {"symbol", d.symbol}});
    j["properties"] = Json::array();
    for (const auto& [k, v] : o.properties)
        j["properties"].push_back({{"key", k}, {"value", v}});
    j["identity_properties"] = o.identityProperties;
    j["stamp_export_date"] = o.stampExportDate;
    j["naming"] = std::string(namingSchemeName(o.naming));
    j["check_io_names_quantity_match"] = o.checkIoNamesQuantityMatch;
    j["allow_same_io_names"] = o.allowSameIoNames;
    j["custom_extensions"] = o.customExtensions;
    j["reify_sdpa"] = o.reifySdpa;
    j["upsample_with_debox"] = o.upsampleWithDebox;
    j["compute"] = o.compute ? Json(std::string(dtypeName(*o.compute))) : Json();
    j["f32_attention"] = o.f32Attention;
    j["f32_linear_accumulation"] = o.f32LinearAccumulation;
    j["f32_norm"] = o.f32Norm;
    j["compression_level"] = o.compressionLevel ? Json(*o.compressionLevel) : Json();
    j["log_level"] = std::string(logLevelName(o.logLevel));
    j["harden"] = hardenJson(o.harden);
    j["check"] = o.check;
    j["check_tolerance"] = o.checkTolerance;
    j["check_every_value"] = o.checkEveryValue;
    j["weights_q4_0"] = o.weightsQ4_0;
    j["tract_binary"] = o.tractBinary;
    j["debug_bundle"] = o.debugBundle;
    j["seed"] = o.seed;
    return j.dump(indent);
}

ExportRecipe recipeFromJson(std::string_view text) {
    Json j;
    try {
        j = Json::parse(text);
    } catch (const nlohmann::json::exception& e) { // parse_error; out_of_range for 1e999
        throw bad("$", fmt::format("is not JSON ({})", e.what()), "check the file's syntax");
    }
    ExportRecipe r;
    ExportOptions& o = r.options;
    if (!j.is_object() || !j.contains("t2n_recipe"))
        throw bad("$.t2n_recipe", "is missing: this is not a t2n recipe",
                  "a recipe starts with \"t2n_recipe\": 1 (see `t2n export --save-recipe`)");
    Object root(j, "$");
    root.field("t2n_recipe", [&](const Json& v, const std::string& p) {
        if (integer(v, p) != kRecipeVersion)
            throw bad(p, fmt::format("is {}; this t2n reads version {}", v.dump(), kRecipeVersion),
                      "save the recipe again with this version of t2n");
    });
    root.field("model", [&](const Json& v, const std::string& p) { r.model = str(v, p); });
    root.field("output", [&](const Json& v, const std::string& p) { r.output = str(v, p); });
    root.field("inputs", [&](const Json& v, const std::string& p) {
        size_t i = 0;
        for (const auto& e : array(v, p))
            o.inputs.push_back(inputFrom(e, fmt::format("{}[{}]", p, i++)));
    });
    root.field("input_names",
               [&](const Json& v, const std::string& p) { o.inputNames = strings(v, p); });
    root.field("output_names",
               [&](const Json& v, const std::string& p) { o.outputNames = strings(v, p); });
    root.field("target", [&](const Json& v, const std::string& p) {
        o.target = parsed(p, [&] { return TargetSpec::parse(str(v, p)); });
    });
    root.field("dynamic_axes", [&](const Json& v, const std::string& p) {
        size_t i = 0;
        for (const auto& e : array(v, p)) {
            std::string at = fmt::format("{}[{}]", p, i++);
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
            a.done();
            // The text form validates names and symbols.
            o.dynamicAxes.push_back(parsed(at, [&] {
                return DynamicAxis::parse(fmt::format("{}:{}={}", d.tensor, d.axis, d.symbol));
            }));
        }
    });
    root.field("properties", [&](const Json& v, const std::string& p) {
        size_t i = 0;
        for (const auto& e : array(v, p)) {
            std::string key, value;
            Object kv(e, fmt::format("{}[{}]", p, i++));
            kv.field("key", [&](const Json& x, const std::string& q) { key = str(x, q); });
            kv.field("value", [&](const Json& x, const std::string& q) { value = str(x, q); });
            kv.done();
            o.properties.emplace_back(key, value);
        }
    });
    root.field("identity_properties",
               [&](const Json& v, const std::string& p) { o.identityProperties = boolean(v, p); });
    root.field("stamp_export_date",
               [&](const Json& v, const std::string& p) { o.stampExportDate = boolean(v, p); });
    root.field("naming", [&](const Json& v, const std::string& p) {
        auto n = parseNamingScheme(str(v, p));
        if (!n)
            throw bad(p, fmt::format("'{}' is not a naming scheme", v.get<std::string>()),
                      "use raw, natural_verbose, natural_verbose_camel or numeric");
        o.naming = *n;
    });
    root.field("check_io_names_quantity_match", [&](const Json& v, const std::string& p) {
        o.checkIoNamesQuantityMatch = boolean(v, p);
    });
    root.field("allow_same_io_names",
               [&](const Json& v, const std::string& p) { o.allowSameIoNames = boolean(v, p); });
    root.field("custom_extensions",
               [&](const Json& v, const std::string& p) { o.customExtensions = strings(v, p); });
    root.field("reify_sdpa",
               [&](const Json& v, const std::string& p) { o.reifySdpa = boolean(v, p); });
    root.field("upsample_with_debox",
               [&](const Json& v, const std::string& p) { o.upsampleWithDebox = boolean(v, p); });
    root.field("compute", [&](const Json& v, const std::string& p) {
        if (v.is_null()) {
            o.compute.reset();
            return;
        }
        const std::string name = str(v, p);
        if (name != "f16")
            throw bad(p, fmt::format("'{}' is not a compute type", name),
                      "use \"f16\", or null for the model's own types");
        o.compute = DType::F16;
    });
    root.field("f32_attention",
               [&](const Json& v, const std::string& p) { o.f32Attention = boolean(v, p); });
    root.field("f32_linear_accumulation", [&](const Json& v, const std::string& p) {
        o.f32LinearAccumulation = boolean(v, p);
    });
    root.field("f32_norm", [&](const Json& v, const std::string& p) { o.f32Norm = boolean(v, p); });
    root.field("compression_level", [&](const Json& v, const std::string& p) {
        if (v.is_null()) {
            o.compressionLevel.reset();
            return;
        }
        int64_t level = integer(v, p);
        if (level < 0 || level > 9)
            throw bad(p, fmt::format("is {}", level), "use null (folder), or 0 to 9");
        o.compressionLevel = static_cast<int>(level);
    });
    root.field("log_level", [&](const Json& v, const std::string& p) {
        auto l = parseLogLevel(str(v, p));
        if (!l)
            throw bad(p, fmt::format("'{}' is not a log level", v.get<std::string>()),
                      "use trace, debug, info, warn, error or off");
        o.logLevel = *l;
    });
    root.field("harden", [&](const Json& v, const std::string& p) { hardenFrom(v, p, o.harden); });
    root.field("check", [&](const Json& v, const std::string& p) { o.check = boolean(v, p); });
    root.field("check_tolerance",
               [&](const Json& v, const std::string& p) { o.checkTolerance = str(v, p); });
    root.field("check_every_value",
               [&](const Json& v, const std::string& p) { o.checkEveryValue = boolean(v, p); });
    root.field("weights_q4_0",
               [&](const Json& v, const std::string& p) { o.weightsQ4_0 = boolean(v, p); });
    root.field("tract_binary",
               [&](const Json& v, const std::string& p) { o.tractBinary = str(v, p); });
    root.field("debug_bundle",
               [&](const Json& v, const std::string& p) { o.debugBundle = str(v, p); });
    root.field("seed", [&](const Json& v, const std::string& p) {
        if (!v.is_number_unsigned())
            throw bad(p, fmt::format("is {}, expected a non-negative integer", typeName(v)),
                      "write a whole number without quotes");
        o.seed = v.get<uint64_t>();
    });
    root.done();
    return r;
}

ExportRecipe loadRecipe(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("cannot read the recipe '{}'", file.string()),
                    "check the path (recipes are written by --save-recipe or the studio)");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return recipeFromJson(text.str());
    } catch (const Error& e) {
        throw Error(Stage::Load, ErrorCode::Usage, file.string() + ": " + e.message(), e.hint());
    }
}

void saveRecipe(const std::filesystem::path& file, const ExportRecipe& recipe) {
    // The write protocol of t2n/outputs.h: an old recipe is replaced whole or not at all.
    checkDestination(file, Stage::Write, "recipe", {recipe.model});
    PendingOutputs pending;
    pending.addText(file, toJson(recipe) + "\n", Stage::Write, "recipe");
    pending.publish();
}

} // namespace t2n
