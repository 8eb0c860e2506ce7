// Builds the model a config's "model" section asks for, sized by the dataset: the model
// kind's registry row (models/model_kinds.h) checks the task and calls the kind's factory.
#pragma once

#include "models/model.h"
#include "models/model_config.h"

#include <ATen/core/Generator.h>

#include <memory>

namespace lwb::models {

struct TaskShape {
  int64_t inputDim = 0;    // features, sequence length, or 2 (modular pairs)
  int64_t numClasses = 0;  // classes or vocabulary
};

// What a kind's factory gets (ModelRow::make).
struct ModelBuild {
  const ModelConfig& config;
  const TaskShape& task;
  const ModelContext& context;
  at::Generator& gen;
  const at::Device& device;
};

// Throws lwb::InputError when the model does not fit the task (e.g. an MLP on token ids).
std::unique_ptr<Model> makeModel(const ModelConfig& m, const TaskShape& task, const ModelContext& context,
                                 at::Generator& gen, const at::Device& device);

}  // namespace lwb::models
