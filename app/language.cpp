#include "app/language.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QTranslator>

namespace lwb::app {
namespace {

const QString kSettingKey = QStringLiteral("ui/language");

bool installTranslator(const QString& file, const QString& folder) {
  auto* translator = new QTranslator(QCoreApplication::instance());
  if (translator->load(file, folder)) return QCoreApplication::installTranslator(translator);
  delete translator;
  return false;
}

}  // namespace

QStringList availableLanguages() { return {QStringLiteral("en"), QStringLiteral("de")}; }

QString languageSetting() {
  const QString value = QSettings().value(kSettingKey).toString();
  return availableLanguages().contains(value) ? value : QString();
}

void setLanguageSetting(const QString& language) {
  if (language.isEmpty()) QSettings().remove(kSettingKey);
  else QSettings().setValue(kSettingKey, language);
}

QString applyLanguage(const QString& language) {
  QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
  QString code = QLocale::languageToCode(locale.language());
  if (!availableLanguages().contains(code)) code = QStringLiteral("en");
  if (code != QLatin1String("en")) {
    installTranslator(QStringLiteral("lipschitz-workbench_") + code, QStringLiteral(":/i18n"));
    // Qt's own strings (standard dialog buttons), when the system has them (qt6-translations-l10n).
    installTranslator(QStringLiteral("qtbase_") + code, QLibraryInfo::path(QLibraryInfo::TranslationsPath));
  }
  // Displays use the locale's decimal separator; no group separators (a German "1.000" would
  // read as one).
  locale.setNumberOptions(QLocale::OmitGroupSeparator);
  QLocale::setDefault(locale);
  return code;
}

QMenu* createLanguageMenu(QWidget* parent) {
  auto* menu = new QMenu(QCoreApplication::translate("Language", "Lan&guage"), parent);
  menu->setObjectName(QStringLiteral("languageMenu"));
  auto* group = new QActionGroup(menu);
  const QString current = languageSetting();
  // Language names are shown in their own language, as language pickers do.
  const std::pair<QString, QString> choices[] = {{QString(), QCoreApplication::translate("Language", "System language")},
                                                 {QStringLiteral("en"), QStringLiteral("English")},
                                                 {QStringLiteral("de"), QStringLiteral("Deutsch")}};
  for (const auto& [code, name] : choices) {
    QAction* a = menu->addAction(name);
    a->setCheckable(true);
    a->setChecked(code == current);
    a->setData(code);
    group->addAction(a);
    QObject::connect(a, &QAction::triggered, parent, [parent, code] {
      if (code == languageSetting()) return;
      setLanguageSetting(code);
      QMessageBox::information(parent, QCoreApplication::translate("Language", "Language"),
                               QCoreApplication::translate("Language", "The language changes when Lipschitz Workbench is started again."));
    });
  }
  return menu;
}

}  // namespace lwb::app
