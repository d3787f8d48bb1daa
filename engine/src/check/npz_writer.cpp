#include "check/npz_writer.h"

#include "jit/torch_bridge.h"
#include "t2n/error.h"

#include <ATen/ATen.h>
#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <unistd.h>
#include <utility>

namespace fs = std::filesystem;

namespace t2n::check {

namespace {

// NPY stores the byte order in descr; t2n writes the host's bytes as they are.
static_assert(std::endian::native == std::endian::little, "the npz writer assumes little endian");

constexpr std::size_t kNpyAlign = 64;

[[noreturn]] void internal(const std::string& what) {
    throw Error(Stage::Check, ErrorCode::Internal, what,
                "this is a bug in t2n: please report it with the model");
}

/// The tensor as it is stored: CPU, C order, f16/bf16 widened to f32.
at::Tensor stored(const at::Tensor& t) {
    at::Tensor c = t.cpu();
    if (jit::isHalfLike(c.scalar_type()))
        c = c.to(at::kFloat);
    return c.contiguous();
}

/// Python's repr of a shape tuple: (), (3,), (2, 3).
std::string shapeRepr(const std::vector<int64_t>& shape) {
    if (shape.size() == 1)
        return fmt::format("({},)", shape[0]);
    return fmt::format("({})", fmt::join(shape, ", "));
}

// A zip member's name length is 16 bits; libarchive's zip writer overflows
// a heap buffer on longer names instead of refusing them.
constexpr std::size_t kMaxMemberName = 0xffff - 4; // the name + ".npy"

void checkName(const std::string& name, std::set<std::string>& seen) {
    if (name.size() > kMaxMemberName)
        throw Error(Stage::Check, ErrorCode::InvalidOption,
                    fmt::format("the tensor name '{}...' is {} bytes long, more than an .npz "
                                "member's name can hold ({} bytes)",
                                name.substr(0, 40), name.size(), kMaxMemberName),
                    "give shorter names (--input-name, --output-name)");
    if (name.empty() || name.find('\0') != std::string::npos || name.front() == '/' ||
        name.find("..") != std::string::npos || name.find('\\') != std::string::npos)
        internal(fmt::format("'{}' cannot name an npz member", name));
    if (!seen.insert(name).second)
        internal(fmt::format("the npz member '{}' is written twice", name));
}

using Sink = std::function<void(const void*, std::size_t)>;

/// libarchive calls back into C++: exceptions stop at this boundary and are
/// rethrown once libarchive has returned.
struct SinkClient {
    const Sink* sink;
    std::exception_ptr failure;
};

la_ssize_t writeCallback(struct archive*, void* client, const void* buffer, size_t length) {
    auto* c = static_cast<SinkClient*>(client);
    try {
        (*c->sink)(buffer, length);
        return static_cast<la_ssize_t>(length);
    } catch (...) {
        c->failure = std::current_exception();
        return -1;
    }
}

struct ArchiveFree {
    void operator()(struct archive* a) const { archive_write_free(a); }
};
struct EntryFree {
    void operator()(archive_entry* e) const { archive_entry_free(e); }
};

void writeZip(const std::vector<NpzEntry>& entries, const Sink& sink) {
    std::set<std::string> seen;
    for (const auto& e : entries)
        checkName(e.name, seen);

    std::unique_ptr<struct archive, ArchiveFree> ar(archive_write_new());
    if (!ar)
        internal("libarchive could not allocate a zip writer");
    SinkClient client{&sink, nullptr};
    auto check = [&](int r, std::string_view what) {
        if (r == ARCHIVE_OK)
            return;
        if (client.failure)
            std::rethrow_exception(client.failure);
        const char* msg = archive_error_string(ar.get());
        internal(fmt::format("npz writer: {}: {}", what, msg ? msg : "libarchive error"));
    };
    check(archive_write_set_format_zip(ar.get()), "zip format");
    // numpy.savez stores members uncompressed; so does t2n.
    check(archive_write_set_format_option(ar.get(), "zip", "compression", "store"), "store");
    check(archive_write_set_bytes_in_last_block(ar.get(), 1), "no block padding");
    check(archive_write_open2(ar.get(), &client, nullptr, writeCallback, nullptr, nullptr), "open");

    for (const auto& e : entries) {
        const at::Tensor t = stored(e.tensor);
        const std::string header = npyHeader(npyDescr(e.tensor), t.sizes().vec());
        const std::size_t dataBytes = t.nbytes();
        std::unique_ptr<archive_entry, EntryFree> entry(archive_entry_new());
        archive_entry_set_pathname_utf8(entry.get(), (e.name + ".npy").c_str());
        archive_entry_set_filetype(entry.get(), AE_IFREG);
        archive_entry_set_perm(entry.get(), 0644);
        archive_entry_set_size(entry.get(), static_cast<la_int64_t>(header.size() + dataBytes));
        // No mtime: libarchive then writes the DOS date 1980-01-01 00:00 and no
        // time extra field. A set mtime goes through localtime(), which would make
        // the bytes depend on the time zone.
        archive_entry_set_uid(entry.get(), 0);
        archive_entry_set_gid(entry.get(), 0);
        check(archive_write_header(ar.get(), entry.get()), "member " + e.name);
        auto put = [&](const void* data, std::size_t n) {
            const auto* p = static_cast<const char*>(data);
            while (n > 0) {
                const la_ssize_t w = archive_write_data(ar.get(), p, n);
                if (w <= 0)
                    check(ARCHIVE_FATAL, "data of " + e.name);
                p += w;
                n -= static_cast<std::size_t>(w);
            }
        };
        put(header.data(), header.size());
        if (dataBytes > 0)
            put(t.data_ptr(), dataBytes);
        check(archive_write_finish_entry(ar.get()), "member " + e.name);
    }
    check(archive_write_close(ar.get()), "close");
}

std::string randomTag() {
    thread_local std::mt19937_64 rng{(static_cast<uint64_t>(std::random_device{}()) << 32) ^
                                     static_cast<uint64_t>(::getpid())};
    return fmt::format("{:016x}", rng());
}

[[noreturn]] void outputError(const fs::path& path, const std::string& what) {
    throw Error(Stage::Check, ErrorCode::OutputPath,
                fmt::format("cannot write '{}': {}", path.string(), what),
                "check that the directory exists, is writable and has free space");
}

} // namespace

std::string npyDescr(const at::Tensor& tensor) {
    switch (tensor.scalar_type()) {
    case at::kFloat:
    case at::kHalf:
    case at::kBFloat16:
        return "<f4";
    case at::kDouble:
        return "<f8";
    case at::kLong:
        return "<i8";
    case at::kInt:
        return "<i4";
    case at::kShort:
        return "<i2";
    case at::kChar:
        return "|i1";
    case at::kByte:
        return "|u1";
    case at::kBool:
        return "|b1";
    default:
        throw Error(Stage::Check, ErrorCode::Unsupported,
                    fmt::format("cannot write a {} tensor to an npz file",
                                c10::toString(tensor.scalar_type())),
                    "tract's npz reader takes floats, integers and bools");
    }
}

std::string npyHeader(std::string_view descr, const std::vector<int64_t>& shape) {
    const std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                         descr, shapeRepr(shape));
    // magic (6) + version (2) + u16 length (2) + dict + '\n', padded to 64.
    const std::size_t unpadded = 10 + dict.size() + 1;
    const std::size_t pad = (kNpyAlign - unpadded % kNpyAlign) % kNpyAlign;
    const std::size_t headerLength = dict.size() + pad + 1;
    if (headerLength > 0xFFFF)
        internal("the NPY header is too long for format 1.0");
    std::string out("\x93NUMPY\x01\x00", 8);
    out.push_back(static_cast<char>(headerLength & 0xFF));
    out.push_back(static_cast<char>(headerLength >> 8));
    out += dict;
    out.append(pad, ' ');
    out.push_back('\n');
    return out;
}

