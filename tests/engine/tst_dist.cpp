// engine/dist (issue 28): two ranks as threads of this process over Gloo on 127.0.0.1 —
// all-reduce, broadcast, all-gather and gradient averaging against values written here;
// batch shares; the world read from torchrun's and Slurm's variables; bad values refused.
#include "dist/communicator.h"
#include "dist/grad_sync.h"
#include "dist/world.h"
#include "io/input_error.h"
#include "support/test_files.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/full.h>
#include <ATen/ops/zeros.h>
#include <QtTest/QtTest>

#include <cstdlib>
#include <functional>
#include <thread>

using namespace lwb::dist;

namespace {

// Runs body(comm) on ranks 0 and 1, each on its own thread; returns the first error text.
QString onTwoRanks(const std::function<void(Communicator&)>& body) {
  const int port = freeLocalPort();
  QString errors[2];
  std::thread ranks[2];
  for (int r = 0; r < 2; ++r) {
    ranks[r] = std::thread([&, r] {
      try {
        World w;
        w.rank = r;
        w.size = 2;
        w.masterPort = port;
        w.timeoutSeconds = 20;
        auto comm = lwb::dist::connect(w);
        body(*comm);
      } catch (const std::exception& e) {
        errors[r] = QString::fromUtf8(e.what());
      }
    });
  }
  for (auto& t : ranks) t.join();
  return errors[0].isEmpty() ? errors[1] : errors[0];
}

void setEnv(const char* k, const char* v) { v ? setenv(k, v, 1) : unsetenv(k); }

void clearWorldEnv() {
  for (const char* k : {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "SLURM_PROCID", "SLURM_NTASKS",
                        "SLURM_JOB_NODELIST", "SLURM_JOB_ID", "SLURM_STEP_ID", "LWB_DIST_TIMEOUT", "LOCAL_RANK", "SLURM_LOCALID"})
    unsetenv(k);
}

}  // namespace

