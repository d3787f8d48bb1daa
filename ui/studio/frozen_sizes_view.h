// The Results tab's "where a size froze" table: shown when a dynamic axis
// failed (in the translation or at the check's second size), hidden
// otherwise. Activating a row asks for its node, which the window selects on
// every graph and text.
#pragma once

#include "session/session_state.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace t2n::ui {

class FrozenSizesModel;

class FrozenSizesView : public QWidget {
    Q_OBJECT
public:
    explicit FrozenSizesView(QWidget* parent = nullptr);
    /// The table of `state`'s last run (hidden when nothing froze).
    void showState(const SessionState& state);
    FrozenSizesModel* model() const { return model_; }
    QTableView* table() const { return table_; }

Q_SIGNALS:
    void nodeRequested(const t2n::NodeRef& node, const QString& nnefIdentifier);

private:
    QLabel* title_;
    QTableView* table_;
    FrozenSizesModel* model_;
};

} // namespace t2n::ui
