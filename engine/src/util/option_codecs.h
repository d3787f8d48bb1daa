// The pieces the rows of the option table (util/option_table.cpp) are made
// of: templates that give a plain ExportOptions field (bool, string, list of
// strings) its recipe JSON and flag text through a member pointer, and the
// JSON and text forms of the options with structure (inputs, dynamic axes,
// properties, the hardening options).
#pragma once

#include "t2n/option_table.h"
#include "util/json_fields.h"
#include "util/name_limits.h"

#include <string>
#include <vector>

namespace t2n::options {

using json::Json;
using Texts = std::vector<std::string>;

/// A usage error of the load stage, as the command line reports it.
Error usage(std::string message, std::string hint);

// --- plain fields, through a member pointer M --------------------------------
template <auto M> Json plainJson(const ExportOptions& o) {
    return Json(o.*M);
}
template <auto M> void boolFromJson(ExportOptions& o, const Json& j, const std::string& path) {
    o.*M = json::boolean(j, path);
}
template <auto M> void stringFromJson(ExportOptions& o, const Json& j, const std::string& path) {
    o.*M = json::str(j, path);
}
template <auto M> void stringsFromJson(ExportOptions& o, const Json& j, const std::string& path) {
    o.*M = json::strings(j, path);
}

/// A flag without a value that sets the bool M to V ("--no-check" sets check
/// to false); left out, the field keeps !V, its default.
template <auto M, bool V> Texts switchText(const ExportOptions& o) {
    return {o.*M == V ? "true" : "false"};
}
template <auto M, bool V> void switchFromText(ExportOptions& o, const Texts& v) {
    o.*M = (v.at(0) == "true") == V;
}
template <auto M> Texts oneText(const ExportOptions& o) {
    return {o.*M};
}
template <auto M> void oneFromText(ExportOptions& o, const Texts& v) {
    o.*M = v.at(0);
}
template <auto M> Texts manyText(const ExportOptions& o) {
    return o.*M;
}
template <auto M> void manyFromText(ExportOptions& o, const Texts& v) {
    o.*M = v;
}

// --- whole rows: the accessors and arity of a plain field's row -----------------
/// A bool field whose flag sets it to V.
template <auto M, bool V> OptionRow switchRow(OptionRow row) {
    row.arity = OptionArity::Switch;
    row.toJson = plainJson<M>;
    row.fromJson = boolFromJson<M>;
    row.toText = switchText<M, V>;
    row.fromText = switchFromText<M, V>;
    return row;
}
/// A string field with a flag of one value.
template <auto M> OptionRow oneRow(OptionRow row) {
    row.arity = OptionArity::One;
    row.toJson = plainJson<M>;
    row.fromJson = stringFromJson<M>;
    row.toText = oneText<M>;
    row.fromText = oneFromText<M>;
    return row;
}
/// A list of strings with a repeatable flag.
template <auto M> OptionRow manyRow(OptionRow row) {
    row.arity = OptionArity::Many;
    row.toJson = plainJson<M>;
    row.fromJson = stringsFromJson<M>;
    row.toText = manyText<M>;
    row.fromText = manyFromText<M>;
    return row;
}

// Names given on the command line or in the studio's form: each at most
// util::kMaxNameBytes (recipes are checked whole when read).
template <auto M> void namesFromText(ExportOptions& o, const Texts& v) {
    manyFromText<M>(o, v);
    util::checkNameLengths(o);
}
template <auto M> OptionRow namesRow(OptionRow row) {
    row = manyRow<M>(std::move(row));
    row.fromText = namesFromText<M>;
    return row;
}

// --- options with structure ----------------------------------------------------
Json inputsJson(const ExportOptions& o);
void inputsFromJson(ExportOptions& o, const Json& j, const std::string& path);
Texts inputsText(const ExportOptions& o);
void inputsFromText(ExportOptions& o, const Texts& v);

Json dynamicAxesJson(const ExportOptions& o);
void dynamicAxesFromJson(ExportOptions& o, const Json& j, const std::string& path);
Texts dynamicAxesText(const ExportOptions& o);
void dynamicAxesFromText(ExportOptions& o, const Texts& v);

Json propertiesJson(const ExportOptions& o);
void propertiesFromJson(ExportOptions& o, const Json& j, const std::string& path);
Texts propertiesText(const ExportOptions& o);
void propertiesFromText(ExportOptions& o, const Texts& v);

} // namespace t2n::options
