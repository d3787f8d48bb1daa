// io.npz writer: NPY headers byte for byte, every dtype read back by an
// independent reader (Debian's numpy, allow_pickle=False), STORED members,
// reproducible bytes, errors.
#include "check/npz_writer.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"

#include <ATen/ATen.h>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>
#include <ctime>

using t2n::check::NpzEntry;
namespace fs = std::filesystem;

namespace {

/// What numpy and zipfile see: one JSON object per member, in zip order.
const char* kReader = R"(
import json, sys, zipfile
import numpy as np
members = {i.filename: i for i in zipfile.ZipFile(sys.argv[1]).infolist()}
out = []
with np.load(sys.argv[1], allow_pickle=False) as z:
    for name in z.files:
        a = z[name]
        info = members[name + ".npy"]
        out.append({"name": name, "dtype": a.dtype.str, "shape": list(a.shape),
                    "values": a.ravel().tolist(), "compress_type": info.compress_type,
                    "date_time": list(info.date_time), "fortran": bool(a.flags.f_contiguous
                    and not a.flags.c_contiguous)})
print(json.dumps(out))
)";

struct Expected {
    const char* name;
    const char* descr;
    std::vector<int64_t> shape;
    std::vector<double> values; // bools as 0/1
};

at::Tensor fromDoubles(const std::vector<double>& v, std::vector<int64_t> shape,
                       at::ScalarType type) {
    std::vector<double> copy = v;
    return at::from_blob(copy.data(), {static_cast<int64_t>(copy.size())}, at::kDouble)
        .clone()
        .reshape(shape)
        .to(type);
}

