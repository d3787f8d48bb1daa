// t2n doctor: what this machine lends t2n (LibTorch, its BLAS and threads,
// a tract binary) and how fast a matrix product runs, so that a slow export
// explains itself. Exit 0 when nothing needs fixing, 1 when advice was given.
#include "commands.h"
#include "report/runtime_json.h"

#include "t2n/runtime_info.h"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace t2n::cli {

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
                    nlohmann::json j = report::runtimeJson(info);
                    j["matmul_512_seconds"] = seconds;
                    j["matmul_512_gflops"] = gflops;
                    j["advice"] = advice ? *advice : "";
                    fmt::print("{}\n", j.dump(2));
                    return advice ? 1 : 0;
                }
                fmt::print("t2n          {}\n", info.t2nVersion);
                fmt::print("LibTorch     {} (parallel backend {}, {} intra-op thread(s) / {} "
                           "inter-op, {} CPU(s))\n",
                           info.torchVersion, info.parallelBackend, info.intraOpThreads,
                           info.interOpThreads, info.cpus);
                // The policy in force and why (t2n/runtime_info.h: never slower
                // than one thread).
                fmt::print("threads      {} for ATen and OpenBLAS: {}; operations under ATen's "
                           "grain size (32,768 elements) run on one\n",
                           info.intraOpThreads, info.intraOpSource);
                fmt::print("OpenMP wait  {}\n", info.waitPolicy);
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
