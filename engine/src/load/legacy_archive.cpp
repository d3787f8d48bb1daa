// Why: PyTorch 1.0-1.2 saved TorchScript as model.json (a protobuf ModelDef
// in JSON: the module tree, a tensor table and the name of each module's
// code), code/<module>.py (methods only, with `op_version_set = 1`) and
// tensors/N (raw little-endian storages). LibTorch 1.13 reads them with
// import_legacy.cpp, which needs protobuf and is left out of Debian's build
// ("Legacy model format is not supported on mobile"). The pieces it uses
// besides protobuf are exported: this file parses the JSON itself and makes
// the module the way that importer did — modules, parameters and attributes
// registered, then SourceImporter::LEGACY_import_methods compiles each
// module's code against it. The user's file is only read.
#include "load/legacy_archive.h"

#include "t2n/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/jit/frontend/resolver.h>
#include <torch/csrc/jit/frontend/script_type_parser.h>
#include <torch/csrc/jit/serialization/import_source.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <map>

namespace t2n::load {

namespace {

using caffe2::serialize::PyTorchStreamReader;
using Json = nlohmann::json;

[[noreturn]] void refuse(const std::string& shown, const std::string& why) {
    throw Error(Stage::Load, ErrorCode::ModelFile,
                fmt::format("'{}' is a TorchScript archive of PyTorch 1.0-1.2 (model.json) that "
                            "t2n cannot read: {}",
                            shown, why),
                "load it with PyTorch 1.3 or newer and save it again: "
                "torch.jit.save(torch.jit.load(old), new)");
}

// protobuf's JSON writes 64-bit integers as strings, 32-bit ones as numbers.
int64_t integer(const Json& j, const char* field, int64_t fallback = 0) {
    if (!j.contains(field))
        return fallback;
    const Json& v = j.at(field);
    return v.is_string() ? std::stoll(v.get<std::string>()) : v.get<int64_t>();
}

std::string text(const Json& j, const char* field) {
    return j.contains(field) && j.at(field).is_string() ? j.at(field).get<std::string>() : "";
}

std::string recordKey(const Json& j, const char* field) {
    return j.contains(field) ? text(j.at(field), "key") : "";
}

// caffe2's TensorProto.DataType, by name (protobuf's JSON) or number.
std::optional<at::ScalarType> scalarType(const Json& t) {
    static const std::map<std::string, std::pair<int, at::ScalarType>> types = {
        {"FLOAT", {1, at::kFloat}},   {"INT32", {2, at::kInt}},   {"BYTE", {3, at::kByte}},
        {"BOOL", {5, at::kBool}},     {"UINT8", {6, at::kByte}},  {"INT8", {7, at::kChar}},
        {"INT16", {9, at::kShort}},   {"INT64", {10, at::kLong}}, {"FLOAT16", {12, at::kHalf}},
        {"DOUBLE", {13, at::kDouble}}};
    if (!t.contains("dataType"))
        return at::kFloat; // the enum's default is not written
    const Json& v = t.at("dataType");
    for (const auto& [name, type] : types)
        if ((v.is_string() && v.get<std::string>() == name) ||
            (v.is_number() && v.get<int>() == type.first))
            return type.second;
    return std::nullopt;
}

struct Reader {
    std::shared_ptr<PyTorchStreamReader> zip;
    std::string shown;
    std::vector<at::Tensor> tensors;
    std::vector<at::IValue> constants; // every tensor: legacy code names them CONSTANTS.cN
    std::vector<at::IValue> pickled;   // attributes.pkl
    std::vector<std::string> stack{"__torch__"};

    std::string record(const std::string& key) {
        if (key.empty() || !zip->hasRecord(key))
            refuse(shown, fmt::format("model.json names the record '{}', which is absent", key));
        auto [data, size] = zip->getRecord(key);
        return std::string(static_cast<const char*>(data.get()), size);
    }

