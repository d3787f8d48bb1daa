#include "reader/storage_records.h"

#include "reader/torch_save_reader.h"
#include "t2n/error.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>

#include <cstdlib>

namespace t2n::reader {

namespace {

constexpr const char* kResaveModel =
    "the file was cut short or edited after torch.jit.save: save the "
    "model again with torch.jit.save";

[[noreturn]] void refuseZip(const std::string& shown, const std::string& why,
                            const char* hint = kResaveModel) {
    // Worded as LibTorch's own refusals are, with what is wrong after the colon.
    throw Error(Stage::Load, ErrorCode::ModelFile,
                fmt::format("'{}' is not a TorchScript archive t2n can load: it {}", shown, why),
                hint);
}

uint64_t zipLe(std::span<const std::byte> b, size_t at, int n) {
    uint64_t v = 0;
    for (int k = n; k-- > 0;)
        v = v << 8 | std::to_integer<uint64_t>(b[at + static_cast<size_t>(k)]);
    return v;
}

std::vector<std::byte> zipBytes(const ReadAt& read, uint64_t offset, uint64_t n) {
    std::vector<std::byte> out(n);
    read(offset, out);
    return out;
}

constexpr uint32_t kEndOfDirectory = 0x06054b50, kZip64End = 0x06064b50, kZip64Locator = 0x07064b50,
                   kDirectoryEntry = 0x02014b50, kLocalHeader = 0x04034b50;

// ASCII case folded, as miniz compares names when it looks a record up.
std::string foldedName(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// The element size of a storage type LibTorch reads ("torch.FloatStorage");
// none for a type it does not know (its own reader refuses those).
std::optional<uint64_t> storageElementSize(const std::string& type) {
    static const std::map<std::string, uint64_t> kSizes{
        {"ByteStorage", 1},         {"CharStorage", 1},           {"ShortStorage", 2},
        {"IntStorage", 4},          {"LongStorage", 8},           {"HalfStorage", 2},
        {"FloatStorage", 4},        {"DoubleStorage", 8},         {"ComplexHalfStorage", 4},
        {"ComplexFloatStorage", 8}, {"ComplexDoubleStorage", 16}, {"BoolStorage", 1},
        {"QInt8Storage", 1},        {"QUInt8Storage", 1},         {"QInt32Storage", 4},
        {"BFloat16Storage", 2},     {"QUInt4x2Storage", 1},       {"QUInt2x4Storage", 1},
    };
    const auto dot = type.find_last_of(". ");
    const auto it = kSizes.find(dot == std::string::npos ? type : type.substr(dot + 1));
    if (it == kSizes.end())
        return std::nullopt;
    return it->second;
}

// The central directory's place and entry count, from the end records.
struct ZipDirectoryPlace {
    uint64_t offset = 0, size = 0, entries = 0;
};

ZipDirectoryPlace findZipDirectory(uint64_t fileSize, const ReadAt& read,
                                   const std::string& shown) {
    if (fileSize < 22)
        refuseZip(shown, "is too short to be a zip file");
    // The end record is the last 22 bytes, or fewer when a comment follows it.
    const uint64_t tailSize = std::min<uint64_t>(fileSize, 22 + 0xffff);
    const uint64_t tailAt = fileSize - tailSize;
    const auto tail = zipBytes(read, tailAt, tailSize);
    std::optional<size_t> end;
    for (size_t at = tail.size() - 22 + 1; at-- > 0;)
        if (zipLe(tail, at, 4) == kEndOfDirectory) {
            end = at;
            break;
        }
    if (!end)
        refuseZip(shown, "has no zip directory (no end record)");
    ZipDirectoryPlace d{zipLe(tail, *end + 16, 4), zipLe(tail, *end + 12, 4),
                        zipLe(tail, *end + 10, 2)};
    // Zip64: the locator sits just before the end record.
    const uint64_t endAt = tailAt + *end;
    if (endAt >= 20) {
        const auto locator = zipBytes(read, endAt - 20, 20);
        if (zipLe(locator, 0, 4) == kZip64Locator) {
            const uint64_t at = zipLe(locator, 8, 8);
            if (at > fileSize || fileSize - at < 56)
                refuseZip(shown, "has a zip64 end record outside the file");
            const auto z = zipBytes(read, at, 56);
            if (zipLe(z, 0, 4) != kZip64End)
                refuseZip(shown, "has a broken zip64 end record");
            d = {zipLe(z, 48, 8), zipLe(z, 40, 8), zipLe(z, 32, 8)};
        }
    }
    if (d.offset > fileSize || d.size > fileSize - d.offset)
        refuseZip(shown, fmt::format("has a zip directory of {} bytes at byte {}, outside the file "
                                     "of {} bytes",
                                     d.size, d.offset, fileSize));
    // 46 bytes and a name per record: 64 MiB is a million records with long names.
    if (d.size > (uint64_t{64} << 20))
        refuseZip(shown, fmt::format("claims a zip directory of {} bytes", d.size));
    if (d.entries > d.size / 46)
        refuseZip(shown, fmt::format("claims {} zip records in a directory of {} bytes", d.entries,
                                     d.size));
    return d;
}

} // namespace

std::vector<ZipRecord> readZipDirectory(uint64_t fileSize, const ReadAt& read,
                                        const std::string& shown) {
    const ZipDirectoryPlace place = findZipDirectory(fileSize, read, shown);
    const auto dir = zipBytes(read, place.offset, place.size);
    std::vector<ZipRecord> records;
    records.reserve(place.entries);
    std::map<std::string, std::string> seen; // folded name -> name
    size_t at = 0;
    for (uint64_t n = 0; n < place.entries; ++n) {
        if (dir.size() - at < 46 || zipLe(dir, at, 4) != kDirectoryEntry)
            refuseZip(shown, fmt::format("has a broken zip directory (record {})", n));
        ZipRecord r;
        r.method = static_cast<uint16_t>(zipLe(dir, at + 10, 2));
        r.packedSize = zipLe(dir, at + 20, 4);
        r.size = zipLe(dir, at + 24, 4);
        r.localHeader = zipLe(dir, at + 42, 4);
        const size_t nameLen = zipLe(dir, at + 28, 2), extraLen = zipLe(dir, at + 30, 2),
                     commentLen = zipLe(dir, at + 32, 2);
        if (dir.size() - at - 46 < nameLen + extraLen + commentLen)
            refuseZip(shown, fmt::format("has a broken zip directory (record {})", n));
        r.name.assign(reinterpret_cast<const char*>(dir.data() + at + 46), nameLen);
        // Zip64 sizes and offset, in this order, for the fields that say 0xffffffff.
        for (size_t e = at + 46 + nameLen; e + 4 <= at + 46 + nameLen + extraLen;) {
            const uint64_t id = zipLe(dir, e, 2), len = zipLe(dir, e + 2, 2);
            if (e + 4 + len > at + 46 + nameLen + extraLen)
                break;
            if (id == 1) {
                size_t f = e + 4;
                for (uint64_t* field : {&r.size, &r.packedSize, &r.localHeader}) {
                    if (*field != 0xffffffff)
                        continue;
                    if (f + 8 > e + 4 + len)
                        refuseZip(shown,
                                  fmt::format("has a broken zip64 field in record '{}'", r.name));
                    *field = zipLe(dir, f, 8);
                    f += 8;
                }
            }
            e += 4 + len;
        }
        at += 46 + nameLen + extraLen + commentLen;
        auto [it, fresh] = seen.emplace(foldedName(r.name), r.name);
        if (!fresh)
            refuseZip(shown,
                      fmt::format("holds two zip records named '{}' and '{}': LibTorch may read "
                                  "either",
                                  it->second, r.name));
        records.push_back(std::move(r));
    }
    return records;
}

std::vector<std::byte> readZipRecord(const ZipRecord& r, const ReadAt& read, uint64_t limit,
                                     const std::string& shown) {
    if (r.size > limit)
        refuseZip(shown, fmt::format("has a record '{}' of {} bytes; t2n reads at most {} there",
                                     r.name, r.size, limit));
    const auto local = zipBytes(read, r.localHeader, 30);
    if (zipLe(local, 0, 4) != kLocalHeader)
        refuseZip(shown, fmt::format("has no zip header where record '{}' starts", r.name));
    const uint64_t data = r.localHeader + 30 + zipLe(local, 26, 2) + zipLe(local, 28, 2);
    if (r.method == 0) {
        if (r.packedSize != r.size)
            refuseZip(shown, fmt::format("stores record '{}' in {} bytes for {}", r.name,
                                         r.packedSize, r.size));
        return zipBytes(read, data, r.size);
    }
    if (r.method != 8)
        refuseZip(shown, fmt::format("compresses record '{}' with zip method {}, which LibTorch "
                                     "cannot read",
                                     r.name, r.method));
    if (r.packedSize > limit)
        refuseZip(shown, fmt::format("has a record '{}' of {} packed bytes; t2n reads at most {}",
                                     r.name, r.packedSize, limit));
    // Deflate packs at most 1032 bytes into one: a size beyond that is a
    // claim, and the buffer is not made for it (fuzz_storage_records: a 8 KiB
    // zip made t2n reserve 1 GiB).
    if (r.size / 1032 > r.packedSize + 1)
        refuseZip(shown, fmt::format("claims {} bytes for record '{}', which deflate cannot "
                                     "pack into {}",
                                     r.size, r.name, r.packedSize));
    auto packed = zipBytes(read, data, r.packedSize);
    std::vector<std::byte> out(r.size);
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
        refuseZip(shown, "cannot be inflated (zlib)");
    z.next_in = reinterpret_cast<Bytef*>(packed.data());
    z.avail_in = static_cast<uInt>(packed.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_FINISH);
    const uint64_t got = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || got != r.size)
        refuseZip(shown, fmt::format("has a record '{}' that does not inflate to its {} bytes",
                                     r.name, r.size));
    return out;
}

namespace {

uint64_t inflateLimit(uint64_t fileSize) {
    if (const char* env = std::getenv("T2N_MAX_INFLATED_BYTES")) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(env, &end, 10);
        if (end != env && *end == '\0')
            return v;
    }
    constexpr uint64_t kFloor = uint64_t{64} << 20;
    return fileSize > (UINT64_MAX - kFloor) / 4 ? UINT64_MAX : 4 * fileSize + kFloor;
}

void checkInflatedSize(uint64_t fileSize, const std::vector<ZipRecord>& records,
                       const std::string& shown) {
    // Nothing is inflated yet: the directory's declared sizes are what
    // LibTorch will allocate. A record stored as it is cannot be larger than
    // the file; a deflated one can (2 MB of zip inflated to 2 GiB, and the
    // export peaked at 2.2 GB).
    uint64_t total = 0;
    const ZipRecord* largest = nullptr;
    for (const auto& r : records) {
        total = r.size > UINT64_MAX - total ? UINT64_MAX : total + r.size;
        if (!largest || r.size > largest->size)
            largest = &r;
    }
    const uint64_t limit = inflateLimit(fileSize);
    if (!largest || total <= limit)
        return;
    throw Error(Stage::Load, ErrorCode::ModelFile,
                fmt::format("'{}' is not a TorchScript archive t2n loads: its zip records inflate "
                            "to {} bytes (the largest, '{}', to {} bytes from {} in the file), "
                            "more than t2n's limit of {} bytes for a file of {} bytes",
                            shown, total, largest->name, largest->size, largest->packedSize, limit,
                            fileSize),
                "t2n reads at most 4 times the file's size plus 64 MiB (torch.jit.save stores "
                "records uncompressed, so a genuine archive inflates to about its own size); "
                "if you trust the file, set T2N_MAX_INFLATED_BYTES to a larger number of bytes");
}

} // namespace

