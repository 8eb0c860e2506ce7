// Runs lipschitz-cli (LWB_CLI_PATH) in a child process for the CLI suites: exit code (-2 for
// a crash, -1 for a timeout), stdout and stderr.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace lwb::test {

struct CliResult {
  int code = -1;
  QByteArray out, err;
};

inline CliResult runCli(const QStringList& args, int timeoutMs = 300000) {
  QProcess p;
  p.start(QStringLiteral(LWB_CLI_PATH), args);
  if (!p.waitForFinished(timeoutMs)) return {};
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(), p.readAllStandardError()};
}

}  // namespace lwb::test
