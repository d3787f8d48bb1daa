// The studio's panes, in one list: the main tabs in their order (Ctrl+1..4),
// then the docks. A new view is a file with its Pane and register function,
// and one line here (see pane.h for why the list is explicit).
#include "studio/pane.h"

namespace t2n::ui {

void registerModelPane(PaneRegistry& r);      // model_pane.cpp
void registerPassesPane(PaneRegistry& r);     // passes_pane.cpp
void registerExportPane(PaneRegistry& r);     // export_pane.cpp
void registerResultsPane(PaneRegistry& r);    // results_pane.cpp
void registerPropertiesPane(PaneRegistry& r); // properties_pane.cpp
void registerLogPane(PaneRegistry& r);        // log_pane.cpp

PaneRegistry studioPanes() {
    PaneRegistry r;
    registerModelPane(r);
    registerPassesPane(r);
    registerExportPane(r);
    registerResultsPane(r);
    registerPropertiesPane(r);
    registerLogPane(r);
    return r;
}

} // namespace t2n::ui
