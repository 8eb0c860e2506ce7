// Run messages with numbers in them (status, summary, start warnings): English templates with
// %1 … %n, one home each. The engine formats them; the app translates a message by matching
// it against these templates (app/runs/run_types.cpp statusMessageText), so a German window
// does not show "stopped at step 300". lupdate reads LWB_TR_NOOP, context "RunState".
#pragma once

#include "common/tr_noop.h"

#include <string>
#include <vector>

namespace lwb::run {

// What each placeholder holds, one letter per %n in order, so a match is exact: 's' a step
// (digits), 'n' a number (the engine's "%g" spelling), 'w' a name without spaces, 'm' a
// message that must itself be one of these templates.
struct MessageTemplate {
  const char* text;
  const char* kinds;
};

inline constexpr MessageTemplate kMsgStoppedAtStep{LWB_TR_NOOP("RunState", "stopped at step %1"), "s"};
inline constexpr MessageTemplate kMsgNonFiniteLoss{LWB_TR_NOOP("RunState", "non-finite training loss at step %1"), "s"};
// %1: a message of its own (a matrix off its manifold, ranks drifted apart).
inline constexpr MessageTemplate kMsgAtStep{LWB_TR_NOOP("RunState", "%1 at step %2"), "ms"};
inline constexpr MessageTemplate kMsgLeftStiefel{
    LWB_TR_NOOP("RunState", "matrix %1 left the Stiefel manifold: sigma in [%2, %3]"), "wnn"};
inline constexpr MessageTemplate kMsgRanksDrifted{
    LWB_TR_NOOP("RunState", "the ranks' weights drifted apart (parameter checksum %1 on rank 0, %2 on rank %3)"), "nns"};
inline constexpr MessageTemplate kMsgSoftCapTurnover{
    LWB_TR_NOOP("RunState",
                "at lr %1 the soft cap cannot hold sigma_max %2: its polynomial turns over below the largest singular value "
                "an update can reach, so singular values of up to %3 (%4 % over) stay, and the bound is not held at "
                "sigma_max while the lr is this large (with Muon's update bound, lr <= 0.25 sigma_max keeps it)"),
    "nnnn"};
// lipschitz-cli softcap-alpha with --update-norm: the update's norm, not the lr, sets k.
inline constexpr MessageTemplate kMsgSoftCapTurnoverUpdate{
    LWB_TR_NOOP("RunState",
                "with updates of norm %1 the soft cap cannot hold sigma_max %2: its polynomial turns over below the largest "
                "singular value an update can reach, so singular values of up to %3 (%4 % over) stay"),
    "nnnn"};

// Every template above, most specific first (the app tries them in this order).
const std::vector<MessageTemplate>& messageTemplates();

// The template with %1 … %n replaced by args (in one pass: an argument's own "%2" stays).
std::string formatMessage(const MessageTemplate& tmpl, const std::vector<std::string>& args);

// The soft cap's turnover warning (Trainer::startWarnings, lipschitz-cli softcap-alpha);
// updateNorm < 0: Muon's, equal to the lr.
std::string softCapTurnoverMessage(double lr, double sigmaMax, double peak, double updateNorm = -1);

}  // namespace lwb::run
