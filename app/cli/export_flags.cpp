#include "export_flags.h"

#include "t2n/error.h"
#include "t2n/option_table.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include <fmt/format.h>

namespace t2n::cli {

namespace {
// "--input" of "-i,--input": the name CLI11 finds the option by.
std::string longName(std::string_view flag) {
    return std::string(flag.substr(flag.rfind(',') + 1));
}

// One row's flag, in the --help section of the stage that reads it.
void addRowFlag(CLI::App& app, ExportFlags& f, const OptionRow& row) {
    ExportFlags::Given& given = f.options[std::string(row.name)];
    const std::string flag(row.cliFlag), help(row.help);
    CLI::Option* opt = nullptr;
    switch (row.arity) {
    case OptionArity::None:
        return;
    case OptionArity::Switch:
        opt = app.add_flag(flag, given.on, help);
        break;
    case OptionArity::One:
        given.one = row.toText(ExportOptions{}).at(0);
        opt = app.add_option(flag, given.one, help);
        if (!given.one.empty())
            opt->capture_default_str();
        break;
    case OptionArity::Many:
        opt = app.add_option(flag, given.many, help);
        break;
    }
    if (!row.valueName.empty())
        opt->type_name(std::string(row.valueName));
    opt->group(fmt::format("Options read by the {} stage", optionStageName(row.stage)));
}

template <class Pred> void addRowFlags(CLI::App& app, ExportFlags& f, Pred&& pred) {
    for (const OptionRow& row : exportOptionTable())
        if (pred(row))
            addRowFlag(app, f, row);
}

// The values of a row's flag, as OptionRow::fromText takes them.
std::vector<std::string> texts(const OptionRow& row, const ExportFlags::Given& given) {
    switch (row.arity) {
    case OptionArity::Switch:
        return {given.on ? "true" : "false"};
    case OptionArity::One:
        return {given.one};
    default:
        return given.many;
    }
}

// Sets the options of the flags `app` says were given (all of this
// command's when null: left out, they hold the defaults' text).
void apply(const ExportFlags& f, ExportOptions& o, const CLI::App* app) {
    for (const OptionRow& row : exportOptionTable()) {
        auto given = f.options.find(row.name);
        if (given == f.options.end())
            continue; // not a flag of this command
        const CLI::Option* opt = app ? app->get_option_no_throw(longName(row.cliFlag)) : nullptr;
        if (app && (!opt || opt->count() == 0))
            continue;
        row.fromText(o, texts(row, given->second));
    }
}
} // namespace

void addModelFlags(CLI::App& app, ExportFlags& f, bool modelRequired) {
    auto* model = app.add_option("model", f.model, "TorchScript file written by torch.jit.save");
    if (modelRequired)
        model->required();
    addInputFlags(app, f);
}

void addInputFlags(CLI::App& app, ExportFlags& f) {
    addRowFlags(app, f, [](const OptionRow& r) { return r.stage == OptionStage::Load; });
}

void addExportFlags(CLI::App& app, ExportFlags& f, bool modelRequired) {
    addModelFlags(app, f, modelRequired);
    addExportOptionFlags(app, f);
    addCheckFlags(app, f);
}

void addCheckFlags(CLI::App& app, ExportFlags& f) {
    // --no-check belongs to the commands that may skip the check (export, studio).
    addRowFlags(app, f, [](const OptionRow& r) {
        return r.stage == OptionStage::Check && r.name != "check";
    });
}

void addExportOptionFlags(CLI::App& app, ExportFlags& f) {
    addRowFlags(app, f, [](const OptionRow& r) {
        return r.stage == OptionStage::Translate || r.stage == OptionStage::Write;
    });
}

void addExportCommandFlags(CLI::App& app, ExportFlags& f) {
    app.add_option("-o,--output", f.output,
                   "artifact path ending in .nnef (folder), .nnef.tar or .nnef.tgz");
    app.add_option("--recipe", f.recipe,
                   "export recipe (JSON) giving the model, output and options; flags on the "
                   "command line override its values");
    app.add_option("--save-recipe", f.saveRecipe,
                   "also write the export's recipe (model, output, every option) to FILE; t2n "
                   "export writes it with the artifact, and not at all when the export fails");
    app.add_option("--report", f.report, "write the JSON report to FILE ('-' for stdout)");
    addReportHtmlFlag(app, f);
    addRowFlag(app, f, *findOption("check"));
}

void addReportHtmlFlag(CLI::App& app, ExportFlags& f) {
    app.add_option("--report-html", f.reportHtml,
                   "write a one-file HTML report (the failure, where sizes froze, the graph, the "
                   "recipe, the versions) to FILE, to attach to a bug report; written when the "
                   "run fails too ('-' for stdout)");
}

ExportOptions toOptions(const ExportFlags& f) {
    ExportOptions o;
    apply(f, o, nullptr);
    return o;
}

ExportOptions applyGivenFlags(const ExportFlags& f, ExportOptions base, const CLI::App& app) {
    apply(f, base, &app);
    return base;
}

ExportRecipe resolveRecipe(const ExportFlags& f, const CLI::App& app) {
    ExportRecipe r;
    if (!f.recipe.empty())
        r = loadRecipe(f.recipe);
    r.options = applyGivenFlags(f, r.options, app);
    // A recipe is a shared file: the program it names is run only when the
    // command line names it too.
    if (!r.ignoredTractBinary.empty() && r.options.tractBinary != r.ignoredTractBinary)
        fmt::print(stderr,
                   "t2n: warning: the recipe names the tract binary '{}'; recipes never name a "
                   "program to run, so it is ignored (give --tract-bin {} to use it)\n",
                   r.ignoredTractBinary, r.ignoredTractBinary);
    if (!f.model.empty())
        r.model = f.model;
    if (!f.output.empty())
        r.output = f.output;
    return r;
}

std::vector<std::filesystem::path> filesRead(const ExportRecipe& r, const std::string& recipeFile) {
    std::vector<std::filesystem::path> read{r.model};
    if (!recipeFile.empty())
        read.emplace_back(recipeFile);
    for (const auto& input : r.options.inputs)
        if (!input.valuesFile.empty())
            read.emplace_back(input.valuesFile);
    if (r.options.tractBinary.find('/') != std::string::npos) // a bare name is PATH's
        read.emplace_back(r.options.tractBinary);
    return read;
}

std::filesystem::path failedRecipePath(const std::filesystem::path& target) {
    namespace fs = std::filesystem;
    fs::path state;
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg == '/')
        state = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home == '/')
        state = fs::path(home) / ".local" / "state";
    else
        return {};
    fs::path p = target;
    if (!p.has_filename()) // "out.nnef/"
        p = p.parent_path();
    std::error_code ec;
    const std::string where = fs::absolute(p, ec).lexically_normal().string();
    return state / "t2n" / "failed" /
           fmt::format("{}-{:08x}.recipe.json", p.filename().string(),
                       static_cast<uint32_t>(std::hash<std::string>{}(where)));
}

std::string studioCommand(const std::filesystem::path& path) {
    const std::string s = path.string();
    const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./,:=+-@%", c);
    });
    if (plain)
        return "t2n-studio " + s;
    std::string quoted = "'";
    for (char c : s)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return "t2n-studio " + quoted + "'";
}

} // namespace t2n::cli
