// lipschitz-cli attention --kind attlip|l2|standard --tokens N[,N…] --dim D --heads H [--seed S]
// [--pgd-iters I] [--restarts R] [--prox-rule armijo|fixed] [--device cpu|cuda] [--json]: one attention block
// (weights from the seed, the same for every N), per N its PGD Lipschitz estimate and
// theoretical ℓ2 bound (seed 004 Table 1; SEEDS-002-004 §C–D); for ℓ2 also 004's Eq. 6 as
// printed ("eq6_as_printed"), which is the paper's number and not a bound (DESIGN.md).
#include "attention/attention_kinds.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "io/input_error.h"
#include "lab/attention_lab.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace lwb::cli {
namespace {

struct AttentionArgs {
  std::string kind, tokens, proxRule{attention::toString(attention::ProxRule::Armijo)}, device = "cpu";
  int dim = 0, heads = 0, pgdIters = 30, restarts = 3;
  double relaxation = 1.0;
  uint64_t seed = 0;
  bool json = false;
};

CancelFlag gAttentionCancel{false};
extern "C" void onAttentionSignal(int) { gAttentionCancel.store(true); }

std::vector<int> parseTokens(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  const std::string message = "--tokens: expected positive integers N[,N...] (each at most 4096)";
  while (std::getline(in, item, ',')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 4)
      throw InputError(message);
    const int n = std::stoi(item);
    if (n < 1 || n > 4096) throw InputError(message);
    out.push_back(n);
  }
  if (out.empty() || text.back() == ',') throw InputError(message);
  return out;
}

nlohmann::json toJson(const std::string& kind, double relaxation, const lab::TokensPoint& p) {
  nlohmann::json j{{"kind", kind}, {"tokens", p.tokens}, {"pgd_estimate", p.pgdEstimate}};
  if (attention::attentionKindFromString(kind) == attention::AttentionKind::AttLip) j["relaxation"] = relaxation;
  j["bound"] = p.bound ? nlohmann::json(*p.bound) : nlohmann::json(nullptr);
  if (p.eq6AsPrinted) j["eq6_as_printed"] = *p.eq6AsPrinted;  // 004's formula, not a bound
  if (p.residual) {
    j["residual"] = *p.residual;
    j["converged"] = p.converged;
  }
  j["seconds"] = p.seconds;
  return j;
}

