// The task registry: one row per task with what it is (the data it reads, the input a model
// gets, its fixed sizes) and how its dataset opens. The engine, the CLI and the app ask the
// row, never the id. No LibTorch here (forms and the config parser list tasks from it).
#pragma once

#include "common/kind_info.h"
#include "data/icl_config.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lwb::data {

class Dataset;

enum class TaskKind { Mnist, Cifar10, Chars, CharsMasked, ModularAddition, ModularMultiplication, IclLeastSquares };

// What data_path must name.
enum class TaskData {
  Generated,  // nothing: the task generates its examples
  TextFile,   // any text file
  Folder,     // a folder of the format's files
};

// What a model is fed; a model kind names the input it takes (models/model_kinds.h).
enum class TaskInput {
  Features,     // [B, features] float
  OperandPair,  // [B, 2] operand ids, classes = the modulus
  NextToken,    // [B, T] token ids, causal next-token targets
  MaskedToken,  // [B, T] token ids with [MASK]s, non-causal
  IclSequence,  // [B, 2T, token dim] float, regression at the x-tokens
};

// Everything a task's dataset may need (run::datasetRequest fills it from a run config).
struct DatasetRequest {
  std::string path;        // data_path, "@data/..." already resolved
  int64_t seqLen = 64;     // model.seq_len: windows of the token tasks
  double maskRate = 0.15;
  int64_t mnistTrainCount = 8000;
  int64_t modulus = 113;
  double trainFraction = 0.3;
  uint64_t seed = 0;
  IclConfig icl;
};

using OpenDataset = std::unique_ptr<Dataset> (*)(const DatasetRequest&);

struct TaskRow {
  TaskKind kind;
  KindInfo info;
  TaskData data;
  TaskInput input;
  int64_t features = 0, classes = 0;  // fixed sizes (0: the data or the config decides)
  bool imageClassifier = false;       // pixels in [0, 1]: robustness (certified radii, PGD)
  OpenDataset open = nullptr;         // InputError for bad files and settings
};

std::span<const TaskRow> taskRows();
const TaskRow& row(TaskKind kind);
std::string_view toString(TaskKind kind);
std::optional<TaskKind> parseTaskKind(std::string_view id);
const TaskRow* findTask(std::string_view id);  // nullptr for an unknown id
// The ids of the tasks with this input, "a, b" (for messages).
std::string taskIdsWith(TaskInput input);
// Whether a stored task id (a config.json's "task") names a next-token text task: the ones
// a model can generate text from.
bool generatesText(std::string_view id);
// The rows' words (id, title, keys it reads) for forms and the config schema.
std::span<const KindInfo> taskKinds();

}  // namespace lwb::data
