// An export recipe: the model, the output and every export option as one
// JSON document, so that an export set up in the studio runs unchanged in CI
// (`t2n export --recipe FILE`). Paths are kept as written: relative ones are
// relative to the working directory of whoever runs the recipe.
#pragma once

#include "t2n/options.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace t2n {

/// The format version written under the "t2n_recipe" key.
inline constexpr int kRecipeVersion = 1;

struct ExportRecipe {
    std::filesystem::path model;
    std::filesystem::path output;
    /// Every field is saved, hardening options included, except the test hook
    /// HardenOptions::perturbAfter.
    ExportOptions options;
    /// Recipes are data, shared like any file: a recipe never names a program
    /// to run. The tract binary a recipe file names (its "tract_binary" key,
    /// written by earlier versions) lands here, never in options.tractBinary; a
    /// front end says that it was ignored and runs it only when the user gives
    /// it again (--tract-bin) or confirms it. toJson() writes no tract binary.
    std::string ignoredTractBinary;

    bool operator==(const ExportRecipe&) const = default;
};

std::string toJson(const ExportRecipe& recipe, int indent = 2);
/// Every key but "t2n_recipe" is optional (a missing key keeps the default).
/// Throws t2n::Error (Load, Usage) naming the JSON path ("$.harden.skip[1]")
/// for unknown keys, values of the wrong type or bad values, with a hint.
ExportRecipe recipeFromJson(std::string_view json);

/// The id of the JSON data block (<script type="application/json">) that
/// holds the recipe in an HTML report (`--report-html`).
inline constexpr std::string_view kReportRecipeBlock = "t2n-recipe";

/// A recipe file, or an HTML report holding one (its kReportRecipeBlock).
/// Throws t2n::Error (Load, Usage) when the file cannot be read or is no recipe.
ExportRecipe loadRecipe(const std::filesystem::path& file);
/// Throws t2n::Error (Write, OutputPath) when the file cannot be written.
void saveRecipe(const std::filesystem::path& file, const ExportRecipe& recipe);

} // namespace t2n
