// t2n tensors FILE -o DIR: every tensor of a weights file as an NNEF .dat
// file (torch_to_nnef's export_tensors_from_disk_to_nnef), e.g. new weights
// for an archive already exported. --list shows them without writing.
#include "commands.h"
#include "report/display_text.h"

#include "t2n/error.h"
#include "t2n/tensor_store.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

namespace t2n::cli {

namespace {
struct TensorsArgs {
    std::string store;
    std::string output;
    std::string filter;
    bool list = false;
};

std::string shapeText(const std::vector<int64_t>& shape) {
    return shape.empty() ? "[]" : fmt::format("[{}]", fmt::join(shape, ", "));
}

void printListing(const TensorStore& store, const std::string& filter) {
    const std::vector<const NamedTensor*> shown = selectTensors(store, filter);
    for (const NamedTensor* t : shown)
        fmt::print("{:<48} {:<5} {:<20} {}\n", report::displayText(t->name, false),
                   dtypeName(t->data.dtype()), shapeText(t->data.shape()), t->note);
    fmt::print("{} of {} tensor(s) in the {} file", shown.size(), store.tensors.size(),
               store.format);
    if (!store.skipped.empty())
        fmt::print("; {} entr{} that are not tensors: {}", store.skipped.size(),
                   store.skipped.size() == 1 ? "y" : "ies",
                   report::displayText(fmt::format("{}", fmt::join(store.skipped, ", ")), false));
    fmt::print("\n");
}
} // namespace

Command addTensorsCommand(CLI::App& root) {
    auto args = std::make_shared<TensorsArgs>();
    CLI::App* app = root.add_subcommand(
        "tensors", "write every tensor of a .safetensors, torch.save (.pt, .pth, .bin) or "
                   "TorchScript file as an NNEF .dat file");
    app->add_option("file", args->store, "the weights file")->required();
    app->add_option("-o,--output", args->output,
                    "folder to write NAME.dat into (created when missing; existing files of "
                    "other names are kept)");
    app->add_option("--filter", args->filter,
                    "write only tensors whose name matches this regular expression (searched, "
                    "POSIX extended syntax as in grep -E, no back-references)");
    app->add_flag("--list", args->list, "list the tensors (name, dtype, shape) without writing");
    app->footer("bf16 tensors are widened to f32 (exactly): NNEF .dat files have no bf16.\n"
                "All files are written, or none: a failure leaves the folder as it was.");
    return {app, [args] {
                const TensorStore store = readTensorStore(args->store);
                if (args->list || args->output.empty()) {
                    if (!args->list)
                        throw Error(Stage::Load, ErrorCode::Usage, "no output folder given",
                                    "add -o DIR, or --list to only list the tensors");
                    printListing(store, args->filter);
                    return 0;
                }
                TensorFileOptions options;
                options.filter = args->filter;
                options.protect = {args->store};
                const auto written = writeTensorFiles(store, args->output, options);
                uint64_t bytes = 0;
                for (const auto& w : written) {
                    bytes += w.bytes;
                    fmt::print("{:<48} {:<5} {:<20} {}\n", w.file.filename().string(),
                               dtypeName(w.dtype), shapeText(w.shape), w.note);
                }
                fmt::print("wrote {} .dat file(s), {:.1f} MiB, into {} (from the {} file{})\n",
                           written.size(), static_cast<double>(bytes) / (1 << 20),
                           report::displayText(args->output, false), store.format,
                           store.skipped.empty() ? std::string()
                                                 : fmt::format("; not tensors, not written: {}",
                                                               fmt::join(store.skipped, ", ")));
                return 0;
            }};
}

} // namespace t2n::cli
