// What the Attention Lab's views share: how an attention kind is named and coloured, the
// paper's Table 1 (004, d 512, H 8) for the reference overlay, and the parsing of the
// fields a user types (each message names its field).
#pragma once

#include "app/pages/common/page_export.h"
#include "lab/lab.h"

#include <QColor>
#include <QString>

#include <optional>
#include <string>
#include <vector>

class QLayout;
class QLabel;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;
class QWidget;

namespace lwb::app::pages {

// The registry's short titles for the engine's ids (lab::attentionKindIds()), translated.
QString attentionKindTitle(const std::string& kind);
// One colour per kind, the same in every view.
QColor attentionKindColor(const std::string& kind);
// The registry ids of the two kinds 004's Table 1 reports (AttLip's prox also has a
// convergence column): named here once so views compare against the registry, not a literal.
const std::string& attLipId();
const std::string& l2Id();

// 004 Table 1 (d = 512, H = 8, AttLip K = 20; SEEDS-002-004 §C.7). l2Eq6AsPrinted is the
// paper's "Theoretical" row: its Eq. 6 as printed, which is not an upper bound (DESIGN.md).
struct PaperTable1Row {
  int tokens;
  double attlipPgd, l2Pgd, l2Eq6AsPrinted;
};
const std::vector<PaperTable1Row>& paperTable1();
std::optional<PaperTable1Row> paperTable1At(int tokens);

// "16, 32,64": token counts, each in [1, maxTokens], increasing. Empty optional with
// *error set ("N: 'x' is not a positive integer") otherwise.
std::optional<std::vector<int>> parseTokenList(const QString& text, int maxTokens, QString* error);

// A spin box over [lo, hi] named `objectName` (tests find fields by name).
QSpinBox* makeSpin(int lo, int hi, int value, const char* objectName, QWidget* parent);
// AttLip's relaxation α (lab::AttentionBlockSpec::relaxation): 0.05 … 4 in steps of 0.25,
// default 1 (004's block), with the tooltip that says where the certificate ends.
QDoubleSpinBox* makeRelaxationSpin(const char* objectName, QWidget* parent);
// A label (its buddy the field, so "&N" focuses it with Alt+N) and the field, appended to `row`.
void addField(QLayout* row, const QString& label, QWidget* field);

// "Save plot(s)…" and "Export CSV…" appended to `row`, with their file dialogs; `stem` names
// the files the dialogs propose (<stem>.png, <stem>.csv).
void addExportButtons(QLayout* row, QWidget* owner, const QString& stem, bool severalPlots, FileWriter savePlots,
                      FileWriter exportCsv);

class LatestWins;

// A view's info line (rich text) and Cancel button follow its runner: "Cannot run: …" on an
// error, "Cancelled." on Cancel unless *refused (the fields were refused; their message stays).
void followRunner(LatestWins* runner, QLabel* info, QPushButton* cancel, const bool* refused);

// The block fields the views share: d, H (must divide d) and the weights' seed, for `kind`.
bool readBlock(const QSpinBox* dim, const QSpinBox* heads, const QSpinBox* seed, const std::string& kind,
               lab::AttentionBlockSpec* out, QString* error);

// d must be a multiple of H (d_h = d/H): "" or "H: 3 does not divide d = 32".
QString headsError(int dim, int heads);

}  // namespace lwb::app::pages
