// t2n-studio: opens the main window over an engine session.
#include "session/ui_version.h"

#include <QApplication>
#include <QLabel>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("t2n-studio"));
    QLabel placeholder(t2n::ui::studioTitle());
    placeholder.show();
    return QApplication::exec();
}
