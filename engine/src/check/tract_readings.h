// The readings of a tract release (interp/tract_readings.h) from the version
// table: the interpreter models the release an archive targets.
#pragma once

#include "interp/tract_readings.h"
#include "target/tract_versions.h"

namespace t2n::check {

interp::TractReadings tractReadings(const target::SemVer& version);

} // namespace t2n::check
