#include "session/ui_version.h"

#include "t2n/session.h"

namespace t2n::ui {

QString studioTitle() {
    const auto v = t2n::version();
    return QStringLiteral("t2n studio %1")
        .arg(QString::fromUtf8(v.data(), static_cast<int>(v.size())));
}

} // namespace t2n::ui
