// t2n._engine: the Python module's door to the engine. Thin on purpose: the
// Python package (t2n/__init__.py) turns torch_to_nnef's arguments into a
// recipe (the engine's own JSON form of ExportOptions, t2n/recipe.h) and the
// model into TorchScript bytes; this file runs one Session with the GIL
// released, polls Python's signal handlers for Ctrl+C, forwards the
// engine's log lines to a Python callable and turns a t2n::Error into
// EngineError(code, stage, message, hint, text, nodes) for the package to
// raise as the class of its exit category.
#include "proposed_inputs.h"

#include "t2n/error.h"
#include "t2n/input_proposal.h"
#include "t2n/large_stack.h"
#include "t2n/options.h"
#include "t2n/recipe.h"
#include "t2n/session.h"
#include "t2n/version.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <istream>
#include <mutex>
#include <new>
#include <optional>
#include <streambuf>
#include <thread>

namespace py = pybind11;

namespace {

// Reads a buffer the caller keeps alive, without copying it (a ResNet-18's
// TorchScript is 45 MB); seekable, as torch::jit::load's zip reader needs.
class MemoryBuffer : public std::streambuf {
public:
    MemoryBuffer(const char* data, size_t size) {
        char* p = const_cast<char*>(data); // never written: no overflow() or xsputn()
        setg(p, p, p + size);
    }

protected:
    pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
        const off_type base = dir == std::ios_base::beg   ? 0
                              : dir == std::ios_base::cur ? gptr() - eback()
                                                          : egptr() - eback();
        return seekpos(pos_type(base + off), std::ios_base::in);
    }
    pos_type seekpos(pos_type pos, std::ios_base::openmode) override {
        if (pos < 0 || pos > egptr() - eback())
            return pos_type(off_type(-1));
        setg(eback(), eback() + static_cast<off_type>(pos), egptr());
        return pos;
    }
};

// The engine's observer inside a Python process. Called with the GIL
// released; takes it only to log and, at most every 50 ms, to run Python's
// signal handlers (Ctrl+C raises KeyboardInterrupt there, which becomes the
// engine's cancel). Only the thread that started the export runs them:
// Python runs signal handlers in the main thread only.
class PythonObserver : public t2n::Observer {
public:
    PythonObserver(py::object log, t2n::LogLevel level)
        : log_(std::move(log)), level_(level), owner_(std::this_thread::get_id()) {}

    void log(t2n::LogLevel level, const std::string& message) override {
        if (level < level_ || log_.is_none())
            return;
        py::gil_scoped_acquire gil;
        try {
            log_(static_cast<int>(level), message);
        } catch (py::error_already_set& e) {
            // Ctrl+C while the callback ran Python code raised there: it is
            // the user's cancel, not the callback's failure.
            if (e.matches(PyExc_KeyboardInterrupt))
                interrupted_ = true;
            else
                e.discard_as_unraisable("t2n log callback");
        }
    }

    bool cancelRequested() override {
        if (interrupted_)
            return true;
        if (std::this_thread::get_id() != owner_)
            return false;
        pollSignals();
        return interrupted_;
    }

    // Python's signal handlers, at most every 50 ms, on the thread that
    // started the export (it waits there while the engine works on a thread
    // with a large stack).
    void pollSignals() {
        if (interrupted_ || std::this_thread::get_id() != owner_)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (now - lastPoll_ < std::chrono::milliseconds(50))
            return;
        lastPoll_ = now;
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
            // The handler raised (KeyboardInterrupt for Ctrl+C): the export
            // stops cleanly and the package raises t2n.ExportCancelled.
            PyErr_Clear();
            interrupted_ = true;
        }
    }

    bool interrupted() const { return interrupted_; }

private:
    py::object log_;
    t2n::LogLevel level_;
    std::thread::id owner_;
    std::chrono::steady_clock::time_point lastPoll_{};
    std::atomic<bool> interrupted_{false};
};

// Raised as t2n._errors.EngineError, which the package re-raises as the
// class of the error's exit category.
[[noreturn]] void raise(const t2n::Error& e) {
    py::list nodes;
    for (const auto& d : e.details()) {
        py::dict node;
        node["message"] = d.message;
        if (d.hasNode) {
            node["kind"] = d.node.kind;
            node["module_path"] = d.node.modulePath;
            node["source_file"] = d.node.sourceFile;
            node["source_line"] = d.node.sourceLine;
            node["source_text"] = d.node.sourceText;
        }
        nodes.append(node);
    }
    const py::object type = py::module_::import("t2n._errors").attr("EngineError");
    const py::object error =
        type(static_cast<int>(e.code()), std::string(t2n::stageName(e.stage())), e.message(),
             e.hint(), e.render(), nodes);
    PyErr_SetObject(type.ptr(), error.ptr());
    throw py::error_already_set();
}

// The model as the package hands it over: TorchScript bytes (the buffer of a
// torch.jit.save to memory), or None to read `path`; `name` is what the
// archive calls a module from memory.
struct ModelSource {
    std::optional<py::buffer_info> bytes;
    std::filesystem::path path;
    std::string name;

    ModelSource(const py::object& model, std::filesystem::path file, std::string modelName)
        : path(std::move(file)), name(std::move(modelName)) {
        if (!model.is_none())
            bytes = py::buffer(model).request();
    }
    void loadInto(t2n::Session& session) const {
        if (!bytes) {
            session.load(path);
            return;
        }
        MemoryBuffer buffer(static_cast<const char*>(bytes->ptr),
                            static_cast<size_t>(bytes->size * bytes->itemsize));
        std::istream in(&buffer);
        session.load(in, name);
    }
};

