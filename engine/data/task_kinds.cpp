#include "data/task_kinds.h"

#include "common/tr_noop.h"
#include "data/dataset.h"
#include "data/icl_least_squares.h"
#include "data/masked_chars.h"

namespace lwb::data {

namespace {

std::unique_ptr<Dataset> openModular(ModularOp op, const DatasetRequest& r) {
  return makeModularDataset(op, r.modulus, r.trainFraction, r.seed);
}

std::unique_ptr<Dataset> openIcl(const DatasetRequest& r) {
  IclConfig c = r.icl;
  c.seed = r.seed;
  return makeIclDataset(c);
}

const std::vector<TaskRow>& rows() {
  using D = TaskData;
  using I = TaskInput;
  static const std::vector<TaskRow> table{
      {TaskKind::Mnist,
       {"mnist", LWB_TR_NOOP("Registry", "MNIST digits"), {"data_path", "mnist_train_count"}, LWB_TR_NOOP("Registry", "an MNIST IDX folder")},
       D::Folder, I::Features, 784, 10, true,
       [](const DatasetRequest& r) { return makeMnistDataset(r.path, r.mnistTrainCount); }},
      {TaskKind::Cifar10,
       {"cifar10", LWB_TR_NOOP("Registry", "CIFAR-10 images"), {"data_path"}, LWB_TR_NOOP("Registry", "a CIFAR-10 binary folder")},
       D::Folder, I::Features, 3072, 10, true,
       [](const DatasetRequest& r) { return makeCifar10Dataset(r.path); }},
      {TaskKind::Chars,
       {"chars", LWB_TR_NOOP("Registry", "characters of a text"), {"data_path"}, LWB_TR_NOOP("Registry", "any text file, next-character prediction")},
       D::TextFile, I::NextToken, 0, 0, false,
       [](const DatasetRequest& r) { return makeCharsDataset(r.path, r.seqLen); }},
      {TaskKind::CharsMasked,
       {"chars_masked", LWB_TR_NOOP("Registry", "masked characters of a text"), {"data_path", "mask_rate"},
        LWB_TR_NOOP("Registry", "seed 004 Table 2 analogue: 15 % of positions selected, 80/10/10 [MASK]/random/kept; non-causal")},
       D::TextFile, I::MaskedToken, 0, 0, false,
       [](const DatasetRequest& r) { return makeMaskedCharsDataset(r.path, r.seqLen, r.maskRate, r.seed); }},
      {TaskKind::ModularAddition,
       {"modular_addition", LWB_TR_NOOP("Registry", "modular addition"), {"modulus", "train_fraction"}, LWB_TR_NOOP("Registry", "(a + b) mod p, generated")},
       D::Generated, I::OperandPair, 2, 0, false,
       [](const DatasetRequest& r) { return openModular(ModularOp::Addition, r); }},
      {TaskKind::ModularMultiplication,
       {"modular_multiplication", LWB_TR_NOOP("Registry", "modular multiplication"), {"modulus", "train_fraction"}, LWB_TR_NOOP("Registry", "(a · b) mod p, generated")},
       D::Generated, I::OperandPair, 2, 0, false,
       [](const DatasetRequest& r) { return openModular(ModularOp::Multiplication, r); }},
      {TaskKind::IclLeastSquares,
       {"icl_least_squares", LWB_TR_NOOP("Registry", "in-context least squares"),
        {"icl.pairs", "icl.dim", "icl.order", "icl.noise", "icl.max_cond", "icl.bias_feature"},
        LWB_TR_NOOP("Registry", "seed 002: predict y = x W in context, a fresh W per sequence; generated")},
       D::Generated, I::IclSequence, 0, 0, false, openIcl},
  };
  return table;
}

}  // namespace

std::span<const TaskRow> taskRows() { return rows(); }
const TaskRow& row(TaskKind kind) { return kinds::rowOf(taskRows(), kind); }
std::string_view toString(TaskKind kind) { return row(kind).info.id; }
const TaskRow* findTask(std::string_view id) { return kinds::findRow(taskRows(), id); }

std::optional<TaskKind> parseTaskKind(std::string_view id) {
  if (const TaskRow* r = findTask(id)) return r->kind;
  return std::nullopt;
}

std::string taskIdsWith(TaskInput input) {
  std::string out;
  for (const auto& t : taskRows())
    if (t.input == input) out += (out.empty() ? "" : ", ") + std::string(t.info.id);
  return out;
}

bool generatesText(std::string_view id) {
  const TaskRow* r = findTask(id);
  return r && r->input == TaskInput::NextToken;
}

std::span<const KindInfo> taskKinds() {
  static const std::vector<KindInfo> infos = kinds::infosOf(taskRows());
  return infos;
}

}  // namespace lwb::data
