#include "load/npy_reader.h"

#include "reader/libarchive_handle.h"
#include "t2n/error.h"
#include "util/memory_limits.h"
#include "util/strings.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>

namespace t2n::load {

namespace {

[[noreturn]] void badNpy(const std::string& why) {
    throw Error(Stage::Load, ErrorCode::Usage, why);
}

uint8_t byteAt(std::span<const std::byte> b, size_t i) {
    return static_cast<uint8_t>(b[i]);
}

DType npyType(std::string_view descr) {
    static constexpr std::pair<std::string_view, DType> kTypes[] = {
        {"f2", DType::F16}, {"f4", DType::F32}, {"f8", DType::F64},
        {"i1", DType::I8},  {"i2", DType::I16}, {"i4", DType::I32},
        {"i8", DType::I64}, {"u1", DType::U8},  {"b1", DType::Bool}};
    if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '|' || descr[0] == '='))
        for (const auto& [code, dtype] : kTypes)
            if (descr.substr(1) == code)
                return dtype;
    badNpy(fmt::format("numpy dtype '{}' is not one t2n reads (little-endian f2 f4 f8 i1 i2 i4 i8 "
                       "u1 b1)",
                       descr));
}

// The value of `'key': ...` in the header's dict literal, up to its end:
// the closing quote of a string, the ')' of a tuple, else ',' or '}'.
std::string_view dictValue(std::string_view header, std::string_view key) {
    const std::string quoted = fmt::format("'{}'", key);
    auto at = header.find(quoted);
    if (at == std::string_view::npos)
        badNpy(fmt::format("the .npy header has no '{}'", key));
    auto colon = header.find(':', at + quoted.size());
    if (colon == std::string_view::npos)
        badNpy(fmt::format("the .npy header's '{}' has no value", key));
    std::string_view v = util::trim(header.substr(colon + 1));
    size_t end = std::string_view::npos;
    if (v.starts_with('\''))
        end = v.find('\'', 1) == std::string_view::npos ? end : v.find('\'', 1) + 1;
    else if (v.starts_with('('))
        end = v.find(')') == std::string_view::npos ? end : v.find(')') + 1;
    else
        end = v.find_first_of(",}");
    if (end == std::string_view::npos)
        badNpy(fmt::format("the .npy header's '{}' is not terminated", key));
    return util::trim(v.substr(0, end));
}

std::vector<int64_t> parseShape(std::string_view tuple) {
    if (tuple.size() < 2 || tuple.front() != '(' || tuple.back() != ')')
        badNpy(fmt::format("the .npy shape '{}' is not a tuple", tuple));
    std::vector<int64_t> shape;
    std::string_view inner = tuple.substr(1, tuple.size() - 2);
    auto parts = util::split(inner, ',');
    for (size_t i = 0; i < parts.size(); ++i) {
        std::string_view p = util::trim(parts[i]);
        if (p.empty() && i + 1 == parts.size() && i > 0)
            break; // the trailing comma of "(3,)"
        if (p.empty() && parts.size() == 1)
            break; // "()": a 0-d array
        auto v = util::parseInt<int64_t>(p);
        if (!v || *v < 0)
            badNpy(fmt::format("the .npy shape '{}' holds '{}', not a non-negative integer", tuple,
                               p));
        shape.push_back(*v);
    }
    return shape;
}

[[noreturn]] void tooShort(const NpyHeader& h, uint64_t have) {
    badNpy(fmt::format("{} data bytes for shape [{}] ({}) need {}", have, fmt::join(h.shape, ", "),
                       dtypeName(h.dtype), h.dataBytes));
}

TensorData fromBytes(const NpyHeader& h, std::span<const std::byte> data) {
    if (data.size() < h.dataBytes)
        tooShort(h, data.size());
    return TensorData::copyOf(h.dtype, h.shape, data.first(h.dataBytes));
}

TensorData npzMember(struct archive* a, const std::string& wanted) {
    std::string member = wanted;
    if (member.ends_with(".npy"))
        member.resize(member.size() - 4);
    std::vector<std::string> names;
    while (true) {
        struct archive_entry* e = nullptr;
        const int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r < ARCHIVE_WARN) {
            const char* why = archive_error_string(a);
            badNpy(
                fmt::format("not a readable .npz (zip) file{}: {}",
                            names.empty() ? "" : fmt::format(" after {} member(s)", names.size()),
                            why ? why : "unknown libarchive error"));
        }
        const char* raw = archive_entry_pathname(e);
        std::string name = raw ? raw : "";
        if (name.ends_with(".npy"))
            name.resize(name.size() - 4);
        names.push_back(name);
        if (name != member)
            continue;
        // The header first (NumPy writes a few dozen bytes; 1 MiB at most
        // here), then only the bytes it declares: a member that inflates
        // beyond them is never read further.
        constexpr size_t kMaxHeader = size_t{1} << 20;
        std::vector<std::byte> bytes;
        std::byte buf[1 << 16];
        std::optional<NpyHeader> header;
        while (true) {
            const uint64_t want = header ? header->dataOffset + header->dataBytes : kMaxHeader;
            if (bytes.size() >= want)
                break;
            const la_ssize_t n =
                archive_read_data(a, buf, std::min<uint64_t>(sizeof buf, want - bytes.size()));
            if (n < 0) {
                const char* why = archive_error_string(a);
                badNpy(fmt::format("member '{}' cannot be read: {}", name, why ? why : "?"));
            }
            if (n == 0)
                break;
            bytes.insert(bytes.end(), buf, buf + n);
            if (!header) {
                try {
                    header = parseNpyHeader(bytes);
                } catch (const Error&) {
                    // Maybe only a part of the header so far: readNpy() below
                    // says what is wrong once there is no more to read.
                }
            }
        }
        return readNpy(bytes);
    }
    if (names.empty())
        badNpy("the .npz (zip) file holds no members");
    badNpy(fmt::format("no member '{}' (members: {})", member, fmt::join(names, ", ")));
}

} // namespace

