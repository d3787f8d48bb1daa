#include "studio/inputs_bar.h"

#include "text/highlight_style.h"

#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace t2n::ui {

InputsBar::InputsBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("inputsBar"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    text_ = new QLabel(this);
    text_->setObjectName(QStringLiteral("inputsBarText"));
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::PlainText);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(text_, 1);
    export_ = new QPushButton(tr("Export…"), this);
    export_->setObjectName(QStringLiteral("inputsBarExport"));
    export_->setToolTip(tr("Write the NNEF archive with these inputs and check it (Ctrl+E)"));
    change_ = new QPushButton(tr("Change inputs"), this);
    change_->setObjectName(QStringLiteral("inputsBarChange"));
    change_->setToolTip(tr("Edit the inputs on the Export page"));
    open_ = new QPushButton(tr("Open model…"), this);
    open_->setObjectName(QStringLiteral("inputsBarOpen"));
    open_->setToolTip(tr("Open a TorchScript model (.pt, .pth, .jit) (Ctrl+O)"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Hide this message"));
    layout->addWidget(export_);
    layout->addWidget(change_);
    layout->addWidget(open_);
    layout->addWidget(close, 0, Qt::AlignTop);
    connect(export_, &QPushButton::clicked, this, &InputsBar::exportRequested);
    connect(change_, &QPushButton::clicked, this, &InputsBar::changeInputsRequested);
    connect(open_, &QPushButton::clicked, this, &InputsBar::openRequested);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    followApplicationPalette(this, [this] { applyTint(); });
    hide();
}

void InputsBar::showMessage(Kind kind, const QString& text, Actions actions) {
    kind_ = kind;
    text_->setText(text);
    export_->setVisible(actions == Actions::ExportOrChange && kind != Kind::Error);
    change_->setVisible(actions == Actions::ExportOrChange);
    open_->setVisible(actions == Actions::Open);
    applyTint();
    show();
}

// The palette's own colours, tinted: readable in light and dark themes, and
// again when the theme changes (the style sheet would keep the old colours).
// The application's palette: this widget's own is the style sheet's.
void InputsBar::applyTint() {
    const QColor tint = kind_ == Kind::Error     ? QColor(0xd0, 0x30, 0x30)
                        : kind_ == Kind::Warning ? QColor(0xe0, 0x9a, 0x00)
                                                 : QColor(0x1a, 0x73, 0xe8);
    const QString sheet = tintedBannerSheet(QStringLiteral("QFrame#inputsBar"), tint) +
                          QStringLiteral(" QLabel#inputsBarText { color: %1; }")
                              .arg(QGuiApplication::palette().color(QPalette::WindowText).name());
    if (sheet != styleSheet()) // setting it changes the palette and the style again
        setStyleSheet(sheet);
}

QString InputsBar::text() const {
    return text_->text();
}

} // namespace t2n::ui
