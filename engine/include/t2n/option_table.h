// Every export option declared once: one row per ExportOptions field with
// its recipe key, command-line flag, help text, form label and the stage
// that reads it, plus typed access to the field from/to recipe JSON and
// command-line text. The recipe reader and writer, the flags (and --help)
// of every `t2n` command and the studio's export form iterate this table
// (the form names only the options that need a widget of their own:
// choices and tables). Adding an option is one row in
// engine/src/util/option_table.cpp plus the stage that reads the field
// (docs/adding-an-option.md).
#pragma once

#include "t2n/options.h"

#include <nlohmann/json_fwd.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace t2n {

/// The stage that reads an option. Front ends group options by it: the
/// sections of `t2n export --help`, the boxes of the studio's form.
enum class OptionStage {
    Load,      ///< example inputs and the run itself (seed, log level)
    Harden,    ///< the JIT-only hardening chain
    Translate, ///< names, target, graph choices, f16
    Write,     ///< archive form and tract_core_properties
    Check,     ///< the check against the TorchScript model
};
/// "load", "harden", "translate", "write", "check".
std::string_view optionStageName(OptionStage stage);
/// Every stage, in the order a model goes through them.
std::span<const OptionStage> optionStages();

/// How an option is spelled on the command line.
enum class OptionArity {
    None,   ///< no flag of `t2n export`: recipe (and form) only
    Switch, ///< a flag without a value, which sets the field to one value
    One,    ///< a flag with one value
    Many,   ///< a repeatable flag, one value per occurrence, in order
};

using OptionJson = nlohmann::ordered_json;

struct OptionRow {
    /// The ExportOptions field ("reifySdpa", "harden.freeze"); also the
    /// objectName of the form's widget for it.
    std::string_view name;
    /// The recipe key; "harden.freeze" is "freeze" inside the "harden" object.
    std::string_view jsonKey;
    /// "--reify-sdpa", or "-i,--input" with a short name; empty with OptionArity::None.
    std::string_view cliFlag;
    OptionArity arity = OptionArity::None;
    /// What one value looks like, for --help ("NAME:AXIS=SYMBOL"); empty for switches.
    std::string_view valueName;
    /// The --help text, also the form's tooltip.
    std::string_view help;
    /// The form's label; empty: the form does not show the option.
    std::string_view label;
    OptionStage stage = OptionStage::Translate;

    /// The field as recipe JSON.
    OptionJson (*toJson)(const ExportOptions&) = nullptr;
    /// Sets the field from recipe JSON. Throws t2n::Error (Load, Usage)
    /// naming `path` ("$.harden.skip[1]"), with a hint.
    void (*fromJson)(ExportOptions&, const OptionJson&, const std::string& path) = nullptr;
    /// The values of the flag that give the field its value in `options`:
    /// one per occurrence for Many, exactly one for One, and for a Switch
    /// {"true"} when the flag is to be given, else {"false"}. Null with None.
    std::vector<std::string> (*toText)(const ExportOptions&) = nullptr;
    /// Sets the field from the flag's values (as toText gives them; a Switch
    /// left out is {"false"}). Throws t2n::Error (Load, Usage) with a hint.
    void (*fromText)(ExportOptions&, const std::vector<std::string>&) = nullptr;
};

/// Every export option, in the order of the recipe's keys.
std::span<const OptionRow> exportOptionTable();
/// The row of the field `name` ("naming", "harden.skip"); nullptr when none.
const OptionRow* findOption(std::string_view name);

} // namespace t2n
