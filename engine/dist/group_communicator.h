// The Communicator over one c10d process group, whichever backend it is (Gloo on the CPU,
// NCCL on CUDA): both groups offer the same allreduce / broadcast / allgather / barrier calls,
// so the collectives, their error messages and the time tally are written once here.
// Included only by the backend translation units (communicator.cpp, communicator_nccl.cpp),
// which hold the c10d headers of their backend.
#pragma once

#include "dist/communicator.h"

#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <ATen/ops/empty_like.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

namespace lwb::dist::detail {

inline std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

inline std::chrono::milliseconds timeoutOf(const World& w) {
  return std::chrono::milliseconds(static_cast<int64_t>(w.timeoutSeconds * 1000));
}

// Rank 0 serves the rendezvous store on masterPort; the others connect to it.
inline c10::intrusive_ptr<c10d::Store> makeStore(const World& w) {
  c10d::TCPStoreOptions so;
  so.port = static_cast<std::uint16_t>(w.masterPort);
  so.isServer = w.rank == 0;
  so.numWorkers = static_cast<std::size_t>(w.size);
  so.waitWorkers = true;
  so.timeout = timeoutOf(w);
  return c10::make_intrusive<c10d::TCPStore>(w.masterAddr, so);
}

// The one message of a world that did not form, said as it happened: a port in use fails at
// once, not "within 10 s"; waiting for the peers and then for the process group may each take
// the timeout (up to twice it).
inline std::runtime_error joinError(const World& w, std::chrono::steady_clock::time_point started, const std::exception& e) {
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string when = waited < 0.5 * w.timeoutSeconds
                               ? std::string()
                               : " after " + std::to_string(static_cast<int>(waited + 0.5)) + " s (LWB_DIST_TIMEOUT " +
                                     std::to_string(static_cast<int>(w.timeoutSeconds)) + " s)";
  return std::runtime_error("rank " + std::to_string(w.rank) + " of " + std::to_string(w.size) + ": cannot join " +
                            w.masterAddr + ":" + std::to_string(w.masterPort) + when + ": " + firstLine(e.what()));
}

template <class Group>
class GroupCommunicator final : public Communicator {
 public:
  // `staging`: the device every tensor must live on for this backend (NCCL: the rank's GPU).
  // A tensor elsewhere (the trainer's scalar flags and hashes are CPU tensors) is copied there
  // for the collective and its result copied back, so callers need not know the backend.
  GroupCommunicator(const World& w, c10::intrusive_ptr<c10d::Store> store, c10::intrusive_ptr<Group> group,
                    std::optional<at::Device> staging)
      : world_(w), store_(std::move(store)), group_(std::move(group)), staging_(staging) {}

  int rank() const override { return world_.rank; }
  double secondsInCollectives() const override { return seconds_; }
  int size() const override { return world_.size; }

  void allreduceSum(std::vector<at::Tensor>& tensors) override {
    run("all-reduce", tensors, [&](std::vector<at::Tensor>& staged) {
      // One work per tensor so that each may have its own shape; wait for all of them.
      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (auto& t : staged) {
        std::vector<at::Tensor> one{t};
        works.push_back(group_->allreduce(one));
      }
      for (auto& w : works) w->wait();
    });
  }

  void broadcast(std::vector<at::Tensor>& tensors, int root) override {
    broadcastEach(tensors, std::vector<int>(tensors.size(), root));
  }

  void broadcastEach(std::vector<at::Tensor>& tensors, const std::vector<int>& roots) override {
    run("broadcast", tensors, [&](std::vector<at::Tensor>& staged) {
      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (size_t i = 0; i < staged.size(); ++i) {
        c10d::BroadcastOptions o;
        o.rootRank = roots.at(i);
        std::vector<at::Tensor> one{staged[i]};
        works.push_back(group_->broadcast(one, o));
      }
      for (auto& w : works) w->wait();
    });
  }

  std::vector<at::Tensor> allgather(const at::Tensor& local) override {
    std::vector<at::Tensor> in{local.contiguous()};
    std::vector<std::vector<at::Tensor>> out(1);
    run(
        "all-gather", in,
        [&](std::vector<at::Tensor>& staged) {
          for (int r = 0; r < world_.size; ++r) out[0].push_back(at::empty_like(staged[0]));
          group_->allgather(out, staged)->wait();
        },
        /*writeBack=*/false);  // the input is only read
    if (staging_ && local.device() != *staging_)
      for (auto& t : out[0]) t = t.to(local.device());
    return out[0];
  }

  void barrier() override {
    std::vector<at::Tensor> none;
    run("barrier", none, [&](std::vector<at::Tensor>&) { group_->barrier()->wait(); });
  }

 private:
  // `writeBack`: results land in `tensors` (in-place collectives); staged copies are copied back.
  template <class F>
  void run(const char* what, std::vector<at::Tensor>& tensors, F&& f, bool writeBack = true) {
    const auto start = std::chrono::steady_clock::now();
    struct Tally {  // counted on the way out, thrown or not
      double& total;
      std::chrono::steady_clock::time_point from;
      ~Tally() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count(); }
    } tally{seconds_, start};
    try {
      std::vector<at::Tensor> staged = tensors;
      std::vector<size_t> moved;
      if (staging_)
        for (size_t i = 0; i < staged.size(); ++i)
          if (staged[i].device() != *staging_) {
            staged[i] = staged[i].to(*staging_);
            moved.push_back(i);
          }
      f(staged);
      if (writeBack)
        for (size_t i : moved) tensors[i].copy_(staged[i]);  // to the CPU: waits for the GPU
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string(what) + " failed on rank " + std::to_string(world_.rank) + " of " +
                               std::to_string(world_.size) + " (a peer stopped, or did not answer within " +
                               std::to_string(static_cast<int>(world_.timeoutSeconds)) + " s): " + firstLine(e.what()));
    }
  }

  World world_;
  double seconds_ = 0;
  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<Group> group_;
  std::optional<at::Device> staging_;
};

}  // namespace lwb::dist::detail
