#include "report/runtime_json.h"

namespace t2n::report {

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

nlohmann::json runtimeJson(const RuntimeInfo& info) {
    return {{"t2n", info.t2nVersion},
            {"libtorch", info.torchVersion},
            {"blas",
             {{"kind", kindName(info.blas.kind)},
              {"library", info.blas.library},
              {"version", info.blas.version},
              {"threads", info.blas.threads},
              {"optimised", info.blas.optimised()}}},
            {"aten_threads", info.intraOpThreads},
            {"aten_threads_source", info.intraOpSource},
            {"omp_wait_policy", info.waitPolicy},
            {"interop_threads", info.interOpThreads},
            {"parallel_backend", info.parallelBackend},
            {"cpus", info.cpus},
            {"tensor_block_cache", tensorBlockCacheInstalled()},
            {"tract", info.tract},
            {"tract_note", info.tractNote}};
}

} // namespace t2n::report
