// libFuzzer target: arbitrary bytes as an export recipe (JSON). Either the
// reader refuses them with a t2n::Error naming the JSON path, or the recipe
// it returns survives a round trip through toJson() unchanged.
#include "t2n/error.h"
#include "t2n/recipe.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    t2n::ExportRecipe recipe;
    try {
        recipe = t2n::recipeFromJson(text);
    } catch (const t2n::Error&) {
        return 0;
    }
    // What was accepted must read back as itself (perturbAfter and the tract
    // binary a recipe names are not saved).
    recipe.options.harden.perturbAfter = {};
    recipe.ignoredTractBinary = {};
    if (!(t2n::recipeFromJson(t2n::toJson(recipe)) == recipe))
        __builtin_trap();
    return 0;
}
