#include "dist/communicator.h"

#include "dist/dist_compat.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace lwb::dist {
namespace {

class GlooCommunicator final : public Communicator {
 public:
  explicit GlooCommunicator(const World& w) : world_(w) {
    const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(w.timeoutSeconds * 1000));
    c10d::TCPStoreOptions so;
    so.port = static_cast<std::uint16_t>(w.masterPort);
    so.isServer = w.rank == 0;
    so.numWorkers = static_cast<std::size_t>(w.size);
    so.waitWorkers = true;
    so.timeout = timeout;
    const auto started = std::chrono::steady_clock::now();
    try {
      store_ = c10::make_intrusive<c10d::TCPStore>(w.masterAddr, so);
      auto options = compat::GlooGroup::Options::create(timeout);
      // Rank 0's address reaches every peer; a loopback master means a one-machine world.
      options->devices.push_back(compat::GlooGroup::createDeviceForHostname(
          w.masterAddr == "127.0.0.1" || w.masterAddr == "localhost" ? "127.0.0.1" : hostAddress()));
      group_ = c10::make_intrusive<compat::GlooGroup>(store_, w.rank, w.size, options);
    } catch (const std::exception& e) {
      // Said as it happened: a port in use fails at once, not "within 10 s"; waiting for the
      // peers and then for the process group may each take the timeout (up to twice it).
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const std::string when = waited < 0.5 * w.timeoutSeconds
                                   ? std::string()
                                   : " after " + std::to_string(static_cast<int>(waited + 0.5)) + " s (LWB_DIST_TIMEOUT " +
                                         std::to_string(static_cast<int>(w.timeoutSeconds)) + " s)";
      throw std::runtime_error("rank " + std::to_string(w.rank) + " of " + std::to_string(w.size) + ": cannot join " +
                               w.masterAddr + ":" + std::to_string(w.masterPort) + when + ": " + firstLine(e.what()));
    }
  }

  int rank() const override { return world_.rank; }
  double secondsInCollectives() const override { return seconds_; }
  int size() const override { return world_.size; }

  void allreduceSum(std::vector<at::Tensor>& tensors) override {
    run("all-reduce", [&] {
      // One work per tensor so that each may have its own shape; wait for all of them.
      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (auto& t : tensors) {
        std::vector<at::Tensor> one{t};
        works.push_back(group_->allreduce(one));
      }
      for (auto& w : works) w->wait();
    });
  }

  void broadcast(std::vector<at::Tensor>& tensors, int root) override {
    run("broadcast", [&] {
      c10d::BroadcastOptions o;
      o.rootRank = root;
      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (auto& t : tensors) {
        std::vector<at::Tensor> one{t};
        works.push_back(group_->broadcast(one, o));
      }
      for (auto& w : works) w->wait();
    });
  }

  void broadcastEach(std::vector<at::Tensor>& tensors, const std::vector<int>& roots) override {
    run("broadcast", [&] {
      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (size_t i = 0; i < tensors.size(); ++i) {
        c10d::BroadcastOptions o;
        o.rootRank = roots.at(i);
        std::vector<at::Tensor> one{tensors[i]};
        works.push_back(group_->broadcast(one, o));
      }
      for (auto& w : works) w->wait();
    });
  }

  std::vector<at::Tensor> allgather(const at::Tensor& local) override {
    std::vector<std::vector<at::Tensor>> out(1);
    for (int r = 0; r < world_.size; ++r) out[0].push_back(at::empty_like(local));
    run("all-gather", [&] {
      std::vector<at::Tensor> in{local.contiguous()};
      group_->allgather(out, in)->wait();
    });
    return out[0];
  }

  void barrier() override {
    run("barrier", [&] { group_->barrier()->wait(); });
  }

 private:
  template <class F>
  void run(const char* what, F&& f) {
    const auto start = std::chrono::steady_clock::now();
    struct Tally {  // counted on the way out, thrown or not
      double& total;
      std::chrono::steady_clock::time_point from;
      ~Tally() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count(); }
    } tally{seconds_, start};
    try {
      f();
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string(what) + " failed on rank " + std::to_string(world_.rank) + " of " +
                               std::to_string(world_.size) + " (a peer stopped, or did not answer within " +
                               std::to_string(static_cast<int>(world_.timeoutSeconds)) + " s): " + firstLine(e.what()));
    }
  }
  static std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }
  static std::string hostAddress() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "127.0.0.1";
    return name;
  }

  World world_;
  double seconds_ = 0;
  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<compat::GlooGroup> group_;
};

}  // namespace

std::unique_ptr<Communicator> connect(const World& world) { return std::make_unique<GlooCommunicator>(world); }

}  // namespace lwb::dist
