// What the Compare page reads on its workers: run directories, folders of them, run indexes
// and TensorBoard event files into RunRecords (run_record.h), and the records appended to
// followed TensorBoard runs. Plain functions, no widgets: called off the GUI thread.
#pragma once

#include "app/pages/compare/run_record.h"

#include <QStringList>

#include <vector>

namespace lwb::app::pages {

struct RunBatch {
  std::vector<RunRecord> runs;
  QStringList errors;  // one line per folder or file that could not be read
};

// Each entry a run directory, a folder of them, a run index (a file, or a folder holding
// index.sqlite that is no run directory itself) or a TensorBoard event file.
RunBatch loadRunBatch(const QStringList& dirs);

// The TensorBoard runs of `shown` that have new records (read from where they stopped).
RunBatch followTensorBoardRuns(std::vector<RunRecord> shown);

}  // namespace lwb::app::pages
