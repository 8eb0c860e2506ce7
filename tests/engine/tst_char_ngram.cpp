// Issue 25 §2: the Witten–Bell character n-gram reference levels and 000's validation window.
// Every level is checked against an independent loop written here (counts by scanning the
// training text for each query, windows enumerated one by one), plus one closed form worked
// by hand; short data omits levels with a note and never yields NaN.
#include "data/char_ngram.h"
#include "data/chars_dataset.h"
#include "run/char_evaluation.h"
#include "support/test_files.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

using namespace lwb;
using namespace lwb::data;

namespace {

// A hand-made corpus: 48 training and 22 validation characters; 'b' and 'o' never occur in
// training (only the uniform base gives them mass) and "the " recurs for long histories.
const std::string kTrain = "the cat sat on the mat. the dog ate the hat. a ca";
const std::string kVal = "the bat sat in a hat. ";

// The reference: P_k(w | h) with |h| = k − 1, counting c(h w), c(h) and N1+(h •) by scanning
// the training text for this one query. Order 0 is uniform over `vocab` characters.
double referenceP(const std::string& train, int vocab, const std::string& h, char w) {
  const double lower = h.empty() ? 1.0 / vocab : referenceP(train, vocab, h.substr(1), w);
  double seen = 0, total = 0;
  std::set<char> types;
  for (size_t i = h.size(); i < train.size(); ++i) {
    if (train.compare(i - h.size(), h.size(), h) != 0) continue;
    ++total;
    types.insert(train[i]);
    if (train[i] == w) ++seen;
  }
  if (total == 0) return lower;  // an unseen history gives no mass of its own
  const auto t = static_cast<double>(types.size());
  // Interpolated Witten–Bell; with h empty the unigram (c(w) + N1+(•)/V) / (N + N1+(•)).
  return (seen + t * lower) / (total + t);
}

// −ln P of the order-k model for text[j], with the history cut by the text's start.
double referenceLoss(const std::string& train, int vocab, const std::string& text, size_t j, int k) {
  const size_t from = j >= static_cast<size_t>(k - 1) ? j - (k - 1) : 0;
  return -std::log(referenceP(train, vocab, text.substr(from, j - from), text[j]));
}

// The mean over windows i = 0..windows−1 of seqLen characters, targets text[i+1..i+seqLen],
// enumerated one window and one target at a time.
double referenceWindowLoss(const std::string& train, int vocab, const std::string& text, int windows, int seqLen, int k) {
  double sum = 0;
  int count = 0;
  for (int i = 0; i < windows; ++i)
    for (int t = 0; t < seqLen; ++t, ++count) sum += referenceLoss(train, vocab, text, static_cast<size_t>(i + t + 1), k);
  return sum / count;
}

// Class ids as the chars dataset assigns them: the sorted distinct bytes of both splits.
struct Ids {
  std::string vocabulary;
  std::vector<uint8_t> train, val;
  Ids(const std::string& tr, const std::string& va) {
    std::set<char> all(tr.begin(), tr.end());
    all.insert(va.begin(), va.end());
    vocabulary.assign(all.begin(), all.end());
    for (char c : tr) train.push_back(static_cast<uint8_t>(vocabulary.find(c)));
    for (char c : va) val.push_back(static_cast<uint8_t>(vocabulary.find(c)));
  }
  int vocab() const { return static_cast<int>(vocabulary.size()); }
};

const ReferenceLevel* find(const std::vector<ReferenceLevel>& levels, const std::string& key) {
  for (const auto& l : levels)
    if (l.key == key) return &l;
  return nullptr;
}

bool allFinite(const CharReferenceLevels& r) {
  for (const auto* set : {&r.full, &r.window})
    for (const auto& l : *set)
      if (!std::isfinite(l.value)) return false;
  return true;
}

}  // namespace

