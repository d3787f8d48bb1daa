#include "reader/safetensors_reader.h"

#include "t2n/error.h"
#include "util/half.h"
#include "util/memory_limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace t2n::reader {

namespace {

// The safetensors library itself refuses headers above 100 MB.
constexpr uint64_t kMaxHeaderBytes = 100u << 20;

[[noreturn]] void badSafetensors(const std::string& why) {
    throw Error(Stage::Load, ErrorCode::ModelFile, why,
                "the file is not a complete safetensors file; write it again");
}

uint64_t loadU64(std::span<const std::byte> b) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | static_cast<uint8_t>(b[static_cast<size_t>(i)]);
    return v;
}

uint64_t itemBytes(const std::string& dtype) {
    static const std::pair<const char*, uint64_t> kSizes[] = {
        {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2},    {"I64", 8},
        {"I32", 4}, {"I16", 2}, {"I8", 1},  {"U8", 1},      {"BOOL", 1},
        {"U16", 2}, {"U32", 4}, {"U64", 8}, {"F8_E4M3", 1}, {"F8_E5M2", 1}};
    for (const auto& [n, s] : kSizes)
        if (dtype == n)
            return s;
    badSafetensors(fmt::format("unknown safetensors dtype '{}'", dtype));
}

SafetensorsEntry parseEntry(const std::string& name, const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("dtype") || !j.contains("shape") ||
        !j.contains("data_offsets"))
        badSafetensors(fmt::format("tensor '{}' lacks dtype, shape or data_offsets", name));
    const auto& dtype = j["dtype"];
    const auto& shape = j["shape"];
    const auto& offsets = j["data_offsets"];
    if (!dtype.is_string() || !shape.is_array() || !offsets.is_array() || offsets.size() != 2 ||
        !offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned())
        badSafetensors(
            fmt::format("tensor '{}' has a malformed dtype, shape or data_offsets", name));
    SafetensorsEntry e;
    e.name = name;
    e.dtype = dtype.get<std::string>();
    uint64_t count = 1;
    for (const auto& d : shape) {
        if (!d.is_number_unsigned())
            badSafetensors(fmt::format("tensor '{}' has a dimension that is not a size", name));
        uint64_t v = d.get<uint64_t>();
        if (v > static_cast<uint64_t>(INT64_MAX) || (v != 0 && count > UINT64_MAX / v))
            badSafetensors(
                fmt::format("tensor '{}' has a shape whose element count overflows", name));
        count *= v;
        e.shape.push_back(static_cast<int64_t>(v));
    }
    e.begin = offsets[0].get<uint64_t>();
    e.end = offsets[1].get<uint64_t>();
    const uint64_t item = itemBytes(e.dtype);
    if (e.end < e.begin || count > UINT64_MAX / item || e.end - e.begin != count * item)
        badSafetensors(fmt::format("tensor '{}': data_offsets [{}, {}] do not hold {} {} elements",
                                   name, e.begin, e.end, count, e.dtype));
    return e;
}

struct Mapping {
    void* address = nullptr;
    size_t size = 0;
    ~Mapping() {
        if (address != nullptr)
            ::munmap(address, size);
    }
};

std::shared_ptr<Mapping> mapFile(const std::filesystem::path& file) {
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("cannot open {}: {}", file.string(), std::strerror(errno)));
    struct stat st {};
    auto mapping = std::make_shared<Mapping>();
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        mapping->size = static_cast<size_t>(st.st_size);
        void* a = ::mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
        mapping->address = a == MAP_FAILED ? nullptr : a;
    }
    ::close(fd);
    if (mapping->address == nullptr)
        throw Error(Stage::Load, ErrorCode::ModelFile,
                    fmt::format("cannot read {}: not a regular, non-empty file", file.string()));
    return mapping;
}

} // namespace

