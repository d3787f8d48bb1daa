#include "t2n/check_manifest.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace t2n {

using Json = nlohmann::ordered_json;

const ManifestValue* CheckManifest::find(const std::string& identifier) const {
    for (const auto& v : values)
        if (v.identifier == identifier)
            return &v;
    return nullptr;
}

std::string CheckManifest::toJson() const {
    Json j;
    j["t2n_check_manifest"] = kManifestVersion;
    j["inputs"] = inputs;
    j["input_indices"] = inputIndices;
    j["outputs"] = outputs;
    j["values"] = Json::array();
    for (const auto& v : values)
        j["values"].push_back({{"identifier", v.identifier},
                               {"torch_value", v.torchValue},
                               {"kind", v.node.kind},
                               {"module_path", v.node.modulePath},
                               {"source_file", v.node.sourceFile},
                               {"source_line", v.node.sourceLine},
                               {"source_text", v.node.sourceText},
                               {"value_name", v.node.valueName}});
    // Labels from the model may not be UTF-8: U+FFFD for a bad byte, not type_error.316.
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

CheckManifest CheckManifest::fromJson(std::string_view text, const std::string& where) {
    auto bad = [&](const std::string& what) {
        return Error(Stage::Check, ErrorCode::Usage, fmt::format("{}: {}", where, what),
                     "write the manifest again with the export that made the archive");
    };
    Json j;
    try {
        j = Json::parse(text);
    } catch (const std::exception& e) {
        throw bad(fmt::format("not JSON ({})", e.what()));
    }
    if (!j.is_object() || j.value("t2n_check_manifest", 0) != kManifestVersion)
        throw bad(fmt::format("not a t2n check manifest of version {}", kManifestVersion));
    CheckManifest m;
    try {
        m.inputs = j.at("inputs").get<std::vector<std::string>>();
        m.inputIndices = j.at("input_indices").get<std::vector<size_t>>();
        m.outputs = j.at("outputs").get<std::vector<std::string>>();
        for (const auto& v : j.at("values")) {
            ManifestValue mv;
            mv.identifier = v.at("identifier").get<std::string>();
            mv.torchValue = v.at("torch_value").get<std::string>();
            mv.node.kind = v.at("kind").get<std::string>();
            mv.node.modulePath = v.at("module_path").get<std::string>();
            mv.node.sourceFile = v.at("source_file").get<std::string>();
            mv.node.sourceLine = v.at("source_line").get<int>();
            mv.node.sourceText = v.at("source_text").get<std::string>();
            mv.node.valueName = v.at("value_name").get<std::string>();
            m.values.push_back(std::move(mv));
        }
    } catch (const nlohmann::json::exception& e) {
        throw bad(e.what());
    }
    if (m.inputIndices.size() != m.inputs.size())
        throw bad(
            fmt::format("{} inputs but {} input indices", m.inputs.size(), m.inputIndices.size()));
    return m;
}

std::filesystem::path manifestBeside(const std::filesystem::path& artifact) {
    std::filesystem::path p = artifact;
    if (!p.has_filename()) // "out.nnef/"
        p = p.parent_path();
    p += ".manifest.json";
    return p;
}

} // namespace t2n