/// Every dtype, 0-d, 1-d, 4-d, empty, f16/bf16 widened, a member in a folder.
std::vector<std::pair<NpzEntry, Expected>> cases() {
    std::vector<std::pair<NpzEntry, Expected>> out;
    auto add = [&](const char* name, at::ScalarType type, const char* descr,
                   std::vector<int64_t> shape, std::vector<double> values) {
        out.push_back({NpzEntry{name, fromDoubles(values, shape, type)},
                       Expected{name, descr, shape, values}});
    };
    add("f32", at::kFloat, "<f4", {2, 3}, {1, -2, 3.5, 0.25, 1e10, -0.0});
    add("f64", at::kDouble, "<f8", {3}, {1.0 / 3, -2, 1e-300});
    add("i64", at::kLong, "<i8", {2, 1}, {4611686018427387904.0, -2});
    add("i32", at::kInt, "<i4", {2}, {2147483647, -2147483648.0});
    add("i16", at::kShort, "<i2", {3}, {1, -2, 32767});
    add("i8", at::kChar, "|i1", {4}, {1, -1, 127, -128});
    add("u8", at::kByte, "|u1", {5}, {0, 1, 128, 254, 255});
    add("bool", at::kBool, "|b1", {3}, {1, 0, 1});
    add("f16", at::kHalf, "<f4", {2, 2}, {1, -2, 0.5, 65504});
    add("bf16", at::kBFloat16, "<f4", {2}, {1.5, -256});
    add("scalar", at::kFloat, "<f4", {}, {42});
    add("empty", at::kFloat, "<f4", {0, 3}, {});
    add("rank4", at::kFloat, "<f4", {1, 2, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    add("turn_0/x", at::kLong, "<i8", {1}, {7});
    return out;
}

std::vector<NpzEntry> entries() {
    std::vector<NpzEntry> e;
    for (auto& [entry, expected] : cases())
        e.push_back(entry);
    return e;
}

QByteArray bytes(const std::vector<std::byte>& b) {
    return QByteArray(reinterpret_cast<const char*>(b.data()), static_cast<qsizetype>(b.size()));
}

} // namespace

class NpzTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerBytes() {
        const std::string h = t2n::check::npyHeader("<f4", {2});
        const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
        // 10 + 57 + 1 = 68 bytes: 60 spaces bring it to 128.
        const std::string expected =
            std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict + std::string(60, ' ') + "\n";
        QCOMPARE(QByteArray::fromStdString(h), QByteArray::fromStdString(expected));
    }

    void headerShapes_data() {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QString>("repr");
        QTest::newRow("0-d") << QList<qint64>{} << "()";
        QTest::newRow("1-d") << QList<qint64>{5} << "(5,)";
        QTest::newRow("2-d") << QList<qint64>{2, 3} << "(2, 3)";
        QTest::newRow("4-d") << QList<qint64>{1, 3, 224, 224} << "(1, 3, 224, 224)";
        QTest::newRow("empty") << QList<qint64>{0, 3} << "(0, 3)";
    }
    void headerShapes() {
        QFETCH(QList<qint64>, shape);
        QFETCH(QString, repr);
        const std::vector<int64_t> s(shape.begin(), shape.end());
        for (const char* descr : {"<f4", "|b1", "<i8"}) {
            const std::string h = t2n::check::npyHeader(descr, s);
            QCOMPARE(h.size() % 64, std::size_t(0));
            QCOMPARE(h.back(), '\n');
            const uint16_t len = uint8_t(h[8]) | (uint8_t(h[9]) << 8);
            QCOMPARE(std::size_t(len) + 10, h.size());
            const QString dict = QString::fromStdString(h.substr(10)).trimmed();
            QCOMPARE(
                dict,
                QString("{'descr': '%1', 'fortran_order': False, 'shape': %2, }").arg(descr, repr));
        }
    }

    void npyDataIsCOrder() {
        // A transposed (non-contiguous) view is written in its logical C order.
        const at::Tensor t = at::arange(6, at::kFloat).reshape({2, 3}).t();
        const auto b = t2n::check::npyBytes(t);
        QCOMPARE(b.size(), std::size_t(128 + 6 * 4));
        float values[6];
        std::memcpy(values, b.data() + 128, sizeof values);
        const float expected[6] = {0, 3, 1, 4, 2, 5};
        for (int i = 0; i < 6; ++i)
            QCOMPARE(values[i], expected[i]);
    }

    void numpyReadsEveryDtype() {
        const fs::path dir = t2n::test::freshDir("npz_every_dtype");
        const fs::path file = dir / "io.npz";
        t2n::check::writeNpz(file, entries());
        const auto r = t2n::test::run(t2n::test::python(),
                                      {"-c", kReader, QString::fromStdString(file.string())});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray members = QJsonDocument::fromJson(r.out.toUtf8()).array();
        const auto expected = cases();
        QCOMPARE(members.size(), qsizetype(expected.size()));
        for (qsizetype i = 0; i < members.size(); ++i) {
            const QJsonObject m = members[i].toObject();
            const Expected& e = expected[std::size_t(i)].second;
            QCOMPARE(m.value("name").toString(), QString(e.name)); // written order kept
            QCOMPARE(m.value("dtype").toString(), QString(e.descr));
            QJsonArray shape;
            for (auto d : e.shape)
                shape.append(qint64(d));
            QCOMPARE(m.value("shape").toArray(), shape);
            const QJsonArray values = m.value("values").toArray();
            QCOMPARE(values.size(), qsizetype(e.values.size()));
            for (qsizetype k = 0; k < values.size(); ++k) {
                const double got = values[k].isBool() ? values[k].toBool() : values[k].toDouble();
                QCOMPARE(got, e.values[std::size_t(k)]);
            }
            QCOMPARE(m.value("compress_type").toInt(), 0); // ZIP_STORED
            QCOMPARE(m.value("date_time").toArray(), (QJsonArray{1980, 1, 1, 0, 0, 0}));
            QCOMPARE(m.value("fortran").toBool(), false);
        }
    }

    void bytesAreReproducible() {
        const auto a = t2n::check::npzBytes(entries());
        const auto b = t2n::check::npzBytes(entries());
        QCOMPARE(bytes(a), bytes(b));
        const fs::path dir = t2n::test::freshDir("npz_reproducible");
        t2n::check::writeNpz(dir / "io.npz", entries());
        QCOMPARE(bytes(t2n::test::fileBytes(dir / "io.npz")), bytes(a));
        // No timestamp goes through localtime(): another time zone, same bytes.
        const QByteArray oldTz = qgetenv("TZ");
        qputenv("TZ", "Pacific/Kiritimati");
        ::tzset();
        const auto c = t2n::check::npzBytes(entries());
        if (oldTz.isNull())
            qunsetenv("TZ");
        else
            qputenv("TZ", oldTz);
        ::tzset();
        QCOMPARE(bytes(c), bytes(a));
        // Nothing but io.npz is left in the folder (the temporary name is gone).
        QCOMPARE(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1L);
    }

    void errors() {
        const at::Tensor t = at::zeros({2});
        auto expectError = [](const std::vector<NpzEntry>& e, t2n::ErrorCode code) {
            try {
                t2n::check::npzBytes(e);
                return false;
            } catch (const t2n::Error& err) {
                return err.code() == code && err.stage() == t2n::Stage::Check;
            }
        };
        QVERIFY(expectError({{"x", t}, {"x", t}}, t2n::ErrorCode::Internal));
        QVERIFY(expectError({{"", t}}, t2n::ErrorCode::Internal));
        QVERIFY(expectError({{"../x", t}}, t2n::ErrorCode::Internal));
        // Issue 26: a member name over the zip format's 64 KiB made libarchive
        // overflow a heap buffer; it is refused, and one just below is written.
        QVERIFY(expectError({{std::string(70000, 'n'), t}}, t2n::ErrorCode::InvalidOption));
        QVERIFY(!expectError({{std::string(0xffff - 4, 'n'), t}}, t2n::ErrorCode::InvalidOption));
        QVERIFY(
            expectError({{"c", at::zeros({2}, at::kComplexFloat)}}, t2n::ErrorCode::Unsupported));
        // An unwritable destination: an error, and no file.
        const fs::path dir = t2n::test::freshDir("npz_errors");
        try {
            t2n::check::writeNpz(dir / "missing" / "io.npz", {{"x", t}});
            QFAIL("no error");
        } catch (const t2n::Error& e) {
            QCOMPARE(int(e.code()), int(t2n::ErrorCode::OutputPath));
        }
        // A failure while writing leaves no temporary file behind.
        QVERIFY(!expectError({{"ok", t}}, t2n::ErrorCode::Internal));
        try {
            t2n::check::writeNpz(dir / "io.npz", {{"ok", t}, {"ok", t}});
            QFAIL("no error");
        } catch (const t2n::Error&) {
        }
        QVERIFY(fs::is_empty(dir));
    }
};

T2N_TEST_SUITE(NpzTest)
#include "tst_npz.moc"
