// Alt+letter clashes of a window, in whatever language is loaded: the same letter twice in
// the menu bar or in one menu (the letter then only cycles the highlight), or a page's
// button, tab, group or labelled field on a menu bar letter (Alt+L switched to an Attention
// Lab tab instead of opening the German "Lauf" menu).
#pragma once

#include <QAbstractButton>
#include <QGroupBox>
#include <QLabel>
#include <QMainWindow>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTabBar>

#include <algorithm>

namespace lwb::test {

// The letter after a single '&' (lower case), or a null QChar.
inline QChar mnemonicOf(const QString& text) {
  for (qsizetype i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != QLatin1Char('&')) continue;
    if (text[i + 1] == QLatin1Char('&')) {
      ++i;
      continue;
    }
    return text[i + 1].toLower();
  }
  return {};
}

inline void menuClashes(const QString& where, const QList<QAction*>& actions, QStringList& out) {
  QMap<QChar, QString> seen;
  for (QAction* a : actions) {
    if (a->isSeparator()) continue;
    if (a->menu()) menuClashes(a->text(), a->menu()->actions(), out);
    const QChar m = mnemonicOf(a->text());
    if (m.isNull()) continue;
    if (seen.contains(m)) out << QStringLiteral("%1: '%2' and '%3'").arg(where, seen[m], a->text());
    else seen[m] = a->text();
  }
}

inline QStringList mnemonicClashes(QMainWindow& w, const QList<QWidget*>& pages) {
  QStringList out;
  menuClashes(QStringLiteral("menu bar"), w.menuBar()->actions(), out);
  QMap<QChar, QString> bar;
  for (QAction* a : w.menuBar()->actions())
    if (const QChar m = mnemonicOf(a->text()); !m.isNull()) bar[m] = a->text();
  for (QWidget* page : pages) {
    QStringList texts;
    for (auto* b : page->findChildren<QAbstractButton*>()) texts << b->text();
    for (auto* g : page->findChildren<QGroupBox*>()) texts << g->title();
    for (auto* l : page->findChildren<QLabel*>())
      if (l->buddy()) texts << l->text();
    for (auto* t : page->findChildren<QTabBar*>())
      for (int i = 0; i < t->count(); ++i) texts << t->tabText(i);
    for (const QString& text : texts)
      if (const QChar m = mnemonicOf(text); !m.isNull() && bar.contains(m))
        out << QStringLiteral("%1: '%2' takes the menu bar's Alt+%3 ('%4')").arg(page->objectName(), text, m, bar[m]);
  }
  return out;
}

// Push buttons of a page without an Alt letter, and letters two of them share (Alt then only
// moves the focus between the two). Buttons without a letter in their text (icons, ◀ ▶) are
// left out.
inline QStringList pageButtonLetterProblems(QWidget* page) {
  QStringList out;
  QMap<QChar, QString> seen;
  for (auto* b : page->findChildren<QPushButton*>()) {
    const QString text = b->text();
    if (std::none_of(text.begin(), text.end(), [](QChar c) { return c.isLetter(); })) continue;
    const QChar m = mnemonicOf(text);
    if (m.isNull()) out << QStringLiteral("%1: '%2' has no Alt letter").arg(page->objectName(), text);
    else if (seen.contains(m)) out << QStringLiteral("%1: '%2' and '%3' share Alt+%4").arg(page->objectName(), seen[m], text, m);
    else seen[m] = text;
  }
  return out;
}

// The pages whose buttons all carry Alt letters, each its own. The Attention Lab has letters
// too, but repeats them across its tabs (one Cancel per tab; only the shown tab's answer).
inline const QStringList kPagesWithButtonLetters{QStringLiteral("sweeps"), QStringLiteral("compare"), QStringLiteral("robustness"),
                                                 QStringLiteral("inspector"), QStringLiteral("cliplab"), QStringLiteral("train")};

// pageButtonLetterProblems of those pages of a window (`pages`: its Page list).
template <class Pages>
QStringList buttonLetterProblems(const Pages& pages) {
  QStringList out;
  for (auto* p : pages)
    if (kPagesWithButtonLetters.contains(p->id())) out << pageButtonLetterProblems(p->widget());
  return out;
}

}  // namespace lwb::test
