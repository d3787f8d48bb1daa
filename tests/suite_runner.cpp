#include "suite_runner.h"

#include "suites.h"
#include "support.h"
#include "t2n/runtime_info.h"

#include <QByteArray>
#include <QStringList>
#include <QTest>

#include <cstdio>
#include <cstring>
#include <memory>

namespace t2n::test {

int runSuite(int argc, char** argv) {
    // As every front end runs: LibTorch's buffers through t2n's block cache.
    installTensorBlockCache();
    followMachineThreads();
    // A failed t2n run leaves its recipe for the studio in the state folder:
    // the tests' runs leave theirs in the build tree, not in the home folder.
    qputenv("XDG_STATE_HOME", QByteArray::fromStdString((workRoot() / "state").string()));
    const auto& suites = allSuites();
    if (argc < 2 || std::strcmp(argv[1], "--list") == 0) {
        for (const auto& s : suites)
            std::printf("%s\n", s.name);
        return argc < 2 ? 2 : 0;
    }
    for (const auto& s : suites) {
        if (std::strcmp(argv[1], s.name) != 0)
            continue;
        std::unique_ptr<QObject> suite(s.make());
        // QTest sees argv[0] followed by the arguments after the suite name.
        QStringList args{QString::fromLocal8Bit(argv[0])};
        for (int i = 2; i < argc; ++i)
            args << QString::fromLocal8Bit(argv[i]);
        return QTest::qExec(suite.get(), args);
    }
    std::fprintf(stderr, "unknown suite '%s' (try --list)\n", argv[1]);
    return 2;
}

} // namespace t2n::test
