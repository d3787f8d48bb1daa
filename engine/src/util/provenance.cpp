#include "t2n/provenance.h"

namespace t2n {

const ProvenanceLine* Provenance::atLine(int line) const {
    for (const auto& l : lines)
        if (l.line == line)
            return &l;
    return nullptr;
}

const ProvenanceLine* Provenance::defining(const std::string& identifier) const {
    for (const auto& l : lines)
        for (const auto& id : l.identifiers)
            if (id == identifier)
                return &l;
    return nullptr;
}

std::vector<int> Provenance::linesOfIrNode(int irNode) const {
    std::vector<int> out;
    for (const auto& l : lines)
        if (l.irNode == irNode)
            out.push_back(l.line);
    return out;
}

std::vector<int> Provenance::linesOfTorchNode(int64_t torchNode) const {
    std::vector<int> out;
    for (const auto& l : lines)
        if (l.torchNode == torchNode)
            out.push_back(l.line);
    return out;
}

} // namespace t2n