bool looksLikeSafetensors(std::span<const std::byte> bytes) {
    if (bytes.size() < 9)
        return false;
    uint64_t n = loadU64(bytes.first(8));
    return n >= 2 && n <= kMaxHeaderBytes && static_cast<char>(bytes[8]) == '{';
}

SafetensorsHeader parseSafetensorsHeader(std::span<const std::byte> bytes) {
    if (bytes.size() < 8)
        badSafetensors("the file is shorter than the 8-byte header length");
    const uint64_t n = loadU64(bytes.first(8));
    if (n > kMaxHeaderBytes || n > bytes.size() - 8)
        badSafetensors(fmt::format("the header claims {} bytes; the file has {} after the length",
                                   n, bytes.size() - 8));
    const auto* text = reinterpret_cast<const char*>(bytes.data() + 8);
    nlohmann::json j = nlohmann::json::parse(text, text + n, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        badSafetensors("the header is not a JSON object");
    SafetensorsHeader h;
    h.dataOffset = 8 + n;
    const uint64_t dataBytes = bytes.size() - h.dataOffset;
    for (const auto& [key, value] : j.items()) {
        if (key == "__metadata__") {
            if (!value.is_object())
                badSafetensors("__metadata__ is not an object");
            for (const auto& [mk, mv] : value.items())
                if (mv.is_string())
                    h.metadata[mk] = mv.get<std::string>();
            continue;
        }
        SafetensorsEntry e = parseEntry(key, value);
        if (e.end > dataBytes)
            badSafetensors(fmt::format("tensor '{}' ends at byte {} of a data section of {} bytes",
                                       key, e.end, dataBytes));
        h.entries.push_back(std::move(e));
    }
    std::sort(h.entries.begin(), h.entries.end(),
              [](const auto& a, const auto& b) { return a.begin < b.begin; });
    for (size_t i = 1; i < h.entries.size(); ++i)
        if (h.entries[i].begin < h.entries[i - 1].end)
            badSafetensors(fmt::format("tensors '{}' and '{}' overlap", h.entries[i - 1].name,
                                       h.entries[i].name));
    return h;
}

DType safetensorsDType(const std::string& name, const std::string& tensor) {
    static const std::pair<const char*, DType> kTypes[] = {
        {"F64", DType::F64}, {"F32", DType::F32},  {"F16", DType::F16}, {"BF16", DType::F32},
        {"I64", DType::I64}, {"I32", DType::I32},  {"I16", DType::I16}, {"I8", DType::I8},
        {"U8", DType::U8},   {"BOOL", DType::Bool}};
    for (const auto& [n, t] : kTypes)
        if (name == n)
            return t;
    throw Error(Stage::Load, ErrorCode::Unsupported,
                fmt::format("tensor '{}' is {}, which NNEF .dat files cannot hold", tensor, name),
                "leave it out with --filter, or convert it before saving");
}

std::vector<SafetensorsTensor> viewSafetensors(std::span<const std::byte> file,
                                               std::shared_ptr<const void> owner) {
    SafetensorsHeader h = parseSafetensorsHeader(file);
    std::vector<SafetensorsTensor> out;
    out.reserve(h.entries.size());
    for (auto& e : h.entries) {
        const DType dtype = safetensorsDType(e.dtype, e.name);
        const std::byte* bytes = file.data() + h.dataOffset + e.begin;
        TensorData data;
        if (e.dtype == "BF16") {
            util::checkedTensorBytes(e.shape, DType::F32, Stage::Load, e.name);
            data = util::widenBf16(bytes, e.shape, (e.end - e.begin) / 2);
        } else {
            data = TensorData(dtype, e.shape, bytes, owner);
        }
        out.push_back({std::move(e), std::move(data)});
    }
    return out;
}

std::vector<SafetensorsTensor> readSafetensors(const std::filesystem::path& file) {
    std::shared_ptr<Mapping> mapping = mapFile(file);
    const auto* base = static_cast<const std::byte*>(mapping->address);
    return viewSafetensors({base, mapping->size}, mapping);
}

} // namespace t2n::reader
