// Shared helpers of the Qt Test suites: where fixtures and binaries are,
// and how to run a child process with a timeout.
#pragma once

#include "t2n/options.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::test {

/// Build-tree folder the fixture generator writes into.
std::filesystem::path fixturesDir();
/// fixtures.json entry of one fixture; QSKIP-worthy empty object when absent.
QJsonObject fixtureInfo(const QString& name);
/// Every fixture of one kind ("torchvision", "op", "naming", "error").
QStringList fixtureNames(const QString& kind);
/// "--input" arguments for a fixture, from its json: name:1x3x64x64:f32.
QStringList fixtureInputArgs(const QString& name);

/// Export options with the fixture's input specs (everything else default).
t2n::ExportOptions fixtureOptions(const QString& name);
std::filesystem::path fixtureModel(const QString& name);

std::filesystem::path t2nBinary();
// Where suites write (T2N_TEST_WORK_DIR in the environment, or the build tree's).
std::filesystem::path workRoot();
std::filesystem::path sourceDir();
/// ../shared/realworld beside the checkout (genuine files, never copied in).
std::filesystem::path realworldFolder();
/// Why a suite of genuine files skips: empty when the folder is there.
QString realworldAbsence();
/// Debian's Python with torch and numpy (never the PATH python).
QString python();

struct ProcessResult {
    int exitCode = -1;
    QString out, err;
    bool timedOut = false;
};
ProcessResult run(const QString& program, const QStringList& args, int timeoutMs = 600000);
/// The CLI under test (t2nBinary()) run with `args`.
ProcessResult runT2n(const QStringList& args);

/// Makes an archive folder wrong on purpose: the first `relu(` of its
/// graph.nnef becomes `sigmoid(`. Returns the NNEF identifier that operation
/// defines; empty when there is no relu or the file cannot be rewritten.
QString swapFirstReluForSigmoid(const QString& archiveFolder);

/// Every byte of a file (empty when it cannot be read).
std::vector<std::byte> fileBytes(const std::filesystem::path& file);
/// The same bytes as a string.
std::string readFile(const std::filesystem::path& file);
/// The lines of a text file, without the last one's newline (none when it
/// cannot be read).
QStringList readLines(const std::filesystem::path& file);
/// Replaces `file` with `bytes`, creating its missing parent folders.
void writeFile(const std::filesystem::path& file, std::string_view bytes);
/// Hex bytes of a golden file; '#' starts a comment (tests/golden/dat/README.md).
std::vector<std::byte> readHex(const std::filesystem::path& file);

/// Whether this run keeps data row `row` of a sharded function: CTest runs
/// such a suite as N tests with T2N_TEST_SHARD=K/N (t2n_suite's SHARDS in
/// tests/CMakeLists.txt), each keeping the rows whose index is K-1 modulo N.
/// True for every row without the variable (a suite run by hand).
bool inShard(size_t row);

/// A fresh empty directory under the build tree, removed by the caller's scope.
std::filesystem::path freshDir(const QString& name);

} // namespace t2n::test
