#include "util/json_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace t2n::json {

Error bad(const std::string& path, const std::string& what, std::string hint) {
    return Error(Stage::Load, ErrorCode::Usage, fmt::format("recipe: {} {}", path, what),
                 std::move(hint));
}

Json parseWithoutDuplicateKeys(std::string_view text) {
    // The open objects and arrays, each with the path part that leads to it.
    struct Open {
        bool array = false;
        std::string step; ///< ".key", "[]" (an element) or "" (the root)
        std::set<std::string> keys;
    };
    std::vector<Open> open;
    std::string lastKey;
    auto path = [&] {
        std::string p = "$";
        for (const auto& o : open)
            p += o.step;
        return p;
    };
    using Event = nlohmann::ordered_json::parse_event_t;
    auto callback = [&](int, Event event, Json& parsed) {
        switch (event) {
        case Event::object_start:
        case Event::array_start:
            open.push_back({event == Event::array_start,
                            open.empty()        ? std::string()
                            : open.back().array ? std::string("[]")
                                                : "." + lastKey,
                            {}});
            break;
        case Event::object_end:
        case Event::array_end:
            open.pop_back();
            break;
        case Event::key:
            lastKey = parsed.get<std::string>();
            if (!open.back().keys.insert(lastKey).second)
                throw bad(path(), fmt::format("gives the key \"{}\" twice", lastKey),
                          "keep one of them: JSON readers differ on which one counts");
            break;
        default:
            break;
        }
        return true;
    };
    return Json::parse(text.begin(), text.end(), callback);
}

Object::Object(const Json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j.is_object())
        throw bad(path_, fmt::format("is {}, expected an object", j.type_name()),
                  "see `t2n export --save-recipe` for a complete example");
}

void Object::done() const {
    for (const auto& [key, value] : j_.items())
        if (std::find(known_.begin(), known_.end(), key) == known_.end())
            throw bad(path_ + "." + key, "is not a recipe key",
                      fmt::format("keys here: {}", fmt::join(known_, ", ")));
}

std::string str(const Json& j, const std::string& path) {
    if (!j.is_string())
        throw bad(path, fmt::format("is {}, expected a string", j.type_name()), "quote the value");
    return j.get<std::string>();
}

bool boolean(const Json& j, const std::string& path) {
    if (!j.is_boolean())
        throw bad(path, fmt::format("is {}, expected true or false", j.type_name()),
                  "write true or false without quotes");
    return j.get<bool>();
}

int64_t integer(const Json& j, const std::string& path) {
    if (!j.is_number_integer())
        throw bad(path, fmt::format("is {}, expected an integer", j.type_name()),
                  "write a whole number without quotes");
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
        throw bad(path, fmt::format("is {}, more than a 64-bit integer holds", j.dump()),
                  "write a smaller number");
    return j.get<int64_t>();
}

int64_t counted(const Json& j, const std::string& path, int64_t max) {
    const int64_t v = integer(j, path);
    if (v < 0 || v > max)
        throw bad(path, fmt::format("is {}, expected an integer from 0 to {}", v, max),
                  "sizes and counts are never negative");
    return v;
}

const Json& array(const Json& j, const std::string& path) {
    if (!j.is_array())
        throw bad(path, fmt::format("is {}, expected an array", j.type_name()),
                  "write a list in [ ]");
    return j;
}

std::vector<std::string> strings(const Json& j, const std::string& path) {
    std::vector<std::string> out;
    size_t i = 0;
    for (const auto& e : array(j, path))
        out.push_back(str(e, fmt::format("{}[{}]", path, i++)));
    return out;
}

} // namespace t2n::json
