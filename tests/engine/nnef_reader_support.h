// Helpers shared by the NNEF reader and structure-check suites (header only,
// so that no build file changes): an S-expression view of the AST to compare
// against, a python tarfile builder for hostile test
// archives, and real artifacts exported by the t2n command line.
#pragma once

#include "reader/ast.h"
#include "support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cctype>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace t2n::test::nnef {

namespace ast = t2n::nnef::ast;

/// Compact, unambiguous text of an expression: i:1 f:0.5 'str' name [a b]
/// (tuple a b) (+ a b) (u- a) (index a i) (slice a i j) (call op<T> a k=v)
/// (if c a b) (for (i a) if c yield e) (length_of a); '_' for a missing part.
inline QString sexpr(const ast::ExprPtr& e) {
    using K = ast::Expr::Kind;
    if (!e)
        return "_";
    auto list = [](const std::vector<ast::ExprPtr>& items, int from = 0) {
        QStringList parts;
        for (std::size_t i = static_cast<std::size_t>(from); i < items.size(); ++i)
            parts << sexpr(items[i]);
        return parts.join(' ');
    };
    switch (e->kind) {
    case K::Integer:
        return QString("i:%1").arg(e->integer);
    case K::Scalar:
        return QString("f:%1").arg(QString::number(e->scalar, 'g', 12));
    case K::Logical:
        return e->logical ? "true" : "false";
    case K::String:
        return QString("'%1'").arg(QString::fromStdString(e->text));
    case K::Identifier:
        return QString::fromStdString(e->text);
    case K::Array:
        return "[" + list(e->items) + "]";
    case K::Tuple:
        return "(tuple " + list(e->items) + ")";
    case K::Unary:
        return QString("(u%1 %2)").arg(QString::fromStdString(e->op), sexpr(e->items.at(0)));
    case K::Binary:
        return QString("(%1 %2 %3)")
            .arg(QString::fromStdString(e->op), sexpr(e->items.at(0)), sexpr(e->items.at(1)));
    case K::Index:
        return e->isSlice
                   ? QString("(slice %1)").arg(list(e->items))
                   : QString("(index %1 %2)").arg(sexpr(e->items.at(0)), sexpr(e->items.at(1)));
    case K::Invocation: {
        QString s = "(call " + QString::fromStdString(e->text);
        if (!e->typeArg.empty())
            s += "<" + QString::fromStdString(e->typeArg) + ">";
        for (const auto& [name, value] : e->args)
            s += " " + (name.empty() ? QString() : QString::fromStdString(name) + "=") +
                 sexpr(value);
        return s + ")";
    }
    case K::IfElse:
        return QString("(if %1 %2 %3)")
            .arg(sexpr(e->items.at(1)), sexpr(e->items.at(0)), sexpr(e->items.at(2)));
    case K::Comprehension: {
        QString s = "(for";
        for (const auto& [name, value] : e->iterators)
            s += QString(" (%1 %2)").arg(QString::fromStdString(name), sexpr(value));
        if (e->condition)
            s += " if " + sexpr(e->condition);
        return s + " yield " + sexpr(e->yield) + ")";
    }
    case K::Builtin:
        return QString("(%1 %2)").arg(QString::fromStdString(e->text), sexpr(e->items.at(0)));
    }
    return "?";
}

inline QString typeText(const ast::TypeSpec& t) {
    using K = ast::TypeSpec::Kind;
    switch (t.kind) {
    case K::Name:
        return QString::fromStdString(t.name);
    case K::Tensor:
        return "tensor<" + QString::fromStdString(t.name) + ">";
    case K::Array:
        return typeText(t.items.at(0)) + "[]";
    case K::Tuple: {
        QStringList parts;
        for (const auto& item : t.items)
            parts << typeText(item);
        return "(" + parts.join(", ") + ")";
    }
    }
    return "?";
}

/// "lhs = rhs" of every assignment of a body, one string each.
inline QStringList bodyText(const std::vector<ast::Assignment>& body) {
    QStringList out;
    for (const auto& a : body)
        out << sexpr(a.lhs) + " = " + sexpr(a.rhs);
    return out;
}

/// Builds a tar (compression "") or tgz ("gz") at `out` with python's tarfile:
/// each entry is {"name", "type": file|dir|symlink|hardlink|chr|fifo, "size"
/// (zero bytes) or "text", "link"}. Returns python's stderr on failure.
inline QString makeTar(const std::filesystem::path& out, const QJsonArray& entries,
                       const QString& compression) {
    static const char* script = R"PY(
import io, json, sys, tarfile
out, mode, spec = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
types = {'file': tarfile.REGTYPE, 'dir': tarfile.DIRTYPE, 'symlink': tarfile.SYMTYPE,
         'hardlink': tarfile.LNKTYPE, 'chr': tarfile.CHRTYPE, 'fifo': tarfile.FIFOTYPE}
with tarfile.open(out, 'w:' + mode) as tar:
    for e in spec:
        info = tarfile.TarInfo(e['name'])
        info.type = types[e.get('type', 'file')]
        info.linkname = e.get('link', '')
        data = None
        if info.type == tarfile.REGTYPE:
            data = e['text'].encode('latin-1') if 'text' in e else bytes(e.get('size', 0))
            info.size = len(data)
        tar.addfile(info, io.BytesIO(data) if data is not None else None)
)PY";
    const auto r =
        t2n::test::run(t2n::test::python(),
                       {"-c", script, QString::fromStdString(out.string()), compression,
                        QString::fromUtf8(QJsonDocument(entries).toJson(QJsonDocument::Compact))},
                       120000);
    return r.exitCode == 0 ? QString() : r.err + r.out;
}

inline QJsonObject entry(const QString& name, const QString& text) {
    return QJsonObject{{"name", name}, {"text", text}};
}

/// Exports a fixture with the t2n command line; returns "" or the error text.
inline QString exportFixture(const QString& fixture, const std::filesystem::path& out,
                             const QString& compression) {
    if (!std::filesystem::exists(t2n::test::t2nBinary()))
        return "no t2n binary at " + QString::fromStdString(t2n::test::t2nBinary().string());
    QStringList args{"export", QString::fromStdString(t2n::test::fixtureModel(fixture).string())};
    args << t2n::test::fixtureInputArgs(fixture) << "--compression" << compression << "-o"
         << QString::fromStdString(out.string()) << "--log-level"
         << "error";
    const auto r = t2n::test::run(QString::fromStdString(t2n::test::t2nBinary().string()), args);
    return r.exitCode == 0 ? QString()
                           : QString("t2n export failed (%1): %2").arg(r.exitCode).arg(r.err);
}

} // namespace t2n::test::nnef
