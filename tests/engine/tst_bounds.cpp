// Upper bounds from weight norms: mlpBound and transformerBound (000 App. D) against
// arithmetic done by hand in the comments, row by row of the trace.
#include "bounds/lipschitz_bound.h"

#include <QtTest/QtTest>

#include <cmath>
#include <stdexcept>

using namespace lwb::bounds;

namespace {

constexpr double kGelu = 1.1289;

bool close(double actual, double expected, double rel = 1e-12) {
  return std::abs(actual - expected) <= rel * std::max(1.0, std::abs(expected));
}

#define EXPECT_NEAR_REL(actual, expected)                                                   \
  QVERIFY2(close((actual), (expected)),                                                    \
           qPrintable(QStringLiteral("%1 = %2, expected %3").arg(#actual).arg((actual), 0, 'g', 17) \
                          .arg((expected), 0, 'g', 17)))

void expectRow(const TraceEntry& row, const char* name, double block, double after, double act) {
  QCOMPARE(QString::fromStdString(row.name), QString::fromLatin1(name));
  EXPECT_NEAR_REL(row.blockLipschitz, block);
  EXPECT_NEAR_REL(row.lipschitzAfter, after);
  EXPECT_NEAR_REL(row.activationBound, act);
}

}  // namespace

class TestBounds : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void mlpIsProductOfNorms() {
    // 2 * 0.5 = 1, then 1 * 3 = 3.
    const auto t = mlpBound({"layers.0", "layers.1", "layers.2"}, {2.0, 0.5, 3.0});
    QCOMPARE(t.layers.size(), size_t(3));
    expectRow(t.layers[0], "layers.0", 2.0, 2.0, 2.0);
    expectRow(t.layers[1], "layers.1", 0.5, 1.0, 1.0);
    expectRow(t.layers[2], "layers.2", 3.0, 3.0, 3.0);
    EXPECT_NEAR_REL(t.bound, 3.0);
    QCOMPARE(mlpBound({}, {}).bound, 1.0);
  }

