#include "archive/write_document.h"

#include "archive/archive_writer.h"
#include "nnef/dat_writer.h"
#include "nnef/q4_0.h"
#include "t2n/error.h"

namespace t2n::archive {

namespace {
uint64_t fileSize(const nnef::Variable& v) {
    return v.q4_0 ? nnef::q4_0DatFileSize(v.data) : nnef::datFileSize(v.data);
}
} // namespace

uint64_t writeDocument(const nnef::Document& doc, const std::string& graphText,
                       const Artifact& artifact, const WriteProgress& hooks, PendingOutputs* into) {
    const std::string quantText = nnef::printQuant(doc);
    uint64_t total = graphText.size() + quantText.size(), done = 0;
    for (const auto& v : doc.variables)
        total += fileSize(v);
    ArchiveWriter writer(artifact);
    // Called per block of every file: progress, and a cancel honoured within a
    // large variable (the writer then drops its temporary file).
    auto step = [&](uint64_t bytes, const std::string& file) {
        done += bytes;
        if (hooks.progress)
            hooks.progress(total ? static_cast<double>(done) / static_cast<double>(total) : 1.0,
                           file);
        if (hooks.cancelled && hooks.cancelled())
            throw Error(Stage::Write, ErrorCode::Cancelled, "export cancelled",
                        "nothing was written");
    };
    writer.addFile("graph.nnef", std::as_bytes(std::span(graphText.data(), graphText.size())));
    step(graphText.size(), "graph.nnef");
    if (!quantText.empty()) {
        writer.addFile("graph.quant", std::as_bytes(std::span(quantText.data(), quantText.size())));
        step(quantText.size(), "graph.quant");
    }
    for (size_t index = 0; index < doc.variables.size(); ++index) {
        const auto& v = doc.variables[index];
        const std::string path = v.label + ".dat";
        const uint64_t size = fileSize(v);
        writer.addFile(path, size, [&](const ArchiveWriter::Sink& sink) {
            auto counted = [&](std::span<const std::byte> block) {
                sink(block);
                step(block.size(), path);
            };
            if (v.q4_0)
                nnef::writeQ4_0Dat(v.data, counted);
            else
                nnef::writeDat(v.data, counted, v.quantized);
        });
        // Right after its bytes went out, while a small tensor is still in cache.
        if (hooks.variableWritten)
            hooks.variableWritten(index, tensorStats(v.data));
    }
    return into ? writer.finish(*into) : writer.commit();
}

} // namespace t2n::archive
