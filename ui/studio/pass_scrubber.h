// The scrubber on the pass graph (iongraph's pass slider): Previous, a slider
// and Next over the passes the list shows, the pass's one-line description,
// its time and node delta, a legend of the marks and the filters. It only
// displays and forwards; PassStepper decides which pass a position means.
#pragma once

#include "graph/graph_data.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QSlider;

namespace t2n::ui {

class PassScrubber : public QWidget {
    Q_OBJECT
public:
    explicit PassScrubber(QWidget* parent = nullptr);

    /// Positions 0 .. count - 1 (the rows the pass list shows).
    void setRange(int count);
    /// Moves the handle without positionChanged.
    void setPosition(int position);
    int position() const;
    /// "remove_tensor_mutation (round 1)", its summary, "4.9 ms · 150 → 150
    /// nodes", and with `diff` its counts of added, removed and modified nodes.
    void setStep(const QString& title, const QString& description, const QString& figures,
                 const GraphDiff* diff = nullptr);

    QSlider* slider() const { return slider_; }
    QPushButton* previousButton() const { return previous_; }
    QPushButton* nextButton() const { return next_; }
    QCheckBox* hideNoOp() const { return hideNoOp_; }
    QCheckBox* onlyChanged() const { return onlyChanged_; }
    QString title() const;
    QString description() const;
    /// The figures as plain text.
    QString figures() const;

Q_SIGNALS:
    void positionChanged(int position);
    /// Lay the graph shown out afresh (the steps placed from it follow).
    void relayoutRequested();

private:
    void updateButtons();

    QPushButton* previous_;
    QSlider* slider_;
    QPushButton* next_;
    QLabel* counter_;
    QLabel* title_;
    QLabel* description_;
    QLabel* figures_;
    QCheckBox* hideNoOp_;
    QCheckBox* onlyChanged_;
    QString figuresText_;
};

} // namespace t2n::ui
