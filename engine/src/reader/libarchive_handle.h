// The owner of a libarchive read handle, for every reader that opens a tar,
// gzipped tar or zip (NNEF archives, .npz inputs, torch.save files).
#pragma once

#include <archive.h>

#include <memory>

namespace t2n::reader {

struct ArchiveReadFree {
    void operator()(struct archive* a) const { archive_read_free(a); }
};
/// Null when libarchive is out of memory.
using ArchiveReadHandle = std::unique_ptr<struct archive, ArchiveReadFree>;

inline ArchiveReadHandle newArchiveReader() {
    return ArchiveReadHandle(archive_read_new());
}

} // namespace t2n::reader
