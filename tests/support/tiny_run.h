// The run config app suites train: a modular-addition MLP on generated data (no dataset
// file), small enough for hundreds of steps per second on one core.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>

namespace lwb::test {

inline nlohmann::json tinyConfig(int64_t steps) {
  return nlohmann::json{{"task", "modular_addition"}, {"modulus", 23}, {"train_fraction", 0.5}, {"steps", steps},
                        {"batch_size", 64}, {"log_every", 5}, {"eval_every", 10}, {"spectra_every", 10},
                        {"model", {{"kind", "modular_mlp"}, {"embed_dim", 23}, {"width", 32}}},
                        {"optimizer", {{"kind", "muon"}, {"lr", 0.1}}},
                        {"constraint", {{"method", "spectral_soft_cap"}, {"sigma_max", 2.0}, {"alpha", "auto"}}}};
}

}  // namespace lwb::test
