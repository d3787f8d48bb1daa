#include "t2n/recipe.h"

#include "t2n/error.h"
#include "t2n/option_table.h"
#include "t2n/outputs.h"
#include "util/json_fields.h"
#include "util/name_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace t2n {

using namespace t2n::json;

namespace {
// "harden.freeze": the object "harden" and the key "freeze" in it; "seed": none and "seed".
std::pair<std::string_view, std::string_view> splitKey(std::string_view key) {
    const auto dot = key.find('.');
    if (dot == std::string_view::npos)
        return {{}, key};
    return {key.substr(0, dot), key.substr(dot + 1)};
}

// The one option that names a program to run: never written to a recipe, and
// read from one only into ExportRecipe::ignoredTractBinary.
bool namesAProgram(const OptionRow& row) {
    return row.name == "tractBinary";
}
} // namespace

std::string toJson(const ExportRecipe& r, int indent) {
    Json j;
    j["t2n_recipe"] = kRecipeVersion;
    j["model"] = r.model.string();
    j["output"] = r.output.string();
    for (const OptionRow& row : exportOptionTable()) {
        if (namesAProgram(row))
            continue;
        auto [object, key] = splitKey(row.jsonKey);
        Json& into = object.empty() ? j : j[std::string(object)];
        into[std::string(key)] = row.toJson(r.options);
    }
    // A path or a property value that is not UTF-8 is written with U+FFFD
    // for each bad byte (json type_error.316 ended the run otherwise).
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

ExportRecipe recipeFromJson(std::string_view text) {
    Json j;
    try {
        j = parseWithoutDuplicateKeys(text);
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
    const auto rows = exportOptionTable();
    for (auto it = rows.begin(); it != rows.end(); ++it) {
        // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
        const auto parts = splitKey(it->jsonKey);
        const auto object = parts.first, key = parts.second;
        if (object.empty()) {
            root.field(std::string(key), [&](const Json& v, const std::string& p) {
                if (!namesAProgram(*it))
                    return it->fromJson(o, v, p);
                ExportOptions aside; // read (a bad value is still an error), never run
                it->fromJson(aside, v, p);
                r.ignoredTractBinary = aside.tractBinary;
            });
            continue;
        }
        // The rows of one object ("harden.*") follow each other: read them together.
        auto last = std::find_if(it, rows.end(), [&](const OptionRow& row) {
            return splitKey(row.jsonKey).first != object;
        });
        root.field(std::string(object), [&](const Json& v, const std::string& p) {
            Object nested(v, p);
            for (auto row = it; row != last; ++row)
                nested.field(std::string(splitKey(row->jsonKey).second),
                             [&](const Json& x, const std::string& q) { row->fromJson(o, x, q); });
            nested.done();
        });
        it = last - 1;
    }
    root.done();
    util::checkNameLengths(o);
    // Each path by its JSON path, before any front end compares its suffix.
    util::checkPathText(r.model.native(), "$.model");
    util::checkPathText(r.output.native(), "$.output");
    for (size_t i = 0; i < o.inputs.size(); ++i)
        util::checkPathText(o.inputs[i].valuesFile, fmt::format("$.inputs[{}].values_file", i));
    util::checkPathText(o.debugBundle, "$.debug_bundle");
    util::checkPathText(r.ignoredTractBinary, "$.tract_binary");
    return r;
}

namespace {

// The recipe's JSON: the file itself, or the data block of an HTML report
// (its JSON has '<' written as \u003c, so the block ends at the first "</").
std::string recipeText(const std::string& text, const std::filesystem::path& file) {
    const auto start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos || text[start] != '<')
        return text;
    const std::string open =
        fmt::format("<script type=\"application/json\" id=\"{}\">", kReportRecipeBlock);
    const auto at = text.find(open);
    const auto end = at == std::string::npos ? at : text.find("</script>", at);
    if (end == std::string::npos)
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("'{}' is an HTML file without a t2n recipe", file.string()),
                    "give a report written by --report-html or the studio's File > Save report, "
                    "or a recipe (.json)");
    return text.substr(at + open.size(), end - at - open.size());
}

} // namespace

ExportRecipe loadRecipe(const std::filesystem::path& file) {
    util::checkPathText(file.native(), "recipe path");
    // A recipe (or a report holding one) is a small regular file: /dev/zero
    // or a FIFO (also behind a link) was read until memory ran out, or for
    // ever, before anything was refused.
    constexpr std::uintmax_t kMaxRecipeBytes = std::uintmax_t{32} << 20;
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("the recipe '{}' is not a regular file", file.string()),
                    "give a recipe (.json) or an HTML report file, not a device, FIFO or folder");
    if (const auto size = std::filesystem::file_size(file, ec); !ec && size > kMaxRecipeBytes)
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("the recipe '{}' is {} bytes; t2n reads recipes and reports of "
                                "at most {} bytes",
                                file.string(), size, kMaxRecipeBytes),
                    "give the recipe t2n wrote (a few KiB), or the report's");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(Stage::Load, ErrorCode::Usage,
                    fmt::format("cannot read the recipe '{}'", file.string()),
                    "check the path (recipes are written by --save-recipe or the studio)");
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = recipeText(text.str(), file);
    try {
        return recipeFromJson(json);
    } catch (const Error& e) {
        throw Error(Stage::Load, ErrorCode::Usage, file.string() + ": " + e.message(), e.hint());
    }
}

void saveRecipe(const std::filesystem::path& file, const ExportRecipe& recipe) {
    // The write protocol of t2n/outputs.h: an old recipe is replaced whole or not at all.
    std::vector<std::filesystem::path> read{recipe.model};
    for (const auto& input : recipe.options.inputs)
        read.emplace_back(input.valuesFile);
    checkTextDestination(file, Stage::Write, "recipe", read);
    PendingOutputs pending;
    pending.addText(file, toJson(recipe) + "\n", Stage::Write, "recipe");
    pending.publish();
}

} // namespace t2n
