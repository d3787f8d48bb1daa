// State shared by the two halves of the structural check:
// structure_check.cpp (document rules) and structure_body.cpp (bodies).
#pragma once

#include "check/structure_check.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace t2n::check {

struct Checker {
    Checker(const nnef::LoadedModel& m, nnef::ReadMode md) : model(m), mode(md) {}

    const nnef::LoadedModel& model;
    nnef::ReadMode mode;
    std::vector<Problem> problems;

    bool khrFragments = false, khrOperators = false;
    std::set<std::string> registries; ///< canonical names from tract_registry lines
    std::set<std::string> symbols;    ///< tract_symbol declarations
    std::set<std::string> fragments;  ///< fragments defined by the document
    std::set<std::string> graphNames; ///< every identifier the graph assigns
    std::set<std::string> usedLabels; ///< labels of the graph's variables
    std::set<std::string> undeclaredSymbols;
    std::set<std::string> keywordsReported; ///< each keyword name once, at its first place
    std::set<std::string> quantKeys;        ///< graph.quant keys (filled on first use)

    struct OpUse {
        nnef::ast::Location first;
        int count = 0;
    };
    std::map<std::string, OpUse> opUses; ///< every invoked operation name
    /// Named parameters the version table limits ("tract_core_scatter_nd:reduction").
    std::map<std::string, OpUse> gatedParamUses;

    /// Names visible in one body (graph or fragment).
    struct Scope {
        std::set<std::string> defined;
        std::map<std::string, nnef::ast::Location> assignedAt; ///< first assignment
        bool graph = false;
    };

    void add(Problem::Severity s, std::string rule, const nnef::ast::Location& loc,
             std::string message);
    void error(std::string rule, const nnef::ast::Location& loc, std::string message);
    void warning(std::string rule, const nnef::ast::Location& loc, std::string message);

    // structure_check.cpp
    void extensions();
    void documentRules();
    void keywordName(const std::string& name, const nnef::ast::Location& loc);
    void quantRules();
    void unusedTensors();

    // structure_body.cpp
    void fragment(const nnef::ast::Fragment& f);
    void graph();
    void operationsSummary();

    // structure_versions.cpp
    void versionRules();
    void body(const std::vector<nnef::ast::Assignment>& body, Scope& scope);
    void uses(const nnef::ast::ExprPtr& e, const Scope& scope, std::vector<std::string>& locals,
              bool shapeContext);
    void operations(const nnef::ast::ExprPtr& e, bool inGraph);
    void strictExpressions(const nnef::ast::ExprPtr& rhs);
    void graphInputRules(const nnef::ast::Assignment& a, const std::set<std::string>& inputs);
    void variableRules(const nnef::ast::Assignment& a);
};

} // namespace t2n::check