int runAttention(const AttentionArgs& a) {
  const auto tokens = parseTokens(a.tokens);
  if (a.dim % a.heads != 0) throw InputError("--heads: must divide --dim");
  if (!(a.relaxation > 0)) throw InputError("--relaxation: must be > 0 (the block is x + a(prox(x) - x))");
  lab::AttentionBlockSpec spec;
  spec.kind = a.kind;
  spec.dim = a.dim;
  spec.heads = a.heads;
  spec.seed = a.seed;
  spec.proxRule = *choiceValue(attention::kProxRules, a.proxRule);
  spec.relaxation = a.relaxation;
  spec.device = a.device;
  lab::validateBlockSpec(spec);  // before the table's header: a bad device is one clean line
  lab::PgdSettings pgd;
  pgd.iters = a.pgdIters;
  pgd.restarts = a.restarts;
  pgd.seed = a.seed;

  const bool tty = isatty(STDERR_FILENO) != 0;
  gAttentionCancel.store(false);
  std::signal(SIGINT, onAttentionSignal);
  std::signal(SIGTERM, onAttentionSignal);
  if (!a.json) {
    if (attention::attentionKindFromString(a.kind) == attention::AttentionKind::AttLip && a.relaxation != 1)
      std::printf("# AttLip relaxed: x + %g(prox(x) - x); bound max(1, a - 1) (1-Lipschitz up to a = 2)\n", a.relaxation);
    if (attention::attentionKindFromString(a.kind) == attention::AttentionKind::L2)
      std::printf("# bound: Kim et al.'s (||W_Q^h||^2 per head); eq6_as_printed: 004 Eq. 6 as printed, "
                  "NOT a bound (||W_Q^h|| once)\n");
    std::printf("%-9s %7s %14s %14s %14s %12s %9s\n", "kind", "tokens", "pgd_estimate", "bound", "eq6_as_printed",
                "residual", "seconds");
  }
  int status = 0;
  for (const int n : tokens) {
    lab::TokensPoint p;
    try {
      p = lab::lipschitzAtTokens(spec, n, pgd, &gAttentionCancel, [&](int done, int total) {
        if (tty) std::fprintf(stderr, "\r\033[K%s N=%d: PGD %d/%d", a.kind.c_str(), n, done, total);
      });
    } catch (const Cancelled&) {
      std::fprintf(stderr, "%slipschitz-cli: attention interrupted\n", tty ? "\n" : "");
      status = kExitInterrupted;
      break;
    }
    if (tty) std::fprintf(stderr, "\r\033[K");
    if (p.residual && !p.converged) {
      // Never silently a certificate: with Armijo steps the guarantee holds for the exact prox
      // only (C.4); the fixed safe step keeps every K-step map 1-Lipschitz, but it is not the prox.
      if (spec.proxRule == attention::ProxRule::Fixed)
        std::fprintf(stderr, "lipschitz-cli: warning: N=%d: the prox did not reach its tolerance (residual %.3g); "
                     "the fixed-step map is still 1-Lipschitz but is not AttLip's prox\n", n, *p.residual);
      else
        std::fprintf(stderr, "lipschitz-cli: warning: N=%d: the prox did not reach its tolerance (residual %.3g); "
                     "the estimate is not of a 1-Lipschitz map\n", n, *p.residual);
    }
    if (a.json) {
      printJson(toJson(a.kind, a.relaxation, p));
    } else {
      const std::string bound = p.bound ? std::to_string(*p.bound) : "none";
      const std::string printed = p.eq6AsPrinted ? std::to_string(*p.eq6AsPrinted) : "-";
      const std::string residual = p.residual ? (std::ostringstream() << *p.residual).str() : "-";
      std::printf("%-9s %7d %14.6f %14s %14s %12s %9.2f\n", a.kind.c_str(), n, p.pgdEstimate, bound.c_str(),
                  printed.c_str(), residual.c_str(), p.seconds);
    }
    std::fflush(stdout);
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  return status;
}

}  // namespace

Command addAttentionCommand(CLI::App& app) {
  auto a = std::make_shared<AttentionArgs>();
  auto* sub = app.add_subcommand("attention", "PGD Lipschitz estimate and bound of one attention block vs tokens (seed 004)");
  std::string kinds;
  for (const auto& k : lab::attentionKindIds()) kinds += (kinds.empty() ? "" : " | ") + k;
  sub->add_option("--kind", a->kind, kinds)->required()->check(CLI::IsMember(lab::attentionKindIds()));
  sub->add_option("--tokens", a->tokens, "token counts N[,N...]")->required();
  sub->add_option("--dim", a->dim, "model width d")->required()->transform(integerIn(2, 512));
  sub->add_option("--heads", a->heads, "heads H (must divide d)")->required()->transform(integerIn(1, 512));
  sub->add_option("--seed", a->seed, "seed of the weights and of the PGD search (default 0)")->transform(unsignedInteger());
  sub->add_option("--pgd-iters", a->pgdIters, "PGD iterations (default 30)")->transform(integerIn(1, 10000));
  sub->add_option("--restarts", a->restarts, "PGD restarts (default 3)")->transform(integerIn(1, 1000));
  sub->add_option("--prox-rule", a->proxRule, "AttLip inner step rule: armijo (default) | fixed")
      ->check(CLI::IsMember(choiceIdStrings(attention::kProxRules)));
  sub->add_option("--relaxation", a->relaxation,
                  "AttLip's block x + a(prox(x) - x), a in (0, 4] (default 1): bound 1 up to 2, a - 1 above")
      ->check(numberIn(0.0, 4.0));
  sub->add_option("--device", a->device, "cpu (default) or cuda: where the block and the PGD search run")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_flag("--json", a->json, "print one JSON object per N instead of a table");
  return {sub, [a] { return runAttention(*a); }};
}

}  // namespace lwb::cli
