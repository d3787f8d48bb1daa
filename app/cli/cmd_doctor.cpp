// t2n doctor: what this machine lends t2n (LibTorch, its BLAS and threads,
// a tract binary) and how fast a matrix product runs, so that a slow export
// explains itself. Exit 0 when nothing needs fixing, 1 when advice was given.
#include "commands.h"

#include "t2n/runtime_info.h"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace t2n::cli {

namespace {
const char* kindName(BlasInfo::Kind k) {
    switch (k) {
    case BlasInfo::Kind::OpenBlas:
        return "openblas";
    case BlasInfo::Kind::Blis:
        return "blis";
    case BlasInfo::Kind::Mkl:
        return "mkl";
    case BlasInfo::Kind::Reference:
        return "reference";
    case BlasInfo::Kind::Unknown:
        break;
    }
    return "unknown";
}
} // namespace

Command addDoctorCommand(CLI::App& root) {
    auto json = std::make_shared<bool>(false);
    CLI::App* app = root.add_subcommand(
        "doctor", "say which LibTorch, BLAS, threads and tract binary t2n runs with, and time a "
                  "matrix product (exit 1 when something makes exports slow)");
    app->add_flag("--json", *json, "print the same as one JSON object");
    return {app, [json] {
                RuntimeInfo info = runtimeInfo();
                const int n = 512;
                const double seconds = timeMatrixProduct(n);
                const double gflops = 2.0 * n * n * n / seconds / 1e9;
                auto advice = runtimeAdvice(info);
                if (*json) {
                    nlohmann::json j{{"t2n", info.t2nVersion},
                                     {"libtorch", info.torchVersion},
                                     {"blas",
                                      {{"kind", kindName(info.blas.kind)},
                                       {"library", info.blas.library},
                                       {"version", info.blas.version},
                                       {"threads", info.blas.threads},
                                       {"optimised", info.blas.optimised()}}},
                                     {"aten_threads", info.intraOpThreads},
                                     {"aten_threads_source", info.intraOpSource},
                                     {"interop_threads", info.interOpThreads},
                                     {"parallel_backend", info.parallelBackend},
                                     {"cpus", info.cpus},
                                     {"tensor_block_cache", tensorBlockCacheInstalled()},
                                     {"matmul_512_seconds", seconds},
                                     {"matmul_512_gflops", gflops},
                                     {"tract", info.tract},
                                     {"tract_note", info.tractNote},
                                     {"advice", advice ? *advice : ""}};
                    fmt::print("{}\n", j.dump(2));
                    return advice ? 1 : 0;
                }
                fmt::print("t2n          {}\n", info.t2nVersion);
                fmt::print("LibTorch     {} (parallel backend {}, {} intra-op thread(s) ({}) / {} "
                           "inter-op, {} CPU(s))\n",
                           info.torchVersion, info.parallelBackend, info.intraOpThreads,
                           info.intraOpSource, info.interOpThreads, info.cpus);
                fmt::print("BLAS         {}\n", info.blas.describe());
                fmt::print("tensors      {}\n",
                           tensorBlockCacheInstalled()
                               ? "large buffers reused (t2n's block cache)"
                               : "LibTorch's own allocator (T2N_TENSOR_CACHE=0)");
                fmt::print("matmul       {0}x{0}x{0} f32 in {1:.2f} ms ({2:.1f} GFLOP/s)\n", n,
                           seconds * 1e3, gflops);
                fmt::print("tract        {}{}\n", info.tract.empty() ? "" : info.tract + ", ",
                           info.tractNote);
                if (advice) {
                    fmt::print("advice       {}\n", *advice);
                    return 1;
                }
                fmt::print("verdict      nothing to fix\n");
                return 0;
            }};
}

} // namespace t2n::cli
