#!/usr/bin/env bash
# One command for a newcomer: install, build, and open the desktop app on a
# default instruction (v_mfma_f32_32x32x8_f16 on CDNA3). Arguments go to the
# app: scripts/run.sh --arch gfx1100 --instruction v_wmma_f32_16x16x16_f16
#
# With no display (DISPLAY and WAYLAND_DISPLAY unset, e.g. over ssh or in CI)
# the window cannot open, so the same view is rendered headless to
# build/lanescope-default.png and the C/D layout is printed as text.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
scripts/install-python.sh   # import lanescope (docs/python.md)
default=(--arch cdna3 --instruction v_mfma_f32_32x32x8_f16)
given=$#
if ((given == 0)); then
  set -- "${default[@]}"
fi
if [[ -x build/app/lanescope && -n ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then
  exec build/app/lanescope "$@"
fi
if [[ -x build/app/lanescope ]]; then
  echo "run.sh: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window;" \
       "rendering the app's view headless to build/lanescope-default.png"
  build/app/lanescope "$@" --screenshot build/lanescope-default.png
  echo "run.sh: wrote build/lanescope-default.png"
fi
if ((given == 0)); then
  exec build/cli/lanescope-cli layout "${default[@]}" --operand C
fi
