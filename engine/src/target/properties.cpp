#include "target/properties.h"

#include "t2n/error.h"
#include "t2n/version.h"

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace t2n::target {

namespace {
std::string osDescription() {
    utsname u{};
    if (uname(&u) != 0)
        return "unknown";
    return fmt::format("{} {} {}", u.sysname, u.release, u.machine);
}

std::string hostName() {
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : "unknown";
}

std::string userName() {
    if (const char* u = std::getenv("USER"); u && *u)
        return u;
    if (const passwd* pw = getpwuid(getuid()))
        return pw->pw_name;
    return "unknown";
}

std::string utcNow() {
    auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}
} // namespace

std::vector<std::pair<std::string, std::string>> buildProperties(const ExportOptions& options,
                                                                 const TractTarget& target,
                                                                 const PropertyContext& ctx) {
    std::vector<std::pair<std::string, std::string>> props{
        {"tract_target_version", target.version().str()},
        {"t2n_version", std::string(version())},
        {"torch_version", ctx.torchVersion},
        {"exported_model", ctx.modelFile},
    };
    if (options.identityProperties) {
        props.emplace_back("os", osDescription());
        props.emplace_back("hostname", hostName());
        props.emplace_back("user", userName());
    }
    if (options.stampExportDate)
        props.emplace_back("export_date", utcNow());
    for (const auto& [key, value] : options.properties) {
        bool printable = !key.empty();
        for (char c : key)
            printable =
                printable && c > ' ' && c < 127 && c != '"' && c != '\\' && c != '{' && c != '}';
        if (!printable)
            throw Error(Stage::Translate, ErrorCode::Usage,
                        fmt::format("property key '{}' is empty or has spaces or quotes", key),
                        "use keys like my.model_version");
        for (const auto& [k, v] : props)
            if (k == key)
                throw Error(Stage::Translate, ErrorCode::Usage,
                            fmt::format("property '{}' is set twice", key),
                            "t2n sets tract_target_version, t2n_version, torch_version, "
                            "exported_model and the identity properties itself");
        props.emplace_back(key, value);
    }
    for (auto& [k, v] : props)
        v = sanitizePropertyValue(v);
    return props;
}

} // namespace t2n::target
