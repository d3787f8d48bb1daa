// Why: PyTorch 1.3's quantized modules (the Android demo's MobileNetV2)
// declared their packed weights `_packed_params : Tensor` and pickled a
// quantized tensor's scale and zero point as two bare arguments of
// torch._utils._rebuild_qtensor. From 1.4 on, packed weights are objects of
// Conv2dPackedParamsBase / LinearPackedParamsBase and the quantizer is one
// tuple (qscheme, scale, zero_point): LibTorch 1.13 refuses the code
// ("Expected a value of type '__torch__.torch.classes.quantized...") and
// then the pickle ("Expected Tuple but got Double"). The operators the code
// calls (quantized::conv2d with stride/padding lists, conv_prepack, ...)
// still exist with those signatures. Two rewrites make the archive 1.13's:
// the attribute's declared type (per class: conv or linear by the packing
// it calls) and the quantizer arguments folded into a per-tensor tuple.
// The module's __setstate__ then packs the weights as 1.13 packs them.
#include "load/old_quantized_archive.h"

#include "t2n/error.h"

#include <fmt/format.h>

#include <set>

namespace t2n::load {

namespace {

using caffe2::serialize::PyTorchStreamReader;

constexpr std::string_view kOldPacked = "_packed_params : Tensor";

std::string record(PyTorchStreamReader& reader, const std::string& name) {
    auto [data, size] = reader.getRecord(name);
    return std::string(static_cast<const char*>(data.get()), size);
}

// Each class of a code/ file whose packed weights are declared Tensor gets
// the class its packing makes.
std::string retypedCode(const std::string& code) {
    std::vector<size_t> starts{0};
    for (size_t at = code.find("\nclass "); at != std::string::npos;
         at = code.find("\nclass ", at + 1))
        starts.push_back(at + 1);
    starts.push_back(code.size());
    std::string out;
    for (size_t i = 0; i + 1 < starts.size(); ++i) {
        std::string part = code.substr(starts[i], starts[i + 1] - starts[i]);
        if (const auto at = part.find(kOldPacked); at != std::string::npos) {
            const bool conv = part.find("ops.quantized.conv") != std::string::npos;
            part.replace(at, kOldPacked.size(),
                         std::string("_packed_params : __torch__.torch.classes.quantized.") +
                             (conv ? "Conv2dPackedParamsBase" : "LinearPackedParamsBase"));
        }
        out += part;
    }
    return out;
}

// The length of the opcode at `at` (with its argument), and how it changes
// the number of values on the pickle machine's stack (marks apart).
struct OpShape {
    size_t length = 0;
    int pushes = 0;
};

[[noreturn]] void unknownOpcode(const std::string& shown, uint8_t code, size_t at) {
    throw Error(Stage::Load, ErrorCode::ModelFile,
                fmt::format("'{}' is a quantized TorchScript archive of PyTorch 1.3, whose "
                            "data.pkl t2n rewrites for LibTorch 1.13; it holds pickle opcode "
                            "0x{:02x} (at byte {}), which the rewrite does not know",
                            shown, code, at),
                "load it with PyTorch 1.4 to 1.13 and save it again: "
                "torch.jit.save(torch.jit.load(old), new), or quantize the float model again");
}

OpShape opShape(const std::string& p, size_t at, const std::string& shown) {
    const auto u8 = [&](size_t i) { return static_cast<uint8_t>(p.at(i)); };
    const auto le32 = [&](size_t i) {
        return static_cast<size_t>(u8(i)) | static_cast<size_t>(u8(i + 1)) << 8 |
               static_cast<size_t>(u8(i + 2)) << 16 | static_cast<size_t>(u8(i + 3)) << 24;
    };
    const uint8_t code = u8(at);
    switch (code) {
    case 0x80:
        return {2, 0}; // PROTO
    case 'c': {        // GLOBAL module\nname\n
        const size_t a = p.find('\n', at + 1);
        const size_t b = a == std::string::npos ? a : p.find('\n', a + 1);
        if (b == std::string::npos)
            unknownOpcode(shown, code, at);
        return {b + 1 - at, 1};
    }
    case 'q':
        return {2, 0}; // BINPUT
    case 'r':
        return {5, 0}; // LONG_BINPUT
    case 'h':
        return {2, 1}; // BINGET
    case 'j':
        return {5, 1}; // LONG_BINGET
    case 'J':
        return {5, 1}; // BININT
    case 'K':
        return {2, 1}; // BININT1
    case 'M':
        return {3, 1}; // BININT2
    case 'G':
        return {9, 1}; // BINFLOAT
    case 'X':
    case 'T':
    case 'B': // BINUNICODE, BINSTRING, BINBYTES
        return {5 + le32(at + 1), 1};
    case 'U':
    case 'C':
    case 0x8c: // SHORT_BINSTRING/BYTES/UNICODE
        return {2 + static_cast<size_t>(u8(at + 1)), 1};
    case 0x8a: // LONG1
        return {2 + static_cast<size_t>(u8(at + 1)), 1};
    case 'N':
    case 0x88:
    case 0x89: // NONE, NEWTRUE, NEWFALSE
    case ')':
    case ']':
    case '}': // EMPTY_TUPLE/LIST/DICT
        return {1, 1};
    case 0x85:
    case 'Q':
    case '.': // TUPLE1, BINPERSID, STOP
        return {1, 0};
    case 0x86:
    case 'R':
    case 'b':
    case 0x81:
    case 'a':
    case '0':
        return {1, -1}; // TUPLE2, REDUCE, BUILD, NEWOBJ, APPEND, POP
    case 0x87:
    case 's': // TUPLE3, SETITEM
        return {1, -2};
    case '(':
    case 't':
    case 'l':
    case 'd':
    case 'e':
    case 'u':
        return {1, 0}; // marks: handled by the caller
    default:
        unknownOpcode(shown, code, at);
    }
}

// _rebuild_qtensor(storage, offset, size, stride, scale, zero_point, ...)
// becomes _rebuild_qtensor(storage, offset, size, stride,
// (per_tensor_affine, scale, zero_point), ...).
std::string foldedQuantizers(const std::string& p, const std::string& shown, int* folded) {
    std::string out;
    std::set<uint64_t> memo; // memo slots holding _rebuild_qtensor
    enum { Idle, Await, Args } state = Idle;
    int level = 0, items = 0;
    bool opened = false, closed = false;
    for (size_t at = 0; at < p.size();) {
        const uint8_t code = static_cast<uint8_t>(p[at]);
        const OpShape shape = opShape(p, at, shown);
        const std::string op = p.substr(at, shape.length);
        at += shape.length;
        const bool isMark = code == '(';
        const bool closesMark =
            code == 't' || code == 'l' || code == 'd' || code == 'e' || code == 'u';
        if (state == Args && level == 0) {
            if (!opened && items == 4 && (shape.pushes > 0 || isMark)) {
                out += "(K";
                out += '\0'; // at::kPerTensorAffine
                opened = true;
            }
            if (opened && !closed && items == 6 && (shape.pushes > 0 || isMark || closesMark)) {
                out += 't';
                closed = true;
            }
        }
        out += op;
        if (code == 'c' && op == "ctorch._utils\n_rebuild_qtensor\n") {
            state = Await;
            if (at < p.size() && (p[at] == 'q' || p[at] == 'r')) {
                const OpShape put = opShape(p, at, shown);
                uint64_t slot = 0;
                for (size_t i = put.length - 1; i >= 1; --i)
                    slot = slot << 8 | static_cast<uint8_t>(p[at + i]);
                memo.insert(slot);
            }
            continue;
        }
        if (code == 'h' || code == 'j') {
            uint64_t slot = 0;
            for (size_t i = op.size() - 1; i >= 1; --i)
                slot = slot << 8 | static_cast<uint8_t>(op[i]);
            if (memo.count(slot)) {
                state = Await;
                continue;
            }
        }
        if (state == Await) {
            if (code == 'q' || code == 'r')
                continue;
            if (isMark) {
                state = Args;
                level = items = 0;
                opened = closed = false;
            } else {
                state = Idle;
            }
            continue;
        }
        if (state != Args)
            continue;
        if (isMark) {
            ++level;
        } else if (closesMark) {
            if (level == 0) {
                state = Idle; // the arguments' tuple
                *folded += opened && closed;
                continue;
            }
            --level;
            if (level == 0 && code != 'e' && code != 'u')
                ++items;
        } else if (level == 0) {
            items += shape.pushes;
        }
    }
    return out;
}

} // namespace

std::optional<std::string> rewriteOldQuantizedArchive(PyTorchStreamReader& reader,
                                                      const std::string& shown) {
    const std::vector<std::string> names = reader.getAllRecords();
    bool old = false;
    for (const auto& n : names)
        if (n.starts_with("code/") && n.ends_with(".py") &&
            record(reader, n).find(kOldPacked) != std::string::npos) {
            old = true;
            break;
        }
    if (!old)
        return std::nullopt;
    std::string bytes;
    {
        caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, size_t size) {
            bytes.append(static_cast<const char*>(data), size);
            return size;
        });
        writer.setMinVersion(reader.version());
        int folded = 0;
        for (const auto& n : names) {
            if (n == "version" || n == ".data/version")
                continue; // the writer writes its own
            std::string data = record(reader, n);
            if (n.starts_with("code/") && n.ends_with(".py"))
                data = retypedCode(data);
            else if (n == "data.pkl" || n == "constants.pkl")
                data = foldedQuantizers(data, shown, &folded);
            writer.writeRecord(n, data.data(), data.size());
        }
        writer.writeEndOfFile();
    }
    return bytes;
}

} // namespace t2n::load
