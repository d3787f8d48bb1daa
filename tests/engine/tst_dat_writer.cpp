// NNEF .dat writer: headers and data against hand-written golden files
// (tests/golden/dat/*.hex), streaming, errors, and an independent reader
// (Debian's python + numpy).
#include "nnef/dat_writer.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cctype>
#include <cstring>
#include <fstream>
#include <vector>

using t2n::DType;
using t2n::TensorData;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::byte>;

template <typename T>
TensorData tensorOf(DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    std::vector<std::byte> raw(values.size() * sizeof(T));
    if (!raw.empty())
        std::memcpy(raw.data(), values.data(), raw.size());
    return TensorData::copyOf(dtype, std::move(shape), raw);
}

/// One golden case: the tensor the .hex file describes.
struct GoldenCase {
    const char* file;
    TensorData tensor;
};

std::vector<GoldenCase> goldenCases() {
    std::vector<uint8_t> u8_600(600);
    for (std::size_t i = 0; i < u8_600.size(); ++i)
        u8_600[i] = static_cast<uint8_t>(i * 7 + 3);
    return {
        // f16 bit patterns: 1.0, -2.0, 0.5, 65504.
        {"f16_2x2", tensorOf<uint16_t>(DType::F16, {2, 2}, {0x3C00, 0xC000, 0x3800, 0x7BFF})},
        {"f32_2x3", tensorOf<float>(DType::F32, {2, 3}, {1, 2, 3, 4, 5, -1.5f})},
        {"f64_3", tensorOf<double>(DType::F64, {3}, {1.0, -2.0, 0.25})},
        {"i8_4", tensorOf<int8_t>(DType::I8, {4}, {1, -1, 127, -128})},
        {"i16_3", tensorOf<int16_t>(DType::I16, {3}, {1, -2, 0x1234})},
        {"i32_2", tensorOf<int32_t>(DType::I32, {2}, {0x01020304, -1})},
        {"i64_2x1", tensorOf<int64_t>(DType::I64, {2, 1}, {0x0102030405060708LL, -2})},
        {"u8_5", tensorOf<uint8_t>(DType::U8, {5}, {0, 1, 128, 254, 255})},
        // 0xFF also counts as true (non-zero).
        {"bool_11", tensorOf<uint8_t>(DType::Bool, {11}, {1, 0, 1, 0xFF, 0, 0, 0, 1, 1, 1, 0})},
        {"scalar_f32", tensorOf<float>(DType::F32, {}, {1.0f})},
        {"rank8_i8", tensorOf<int8_t>(DType::I8, {2, 1, 1, 1, 1, 1, 1, 3}, {1, 2, 3, 4, 5, 6})},
        {"u8_2x300", tensorOf<uint8_t>(DType::U8, {2, 300}, u8_600)},
    };
}

Bytes collect(const TensorData& t, std::size_t* pieces = nullptr) {
    Bytes out;
    std::size_t n = 0;
    t2n::nnef::writeDat(t, [&](std::span<const std::byte> piece) {
        out.insert(out.end(), piece.begin(), piece.end());
        ++n;
    });
    if (pieces)
        *pieces = n;
    return out;
}

QString hex(std::span<const std::byte> b) {
    return QByteArray(reinterpret_cast<const char*>(b.data()), static_cast<qsizetype>(b.size()))
        .toHex(' ');
}

fs::path goldenDir() {
    return t2n::test::sourceDir() / "tests" / "golden" / "dat";
}

} // namespace

class DatWriterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void goldenFiles_data() {
        QTest::addColumn<int>("index");
        const auto cases = goldenCases();
        for (std::size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].file) << static_cast<int>(i);
    }

    void goldenFiles() {
        QFETCH(int, index);
        const auto cases = goldenCases();
        const auto& c = cases[static_cast<std::size_t>(index)];
        const Bytes golden = t2n::test::readHex(goldenDir() / (std::string(c.file) + ".hex"));
        QVERIFY2(golden.size() >= t2n::nnef::kDatHeaderSize, "golden file missing or short");

        const auto header = t2n::nnef::datHeader(c.tensor);
        QCOMPARE(hex(header), hex(std::span(golden).first(t2n::nnef::kDatHeaderSize)));

        const Bytes file = collect(c.tensor);
        QCOMPARE(file.size(), t2n::nnef::datFileSize(c.tensor));
        if (golden.size() > t2n::nnef::kDatHeaderSize) {
            // The golden file is the whole .dat: data bytes written by hand too.
            QCOMPARE(hex(file), hex(golden));
        } else {
            // Header-only golden: the data is the source bytes, unchanged.
            QCOMPARE(hex(std::span(file).subspan(t2n::nnef::kDatHeaderSize)),
                     hex(c.tensor.bytes()));
        }
    }

    void layoutPerDtype_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<uint>("code");
        QTest::addColumn<uint>("bits");
        QTest::addColumn<qulonglong>("length"); // for 10 items
        QTest::newRow("f16") << int(DType::F16) << 0u << 16u << 20ull;
        QTest::newRow("f32") << int(DType::F32) << 0u << 32u << 40ull;
        QTest::newRow("f64") << int(DType::F64) << 0u << 64u << 80ull;
        QTest::newRow("i8") << int(DType::I8) << 4u << 8u << 10ull;
        QTest::newRow("i16") << int(DType::I16) << 4u << 16u << 20ull;
        QTest::newRow("i32") << int(DType::I32) << 4u << 32u << 40ull;
        QTest::newRow("i64") << int(DType::I64) << 4u << 64u << 80ull;
        QTest::newRow("u8") << int(DType::U8) << 1u << 8u << 10ull;
        QTest::newRow("bool") << int(DType::Bool) << 5u << 1u << 2ull;
    }

    void layoutPerDtype() {
        QFETCH(int, dtype);
        QFETCH(uint, code);
        QFETCH(uint, bits);
        QFETCH(qulonglong, length);
        const auto dt = static_cast<DType>(dtype);
        const Bytes raw(10 * t2n::dtypeBits(dt) / 8, std::byte{1});
        const auto t = TensorData::copyOf(dt, {10}, raw);
        const auto layout = t2n::nnef::datLayout(t);
        QCOMPARE(static_cast<uint>(layout.itemType), code);
        QCOMPARE(layout.bitsPerItem, bits);
        QCOMPARE(layout.dataLength, static_cast<uint64_t>(length));
        QCOMPARE(t2n::nnef::datFileSize(t), 128 + static_cast<uint64_t>(length));
    }

    void boolPackingAcrossBytes_data() {
        QTest::addColumn<QByteArray>("items");
        QTest::addColumn<QByteArray>("packed");
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("one true") << QByteArray("\x01", 1) << QByteArray("\x80", 1);
        QTest::newRow("last of 8") << QByteArray("\0\0\0\0\0\0\0\x01", 8) << QByteArray("\x01", 1);
        QTest::newRow("9th item") << QByteArray("\0\0\0\0\0\0\0\0\x01", 9)
                                  << QByteArray("\x00\x80", 2);
        QTest::newRow("all 16") << QByteArray(16, '\x01') << QByteArray("\xFF\xFF", 2);
        QTest::newRow("alternating 10")
            << QByteArray("\x01\0\x01\0\x01\0\x01\0\x01\0", 10) << QByteArray("\xAA\x80", 2);
    }

    void boolPackingAcrossBytes() {
        QFETCH(QByteArray, items);
        QFETCH(QByteArray, packed);
        const auto t = TensorData::copyOf(
            DType::Bool, {items.size()},
            std::as_bytes(std::span(items.constData(), static_cast<std::size_t>(items.size()))));
        const Bytes file = collect(t);
        QCOMPARE(file.size(), static_cast<std::size_t>(128 + packed.size()));
        const auto data = std::span(file).subspan(128);
        QCOMPARE(hex(data), hex(std::as_bytes(std::span(packed.constData(),
                                                        static_cast<std::size_t>(packed.size())))));
    }

    void rankNineIsRefused() {
        const auto t =
            TensorData::copyOf(DType::F32, {1, 1, 1, 1, 1, 1, 1, 1, 2}, Bytes(8, std::byte{0}));
        for (int which = 0; which < 3; ++which) {
            try {
                if (which == 0)
                    (void)t2n::nnef::datHeader(t);
                else if (which == 1)
                    (void)t2n::nnef::datFileSize(t);
                else
                    (void)collect(t);
                QFAIL("a rank-9 tensor was accepted");
            } catch (const t2n::Error& e) {
                QCOMPARE(e.stage(), t2n::Stage::Write);
                QCOMPARE(e.code(), t2n::ErrorCode::Internal);
                QVERIFY2(e.message().find("rank 9") != std::string::npos, e.message().c_str());
                QVERIFY2(e.message().find("at most rank 8") != std::string::npos,
                         e.message().c_str());
            }
        }
    }

    void dataLongerThanU32IsRefused() {
        // 2^30 f32 items = 4 GiB: one byte more than the length field holds. The
        // layout is refused before any data is touched (the buffer is tiny).
        const auto big = TensorData(DType::F32, {1 << 15, 1 << 15}, nullptr, nullptr);
        try {
            (void)t2n::nnef::datLayout(big);
            QFAIL("a 4 GiB tensor was accepted");
        } catch (const t2n::Error& e) {
            QCOMPARE(e.stage(), t2n::Stage::Write);
            QCOMPARE(e.code(), t2n::ErrorCode::Unsupported);
            QVERIFY2(e.message().find("4 GiB") != std::string::npos, e.message().c_str());
        }
        // Just under the limit is fine: 2^32 - 1 bool items pack into 2^29 bytes, and
        // (2^32 - 8) u8 items are 2^32 - 8 bytes.
        const auto bools = TensorData(DType::Bool, {4294967295LL}, nullptr, nullptr);
        QCOMPARE(t2n::nnef::datLayout(bools).dataLength, uint64_t{536870912});
        const auto bytes = TensorData(DType::U8, {4294967288LL}, nullptr, nullptr);
        QCOMPARE(t2n::nnef::datLayout(bytes).dataLength, uint64_t{4294967288});
    }

    void negativeExtentIsRefused() {
        const auto t = TensorData(DType::F32, {2, -1}, nullptr, nullptr);
        QVERIFY_THROWS_EXCEPTION(t2n::Error, (void)t2n::nnef::datHeader(t));
    }

    void totalEqualsFileSize() {
        for (const auto& c : goldenCases()) {
            uint64_t seen = 0;
            const uint64_t total = t2n::nnef::writeDat(
                c.tensor, [&](std::span<const std::byte> p) { seen += p.size(); });
            QCOMPARE(total, seen);
            QCOMPARE(total, t2n::nnef::datFileSize(c.tensor));
        }
    }

    void streamsLargeTensorInPieces() {
        // 24 MiB + 13 bytes of f32: several pieces, none holding the whole tensor.
        const std::size_t count = (std::size_t{6} << 20) + 3;
        std::vector<float> values(count);
        for (std::size_t i = 0; i < count; ++i)
            values[i] = static_cast<float>(i % 9973) * 0.5f - 7.0f;
        const auto t = tensorOf<float>(DType::F32, {static_cast<int64_t>(count)}, values);

        std::size_t pieces = 0, largest = 0;
        Bytes out;
        out.reserve(128 + count * 4);
        const uint64_t total = t2n::nnef::writeDat(t, [&](std::span<const std::byte> p) {
            out.insert(out.end(), p.begin(), p.end());
            largest = std::max(largest, p.size());
            ++pieces;
        });
        QCOMPARE(total, uint64_t{128} + count * 4);
        QCOMPARE(out.size(), static_cast<std::size_t>(total));
        QVERIFY2(pieces >= 3, qPrintable(QString("only %1 pieces").arg(pieces)));
        QVERIFY(largest < count * 4);
        QVERIFY(std::memcmp(out.data() + 128, values.data(), count * 4) == 0);
        QCOMPARE(hex(std::span(out).first(128)), hex(t2n::nnef::datHeader(t)));
    }

    void streamsLargeBoolTensor() {
        // More than 8 Mi items: packing crosses the writer's chunks; compare with
        // a straightforward bit-by-bit packer.
        const std::size_t count = (std::size_t{8} << 20) * 2 + 13;
        std::vector<uint8_t> items(count);
        uint32_t state = 12345;
        for (auto& b : items) {
            state = state * 1103515245u + 12345u;
            b = (state >> 16) % 3 == 0 ? 1 : 0;
        }
        const auto t = tensorOf<uint8_t>(DType::Bool, {static_cast<int64_t>(count)}, items);
        std::vector<uint8_t> expected((count + 7) / 8, 0);
        for (std::size_t i = 0; i < count; ++i)
            if (items[i])
                expected[i / 8] |= static_cast<uint8_t>(1u << (7 - i % 8));
        std::size_t pieces = 0;
        const Bytes out = collect(t, &pieces);
        QCOMPARE(out.size(), 128 + expected.size());
        QVERIFY(pieces >= 3);
        QVERIFY(std::memcmp(out.data() + 128, expected.data(), expected.size()) == 0);
    }

    // Independent reader: Debian's python parses the files with struct + numpy.
    void pythonReadsWhatWeWrite() {
        const fs::path dir = t2n::test::freshDir("dat_writer_python");
        const std::vector<std::pair<std::string, TensorData>> files = {
            {"f32.dat", tensorOf<float>(DType::F32, {2, 3}, {1.5f, -2.25f, 3, 0, 1e-3f, 65536})},
            {"f16.dat", tensorOf<uint16_t>(DType::F16, {3}, {0x3C00, 0xC200, 0x0001})},
            {"f64.dat", tensorOf<double>(DType::F64, {1, 2}, {3.141592653589793, -1e300})},
            {"i64.dat", tensorOf<int64_t>(DType::I64, {2, 2}, {-1, 0, 1LL << 40, 7})},
            {"i16.dat", tensorOf<int16_t>(DType::I16, {2}, {-300, 300})},
            {"u8.dat", tensorOf<uint8_t>(DType::U8, {4}, {0, 7, 200, 255})},
            {"bool.dat",
             tensorOf<uint8_t>(DType::Bool, {3, 5}, {1, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1})},
            {"scalar.dat", tensorOf<int32_t>(DType::I32, {}, {-42})},
        };
        QStringList args{"-c", QString::fromUtf8(R"PY(
import json, struct, sys
import numpy as np
out = {}
for path in sys.argv[1:]:
    raw = open(path, 'rb').read()
    magic, major, minor, length, rank = struct.unpack_from('<2sBBII', raw, 0)
    extents = list(struct.unpack_from('<8I', raw, 12))
    bits, item_type = struct.unpack_from('<II', raw, 44)
    code, vendor = item_type & 0xFFFF, item_type >> 16
    shape = extents[:rank]
    n = int(np.prod(shape, dtype=np.int64))
    data = raw[128:]
    if code == 5 and bits == 1:
        values = np.unpackbits(np.frombuffer(data, np.uint8), bitorder='big')[:n]
    else:
        kind = {0: 'f', 1: 'u', 4: 'i'}[code]
        values = np.frombuffer(data, np.dtype('<%s%d' % (kind, bits // 8)))
    out[path.rsplit('/', 1)[-1]] = {
        'magic': magic.hex(), 'version': [major, minor], 'length': length,
        'rank': rank, 'shape': shape, 'unused_extents_zero': all(e == 0 for e in extents[rank:]),
        'bits': bits, 'code': code, 'vendor': vendor,
        'reserved_zero': raw[52:128] == bytes(76),
        'size_ok': len(raw) == 128 + length,
        'values': [float(v) for v in values.reshape(-1)],
    }
print(json.dumps(out))
)PY")};
        for (const auto& [name, t] : files) {
            std::ofstream f(dir / name, std::ios::binary);
            t2n::nnef::writeDat(t, [&](std::span<const std::byte> p) {
                f.write(reinterpret_cast<const char*>(p.data()),
                        static_cast<std::streamsize>(p.size()));
            });
            QVERIFY(f.good());
            args << QString::fromStdString((dir / name).string());
        }
        const auto r = t2n::test::run(t2n::test::python(), args, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(json.size(), static_cast<qsizetype>(files.size()));

        for (const auto& [name, t] : files) {
            const auto o = json.value(QString::fromStdString(name)).toObject();
            const auto layout = t2n::nnef::datLayout(t);
            QCOMPARE(o.value("magic").toString(), QString("4eef"));
            QCOMPARE(o.value("version").toArray(), QJsonArray({1, 0}));
            QCOMPARE(o.value("length").toInteger(), static_cast<qint64>(layout.dataLength));
            QCOMPARE(o.value("rank").toInteger(), t.rank());
            QJsonArray shape;
            for (int64_t d : t.shape())
                shape.append(static_cast<qint64>(d));
            QCOMPARE(o.value("shape").toArray(), shape);
            QVERIFY(o.value("unused_extents_zero").toBool());
            QCOMPARE(o.value("bits").toInteger(), static_cast<qint64>(layout.bitsPerItem));
            QCOMPARE(o.value("code").toInteger(), static_cast<qint64>(layout.itemType));
            QCOMPARE(o.value("vendor").toInteger(), 0);
            QVERIFY(o.value("reserved_zero").toBool());
            QVERIFY(o.value("size_ok").toBool());
            const auto values = o.value("values").toArray();
            QCOMPARE(values.size(), static_cast<qsizetype>(t.numel()));
            for (int64_t i = 0; i < t.numel(); ++i)
                QCOMPARE(values.at(i).toDouble(), t.asDouble(i));
        }
    }
};

T2N_TEST_SUITE(DatWriterTest)
#include "tst_dat_writer.moc"
