#!/usr/bin/env bash
# tst_package: builds the Debian package from this build folder (cpack -G DEB into a temporary
# folder), checks it with lintian (errors fail), validates the AppStream metainfo and the
# .desktop file, extracts it into a temporary root (dpkg -x) and runs the installed programs
# from there: --version of both, and a 20-step training run of an installed preset.
#   tst_package.sh BUILD_DIR PROJECT_VERSION GUI(ON|OFF)
# Needs the tools packaging/setup.sh installs (lintian, appstream, desktop-file-utils, dpkg-dev).
set -euo pipefail
build=$(cd "$1" && pwd)
version=$2
gui=$3

fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps lintian readelf ldd; do
  command -v "$tool" >/dev/null || fail "$tool not found (run packaging/setup.sh)"
done
if [ "$gui" = ON ]; then
  for tool in appstreamcli desktop-file-validate; do
    command -v "$tool" >/dev/null || fail "$tool not found (run packaging/setup.sh)"
  done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tst_package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Nothing from the build or source tree may help the installed programs find anything.
unset LD_LIBRARY_PATH
cd "$tmp"

echo "== cpack -G DEB"
(cd "$build" && cpack -G DEB -B "$tmp/pkg" --config "$build/CPackConfig.cmake") > "$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack"; }
deb="$tmp/pkg/lipschitz-workbench_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || { ls -l "$tmp/pkg"; fail "no $(basename "$deb")"; }
dpkg-deb --field "$deb" Package Version Architecture Depends Recommends
depends=$(dpkg-deb --field "$deb" Depends)
echo "$depends" | grep -q 'libtorch' || fail "Depends lacks LibTorch (dpkg-shlibdeps): $depends"
[ "$gui" = OFF ] || echo "$depends" | grep -q 'libqt6widgets6' || fail "Depends lacks Qt Widgets: $depends"

echo "== lintian"
# --fail-on error: warnings are reported, errors fail.
lintian --fail-on error --tag-display-limit 0 "$deb" || fail "lintian reports errors"

echo "== dpkg -x"
root="$tmp/root"
dpkg -x "$deb" "$root"
share="$root/usr/share"
for f in usr/bin/lipschitz-cli usr/share/man/man1/lipschitz-cli.1.gz \
         usr/share/lipschitz-workbench/presets/mnist_adamw_wd.json \
         usr/share/lipschitz-workbench/data/mnist/t10k-images-idx3-ubyte.gz \
         usr/share/lipschitz-workbench/data/tinyshakespeare/input.txt \
         usr/share/doc/lipschitz-workbench/copyright usr/share/doc/lipschitz-workbench/changelog.gz; do
  [ -e "$root/$f" ] || fail "package lacks /$f"
done
if [ "$gui" = ON ]; then
  for f in usr/bin/lipschitz-workbench usr/share/man/man1/lipschitz-workbench.1.gz \
           usr/share/applications/lipschitz-workbench.desktop \
           usr/share/icons/hicolor/scalable/apps/lipschitz-workbench.svg \
           usr/share/icons/hicolor/48x48/apps/lipschitz-workbench.png \
           usr/share/icons/hicolor/256x256/apps/lipschitz-workbench.png; do
    [ -e "$root/$f" ] || fail "package lacks /$f"
  done
  echo "== appstreamcli validate"
  metainfo=("$share"/metainfo/*.metainfo.xml)
  [ -f "${metainfo[0]}" ] || fail "package lacks /usr/share/metainfo/*.metainfo.xml"
  appstreamcli validate --no-net --explain "${metainfo[@]}" || fail "appstreamcli validate"
  echo "== desktop-file-validate"
  desktop-file-validate "$share/applications/lipschitz-workbench.desktop" || fail "desktop-file-validate"
fi
for man in "$share"/man/man1/*.1.gz; do
  if ! gzip -t "$man" || ! zcat "$man" | grep -q '^\.TH'; then fail "$man is not a gzipped man page"; fi
done

echo "== installed binaries: no RPATH into the build, every library found"
for bin in "$root"/usr/bin/*; do
  if readelf -d "$bin" | grep -E 'R(UN)?PATH' | grep -qF -e "$build" -e "$(dirname "$build")"; then
    readelf -d "$bin" | grep -E 'R(UN)?PATH'
    fail "$bin has an RPATH into the build tree"
  fi
  if ldd "$bin" | grep -q 'not found'; then
    ldd "$bin" | grep 'not found'
    fail "$bin: libraries not found"
  fi
done

echo "== --version"
got=$("$root/usr/bin/lipschitz-cli" --version)
[ "$got" = "lipschitz-cli $version" ] || fail "lipschitz-cli --version printed '$got', want 'lipschitz-cli $version'"
if [ "$gui" = ON ]; then
  got=$("$root/usr/bin/lipschitz-workbench" --version)
  [ "$got" = "lipschitz-workbench $version" ] ||
    fail "lipschitz-workbench --version printed '$got', want 'lipschitz-workbench $version'"
fi

echo "== 20-step run of an installed preset"
# A preset whose data is bundled ("@data/mnist"): it must resolve from the installed share
# folder (engine/data/data_location.cpp), not from the source tree.
preset="$share/lipschitz-workbench/presets/mnist_adamw_wd.json"
# One intra-op thread: on a loaded machine (ctest -j2 beside other builds) OpenMP threads
# spin at every barrier; measured 2 s with 1 thread against 32 s with 2 for these 20 steps.
LWB_THREADS=1 "$root/usr/bin/lipschitz-cli" train --config "$preset" --steps 20 --out "$tmp/run" --json \
  > "$tmp/train.jsonl" || { tail -n 5 "$tmp/train.jsonl"; fail "lipschitz-cli train"; }
[ "$(cat "$tmp/run/status")" = finished ] || fail "run status is '$(cat "$tmp/run/status")'"
grep -q "\"$version\"" "$tmp/run/config.json" || fail "config.json does not record version $version"
tail -n 1 "$tmp/train.jsonl"
echo "PASS: $(basename "$deb")"
