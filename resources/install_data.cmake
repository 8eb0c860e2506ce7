# What the program reads at run time besides its binaries: the bundled datasets (presets
# name them "@data/...", resolved by engine/data/data_location.cpp from
# <bindir>/../share/lipschitz-workbench/data) and the presets as files for
# `lipschitz-cli train --config` (the app also has them compiled in). One place for these
# rules, included by the top-level CMakeLists.txt; packaging (CPack) takes them from here.
include(GNUInstallDirs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/data/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lipschitz-workbench/data
        PATTERN .gitattributes EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/presets/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lipschitz-workbench/presets
        FILES_MATCHING PATTERN "*.json")