std::vector<std::byte> npyBytes(const at::Tensor& tensor) {
    const at::Tensor t = stored(tensor);
    const std::string header = npyHeader(npyDescr(tensor), t.sizes().vec());
    std::vector<std::byte> out(header.size() + t.nbytes());
    std::memcpy(out.data(), header.data(), header.size());
    if (t.nbytes() > 0)
        std::memcpy(out.data() + header.size(), t.data_ptr(), t.nbytes());
    return out;
}

std::vector<std::byte> npzBytes(const std::vector<NpzEntry>& entries) {
    std::vector<std::byte> out;
    writeZip(entries, [&](const void* data, std::size_t n) {
        const auto* p = static_cast<const std::byte*>(data);
        out.insert(out.end(), p, p + n);
    });
    return out;
}

void writeNpz(const fs::path& path, const std::vector<NpzEntry>& entries) {
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    const fs::path temp =
        dir / fmt::format(".{}.t2n-tmp-{}", path.filename().string(), randomTag());
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        outputError(path, std::strerror(errno));
    try {
        writeZip(entries, [&](const void* data, std::size_t n) {
            const auto* p = static_cast<const char*>(data);
            while (n > 0) {
                const ssize_t w = ::write(fd, p, n);
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0)
                    outputError(path, std::strerror(errno));
                p += w;
                n -= static_cast<std::size_t>(w);
            }
        });
        const int closed = ::close(std::exchange(fd, -1));
        if (closed != 0)
            outputError(path, std::strerror(errno));
    } catch (...) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(temp.c_str());
        throw;
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        outputError(path, std::strerror(err));
    }
}

} // namespace t2n::check
