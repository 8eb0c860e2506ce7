#include "app/app_icon.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace lwb::app {

QIcon appIcon() {
  QIcon icon;
  for (int size : {16, 32, 48, 64, 128, 256}) {
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 64.0, size / 64.0);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x1f, 0x2a, 0x44));
    p.drawRoundedRect(QRectF(2, 2, 60, 60), 12, 12);
    // The soft cap's scalar map: rises like the identity, then flattens under σmax.
    p.setPen(QPen(QColor(0xe6, 0x9f, 0x00), 2.0, Qt::DashLine));
    p.drawLine(QPointF(10, 22), QPointF(54, 22));
    QPainterPath curve(QPointF(10, 54));
    curve.cubicTo(QPointF(24, 38), QPointF(30, 25), QPointF(54, 24));
    p.setPen(QPen(QColor(0x56, 0xb4, 0xe9), 5.0, Qt::SolidLine, Qt::RoundCap));
    p.setBrush(Qt::NoBrush);
    p.drawPath(curve);
    icon.addPixmap(pm);
  }
  return icon;
}

}  // namespace lwb::app
