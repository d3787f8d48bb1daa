// writeTensorFiles: one .dat per tensor, under the write protocol of
// t2n/outputs.h, so that a failure half-way leaves the folder as it was.
#include "archive/sibling_path.h"
#include "nnef/dat_writer.h"
#include "t2n/error.h"
#include "t2n/outputs.h"
#include "t2n/tensor_store.h"

#include <fmt/format.h>

#include <regex.h>
#include <set>

namespace fs = std::filesystem;

namespace t2n {

namespace {

// The name becomes a file name as it is (tract finds NAME.dat by a
// variable's label): it must not climb out of the folder or hide.
void checkFileName(const std::string& name) {
    const bool bad = name.empty() || name == "." || name == ".." || name.front() == '.' ||
                     name.find('/') != std::string::npos || name.find('\\') != std::string::npos ||
                     name.find('\0') != std::string::npos;
    if (bad)
        throw Error(
            Stage::Write, ErrorCode::OutputPath,
            fmt::format("tensor name '{}' cannot be a file name in the output folder", name),
            "leave it out with --filter");
}

// What selectTensors chose, checked for being written as NAME.dat files.
std::vector<const NamedTensor*> selectedForFiles(const TensorStore& store,
                                                 const std::string& filter) {
    std::vector<const NamedTensor*> out = selectTensors(store, filter);
    std::set<std::string> seen;
    for (const NamedTensor* t : out) {
        checkFileName(t->name);
        if (!seen.insert(t->name).second)
            throw Error(Stage::Write, ErrorCode::OutputPath,
                        fmt::format("two tensors are named '{}'", t->name),
                        "leave one out with --filter");
    }
    if (out.empty() && !store.tensors.empty())
        throw Error(Stage::Write, ErrorCode::Usage,
                    fmt::format("--filter '{}' selects none of the {} tensors (the first is "
                                "'{}')",
                                filter, store.tensors.size(), store.tensors.front().name));
    return out;
}

void stage(PendingOutputs& pending, const NamedTensor& t, const fs::path& file) {
    pending.addFile(
        file, [&](const PendingOutputs::ChunkSink& sink) { nnef::writeDat(t.data, sink); },
        Stage::Write, "tensor file");
}

} // namespace

std::vector<const NamedTensor*> selectTensors(const TensorStore& store, const std::string& filter) {
    // POSIX extended syntax (glibc's matcher), not std::regex: std::regex
    // backtracks, and '(a+)+$' took over a minute on a 41-character name.
    // Without back-references glibc's time stays polynomial in the name.
    auto refuse = [&](const std::string& why) {
        return Error(
            Stage::Load, ErrorCode::Usage,
            fmt::format("--filter '{}' is not a regular expression t2n takes: {}", filter, why),
            "write a POSIX extended regular expression (as grep -E reads it) without "
            "back-references");
    };
    struct Compiled {
        regex_t re{};
        bool ready = false;
        ~Compiled() {
            if (ready)
                regfree(&re);
        }
    } compiled;
    if (!filter.empty()) {
        for (size_t i = 0; i + 1 < filter.size(); ++i)
            if (filter[i] == '\\' && filter[++i] >= '1' && filter[i] <= '9')
                throw refuse("it has a back-reference");
        if (const int err = regcomp(&compiled.re, filter.c_str(), REG_EXTENDED | REG_NOSUB)) {
            char why[256];
            regerror(err, &compiled.re, why, sizeof why);
            throw refuse(why);
        }
        compiled.ready = true;
    }
    std::vector<const NamedTensor*> out;
    for (const auto& t : store.tensors)
        if (!compiled.ready || regexec(&compiled.re, t.name.c_str(), 0, nullptr, 0) == 0)
            out.push_back(&t);
    return out;
}

std::vector<WrittenTensorFile> writeTensorFiles(const TensorStore& store, const fs::path& dir,
                                                const TensorFileOptions& options) {
    const std::vector<const NamedTensor*> chosen = selectedForFiles(store, options.filter);
    std::error_code ec;
    const bool existing = fs::is_directory(dir, ec);
    PendingOutputs pending;
    std::vector<WrittenTensorFile> written;
    fs::path folder = dir;
    PendingOutputs inside;
    if (!existing) {
        // A file where the folder goes is the user's, never replaced by one.
        if (fs::exists(fs::symlink_status(dir, ec)))
            throw Error(Stage::Write, ErrorCode::OutputPath,
                        fmt::format("cannot write the tensor folder '{}': a file of that name "
                                    "exists and is not a folder",
                                    dir.string()),
                        "remove it, or choose another folder");
        // A new folder is built whole under a temporary name, then renamed.
        checkDestination(dir, Stage::Write, "tensor folder", options.protect, /*folder=*/true);
        folder = archive::siblingPath(dir, "tmp");
        if (!fs::create_directory(folder, ec))
            throw Error(Stage::Write, ErrorCode::OutputPath,
                        fmt::format("cannot create '{}': {}", folder.string(), ec.message()));
        pending.adopt(folder, dir, /*folder=*/true, Stage::Write);
    }
    for (const NamedTensor* t : chosen) {
        const fs::path file = folder / (t->name + ".dat");
        if (existing)
            checkDestination(file, Stage::Write, "tensor file", options.protect);
        stage(existing ? pending : inside, *t, file);
        written.push_back({t->name, dir / (t->name + ".dat"), t->data.dtype(), t->data.shape(),
                           nnef::datFileSize(t->data), t->note});
    }
    inside.publish(); // inside the temporary folder: nothing is visible yet
    pending.publish();
    return written;
}

} // namespace t2n
