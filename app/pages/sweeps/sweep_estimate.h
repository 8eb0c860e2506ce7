// The Sweeps page's time estimate: what earlier runs of the same task and model measured
// (read from the run indexes of the sweep's parent folder, on a worker), and how a grid of
// points shares this machine's cores or a Slurm array's slots.
#pragma once

#include <QString>

#include <string>

namespace lwb::app::pages {

// "m:ss" or "h:mm:ss"; "?" for a negative or NaN time.
QString clockText(double seconds);

// Median steps/s of finished runs of this task and model in the run indexes of `folder` and
// its subfolders one level down (earlier sweeps), 0 when none. Reads SQLite: call it off the
// GUI thread.
double measuredStepsPerSecond(const QString& folder, const std::string& task, const std::string& model);

// Locally N runs at a time share the cores and contend for memory bandwidth, so N together
// are taken to finish in 1 / (0.6 N) of the time they take one after another. 0.6 is an
// assumed parallel efficiency (the Sweeps page's first cut, issue 18), not a measurement:
// the estimate is a rough guide, and a measured figure would replace it here.
inline constexpr double kLocalParallelEfficiency = 0.6;

struct SweepWorkload {
  long long points = 0;
  long long stepsPerPoint = 0;
  double stepsPerSecond = 0;  // of one run alone; <= 0: unknown
};

// Seconds for the whole grid: locally `jobs` runs at a time on `cores` cores, on Slurm `jobs`
// array tasks at a time (each as fast as a run alone). Negative when the rate is unknown.
double estimatedSecondsLocal(const SweepWorkload& w, int jobs, int cores);
double estimatedSecondsSlurm(const SweepWorkload& w, int jobs);

}  // namespace lwb::app::pages
