#include "load/module_loader.h"

#include "jit/torch_bridge.h"
#include "load/example_values.h"
#include "load/input_proposal.h"
#include "load/legacy_archive.h"
#include "load/old_quantized_archive.h"
#include "reader/storage_records.h"

#include "t2n/error.h"
#include "util/memory_limits.h"

#include <ATen/Context.h>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <optional>
#include <sstream>
#include <torch/version.h>

namespace t2n::load {

namespace {
// Quantized modules re-pack their weights for the global quantized engine
// when they are loaded, and the packed form decides the rounding of their
// kernels. Debian's LibTorch has no fbgemm: qnnpack, the engine the fixture
// generator quantizes with, is chosen every time so that the recorded
// outputs are deterministic and match the model's author on the same build.
void selectQuantizedEngine() {
    auto& ctx = at::globalContext();
    for (at::QEngine e : ctx.supportedQEngines())
        if (e == at::QEngine::QNNPACK) {
            ctx.setQEngine(e);
            return;
        }
}

bool startsLikeZip(std::istream& in) {
    char magic[4] = {};
    in.read(magic, 4);
    return in.gcount() == 4 && magic[0] == 'P' && magic[1] == 'K';
}

bool looksLikeZip(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return startsLikeZip(in);
}

// "Unknown builtin op: torch_scatter::scatter_mul": an operator LibTorch
// alone does not have. Said as what it is and what the user can do: an
// extension library's operator (torchvision's nms, torch_scatter's), or an
// operator of a PyTorch newer than the LibTorch t2n runs on.
std::optional<Error> missingOperator(const std::string& shown, const std::string& first,
                                     const std::string& where) {
    constexpr std::string_view marker = "Unknown builtin op: ";
    const auto at = first.find(marker);
    if (at == std::string::npos)
        return std::nullopt;
    std::string op = first.substr(at + marker.size());
    op = op.substr(0, op.find_first_of(" .,"));
    const auto colons = op.find("::");
    if (colons == std::string::npos)
        return std::nullopt;
    const std::string ns = op.substr(0, colons);
    if (ns == "aten" || ns == "prim")
        return Error(Stage::Load, ErrorCode::ModelFile,
                     fmt::format("'{}' calls {}, which LibTorch {} does not have: the file was "
                                 "saved by a newer PyTorch that has it{}",
                                 shown, op, TORCH_VERSION, where),
                     fmt::format("save the model with PyTorch {} (torch.jit.script or "
                                 "torch.jit.trace there), or rewrite the call with operators "
                                 "that PyTorch {} has",
                                 TORCH_VERSION, TORCH_VERSION));
    const bool torchvision = ns == "torchvision";
    return Error(
        Stage::Load, ErrorCode::ModelFile,
        fmt::format("'{}' calls {}, an operator of the {} extension library (C++ code loaded by "
                    "`import {}` in Python), which t2n does not have and cannot translate{}",
                    shown, op, ns, ns, where),
        torchvision && op.find("nms") != std::string::npos
            ? "export the network up to its boxes and scores (non-maximum suppression keeps a "
              "number of boxes that depends on the data, which an NNEF graph cannot hold) and "
              "run NMS in the application"
            : fmt::format("export the model without {}: replace the call with PyTorch operators "
                          "(for scatter operations, Tensor.scatter_reduce or index_add) before "
                          "torch.jit.script or torch.jit.trace",
                          op));
}

// LibTorch's words when an allocation fails (c10's CPU allocator, or a
// std::bad_alloc it wrapped): out of memory, not code it cannot compile.
bool isOutOfMemory(std::string_view what) {
    for (std::string_view words : {"can't allocate memory", "std::bad_alloc", "Out of memory",
                                   "out of memory", "Cannot allocate memory"})
        if (what.find(words) != std::string_view::npos)
            return true;
    return false;
}

Error loadOutOfMemory(const std::string& shown, const std::string& what) {
    return Error(Stage::Load, ErrorCode::ModelFile,
                 fmt::format("out of memory while LibTorch loaded '{}' ({}; {} bytes of memory "
                             "available)",
                             shown, what, util::availableMemory()),
                 "free memory (or raise the process's limit: ulimit -v) and try again");
}

// torch::jit::load through `read` (from a file or from memory), in eval mode,
// with LibTorch's refusals turned into errors that name `shown` and say what
// to do.
template <class Read> torch::jit::Module loadChecked(const std::string& shown, Read read) {
    try {
        selectQuantizedEngine();
        torch::jit::Module m = read();
        m.eval();
        if (!m.find_method("forward"))
            throw Error(Stage::Load, ErrorCode::ModelFile,
                        fmt::format("'{}' has no forward() method", shown),
                        "export a module whose forward() is the inference entry point");
        return m;
    } catch (const std::bad_alloc&) {
        throw loadOutOfMemory(shown, "std::bad_alloc");
    } catch (const c10::Error& e) {
        std::string what = e.what_without_backtrace();
        if (isOutOfMemory(what))
            throw loadOutOfMemory(shown, what.substr(0, what.find('\n')));
        bool pickle = what.find("constants.pkl") != std::string::npos ||
                      what.find("code/") != std::string::npos;
        std::string first = what.substr(0, what.find('\n'));
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' is not a TorchScript archive: {}", shown, first),
                    pickle ? "this looks like a torch.save() pickle (e.g. a state_dict); save the "
                             "module with torch.jit.save(torch.jit.trace(model, example), path)"
                           : "save the model with torch.jit.save; the file may be truncated or "
                             "written by an incompatible PyTorch");
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        if (isOutOfMemory(e.what())) {
            const std::string what = e.what();
            throw loadOutOfMemory(shown, what.substr(0, what.find('\n')));
        }
        // LibTorch compiles the archive's code/ on load: code it rejects (an
        // ErrorReport, e.g. a float constant that PyTorch serialized as an
        // integer) is a model file LibTorch 1.13 cannot read, not a t2n bug.
        const std::string what = e.what();
        // Its first non-empty line, and the line saying what was expected.
        std::string first, expected;
        for (size_t at = 0; at < what.size();) {
            const size_t end = std::min(what.find('\n', at), what.size());
            const std::string line = what.substr(at, end - at);
            const auto text = line.find_first_not_of(' ');
            if (first.empty() && line.find_first_not_of(" :") != std::string::npos)
                first = line.substr(text);
            else if (expected.empty() && line.find("Expected") != std::string::npos)
                expected = " " + line.substr(text);
            at = end + 1;
        }
        first += expected;
        std::string where;
        if (const auto file = what.find("File \""); file != std::string::npos)
            where = " (" + what.substr(file, what.find('\n', file) - file) + ")";
        if (auto missing = missingOperator(shown, first, where))
            throw *missing;
        throw Error(
            Stage::Load, ErrorCode::ModelFile,
            fmt::format("LibTorch cannot compile the code of '{}': {}{}", shown, first, where),
            "the file's TorchScript code is rejected by this LibTorch; save the model "
            "again with the PyTorch version t2n was built with, or with torch.jit.script "
            "instead of torch.jit.trace");
    }
}

// Tensors saved from a GPU are read onto the CPU (torch.jit.load's
// map_location='cpu'): the archive computes the same numbers wherever it runs.
void noteDevices(const std::vector<std::string>& devices, std::vector<std::string>* notes) {
    if (devices.empty() || !notes)
        return;
    std::string list;
    for (const auto& d : devices)
        list += (list.empty() ? "" : ", ") + d;
    notes->push_back(fmt::format("the model's tensors were saved on {}; t2n reads them onto the "
                                 "CPU (as torch.jit.load(..., map_location='cpu'))",
                                 list));
}

// A legacy archive (PyTorch 1.0-1.2), which LibTorch 1.13 as Debian builds
// it cannot read, is built by load/legacy_archive.cpp; nothing for others.
std::optional<torch::jit::Module>
loadIfLegacy(std::shared_ptr<caffe2::serialize::PyTorchStreamReader> zip, const std::string& shown,
             std::vector<std::string>* notes) {
    if (!isLegacyArchive(*zip))
        return std::nullopt;
    auto m = loadLegacyArchive(std::move(zip), shown);
    if (notes)
        notes->push_back("the file is a TorchScript archive of PyTorch 1.0-1.2 (model.json); t2n "
                         "read it as PyTorch's legacy importer did");
    return m;
}

// A quantized archive of PyTorch 1.3, rewritten in memory for LibTorch 1.13
// by load/old_quantized_archive.cpp; nothing for others.
std::optional<torch::jit::Module> loadIfOldQuantized(caffe2::serialize::PyTorchStreamReader& zip,
                                                     const std::string& shown,
                                                     std::vector<std::string>* notes) {
    auto bytes = rewriteOldQuantizedArchive(zip, shown);
    if (!bytes)
        return std::nullopt;
    std::istringstream in(std::move(*bytes));
    auto m = torch::jit::load(in, c10::Device(c10::kCPU));
    if (notes)
        notes->push_back("the file is a quantized TorchScript archive of PyTorch 1.3 (packed "
                         "weights declared Tensor); t2n read it with its packed weights and "
                         "quantized tensors in the form PyTorch 1.4 and later use");
    return m;
}

// A graph compiled from more lines of code than this takes about 16 KB per
// operation through LibTorch and t2n (1.6 GB for a chain of 100,000 adds
// in a 2.4 MB file): refused before LibTorch allocates it, as the archive
// limits refuse an inflated size. T2N_MAX_CODE_LINES raises it (0: none).
constexpr uint64_t kMaxCodeLines = 60000;

void refuseHugeCode(uint64_t lines, const std::string& shown) {
    uint64_t limit = kMaxCodeLines;
    if (const char* v = std::getenv("T2N_MAX_CODE_LINES"); v && *v) {
        char* end = nullptr;
        const unsigned long long n = std::strtoull(v, &end, 10);
        if (end && *end == '\0')
            limit = n;
    }
    if (limit == 0 || lines <= limit)
        return;
    throw Error(Stage::Load, ErrorCode::ModelFile,
                fmt::format("'{}' holds {} lines of TorchScript code, more than t2n reads ({}): "
                            "a graph that large takes about 16 KB of memory per operation ({:.1f} "
                            "GB here) before anything is written",
                            shown, lines, limit, static_cast<double>(lines) * 16e3 / 1e9),
                "export the model in parts (one submodule per archive), or raise the limit "
                "with T2N_MAX_CODE_LINES=N if this machine has the memory");
}

Error notAZip(const std::string& shown) {
    return Error(Stage::Load, ErrorCode::ModelFile,
                 fmt::format("'{}' is not a TorchScript archive (it is not a zip file)", shown),
                 "save the model with torch.jit.save(torch.jit.trace(model, example), path) "
                 "or torch.jit.script; t2n cannot read plain pickles, ONNX or safetensors");
}
} // namespace