class TestDist : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void collectivesOnTwoRanks() {
    at::Tensor sum[2], bcast[2];
    double second[2] = {0, 0};
    std::vector<at::Tensor> gathered[2];
    const auto err = onTwoRanks([&](Communicator& c) {
      const int r = c.rank();
      std::vector<at::Tensor> t{at::arange(4, at::kFloat) * static_cast<double>(r + 1),
                                at::full({2, 3}, 10.0 * (r + 1), at::kDouble)};
      c.allreduceSum(t);
      sum[r] = t[0];
      std::vector<at::Tensor> b{at::full({3}, static_cast<double>(r + 7), at::kFloat)};
      c.broadcast(b, 1);
      bcast[r] = b[0];
      gathered[r] = c.allgather(at::full({2}, static_cast<double>(r), at::kFloat));
      c.barrier();
      second[r] = t[1].sum().item<double>();  // checked on the test thread below
    });
    QVERIFY2(err.isEmpty(), qPrintable(err));
    for (int r = 0; r < 2; ++r) {
      // (0, 1, 2, 3) x 1 + (0, 1, 2, 3) x 2
      QVERIFY(at::equal(sum[r], at::arange(4, at::kFloat) * 3.0));
      QVERIFY(at::equal(bcast[r], at::full({3}, 8.0, at::kFloat)));
      QCOMPARE(gathered[r].size(), size_t{2});
      QCOMPARE(gathered[r][1][0].item<float>(), 1.0f);
      QCOMPARE(second[r], 6 * 30.0);  // 2 x 3 entries of 10 + 20
    }
  }

  // Each rank's gradients scaled by its share and summed: the share-weighted mean, on both.
  void gradientAveraging() {
    at::Tensor result[2];
    const auto err = onTwoRanks([&](Communicator& c) {
      const int r = c.rank();
      lwb::models::Param p;
      p.name = "w";
      p.tensor = at::zeros({3, 2}).requires_grad_(true);
      p.tensor.mutable_grad() = at::full({3, 2}, r == 0 ? 1.0 : 4.0);
      std::vector<lwb::models::Param> params{p};
      averageGradients(params, c, r == 0 ? 0.75 : 0.25);  // shares of a batch of 4: 3 + 1
      result[r] = p.tensor.grad().clone();
    });
    QVERIFY2(err.isEmpty(), qPrintable(err));
    for (int r = 0; r < 2; ++r) QVERIFY(at::allclose(result[r], at::full({3, 2}, 0.75 * 1 + 0.25 * 4.0)));
  }

  void sharesCoverTheBatch() {
    for (int64_t rows : {1, 7, 64, 65}) {
      for (int size : {1, 2, 3, 5}) {
        if (size > rows) continue;
        int64_t next = 0;
        for (int r = 0; r < size; ++r) {
          const auto s = shareOf(rows, r, size);
          QCOMPARE(s.first, next);
          QVERIFY(s.count == rows / size || s.count == rows / size + 1);
          next += s.count;
        }
        QCOMPARE(next, rows);
      }
    }
  }

  void worldFromVariables() {
    clearWorldEnv();
    QVERIFY(!worldFromEnvironment());
    setEnv("RANK", "1");
    setEnv("WORLD_SIZE", "3");
    setEnv("MASTER_ADDR", "node7");
    setEnv("MASTER_PORT", "4242");
    auto w = worldFromEnvironment();
    QVERIFY(w);
    QCOMPARE(w->rank, 1);
    QCOMPARE(w->size, 3);
    QCOMPARE(w->masterAddr, std::string("node7"));
    QCOMPARE(w->masterPort, 4242);
    // The GPU a CUDA rank takes is its machine's: the rank unless LOCAL_RANK says otherwise.
    QCOMPARE(w->localRank, 1);
    setEnv("LOCAL_RANK", "0");
    QCOMPARE(worldFromEnvironment()->localRank, 0);
    clearWorldEnv();
    setEnv("SLURM_PROCID", "5");
    setEnv("SLURM_NTASKS", "8");
    setEnv("SLURM_LOCALID", "1");  // srun: the second task of its node
    QCOMPARE(worldFromEnvironment()->localRank, 1);
    clearWorldEnv();
    setEnv("SLURM_PROCID", "2");
    setEnv("SLURM_NTASKS", "4");
    setEnv("SLURM_JOB_NODELIST", "gpu[03-05,9]");
    w = worldFromEnvironment();
    QVERIFY(w);
    QCOMPARE(w->rank, 2);
    QCOMPARE(w->masterAddr, std::string("gpu03"));
    QCOMPARE(w->masterPort, 29500);  // no job id: torchrun's default
    // Two array tasks of one sweep on one node once both took 29500: the second failed with
    // "Address already in use" or met the first one's ranks. Each job (and step) has its own.
    setEnv("SLURM_JOB_ID", "4242");
    const int first = worldFromEnvironment()->masterPort;
    QCOMPARE(first, 15000 + (4242 * 16) % 15000);
    setEnv("SLURM_JOB_ID", "4243");
    QVERIFY(worldFromEnvironment()->masterPort != first);
    setEnv("SLURM_STEP_ID", "1");
    QCOMPARE(worldFromEnvironment()->masterPort, 15000 + (4243 * 16 + 1) % 15000);
    for (long job : {0L, 1L, 937L, 14999L, 123456789L}) {
      QVERIFY(slurmPort(job, 0) >= 15000 && slurmPort(job, 0) < 30000);
      QVERIFY(slurmPort(job, 0) != slurmPort(job + 1, 0));
    }
    setEnv("MASTER_PORT", "4242");  // an explicit port wins
    QCOMPARE(worldFromEnvironment()->masterPort, 4242);
    setEnv("RANK", "1");  // torchrun's variables: its default port
    setEnv("WORLD_SIZE", "4");
    unsetenv("MASTER_PORT");
    QCOMPARE(worldFromEnvironment()->masterPort, 29500);
    unsetenv("RANK");
    unsetenv("WORLD_SIZE");
    QCOMPARE(firstSlurmHost("a,b"), std::string("a"));
    QCOMPARE(firstSlurmHost("solo"), std::string("solo"));
    clearWorldEnv();
    setEnv("RANK", "0");
    setEnv("WORLD_SIZE", "1");
    QVERIFY(!worldFromEnvironment());  // a world of one is no world
    for (const auto& [k, v, says] : {std::tuple{"RANK", "3", "RANK"}, std::tuple{"WORLD_SIZE", "two", "WORLD_SIZE"}}) {
      clearWorldEnv();
      setEnv("RANK", "0");
      setEnv("WORLD_SIZE", "2");
      setEnv(k, v);
      const auto msg = lwb::test::inputErrorOf([] { worldFromEnvironment(); });
      QVERIFY2(msg.contains(QString::fromUtf8(says)), qPrintable(msg));
    }
    clearWorldEnv();
    setEnv("RANK", "0");
    QVERIFY(lwb::test::inputErrorOf([] { worldFromEnvironment(); }).contains(QStringLiteral("both")));
    clearWorldEnv();
  }

  // Nobody comes: rank 0 alone waits for its peer until the timeout, then says so.
  void missingPeerTimesOut() {
    World w;
    w.rank = 0;
    w.size = 2;
    w.masterPort = freeLocalPort();
    w.timeoutSeconds = 2;
    QString msg;
    try {
      lwb::dist::connect(w);
    } catch (const std::exception& e) {
      msg = QString::fromUtf8(e.what());
    }
    QVERIFY2(msg.contains(QStringLiteral("cannot join")), qPrintable(msg));
    // It waited: the message says how long, against the timeout.
    QVERIFY2(msg.contains(QStringLiteral("(LWB_DIST_TIMEOUT 2 s)")), qPrintable(msg));
  }
};

QTEST_GUILESS_MAIN(TestDist)
#include "tst_dist.moc"
