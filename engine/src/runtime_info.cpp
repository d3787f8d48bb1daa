#include "t2n/runtime_info.h"
#include "t2n/session.h"

#include "check/tract_cli.h"

#include <ATen/Parallel.h>
#include <torch/script.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <thread>
#include <vector>

namespace t2n {

namespace {
// The file a loaded symbol comes from, links resolved; empty when unknown.
std::string libraryOf(const void* symbol) {
    Dl_info where{};
    if (!symbol || dladdr(symbol, &where) == 0 || !where.dli_fname)
        return {};
    std::error_code ec;
    auto resolved = std::filesystem::canonical(where.dli_fname, ec);
    return ec ? std::string(where.dli_fname) : resolved.string();
}

template <typename F> F lookup(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

BlasInfo detectBlas() {
    BlasInfo blas;
    // LibTorch's BLAS_INFO=generic build calls the Fortran sgemm_ of
    // whatever libblas.so.3 was loaded: the library holding it decides.
    blas.library = libraryOf(dlsym(RTLD_DEFAULT, "sgemm_"));
    std::string lower = blas.library;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    if (lower.find("openblas") != std::string::npos) {
        blas.kind = BlasInfo::Kind::OpenBlas;
        if (auto config = lookup<const char* (*)()>("openblas_get_config"))
            blas.version = config();
        if (auto threads = lookup<int (*)()>("openblas_get_num_threads"))
            blas.threads = threads();
    } else if (lower.find("blis") != std::string::npos) {
        blas.kind = BlasInfo::Kind::Blis;
    } else if (lower.find("mkl") != std::string::npos) {
        blas.kind = BlasInfo::Kind::Mkl;
    } else if (lower.find("/blas/") != std::string::npos ||
               lower.find("libblas.so") != std::string::npos) {
        // Debian's netlib build lives in .../blas/libblas.so.3.
        blas.kind = BlasInfo::Kind::Reference;
        blas.version = "netlib reference BLAS";
    }
    return blas;
}

// The CPUs this process may run on: its affinity mask (taskset, cpusets),
// as `nproc` counts them; the online CPUs when the mask cannot be read.
int usableCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// The threads chosen and why, for doctor and --version; `fixed` when a
// front end asked (useThreads), which no later reading of the machine undoes.
struct ThreadChoice {
    std::string why; // empty: LibTorch's own default, no front end asked
    bool fixed = false;
};
ThreadChoice& threadChoice() {
    static ThreadChoice choice;
    return choice;
}

// ATen's OpenMP team and OpenBLAS's own pthread pool (libopenblas0-pthread),
// which at::set_num_threads leaves at every CPU: both run on `threads`.
void applyThreads(int threads) {
    threads = std::max(1, threads);
    at::set_num_threads(threads);
    if (auto set = lookup<void (*)(int)>("openblas_set_num_threads"))
        set(threads);
}

// Runnable tasks of the machine other than this one: /proc/loadavg's fourth
// field ("3/456": 3 runnable, this reader included). The median of a few
// readings 2 ms apart (8 ms in all), so that a task awake for an instant does
// not count as a busy core, while a busy loop, a build or a second CTest
// suite does. -1 when the file cannot be read.
int otherRunnableTasks() {
    std::vector<int> seen;
    for (int i = 0; i < 5; ++i) {
        if (i > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        std::ifstream file("/proc/loadavg");
        double load[3];
        int running = 0;
        char slash = 0;
        if (file >> load[0] >> load[1] >> load[2] >> running >> slash && slash == '/')
            seen.push_back(std::max(0, running - 1));
    }
    if (seen.empty())
        return -1;
    std::nth_element(seen.begin(), seen.begin() + seen.size() / 2, seen.end());
    return seen[seen.size() / 2];
}

std::optional<int> positiveEnv(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value)
        return std::nullopt;
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    if (*end != '\0' || n < 1 || n > 4096)
        return std::nullopt;
    return static_cast<int>(n);
}

// libgomp reads its wait policy in its constructor, before t2n's main():
// t2n can only report it. With the default its idle threads spin (up to
// 300,000 times) before sleeping, taking a core from whatever else runs.
std::string waitPolicy() {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    const char* spin = std::getenv("GOMP_SPINCOUNT");
    if (policy && *policy)
        return fmt::format("{} (OMP_WAIT_POLICY={}{})",
                           std::tolower(static_cast<unsigned char>(policy[0])) == 'p' ? "passive"
                                                                                      : "active",
                           policy, spin ? fmt::format(", GOMP_SPINCOUNT={}", spin) : "");
    if (spin && *spin)
        return fmt::format("spin {} times, then sleep (GOMP_SPINCOUNT={})", spin, spin);
    return "libgomp's default: idle threads spin before they sleep (OMP_WAIT_POLICY=PASSIVE "
           "in the environment makes them sleep at once; libgomp reads it before main())";
}

std::string parallelBackend() {
    const std::string info = at::get_parallel_info();
    const std::string key = "ATen parallel backend: ";
    auto at = info.find(key);
    if (at == std::string::npos)
        return "unknown";
    auto end = info.find('\n', at);
    return info.substr(at + key.size(), end == std::string::npos ? end : end - at - key.size());
}
} // namespace

std::string BlasInfo::name() const {
    switch (kind) {
    case Kind::OpenBlas:
        return "OpenBLAS";
    case Kind::Blis:
        return "BLIS";
    case Kind::Mkl:
        return "Intel MKL";
    case Kind::Reference:
        return "netlib reference BLAS";
    case Kind::Unknown:
        break;
    }
    return "unknown BLAS";
}

namespace {
std::string withThreads(std::string text, int threads) {
    if (threads > 0)
        text += fmt::format(" ({} thread{})", threads, threads == 1 ? "" : "s");
    return text;
}
} // namespace

std::string BlasInfo::describe() const {
    std::string out = withThreads(kind == Kind::OpenBlas && !version.empty() ? version
                                  : optimised()                              ? name()
                                                                             : name() + " (slow)",
                                  threads);
    if (!library.empty())
        out += " from " + library;
    return out;
}

void followMachineThreads() {
    ThreadChoice& choice = threadChoice();
    if (choice.fixed)
        return;
    if (auto n = positiveEnv("T2N_THREADS")) {
        applyThreads(*n);
        choice.why = fmt::format("T2N_THREADS={}", *n);
        return;
    }
    for (const char* var : {"OMP_NUM_THREADS", "MKL_NUM_THREADS"})
        if (const char* value = std::getenv(var); value && *value) {
            // ATen and OpenBLAS read it when they started their pools.
            choice.why = fmt::format("{}={}", var, value);
            return;
        }
    const int cpus = usableCpus();
    const int others = otherRunnableTasks();
    const int idle = others < 0 ? cpus : std::clamp(cpus - others, 1, cpus);
    applyThreads(idle);
    if (others < 0)
        choice.why = fmt::format("the {} usable CPU{} (/proc/loadavg unreadable)", cpus,
                                 cpus == 1 ? "" : "s");
    else
        choice.why = fmt::format("{} of the {} usable CPU{} idle ({} other task{} running)", idle,
                                 cpus, cpus == 1 ? "" : "s", others, others == 1 ? "" : "s");
}

void useThreads(int threads, const std::string& who) {
    ThreadChoice& choice = threadChoice();
    choice.fixed = threads > 0;
    if (!choice.fixed) {
        followMachineThreads();
        return;
    }
    applyThreads(threads);
    choice.why = who;
}

void setIntraOpThreads(int threads) {
    applyThreads(threads);
}

std::string RuntimeInfo::summary() const {
    return fmt::format("LibTorch {}, {}{}, {} ATen thread{}", torchVersion,
                       withThreads(blas.name(), blas.threads),
                       blas.optimised() ? "" : " (slow: see `t2n doctor`)", intraOpThreads,
                       intraOpThreads == 1 ? "" : "s");
}

RuntimeInfo runtimeInfo() {
    RuntimeInfo info;
    info.t2nVersion = std::string(version());
    info.torchVersion = TORCH_VERSION;
    info.blas = detectBlas();
    info.intraOpThreads = at::get_num_threads();
    info.intraOpSource = threadChoice().why.empty() ? "LibTorch's default" : threadChoice().why;
    info.waitPolicy = waitPolicy();
    info.interOpThreads = at::get_num_interop_threads();
    info.cpus = std::thread::hardware_concurrency();
    info.parallelBackend = parallelBackend();
    try {
        auto tract = check::findTract();
        info.tract = tract.path.string();
        info.tractNote = tract.found()
                             ? "found through " + tract.source
                             : "not found on PATH nor through " + std::string(check::kTractBinEnv) +
                                   ": the check runs the reference interpreter only";
    } catch (const std::exception& e) {
        info.tractNote = e.what();
    }
    return info;
}

std::optional<std::string> runtimeAdvice(const RuntimeInfo& info) {
    switch (info.blas.kind) {
    case BlasInfo::Kind::Reference:
        return fmt::format(
            "LibTorch calls the netlib reference BLAS ({}): every model forward (trace, check, "
            "studio) runs tens of times slower than with an optimised one; install "
            "libopenblas0-pthread (packaging/install-deps.sh does), or point libblas.so.3 at "
            "an optimised BLAS with `update-alternatives --config libblas.so.3-x86_64-linux-gnu`",
            info.blas.library);
    case BlasInfo::Kind::Unknown:
        return fmt::format("could not tell which BLAS LibTorch calls ({}); if exports are slow, "
                           "check that libblas.so.3 is an optimised BLAS such as OpenBLAS",
                           info.blas.library.empty() ? "no sgemm_ symbol found"
                                                     : info.blas.library);
    default:
        return std::nullopt;
    }
}

double timeMatrixProduct(int size, int repeats) {
    at::NoGradGuard noGrad;
    auto a = at::rand({size, size});
    auto b = at::rand({size, size});
    double best = 1e30;
    for (int i = 0; i < std::max(1, repeats); ++i) {
        auto start = std::chrono::steady_clock::now();
        auto c = at::mm(a, b);
        (void)c.data_ptr<float>();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

} // namespace t2n