torch::jit::Module loadTorchScript(const std::filesystem::path& path,
                                   std::vector<std::string>* notes) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("model file '{}' does not exist", path.string()),
                    "check the path; t2n reads files written by torch.jit.save");
    if (std::filesystem::is_directory(path, ec))
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("'{}' is a directory, not a TorchScript file", path.string()),
                    "pass the .pt/.jit file written by torch.jit.save");
    if (!looksLikeZip(path))
        throw notAZip(path.string());
    // LibTorch never compares a storage's size with its record's: t2n does, first.
    std::ifstream records(path, std::ios::binary);
    const auto devices = reader::checkStorageRecords(records, path.string());
    refuseHugeCode(reader::codeLines(records, path.string()), path.string());
    noteDevices(devices, notes);
    return loadChecked(path.string(), [&] {
        auto zip = std::make_shared<caffe2::serialize::PyTorchStreamReader>(path.string());
        if (auto rewritten = loadIfOldQuantized(*zip, path.string(), notes))
            return *rewritten;
        if (auto legacy = loadIfLegacy(std::move(zip), path.string(), notes))
            return *legacy;
        return torch::jit::load(path.string(), c10::Device(c10::kCPU));
    });
}

torch::jit::Module loadTorchScript(std::istream& in, const std::string& name,
                                   std::vector<std::string>* notes) {
    const auto start = in.tellg();
    const bool zip = startsLikeZip(in);
    in.clear();
    in.seekg(start);
    if (!zip)
        throw notAZip(name);
    noteDevices(reader::checkStorageRecords(in, name), notes);
    refuseHugeCode(reader::codeLines(in, name), name);
    return loadChecked(name, [&] {
        auto reader = std::make_shared<caffe2::serialize::PyTorchStreamReader>(&in);
        if (auto rewritten = loadIfOldQuantized(*reader, name, notes))
            return *rewritten;
        if (auto legacy = loadIfLegacy(std::move(reader), name, notes))
            return *legacy;
        in.clear();
        in.seekg(start);
        return torch::jit::load(in, c10::Device(c10::kCPU));
    });
}

