// libFuzzer target: arbitrary bytes as an NNEF artifact file (tar or gzipped
// tar: the reader sniffs gzip by its magic, like tract) through
// archive::readArchive and the whole model reader. A t2n::Error is the
// expected outcome for garbage; the limits bound what a bomb can make it read.
#include "reader/archive_reader.h"
#include "reader/model_reader.h"
#include "t2n/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {
// The readers take a path: one file per process, rewritten per input
// (in /dev/shm when there is one, so that it never touches a disk).
const std::string& scratch() {
    static const std::string path = [] {
        const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        return std::string(dir) + "/t2n-fuzz-archive-" + std::to_string(getpid()) + ".tgz";
    }();
    return path;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    {
        std::ofstream out(scratch(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    // Small limits: a few KiB of input must not make the reader hold much more.
    t2n::archive::ReadLimits limits;
    limits.maxEntryBytes = 1 << 20;
    limits.maxTotalBytes = 4 << 20;
    try {
        (void)t2n::archive::readArchive(scratch(), limits);
    } catch (const t2n::Error&) {
    }
    t2n::nnef::ReadOptions options;
    options.maxEntryBytes = limits.maxEntryBytes;
    options.maxTotalBytes = limits.maxTotalBytes;
    try {
        (void)t2n::nnef::readModel(scratch(), options);
    } catch (const t2n::Error&) {
    }
    return 0;
}
