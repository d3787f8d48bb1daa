#include "reader/torch_save_reader.h"

#include "reader/libarchive_handle.h"
#include "t2n/error.h"
#include "util/half.h"
#include "util/memory_limits.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <cstring>
#include <optional>

namespace t2n::reader {

namespace {

[[noreturn]] void badSaveFile(const std::string& why) {
    throw Error(Stage::Load, ErrorCode::ModelFile, "torch.save file: " + why,
                "t2n reads what torch.save writes (tensors, dicts, lists, tuples, numbers); "
                "save model.state_dict() rather than the model, or use safetensors");
}

struct Value;
using Ref = std::shared_ptr<Value>;

struct Value {
    enum Kind { None, Bool, Int, Float, Str, Tuple, List, Dict, Global, Storage, Tensor, Opaque };
    Kind kind = None;
    int64_t i = 0;
    std::string s; ///< Str; Global/Opaque: "module.name"; Storage: its key
    std::vector<Ref> items;
    std::vector<std::pair<Ref, Ref>> dict;
    std::string storageType; ///< "FloatStorage"...
    TensorData tensor;
    std::string note;
};

struct StorageType {
    const char* name;
    DType dtype;
    size_t size;
    bool bf16;
};
constexpr StorageType kStorages[] = {
    {"FloatStorage", DType::F32, 4, false}, {"DoubleStorage", DType::F64, 8, false},
    {"HalfStorage", DType::F16, 2, false},  {"BFloat16Storage", DType::F32, 2, true},
    {"LongStorage", DType::I64, 8, false},  {"IntStorage", DType::I32, 4, false},
    {"ShortStorage", DType::I16, 2, false}, {"CharStorage", DType::I8, 1, false},
    {"ByteStorage", DType::U8, 1, false},   {"BoolStorage", DType::Bool, 1, false},
};

const StorageType& storageType(const std::string& global) {
    const std::string name = global.substr(global.rfind('.') + 1);
    for (const auto& t : kStorages)
        if (name == t.name)
            return t;
    badSaveFile(fmt::format("a tensor is stored as {}, which NNEF .dat files cannot hold", global));
}

class Machine {
public:
    Machine(std::span<const std::byte> p, const StorageLookup& storages,
            std::vector<StorageUse>* uses = nullptr)
        : p_(p), storages_(storages), uses_(uses) {}
    // A pickle may build cycles (a list appended to itself through the memo),
    // which shared pointers alone would leak (found by fuzz_torch_save_reader):
    // every value made here is unlinked when the machine goes.
    ~Machine() {
        for (const Ref& v : made_) {
            v->items.clear();
            v->dict.clear();
        }
    }
    Machine(const Machine&) = delete;
    Machine& operator=(const Machine&) = delete;
    Ref run();

private:
    std::span<const std::byte> p_;
    const StorageLookup& storages_;
    /// Set: only list the storages (storageUses()), never build a tensor.
    std::vector<StorageUse>* uses_;
    size_t at_ = 0;
    std::vector<Ref> stack_;
    std::vector<size_t> marks_;
    std::map<uint64_t, Ref> memo_;
    std::vector<Ref> made_;

    Ref make(Value::Kind k) {
        auto v = std::make_shared<Value>();
        v->kind = k;
        made_.push_back(v);
        return v;
    }

