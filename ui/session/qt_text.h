// std::string and string_view to QString: the engine speaks UTF-8.
#pragma once

#include <QString>

#include <string_view>

namespace t2n::ui {

inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace t2n::ui