  void mlpRejectsBadInput() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mlpBound({"a"}, {1.0, 2.0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mlpBound({"a"}, {-1.0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mlpBound({"a"}, {std::nan("")}));
  }

  void oneBlockByHand() {
    TransformerBoundInput in;
    in.blocks = {{/*query*/ 2.0, /*key*/ 1.5, /*value*/ 1.0, /*attnOut*/ 1.5,
                  /*mlpIn*/ 2.0, /*mlpOut*/ kGelu}};
    in.headNorm = 3.0;
    in.logitScale = 0.5;  // dHead 64, attnScale 1/64 => sqrt(s d) = 1; alpha = 1/(2*1) = 1/2
    const auto t = transformerBound(in);
    QCOMPARE(t.layers.size(), size_t(3));
    // Pass 1, activations (eqs. 21, 22):
    //   a0 = 1
    //   attention growth = (1/3) * ||W_O|| ||W_V|| = (1/3) * 1.5 * 1 = 0.5
    //   a1 = 0.5 * 1 + 0.5 * 0.5 * 1 = 0.75
    //   MLP growth = ||W_out|| ||W_in|| / 1.1289 = 1.1289 * 2 / 1.1289 = 2
    //   a2 = 0.5 * 0.75 + 0.5 * 2 * 0.75 = 0.375 + 0.75 = 1.125
    // Pass 2, Lipschitz (eq. 14), attention at a0 = 1:
    //   q = 2, k = 1.5, v = 1 => max(1, v max(q, k)) = max(1, 2) = 2
    //   L_attn = (1/3) * 1.5 * 2 * (2 + 1.5 + 1) = 0.5 * 2 * 4.5 = 4.5
    //   L = 0.5 * 1 + 0.5 * 1 * 4.5 = 2.75
    //   L_mlp = ||W_out|| ||W_in|| * 1.1289 / 1.1289 = 2 * 1.1289 = 2.2578 (GeLU / 1.1289 is
    //   1-Lipschitz: the published Step 2 divides once more and gets 2)
    //   L = 2.75 * (0.5 + 0.5 * 2.2578) = 2.75 * 1.6289 = 4.479475
    // Head: 3 * 0.5 = 1.5; L = 4.479475 * 1.5 = 6.7192125; activation 1.125 * 1.5 = 1.6875.
    expectRow(t.layers[0], "block0.attn", 4.5, 2.75, 0.75);
    expectRow(t.layers[1], "block0.mlp", 2.2578, 4.479475, 1.125);
    expectRow(t.layers[2], "head", 1.5, 6.7192125, 1.6875);
    EXPECT_NEAR_REL(t.bound, 6.7192125);
    // App. D as published beside it: L_mlp = 2, L = 2.75 * 1.5 = 4.125, head: 6.1875.
    EXPECT_NEAR_REL(t.singleHeadBound, 6.1875);
  }

  void twoHeadsByHand() {
    // Two heads with measured slice norms; whole-matrix norms W_Q 1, W_K 1, W_V 2.
    TransformerBoundInput in;
    in.blocks = {{1.0, 1.0, 2.0, 1.5, 0.0, 0.0}};
    in.blocks[0].queryHeads = {1.0, 0.5};
    in.blocks[0].keyHeads = {0.5, 1.0};
    in.blocks[0].valueHeads = {2.0, 1.0};
    in.heads = 2;  // alpha = 1/2, a0 = 1, c = 1
    const auto t = transformerBound(in);
    // Growth: (1/3) 1.5 sqrt((2^2 + 1^2) / 2) = 0.5 sqrt(2.5); a1 = 0.5 + 0.5 * growth.
    // Head 0: max(1, 2 * max(1, 0.5)) (1 + 0.5 + 2) = 2 * 3.5 = 7.
    // Head 1: max(1, 1 * max(0.5, 1)) (0.5 + 1 + 1) = 2.5.
    // L_attn = (1/3) 1.5 sqrt((49 + 6.25) / 2) = 0.5 sqrt(27.625); L = 0.5 + 0.5 L_attn.
    const double growth = 0.5 * std::sqrt(2.5), attn = 0.5 * std::sqrt(27.625);
    expectRow(t.layers[0], "block0.attn", attn, 0.5 + 0.5 * attn, 0.5 + 0.5 * growth);
    // App. D with the whole norms: growth 0.5 * 2 = 1; max(1, 2 * 1) (1 + 1 + 2) = 8,
    // L_attn = 4, L = 2.5; the MLP (norm 0) halves it: 1.25.
    EXPECT_NEAR_REL(t.singleHeadBound, 1.25);
    // Without slices each head is charged sqrt(2) times the whole norms:
    // q = k = sqrt2, v = 2 sqrt2: max(1, 2 sqrt2 sqrt2) = 4, (sqrt2 + sqrt2 + 2 sqrt2) = 4 sqrt2,
    // both heads alike: L_attn = 0.5 * 16 sqrt2 = 8 sqrt2; growth 0.5 * 2 sqrt2 = sqrt2.
    in.blocks[0].queryHeads.clear();
    in.blocks[0].keyHeads.clear();
    in.blocks[0].valueHeads.clear();
    const auto whole = transformerBound(in);
    expectRow(whole.layers[0], "block0.attn", 8 * std::sqrt(2.0), 0.5 + 4 * std::sqrt(2.0),
              0.5 + 0.5 * std::sqrt(2.0));
    // Wrong list lengths and bad head counts are rejected.
    in.blocks[0].valueHeads = {1.0};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, transformerBound(in));
    in.blocks[0].valueHeads.clear();
    in.heads = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, transformerBound(in));
  }

