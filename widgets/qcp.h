// Include this instead of <qcustomplot.h>. QCustomPlot 2.1's header uses the `signals`
// and `foreach` keywords, which the project's QT_NO_KEYWORDS removes; they are defined
// only around the include, so no other code sees them.
#pragma once

#include <QtGlobal>

#ifdef QT_NO_KEYWORDS
#  ifndef signals
#    define signals Q_SIGNALS
#    define LWB_UNDEF_SIGNALS
#  endif
#  ifndef slots
#    define slots Q_SLOTS
#    define LWB_UNDEF_SLOTS
#  endif
#  ifndef foreach
#    define foreach Q_FOREACH
#    define LWB_UNDEF_FOREACH
#  endif
#endif

#include <qcustomplot.h>

#ifdef LWB_UNDEF_SIGNALS
#  undef signals
#  undef LWB_UNDEF_SIGNALS
#endif
#ifdef LWB_UNDEF_SLOTS
#  undef slots
#  undef LWB_UNDEF_SLOTS
#endif
#ifdef LWB_UNDEF_FOREACH
#  undef foreach
#  undef LWB_UNDEF_FOREACH
#endif
