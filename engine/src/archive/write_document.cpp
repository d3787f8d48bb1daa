#include "archive/write_document.h"

#include "archive/archive_writer.h"
#include "nnef/dat_writer.h"
#include "t2n/error.h"

namespace t2n::archive {

uint64_t writeDocument(const nnef::Document& doc, const std::string& graphText,
                       const Artifact& artifact, const WriteProgress& hooks) {
    uint64_t total = graphText.size(), done = 0;
    for (const auto& v : doc.variables)
        total += nnef::datFileSize(v.data);
    ArchiveWriter writer(artifact);
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
    for (const auto& v : doc.variables) {
        const std::string path = v.label + ".dat";
        const uint64_t size = nnef::datFileSize(v.data);
        writer.addFile(path, size,
                       [&](const ArchiveWriter::Sink& sink) { nnef::writeDat(v.data, sink); });
        step(size, path);
    }
    return writer.commit();
}

} // namespace t2n::archive