  void twoBlocksByHand() {
    TransformerBoundInput in;
    in.blocks = {{0.25, 0.25, 0.5, 2.4, 1.0, 0.5 * kGelu},   // growth 0.5, L_mlp 0.5 * 1.1289
                 {1.0, 2.0, 2.0, 1.5, 2.0, 2.0 * kGelu}};   // growth 4, L_mlp 4 * 1.1289
    in.embeddingRms = 2.0;  // alpha = 1/(2*2) = 0.25, 1 - alpha = 0.75; no head
    const auto t = transformerBound(in);
    QCOMPARE(t.layers.size(), size_t(4));
    // Pass 1 (eqs. 21, 22):
    //   a0 = 2
    //   block0 attention growth = (1/3) * 2.4 * 0.5 = 0.4
    //   a1 = 0.75 * 2 + 0.25 * 0.4 * 2 = 1.5 + 0.2 = 1.7
    //   a2 = 0.75 * 1.7 + 0.25 * 0.5 * 1.7 = 1.275 + 0.2125 = 1.4875
    //   block1 attention growth = (1/3) * 1.5 * 2 = 1  => a3 = a2 = 1.4875
    //   a4 = 0.75 * 1.4875 + 0.25 * 4 * 1.4875 = 1.115625 + 1.4875 = 2.603125
    // Pass 2 (eq. 14):
    //   block0.attn at a0 = 2: q = 0.5, k = 0.5, v = 1 => max(1, 1 * 0.5) = 1
    //     L_attn = (1/3) * 2.4 * 1 * (0.25 + 0.25 + 0.5) = 0.8
    //     L = 0.75 * 1 + 0.25 * 1 * 0.8 = 0.95
    //   block0.mlp: L_mlp = 0.5 * 1.1289 = 0.56445 (growth 0.5 above, constant 1.1289 x that)
    //     L = 0.95 * (0.75 + 0.25 * 0.56445) = 0.95 * 0.8911125 = 0.846556875
    //   block1.attn at a2 = 1.4875: q = 1.4875, k = v = 2.975
    //     max(1, 2.975 * 2.975) = 8.850625
    //     L_attn = (1/3) * 1.5 * 8.850625 * (1 + 2 + 2) = 0.5 * 8.850625 * 5 = 22.1265625
    //     L = 0.846556875 * (0.75 + 0.25 * 22.1265625) = 0.846556875 * 6.281640625
    //   block1.mlp: L_mlp = 4 * 1.1289 = 4.5156, L = L * (0.75 + 0.25 * 4.5156) = 1.8789 * L
    const double afterAttn1 = 0.846556875 * 6.281640625;
    expectRow(t.layers[0], "block0.attn", 0.8, 0.95, 1.7);
    expectRow(t.layers[1], "block0.mlp", 0.56445, 0.846556875, 1.4875);
    expectRow(t.layers[2], "block1.attn", 22.1265625, afterAttn1, 1.4875);
    expectRow(t.layers[3], "block1.mlp", 4.5156, 1.8789 * afterAttn1, 2.603125);
    EXPECT_NEAR_REL(t.bound, 1.8789 * afterAttn1);
    QVERIFY(close(t.bound, 9.991550645198217, 1e-12));  // the literal, once
  }

  void allNormsZero() {
    // Every block is 0-Lipschitz and adds no activation: each of the 2N = 6 residual
    // connections scales both L and a by (1 - alpha) = 5/6 (alpha = 1/(2*3)).
    TransformerBoundInput in;
    in.blocks.assign(3, TransformerBlockNorms{});
    in.headNorm = 2.0;
    const auto t = transformerBound(in);
    QCOMPARE(t.layers.size(), size_t(7));
    for (int r = 0; r < 6; ++r) {
      const double shrink = std::pow(5.0 / 6.0, r + 1);
      QCOMPARE(t.layers[size_t(r)].blockLipschitz, 0.0);
      EXPECT_NEAR_REL(t.layers[size_t(r)].lipschitzAfter, shrink);
      EXPECT_NEAR_REL(t.layers[size_t(r)].activationBound, shrink);
    }
    EXPECT_NEAR_REL(t.bound, std::pow(5.0 / 6.0, 6) * 2.0);  // (1 - alpha)^{2N} * head
    QCOMPARE(QString::fromStdString(t.layers[2].name), QStringLiteral("block1.attn"));
  }

  void sqrtAttentionScaleEq20AndSound() {
    // d_head = 16, s_attn = 1/sqrt(16) = 1/4 => sqrt(s_attn d_head) = sqrt(4) = 2.
    TransformerBoundInput in;
    in.blocks = {{1.0, 1.0, 1.0, 3.0, 0.0, 0.0}};  // MLP norms 0: L_mlp = 0
    in.dHead = 16;
    in.embeddingRms = 2.0;  // alpha = 1/2
    in.attnScale = 0.25;
    const auto t = transformerBound(in, AttentionBound::AppendixD);
    // a0 = 2: q = k = v = 2 => max(1, 2 * 2) = 4, times 2 (eq. 20) = 8
    // L_attn = (1/3) * 3 * 8 * (1 + 1 + 1) = 24; L = 0.5 + 0.5 * 24 = 12.5
    // a1 = 0.5 * 2 + 0.5 * (1/3 * 3 * 1) * 2 = 2; MLP: L = 0.5 * 12.5 = 6.25, a2 = 1
    expectRow(t.layers[0], "block0.attn", 24.0, 12.5, 2.0);
    expectRow(t.layers[1], "block0.mlp", 0.0, 6.25, 1.0);
    // The sound form: max(1, c) max(1, c v max(q, k)) = 2 * max(1, 2 * 4) = 16,
    // L_attn = (1/3) 3 * 16 * 3 = 48, L = 0.5 + 0.5 * 48 = 24.5, then the MLP halves it.
    const auto sound = transformerBound(in);
    expectRow(sound.layers[0], "block0.attn", 48.0, 24.5, 2.0);
    EXPECT_NEAR_REL(sound.singleHeadBound, 6.25);
    // The 1/d_head default (attnScale 0 and 1/16 alike) has factor 1: L_attn = 12.
    in.attnScale = 0;
    EXPECT_NEAR_REL(transformerBound(in).layers[0].blockLipschitz, 12.0);
    in.attnScale = 1.0 / 16.0;
    EXPECT_NEAR_REL(transformerBound(in).layers[0].blockLipschitz, 12.0);
  }