std::vector<std::string> forwardArgumentNames(const torch::jit::Module& m) {
    std::vector<std::string> names;
    const auto& schema = m.get_method("forward").function().getSchema();
    for (size_t i = 1; i < schema.arguments().size(); ++i)
        names.push_back(schema.arguments()[i].name());
    return names;
}

namespace {
// The values of NAME:SHAPE:DTYPE=..., one for all elements or one each.
at::Tensor inlineValues(const InputSpec& s) {
    int64_t n = 1;
    for (int64_t d : s.shape)
        n *= d;
    const auto given = static_cast<int64_t>(s.values.size());
    if (given != 1 && given != n)
        throw Error(
            Stage::Load, ErrorCode::Usage,
            fmt::format("input '{}' has {} example values for {} elements", s.name, given, n),
            "give one value for every element, or a single value for all");
    at::Tensor t = at::tensor(s.values, at::TensorOptions().dtype(at::kDouble));
    t = given == 1 ? t.reshape({}).expand(s.shape).contiguous() : t.reshape(s.shape);
    return t.to(jit::toScalarType(s.dtype));
}
} // namespace

std::vector<at::Tensor> makeExampleInputs(const std::vector<InputSpec>& specs, uint64_t seed) {
    auto gen = at::detail::createCPUGenerator(seed);
    std::vector<at::Tensor> out;
    for (const auto& s : specs) {
        if (!s.valuesFile.empty()) {
            out.push_back(readExampleValues(s));
            continue;
        }
        // Values are made as f64 (inline), f32 or i64 (random) and converted:
        // room for those first.
        util::checkedTensorBytes(s.shape, s.dtype, Stage::Load, fmt::format("input '{}'", s.name),
                                 !s.values.empty()  ? 8
                                 : isFloat(s.dtype) ? 4
                                                    : 8);
        if (!s.values.empty()) {
            out.push_back(inlineValues(s));
            continue;
        }
        at::Tensor t;
        switch (s.dtype) {
        case DType::F16:
        case DType::F32:
        case DType::F64:
            t = at::randn(s.shape, gen, at::TensorOptions().dtype(at::kFloat))
                    .to(s.dtype == DType::F16   ? at::kHalf
                        : s.dtype == DType::F64 ? at::kDouble
                                                : at::kFloat);
            break;
        case DType::Bool:
            t = at::randint(0, 2, s.shape, gen, at::TensorOptions().dtype(at::kLong)).to(at::kBool);
            break;
        default:
            t = at::randint(s.randomRange ? s.randomRange->low : 0,
                            s.randomRange ? s.randomRange->high + 1 : 10, s.shape, gen,
                            at::TensorOptions().dtype(at::kLong))
                    .to(s.dtype == DType::I32   ? at::kInt
                        : s.dtype == DType::I16 ? at::kShort
                        : s.dtype == DType::I8  ? at::kChar
                        : s.dtype == DType::U8  ? at::kByte
                                                : at::kLong);
        }
        out.push_back(t);
    }
    std::vector<util::ExampleShape> shapes;
    for (size_t i = 0; i < specs.size(); ++i)
        shapes.push_back({specs[i].name, out[i].sizes().vec()});
    util::checkExamplesHaveData(shapes);
    return out;
}

