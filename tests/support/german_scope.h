// German for the span of one test: the app's translator (:/i18n, compiled into the
// workbench library) and a German number locale, both undone when the scope ends, so a
// layout can be measured with the longer German strings in a suite that runs in English.
#pragma once

#include <QCoreApplication>
#include <QLocale>
#include <QTest>
#include <QTranslator>

namespace lwb::test {

class GermanScope {
 public:
  explicit GermanScope(bool on) : on_(on) {
    if (!on_) return;
    loaded_ = translator_.load(QStringLiteral(":/i18n/lipschitz-workbench_de.qm"));
    QCoreApplication::installTranslator(&translator_);
    QLocale german(QLocale::German, QLocale::Germany);
    german.setNumberOptions(QLocale::OmitGroupSeparator);  // as applyLanguage does
    QLocale::setDefault(german);
  }
  ~GermanScope() {
    if (!on_) return;
    QCoreApplication::removeTranslator(&translator_);
    QLocale::setDefault(QLocale::c());
  }
  GermanScope(const GermanScope&) = delete;
  GermanScope& operator=(const GermanScope&) = delete;
  // False when German was asked for and the translations could not be loaded.
  bool ok() const { return !on_ || loaded_; }

 private:
  bool on_ = false, loaded_ = false;
  QTranslator translator_;
};

// Data rows "en" and "de" of a bool column "german", for a test measured in both languages.
inline void addLanguageRows() {
  QTest::addColumn<bool>("german");
  QTest::newRow("en") << false;
  QTest::newRow("de") << true;
}

}  // namespace lwb::test
