// The option table (t2n/option_table.h) is complete and consistent: every
// ExportOptions field has a row, every row with a flag round-trips a value
// away from its default through the command line and the recipe, and
// `--help` lists every flag with its help. (The studio's form is checked
// against the table in tests/ui/studio/tst_session_models.cpp.)
#include "cli/export_flags.h"
#include "every_option.h"
#include "suite_macros.h"
#include "t2n/error.h"
#include "t2n/option_table.h"
#include "t2n/recipe.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <set>

namespace {

// Counts the fields of an aggregate: the most initializers T{...} takes.
struct AnyField {
    template <class T> operator T() const;
};
template <class T, class... A> constexpr size_t fieldCount() {
    if constexpr (requires { T{A{}..., AnyField{}}; })
        return fieldCount<T, A..., AnyField>();
    else
        return sizeof...(A);
}
// A new field of ExportOptions or HardenOptions fails here until it has a
// row in engine/src/util/option_table.cpp and a value in t2n::test::everyOption()
// (tests/every_option.h).
static_assert(fieldCount<t2n::ExportOptions>() == 28, "a new export option needs a table row");
// perturbAfter, the test hook, is the one field that is never saved.
static_assert(fieldCount<t2n::harden::HardenOptions>() == 6,
              "a new hardening option needs a table row");

std::string longName(std::string_view flag) {
    return std::string(flag.substr(flag.rfind(',') + 1));
}

// The command line that gives `row` its value in `o`.
std::vector<std::string> argsFor(const t2n::OptionRow& row, const t2n::ExportOptions& o) {
    std::vector<std::string> args;
    const std::string flag = longName(row.cliFlag);
    for (const auto& v : row.toText(o)) {
        if (row.arity == t2n::OptionArity::Switch) {
            if (v == "true")
                args.push_back(flag);
            continue;
        }
        args.push_back(flag);
        args.push_back(v);
    }
    return args;
}

// `t2n export`'s flags (as the studio takes them) parsed from `args`,
// applied over the default options.
t2n::ExportOptions parse(const std::vector<std::string>& args) {
    CLI::App app;
    t2n::cli::ExportFlags flags;
    t2n::cli::addExportFlags(app, flags, /*modelRequired=*/false);
    t2n::cli::addExportCommandFlags(app, flags);
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed); // CLI11 takes the arguments last first
    return t2n::cli::applyGivenFlags(flags, t2n::ExportOptions{}, app);
}

t2n::OptionJson recipeRoundTrip(const t2n::ExportOptions& o) {
    t2n::ExportRecipe r;
    r.options = o;
    return nlohmann::ordered_json::parse(t2n::toJson(t2n::recipeFromJson(t2n::toJson(r))));
}

QString name(const t2n::OptionRow& row) {
    return QString::fromUtf8(row.name.data(), static_cast<qsizetype>(row.name.size()));
}
} // namespace

class OptionTableTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Names, recipe keys and flags are unique; a row has what its arity says.
    void rowsAreConsistent() {
        std::set<std::string_view> names, keys, flags, objects;
        std::string_view lastObject;
        for (const t2n::OptionRow& row : t2n::exportOptionTable()) {
            // The rows of one recipe object ("harden.*") follow each other:
            // the recipe reader reads them together.
            const auto dot = row.jsonKey.find('.');
            const std::string_view object =
                dot == std::string_view::npos ? std::string_view() : row.jsonKey.substr(0, dot);
            if (!object.empty() && object != lastObject)
                QVERIFY2(objects.insert(object).second, qPrintable(name(row)));
            lastObject = object;
            QVERIFY2(names.insert(row.name).second, qPrintable(name(row)));
            QVERIFY2(keys.insert(row.jsonKey).second, qPrintable(name(row)));
            QVERIFY2(!row.help.empty() && row.toJson && row.fromJson, qPrintable(name(row)));
            QCOMPARE(t2n::findOption(row.name), &row);
            const bool flag = row.arity != t2n::OptionArity::None;
            QCOMPARE(!row.cliFlag.empty(), flag);
            QCOMPARE(row.toText != nullptr && row.fromText != nullptr, flag);
            QCOMPARE(row.valueName.empty(), row.arity == t2n::OptionArity::Switch || !flag);
            if (flag)
                QVERIFY2(flags.insert(row.cliFlag).second, qPrintable(name(row)));
        }
        QVERIFY(t2n::findOption("no such option") == nullptr);
    }

    /// Every field has a row: each row moves its field to everyOption()'s value
    /// and nothing else, and all rows together give everyOption() whole.
    void everyFieldHasARow() {
        const t2n::ExportOptions every = t2n::test::everyOption();
        t2n::ExportOptions all;
        for (const t2n::OptionRow& row : t2n::exportOptionTable()) {
            const std::string key(row.jsonKey);
            t2n::ExportOptions one;
            row.fromJson(one, row.toJson(every), key);
            QVERIFY2(!(one == t2n::ExportOptions{}), qPrintable(name(row) + " left its default"));
            QVERIFY2(row.toJson(one) == row.toJson(every), qPrintable(name(row)));
            row.fromJson(all, row.toJson(every), key);
        }
        QVERIFY(all == every);
    }

    /// Each flag, given alone, sets its field to the value set directly; the
    /// value survives a recipe written and read back; every flag at once gives
    /// every field but the hardening ones (no flags of `t2n export`).
    void everyFlagRoundTrips() {
        const t2n::ExportOptions every = t2n::test::everyOption();
        std::vector<std::string> allArgs;
        for (const t2n::OptionRow& row : t2n::exportOptionTable()) {
            if (row.arity == t2n::OptionArity::None)
                continue;
            const auto args = argsFor(row, every);
            QVERIFY2(!args.empty(), qPrintable(name(row)));
            allArgs.insert(allArgs.end(), args.begin(), args.end());
            t2n::ExportOptions viaFlag;
            try {
                viaFlag = parse(args);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(name(row) + ": " + e.what()));
            }
            QVERIFY2(row.toJson(viaFlag) == row.toJson(every), qPrintable(name(row)));
            QVERIFY2(row.toJson(viaFlag) != row.toJson(t2n::ExportOptions{}),
                     qPrintable(name(row)));
            const std::string key(row.jsonKey);
            // Recipes name no program to run (issue 26): --tract-bin is not saved.
            if (row.name == "tractBinary")
                QVERIFY(!recipeRoundTrip(viaFlag).contains(key));
            else
                QVERIFY2(recipeRoundTrip(viaFlag).at(key) == row.toJson(every),
                         qPrintable(name(row)));
        }
        t2n::ExportOptions expected = every;
        expected.harden = {};
        const t2n::ExportOptions viaFlags = parse(allArgs);
        QVERIFY(viaFlags == expected);
        t2n::ExportRecipe r;
        r.options = viaFlags;
        expected.tractBinary.clear();
        QVERIFY(t2n::recipeFromJson(t2n::toJson(r)).options == expected);
    }

    /// Flags left out keep the defaults; bad values are usage errors.
    void defaultsAndErrors() {
        QVERIFY(parse({}) == t2n::ExportOptions{});
        t2n::cli::ExportFlags flags;
        CLI::App app;
        t2n::cli::addExportFlags(app, flags, false);
        QVERIFY(t2n::cli::toOptions(flags) == t2n::ExportOptions{});
        for (const auto& bad : std::vector<std::vector<std::string>>{{"--seed", "-1"},
                                                                     {"--compression", "10"},
                                                                     {"--naming", "pretty"},
                                                                     {"--compute", "f64"},
                                                                     {"--property", "=v"},
                                                                     {"--log-level", "loud"}}) {
            try {
                parse(bad);
                QFAIL(qPrintable(QString::fromStdString(bad[0] + " " + bad[1] + " accepted")));
            } catch (const t2n::Error& e) {
                QCOMPARE(e.code(), t2n::ErrorCode::Usage);
                QVERIFY(!e.hint().empty());
            }
        }
    }

    /// `t2n export --help` lists every flag with its help, under its stage.
    void helpListsEveryFlag() {
        CLI::App app;
        t2n::cli::ExportFlags flags;
        t2n::cli::addExportFlags(app, flags, false);
        t2n::cli::addExportCommandFlags(app, flags);
        const std::string help = app.help();
        for (const t2n::OptionRow& row : t2n::exportOptionTable()) {
            if (row.arity == t2n::OptionArity::None)
                continue;
            QVERIFY2(help.find(longName(row.cliFlag)) != std::string::npos, qPrintable(name(row)));
            // CLI11 does not wrap descriptions: the first words are on the flag's line.
            const std::string start(row.help.substr(0, 30));
            QVERIFY2(help.find(start) != std::string::npos, qPrintable(name(row)));
            const std::string section = "read by the " + std::string(optionStageName(row.stage));
            QVERIFY2(help.find(section) != std::string::npos, qPrintable(name(row)));
        }
    }
};

T2N_TEST_SUITE(OptionTableTest)
#include "tst_option_table.moc"
