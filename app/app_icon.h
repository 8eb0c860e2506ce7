// The app's window icon, drawn rather than loaded: Debian's Qt has no SVG image plugin by
// default, and a drawn icon is sharp at every size. (The .desktop file uses
// resources/icons/lipschitz-workbench.svg.)
#pragma once

#include <QIcon>

namespace lwb::app {

QIcon appIcon();

}  // namespace lwb::app
