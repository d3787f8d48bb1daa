// t2n-studio [MODEL | RECIPE.json | BUNDLE] [every flag of t2n export]
// [--screenshot DIR] [--bench]: the main window over an engine session. The
// export flags go through t2n's own parser (app/cli/export_flags) and fill the
// form; with --screenshot, a tour of the main views written as PNGs, then exit
// (works with QT_QPA_PLATFORM=offscreen).
#include "cli/export_flags.h"
#include "session/html_report_source.h"
#include "session/ui_version.h"
#include "studio/main_window.h"
#include "studio/screenshot_tour.h"
#include "studio/studio_bench.h"

#include "t2n/error.h"
#include "t2n/recipe.h"
#include "t2n/runtime_info.h"

#include <QApplication>

#include <cstdio>
#include <filesystem>
#include <string_view>

namespace {

struct StudioArgs {
    t2n::cli::ExportFlags flags;
    std::string screenshot;
    bool bench = false;
    int threads = 0;
};

void addStudioFlags(CLI::App& cli, StudioArgs& a) {
    t2n::cli::addExportFlags(cli, a.flags, /*modelRequired=*/false);
    t2n::cli::addExportCommandFlags(cli, a.flags);
    cli.get_option("model")->description(
        "what to open: a TorchScript model, an export recipe (.json, e.g. the one a failed "
        "t2n export writes under t2n's state folder), a report of --report-html (.html: its "
        "recipe) or a debug bundle folder");
    cli.add_option("--screenshot", a.screenshot,
                   "write one PNG per main view into DIR and exit (exit status 1 when the "
                   "export failed; the views then show why)");
    cli.add_flag("--bench", a.bench, "print open, first-draw and pass-step times and exit");
    cli.add_option("--threads", a.threads,
                   "ATen's and OpenBLAS's threads for this run (default: Edit > Threads, "
                   "automatic: the usable CPUs no other task keeps busy)")
        ->check(CLI::Range(1, 4096));
    cli.footer("Every flag of `t2n export` is taken, through the same parser, and fills the "
               "export form; with a recipe or a bundle, flags given override its values.");
}

/// The recipe the command line describes: a recipe or a debug bundle given in
/// place of the model, --recipe, and the flags over it. Throws t2n::Error.
t2n::ExportRecipe resolve(StudioArgs& a, const CLI::App& cli) {
    namespace fs = std::filesystem;
    fs::path bundle;
    const fs::path given = a.flags.model;
    std::error_code ec;
    if (given.extension() == ".json" || given.extension() == ".html") { // .html: a report's recipe
        a.flags.recipe = given.string();
        a.flags.model.clear();
    } else if (fs::is_directory(given, ec) && fs::exists(given / "recipe.json", ec)) {
        bundle = given;
        a.flags.recipe = (given / "recipe.json").string();
        a.flags.model.clear();
    }
    t2n::ExportRecipe r = t2n::cli::resolveRecipe(a.flags, cli);
    // A recipe, report or bundle is shared data: it never chooses where a
    // failed check writes a bundle; --debug-bundle on this command line does.
    if (!a.flags.recipe.empty() && cli.count("--debug-bundle") == 0)
        r.options.debugBundle.clear();
    // A bundle's recipe names the archive inside the bundle.
    if (!bundle.empty() && r.output.is_relative() && a.flags.output.empty())
        r.output = bundle / r.output;
    if (!a.flags.saveRecipe.empty())
        t2n::saveRecipe(a.flags.saveRecipe, r);
    return r;
}

bool asksForHelp(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help" || arg == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    StudioArgs args;
    CLI::App cli{"t2n-studio: see and debug TorchScript to NNEF exports"};
    cli.set_version_flag("--version", t2n::ui::studioTitle().toStdString());
    addStudioFlags(cli, args);
    // --help and --version answer without a display; every other run parses
    // what QApplication leaves (it takes Qt's own options: -platform, -style ...).
    if (asksForHelp(argc, argv)) {
        try {
            cli.parse(argc, argv);
        } catch (const CLI::ParseError& e) {
            return cli.exit(e);
        }
    }
    t2n::installTensorBlockCache();
    t2n::followMachineThreads();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("t2n-studio"));
    QApplication::setOrganizationName(QStringLiteral("t2n"));
    QApplication::setDesktopFileName(QStringLiteral("org.t2n.studio"));
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = cli.exit(e);
        return code == 0 ? 0 : static_cast<int>(t2n::ErrorCode::Usage);
    }

    t2n::ExportRecipe recipe;
    try {
        recipe = resolve(args, cli);
    } catch (const t2n::Error& e) {
        std::fprintf(stderr, "t2n-studio: %s\n", e.render().c_str());
        return static_cast<int>(e.code());
    }
    const QString model = QString::fromStdString(recipe.model.string());

    t2n::ui::MainWindow window; // applies Edit > Threads
    if (args.threads > 0)
        t2n::useThreads(args.threads, "--threads " + std::to_string(args.threads));
    window.setReportPath(QString::fromStdString(args.flags.report));
    t2n::ui::HtmlReportSource htmlReport(window.controller());
    htmlReport.writeAfterEachRun(QString::fromStdString(args.flags.reportHtml));
    if (!args.screenshot.empty()) {
        if (model.isEmpty()) {
            std::fprintf(stderr, "t2n-studio: --screenshot needs a MODEL, a recipe or a bundle\n");
            return 2;
        }
        auto r =
            t2n::ui::runScreenshotTour(window, QString::fromStdString(args.screenshot), recipe);
        for (const QString& p : r.written)
            std::printf("wrote %s\n", qPrintable(p));
        if (!r.error.isEmpty())
            std::fprintf(stderr, "t2n-studio: %s\n", qPrintable(r.error));
        return r.exitCode;
    }
    if (args.bench) {
        if (model.isEmpty()) {
            std::fprintf(stderr, "t2n-studio: --bench needs a MODEL\n");
            return 2;
        }
        const auto f = t2n::ui::runStudioBench(window, model, recipe.options.inputs);
        if (!f.error.isEmpty()) {
            std::fprintf(stderr, "t2n-studio: %s\n", qPrintable(f.error));
            return 1;
        }
        std::printf("model                  %s\n", qPrintable(model));
        std::printf("open + prepare         %.3f s (engine: load, harden, trace, translate)\n",
                    f.prepareSeconds);
        std::printf("graph first draw       %.3f s (%d nodes, %d boxes drawn: cold layout to first "
                    "painted frame)\n",
                    f.firstDrawSeconds, f.graphTotalNodes, f.graphNodes);
        std::printf("pass step (median)     %.3f s (%d steps: diff computed and shown)\n",
                    f.stepSeconds, f.passSteps);
        return 0;
    }
    window.restoreLayout();
    window.show();
    if (!model.isEmpty())
        window.openRecipe(recipe);
    return QApplication::exec();
}
