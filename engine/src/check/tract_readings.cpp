#include "check/tract_readings.h"

namespace t2n::check {

interp::TractReadings tractReadings(const target::SemVer& version) {
    interp::TractReadings r;
    r.constantPoolBorderCountsPadding =
        target::tractHas("reading:box:constant-border-counts-padding", version);
    return r;
}

} // namespace t2n::check
