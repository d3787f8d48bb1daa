// How the tract release being modelled reads operations whose meaning changed
// between releases. Free of LibTorch: the check computes it from the target
// version (check/tract_readings.h, rows "reading:..." of
// target/tract_versions.cpp) and hands it to the interpreter.
#pragma once

namespace t2n::interp {

/// The default is the newest release t2n knows.
struct TractReadings {
    /// box / avg_pool with border 'constant' divide by the whole window,
    /// padded cells included (tract after 0.23.5, nnef/src/ops/nnef/deser.rs
    /// `count_include_pad: border == "constant"`). Up to 0.23.5 tract divides
    /// by the real cells whatever the border.
    bool constantPoolBorderCountsPadding = true;
};

} // namespace t2n::interp
