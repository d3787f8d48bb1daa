// Command-line flags that describe an export, shared by `t2n export`,
// `check`, `inspect`, `bench` and by `t2n-studio` (one parser: the studio
// takes every flag of `t2n export`), and their conversion to
// t2n::ExportOptions and recipes. The flags, their help and their parsing
// come from the option table (t2n/option_table.h).
#pragma once

#include "t2n/options.h"
#include "t2n/recipe.h"

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

namespace t2n::cli {

struct ExportFlags {
    std::string model;
    /// What the command line gave for each export option's flag, by the
    /// name of its row in t2n/option_table.h. Values of One start as the
    /// default options' text (what --help shows); a Switch is `on` when given.
    struct Given {
        std::string one;
        std::vector<std::string> many;
        bool on = false;
    };
    std::map<std::string, Given, std::less<>> options;
    // `t2n export`'s own: the artifact, the recipe read and written, the report.
    std::string output;
    std::string recipe;
    std::string saveRecipe;
    std::string report;
    std::string reportHtml; ///< --report-html (export, check, the studio)
};

/// The flags of the options the load stage reads: --input, --seed, --log-level.
void addInputFlags(CLI::App& app, ExportFlags& f);
/// The model argument and the input flags; the model may be left out when
/// a recipe can give it.
void addModelFlags(CLI::App& app, ExportFlags& f, bool modelRequired = true);
/// The flags of the options translation and writing read: names, target,
/// properties, compression ...
void addExportOptionFlags(CLI::App& app, ExportFlags& f);
/// The flags of the options the check reads (--tolerance ...), but --no-check.
void addCheckFlags(CLI::App& app, ExportFlags& f);
/// The model, the inputs, every export option and the check flags.
void addExportFlags(CLI::App& app, ExportFlags& f, bool modelRequired = true);

/// -o, --recipe, --save-recipe, --report, --report-html, --no-check: with
/// addExportFlags, every flag of `t2n export`.
void addExportCommandFlags(CLI::App& app, ExportFlags& f);
/// --report-html FILE (`t2n export`, `t2n check`).
void addReportHtmlFlag(CLI::App& app, ExportFlags& f);

/// Throws t2n::Error (Usage) with a hint for malformed values.
ExportOptions toOptions(const ExportFlags& f);
/// `base` (a recipe's options) with the flags given on `app`'s command line
/// applied over it; flags left out keep the recipe's values.
ExportOptions applyGivenFlags(const ExportFlags& f, ExportOptions base, const CLI::App& app);
/// The --recipe file (when given) with the flags given on `app` over it; the
/// model and output may still be empty. Throws t2n::Error.
ExportRecipe resolveRecipe(const ExportFlags& f, const CLI::App& app);

/// Every file a run reads that its command line or recipe names: the model,
/// the recipe file, the input values files and the tract binary. No output
/// of the run may be one of them.
std::vector<std::filesystem::path> filesRead(const ExportRecipe& r, const std::string& recipeFile);

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
