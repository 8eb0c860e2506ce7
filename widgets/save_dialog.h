// Where a save lands, asked once for every file it writes. QFileDialog::getSaveFileName asks
// before replacing the name typed, but a suffix added afterwards ("shot" saved as shot.png)
// or files derived from the name (name-loss.png, name-spectrum.png) were replaced without a
// word.
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace lwb::widgets {

// A save-file dialog that adds `suffix` (no dot) to a name without one before it asks about
// replacing an existing file. Empty when cancelled.
QString getSavePath(QWidget* parent, const QString& caption, const QString& defaultName, const QString& filter,
                    const QString& suffix);

// For files a save writes beside the name chosen: asks before replacing those that exist
// (true: go ahead, also when none exists).
bool confirmReplacing(QWidget* parent, const QStringList& files);

}  // namespace lwb::widgets
