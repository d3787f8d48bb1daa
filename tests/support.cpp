#include "support.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>

namespace t2n::test {

std::filesystem::path fixturesDir() {
    return T2N_FIXTURES_DIR;
}
// The sanitizer build links the same test objects against the instrumented
// engine: it points them at its own CLI and work folder through the
// environment (tests/CMakeLists.txt), so both runs can share the cores.
std::filesystem::path t2nBinary() {
    const char* cli = std::getenv("T2N_TEST_CLI");
    return cli && *cli ? cli : T2N_CLI_BINARY;
}
std::filesystem::path workRoot() {
    const char* dir = std::getenv("T2N_TEST_WORK_DIR");
    return dir && *dir ? dir : T2N_TEST_WORK_DIR;
}
std::filesystem::path sourceDir() {
    return T2N_SOURCE_DIR;
}
std::filesystem::path realworldFolder() {
    return sourceDir().parent_path() / "shared" / "realworld";
}
QString realworldAbsence() {
    if (std::filesystem::is_directory(realworldFolder()))
        return {};
    return QString("no %1: the genuine files are not beside this checkout")
        .arg(QString::fromStdString(realworldFolder().string()));
}
QString python() {
    return QStringLiteral("/usr/bin/python3");
}

namespace {
QJsonArray allFixtures() {
    static QJsonArray cached = [] {
        QFile f(QString::fromStdString((fixturesDir() / "fixtures.json").string()));
        if (!f.open(QIODevice::ReadOnly))
            return QJsonArray();
        return QJsonDocument::fromJson(f.readAll()).object().value("fixtures").toArray();
    }();
    return cached;
}
} // namespace

QJsonObject fixtureInfo(const QString& name) {
    for (const auto& v : allFixtures())
        if (v.toObject().value("name").toString() == name)
            return v.toObject();
    return {};
}

QStringList fixtureNames(const QString& kind) {
    QStringList out;
    for (const auto& v : allFixtures())
        if (v.toObject().value("kind").toString() == kind)
            out << v.toObject().value("name").toString();
    return out;
}

QStringList fixtureInputArgs(const QString& name) {
    QStringList args;
    for (const auto& v : fixtureInfo(name).value("inputs").toArray()) {
        auto in = v.toObject();
        QStringList dims;
        for (const auto& d : in.value("shape").toArray())
            dims << QString::number(d.toInteger());
        args << "--input"
             << QString("%1:%2:%3")
                    .arg(in.value("name").toString(), dims.isEmpty() ? "scalar" : dims.join('x'),
                         in.value("dtype").toString());
    }
    return args;
}

t2n::ExportOptions fixtureOptions(const QString& name) {
    t2n::ExportOptions o;
    for (const auto& v : fixtureInfo(name).value("inputs").toArray()) {
        auto in = v.toObject();
        t2n::InputSpec spec;
        spec.name = in.value("name").toString().toStdString();
        for (const auto& d : in.value("shape").toArray())
            spec.shape.push_back(d.toInteger());
        spec.dtype = t2n::parseDType(in.value("dtype").toString().toStdString()).value();
        o.inputs.push_back(spec);
    }
    // Dynamic-axis fixtures name their symbolic axes ("x:0=B"); the check
    // then runs them at a second size too.
    for (const auto& d : fixtureInfo(name).value("dynamic_axes").toArray())
        o.dynamicAxes.push_back(t2n::DynamicAxis::parse(d.toString().toStdString()));
    // Models whose export is checked at a looser level say so, with the reason.
    auto tolerance = fixtureInfo(name).value("check_tolerance").toObject();
    if (!tolerance.isEmpty())
        o.checkTolerance = tolerance.value("level").toString().toStdString();
    return o;
}

std::filesystem::path fixtureModel(const QString& name) {
    return fixturesDir() / (name.toStdString() + ".pt");
}

ProcessResult run(const QString& program, const QStringList& args, int timeoutMs) {
    QProcess p;
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForStarted(10000)) {
        r.err = "could not start " + program;
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        r.timedOut = true;
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

ProcessResult runT2n(const QStringList& args) {
    return run(QString::fromStdString(t2nBinary()), args);
}

std::vector<std::byte> fileBytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> b(c.size());
    std::memcpy(b.data(), c.data(), c.size());
    return b;
}

std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

QStringList readLines(const std::filesystem::path& file) {
    QFile f(QString::fromStdString(file.string()));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    return lines;
}

void writeFile(const std::filesystem::path& file, std::string_view bytes) {
    std::error_code ignored; // a folder that cannot be made fails the write below
    std::filesystem::create_directories(file.parent_path(), ignored);
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::byte> readHex(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::byte> out;
    std::string line;
    while (std::getline(in, line)) {
        if (auto hash = line.find('#'); hash != std::string::npos)
            line.resize(hash);
        for (std::size_t i = 0; i + 1 < line.size();) {
            if (std::isspace(static_cast<unsigned char>(line[i]))) {
                ++i;
                continue;
            }
            out.push_back(static_cast<std::byte>(std::stoi(line.substr(i, 2), nullptr, 16)));
            i += 2;
        }
    }
    return out;
}

std::filesystem::path freshDir(const QString& name) {
    // Shards of one suite run side by side: each in a folder of its own.
    const QByteArray shard = qgetenv("T2N_TEST_SHARD").replace('/', "of");
    auto dir = workRoot() / (shard.isEmpty() ? name : name + "-" + shard).toStdString();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

QString swapFirstReluForSigmoid(const QString& archiveFolder) {
    QFile f(archiveFolder + QStringLiteral("/graph.nnef"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(f.readAll());
    f.close();
    const int at = text.indexOf(QStringLiteral(" = relu("));
    if (at <= 0)
        return {};
    const int lineStart = text.lastIndexOf(QLatin1Char('\n'), at) + 1;
    const QString identifier = text.mid(lineStart, at - lineStart).trimmed();
    text.replace(at, 8, QStringLiteral(" = sigmoid("));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text.toUtf8()) < 0)
        return {};
    return identifier;
}

bool inShard(size_t row) {
    const QByteArray shard = qgetenv("T2N_TEST_SHARD");
    const auto slash = shard.indexOf('/');
    bool okK = false, okN = false;
    const int k = shard.left(slash).toInt(&okK);
    const int n = shard.mid(slash + 1).toInt(&okN);
    if (slash < 0 || !okK || !okN || n < 1 || k < 1 || k > n)
        return true;
    return row % static_cast<size_t>(n) == static_cast<size_t>(k - 1);
}

} // namespace t2n::test