std::string randomIntegersHint(const std::vector<InputSpec>& specs) {
    std::vector<std::string> names, examples;
    for (const auto& s : specs) {
        if (!s.valuesFile.empty() || !s.values.empty() || s.randomRange || isFloat(s.dtype) ||
            s.dtype == DType::Bool)
            continue;
        names.push_back("'" + s.name + "'");
        InputSpec example = s;
        int64_t n = 1;
        for (int64_t d : s.shape)
            n *= d;
        example.values = n == 1 ? std::vector<double>{60} : std::vector<double>{3, 1, 4, 1};
        if (n != 1 && n != 4)
            example.values = {1};
        examples.push_back("--input " + example.toString());
    }
    if (names.empty())
        return {};
    return fmt::format(
        "{} {} held random integers in [0, 10); if the model needs real values "
        "(lengths, token ids, indices), give them inline ({}, one value for all elements "
        "or one per element) or from a file (--input NAME=@FILE.npy, "
        "NAME=@FILE.npz#MEMBER or NAME=@FILE.pt)",
        names.size() == 1 ? "input" : "inputs", fmt::join(names, ", "), fmt::join(examples, ", "));
}

Error withRandomIntegersHint(const Error& e, const std::vector<InputSpec>& specs) {
    const std::string extra = randomIntegersHint(specs);
    if (e.code() != ErrorCode::ModelRun || extra.empty())
        return e;
    Error out(e.stage(), e.code(), e.message(), e.hint().empty() ? extra : e.hint() + "; " + extra);
    for (const auto& d : e.details())
        out.addDetail(d);
    return out;
}

