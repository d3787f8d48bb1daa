#include "t2n/artifact.h"

#include "t2n/error.h"
#include "util/name_limits.h"

#include <fmt/format.h>

#include <array>
#include <string_view>

namespace t2n {

namespace {

constexpr std::string_view kAcceptedHint =
    "the export path must end in .nnef (folder), .nnef.tar, .nnef.tgz or .nnef.tar.gz";

enum class Suffix { Nnef, Tar, Tgz, TarGz };

struct SuffixRule {
    std::string_view text; ///< whole suffix, starting with ".nnef"
    Suffix kind;
};

// Longest first, so that ".nnef.tar.gz" is not mistaken for something else.
constexpr std::array<SuffixRule, 4> kSuffixes{{
    {".nnef.tar.gz", Suffix::TarGz},
    {".nnef.tgz", Suffix::Tgz},
    {".nnef.tar", Suffix::Tar},
    {".nnef", Suffix::Nnef},
}};

std::string_view suffixName(Suffix s) {
    switch (s) {
    case Suffix::Nnef:
        return ".nnef";
    case Suffix::Tar:
        return ".tar";
    case Suffix::Tgz:
        return ".tgz";
    case Suffix::TarGz:
        return ".tar.gz";
    }
    return "";
}

} // namespace

std::string_view artifactFormName(ArtifactForm f) {
    switch (f) {
    case ArtifactForm::Folder:
        return "folder";
    case ArtifactForm::Tar:
        return "tar";
    case ArtifactForm::Tgz:
        return "tgz";
    }
    return "?";
}

Artifact resolveArtifact(const std::filesystem::path& requested, std::optional<int> level) {
    // Before any suffix is compared: "x.pt\0.nnef.tgz" ends in .nnef.tgz and writes x.pt.
    util::checkPathText(requested.native(), "export path", Stage::Write, ErrorCode::OutputPath);
    // "out/model.nnef/" names the folder "out/model.nnef".
    std::filesystem::path req = requested;
    if (!req.has_filename() && req.has_parent_path() && req.parent_path() != req.root_path())
        req = req.parent_path();
    const std::string name = req.filename().string();

    const SuffixRule* rule = nullptr;
    for (const auto& r : kSuffixes) {
        if (name.size() >= r.text.size() && name.ends_with(r.text)) {
            rule = &r;
            break;
        }
    }
    if (rule == nullptr)
        throw Error(
            Stage::Write, ErrorCode::OutputPath,
            fmt::format("cannot export to '{}': unknown artifact suffix", requested.string()),
            std::string(kAcceptedHint));
    if (name.size() == rule->text.size())
        throw Error(Stage::Write, ErrorCode::OutputPath,
                    fmt::format("cannot export to '{}': the file name has nothing before '{}'",
                                requested.string(), rule->text),
                    "give the artifact a name, e.g. model" + std::string(rule->text));
    if (level && (*level < 0 || *level > 9))
        throw Error(Stage::Write, ErrorCode::OutputPath,
                    fmt::format("cannot export to '{}' with compression level {}: levels go from "
                                "0 to 9",
                                requested.string(), *level),
                    "use no level for a .nnef folder, 0 for a .nnef.tar, 1 to 9 for a .nnef.tgz");

    // BASE: the request with any archive suffix removed; it ends in ".nnef".
    const std::string baseName = name.substr(0, name.size() - rule->text.size()) + ".nnef";
    const std::filesystem::path base = req.parent_path() / baseName;
    const bool askedGzip = rule->kind == Suffix::Tgz || rule->kind == Suffix::TarGz;

    Artifact a;
    if (!level) {
        a.form = ArtifactForm::Folder;
        a.path = base;
        if (rule->kind != Suffix::Nnef)
            a.note = fmt::format("no compression level writes a .nnef folder; the requested {} "
                                 "suffix was dropped",
                                 suffixName(rule->kind));
    } else if (*level == 0 && !askedGzip) {
        a.form = ArtifactForm::Tar;
        a.path = std::filesystem::path(base.string() + ".tar");
        if (rule->kind == Suffix::Nnef)
            a.note = "compression level 0 writes a .tar archive; the .tar suffix was added";
    } else {
        a.form = ArtifactForm::Tgz;
        a.gzipLevel = *level;
        a.path = std::filesystem::path(base.string() + ".tgz");
        if (rule->kind == Suffix::TarGz)
            a.note = fmt::format("compression level {} writes a .tgz; the requested .tar.gz "
                                 "suffix was written as .tgz",
                                 *level);
        else if (rule->kind != Suffix::Tgz)
            a.note = fmt::format("compression level {} writes a .tgz; the requested {} suffix "
                                 "was {}",
                                 *level, suffixName(rule->kind),
                                 rule->kind == Suffix::Nnef ? "extended with .tgz" : "replaced");
    }
    // "out.nnef.tgz/" asks for a folder where the archive is a file.
    if (req != requested && a.form != ArtifactForm::Folder)
        throw Error(
            Stage::Write, ErrorCode::OutputPath,
            fmt::format("cannot export to '{}': a path ending in '/' names a folder, "
                        "and a .nnef.{} is a file",
                        requested.string(), artifactFormName(a.form)),
            fmt::format("give {} without the trailing '/' ({})", req.string(), kAcceptedHint));
    return a;
}

} // namespace t2n