// Runs `work` on a session holding the model, with the GIL released; a
// t2n::Error (or anything else, as an internal error) is raised to Python
// once the GIL is back.
template <class Work>
void withSession(const ModelSource& model, PythonObserver& observer, Work work) {
    std::optional<t2n::Error> failed;
    {
        py::gil_scoped_release release;
        // On a thread with a large stack (t2n/large_stack.h): 8,000 chained
        // operations need more than the caller's thread may have; this
        // thread waits and runs Python's signal handlers meanwhile.
        t2n::runOnLargeStack(
            [&] {
                try {
                    t2n::Session session(&observer);
                    model.loadInto(session);
                    work(session);
                } catch (const t2n::Error& e) {
                    failed = e;
                } catch (const std::bad_alloc&) {
                    failed =
                        t2n::Error(t2n::Stage::Report, t2n::ErrorCode::ModelRun, "out of memory",
                                   "free memory or give smaller example inputs");
                } catch (const std::exception& e) {
                    failed = t2n::Error(t2n::Stage::Report, t2n::ErrorCode::Internal,
                                        std::string("unexpected error: ") + e.what(),
                                        "this is a bug in t2n: please report it with the model");
                }
            },
            [&] { observer.pollSignals(); });
    }
    if (failed)
        raise(*failed);
}

// One export. `recipe` is t2n's recipe JSON (the model's path and the output
// included; its inputs carry no values, and none at all when the engine is
// to propose them), `values` one float64 buffer per input (None: the
// engine's seeded random values).
std::string exportModel(const std::string& recipeJson, const std::vector<py::object>& values,
                        const py::object& model, const std::string& name, const py::object& log) {
    t2n::ExportRecipe recipe;
    try {
        recipe = t2n::recipeFromJson(recipeJson);
    } catch (const t2n::Error& e) {
        raise(e);
    }
    if (values.size() != recipe.options.inputs.size())
        throw py::value_error("one values buffer (or None) per input");
    for (size_t i = 0; i < values.size(); ++i) {
        if (values[i].is_none())
            continue;
        const py::buffer_info b = py::buffer(values[i]).request();
        if (b.format != py::format_descriptor<double>::format() || b.ndim != 1 ||
            (b.size > 1 && b.strides[0] != sizeof(double)))
            throw py::value_error("input values must be a contiguous 1-d float64 buffer");
        const auto* data = static_cast<const double*>(b.ptr);
        recipe.options.inputs[i].values.assign(data, data + b.size);
    }
    PythonObserver observer(log, recipe.options.logLevel);
    t2n::ExportReport report;
    withSession(ModelSource(model, recipe.model, name), observer, [&](t2n::Session& session) {
        // No args: the inputs the engine proposes, said as `t2n export` says them.
        t2n::cli::proposeMissingInputs(session, recipe.options, observer);
        report = session.exportModel(recipe.output, recipe.options);
    });
    return report.toJson();
}

// The engine's proposal of inputs for the model (t2n/input_proposal.h), as JSON.
std::string proposeInputs(const py::object& model, const std::string& path, const std::string& name,
                          const t2n::ProposalLimits& limits, const py::object& log,
                          const std::string& logLevel) {
    const std::optional<t2n::LogLevel> level = t2n::parseLogLevel(logLevel);
    if (!level)
        throw py::value_error("log level " + logLevel + " is not one of the engine's");
    PythonObserver observer(log, *level);
    t2n::InputProposal proposal;
    withSession(ModelSource(model, path, name), observer,
                [&](t2n::Session& session) { proposal = session.proposeInputs(limits); });
    return proposal.toJson();
}

} // namespace

PYBIND11_MODULE(_engine, m) {
    m.doc() = "t2n's engine (use the t2n package, not this module)";
    m.def("export_model", &exportModel, py::arg("recipe"), py::arg("values"), py::arg("model"),
          py::arg("name"), py::arg("log"));
    m.def(
        "propose_inputs",
        [](const py::object& model, const std::string& path, const std::string& name, uint64_t seed,
           int maxAttempts, double maxSeconds, const py::object& log, const std::string& logLevel) {
            t2n::ProposalLimits limits;
            limits.seed = seed;
            limits.maxAttempts = maxAttempts;
            limits.maxSeconds = maxSeconds;
            return proposeInputs(model, path, name, limits, log, logLevel);
        },
        py::arg("model"), py::arg("path"), py::arg("name"), py::arg("seed"),
        py::arg("max_attempts"), py::arg("max_seconds"), py::arg("log"), py::arg("log_level"));
    m.def("version", [] { return std::string(t2n::version()); });
    m.def("known_tract_versions", [] { return t2n::knownTractVersions(); });
    m.def("exit_codes", [] {
        using C = t2n::ErrorCode;
        py::dict codes;
        for (auto [name, code] : {std::pair{"usage", C::Usage},
                                  {"model_file", C::ModelFile},
                                  {"unsupported", C::Unsupported},
                                  {"output_path", C::OutputPath},
                                  {"model_run", C::ModelRun},
                                  {"invalid_option", C::InvalidOption},
                                  {"cancelled", C::Cancelled},
                                  {"internal", C::Internal}})
            codes[name] = static_cast<int>(code);
        return codes;
    });
}
