// The strip above the model's panes that says, in one sentence, what the
// studio did on its own and what to do next: the inputs t2n proposed (with
// Export and Change buttons), the inputs it could not find, or a model that
// could not be opened while another stays open. KMessageWidget's role,
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

    explicit InputsBar(QWidget* parent = nullptr);

    /// Shows `text`; `actions` shows Export and Change inputs.
    void showMessage(Kind kind, const QString& text, bool actions);
    QString text() const;
    Kind kind() const { return kind_; }

Q_SIGNALS:
    void exportRequested();
    void changeInputsRequested();

private:
    Kind kind_ = Kind::Information;
    QLabel* text_;
    QPushButton* export_;
    QPushButton* change_;
};

} // namespace t2n::ui
