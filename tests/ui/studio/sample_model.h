// The bundled sample CNN as the studio suites open it.
#pragma once

#include "session/session_controller.h"
#include "studio/main_window.h"
#include "support.h"

#include "t2n/input_spec.h"

#include <QString>

#include <vector>

namespace t2n::test {

inline QString sampleModel() {
    return QString::fromStdString((sourceDir() / "resources/sample/sample_cnn.pt").string());
}

inline std::vector<InputSpec> sampleInputs() {
    return {InputSpec::parse("image:1x3x32x32:f32")};
}

/// Opens the sample with its inputs; true once it is translated.
inline bool openSample(ui::MainWindow& w) {
    w.openModel(sampleModel(), sampleInputs());
    return w.controller()->waitIdle() && w.controller()->state()->translated;
}

} // namespace t2n::test