std::vector<std::string> checkStorageRecords(uint64_t fileSize, const ReadAt& read,
                                             const std::string& shown) {
    const auto records = readZipDirectory(fileSize, read, shown);
    checkInflatedSize(fileSize, records, shown);
    if (records.empty())
        return {}; // LibTorch refuses an empty archive itself
    // LibTorch resolves every name under the folder of the first record.
    const std::string& first = records.front().name;
    const auto slash = first.find('/');
    if (slash == std::string::npos)
        return {}; // and refuses a first record outside any folder
    const std::string folder = first.substr(0, slash + 1);
    std::map<std::string, const ZipRecord*> byName;
    for (const auto& r : records)
        byName.emplace(foldedName(r.name), &r);
    auto find = [&](const std::string& name) -> const ZipRecord* {
        const auto it = byName.find(foldedName(folder + name));
        return it == byName.end() ? nullptr : it->second;
    };
    if (!find("data.pkl")) {
        // A legacy archive (model.json, PyTorch 1.0-1.2): load/legacy_archive.cpp
        // checks each tensor against its record. Else no TorchScript archive:
        // LibTorch says so.
        return {};
    }
    // A pickle is small next to its storages: 1 GiB is far beyond any real one.
    constexpr uint64_t kMaxPickle = uint64_t{1} << 30;
    std::vector<std::string> devices;
    for (const auto& [pickle, tensors] :
         {std::pair{"data.pkl", "data/"}, std::pair{"constants.pkl", "constants/"}}) {
        const ZipRecord* p = find(pickle);
        if (!p)
            continue;
        const auto bytes = readZipRecord(*p, read, kMaxPickle, shown);
        std::vector<StorageUse> uses;
        try {
            uses = storageUses(bytes);
        } catch (const Error& e) {
            // The machine speaks of torch.save files, whose reader it is.
            std::string why = e.message();
            if (why.starts_with("torch.save file: "))
                why.erase(0, std::string_view("torch.save file: ").size());
            refuseZip(shown, fmt::format("has a {} t2n cannot read: {}", p->name, why));
        }
        for (const auto& use : uses) {
            if (!use.location.empty() && use.location != "cpu" &&
                std::find(devices.begin(), devices.end(), use.location) == devices.end())
                devices.push_back(use.location);
            const std::string name = folder + tensors + use.key;
            const auto size = storageElementSize(use.type);
            if (!size)
                refuseZip(shown, fmt::format("names a storage of type {} (record '{}'), which "
                                             "LibTorch does not read",
                                             use.type, name));
            if (use.numel < 0)
                refuseZip(shown,
                          fmt::format("gives the storage '{}' {} elements", name, use.numel));
            if (use.numel == 0)
                continue; // LibTorch reads no record for an empty storage
            const auto numel = static_cast<uint64_t>(use.numel);
            if (numel > std::numeric_limits<uint64_t>::max() / *size)
                refuseZip(shown, fmt::format("gives the storage '{}' {} elements, more bytes than "
                                             "64 bits count",
                                             name, use.numel));
            const ZipRecord* r = find(tensors + use.key);
            if (!r)
                refuseZip(shown, fmt::format("has no record '{}' for a storage its {} names", name,
                                             p->name));
            if (r->size < numel * *size)
                refuseZip(shown, fmt::format("has a record '{}' of {} bytes for a storage of {} "
                                             "elements of {} that needs {} bytes",
                                             r->name, r->size, numel, use.type, numel * *size));
        }
    }
    return devices;
}

