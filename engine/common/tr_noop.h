// Marks a user-visible registry string for translation without translating it: the engine has
// no Qt, so it keeps English text and the app translates it at run time with
// QCoreApplication::translate(context, text). lupdate is told that this macro is
// QT_TRANSLATE_NOOP (-tr-function-alias, translations/CMakeLists.txt), so the text lands in
// translations/*.ts under `context`, which must be the context the app passes:
//   "Registry"  method, implementation, Newton–Schulz set, setting and kind titles and tips
//   "ScalarMap" f(σ) names (app/scalar_map.cpp)
//   "RunForm"   run form groups, labels and tips (app/pages/train/run_form_fields.cpp)
#pragma once

#define LWB_TR_NOOP(context, text) text
