// lipschitz-cli sample RUN_DIR|CHECKPOINT --prompt TEXT --tokens N --temperature T [--seed S]
// [--data FILE] [--json]: text from a character-level run (issue 29 §4), as the paper's
// repository's sample.py offers. Plain output is the prompt followed by the generated text;
// --json prints {"file", "step", "prompt", "text", "temperature", "tokens", "seed"}.
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "run/text_sampler.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace lwb::cli {
namespace {

struct SampleArgs {
  std::string target, data;
  run::SampleRequest request;
  bool json = false;
};

int runSample(const SampleArgs& a) {
  auto sampler = run::loadCharSampler(a.target, a.data);
  const std::string text = run::sampleText(sampler, a.request);
  if (a.json) {
    printJson({{"file", sampler.checkpoint.string()}, {"step", sampler.saved.step}, {"prompt", a.request.prompt},
               {"text", text}, {"temperature", a.request.temperature}, {"tokens", a.request.tokens}, {"seed", a.request.seed}});
  } else {
    std::cout << a.request.prompt << text << '\n';
  }
  return 0;
}

}  // namespace

Command addSampleCommand(CLI::App& app) {
  auto args = std::make_shared<SampleArgs>();
  auto* sub = app.add_subcommand("sample", "generate text from a character-level run (task chars) at a temperature");
  sub->add_option("run", args->target, "run directory (its newest checkpoint) or checkpoints/step_N.safetensors")->required();
  sub->add_option("--prompt", args->request.prompt, "text to continue (characters of the run's text; default a newline)");
  sub->add_option("--tokens", args->request.tokens, "characters to generate (1 … 100000)")
      ->default_val(200)
      ->transform(integerIn(1, run::kMaxSampleTokens));  // "1e3" said "Could not convert"
  sub->add_option("--temperature", args->request.temperature, "softmax temperature > 0; 0 picks the most likely character (presets 0.2, 0.5, 1.0)")
      ->default_val(1.0);
  sub->add_option("--seed", args->request.seed, "random seed of the draws")->default_val(1337)->transform(unsignedInteger());
  sub->add_option("--data", args->data, "the run's text file, where its data_path does not point to it on this machine");
  sub->add_flag("--json", args->json, "print one JSON object instead of the text");
  return {sub, [args] { return runSample(*args); }};
}

}  // namespace lwb::cli
