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
    int intraOpThreads = 0;    ///< at::get_num_threads()
    std::string intraOpSource; ///< who chose them and why: "--threads 1", "OMP_NUM_THREADS=1",
                               ///< "1 of the 2 usable CPUs idle (1 other task running)"
    /// How libgomp's idle threads wait: "passive (OMP_WAIT_POLICY=PASSIVE)",
    /// or libgomp's default, which spins before it sleeps.
    std::string waitPolicy;
    int interOpThreads = 0;      ///< at::get_num_interop_threads()
    unsigned cpus = 0;           ///< std::thread::hardware_concurrency()
    std::string parallelBackend; ///< "OpenMP", "native", ...
    std::string tract;           ///< the tract binary the check would run, empty when none
    std::string tractNote;       ///< where it was found, or why none was
    /// "LibTorch 1.13.0, OpenBLAS 0.3.21 (2 threads), 2 ATen threads": for --version.
    std::string summary() const;
};

/// The threading policy, which must never be slower than one thread. ATen's
/// intra-op threads (and OpenBLAS's pool, which at::set_num_threads does not
/// reach) are, first that applies:
///   1. the count a front end asked for (useThreads: `--threads N`, the
///      studio's setting);
///   2. T2N_THREADS=N in the environment;
///   3. OMP_NUM_THREADS or MKL_NUM_THREADS (ATen and OpenBLAS read them);
///   4. the usable CPUs (affinity mask, as `nproc` counts them) that no other
///      task keeps busy right now (/proc/loadavg's runnable count), at least 1.
/// Why 4 and not every CPU: an OpenMP team is as fast as its slowest thread,
/// and a thread waiting for a core another process holds stalls every
/// parallel region; with one busy core a 2-thread ResNet-18 export + check
/// took 2.5x the time of one thread. LibTorch's own default (physical cores
/// from CPUID) is not used either: a 2-vCPU VM may report 1.
/// Front ends call it first thing in main(), beside installTensorBlockCache();
/// calling it again reads the machine again (unless 1-3 decided).
void followMachineThreads();

/// Fixes the threads for the rest of the process (at least 1), `who` saying
/// why ("--threads 2"); 0 returns to followMachineThreads()'s choice.
void useThreads(int threads, const std::string& who);

/// Sets ATen's and OpenBLAS's threads without changing the policy; `t2n
/// bench` times the forward on 1 thread against the policy's count.
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
