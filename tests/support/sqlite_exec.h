// Runs SQL statements on a database file for tests that build hostile or legacy run indexes
// by hand (tst_run_index, tst_hostile_files); fails the calling test with SQLite's message.
#pragma once

#include <QtTest/QtTest>
#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace lwb::test {

inline void sql(const std::filesystem::path& file, const std::string& statements) {
  sqlite3* db = nullptr;
  QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &err);
  const QString msg = err ? QString::fromUtf8(err) : QString();
  sqlite3_free(err);
  sqlite3_close(db);
  QVERIFY2(rc == SQLITE_OK, qPrintable(msg));
}

}  // namespace lwb::test
