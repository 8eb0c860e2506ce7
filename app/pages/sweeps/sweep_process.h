// Runs `lipschitz-cli sweep … --json` as a child process for the Sweeps page: the sweep
// outlives nothing it should not (Stop sends SIGINT: every run stops with status `stopped`;
// closing the page's window stops it the same way) and its JSON events arrive as signals on
// the GUI thread, which never waits on it.
#pragma once

#include <QObject>
#include <QProcess>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace lwb::app::pages {

class SweepProcess : public QObject {
  Q_OBJECT

 public:
  explicit SweepProcess(QObject* parent = nullptr);
  ~SweepProcess() override;

  // `args` after the subcommand word: --spec, --out, --backend, … (--json is added).
  bool start(const QStringList& args, QString* error);
  void stop();  // SIGINT: the sweep stops its runs cleanly
  bool isRunning() const { return process_.state() != QProcess::NotRunning; }
  QString errorOutput() const { return stderr_; }

  // Runs `lipschitz-cli sweep … --dry-run --json` to completion (a few hundred ms; used for
  // the plan and the batch script) and returns its plan object, or nullopt with *error.
  static std::optional<nlohmann::json> dryRun(const QStringList& args, QString* error);

 Q_SIGNALS:
  void event(const nlohmann::json& e);  // progress, point, note, summary
  void finished(int exitCode, const QString& errorText);

 private:
  void readEvents();

  QProcess process_;
  QByteArray pending_;
  QString stderr_;
};

}  // namespace lwb::app::pages
