# The Debian package: `cpack -G DEB` in the build folder (packaging/package.sh) writes
# lipschitz-workbench_<PROJECT_VERSION>_<arch>.deb from the install rules of
# packaging/install.cmake (and the data/translation rules beside their files).
# Depends are computed from the installed binaries by dpkg-shlibdeps.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lipschitz-workbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Lipschitz Workbench maintainers")
set(CPACK_PACKAGE_CONTACT "Lipschitz Workbench maintainers <${LWB_MAINTAINER_EMAIL}>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "neural-network training with enforced Lipschitz bounds, shown live")
# The extended description (Debian wants one; lines are re-indented by CPack).
set(lwb_about
"Lipschitz Workbench trains neural networks whose Lipschitz bound is enforced
throughout training (Muon, AdamW or SGD with a spectral constraint on every
weight matrix: soft cap, hard cap, spectral normalization, clipped weight decay
and more) and shows live what the constraint does.
.")
if(TARGET lipschitz-workbench)
  set(CPACK_PACKAGE_DESCRIPTION "${lwb_about}
This package holds the Qt desktop app lipschitz-workbench (live training
dashboard, Clip Lab, Checkpoint Inspector, Compare) and the command-line tool
lipschitz-cli (train, spectral, inspect, bound, bench), with the presets.")
else()  # LWB_BUILD_GUI=OFF
  set(CPACK_PACKAGE_DESCRIPTION "${lwb_about}
This build holds the command-line tool lipschitz-cli (train, spectral, inspect,
bound, bench) and the presets, without the desktop app.")
endif()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Directories 0755 whatever the umask of the machine that builds the package.
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # <name>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)           # Depends from the binaries (dpkg-shlibdeps)
# Debian's LibTorch links libblas.so.3; with the reference BLAS training is ~25x slower
# (README), so OpenBLAS is recommended rather than left to chance.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenblas0-openmp")
# `lipschitz-cli sweep --backend slurm` calls sbatch/squeue/scancel (issue 18).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_SOURCE_GENERATOR "")
include(CPack)
