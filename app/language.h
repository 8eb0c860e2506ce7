// The UI language: the system locale by default, or the View → Language choice (QSettings
// "ui/language": "en" or "de"; applied at the next start), or --lang for one session. The
// German translation is compiled in (:/i18n, translations/CMakeLists.txt). The chosen language
// also sets the default QLocale, which every number shown in the UI is formatted with
// (widgets/number_format.h); files, JSON, CSV and config values stay in the C locale.
#pragma once

#include <QString>
#include <QStringList>

class QMenu;
class QWidget;

namespace lwb::app {

// The languages the UI has ("en", "de").
QStringList availableLanguages();

// The stored choice: "" (follow the system), "en" or "de".
QString languageSetting();
void setLanguageSetting(const QString& language);

// Installs the translators for `language` ("" = the system locale's language; one without a
// translation falls back to English) and sets the default QLocale. Call once, after the
// QApplication exists and before any window is built. Returns the language in effect.
QString applyLanguage(const QString& language);

// View → Language: System / English / Deutsch, checkable; a change is stored and a message
// says it applies after a restart.
QMenu* createLanguageMenu(QWidget* parent);

}  // namespace lwb::app
