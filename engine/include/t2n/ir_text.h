// TorchScript IR as t2n prints it (pass snapshots, `--show hardened`), and
// the form two such texts are compared by. Passes renumber values (%33
// becomes %35, %x.1 becomes %x.3) and TorchScript mangles class names on
// every clone, so a diff meant to show what a pass changed masks exactly
// those: the engine, which prints the text, owns the rule.
#pragma once

#include <string>
#include <string_view>

namespace t2n {

/// `line` with value numbers masked: `%33` -> `%#`, `%x.1` -> `%x.#` (only
/// the number that ends a value name: `%self.features.3.weight` keeps its
/// layer index), and `___torch_mangle_N.` dropped. Other text is unchanged.
std::string canonicalValueNumbers(std::string_view line);

} // namespace t2n
