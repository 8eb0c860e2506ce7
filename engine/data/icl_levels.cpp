#include "data/icl_levels.h"

#include "common/tr_noop.h"

namespace lwb::data {

std::vector<ReferenceLevel> iclReferenceLevels(int64_t pairs, int64_t dim, bool xFirst) {
  const double d = static_cast<double>(dim), t = static_cast<double>(pairs > 0 ? pairs : 1);
  const double floorSum = d * (d + 1) / 2;
  std::vector<ReferenceLevel> levels{{LWB_TR_NOOP("Registry", "predict 0"), d, {}}};
  if (!xFirst) levels.push_back({LWB_TR_NOOP("Registry", "copy only"), d / 2, {}});
  levels.push_back({LWB_TR_NOOP("Registry", "Bayes floor"), xFirst ? floorSum / t : floorSum / (2 * t), {}});
  return levels;
}

}  // namespace lwb::data
