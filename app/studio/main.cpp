// t2n-studio [MODEL] [--input SPEC ...] [--screenshot DIR]: the main window
// over an engine session; with --screenshot, a tour of the main views written
// as PNGs, then exit (works with QT_QPA_PLATFORM=offscreen).
#include "session/ui_version.h"
#include "studio/main_window.h"
#include "studio/screenshot_tour.h"
#include "studio/studio_bench.h"

#include "t2n/error.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("t2n-studio"));
    QApplication::setOrganizationName(QStringLiteral("t2n"));
    QApplication::setDesktopFileName(QStringLiteral("org.t2n.studio"));

    QCommandLineParser cli;
    cli.setApplicationDescription(t2n::ui::studioTitle() +
                                  QStringLiteral(": see and debug TorchScript to NNEF exports"));
    cli.addHelpOption();
    cli.addPositionalArgument(QStringLiteral("model"), QStringLiteral("TorchScript model to open"));
    QCommandLineOption input(QStringLiteral("input"),
                             QStringLiteral("input spec NAME:SHAPE:DTYPE, once per input"),
                             QStringLiteral("spec"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("write one PNG per main view into DIR and exit"),
                                  QStringLiteral("dir"));
    QCommandLineOption bench(QStringLiteral("bench"),
                             QStringLiteral("print open, first-draw and pass-step times and exit"));
    cli.addOption(input);
    cli.addOption(screenshot);
    cli.addOption(bench);
    cli.process(app);

    std::vector<t2n::InputSpec> inputs;
    try {
        for (const QString& spec : cli.values(input))
            inputs.push_back(t2n::InputSpec::parse(spec.toStdString()));
    } catch (const t2n::Error& e) {
        std::fprintf(stderr, "t2n-studio: %s\n", e.render().c_str());
        return 2;
    }
    const QStringList positional = cli.positionalArguments();

    t2n::ui::MainWindow window;
    if (cli.isSet(screenshot)) {
        if (positional.isEmpty()) {
            std::fprintf(stderr, "t2n-studio: --screenshot needs a MODEL\n");
            return 2;
        }
        auto r =
            t2n::ui::runScreenshotTour(window, cli.value(screenshot), positional.first(), inputs);
        for (const QString& p : r.written)
            std::printf("wrote %s\n", qPrintable(p));
        if (!r.error.isEmpty())
            std::fprintf(stderr, "t2n-studio: %s\n", qPrintable(r.error));
        return r.error.isEmpty() && r.written.size() >= 4 ? 0 : 1;
    }
    if (cli.isSet(bench)) {
        if (positional.isEmpty()) {
            std::fprintf(stderr, "t2n-studio: --bench needs a MODEL\n");
            return 2;
        }
        const auto f = t2n::ui::runStudioBench(window, positional.first(), inputs);
        if (!f.error.isEmpty()) {
            std::fprintf(stderr, "t2n-studio: %s\n", qPrintable(f.error));
            return 1;
        }
        std::printf("model                  %s\n", qPrintable(positional.first()));
        std::printf("open + prepare         %.3f s (engine: load, harden, trace, translate)\n",
                    f.prepareSeconds);
        std::printf("graph first draw       %.3f s (%d nodes, %d boxes drawn: cold layout to first "
                    "painted frame)\n",
                    f.firstDrawSeconds, f.graphTotalNodes, f.graphNodes);
        std::printf("pass step (median)     %.3f s (%d steps: diff computed and shown)\n",
                    f.stepSeconds, f.passSteps);
        return 0;
    }
    window.show();
    if (!positional.isEmpty())
        window.openModel(positional.first(), inputs);
    return QApplication::exec();
}
