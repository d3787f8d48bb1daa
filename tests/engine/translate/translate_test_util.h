// The translate tests' harness: a TorchScript IR snippet (parseIR, as the
// hardening tests write them) becomes a module's forward() with the given
// parameters, is saved, and goes through the real export: harden, trace,
// translate for the target, write (defined_model_util.h's exportDefined: a
// folder artifact, graph.nnef read back), and the check, which runs the archive
// with the reference interpreter and compares every output with
// TorchScript's. The test then FileChecks graph.nnef.
//
//   auto e = exportSnippet(R"IR(
//   graph(%self : Tensor, %x : Tensor):
//     %y : Tensor = aten::relu(%x)
//     return (%y)
//   )IR", {"x:2x3:f32"});
//   EXPECT_NNEF("# CHECK: relu(", e);
//
// The first graph input stands for `self` (retyped to the module's class);
// parameters are read with prim::GetAttr[name="weight"](%self).
#pragma once

#include "support.h"

#include "t2n/session.h"

#include <torch/csrc/jit/ir/irparser.h>
#include <torch/csrc/jit/testing/file_check.h>
#include <torch/script.h>

#include <QTest>

#include <string>
#include <utility>
#include <vector>

namespace t2n::test {

struct SnippetExport {
    std::string nnef;    ///< graph.nnef as written
    ExportReport report; ///< report.check: the interpreter against TorchScript
    std::string error;   ///< the rendered t2n::Error when the export refused
    /// "" when the check passed; else what it says (for QVERIFY2).
    std::string checkFailure() const;
};

using Params = std::vector<std::pair<std::string, at::Tensor>>;

/// Exports the snippet with `inputs` ("x:2x3:f32", seeded random values) and
/// `params` as module parameters; `options` gives the target and the rest.
SnippetExport exportSnippet(const char* ir, const std::vector<std::string>& inputs,
                            const Params& params = {}, ExportOptions options = {});

/// A seeded normal tensor (parameters of the snippets).
at::Tensor seeded(std::vector<int64_t> shape, uint64_t seed = 7);

} // namespace t2n::test

/// FileCheck directives ("# CHECK: ...", "# CHECK-NOT: ...") against graph.nnef,
/// and the check passed (the interpreter matches TorchScript).
#define EXPECT_NNEF(checks, exported)                                                              \
    do {                                                                                           \
        const auto& e_ = (exported);                                                               \
        QVERIFY2(e_.error.empty(), e_.error.c_str());                                              \
        try {                                                                                      \
            torch::jit::testing::FileCheck().run(checks, e_.nnef);                                 \
        } catch (const std::exception& ex) {                                                       \
            QFAIL((std::string(ex.what()) + "\n" + e_.nnef).c_str());                              \
        }                                                                                          \
        QVERIFY2(e_.checkFailure().empty(), (e_.checkFailure() + "\n" + e_.nnef).c_str());         \
    } while (false)
