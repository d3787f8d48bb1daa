// What the machine lends the engine: the LibTorch build, the BLAS it calls
// and the threads it runs with. Debian's LibTorch calls whatever
// libblas.so.3 the alternatives system names; with the netlib reference BLAS
// every forward (trace, check, studio) is tens of times slower, so a slow
// machine must be able to explain itself (`t2n doctor`, `t2n --version`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace t2n {

struct BlasInfo {
    enum class Kind { OpenBlas, Blis, Mkl, Reference, Unknown };
    Kind kind = Kind::Unknown;
    std::string library; ///< the file that provides sgemm_, links resolved
    std::string version; ///< "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64"
    int threads = -1;    ///< the BLAS's own thread count, when it tells
    /// Optimised libraries; the reference BLAS and an unknown one are not.
    bool optimised() const {
        return kind == Kind::OpenBlas || kind == Kind::Blis || kind == Kind::Mkl;
    }
    /// "OpenBLAS", "netlib reference BLAS", ...
    std::string name() const;
    /// One line: "OpenBLAS 0.3.21 (2 threads) from /usr/lib/.../libblas.so.3".
    std::string describe() const;
};

struct RuntimeInfo {
    std::string t2nVersion;
    std::string torchVersion; ///< LibTorch's own version, "1.13.0"
    BlasInfo blas;
    int intraOpThreads = 0;      ///< at::get_num_threads()
    std::string intraOpSource;   ///< who chose them: "the 2 usable CPUs", "OMP_NUM_THREADS=1"
    int interOpThreads = 0;      ///< at::get_num_interop_threads()
    unsigned cpus = 0;           ///< std::thread::hardware_concurrency()
    std::string parallelBackend; ///< "OpenMP", "native", ...
    std::string tract;           ///< the tract binary the check would run, empty when none
    std::string tractNote;       ///< where it was found, or why none was
    /// "LibTorch 1.13.0, OpenBLAS 0.3.21 (2 threads), 2 ATen threads": for --version.
    std::string summary() const;
};

/// ATen's intra-op threads follow the CPUs this process may run on (its
/// affinity mask, as `nproc` counts), unless OMP_NUM_THREADS or
/// MKL_NUM_THREADS (which ATen reads itself) says otherwise. LibTorch's own
/// default is the number of physical cores that cpuinfo reads from CPUID, and
/// on virtual machines CPUID may claim two threads per core that the kernel
/// does not see: Debian's LibTorch then ran on 1 thread of 2 on a 2-vCPU AMD
/// EPYC bookworm machine. Front ends call it first thing in main(), beside
/// installTensorBlockCache(); calling it again changes nothing.
void followMachineThreads();

/// Sets ATen's intra-op threads for the rest of the process (at least 1);
/// `t2n bench` times the forward with 1 thread against the default.
void setIntraOpThreads(int threads);

/// Reads the running process; no model needed, no work done. Cheap enough
/// for `--version` (a few symbol lookups).
RuntimeInfo runtimeInfo();

/// The advice a slow configuration deserves, or nothing when it is fine:
/// "LibTorch calls the netlib reference BLAS ... install libopenblas0-pthread".
std::optional<std::string> runtimeAdvice(const RuntimeInfo& info);

/// Replaces LibTorch's CPU allocator, once per process, by one that keeps
/// freed tensor buffers of 256 KiB and more for the next request of about
/// the same size (jit/tensor_block_cache.h says why: page faults on every
/// large intermediate value). Front ends call it first thing in main();
/// T2N_TENSOR_CACHE=0 in the environment leaves LibTorch's own allocator.
void installTensorBlockCache();
bool tensorBlockCacheInstalled();

struct TensorBlockCacheStats {
    bool installed = false;
    uint64_t hits = 0, misses = 0; ///< requests of 256 KiB and more
    uint64_t evictedBlocks = 0;    ///< cached blocks freed to make room
    uint64_t cachedBytes = 0;      ///< held for reuse now
    uint64_t budgetBytes = 0;      ///< the most it may hold: 128 MiB or 4 largest blocks
};
TensorBlockCacheStats tensorBlockCacheStats();

/// Seconds per single-precision 512x512x512 matrix product through LibTorch
/// (best of a few): the figure that tells an optimised BLAS from the
/// reference one (about 0.005 s against 0.1 s on a 2-core machine).
double timeMatrixProduct(int size = 512, int repeats = 5);

} // namespace t2n
