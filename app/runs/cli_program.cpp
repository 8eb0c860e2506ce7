#include "app/runs/cli_program.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStringList>

namespace lwb::app {

QString findCliProgram() {
  QStringList candidates;
  if (const QString env = qEnvironmentVariable("LWB_CLI"); !env.isEmpty()) candidates << env;
  candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/lipschitz-cli");
#ifdef LWB_CLI_BUILD_PATH
  candidates << QStringLiteral(LWB_CLI_BUILD_PATH);
#endif
  candidates << QStandardPaths::findExecutable(QStringLiteral("lipschitz-cli"));
  for (const QString& c : candidates)
    if (!c.isEmpty() && QFileInfo(c).isExecutable()) return c;
  return {};
}

}  // namespace lwb::app
