#include "common/run_messages.h"

#include <cstdio>

namespace lwb::run {

const std::vector<MessageTemplate>& messageTemplates() {
  static const std::vector<MessageTemplate> all = {kMsgSoftCapTurnover, kMsgSoftCapTurnoverUpdate, kMsgLeftStiefel,
                                                   kMsgRanksDrifted,    kMsgStoppedAtStep,         kMsgNonFiniteLoss,
                                                   kMsgAtStep};
  return all;
}

std::string formatMessage(const MessageTemplate& tmpl, const std::vector<std::string>& args) {
  std::string out;
  for (const char* p = tmpl.text; *p; ++p) {
    if (p[0] == '%' && p[1] >= '1' && p[1] <= '9' && static_cast<size_t>(p[1] - '1') < args.size()) {
      out += args[static_cast<size_t>(p[1] - '1')];
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

std::string softCapTurnoverMessage(double lr, double sigmaMax, double peak, double updateNorm) {
  const auto num = [](const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return std::string(buf);
  };
  // Two digits of the excess: "0 % over" read as no excess near the turnover.
  const double percent = 100.0 * (peak / sigmaMax - 1.0);
  const std::string over = num(percent >= 10 ? "%.0f" : "%.2g", percent);
  if (updateNorm >= 0 && updateNorm != lr)
    return formatMessage(kMsgSoftCapTurnoverUpdate, {num("%g", updateNorm), num("%g", sigmaMax), num("%.4g", peak), over});
  return formatMessage(kMsgSoftCapTurnover, {num("%g", lr), num("%g", sigmaMax), num("%.4g", peak), over});
}

}  // namespace lwb::run