class TestCharNgram : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Worked by hand: train "abab", V = 2. Unigram: c(b) = 2, N = 4, N1+(•) = 2, so
  // P1(b) = (2 + 2·½) / (4 + 2) = ½. Bigram: after "a" only "b" (twice), so
  // P2(b|a) = (2 + 1·½) / (2 + 1) = 5/6. Scoring "ab" reads one target, b after a; the
  // trigram and 5-gram have one character of history there and equal the bigram.
  void closedFormOnFourCharacters() {
    const std::vector<uint8_t> train{0, 1, 0, 1}, val{0, 1};
    const auto r = charReferenceLevels(train, val, 2, 0, 1);
    QCOMPARE(r.full.size(), size_t{3});  // 5-gram: the training text is shorter than 5
    QVERIFY(std::abs(find(r.full, "unigram")->value - std::log(2.0)) < 1e-14);
    QVERIFY(std::abs(find(r.full, "bigram")->value - -std::log(5.0 / 6.0)) < 1e-14);
    QVERIFY(std::abs(find(r.full, "trigram")->value - -std::log(5.0 / 6.0)) < 1e-14);
    QVERIFY(r.window.empty());
  }

  void levelsMatchAnIndependentLoop() {
    const Ids ids(kTrain, kVal);
    const auto r = charReferenceLevels(ids.train, ids.val, ids.vocab(), 0, 1);
    QVERIFY2(r.notes.empty(), r.notes.empty() ? "" : r.notes[0].c_str());
    QCOMPARE(r.full.size(), charLevelOrders().size());
    for (const auto& o : charLevelOrders()) {
      double sum = 0;
      for (size_t j = 1; j < kVal.size(); ++j) sum += referenceLoss(kTrain, ids.vocab(), kVal, j, o.order);
      const double expected = sum / static_cast<double>(kVal.size() - 1);
      const ReferenceLevel* got = find(r.full, o.key);
      QVERIFY2(got, o.key);
      QVERIFY2(std::abs(got->value - expected) < 1e-12,
               qPrintable(QStringLiteral("%1: %2 vs %3").arg(o.key).arg(got->value, 0, 'g', 17).arg(expected, 0, 'g', 17)));
      QCOMPARE(got->label, charLevelLabel(o.key));
    }
    // Higher orders fit this repetitive text better, and every level is above 0.
    QVERIFY(find(r.full, "unigram")->value > find(r.full, "bigram")->value);
    QVERIFY(find(r.full, "bigram")->value > find(r.full, "trigram")->value);
    QVERIFY(find(r.full, "5gram")->value > 0);
  }

  // The paper window's weights: a character predicted by several stride-1 windows counts
  // once per window, as a model's mean loss over those windows counts it.
  void windowLossWeightsEachWindowsTargets() {
    const Ids ids(kTrain, kVal);
    const WittenBellNgrams model(ids.train, ids.vocab(), 5);
    for (const auto& [windows, seqLen] : {std::pair{5, 4}, std::pair{1, 21}, std::pair{18, 3}, std::pair{21, 1}}) {
      const auto got = windowLoss(model, ids.val, windows, seqLen);
      for (int k = 1; k <= 5; ++k) {
        const double expected = referenceWindowLoss(kTrain, ids.vocab(), kVal, windows, seqLen, k);
        QVERIFY2(std::abs(got[static_cast<size_t>(k - 1)] - expected) < 1e-12,
                 qPrintable(QStringLiteral("%1 windows of %2, order %3: %4 vs %5").arg(windows).arg(seqLen).arg(k)
                                .arg(got[static_cast<size_t>(k - 1)], 0, 'g', 17).arg(expected, 0, 'g', 17)));
      }
    }
    const auto r = charReferenceLevels(ids.train, ids.val, ids.vocab(), 5, 4);
    QCOMPARE(r.window.size(), r.full.size());
    QVERIFY(std::abs(find(r.window, "trigram")->value - referenceWindowLoss(kTrain, ids.vocab(), kVal, 5, 4, 3)) < 1e-12);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, windowLoss(model, ids.val, 19, 4));  // 19 + 4 > 22
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, windowLoss(model, ids.val, 0, 4));
  }

  // Too short for a level: omitted with a note naming the split and its length, never NaN,
  // never a throw.
  void shortDataOmitsLevelsWithANote() {
    const Ids ids(kTrain, kVal);
    const std::vector<uint8_t> three(ids.train.begin(), ids.train.begin() + 3);
    auto r = charReferenceLevels(three, ids.val, ids.vocab(), 2, 4);
    QCOMPARE(r.full.size(), size_t{3});  // unigram, bigram, trigram
    QVERIFY(!find(r.full, "5gram"));
    QCOMPARE(r.notes.size(), size_t{1});
    QVERIFY2(r.notes[0] == "5gram reference level omitted: the training split has 3 characters, fewer than its order 5",
             r.notes[0].c_str());
    QVERIFY(allFinite(r));

    const std::vector<uint8_t> one{ids.val[0]};
    r = charReferenceLevels(ids.train, one, ids.vocab(), 0, 1);
    QVERIFY(r.full.empty() && r.window.empty());
    QVERIFY2(r.notes.size() == 1 && r.notes[0].find("validation split has 1 characters") != std::string::npos, r.notes[0].c_str());

    r = charReferenceLevels({}, ids.val, ids.vocab(), 0, 1);
    QVERIFY(r.full.empty());
    QCOMPARE(r.notes.size(), charLevelOrders().size());

    r = charReferenceLevels(ids.train, ids.val, ids.vocab(), 20, 4);  // 20 windows of 4 need 24 characters
    QCOMPARE(r.full.size(), charLevelOrders().size());
    QVERIFY(r.window.empty());
    QVERIFY2(r.notes.size() == 1 && r.notes[0].find("do not fit a validation split of 22") != std::string::npos, r.notes[0].c_str());
    QVERIFY(allFinite(r));
  }

  void badIdsAndOrdersAreRefused() {
    const std::vector<uint8_t> train{0, 1, 2};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WittenBellNgrams(train, 2, 3));  // id 2 outside V = 2
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WittenBellNgrams(train, 3, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WittenBellNgrams(train, 3, WittenBellNgrams::kMaxOrder + 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WittenBellNgrams(train, 257, 3));
  }

  // The chars dataset's stride-1 windows (000's validation loader) and the paper window the
  // trainer takes from them: 20 full batches of batch_size, fewer on a short split.
  void strideOneWindowsAndThePaperWindow() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("abc.txt"));
    // 50 distinct bytes in ASCII order: id == position, train = 0..39, val = 40..49.
    test::writeFile(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx");
    CharsDataset ds(path.toStdString(), 4, 0.2);
    QCOMPARE(ds.strideOneWindows(Split::Val), int64_t{6});  // starts 40..45: 45 + 4 = 49, the last
    const Batch b = ds.strideOneSlice(Split::Val, 1, 2);
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{2, 4}));
    for (int64_t w = 0; w < 2; ++w)
      for (int64_t t = 0; t < 4; ++t) {
        QCOMPARE(b.inputs[w][t].item<int64_t>(), 40 + 1 + w + t);
        QCOMPARE(b.targets[w][t].item<int64_t>(), 40 + 2 + w + t);
      }
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, ds.strideOneSlice(Split::Val, 5, 2));
    QCOMPARE(ds.text(Split::Val).size(), size_t{10});
    QCOMPARE(int(ds.text(Split::Val)[0]), 40);

    // 6 windows: one full batch of 4 (windows 0..3), none of 8; the note says how many.
    auto e = run::prepareCharEvaluation(ds, 4);
    QVERIFY(e.has_value());
    QCOMPARE(e->paperBatches, int64_t{1});
    QVERIFY(!e->notes.empty());
    QVERIFY2(e->notes[0] == "val_loss_paper uses 1 of the paper's 20 batches: the validation split holds 6 stride-1 windows "
                           "of 4 characters (batch 4)",
             e->notes[0].c_str());
    QCOMPARE(e->levels.window.size(), e->levels.full.size());
    e = run::prepareCharEvaluation(ds, 8);
    QCOMPARE(e->paperBatches, int64_t{0});
    QVERIFY(e->levels.window.empty());
    QVERIFY2(e->notes[0].rfind("val_loss_paper not measured: the validation split holds 6 stride-1 windows", 0) == 0,
             e->notes[0].c_str());
    // Every character is new in the validation split: the levels are the uniform base's
    // mixture, finite.
    for (const auto& l : e->levels.full) QVERIFY(std::isfinite(l.value) && l.value > 0);

    // A long split: the paper's 20 batches exactly, no note about the window.
    std::string text;
    for (int i = 0; i < 300; ++i) text += "to be or not to be ";
    test::writeFile(path, text);
    CharsDataset big(path.toStdString(), 8, 0.1);  // 570 validation characters, 562 windows
    e = run::prepareCharEvaluation(big, 16);
    QCOMPARE(e->paperBatches, int64_t{20});
    QVERIFY(e->notes.empty());
  }
};

QTEST_APPLESS_MAIN(TestCharNgram)
#include "tst_char_ngram.moc"
