// The undo stack of a form. The form says what its state is (capture: a
// QVariantMap keyed by what a person calls each field, tables as lists of
// rows) and how to put one back (restore); after each change it calls
// record(), which pushes the step from the last state to the new one. Steps
// are named after the field ("Undo remove a row from inputs"), and typing
// in one text field is one step. A form filled by the program (a model
// opened, a recipe loaded) starts a new history with reset().
#pragma once

#include <QObject>
#include <QVariantMap>

#include <functional>

class QUndoStack;

namespace t2n::ui {

class FormHistory : public QObject {
    Q_OBJECT
public:
    FormHistory(std::function<QVariantMap()> capture,
                std::function<void(const QVariantMap&)> restore, QObject* parent = nullptr);

    QUndoStack* stack() const { return stack_; }
    /// Pushes a step when the form differs from its last recorded state.
    void record();
    /// Forgets every step; the form as it is now is the new starting point.
    void reset();

    /// "remove a row from inputs", "edit target"...: what went from `before`
    /// to `after` (the first field that differs).
    static QString describe(const QVariantMap& before, const QVariantMap& after);

private:
    friend class FormStep;
    void apply(const QVariantMap& state);

    std::function<QVariantMap()> capture_;
    std::function<void(const QVariantMap&)> restore_;
    QUndoStack* stack_;
    QVariantMap last_;
    bool applying_ = false;
};

} // namespace t2n::ui