    uint8_t byte() {
        if (at_ >= p_.size())
            badSaveFile("data.pkl ends in the middle of an instruction");
        return static_cast<uint8_t>(p_[at_++]);
    }
    uint64_t uint(int bytes) {
        uint64_t v = 0;
        for (int k = 0; k < bytes; ++k)
            v |= uint64_t{byte()} << (8 * k);
        return v;
    }
    std::string text(uint64_t n) {
        if (n > p_.size() - at_)
            badSaveFile(fmt::format("a string of {} bytes runs past the end of data.pkl", n));
        std::string s(reinterpret_cast<const char*>(p_.data() + at_), n);
        at_ += n;
        return s;
    }
    std::string line() {
        std::string s;
        for (uint8_t c = byte(); c != '\n'; c = byte())
            s += static_cast<char>(c);
        return s;
    }
    Ref pop() {
        if (stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back()))
            badSaveFile(fmt::format("an instruction at byte {} finds the stack empty", at_));
        Ref v = stack_.back();
        stack_.pop_back();
        return v;
    }
    Ref& top() {
        if (stack_.empty())
            badSaveFile(fmt::format("an instruction at byte {} finds the stack empty", at_));
        return stack_.back();
    }
    std::vector<Ref> popMark() {
        if (marks_.empty())
            badSaveFile("a collection without its MARK");
        std::vector<Ref> items(stack_.begin() + static_cast<std::ptrdiff_t>(marks_.back()),
                               stack_.end());
        stack_.resize(marks_.back());
        marks_.pop_back();
        return items;
    }
    void push(Ref v) {
        if (stack_.size() > (1u << 20))
            badSaveFile("the pickle stack grows beyond a million values");
        stack_.push_back(std::move(v));
    }
    Ref tuple(std::vector<Ref> items) {
        Ref t = make(Value::Tuple);
        t->items = std::move(items);
        return t;
    }
    void setItems(Ref& dict, const std::vector<Ref>& kv) {
        if (dict->kind != Value::Dict)
            return; // an opaque object's items: never read
        for (size_t k = 0; k + 1 < kv.size(); k += 2)
            dict->dict.emplace_back(kv[k], kv[k + 1]);
    }
    void appendItems(Ref& list, const std::vector<Ref>& items) {
        if (list->kind == Value::List)
            list->items.insert(list->items.end(), items.begin(), items.end());
    }
    Ref memo(uint64_t key) {
        auto it = memo_.find(key);
        if (it == memo_.end())
            badSaveFile(fmt::format("data.pkl reads memo entry {} before writing it", key));
        return it->second;
    }
    Ref persistent(const Ref& pid);
    Ref reduce(const Ref& callable, const Ref& args);
    Ref rebuildTensor(const std::vector<Ref>& a);
};

int64_t intOf(const Ref& v, const char* what) {
    if (!v || (v->kind != Value::Int && v->kind != Value::Bool))
        badSaveFile(fmt::format("{} is not an integer", what));
    return v->i;
}

std::vector<int64_t> intsOf(const Ref& v, const char* what) {
    if (!v || v->kind != Value::Tuple)
        badSaveFile(fmt::format("{} is not a tuple", what));
    std::vector<int64_t> out;
    for (const auto& e : v->items)
        out.push_back(intOf(e, what));
    return out;
}

Ref Machine::persistent(const Ref& pid) {
    // ('storage', torch.FloatStorage, key, location, numel)
    if (pid->kind != Value::Tuple || pid->items.size() < 5 || pid->items[0]->kind != Value::Str ||
        pid->items[0]->s != "storage" || pid->items[1]->kind != Value::Global ||
        pid->items[2]->kind != Value::Str)
        badSaveFile("a persistent id that is not a torch storage");
    Ref s = make(Value::Storage);
    s->storageType = pid->items[1]->s;
    s->s = pid->items[2]->s;
    s->i = intOf(pid->items[4], "a storage's size");
    if (uses_) { // any type LibTorch knows: its reader checks the rest
        const Ref& where = pid->items[3];
        uses_->push_back(
            {s->storageType, s->s, s->i, where->kind == Value::Str ? where->s : std::string()});
        return s;
    }
    storageType(s->storageType); // refuses unknown types now
    return s;
}

Ref Machine::rebuildTensor(const std::vector<Ref>& a) {
    // _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata])
    if (a.size() < 4 || a[0]->kind != Value::Storage)
        badSaveFile("_rebuild_tensor_v2 without a storage");
    const Ref& storage = a[0];
    const StorageType& type = storageType(storage->storageType);
    const int64_t offset = intOf(a[1], "a tensor's offset");
    const std::vector<int64_t> size = intsOf(a[2], "a tensor's size");
    const std::vector<int64_t> stride = intsOf(a[3], "a tensor's stride");
    if (size.size() != stride.size() || size.size() > 8 || offset < 0)
        badSaveFile("a tensor whose size, stride or offset is malformed");
    auto bytes = storages_(storage->s);
    if (!bytes)
        badSaveFile(fmt::format("storage record data/{} is missing", storage->s));
    const uint64_t items = bytes->size() / type.size;
    util::checkedTensorBytes(size, type.dtype, Stage::Load, "a tensor of the torch.save file");
    // The last element it reads must lie inside the storage.
    uint64_t last = static_cast<uint64_t>(offset), count = 1;
    bool contiguousAllowed = true;
    for (size_t d = 0; d < size.size(); ++d) {
        if (size[d] < 0 || stride[d] < 0)
            badSaveFile("a tensor with a negative size or stride");
        count *= static_cast<uint64_t>(size[d]);
        if (size[d] > 0)
            last += static_cast<uint64_t>(size[d] - 1) * static_cast<uint64_t>(stride[d]);
    }
    if (count > 0 && last >= items)
        badSaveFile(fmt::format("a tensor reads element {} of a storage of {}", last, items));
    if (count == 0)
        contiguousAllowed = false;
    Ref t = make(Value::Tensor);
    // Row-major, from the offset: a view of the record, no copy.
    bool contiguous = contiguousAllowed;
    int64_t expect = 1;
    for (size_t d = size.size(); d-- > 0;) {
        if (size[d] != 1 && stride[d] != expect)
            contiguous = false;
        expect *= size[d];
    }
    std::shared_ptr<std::vector<std::byte>> copy;
    const std::byte* src = bytes->data();
    if (!contiguous || type.bf16) {
        copy = std::make_shared<std::vector<std::byte>>(count * type.size);
        std::vector<int64_t> index(size.size(), 0);
        for (uint64_t n = 0; n < count; ++n) {
            uint64_t e = static_cast<uint64_t>(offset);
            for (size_t d = 0; d < size.size(); ++d)
                e += static_cast<uint64_t>(index[d] * stride[d]);
            std::memcpy(copy->data() + n * type.size, src + e * type.size, type.size);
            for (size_t d = size.size(); d-- > 0;) {
                if (++index[d] < size[d])
                    break;
                index[d] = 0;
            }
        }
    }
    if (type.bf16) {
        t->tensor = util::widenBf16(copy->data(), size, count);
        t->note = util::kBf16WidenedNote;
    } else if (copy) {
        const std::byte* data = copy->data();
        t->tensor = TensorData(type.dtype, size, data, std::move(copy));
    } else {
        t->tensor =
            TensorData(type.dtype, size, src + offset * static_cast<int64_t>(type.size), bytes);
    }
    return t;
}

Ref Machine::reduce(const Ref& callable, const Ref& args) {
    std::string name = callable->kind == Value::Global ? callable->s : "";
    const std::vector<Ref> a = args->kind == Value::Tuple ? args->items : std::vector<Ref>{};
    if (uses_ != nullptr)
        name = "";
    if (name == "collections.OrderedDict")
        return make(Value::Dict);
    if (name == "torch._utils._rebuild_tensor_v2")
        return rebuildTensor(a);
    if (name == "torch._utils._rebuild_parameter" ||
        name == "torch._utils._rebuild_parameter_with_state") {
        if (a.empty() || a[0]->kind != Value::Tensor)
            badSaveFile("_rebuild_parameter without a tensor");
        return a[0];
    }
    // Anything else is never called: its result is opaque.
    Ref o = make(Value::Opaque);
    o->s = name.empty() ? "an object" : name;
    return o;
}

Ref Machine::run() {
    while (true) {
        const uint8_t op = byte();
        switch (op) {
        case 0x80:
            byte();
            break; // PROTO
        case 0x95:
            uint(8);
            break; // FRAME
        case '.':
            return pop(); // STOP
        case '(':
            marks_.push_back(stack_.size());
            break;
        case ')':
            push(tuple({}));
            break;
        case 't':
            push(tuple(popMark()));
            break;
        case 0x85: {
            auto a = pop();
            push(tuple({a}));
            break;
        }
        case 0x86: {
            auto b = pop(), a = pop();
            push(tuple({a, b}));
            break;
        }
        case 0x87: {
            auto c = pop(), b = pop(), a = pop();
            push(tuple({a, b, c}));
            break;
        }
        case ']':
            push(make(Value::List));
            break;
        case 'l': {
            auto l = make(Value::List);
            l->items = popMark();
            push(l);
            break;
        }
        case '}':
            push(make(Value::Dict));
            break;
        case 'd': {
            auto d = make(Value::Dict);
            setItems(d, popMark());
            push(d);
            break;
        }
        case 'a': {
            auto v = pop();
            appendItems(top(), {v});
            break;
        }
        case 'e': {
            auto items = popMark();
            appendItems(top(), items);
            break;
        }
        case 's': {
            auto v = pop(), k = pop();
            setItems(top(), {k, v});
            break;
        }
        case 'u': {
            auto kv = popMark();
            setItems(top(), kv);
            break;
        }
        case 'N':
            push(make(Value::None));
            break;
        case 0x88:
        case 0x89: {
            auto b = make(Value::Bool);
            b->i = op == 0x88;
            push(b);
            break;
        }
        case 'J': {
            auto v = make(Value::Int);
            v->i = static_cast<int32_t>(uint(4));
            push(v);
            break;
        }
        case 'K': {
            auto v = make(Value::Int);
            v->i = byte();
            push(v);
            break;
        }
        case 'M': {
            auto v = make(Value::Int);
            v->i = static_cast<int64_t>(uint(2));
            push(v);
            break;
        }
        case 0x8a: { // LONG1: little-endian two's complement
            const uint8_t n = byte();
            if (n > 8)
                badSaveFile("an integer wider than 64 bits");
            uint64_t raw = n ? uint(n) : 0;
            if (n > 0 && n < 8 && (raw >> (8 * n - 1)) & 1)
                raw |= ~uint64_t{0} << (8 * n);
            auto v = make(Value::Int);
            v->i = static_cast<int64_t>(raw);
            push(v);
            break;
        }
        case 'G': { // BINFLOAT, big-endian
            uint64_t bits = 0;
            for (int k = 0; k < 8; ++k)
                bits = bits << 8 | byte();
            double d;
            std::memcpy(&d, &bits, 8);
            auto v = make(Value::Float);
            v->s = fmt::format("{}", d);
            push(v);
            break;
        }
        case 'X':
        case 'T':
        case 'B': {
            auto v = make(Value::Str);
            v->s = text(uint(4));
            push(v);
            break;
        }
        case 0x8c:
        case 'U':
        case 'C': {
            auto v = make(Value::Str);
            v->s = text(byte());
            push(v);
            break;
        }
        case 0x8d:
        case 0x8e: {
            auto v = make(Value::Str);
            v->s = text(uint(8));
            push(v);
            break;
        }
        case 'c': {
            auto g = make(Value::Global);
            g->s = line();
            g->s += "." + line();
            push(g);
            break;
        }
        case 0x93: { // STACK_GLOBAL
            auto n = pop(), m = pop();
            auto g = make(Value::Global);
            g->s = m->s + "." + n->s;
            push(g);
            break;
        }
        case 'q':
            memo_[byte()] = top();
            break;
        case 'r':
            memo_[uint(4)] = top();
            break;
        case 0x94:
            memo_[memo_.size()] = top();
            break;
        case 'h':
            push(memo(byte()));
            break;
        case 'j':
            push(memo(uint(4)));
            break;
        case 'Q': {
            auto pid = pop();
            push(persistent(pid));
            break;
        }
        case 'R': {
            auto args = pop(), f = pop();
            push(reduce(f, args));
            break;
        }
        case 0x81: {
            auto args = pop(), cls = pop();
            push(reduce(cls, args));
            break;
        } // NEWOBJ
        case 'b':
            pop();
            break; // BUILD: an object's state (OrderedDict._metadata...): ignored
        default:
            badSaveFile(
                fmt::format("pickle instruction 0x{:02X} at byte {} is not one torch.save writes",
                            op, at_ - 1));
        }
    }
}

// A value the memo shares is flattened once per path to it (tied weights
// appear under each name): the visits are bounded, for a pickle whose lists
// hold themselves, or each other twice over, would otherwise be walked for
// ever or 2^64 times.
constexpr size_t kMaxFlattenVisits = size_t{1} << 20;

void flatten(SavedObject& out, const std::string& key, const Ref& v, int depth, size_t& visits) {
    if (depth > 64)
        badSaveFile("dicts and lists nested more than 64 deep");
    if (++visits > kMaxFlattenVisits)
        badSaveFile(fmt::format("its dicts and lists hold more than {} values (or hold themselves)",
                                kMaxFlattenVisits));
    auto join = [&](const std::string& part) { return key.empty() ? part : key + "." + part; };
    switch (v->kind) {
    case Value::Tensor:
        out.tensors.push_back({key.empty() ? "tensor" : key, v->tensor, v->note});
        break;
    case Value::Dict:
        for (const auto& [k, item] : v->dict)
            flatten(out, join(k->kind == Value::Str ? k->s : std::to_string(k->i)), item, depth + 1,
                    visits);
        break;
    case Value::List:
    case Value::Tuple:
        for (size_t i = 0; i < v->items.size(); ++i)
            flatten(out, join(std::to_string(i)), v->items[i], depth + 1, visits);
        break;
    case Value::None:
        break;
    default:
        out.skipped.push_back(key.empty() ? (v->kind == Value::Opaque ? v->s : "a value") : key);
    }
}

} // namespace

