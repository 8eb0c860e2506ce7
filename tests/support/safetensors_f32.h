// The float32 tensors of a .safetensors file, read from its JSON header in the test
// (independent of the engine's reader), and the largest elementwise difference of two such
// files: the data-parallel suites compare whole models with it.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace lwb::test {

inline std::map<std::string, std::vector<float>> readSafetensors(const QString& path) {
  std::map<std::string, std::vector<float>> out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return out;
  const QByteArray bytes = f.readAll();
  quint64 n = 0;
  std::memcpy(&n, bytes.constData(), 8);
  const auto header = QJsonDocument::fromJson(bytes.mid(8, static_cast<int>(n))).object();
  for (auto it = header.begin(); it != header.end(); ++it) {
    const auto o = it.value().toObject();
    if (it.key() == QStringLiteral("__metadata__") || o[QStringLiteral("dtype")].toString() != QStringLiteral("F32")) continue;
    const auto off = o[QStringLiteral("data_offsets")].toArray();
    const qint64 begin = 8 + static_cast<qint64>(n) + off[0].toInteger(), end = 8 + static_cast<qint64>(n) + off[1].toInteger();
    std::vector<float> v(static_cast<size_t>((end - begin) / 4));
    std::memcpy(v.data(), bytes.constData() + begin, static_cast<size_t>(end - begin));
    out[it.key().toStdString()] = std::move(v);
  }
  return out;
}

// max |a - b| over every tensor of `a` (infinity when b lacks one or a shape differs).
inline double maxAbsDifference(const std::map<std::string, std::vector<float>>& a,
                               const std::map<std::string, std::vector<float>>& b) {
  double worst = 0;
  for (const auto& [name, v] : a) {
    const auto it = b.find(name);
    if (it == b.end() || it->second.size() != v.size()) return INFINITY;
    for (size_t i = 0; i < v.size(); ++i) worst = std::max(worst, static_cast<double>(std::abs(v[i] - it->second[i])));
  }
  return worst;
}

}  // namespace lwb::test
