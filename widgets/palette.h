// Colours for runs and series: the Okabe–Ito palette (distinguishable with the common
// colour-vision deficiencies), in an order that keeps neighbouring runs far apart.
#pragma once

#include <QColor>
#include <QVector>

namespace lwb::widgets {

// Colour for the index-th run (or layer): the eight Okabe–Ito colours without black
// (reserved for reference lines) — blue, vermillion, bluish green, orange, reddish purple,
// sky blue, yellow, grey — then around again, each wrap a little darker so 9+ runs stay
// distinct. Negative indices are treated as 0.
QColor runColor(int index);
// The line style that goes with runColor(index): solid for the first eight, then dashed, dash-
// dotted and dotted for the next passes, so a darker repeat of a hue is not read as the same
// line (a 10-layer model's weight norms, an Inspector history of 20 matrices).
Qt::PenStyle runPenStyle(int index);

// A colour of an ordered ramp, t in [0, 1] (clamped): viridis from dark purple (0) to green
// (1), its light yellow end left out so the last value stays visible on white. For groups that
// are values of one number (σmax = 0.5, 1, 2): the order reads from the colour, and the hues
// are not the run palette's, so a group is not taken for a run.
QColor rampColor(double t);

// The same colour with alpha set (0..255): faint raw series behind smoothed ones, bands.
QColor withAlpha(const QColor& color, int alpha);

// Colour used for reference lines (σmax, identity, number-format limits): near black.
QColor referenceColor();

}  // namespace lwb::widgets
