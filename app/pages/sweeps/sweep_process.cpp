#include "app/pages/sweeps/sweep_process.h"

#include "app/runs/cli_program.h"

#include "io/json_read.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStandardPaths>

#include <signal.h>

namespace lwb::app::pages {

SweepProcess::SweepProcess(QObject* parent) : QObject(parent) {
  connect(&process_, &QProcess::readyReadStandardOutput, this, &SweepProcess::readEvents);
  connect(&process_, &QProcess::readyReadStandardError, this,
          [this] { stderr_ += QString::fromUtf8(process_.readAllStandardError()); });
  connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    readEvents();
    stderr_ += QString::fromUtf8(process_.readAllStandardError());
    Q_EMIT finished(status == QProcess::NormalExit ? code : -1, stderr_.trimmed());
  });
  connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) Q_EMIT finished(-1, tr("cannot start %1").arg(process_.program()));
  });
}

SweepProcess::~SweepProcess() {
  if (isRunning()) {
    stop();
    if (!process_.waitForFinished(30000)) process_.kill();
  }
}

bool SweepProcess::start(const QStringList& args, QString* error) {
  const QString cli = findCliProgram();
  if (cli.isEmpty()) {
    if (error) *error = tr("lipschitz-cli was not found next to the program or in PATH (set LWB_CLI)");
    return false;
  }
  stderr_.clear();
  pending_.clear();
  process_.start(cli, QStringList{QStringLiteral("sweep")} << args << QStringLiteral("--json"));
  return true;
}

void SweepProcess::stop() {
  if (isRunning()) ::kill(static_cast<pid_t>(process_.processId()), SIGINT);
}

void SweepProcess::readEvents() {
  pending_ += process_.readAllStandardOutput();
  for (int nl; (nl = pending_.indexOf('\n')) >= 0;) {
    const QByteArray line = pending_.left(nl);
    pending_.remove(0, nl + 1);
    auto j = jsonio::tryParse(std::string_view(line.constData(), static_cast<size_t>(line.size())));
    if (j && j->is_object()) Q_EMIT event(*j);
  }
}

std::optional<nlohmann::json> SweepProcess::dryRun(const QStringList& args, QString* error) {
  const QString cli = findCliProgram();
  if (cli.isEmpty()) {
    if (error) *error = tr("lipschitz-cli was not found next to the program or in PATH (set LWB_CLI)");
    return std::nullopt;
  }
  QProcess p;
  p.start(cli, QStringList{QStringLiteral("sweep")} << args << QStringLiteral("--dry-run") << QStringLiteral("--json"));
  if (!p.waitForFinished(60000) || p.exitCode() != 0) {
    if (error) *error = QString::fromUtf8(p.readAllStandardError()).trimmed();
    return std::nullopt;
  }
  const QByteArray out = p.readAllStandardOutput();
  auto j = jsonio::tryParse(std::string_view(out.constData(), static_cast<size_t>(out.size()))).value_or(nlohmann::json());
  if (!j.is_object()) {
    if (error) *error = tr("lipschitz-cli printed no plan");
    return std::nullopt;
  }
  return j;
}

}  // namespace lwb::app::pages