    // One TensorDef, checked against its record before LibTorch views it
    // (Tensor::set_ does not compare a view with its storage's size).
    at::Tensor tensor(const Json& t, std::map<std::string, at::Storage>& storages) {
        const auto type = scalarType(t);
        if (!type)
            refuse(shown, fmt::format("a tensor has the data type {}, which LibTorch cannot hold",
                                      t.at("dataType").dump()));
        if (t.value("isQuantized", false))
            refuse(shown, "it holds quantized tensors of PyTorch 1.2's format, which t2n does not "
                          "convert");
        std::vector<int64_t> dims, strides;
        for (const auto& d : t.value("dims", Json::array()))
            dims.push_back(d.is_string() ? std::stoll(d.get<std::string>()) : d.get<int64_t>());
        for (const auto& s : t.value("strides", Json::array()))
            strides.push_back(s.is_string() ? std::stoll(s.get<std::string>()) : s.get<int64_t>());
        const int64_t offset = integer(t, "offset");
        const std::string key = recordKey(t, "data");
        if (dims.size() != strides.size() || offset < 0)
            refuse(shown, fmt::format("the tensor of record '{}' has {} sizes, {} strides and "
                                      "offset {}",
                                      key, dims.size(), strides.size(), offset));
        auto it = storages.find(key);
        if (it == storages.end()) {
            const std::string bytes = record(key);
            at::Tensor raw = at::empty({static_cast<int64_t>(bytes.size())}, at::kByte);
            std::memcpy(raw.data_ptr(), bytes.data(), bytes.size());
            it = storages.emplace(key, raw.storage()).first;
        }
        const auto width = static_cast<int64_t>(c10::elementSize(*type));
        const auto elements = static_cast<int64_t>(it->second.nbytes()) / width;
        int64_t last = offset; // the last element the view reads
        bool empty = false;
        for (size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] < 0 || strides[i] < 0)
                refuse(shown, fmt::format("the tensor of record '{}' has a negative size or "
                                          "stride",
                                          key));
            empty = empty || dims[i] == 0;
            last += (dims[i] - 1) * strides[i];
        }
        if (!empty && last >= elements)
            refuse(shown, fmt::format("the tensor of record '{}' reads element {} of a record of "
                                      "{} elements",
                                      key, last, elements));
        at::Tensor out = at::empty({0}, at::TensorOptions().dtype(*type))
                             .set_(it->second, offset, dims, strides);
        return out.set_requires_grad(false);
    }

    Json modelJson() {
        try {
            return Json::parse(record("model.json"));
        } catch (const Json::exception& e) {
            refuse(shown, fmt::format("its model.json is not JSON t2n reads ({})", e.what()));
        }
    }

    void readTensorsAndAttributes(const Json& model) {
        std::map<std::string, at::Storage> storages;
        for (const auto& t : model.value("tensors", Json::array()))
            tensors.push_back(tensor(t, storages));
        const int64_t proto = integer(model, "protoVersion");
        if (proto >= 6)
            refuse(shown, fmt::format("its model.json has proto version {}; PyTorch's legacy "
                                      "reader stops at 5",
                                      proto));
        if (proto >= 2 && zip->hasRecord("attributes.pkl")) {
            const std::string bytes = record("attributes.pkl");
            // Attributes of class types are loaded from libs/ (as LibTorch did).
            const at::IValue v = torch::jit::unpickle(bytes.data(), bytes.size(), nullptr, tensors);
            if (v.isTuple())
                pickled = v.toTupleRef().elements().vec();
            else if (v.isList())
                pickled = v.toListRef().vec();
        }
        for (const auto& t : tensors)
            constants.emplace_back(t);
    }

