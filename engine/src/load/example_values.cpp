#include "load/example_values.h"

#include "jit/torch_bridge.h"
#include "t2n/error.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <regex>

namespace t2n::load {

namespace {
Error bad(const InputSpec& s, const std::string& why) {
    return Error(Stage::Load, ErrorCode::Usage,
                 fmt::format("cannot take the example values of input '{}' from '{}': {}", s.name,
                             s.valuesFile, why),
                 "give a .npy, a .npz (NAME=@FILE.npz#MEMBER) or a .pt written by "
                 "torch.save(tensor)");
}

std::vector<char> readFile(const InputSpec& s) {
    std::ifstream in(s.valuesFile, std::ios::binary);
    if (!in)
        throw bad(s, "the file cannot be read");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

at::ScalarType npyType(const InputSpec& s, const std::string& descr) {
    static const std::map<std::string, at::ScalarType> types{
        {"f2", at::kHalf}, {"f4", at::kFloat}, {"f8", at::kDouble},
        {"i1", at::kChar}, {"i2", at::kShort}, {"i4", at::kInt},
        {"i8", at::kLong}, {"u1", at::kByte},  {"b1", at::kBool}};
    if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '|' || descr[0] == '='))
        if (auto it = types.find(descr.substr(1)); it != types.end())
            return it->second;
    throw bad(s, fmt::format("numpy dtype '{}' is not one t2n reads (little-endian f2 f4 f8 i1 "
                             "i2 i4 i8 u1 b1)",
                             descr));
}

// NumPy's format: magic, version, header length, a Python dict literal, data.
at::Tensor parseNpy(const InputSpec& s, const std::vector<char>& bytes) {
    if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
        throw bad(s, "not a .npy file (no \\x93NUMPY magic)");
    const auto major = static_cast<unsigned char>(bytes[6]);
    size_t headerLen = 0, start = 0;
    if (major == 1) {
        headerLen = static_cast<unsigned char>(bytes[8]) |
                    static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8;
        start = 10;
    } else {
        if (bytes.size() < 12)
            throw bad(s, "truncated .npy header");
        for (int i = 0; i < 4; ++i)
            headerLen |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
        start = 12;
    }
    if (start + headerLen > bytes.size())
        throw bad(s, "truncated .npy header");
    const std::string header(bytes.data() + start, headerLen);
    std::smatch m;
    if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')")))
        throw bad(s, "the .npy header has no 'descr'");
    const auto type = npyType(s, m[1]);
    if (std::regex_search(header, m, std::regex(R"('fortran_order'\s*:\s*True)")))
        throw bad(s, "the array is in Fortran order (save it with np.ascontiguousarray)");
    if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
        throw bad(s, "the .npy header has no 'shape'");
    std::vector<int64_t> shape;
    const std::string dims = m[1];
    const std::regex number(R"(\d+)");
    for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it)
        shape.push_back(std::stoll(it->str()));
    auto t = at::empty(shape, at::TensorOptions().dtype(type));
    const size_t need = static_cast<size_t>(t.numel()) * t.element_size();
    const size_t dataStart = start + headerLen;
    if (bytes.size() - dataStart < need)
        throw bad(s, fmt::format("{} data bytes for shape {} need {}", bytes.size() - dataStart,
                                 fmt::join(shape, "x"), need));
    std::memcpy(t.data_ptr(), bytes.data() + dataStart, need);
    return t;
}

// One member of a .npz (a zip of .npy files, stored or deflated).
std::vector<char> npzMember(const InputSpec& s, const std::string& member) {
    std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(),
                                                             &archive_read_free);
    archive_read_support_format_zip(a.get());
    if (archive_read_open_filename(a.get(), s.valuesFile.c_str(), 1 << 16) != ARCHIVE_OK)
        throw bad(s, archive_error_string(a.get()) ? archive_error_string(a.get())
                                                   : "not a .npz (zip) file");
    std::vector<std::string> names;
    archive_entry* e = nullptr;
    while (archive_read_next_header(a.get(), &e) == ARCHIVE_OK) {
        std::string name = archive_entry_pathname(e);
        if (name.ends_with(".npy"))
            name.resize(name.size() - 4);
        names.push_back(name);
        if (name != member)
            continue;
        std::vector<char> out;
        char buf[1 << 16];
        for (la_ssize_t n; (n = archive_read_data(a.get(), buf, sizeof buf)) > 0;)
            out.insert(out.end(), buf, buf + n);
        return out;
    }
    throw bad(s, fmt::format("no member '{}' (members: {})", member, fmt::join(names, ", ")));
}
} // namespace

at::Tensor readExampleValues(const InputSpec& s) {
    const std::string& f = s.valuesFile;
    if (f.ends_with(".npy"))
        return parseNpy(s, readFile(s));
    if (f.ends_with(".npz"))
        return parseNpy(s, npzMember(s, s.valuesMember.empty() ? s.name : s.valuesMember));
    if (f.ends_with(".pt") || f.ends_with(".pth")) {
        c10::IValue v;
        try {
            v = torch::jit::pickle_load(readFile(s));
        } catch (const c10::Error& e) {
            std::string what = e.what_without_backtrace();
            throw bad(s, "torch::pickle_load failed: " + what.substr(0, what.find('\n')));
        }
        if (!v.isTensor())
            throw bad(s, fmt::format("the file holds a {}, not a tensor", v.tagKind()));
        return v.toTensor().contiguous();
    }
    throw bad(s, "unknown file type (expected .npy, .npz or .pt)");
}

std::vector<InputSpec> withFileShapes(std::vector<InputSpec> specs) {
    for (auto& s : specs) {
        if (s.valuesFile.empty())
            continue;
        auto t = readExampleValues(s);
        auto dt = jit::fromScalarType(t.scalar_type());
        if (!dt)
            throw bad(s, "the tensor's dtype is not one t2n exports");
        s.shape = t.sizes().vec();
        s.dtype = *dt;
    }
    return specs;
}

} // namespace t2n::load
