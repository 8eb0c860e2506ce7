// The attention-kind registry (attention/attention_kinds.h, issue 27 §1) against what each kind
// does: ids round-trip and a bad id names the choices; the lab's kinds are the rows with a
// block; a kind's BlockBound is what the Attention Lab reports (1 for AttLip, a number for ℓ2,
// none for standard); its projection count is the d×d attention matrices the model builds.
#include "attention/attention_kinds.h"
#include "lab/attention_lab.h"
#include "models/attlip_model.h"

#include <ATen/CPUGeneratorImpl.h>

#include <QtTest/QtTest>

#include <stdexcept>

using namespace lwb;
using attention::AttentionKind;
using attention::BlockBound;

class TstAttentionKinds : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void idsRoundTripAndBadIdsNameTheChoices() {
    QCOMPARE(attention::attentionKinds().size(), size_t{4});
    for (const auto& k : attention::attentionKinds()) {
      QVERIFY(attention::attentionKindFromString(k.id) == k.kind);
      QCOMPARE(attention::toString(k.kind), k.id);
      QVERIFY(!k.title.empty());
    }
    try {
      attention::attentionKindFromString("softmax");
      QFAIL("no error for an unknown id");
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      QVERIFY2(what.find("'softmax'") != std::string::npos && what.find("attlip | l2 | standard | none") != std::string::npos, e.what());
    }
  }

  void labKindsAreTheBlocks() {
    std::vector<std::string> blocks;
    for (const auto& k : attention::attentionKinds())
      if (k.isBlock) blocks.emplace_back(k.id);
    QCOMPARE(lab::attentionKindIds(), blocks);
    QCOMPARE(blocks, (std::vector<std::string>{"attlip", "l2", "standard"}));
  }

  // The bound trait against the lab's measurement of each block.
  void boundTraitIsWhatTheLabReports() {
    for (const auto& k : attention::attentionKinds()) {
      if (!k.isBlock) continue;
      lab::AttentionBlockSpec spec;
      spec.kind = std::string(k.id);
      spec.dim = 8;
      spec.heads = 2;
      lab::PgdSettings pgd;
      pgd.iters = 2;
      pgd.restarts = 1;
      const auto p = lab::lipschitzAtTokens(spec, 4, pgd);
      QCOMPARE(p.bound.has_value(), k.bound != BlockBound::None);
      if (k.bound == BlockBound::One) QCOMPARE(*p.bound, 1.0);
      if (k.bound == BlockBound::Computed) QVERIFY(*p.bound > 0 && *p.bound != 1.0);
      QVERIFY2(p.pgdEstimate <= (p.bound ? *p.bound : 1e9) * (1 + 1e-6), k.id.data());
    }
  }

  // The projections trait (the memory estimate's) against the attention matrices of the model.
  void projectionsAreTheModelsAttentionMatrices() {
    for (const auto& k : attention::attentionKinds()) {
      models::AttLipShape shape;
      shape.vocab = 10, shape.seqLen = 8, shape.dModel = 16, shape.heads = 2;
      shape.attention = k.kind;
      auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
      models::AttLipModel model(shape, gen, at::kCPU);
      int matrices = 0;
      for (const auto& p : model.parameters())
        if (p.name.rfind("attn.", 0) == 0) {
          ++matrices;
          QCOMPARE(p.tensor.numel(), shape.dModel * shape.dModel);
        }
      QVERIFY2(matrices == k.projections, k.id.data());
    }
  }
};

QTEST_GUILESS_MAIN(TstAttentionKinds)
#include "tst_attention_kinds.moc"
