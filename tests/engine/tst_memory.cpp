// Memory behaviour of export and check (issue 13): the reader streams .dat
// files and reads a file equal to a tensor already in memory as that tensor;
// the interpreter and the trace's run free values after their last use; the
// check reuses the outputs the trace computed on the same inputs.
#include "harden_test_util.h"
#include "interp/interpreter.h"
#include "interp_test_util.h"
#include "ir/ir_builder.h"
#include "jit/graph_runner.h"
#include "reader/model_reader.h"
#include "suite_macros.h"
#include "support.h"
#include "t2n/runtime_info.h"
#include "t2n/session.h"

#include <c10/core/CPUAllocator.h>

#include <QTest>

#include <cstring>
#include <fstream>
#include <span>
#include <string>

using namespace t2n::test;

namespace {

// Peak resident memory since the last resetPeak(), in MiB (Linux: VmHWM,
// reset through /proc/self/clear_refs).
void resetPeak() {
    std::ofstream("/proc/self/clear_refs") << "5";
}
double statusMiB(const std::string& key) {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key + ":", 0) == 0)
            return std::stod(line.substr(key.size() + 1)) / 1024.0;
    return 0;
}

bool sameBytes(const t2n::TensorData& a, const t2n::TensorData& b) {
    return a.bytes().size() == b.bytes().size() &&
           std::equal(a.bytes().begin(), a.bytes().end(), b.bytes().begin());
}

} // namespace

class MemoryTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (fixtureInfo(kModel).isEmpty())
            QSKIP("no fixtures: run the fixtures.generate test first");
        session_.load(fixtureModel(kModel));
    }

    void readerReadsEqualFilesAsTheKnownTensor() {
        auto o = fixtureOptions(kModel);
        o.check = false;
        const auto artifact =
            session_.exportModel(freshDir("memory_reader") / "m.nnef.tar", o).artifact.path;

        // A plain read: copies of what the files hold.
        const auto plain = t2n::nnef::readModel(artifact);
        QVERIFY(plain.tensors.size() >= 2);
        std::map<std::string, t2n::TensorData> known;
        for (const auto& [label, t] : plain.tensors)
            known.emplace(label, t2n::TensorData::copyOf(t.dtype(), t.shape(), t.bytes()));
        // One known tensor differs from its file in its last byte.
        const std::string changed = known.begin()->first;
        {
            const auto& t = known.at(changed);
            std::vector<std::byte> bytes(t.bytes().begin(), t.bytes().end());
            bytes.back() ^= std::byte{0x40};
            known.at(changed) = t2n::TensorData::copyOf(t.dtype(), t.shape(), bytes);
        }
        t2n::nnef::ReadOptions options;
        options.known = &known;
        const auto read = t2n::nnef::readModel(artifact, options);
        QCOMPARE(read.tensors.size(), plain.tensors.size());
        for (const auto& [label, t] : read.tensors) {
            QVERIFY2(sameBytes(t, plain.tensors.at(label)), label.c_str()); // what the file holds
            const bool shared = t.identity() == known.at(label).identity();
            QVERIFY2(shared == (label != changed), label.c_str());
        }
    }

    void datDecoderTakesAnyPieces() {
        // A .dat fed one byte at a time decodes as when fed whole, and a known
        // tensor of another shape is not taken for it.
        std::vector<std::byte> file(128 + 6 * 4, std::byte{0});
        const uint32_t fields[] = {0xEF4Eu | (1u << 16), 24, 2, 2, 3};
        std::memcpy(file.data(), fields, sizeof fields);
        const uint32_t bits = 32;
        std::memcpy(file.data() + 44, &bits, 4);
        for (int i = 0; i < 6; ++i) {
            const float v = 0.5f * static_cast<float>(i) - 1.0f;
            std::memcpy(file.data() + 128 + 4 * i, &v, 4);
        }
        const auto whole = t2n::nnef::readDat(file, "w.dat");
        const auto other = t2n::TensorData::copyOf(t2n::DType::F32, {3, 2}, whole.bytes());
        t2n::nnef::DatDecoder decoder("w.dat", &other, file.size());
        for (std::size_t i = 0; i < file.size(); ++i)
            decoder.feed(std::span(file).subspan(i, 1));
        const auto pieces = decoder.finish();
        QCOMPARE(pieces.shape(), (std::vector<int64_t>{2, 3}));
        QVERIFY(sameBytes(pieces, whole));
        QVERIFY(pieces.identity() != other.identity());
        QCOMPARE(pieces.asDouble(5), 1.5);
    }

    // Issue 26: a graph.nnef padded with whitespace cost several times its
    // size in memory (4.7 MB of .tgz: 4.27 GB). The reader holds the text
    // once; over kMaxGraphTextBytes it is refused before anything is read.
    void paddedGraphTextIsBoundedOrRefused() {
        const std::filesystem::path dir = freshDir("memory_padded_graph");
        const std::string graph = "version 1.0;\n\ngraph g(x) -> (y)\n{\n"
                                  "  x = external<scalar>(shape = [1]);\n  y = relu(x);\n}\n";
        auto padded = [&](const char* name, std::size_t padding) {
            const auto folder = dir / name;
            std::filesystem::create_directories(folder);
            std::ofstream out(folder / "graph.nnef", std::ios::binary);
            out << graph;
            const std::string spaces(std::size_t{1} << 20, ' ');
            for (std::size_t done = 0; done < padding; done += spaces.size())
                out.write(spaces.data(), static_cast<std::streamsize>(spaces.size()));
            return folder;
        };
        constexpr double kMiB = 1024.0 * 1024.0;
        const auto under = padded("under.nnef", std::size_t{48} << 20);
        double before = statusMiB("VmRSS");
        resetPeak();
        {
            const auto model = t2n::nnef::readModel(under);
            QCOMPARE(model.document.graph.body.size(), std::size_t(2));
        }
        const double readPeak = statusMiB("VmHWM") - before;
        // The text once (48 MiB), the 1 MiB pieces it is read in, the document.
        QVERIFY2(readPeak < 48 + 16, qPrintable(QString::number(readPeak)));

        const auto over = padded("over.nnef", std::size_t{100} << 20);
        before = statusMiB("VmRSS");
        resetPeak();
        try {
            t2n::nnef::readModel(over);
            QFAIL("a graph.nnef of 100 MiB was read");
        } catch (const t2n::Error& e) {
            QVERIFY2(e.message().find("t2n reads NNEF text of at most") != std::string::npos,
                     e.message().c_str());
        }
        const double refusedPeak = statusMiB("VmHWM") - before;
        QVERIFY2(refusedPeak < 8, qPrintable(QString::number(refusedPeak)));
        QVERIFY(t2n::nnef::kMaxGraphTextBytes / kMiB < 100);
    }

    void interpreterFreesValuesAfterTheirLastUse() {
        // Twelve chained additions of a 48 MiB tensor: holding every result
        // would need 12 x 48 MiB; freeing each after its last use needs about
        // three at a time (operands and result).
        constexpr int64_t n = 12 << 20; // floats: 48 MiB
        std::string text = "version 1.0;\ngraph g(x) -> (y12)\n{\n  x = external(shape = [" +
                           std::to_string(n) + "]);\n  y1 = add(x, x);\n";
        for (int i = 2; i <= 12; ++i)
            text += "  y" + std::to_string(i) + " = add(y" + std::to_string(i - 1) + ", x);\n";
        text += "}\n";
        const auto model = interp_test::modelOf(text);
        t2n::interp::Interpreter interpreter(model);
        const at::Tensor x = at::ones({n});
        const double before = statusMiB("VmRSS");
        resetPeak();
        const auto result = interpreter.run({{"x", x}});
        const double growth = statusMiB("VmHWM") - before;
        QCOMPARE(result.outputs.at("y12")[0].item<float>(), 13.0f);
        QVERIFY2(growth < 5 * 48, qPrintable(QString("peak grew by %1 MiB").arg(growth)));
    }

    void traceRecordsShapesOfInputDependentValues() {
        auto g = parseGraph(R"IR(
graph(%self : Tensor, %x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %y : Tensor = aten::relu(%x)
  %n : int = aten::size(%y, %zero)
  %none : NoneType = prim::Constant()
  %z : Tensor = aten::zeros_like(%y, %none, %none, %none, %none, %none)
  %w : Tensor = aten::neg(%y)
  return (%w))IR");
        const auto dependent = t2n::ir::inputDependentValues(*g);
        // The IR parser numbers values: find them by the node that computes them.
        auto valueNamed = [&](const std::string& name) -> const torch::jit::Value* {
            static const std::map<std::string, std::string> kinds{{"zero", "prim::Constant"},
                                                                  {"y", "aten::relu"},
                                                                  {"n", "aten::size"},
                                                                  {"z", "aten::zeros_like"},
                                                                  {"w", "aten::neg"}};
            for (const auto* node : g->nodes())
                if (node->kind().toQualString() == kinds.at(name))
                    return node->output();
            return nullptr;
        };
        QVERIFY(dependent.count(g->inputs()[1]));
        QVERIFY(dependent.count(valueNamed("y")) && dependent.count(valueNamed("w")));
        // Shapes only and constants: the IR may fold them, so their data stays.
        QVERIFY(!dependent.count(valueNamed("n")) && !dependent.count(valueNamed("z")) &&
                !dependent.count(valueNamed("zero")) && !dependent.count(g->inputs()[0]));

        const at::Tensor x = at::arange(-3, 3, at::kFloat).reshape({2, 3});
        t2n::jit::RunOptions run;
        run.shapeOnly = dependent;
        run.shapeOnly.erase(valueNamed("w"));
        auto recorded = t2n::jit::runGraph(nullptr, *g, {at::zeros({}), x}, run);
        const at::Tensor y = recorded.at(valueNamed("y")).toTensor();
        QCOMPARE(y.sizes().vec(), (std::vector<int64_t>{2, 3}));
        QCOMPARE(y.scalar_type(), at::kFloat);
        QVERIFY(y.storage().nbytes() <= 4); // dtype and sizes, no data
        QCOMPARE(recorded.at(valueNamed("n")).toInt(), int64_t{2});
        QVERIFY(at::equal(recorded.at(valueNamed("w")).toTensor(), -at::relu(x)));
        QVERIFY(at::equal(recorded.at(valueNamed("z")).toTensor(), at::zeros({2, 3})));
    }

    // The block cache (jit/tensor_block_cache.h): a freed large buffer
    // serves the next request of about its size, unchanged in use.
    void blockCacheReusesFreedBuffers() {
        if (!t2n::tensorBlockCacheInstalled())
            QSKIP("T2N_TENSOR_CACHE=0: LibTorch's own allocator");
        const int64_t n = 600 * 1024; // 2.4 MB of f32, a ViT MLP value
        const void* first = nullptr;
        {
            at::Tensor a = at::empty({n}, at::kFloat);
            first = a.data_ptr();
        }
        const auto before = t2n::tensorBlockCacheStats();
        QVERIFY(before.cachedBytes >= static_cast<uint64_t>(n) * 4);
        // 3 KB fewer: the same block (one page of slack, 1/8 allowed).
        at::Tensor b = at::ones({n - 768}, at::kFloat);
        const auto after = t2n::tensorBlockCacheStats();
        QCOMPARE(b.data_ptr(), first);
        QCOMPARE(after.hits, before.hits + 1);
        QCOMPARE(b.sum().item<double>(), static_cast<double>(n - 768));
        // What the cache holds beside the live tensors stays within its
        // budget, the oldest blocks leaving first.
        b = at::Tensor();
        const uint64_t budget = t2n::tensorBlockCacheStats().budgetBytes;
        QVERIFY(budget >= (uint64_t{128} << 20));
        std::vector<at::Tensor> many;
        for (uint64_t bytes = 0; bytes < budget + (uint64_t{32} << 20); bytes += 4 << 20)
            many.push_back(at::empty({1 << 20}, at::kFloat));
        const auto live = t2n::tensorBlockCacheStats();
        many.clear();
        const auto freed = t2n::tensorBlockCacheStats();
        QCOMPARE(freed.budgetBytes, budget);
        QVERIFY(freed.cachedBytes <= budget);
        QVERIFY(freed.cachedBytes + (uint64_t{8} << 20) >= budget);
        QVERIFY(freed.evictedBlocks > live.evictedBlocks);
    }

    void blockCacheLeavesSmallBuffersToMalloc() {
        if (!t2n::tensorBlockCacheInstalled())
            QSKIP("T2N_TENSOR_CACHE=0: LibTorch's own allocator");
        const auto before = t2n::tensorBlockCacheStats();
        for (int i = 0; i < 100; ++i)
            (void)at::full({1000}, i, at::kFloat).sum();
        const auto after = t2n::tensorBlockCacheStats();
        QCOMPARE(after.hits + after.misses, before.hits + before.misses);
        QCOMPARE(after.cachedBytes, before.cachedBytes);
        // Allocator::raw_allocate requires the context to be the data.
        c10::Allocator* cpu = c10::GetCPUAllocator();
        void* raw = cpu->raw_allocate(1 << 20);
        QVERIFY(raw != nullptr);
        std::memset(raw, 1, 1 << 20);
        cpu->raw_deallocate(raw);
    }

private:
    static constexpr const char* kModel = "naming_blocks";
    t2n::Session session_;
};

T2N_TEST_SUITE(MemoryTest)
#include "tst_memory.moc"
