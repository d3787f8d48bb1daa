// Reading recipe JSON with errors that name the JSON path ("$.harden.skip[1]
// is number, expected a string") and a hint: the value readers shared by the
// recipe (util/recipe.cpp) and the option table's rows (util/option_table.cpp).
#pragma once

#include "t2n/error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace t2n::json {

using Json = nlohmann::ordered_json;

/// A usage error of the load stage: "recipe: PATH WHAT".
Error bad(const std::string& path, const std::string& what, std::string hint);

/// The JSON document `text`, refusing an object that gives a key twice
/// (nlohmann keeps the last silently; other readers keep the first): bad()
/// naming the object's path. Throws nlohmann::json::exception for text that
/// is not JSON.
Json parseWithoutDuplicateKeys(std::string_view text);

/// One JSON object of the recipe: reads the keys it knows and refuses the rest.
class Object {
public:
    Object(const Json& j, std::string path);

    template <class Read> void field(const std::string& key, Read&& read) {
        known_.push_back(key);
        if (j_.contains(key))
            read(j_.at(key), path_ + "." + key);
    }
    /// Throws for a key no field() asked for.
    void done() const;

private:
    const Json& j_;
    std::string path_;
    std::vector<std::string> known_;
};

std::string str(const Json& j, const std::string& path);
bool boolean(const Json& j, const std::string& path);
int64_t integer(const Json& j, const std::string& path);
/// A count or a size: an integer from 0 to `max`.
int64_t counted(const Json& j, const std::string& path, int64_t max);
const Json& array(const Json& j, const std::string& path);
std::vector<std::string> strings(const Json& j, const std::string& path);

/// Values that have a text form parse through it, with the JSON path in front.
template <class F> auto parsed(const std::string& path, F&& parse) {
    try {
        return parse();
    } catch (const Error& e) {
        throw bad(path, e.message(), e.hint());
    }
}

} // namespace t2n::json