  void explicitAlphaAndScales() {
    // alpha = 0.1, attention output x1 (not 1/3), GeLU divisor 1, logit scale 2, head 0.5.
    TransformerBoundInput in;
    in.blocks = {{0.5, 0.5, 0.5, 1.0, 1.0, 3.0}};
    in.residualAlpha = 0.1;
    in.attnOutScale = 1.0;
    in.gelu = 1.0;
    in.headNorm = 0.5;
    in.logitScale = 2.0;
    const auto t = transformerBound(in);
    // a0 = 1; attention growth 1 * 1 * 0.5 = 0.5 => a1 = 0.9 + 0.1 * 0.5 = 0.95
    // MLP growth 3 => a2 = 0.9 * 0.95 + 0.1 * 3 * 0.95 = 0.855 + 0.285 = 1.14
    // attention at a0 = 1: q = k = v = 0.5 => max(1, 0.25) = 1
    //   L_attn = 1 * 1 * 1 * 1.5 = 1.5; L = 0.9 + 0.1 * 1.5 = 1.05
    // L_mlp = 3 * 1.1289 (plain GeLU's slope) = 3.3867: L = 1.05 * (0.9 + 0.33867) = 1.3006035;
    // head 0.5 * 2 = 1: L = 1.3006035, a = 1.14
    expectRow(t.layers[0], "block0.attn", 1.5, 1.05, 0.95);
    expectRow(t.layers[1], "block0.mlp", 3.3867, 1.3006035, 1.14);
    expectRow(t.layers[2], "head", 1.0, 1.3006035, 1.14);
  }

  // x + block(x): a connection's constant is 1 + L_block, activations grow to a (1 + growth).
  void sumResidualByHand() {
    TransformerBoundInput in;
    in.blocks = {{0.5, 0.5, 0.5, 1.0, 1.0, 3.0}};
    in.sumResidual = true;
    in.residualAlpha = 0.1;  // ignored with the sum residual
    in.attnOutScale = 1.0;
    in.gelu = 1.0;
    in.headNorm = 0.5;
    in.logitScale = 2.0;
    const auto t = transformerBound(in);
    // a0 = 1; attention growth 1 * 1 * 0.5 = 0.5 => a1 = 1.5; MLP growth 3 => a2 = 1.5 * 4 = 6
    // L_attn at a0 = 1: max(1, 0.25) (0.5 + 0.5 + 0.5) = 1.5 => L = 1 + 1.5 = 2.5
    // L_mlp = 3 * 1.1289 = 3.3867 => L = 2.5 * 4.3867 = 10.96675; head 0.5 * 2 = 1
    expectRow(t.layers[0], "block0.attn", 1.5, 2.5, 1.5);
    expectRow(t.layers[1], "block0.mlp", 3.3867, 10.96675, 6.0);
    expectRow(t.layers[2], "head", 1.0, 10.96675, 6.0);
  }

  void noBlocks() {
    TransformerBoundInput in;
    QCOMPARE(transformerBound(in).bound, 1.0);
    QVERIFY(transformerBound(in).layers.empty());
    in.headNorm = 4.0;
    in.embeddingRms = 0.5;
    const auto t = transformerBound(in);
    expectRow(t.layers.at(0), "head", 4.0, 4.0, 2.0);
  }

  void transformerRejectsBadInput() {
    TransformerBoundInput in;
    in.blocks = {{1, 1, 1, 1, 1, 1}};
    auto bad = [&](auto mutate) {
      TransformerBoundInput copy = in;
      mutate(copy);
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, transformerBound(copy));
    };
    bad([](TransformerBoundInput& c) { c.blocks[0].value = -1; });
    bad([](TransformerBoundInput& c) { c.blocks[0].mlpOut = INFINITY; });
    bad([](TransformerBoundInput& c) { c.dHead = 0; });
    bad([](TransformerBoundInput& c) { c.gelu = 0; });
    bad([](TransformerBoundInput& c) { c.residualAlpha = 1.5; });
    bad([](TransformerBoundInput& c) { c.attnScale = -0.1; });
    bad([](TransformerBoundInput& c) { c.embeddingRms = std::nan(""); });
  }
};

QTEST_APPLESS_MAIN(TestBounds)
#include "tst_bounds.moc"
