#!/usr/bin/env bash
# Regenerates the sample figures in assets/figures/ (shown in the README and
# docs/figures.md) from the current catalog and engine. Run after any change to
# the layouts or the figure renderers, then look at them and commit.
# Usage: scripts/figures.sh [path/to/lanescope-cli]   (default: build/cli/lanescope-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build/cli/lanescope-cli}
out=assets/figures
fig() { "$cli" figure "$@"; }
fig --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand all -o "$out/gfx942_mfma_f32_32x32x8_f16_ABD.svg"
fig --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D -o "$out/gfx942_mfma_f32_4x4x4_16b_f16_D.svg"
fig --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D -o "$out/gfx942_mfma_f32_4x4x4_16b_f16_D.png" --scale 1.5
# TikZ for papers: fitted to a column (240 pt) by default, and to a page's width.
fig --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D -o "$out/gfx942_mfma_f32_4x4x4_16b_f16_D.tex"
fig --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand D -o "$out/gfx942_mfma_f32_16x16x16_f16_D_column.tex"
fig --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --width page -o "$out/gfx942_mfma_f32_32x32x8_f16_ABD_page.tex"
# Fitted to a page as a PNG: cells too small for "v3"/"L17" show the lane number, a shade per lane
# within its group's hue and a register axis; the scaled MFMA with FP4 A and FP6 B.
fig --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --width page -o "$out/gfx942_mfma_f32_32x32x8_f16_ABD_page.png"
fig --arch gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --cbsz 4 --blgp 2 --operand all --width page -o "$out/gfx950_mfma_scale_f32_32x32x64_f8f6f4_fp4_fp6_ABD_page.png"
# NVIDIA in PTX's terms: fragment elements a0.., b0.., d0.. and threads T0..T31, coloured by groupID and
# shaded by threadID_in_group; mma.sp's metadata by nibble (e.n5); wgmma with B's shared-memory frame.
fig --arch sm_80 -i mma_m16n8k16_f32_f16 --operand all --width page -o "$out/sm80_mma_m16n8k16_f32_f16_ABD_page.png"
fig --arch sm_80 -i mma_sp_m16n8k32_f32_f16 --operand K --width page -o "$out/sm80_mma_sp_m16n8k32_f32_f16_K_page.png"
fig --arch sm_90 -i wgmma_m64n256k16_f32_f16 --operand all --width page -o "$out/sm90_wgmma_m64n256k16_f32_f16_AD_page.png"
# The same fitting for SVG: what the column-wide TikZ above looks like.
fig --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand D --width column -o "$out/gfx942_mfma_f32_16x16x16_f16_D_column.svg"
fig --arch gfx942 -i v_smfmac_f32_16x16x32_f16 --operand A -o "$out/gfx942_smfmac_f32_16x16x32_f16_A.svg"
fig --arch gfx942 -i v_smfmac_f32_16x16x32_f16 --operand K -o "$out/gfx942_smfmac_f32_16x16x32_f16_K.svg"
# CDNA4 wider-K sparse A (dense-MFMA placement: CK, RJ) (B has two stacked K-halves).
fig --arch gfx950 -i v_smfmac_f32_16x16x64_f16 --operand A -o "$out/gfx950_smfmac_f32_16x16x64_f16_A.svg"
fig --arch gfx1100 -i v_wmma_f32_16x16x16_f16 --wave 64 --operand A -o "$out/gfx1100_wmma_f32_16x16x16_f16_w64_A.svg"
fig --arch gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 2 --operand A -o "$out/gfx950_mfma_scale_f32_16x16x128_f8f6f4_cbsz2_A.svg"
# Tiles of many waves (docs/tiles.md): a small labelled one (every cell names its wave), an A tile
# whose waves along N hold copies, and a 256x256 GEMM tile fitted to a page (PNG) and a column
# (TikZ), drawn as colours with instruction, wave and repetition frames.
fig --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand D --waves 2x2 -o "$out/gfx942_mfma_f32_16x16x16_f16_tile_2x2_D.svg"
fig --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand D --waves 2x2 -o "$out/gfx942_mfma_f32_16x16x16_f16_tile_2x2_D.png" --scale 1
fig --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand A --waves 2x2 -o "$out/gfx942_mfma_f32_16x16x16_f16_tile_2x2_A.svg"
tile256=(--waves 2x2 --tiles-per-wave 2x1 --shape 256x256x64)
fig --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand all "${tile256[@]}" --width page -o "$out/gfx942_mfma_f32_32x32x8_f16_tile_256x256_ABD_page.png"
fig --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand D "${tile256[@]}" -o "$out/gfx942_mfma_f32_32x32x8_f16_tile_256x256_D_column.tex"
fig --arch gfx1100 -i v_wmma_f32_16x16x16_f16 --operand all --waves 2x2 --width page -o "$out/gfx1100_wmma_f32_16x16x16_f16_tile_2x2_ABD_page.svg"
# The memory view (docs/memory.md, figure --memory ...): B of a 32x32x8 MFMA row-major in LDS with ld 64, without
# and with a pad of 8; the gfx950 transpose load beside the plain one; RDNA4's global_load_tr_b128; a column-wide one.
mem32=(--arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --memory lds --order row --ld 64)
fig "${mem32[@]}" -o "$out/gfx942_mfma_f32_32x32x8_f16_B_lds_ld64.svg"
fig "${mem32[@]}" -o "$out/gfx942_mfma_f32_32x32x8_f16_B_lds_ld64.png" --scale 1
fig "${mem32[@]}" --pad 8 -o "$out/gfx942_mfma_f32_32x32x8_f16_B_lds_ld64_pad8.png" --scale 1
fig --arch gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --memory lds --order row --transpose -o "$out/gfx950_mfma_f32_16x16x32_f16_B_lds_transpose.svg"
fig --arch gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --memory lds --order row --transpose -o "$out/gfx950_mfma_f32_16x16x32_f16_B_lds_transpose.png" --scale 1
fig --arch gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --memory lds --order row --transpose --width column -o "$out/gfx950_mfma_f32_16x16x32_f16_B_lds_transpose_column.png"
fig --arch gfx1200 -i v_wmma_f32_16x16x16_f16 --operand B --memory global --order row --transpose -o "$out/gfx1200_wmma_f32_16x16x16_f16_B_global_transpose.png" --scale 1
fig --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand A --memory lds --order row --ld 64 --swizzle 8,1,8 --width column -o "$out/gfx942_mfma_f32_16x16x16_f16_A_lds_swizzle_column.tex"
echo "regenerated $(ls "$out" | grep -vc '\.sh$') files in $out"
