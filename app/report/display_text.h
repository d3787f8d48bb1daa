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

/// displayText for a terminal: every line after the first that does not
/// start with a space is indented by two, so that only t2n's own lines
/// start at column 0 ("t2n: ..."): a newline in a path or a model's
/// string cannot forge one ("t2n: wrote x.nnef.tgz").
std::string terminalText(std::string_view text);

} // namespace t2n::report
