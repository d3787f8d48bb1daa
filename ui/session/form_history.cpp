#include "session/form_history.h"

#include <QUndoStack>

#include <utility>

namespace t2n::ui {

namespace {
/// The one field in which two states differ, or "" (none, or several).
QString onlyChangedField(const QVariantMap& before, const QVariantMap& after) {
    QString field;
    for (auto it = after.begin(); it != after.end(); ++it)
        if (before.value(it.key()) != it.value()) {
            if (!field.isEmpty())
                return {};
            field = it.key();
        }
    return field;
}
} // namespace

/// One step of a form's history: the states before and after it. The form
/// is already in `after` when the step is pushed, so the first redo is skipped.
class FormStep : public QUndoCommand {
public:
    FormStep(FormHistory* history, QVariantMap before, QVariantMap after)
        : history_(history), before_(std::move(before)), after_(std::move(after)) {
        setText(FormHistory::describe(before_, after_));
        // Typing in a text field: one step per field, not one per key.
        const QString field = onlyChangedField(before_, after_);
        typing_ = !field.isEmpty() && after_.value(field).typeId() == QMetaType::QString;
        if (typing_)
            field_ = field;
    }
    int id() const override { return typing_ ? 1 : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* next = static_cast<const FormStep*>(other);
        if (!next->typing_ || next->field_ != field_)
            return false;
        after_ = next->after_;
        return true;
    }
    void undo() override { history_->apply(before_); }
    void redo() override {
        if (!std::exchange(first_, false))
            history_->apply(after_);
    }

private:
    FormHistory* history_;
    QVariantMap before_, after_;
    QString field_;
    bool typing_ = false;
    bool first_ = true;
};

FormHistory::FormHistory(std::function<QVariantMap()> capture,
                         std::function<void(const QVariantMap&)> restore, QObject* parent)
    : QObject(parent), capture_(std::move(capture)), restore_(std::move(restore)),
      stack_(new QUndoStack(this)) {}

void FormHistory::record() {
    if (applying_)
        return;
    QVariantMap now = capture_();
    if (now == last_)
        return;
    stack_->push(new FormStep(this, std::exchange(last_, now), now));
}

void FormHistory::reset() {
    stack_->clear();
    last_ = capture_();
}

void FormHistory::apply(const QVariantMap& state) {
    applying_ = true;
    restore_(state);
    applying_ = false;
    last_ = capture_();
}

QString FormHistory::describe(const QVariantMap& before, const QVariantMap& after) {
    for (auto it = after.begin(); it != after.end(); ++it) {
        const QVariant& was = before.value(it.key());
        if (was == it.value())
            continue;
        if (it.value().typeId() == QMetaType::QVariantList) {
            const auto rowsBefore = was.toList().size(), rowsAfter = it.value().toList().size();
            if (rowsAfter < rowsBefore)
                return tr("remove a row from %1").arg(it.key());
            if (rowsAfter > rowsBefore)
                return tr("add a row to %1").arg(it.key());
        }
        return tr("edit %1").arg(it.key());
    }
    return tr("edit the form");
}

} // namespace t2n::ui
