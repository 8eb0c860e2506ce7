#include "run/text_sampler.h"

#include "data/chars_dataset.h"
#include "data/data_location.h"
#include "data/file_bytes.h"
#include "data/task_kinds.h"
#include "io/input_error.h"
#include "io/json_fields.h"
#include "models/model.h"
#include "run/checkpoint.h"
#include "run/run_layout.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/multinomial.h>
#include <ATen/ops/softmax.h>

#include <array>
#include <cmath>
#include <fstream>
#include <vector>

namespace lwb::run {
namespace {

std::string byteText(unsigned char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  return "byte " + std::to_string(static_cast<int>(c));
}

// The distinct bytes of the file, sorted (CharsDataset's numbering), read in 1 MiB pieces.
std::string vocabularyOf(const std::string& path) {
  const uint64_t size = data::checkedFileSize(path, data::CharsDataset::kMaxTextBytes);
  if (size == 0) throw InputError(path + ": empty text file");
  std::ifstream in(path, std::ios::binary);
  std::array<bool, 256> present{};
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    for (std::streamsize i = 0; i < in.gcount(); ++i) present[static_cast<unsigned char>(buf[static_cast<size_t>(i)])] = true;
  }
  std::string v;
  for (int b = 0; b < 256; ++b)
    if (present[static_cast<size_t>(b)]) v.push_back(static_cast<char>(b));
  return v;
}

}  // namespace

CharSampler loadCharSampler(const std::filesystem::path& runDirOrFile, const std::string& dataPathOverride) {
  CharSampler s;
  s.checkpoint = resolveCheckpointPath(runDirOrFile);
  const std::string what = s.checkpoint.string();
  if (s.checkpoint.extension() != layout::kCheckpointSuffix)
    throw InputError(what + ": not a workbench checkpoint (sample reads a run directory or its checkpoints/step_N.safetensors)");
  const Checkpoint ckpt = readCheckpoint(s.checkpoint);
  const std::string task = ckpt.config.value("task", std::string());
  if (!data::generatesText(task))
    throw InputError(what + ": task '" + task + "' is not character-level; sample generates text from " +
                     data::taskIdsWith(data::TaskInput::NextToken) + " runs only");
  s.saved = loadSavedModel(ckpt, what);
  const std::string dataPath = dataPathOverride.empty() ? s.saved.config.dataPath : dataPathOverride;
  if (dataPath.empty()) throw InputError(what + ": the run's config names no data_path (give --data FILE)");
  const std::string resolved = data::resolveDataPath(dataPath);
  try {
    s.vocabulary = vocabularyOf(resolved);
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " (the run's text, needed for its vocabulary; --data FILE names another copy)");
  }
  const auto embed = ckpt.tensors.find("param.embed");
  const int64_t rows = embed == ckpt.tensors.end() ? -1 : embed->second.size(0);
  if (rows != static_cast<int64_t>(s.vocabulary.size()))
    throw InputError(resolved + ": has " + std::to_string(s.vocabulary.size()) + " distinct characters, but " + what +
                     "'s embedding has " + std::to_string(rows) + " rows: not the text this run was trained on");
  s.saved.model->setEvaluation(true);
  return s;
}

void checkSampleRequest(const CharSampler& sampler, const SampleRequest& r) {
  if (r.tokens < 1 || r.tokens > kMaxSampleTokens)
    throw InputError("--tokens " + std::to_string(r.tokens) + ": must be in 1 … " + std::to_string(kMaxSampleTokens));
  if (!std::isfinite(r.temperature) || r.temperature < 0)
    throw InputError("--temperature " + fields::numberText(r.temperature) + ": must be a finite number >= 0 (0: greedy)");
  const std::string prompt = r.prompt.empty() ? std::string("\n") : r.prompt;
  for (size_t i = 0; i < prompt.size(); ++i) {
    const auto c = static_cast<unsigned char>(prompt[i]);
    if (sampler.vocabulary.find(static_cast<char>(c)) != std::string::npos) continue;
    std::string what = byteText(c);
    if (c >= 0x80) {
      // A byte of a UTF-8 character ("Ω" is 206 169): name the character, since the run's
      // vocabulary is bytes and the user typed a character.
      size_t start = i;
      while (start > 0 && (static_cast<unsigned char>(prompt[start]) & 0xC0) == 0x80) --start;
      size_t end = start + 1;
      while (end < prompt.size() && (static_cast<unsigned char>(prompt[end]) & 0xC0) == 0x80) ++end;
      what = "'" + prompt.substr(start, end - start) + "' (" + what + " of its UTF-8 encoding; the run reads text byte by byte)";
    }
    throw InputError("--prompt: " + what + " is not in the run's vocabulary of " + std::to_string(sampler.vocabulary.size()) +
                     " characters");
  }
}

std::string sampleText(CharSampler& sampler, const SampleRequest& r, const std::function<void(int64_t, int64_t)>& progress,
                       const std::atomic<bool>* cancel) {
  checkSampleRequest(sampler, r);
  std::array<int64_t, 256> idOf{};
  for (size_t i = 0; i < sampler.vocabulary.size(); ++i) idOf[static_cast<unsigned char>(sampler.vocabulary[i])] = static_cast<int64_t>(i);
  std::vector<int64_t> ids;
  for (unsigned char c : r.prompt.empty() ? std::string("\n") : r.prompt) ids.push_back(idOf[c]);
  const int64_t window = sampler.saved.config.model.seqLen;
  auto gen = at::make_generator<at::CPUGeneratorImpl>(r.seed);
  at::NoGradGuard noGrad;
  std::string out;
  for (int64_t k = 0; k < r.tokens; ++k) {
    if (cancel && cancel->load()) break;
    // The last `window` characters (sample.py crops to block_size).
    const int64_t t = std::min<int64_t>(window, static_cast<int64_t>(ids.size()));
    at::Tensor input = at::empty({1, t}, at::kLong);
    std::copy(ids.end() - t, ids.end(), input.data_ptr<int64_t>());
    const at::Tensor logits = sampler.saved.model->forward(input).select(0, 0).select(0, t - 1).to(at::kDouble);
    int64_t next = 0;
    if (r.temperature == 0) {
      next = at::argmax(logits).item<int64_t>();
    } else {
      const at::Tensor p = at::softmax(logits / r.temperature, 0);
      next = at::multinomial(p, 1, false, gen).item<int64_t>();
    }
    ids.push_back(next);
    out.push_back(sampler.vocabulary[static_cast<size_t>(next)]);
    if (progress) progress(k + 1, r.tokens);
  }
  return out;
}

}  // namespace lwb::run
