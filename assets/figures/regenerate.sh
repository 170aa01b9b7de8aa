#!/usr/bin/env bash
# Regenerates the sample figures in this folder (shown in the README).
# Usage: assets/figures/regenerate.sh [path/to/lanescope-cli]
set -euo pipefail
cli=${1:-build/cli/lanescope-cli}
here=$(dirname "$0")
"$cli" figure --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand all -o "$here/gfx942_mfma_f32_32x32x8_f16_ABD.svg"
"$cli" figure --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D -o "$here/gfx942_mfma_f32_4x4x4_16b_f16_D.svg"
"$cli" figure --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D -o "$here/gfx942_mfma_f32_4x4x4_16b_f16_D.png" --scale 1.5
"$cli" figure --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D -o "$here/gfx942_mfma_f32_4x4x4_16b_f16_D.tex"
"$cli" figure --arch gfx942 -i v_smfmac_f32_16x16x32_f16 --operand A -o "$here/gfx942_smfmac_f32_16x16x32_f16_A.svg"
"$cli" figure --arch gfx942 -i v_smfmac_f32_16x16x32_f16 --operand K -o "$here/gfx942_smfmac_f32_16x16x32_f16_K.svg"
"$cli" figure --arch gfx1100 -i v_wmma_f32_16x16x16_f16 --wave 64 --operand A -o "$here/gfx1100_wmma_f32_16x16x16_f16_w64_A.svg"
"$cli" figure --arch gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 2 --operand A -o "$here/gfx950_mfma_scale_f32_16x16x128_f8f6f4_cbsz2_A.svg"
