#include "common/run_messages.h"

#include <cstdio>

namespace lwb::run {

const std::vector<const char*>& messageTemplates() {
  static const std::vector<const char*> all = {kMsgSoftCapTurnover, kMsgLeftStiefel, kMsgStoppedAtStep,
                                               kMsgNonFiniteLoss, kMsgAtStep};
  return all;
}

std::string formatMessage(const char* tmpl, const std::vector<std::string>& args) {
  std::string out;
  for (const char* p = tmpl; *p; ++p) {
    if (p[0] == '%' && p[1] >= '1' && p[1] <= '9' && static_cast<size_t>(p[1] - '1') < args.size()) {
      out += args[static_cast<size_t>(p[1] - '1')];
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

std::string softCapTurnoverMessage(double lr, double sigmaMax, double peak) {
  const auto num = [](const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return std::string(buf);
  };
  return formatMessage(kMsgSoftCapTurnover, {num("%g", lr), num("%g", sigmaMax), num("%.4g", peak),
                                             num("%.0f", 100.0 * (peak / sigmaMax - 1.0))});
}

}  // namespace lwb::run
