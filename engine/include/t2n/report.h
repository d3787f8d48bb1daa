// What an export did, as one JSON document (also what the studio shows).
#pragma once

#include "t2n/artifact.h"
#include "t2n/error.h"

#include <map>
#include <string>
#include <vector>

namespace t2n {

struct StageTiming {
    Stage stage;
    double seconds = 0;
};

struct VariableRecord {
    std::string identifier;
    std::string label;
    std::string dtype;
    std::vector<int64_t> shape;
    /// "parameter" (bytes of a model parameter or buffer) or "derived".
    std::string origin;
    /// For derived variables: what they were computed from.
    std::string from;
};

struct ExportReport {
    std::string model;
    std::string t2nVersion;
    std::string target;
    Artifact artifact;
    std::vector<StageTiming> timings;
    std::vector<std::string> warnings;
    std::map<std::string, int> torchOps; ///< TorchScript kinds translated
    std::map<std::string, int> nnefOps;  ///< NNEF operations emitted
    std::vector<VariableRecord> variables;
    std::vector<std::string> inputs, outputs;
    std::vector<std::string> extensions;
    int64_t bytesWritten = 0;
    int graphNodes = 0;

    std::string toJson() const;
};

} // namespace t2n
