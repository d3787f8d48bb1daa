// Tier 0 of the checks: structural rules an NNEF artifact must follow, read
// back by t2n's own reader (reader/model_reader.h). Single assignment, defined
// before use, graph inputs and outputs, variables against their .dat files,
// graph.quant keys, the operations the target knows, and the target's own
// rules (tract: template-safe text, registries declared, operations that the
// tract version named by tract_core_properties has; Khronos: KHR extensions
// only, no keywords as names, version 1.0).
#pragma once

#include "reader/ast.h"
#include "reader/model_reader.h"

#include <string>
#include <vector>

namespace t2n::check {

struct Problem {
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    /// Short stable name of the rule, for tests and reports: "single-assignment",
    /// "undefined-identifier", "unknown-operation", "registry-not-declared", ...
    std::string rule;
    std::string message;
    nnef::ast::Location loc; ///< file "" and line 0 when no place fits
};

/// Every problem found, errors and warnings, in document order per rule.
std::vector<Problem> checkStructure(const nnef::LoadedModel& model, nnef::ReadMode mode);

/// "graph.nnef:12:3: error: 'x' is assigned twice [single-assignment]".
std::string formatProblem(const Problem& p);

/// True when no problem is an error.
bool passes(const std::vector<Problem>& problems);

} // namespace t2n::check
