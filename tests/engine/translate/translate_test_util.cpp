#include "engine/translate/translate_test_util.h"

#include "engine/defined_model_util.h"

#include <QCoreApplication>
#include <fmt/format.h>

namespace t2n::test {

std::string SnippetExport::checkFailure() const {
    const CheckReport& c = report.check;
    if (!c.ran)
        return "the check did not run";
    if (c.passed)
        return {};
    std::string why;
    for (const auto& p : c.structureProblems)
        why += "structure: " + p + "\n";
    for (const auto& o : c.outputs)
        if (!o.ok)
            why += fmt::format("output {}: max abs error {:.3g}, max rel error {:.3g} {}\n", o.name,
                               o.maxAbsError, o.maxRelError, o.note);
    if (c.diverged)
        why += fmt::format("first divergence: {} = {}(...): {}\n", c.divergence.identifier,
                           c.divergence.operation, c.divergence.detail);
    return why.empty() ? "the check failed" : why;
}

at::Tensor seeded(std::vector<int64_t> shape, uint64_t seed) {
    auto gen = at::detail::createCPUGenerator(seed);
    return at::normal(0.0, 1.0, shape, gen);
}

SnippetExport exportSnippet(const char* ir, const std::vector<std::string>& inputs,
                            const Params& params, ExportOptions options) {
    // The snippet as forward() of a module holding the parameters.
    auto cu = std::make_shared<torch::jit::CompilationUnit>();
    torch::jit::Module module(c10::QualifiedName("__torch__.Snippet"), cu);
    for (const auto& [name, value] : params)
        module.register_parameter(name, value, /*is_buffer=*/false);
    auto graph = std::make_shared<torch::jit::Graph>();
    torch::jit::parseIR(ir, graph.get());
    graph->inputs().at(0)->setType(module.type());
    // A saved method returns one value: several returns become one tuple
    // (forward() returning `a, b`), which the export flattens again.
    if (graph->outputs().size() > 1) {
        std::vector<torch::jit::Value*> outs(graph->outputs().begin(), graph->outputs().end());
        torch::jit::Value* tuple = graph->insertNode(graph->createTuple(outs))->output();
        while (!graph->outputs().empty())
            graph->eraseOutput(0);
        graph->registerOutput(tuple);
    }
    auto* forward =
        cu->create_function(c10::QualifiedName(*module.type()->name(), "forward"), graph);
    module.type()->addMethod(forward);

    // One folder per process: the family suites run in parallel under CTest.
    const auto dir =
        freshDir(QStringLiteral("translate-snippet-%1").arg(QCoreApplication::applicationPid()));
    const auto model = dir / "snippet.pt";
    module.save(model.string());

    options.inputs.clear();
    for (const auto& spec : inputs)
        options.inputs.push_back(InputSpec::parse(spec));
    SnippetExport out;
    try {
        DefinedExport e = exportDefined(model, options, "snippet");
        out.report = std::move(e.report);
        out.nnef = std::move(e.graph);
    } catch (const Error& e) {
        out.error = e.render();
    }
    std::filesystem::remove_all(dir);
    return out;
}

} // namespace t2n::test
