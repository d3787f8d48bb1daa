// The studio's name and version as shown in its windows and metainfo.
#pragma once

#include <QString>

namespace t2n::ui {

QString studioTitle();

} // namespace t2n::ui