    torch::jit::Module module(const Json& def,
                              const std::shared_ptr<torch::jit::CompilationUnit>& cu,
                              torch::jit::SourceImporter& importer) {
        // Names may hold dots and digits ("0"): each atom a valid identifier.
        const auto atoms = c10::QualifiedName(def.value("name", std::string("module"))).atoms();
        for (const auto& atom : atoms)
            stack.push_back(!atom.empty() && std::all_of(atom.begin(), atom.end(), ::isdigit)
                                ? "_" + atom
                                : atom);
        torch::jit::Module m(c10::QualifiedName(stack), cu);
        for (const auto& sub : def.value("submodules", Json::array()))
            m.register_module(sub.value("name", std::string()), module(sub, cu, importer));
        for (const auto& p : def.value("parameters", Json::array())) {
            const int64_t id = integer(p, "tensorId", -1);
            if (id < 0 || id >= static_cast<int64_t>(tensors.size()))
                refuse(shown, fmt::format("parameter '{}' names tensor {} of {}", text(p, "name"),
                                          id, tensors.size()));
            if (p.value("isBuffer", false))
                m.register_buffer(text(p, "name"), tensors[id]);
            else
                m.register_parameter(text(p, "name"), tensors[id], false);
        }
        struct Classes : torch::jit::Resolver {
            torch::jit::SourceImporter& importer;
            explicit Classes(torch::jit::SourceImporter& i) : importer(i) {}
            c10::TypePtr resolveType(const std::string& name,
                                     const torch::jit::SourceRange&) override {
                return importer.loadType(c10::QualifiedName(name));
            }
        };
        torch::jit::ScriptTypeParser types(std::make_shared<Classes>(importer));
        for (const auto& a : def.value("attributes", Json::array())) {
            const std::string name = text(a, "name");
            if (m.hasattr(name))
                continue; // a buffer registered above
            const int64_t id = integer(a, "id", -1);
            if (id >= static_cast<int64_t>(pickled.size()))
                refuse(shown, fmt::format("attribute '{}' names value {} of {} in attributes.pkl",
                                          name, id, pickled.size()));
            m.register_attribute(name, types.parseType(text(a, "type")),
                                 id >= 0 ? pickled[id] : at::IValue());
        }
        // eval() sets `training` on every module; 1.0 modules may lack it.
        if (!m.hasattr("training"))
            m.register_attribute("training", c10::BoolType::get(), false);
        if (const std::string key = recordKey(def, "torchscriptArena"); !key.empty()) {
            auto src = std::make_shared<torch::jit::Source>(record(key), key, 1);
            importer.LEGACY_import_methods(m, src);
        }
        if (def.contains("getStateAttributeId")) {
            const int64_t id = integer(def, "getStateAttributeId");
            auto setstate = m.find_method("__setstate__");
            if (!setstate || id < 0 || id >= static_cast<int64_t>(pickled.size()))
                refuse(shown, fmt::format("module '{}' keeps its state in value {} without a "
                                          "usable __setstate__",
                                          text(def, "name"), id));
            if (setstate->num_inputs() == 1)
                (*setstate)({});
            else
                (*setstate)({pickled[id]});
        }
        for (size_t i = 0; i < atoms.size(); ++i)
            stack.pop_back();
        return m;
    }
};

} // namespace

bool isLegacyArchive(PyTorchStreamReader& reader) {
    return reader.hasRecord("model.json") && !reader.hasRecord("data.pkl");
}

torch::jit::Module loadLegacyArchive(std::shared_ptr<PyTorchStreamReader> zip,
                                     const std::string& shown) {
    Reader r;
    r.zip = zip;
    r.shown = shown;
    const Json model = r.modelJson();
    r.readTensorsAndAttributes(model);
    if (!model.contains("mainModule"))
        refuse(shown, "its model.json has no main module");
    auto cu = std::make_shared<torch::jit::CompilationUnit>();
    torch::jit::SourceImporter importer(
        cu, &r.constants,
        [zip](const std::string& qualifier) -> std::shared_ptr<torch::jit::Source> {
            // Class types live in libs/<qualifier as a path>.py.
            std::string path = "libs/" + qualifier;
            std::replace(path.begin(), path.end(), '.', '/');
            path += ".py";
            if (!zip->hasRecord(path))
                return nullptr;
            auto [data, size] = zip->getRecord(path);
            return std::make_shared<torch::jit::Source>(
                std::string(static_cast<const char*>(data.get()), size), path, 1);
        },
        zip->version());
    torch::jit::Module m = r.module(model.at("mainModule"), cu, importer);
    // Methods compile on first use, and their constants come from r.constants
    // and the importer, both gone after this function: compiled now.
    for (const auto& sub : m.modules())
        for (const auto& method : sub.get_methods())
            method.graph();
    return m;
}

} // namespace t2n::load
