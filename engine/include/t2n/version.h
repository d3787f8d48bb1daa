// The engine's version, as recorded in reports and tract_core_properties.
#pragma once

#include <string_view>

namespace t2n {

std::string_view version();

} // namespace t2n
