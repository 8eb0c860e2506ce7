// Helpers of the sweep suites: run lipschitz-cli, write a tiny sweep spec, read a sweep
// directory's statuses and index.
#pragma once

#include "support/test_files.h"
#include "support/tiny_run.h"
#include "sweep/run_index.h"

#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace lwb::test {

struct CliResult {
  int code = -1;
  QByteArray out, err;
  std::vector<nlohmann::json> events() const {  // --json lines
    std::vector<nlohmann::json> out_;
    for (const QByteArray& line : out.split('\n')) {
      auto j = nlohmann::json::parse(line.toStdString(), nullptr, false);
      if (j.is_object()) out_.push_back(j);
    }
    return out_;
  }
};

inline CliResult runCli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                        int timeoutMs = 300000) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(LWB_CLI_PATH), args);
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    return {-3, p.readAllStandardOutput(), "timed out: " + p.readAllStandardError()};
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(), p.readAllStandardError()};
}

// base.json (the tiny modular-addition run) and spec.json with `grid` next to it.
inline QString writeSpec(const QString& folder, const nlohmann::json& grid, int64_t steps,
                         const nlohmann::json& seeds = nlohmann::json()) {
  writeFile(folder + "/base.json", tinyConfig(steps).dump());
  nlohmann::json spec{{"base", "base.json"}, {"grid", grid}, {"steps", steps}};
  if (!seeds.is_null()) spec["seeds"] = seeds;
  writeFile(folder + "/spec.json", spec.dump());
  return folder + "/spec.json";
}

// runs/<id> -> first line of its status file ("" when absent).
inline std::map<std::string, std::string> pointStatuses(const QString& sweepDir) {
  std::map<std::string, std::string> out;
  const std::filesystem::path runs = (sweepDir + "/runs").toStdString();
  if (!std::filesystem::is_directory(runs)) return out;
  for (const auto& e : std::filesystem::directory_iterator(runs)) {
    std::ifstream in(e.path() / "status");
    std::string line;
    std::getline(in, line);
    out[e.path().filename().string()] = line;
  }
  return out;
}

inline int countEntries(const QString& folder) {
  return static_cast<int>(QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

}  // namespace lwb::test
