// What the Checkpoint Inspector shows about a file, as plain values (no LibTorch): every
// tensor with its spectral statistics (the numbers `lipschitz-cli inspect` prints) and, for
// the workbench's own checkpoints, the Lipschitz bound with its per-layer trace.
#pragma once

#include "bounds/bound_trace.h"
#include "io/raw_tensor.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace lwb::app::pages {

struct InspectedTensor {
  QString name;
  std::vector<int64_t> shape;
  QString dtype;
  bool hasStats = false;  // 2-D numeric with finite entries
  double sigma1 = 0, rmsNorm = 0, stableRank = 0, frobenius = 0;
  std::vector<double> singularValues;  // descending
  // WeightWatcher-parity metrics in inspect::spectralMetricTable() order (NaN: undefined).
  std::vector<double> metrics;
  QString note;                        // why a 2-D tensor has no statistics

  bool isMatrix() const { return shape.size() == 2; }
  QString shapeText() const;  // "768×3072", "[16]", "scalar"
};

struct InspectedFile {
  QString path;
  QString format;  // safetensors | npy | npz | pytorch
  std::vector<InspectedTensor> tensors;  // file order
  bool complete = true;                  // false: cancelled part-way
  QStringList skipped;                   // entries the reader left out, "name: why"

  // Workbench checkpoints (metadata format lipschitz-workbench-checkpoint-1).
  bool workbenchCheckpoint = false;
  int64_t step = 0;
  QString runSummary;  // "spectral_soft_cap, σmax = 2 (rms), muon lr 0.02"
  QString task;        // the run's task id (a text task: the Inspector offers "Generate text")
  std::optional<double> sigmaMax;  // constraint.sigma_max of the run
  bool sigmaMaxRms = true;         // constraint.norm is rms (the default)
  std::optional<double> lipschitzBound;
  double singleHeadBound = 0;  // 000 App. D's value beside a transformer's sound bound; 0: none
  std::vector<bounds::TraceEntry> trace;
  QString boundNote;  // why there is no bound (baseline model, unreadable config, ...)

  // The decoded file, shared with the "what if" preview and the Clip Lab.
  std::shared_ptr<const io::TensorFile> file;
};

}  // namespace lwb::app::pages
