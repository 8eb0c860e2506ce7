// The Train page built the way the main window builds it, from the services it lends its
// pages (app/page.h), without the other pages: tests drive the wiring that ships.
#pragma once

#include "app/device_query.h"
#include "app/runs/run_manager.h"
#include "app/status_panel.h"
#include "app/pages/train/train_page.h"

#include <QStatusBar>

namespace lwb::test {

struct TrainPageHost {
  TrainPageHost()
      : runs(new app::RunManager),
        status(new app::StatusPanel(&bar, runs)),
        page(new app::TrainPage(app::PageServices{runs, status, &devices, app::PresetCatalog::load(), {}})) {}
  ~TrainPageHost() {
    delete runs;  // first, as MainWindow does: no run signal reaches a half-destroyed page
    delete page;
  }
  TrainPageHost(const TrainPageHost&) = delete;
  TrainPageHost& operator=(const TrainPageHost&) = delete;

  QStatusBar bar;
  app::DeviceQuery devices;
  app::RunManager* runs;
  app::StatusPanel* status;  // owned by bar
  app::TrainPage* page;
};

}  // namespace lwb::test
