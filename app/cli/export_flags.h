// Command-line flags that describe an export, shared by `t2n export`,
// `check`, `inspect`, `bench` and by `t2n-studio` (one parser: the studio
// takes every flag of `t2n export`), and their conversion to
// t2n::ExportOptions and recipes.
#pragma once

#include "t2n/options.h"
#include "t2n/recipe.h"

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
    bool reifySdpa = false;
    bool upsampleWithDebox = false;
    std::string compute;
    bool f32Attention = false;
    bool f32LinearAccumulation = false;
    bool f32Norm = false;
    std::string logLevel = "info";
    uint64_t seed = 0;
    bool noCheck = false;
    std::string tolerance = "approximate";
    std::string tractBin;
    std::string debugBundle;
    bool checkEveryValue = false;
    bool weightsQ4_0 = false;
    // `t2n export`'s own: the artifact, the recipe read and written, the report.
    std::string output;
    std::string recipe;
    std::string saveRecipe;
    std::string report;
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

/// -o, --recipe, --save-recipe, --report, --no-check: with addExportFlags,
/// every flag of `t2n export`.
void addExportCommandFlags(CLI::App& app, ExportFlags& f);

/// Throws t2n::Error (Usage) with a hint for malformed values.
ExportOptions toOptions(const ExportFlags& f);
/// `base` (a recipe's options) with the flags given on `app`'s command line
/// applied over it; flags left out keep the recipe's values.
ExportOptions applyGivenFlags(const ExportFlags& f, ExportOptions base, const CLI::App& app);
/// The --recipe file (when given) with the flags given on `app` over it; the
/// model and output may still be empty. Throws t2n::Error.
ExportRecipe resolveRecipe(const ExportFlags& f, const CLI::App& app);

/// Where a failed export or check leaves its recipe for the studio: t2n's
/// state folder ($XDG_STATE_HOME/t2n/failed, else ~/.local/state/t2n/failed),
/// never beside the target (a failed run writes nothing among the user's
/// files), as NAME-HASH.recipe.json after the target's name and absolute
/// path. Empty when there is no home to put it in.
std::filesystem::path failedRecipePath(const std::filesystem::path& target);
/// The command line that opens `path` (a recipe or a debug bundle) in the
/// studio, with the path quoted for a POSIX shell when needed.
std::string studioCommand(const std::filesystem::path& path);

} // namespace t2n::cli
