#include "t2n/input_proposal.h"

#include <nlohmann/json.hpp>

namespace t2n {

std::vector<InputSpec> InputProposal::specs() const {
    std::vector<InputSpec> out;
    for (const auto& i : inputs)
        out.push_back(i.spec);
    return out;
}

std::string InputProposal::flags() const {
    std::string out;
    for (const auto& i : inputs)
        out += (out.empty() ? "--input " : " --input ") + i.spec.toString();
    return out;
}

std::string InputProposal::toJson() const {
    using J = nlohmann::ordered_json;
    J j;
    j["confirmed"] = confirmed;
    j["flags"] = flags();
    j["inputs"] = J::array();
    for (const auto& i : inputs)
        j["inputs"].push_back({{"name", i.spec.name},
                               {"spec", i.spec.toString()},
                               {"shape", i.spec.shape},
                               {"dtype", std::string(dtypeName(i.spec.dtype))},
                               {"reason", i.reason}});
    j["defaulted"] = defaulted;
    j["attempts"] = J::array();
    for (const auto& a : attempts) {
        J specs = J::array();
        for (const auto& s : a.specs)
            specs.push_back(s.toString());
        j["attempts"].push_back(
            {{"inputs", specs}, {"ran", a.ran}, {"error", a.error}, {"seconds", a.seconds}});
    }
    return j.dump(2);
}

} // namespace t2n
