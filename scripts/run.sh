#!/usr/bin/env bash
# One command for a newcomer: install, build, and show a default layout
# (the C/D accumulator of v_mfma_f32_32x32x8_f16 on CDNA3). Extra arguments
# replace the default query: scripts/run.sh where -a gfx1100 -i ... --row 1 --col 2
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
if (($# == 0)); then
  set -- layout --arch cdna3 --instruction v_mfma_f32_32x32x8_f16 --operand C
fi
exec build/cli/lanescope-cli "$@"
