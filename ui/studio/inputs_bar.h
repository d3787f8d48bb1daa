// The strip above the model's panes that says, in one sentence, what the
// studio did on its own and what to do next: how to begin (Open model), the
// inputs t2n proposed (Export, Change inputs), the inputs it could not find,
// or a model that could not be opened while another stays open. KMessageWidget's role,
// without the KDE dependency.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace t2n::ui {

class InputsBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };
    /// The buttons beside the text.
    enum class Actions { None, ExportOrChange, Open };

    explicit InputsBar(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& text, Actions actions);
    QString text() const;
    Kind kind() const { return kind_; }

Q_SIGNALS:
    void exportRequested();
    void changeInputsRequested();
    void openRequested();

private:
    void applyTint();
    Kind kind_ = Kind::Information;
    QLabel* text_;
    QPushButton* export_;
    QPushButton* change_;
    QPushButton* open_;
};

} // namespace t2n::ui
