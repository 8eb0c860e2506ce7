#include "app/pages/sweeps/sweep_estimate.h"

#include "run/run_layout.h"
#include "run/run_status.h"
#include "sweep/run_index.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <vector>

namespace lwb::app::pages {

QString clockText(double s) {
  if (!(s >= 0)) return QStringLiteral("?");
  const qint64 t = static_cast<qint64>(s + 0.5);
  return t >= 3600 ? QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'))
                   : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

double measuredStepsPerSecond(const QString& folder, const std::string& task, const std::string& model) {
  std::vector<double> rates;
  QStringList files;
  const QDir dir(folder);
  const QString index = QString::fromLatin1(run::layout::kIndexFile);
  if (dir.exists(index)) files << dir.filePath(index);
  for (const QString& sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
    if (QFileInfo::exists(dir.filePath(sub + u'/' + index))) files << dir.filePath(sub + u'/' + index);
  for (const QString& f : files) {
    try {
      sweep::RunIndex index(f.toStdString(), sweep::RunIndex::Access::ReadOnly);
      for (const auto& r : index.rows({"", false}))
        if (run::parseStatusWord(r.status) == run::RunStatus::Finished && r.task == task && r.model == model && std::isfinite(r.stepsPerSecond) && r.stepsPerSecond > 0)
          rates.push_back(r.stepsPerSecond);
    } catch (const std::exception&) {
      // An unreadable or foreign index is no evidence either way: the estimate uses the rest.
    }
  }
  if (rates.empty()) return 0;
  std::nth_element(rates.begin(), rates.begin() + static_cast<long>(rates.size() / 2), rates.end());
  return rates[rates.size() / 2];
}

namespace {
double secondsAlone(const SweepWorkload& w) {
  return w.stepsPerSecond > 0 ? static_cast<double>(w.points) * static_cast<double>(w.stepsPerPoint) / w.stepsPerSecond : -1.0;
}
}  // namespace

double estimatedSecondsLocal(const SweepWorkload& w, int jobs, int cores) {
  const double alone = secondsAlone(w);
  if (alone < 0) return alone;
  // At N at a time each run goes at about 1/N the speed of a run alone, so the total is close
  // to running them one after another, divided by the parallel efficiency's share.
  return alone / std::max(1.0, std::min<double>(jobs, cores) * kLocalParallelEfficiency);
}

double estimatedSecondsSlurm(const SweepWorkload& w, int jobs) {
  const double alone = secondsAlone(w);
  return alone < 0 ? alone : alone / std::max(1, jobs);
}

}  // namespace lwb::app::pages