NpyHeader parseNpyHeader(std::span<const std::byte> bytes) {
    if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
        badNpy("not a .npy file (no \\x93NUMPY magic)");
    const unsigned major = byteAt(bytes, 6);
    uint64_t headerLen = 0, start = 0;
    if (major == 1) {
        headerLen = byteAt(bytes, 8) | uint64_t{byteAt(bytes, 9)} << 8;
        start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            badNpy("truncated .npy header");
        for (int i = 0; i < 4; ++i)
            headerLen |= uint64_t{byteAt(bytes, 8 + i)} << (8 * i);
        start = 12;
    } else {
        badNpy(fmt::format(".npy format version {} is not one t2n reads (1, 2 or 3)", major));
    }
    if (headerLen > bytes.size() - start)
        badNpy("truncated .npy header");
    const std::string_view header(reinterpret_cast<const char*>(bytes.data() + start), headerLen);
    // NumPy ends the header with '\n' (format.py): a header without it was cut.
    if (header.empty() || header.back() != '\n')
        badNpy("the .npy header does not end with a newline: the file is cut short or not written "
               "by NumPy");
    NpyHeader h;
    std::string_view descr = dictValue(header, "descr");
    if (descr.size() < 2 || descr.front() != '\'' || descr.back() != '\'')
        badNpy(fmt::format("the .npy descr {} is not a string (structured arrays are not read)",
                           descr));
    h.dtype = npyType(descr.substr(1, descr.size() - 2));
    const std::string_view fortran = dictValue(header, "fortran_order");
    if (fortran == "True")
        badNpy("the array is in Fortran order (save it with np.ascontiguousarray)");
    if (fortran != "False")
        badNpy(fmt::format("the .npy fortran_order is '{}', not True or False", fortran));
    h.shape = parseShape(dictValue(header, "shape"));
    h.dataOffset = start + headerLen;
    h.dataBytes = util::checkedTensorBytes(h.shape, h.dtype, Stage::Load, "the .npy array");
    return h;
}

TensorData readNpy(std::span<const std::byte> bytes) {
    const NpyHeader h = parseNpyHeader(bytes);
    return fromBytes(h, bytes.subspan(h.dataOffset));
}

TensorData readNpyFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        badNpy("the file cannot be read");
    // NumPy pads the header to a multiple of 64 bytes; 64 KiB holds any of them.
    std::vector<std::byte> head(1 << 16);
    in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    const NpyHeader h = parseNpyHeader(head);
    // The file must hold the data before anything is allocated for it.
    std::error_code ec;
    const uint64_t fileBytes = std::filesystem::file_size(file, ec);
    if (!ec && fileBytes - std::min(fileBytes, h.dataOffset) < h.dataBytes)
        tooShort(h, fileBytes - std::min(fileBytes, h.dataOffset));
    std::vector<std::byte> data(h.dataBytes);
    const uint64_t inHead = std::min<uint64_t>(head.size() - h.dataOffset, h.dataBytes);
    if (inHead > 0) // a zero-size array has no buffer to copy into
        std::memcpy(data.data(), head.data() + h.dataOffset, inHead);
    in.read(reinterpret_cast<char*>(data.data() + inHead),
            static_cast<std::streamsize>(h.dataBytes - inHead));
    const uint64_t got = inHead + static_cast<uint64_t>(std::max<std::streamsize>(in.gcount(), 0));
    return fromBytes(h, std::span(data).first(got));
}

TensorData readNpzMember(const std::filesystem::path& file, const std::string& member) {
    reader::ArchiveReadHandle a = reader::newArchiveReader();
    archive_read_support_format_zip(a.get());
    if (archive_read_open_filename(a.get(), file.c_str(), 1 << 16) != ARCHIVE_OK) {
        const char* why = archive_error_string(a.get());
        badNpy(fmt::format("not a readable .npz (zip) file: {}", why ? why : "cannot be opened"));
    }
    return npzMember(a.get(), member);
}

TensorData readNpzMember(std::span<const std::byte> bytes, const std::string& member) {
    reader::ArchiveReadHandle a = reader::newArchiveReader();
    archive_read_support_format_zip(a.get());
    if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
        const char* why = archive_error_string(a.get());
        badNpy(fmt::format("not a readable .npz (zip) file: {}", why ? why : "cannot be opened"));
    }
    return npzMember(a.get(), member);
}

} // namespace t2n::load
