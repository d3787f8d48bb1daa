// Text from outside (model strings, paths, messages quoting them) made safe
// to show: in the HTML report and on a terminal a raw bidi override
// (U+202E) reorders what follows it, an escape sequence drives the
// terminal, and a byte that is not UTF-8 breaks the page's encoding.
#pragma once

#include <string>
#include <string_view>

namespace t2n::report {

/// `text` with every invalid UTF-8 byte as U+FFFD, every control character
/// but tab (and newline when `keepNewlines`) as \xNN, every C1 control as
/// \u00NN, and every bidi control (U+061C, U+200E/F, U+202A-E, U+2066-9) as
/// [U+NNNN], so that it reads in the order its bytes have.
std::string displayText(std::string_view text, bool keepNewlines = true);

} // namespace t2n::report
