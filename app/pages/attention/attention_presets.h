// A lecture's sequence of Attention Lab demos: each preset picks a view, sets its fields and
// carries a one-line cue for the lecturer (like the Clip Lab's, cliplab_presets.h).
#pragma once

#include "app/pages/attention/finite_k_view.h"
#include "app/pages/attention/length_view.h"
#include "app/pages/attention/plane_view.h"
#include "app/pages/attention/prox_view.h"

#include <QString>

#include <optional>
#include <vector>

namespace lwb::app::pages {

enum class AttentionTab { Length = 0, Prox = 1, FiniteK = 2, Plane = 3 };

struct AttentionPreset {
  QString id;
  QString title;
  QString cue;  // what to point at
  AttentionTab tab = AttentionTab::Length;
  std::optional<LengthRequest> length;
  bool paperOverlay = false;  // Length: the paper's Table 1 as dotted lines
  bool runNow = false;        // Length: start the computation when applied
  std::optional<ProxRequest> prox;
  std::optional<FiniteKRequest> finiteK;
  std::optional<PlaneRequest> plane;
};

// In lecture order.
const std::vector<AttentionPreset>& attentionPresets();

}  // namespace lwb::app::pages
