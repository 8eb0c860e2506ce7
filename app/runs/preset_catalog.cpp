#include "app/runs/preset_catalog.h"

#include "io/json_read.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace lwb::app {
namespace {

using nlohmann::json;

QString text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

QString summaryOf(const json& c) {
  const json model = c.value("model", json::object()), opt = c.value("optimizer", json::object()),
             cons = c.value("constraint", json::object());
  QStringList parts{text(c, "task"), text(model, "kind"), text(opt, "kind")};
  QString method = text(cons, "method");
  if (const auto s = cons.find("sigma_max"); s != cons.end() && s->is_number())
    method += QStringLiteral(" σmax=%1").arg(s->get<double>());
  parts << method;
  parts.removeAll(QString());
  return parts.join(QStringLiteral(" · "));
}

}  // namespace

PresetCatalog PresetCatalog::load() {
  QStringList folders;
  const QString env = qEnvironmentVariable("LWB_PRESETS_DIR");
  if (!env.isEmpty()) folders << env;
#ifdef LWB_SOURCE_DIR
  folders << QStringLiteral(LWB_SOURCE_DIR "/resources/presets");
#endif
  folders << QStringLiteral(":/presets");
  for (const QString& f : folders) {
    PresetCatalog c = loadFrom(f);
    if (!c.presets_.empty()) return c;
  }
  return {};
}

PresetCatalog PresetCatalog::loadFrom(const QString& folder) {
  PresetCatalog c;
  const QDir dir(folder);
  for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    QFile f(fi.filePath());
    if (!f.open(QIODevice::ReadOnly) || f.size() > (1 << 20)) {
      c.problems_ << QStringLiteral("%1: cannot read").arg(fi.fileName());
      continue;
    }
    const QByteArray bytes = f.readAll();
    auto parsed = jsonio::tryParse(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    json j = parsed ? std::move(*parsed) : json();
    if (!j.is_object()) {
      c.problems_ << QStringLiteral("%1: not a JSON object").arg(fi.fileName());
      continue;
    }
    c.presets_.push_back({fi.completeBaseName(), summaryOf(j), std::move(j)});
  }
  return c;
}

QStringList PresetCatalog::ids() const {
  QStringList out;
  for (const auto& p : presets_) out << p.id;
  return out;
}

const Preset* PresetCatalog::find(const QString& id) const {
  for (const auto& p : presets_)
    if (p.id == id) return &p;
  return nullptr;
}

}  // namespace lwb::app
