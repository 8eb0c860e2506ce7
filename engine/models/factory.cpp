#include "models/factory.h"

#include "io/input_error.h"
#include "models/model_kinds.h"

#include <string>

namespace lwb::models {

std::unique_ptr<Model> makeModel(const ModelConfig& m, const TaskShape& task, const ModelContext& context,
                                 at::Generator& gen, const at::Device& device) {
  const ModelRow& model = row(m.kind);
  if (data::row(context.task).input != model.input) {
    throw InputError("model.kind: " + std::string(model.info.id) + " needs the task " + data::taskIdsWith(model.input) + ", not " +
                     std::string(data::toString(context.task)));
  }
  return model.make(ModelBuild{m, task, context, gen, device});
}

}  // namespace lwb::models