SavedObject unpickleTorchSave(std::span<const std::byte> pickle, const StorageLookup& storages) {
    Machine m(pickle, storages);
    SavedObject out;
    size_t visits = 0;
    flatten(out, "", m.run(), 0, visits);
    return out;
}

std::vector<StorageUse> storageUses(std::span<const std::byte> pickle) {
    const StorageLookup none = [](const std::string&) { return nullptr; };
    std::vector<StorageUse> uses;
    Machine m(pickle, none, &uses);
    m.run();
    return uses;
}

SavedObject readTorchSave(const std::filesystem::path& file) {
    ArchiveReadHandle a = newArchiveReader();
    archive_read_support_format_zip(a.get());
    if (archive_read_open_filename(a.get(), file.c_str(), 1 << 16) != ARCHIVE_OK)
        badSaveFile(fmt::format("'{}' cannot be opened as a zip file", file.string()));
    std::error_code ec;
    const uint64_t fileSize = std::filesystem::file_size(file, ec);
    std::string pickle;
    std::map<std::string, std::shared_ptr<const std::vector<std::byte>>> records;
    uint64_t total = 0;
    while (true) {
        struct archive_entry* e = nullptr;
        const int r = archive_read_next_header(a.get(), &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r < ARCHIVE_WARN)
            badSaveFile(fmt::format("not a readable zip file: {}", archive_error_string(a.get())));
        const std::string name = archive_entry_pathname(e) ? archive_entry_pathname(e) : "";
        const auto slash = name.find('/');
        const std::string record = slash == std::string::npos ? name : name.substr(slash + 1);
        const bool wanted = record == "data.pkl" || record.rfind("data/", 0) == 0;
        if (!wanted)
            continue;
        // torch.save stores its records: more bytes than the file is not a
        // torch.save file, and must not be inflated.
        auto bytes = std::make_shared<std::vector<std::byte>>();
        std::byte buf[1 << 16];
        while (true) {
            const la_ssize_t n = archive_read_data(a.get(), buf, sizeof buf);
            if (n < 0)
                badSaveFile(fmt::format("record '{}' cannot be read: {}", name,
                                        archive_error_string(a.get())));
            if (n == 0)
                break;
            total += static_cast<uint64_t>(n);
            if (fileSize > 0 && total > fileSize)
                badSaveFile(
                    "its records hold more bytes than the file: a compressed zip, not torch.save");
            bytes->insert(bytes->end(), buf, buf + n);
        }
        if (record == "data.pkl")
            pickle.assign(reinterpret_cast<const char*>(bytes->data()), bytes->size());
        else
            records[record.substr(5)] = std::move(bytes);
    }
    if (pickle.empty())
        badSaveFile(fmt::format("'{}' has no data.pkl record", file.string()));
    return unpickleTorchSave(std::as_bytes(std::span(pickle.data(), pickle.size())),
                             [&](const std::string& key) {
                                 auto it = records.find(key);
                                 return it == records.end() ? nullptr : it->second;
                             });
}

} // namespace t2n::reader
