// The Sweeps page's text fields as sweep spec JSON (engine/sweep/sweep_spec.h), so the page
// and its tests share one reading: grid values "0.1, 0.2, 0.4" (each a JSON value, else a
// string: spectral_hammer needs no quotes) or a range "0.001..0.1 x5 log" / "1..4 x4";
// seeds "0, 1, 2" or "0..4". No widgets.
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace lwb::app::pages {

// A list or a range object; nullopt with *error naming what is wrong.
std::optional<nlohmann::json> parseGridValues(const QString& text, QString* error);
std::optional<nlohmann::json> parseSeeds(const QString& text, QString* error);

}  // namespace lwb::app::pages
