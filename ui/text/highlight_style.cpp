#include "text/highlight_style.h"

#include <QEvent>
#include <QGuiApplication>
#include <QMetaObject>

#include <array>

namespace t2n::ui {

QColor blend(const QColor& base, const QColor& tint, double amount) {
    return QColor::fromRgbF(base.redF() * (1 - amount) + tint.redF() * amount,
                            base.greenF() * (1 - amount) + tint.greenF() * amount,
                            base.blueF() * (1 - amount) + tint.blueF() * amount);
}

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}

namespace {

struct RoleStyle {
    const char* light;
    const char* dark;
    bool bold;
    bool italic;
};

// Breeze-like colours, chosen to stay readable on both bases.
constexpr std::array<RoleStyle, static_cast<size_t>(TokenRole::Count)> kStyles{{
    {"#1f1c1b", "#cfcfc2", true, false},  // Keyword
    {"#644a9b", "#b08fe0", true, false},  // Function
    {"#0057ae", "#27aeae", false, false}, // Variable
    {"#0057ae", "#2980b9", false, false}, // DataType
    {"#8f5902", "#e0b050", false, false}, // Attribute
    {"#b08000", "#f67400", false, false}, // Number
    {"#bf0303", "#f44f4f", false, false}, // String
    {"#3daee9", "#3daee9", false, false}, // Escape
    {"#898887", "#7a7c7d", false, true},  // Comment
    {"#ca60ca", "#c86ec8", false, false}, // Operator
    {"#006e28", "#27ae60", false, true},  // SourceLocation
    {"#b3431f", "#fdbc4b", true, false},  // ControlFlow
    {"#aa5500", "#e08a4f", false, false}, // Literal
}};

} // namespace

QTextCharFormat tokenFormat(TokenRole role, bool dark) {
    const RoleStyle& s = kStyles[static_cast<size_t>(role)];
    QTextCharFormat f;
    f.setForeground(QColor(QLatin1String(dark ? s.dark : s.light)));
    if (s.bold)
        f.setFontWeight(QFont::Bold);
    if (s.italic)
        f.setFontItalic(true);
    return f;
}

LineColors lineColors(const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    const double a = isDarkPalette(palette) ? 0.30 : 0.22;
    return {blend(base, QColor(0x2e, 0xcc, 0x40), a),
            blend(base, QColor(0xe7, 0x4c, 0x3c), a),
            blend(base, QColor(0xf1, 0xc4, 0x0f), a),
            blend(base, palette.color(QPalette::Mid), 0.25),
            blend(base, palette.color(QPalette::Highlight), a + 0.08),
            blend(base, palette.color(QPalette::Text), 0.06)};
}

QColor verdictColor(bool ok, const QPalette& palette) {
    if (isDarkPalette(palette))
        return ok ? QColor(0x6f, 0xd8, 0x8a) : QColor(0xff, 0x7a, 0x85);
    return ok ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb0, 0x00, 0x20);
}

QString tintedBannerSheet(const QString& selector, const QColor& tint) {
    const QPalette palette = QGuiApplication::palette();
    const QColor fill = blend(palette.color(QPalette::Window), tint, 0.18);
    return QStringLiteral("%1 { background: %2; color: %3; border: 1px solid %4; "
                          "border-radius: 4px; }")
        .arg(selector, fill.name(), palette.color(QPalette::WindowText).name(), tint.name());
}

namespace {

class PaletteFollower : public QObject {
public:
    PaletteFollower(QObject* owner, std::function<void()> apply)
        : QObject(owner), apply_(std::move(apply)) {
        qGuiApp->installEventFilter(this);
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        // The event may come before the palette is final: applied queued.
        if (watched == qGuiApp && event->type() == QEvent::ApplicationPaletteChange)
            QMetaObject::invokeMethod(this, apply_, Qt::QueuedConnection);
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> apply_;
};

} // namespace

void followApplicationPalette(QObject* owner, std::function<void()> apply) {
    new PaletteFollower(owner, std::move(apply));
}

} // namespace t2n::ui
