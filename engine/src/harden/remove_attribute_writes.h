// Pass remove_attribute_writes: a forward() that assigns a module attribute
// (self.running = 0.9 * self.running + ..., a step counter) keeps state
// between calls, which an NNEF graph cannot: the archive computes every call
// from the attribute's saved value. The reads after an assignment take the
// assigned value (what that call computes with), the assignment is dropped,
// and a warning names the attribute and its line (issue 26). An attribute
// assigned inside a branch or a loop is left alone until the folding group
// has inlined it (the pass repeats with that group); one still there is
// refused by the trace.
// An attribute assigned before anything reads it (RAFT's CorrBlock keeps the
// pyramid build_pyramid() computes for index_pyramid() to read) carries
// nothing between calls: its reads take the value with a remark, no warning.
// A write into an attribute's tensor in place (self.running.mul_(0.9)) is not
// rewritten but warned about: the archive holds the attribute as the
// export's own runs of forward() left it.
#pragma once

#include "harden/pass.h"

namespace t2n::harden {

/// Statistics: attribute_writes_removed, attribute_reads_forwarded.
void removeAttributeWrites(PassContext& ctx);

} // namespace t2n::harden
