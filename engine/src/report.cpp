#include "t2n/report.h"

#include <nlohmann/json.hpp>

namespace t2n {

std::string ExportReport::toJson() const {
    using nlohmann::json;
    json j;
    j["t2n_version"] = t2nVersion;
    j["model"] = model;
    j["target"] = target;
    j["artifact"] = {{"path", artifact.path.string()},
                     {"form", std::string(artifactFormName(artifact.form))},
                     {"gzip_level", artifact.gzipLevel},
                     {"bytes", bytesWritten}};
    if (!artifact.note.empty())
        j["artifact"]["note"] = artifact.note;
    json stages = json::array();
    for (const auto& t : timings)
        stages.push_back({{"stage", std::string(stageName(t.stage))}, {"seconds", t.seconds}});
    j["stages"] = stages;
    j["warnings"] = warnings;
    j["graph_nodes"] = graphNodes;
    j["torch_ops"] = torchOps;
    j["nnef_ops"] = nnefOps;
    j["inputs"] = inputs;
    j["outputs"] = outputs;
    j["extensions"] = extensions;
    json vars = json::array();
    for (const auto& v : variables) {
        json e{{"identifier", v.identifier},
               {"label", v.label},
               {"dtype", v.dtype},
               {"shape", v.shape},
               {"origin", v.origin}};
        if (!v.from.empty())
            e["from"] = v.from;
        vars.push_back(std::move(e));
    }
    j["variables"] = vars;
    return j.dump(2);
}

} // namespace t2n
