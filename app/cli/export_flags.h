// Command-line flags that describe an export, shared by export, inspect and
// bench, and their conversion to t2n::ExportOptions.
#pragma once

#include "t2n/options.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace t2n::cli {

struct ExportFlags {
    std::string model;
    std::vector<std::string> inputs;
    std::vector<std::string> inputNames;
    std::vector<std::string> outputNames;
    std::string target = "tract";
    std::vector<std::string> dynamicAxes;
    std::vector<std::string> properties;
    bool noIdentityProperties = false;
    bool dateProperty = false;
    std::string naming = "natural_verbose";
    std::string compression = "0";
    bool noCheckIoNames = false;
    bool allowSameIoNames = false;
    std::vector<std::string> extensions;
    std::string logLevel = "info";
    uint64_t seed = 0;
    bool noCheck = false;
    std::string tolerance = "approximate";
    std::string tractBin;
    std::string debugBundle;
    bool checkEveryValue = false;
};

/// --input, --seed, --log-level.
void addInputFlags(CLI::App& app, ExportFlags& f);
/// The model argument and the input flags; the model may be left out when
/// a recipe can give it.
void addModelFlags(CLI::App& app, ExportFlags& f, bool modelRequired = true);
/// Names, target, properties, compression ... (everything but the model).
void addExportOptionFlags(CLI::App& app, ExportFlags& f);
/// --tolerance, --tract-bin, --debug-bundle, --check-every-value.
void addCheckFlags(CLI::App& app, ExportFlags& f);
/// The model, the inputs, every export option and the check flags.
void addExportFlags(CLI::App& app, ExportFlags& f, bool modelRequired = true);

/// Throws t2n::Error (Usage) with a hint for malformed values.
ExportOptions toOptions(const ExportFlags& f);
/// `base` (a recipe's options) with the flags given on `app`'s command line
/// applied over it; flags left out keep the recipe's values.
ExportOptions applyGivenFlags(const ExportFlags& f, ExportOptions base, const CLI::App& app);

} // namespace t2n::cli