Error withModelRunHints(const Error& e, const std::vector<InputSpec>& specs,
                        const torch::jit::Module& model, double seconds) {
    Error out = withRandomIntegersHint(e, specs);
    if (e.code() != ErrorCode::ModelRun)
        return out;
    // The given sizes are wrong for the model (an Android asset's MANIFEST
    // gave one channel where the first conv reads three, which XNNPACK ran
    // without a word): the sizes it takes are the user's way out.
    ProposalLimits limits;
    limits.maxSeconds = seconds;
    InputProposal proposal;
    try {
        proposal = proposeInputs(model, limits, [] { return false; });
    } catch (const std::exception&) {
        return out; // no proposal: the error as it was
    }
    // Sizes the user gave already (a failure that is not theirs) say nothing.
    const auto given = [&](const ProposedInput& p) {
        return std::any_of(specs.begin(), specs.end(), [&](const InputSpec& s) {
            return s.name == p.spec.name && s.shape == p.spec.shape && s.dtype == p.spec.dtype;
        });
    };
    if (!proposal.confirmed || std::all_of(proposal.inputs.begin(), proposal.inputs.end(), given))
        return out;
    const std::string runs =
        fmt::format("the model runs with {} (t2n's input proposal ran it; export without "
                    "--input to take those)",
                    proposal.flags());
    Error hinted(out.stage(), out.code(), out.message(),
                 out.hint().empty() ? runs : out.hint() + "; " + runs);
    for (const auto& d : out.details())
        hinted.addDetail(d);
    return hinted;
}

} // namespace t2n::load
