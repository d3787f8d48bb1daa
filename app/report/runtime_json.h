// What `t2n doctor --json` says about the machine, as one JSON object: the
// doctor prints it, and the HTML report carries it as its "versions".
#pragma once

#include "t2n/runtime_info.h"

#include <nlohmann/json.hpp>

namespace t2n::report {

/// t2n, LibTorch, the BLAS, threads, CPUs, the tensor block cache and the
/// tract binary (no timing: the doctor adds its matrix product).
nlohmann::json runtimeJson(const RuntimeInfo& info);

} // namespace t2n::report