namespace {
// Runs `check` over the zip that starts at the stream's position, and puts
// the stream back there, also when it throws.
template <class Check> auto onStream(std::istream& in, const std::string& shown, Check check) {
    const auto start = in.tellg();
    in.seekg(0, std::ios::end);
    const auto end = in.tellg();
    if (start < 0 || end < start)
        refuseZip(shown, "cannot be read as a zip file (its size is unknown)");
    const auto fileSize = static_cast<uint64_t>(end - start);
    const ReadAt read = [&](uint64_t offset, std::span<std::byte> into) {
        if (offset > fileSize || into.size() > fileSize - offset)
            refuseZip(shown, fmt::format("is shorter than its zip directory says ({} bytes at byte "
                                         "{} of {})",
                                         into.size(), offset, fileSize));
        in.clear();
        in.seekg(start + static_cast<std::streamoff>(offset));
        in.read(reinterpret_cast<char*>(into.data()), static_cast<std::streamsize>(into.size()));
        if (static_cast<size_t>(in.gcount()) != into.size())
            refuseZip(shown, "cannot be read to its end");
    };
    struct Rewind {
        std::istream& in;
        std::streampos start;
        ~Rewind() {
            in.clear();
            in.seekg(start);
        }
    } rewind{in, start};
    return check(fileSize, read);
}
} // namespace

std::vector<std::string> checkStorageRecords(std::istream& in, const std::string& shown) {
    return onStream(in, shown, [&](uint64_t fileSize, const ReadAt& read) {
        return checkStorageRecords(fileSize, read, shown);
    });
}

uint64_t codeLines(uint64_t fileSize, const ReadAt& read, const std::string& shown) {
    constexpr uint64_t kRecordLimit = 64ull << 20;
    uint64_t lines = 0;
    for (const ZipRecord& r : readZipDirectory(fileSize, read, shown)) {
        if (r.name.find("/code/") == std::string::npos || !r.name.ends_with(".py"))
            continue;
        for (std::byte b : readZipRecord(r, read, kRecordLimit, shown))
            lines += b == std::byte{'\n'};
    }
    return lines;
}

uint64_t codeLines(std::istream& in, const std::string& shown) {
    return onStream(in, shown, [&](uint64_t fileSize, const ReadAt& read) {
        return codeLines(fileSize, read, shown);
    });
}

} // namespace t2n::reader
