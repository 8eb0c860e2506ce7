#include "app/pages/inspector/text_sample_job.h"

#include "run/text_sampler.h"

#include <iterator>

namespace lwb::app::pages {

std::vector<double> sampleTemperaturePresets() {
  return {std::begin(run::kSampleTemperaturePresets), std::end(run::kSampleTemperaturePresets)};
}

QString sampleTextFrom(const TextSampleRequest& request, const std::function<void(int, int)>& progress,
                       const CancelFlag* cancel) {
  auto sampler = run::loadCharSampler(request.checkpoint.toStdString());
  run::SampleRequest r;
  r.prompt = request.prompt.toStdString();
  r.tokens = request.tokens;
  r.temperature = request.temperature;
  r.seed = request.seed;
  const std::string text = run::sampleText(
      sampler, r, [&](int64_t done, int64_t total) { if (progress) progress(static_cast<int>(done), static_cast<int>(total)); }, cancel);
  return QString::fromUtf8(text);
}

}  // namespace lwb::app::pages
