#!/usr/bin/env bash
# Regenerates every PNG in assets/screenshots/ with the app, headless (EGL
# surfaceless, or Xvfb when a display is set) and without the settings file,
# so the pictures do not depend on who runs it. Usage:
#   scripts/screenshots.sh [BUILD_DIR]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
app=${1:-build}/app/lanescope
[ -x "$app" ] || { echo "screenshots.sh: $app not found; build first (scripts/build.sh)" >&2; exit 1; }
out=assets/screenshots
mkdir -p "$out"
shot() {  # shot NAME ARGS...
  local name=$1; shift
  env -u DISPLAY -u WAYLAND_DISPLAY "$app" --no-settings --size 1400x900 "$@" --screenshot "$out/$name.png" >/dev/null
  echo "$out/$name.png"
}
# The layout of one instruction (fit: every operand whole).
shot mfma-4x4x4-16b-f16-gfx942        -a gfx942  -i v_mfma_f32_4x4x4_16b_f16
shot mfma-32x32x8-f16-gfx942          -a gfx942  -i v_mfma_f32_32x32x8_f16
shot smfmac-16x16x32-f16-gfx942       -a gfx942  -i v_smfmac_f32_16x16x32_f16
shot wmma-16x16x16-f16-gfx1100-wave64 -a gfx1100 -i v_wmma_f32_16x16x16_f16 --wave 64
shot wmma-16x16x16-f16-gfx1100-wave32 -a gfx1100 -i v_wmma_f32_16x16x16_f16 --wave 32
# CDNA4 scaled MFMA (A, B, C/D and the E8M0 scales SA, SB) and RDNA4 SWMMAC (with the index K).
shot mfma-scale-32x32x64-f8f6f4-gfx950 -a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --cbsz 2
shot swmmac-16x16x32-f16-gfx1200       -a gfx1200 -i v_swmmac_f32_16x16x32_f16
shot swmmac-16x16x64-iu4-gfx1200-wave64 -a gfx1200 -i v_swmmac_i32_16x16x64_iu4 --wave 64
# NVIDIA: a warp's mma.sync, the 2:4 sparse mma.sp with its metadata K, a warpgroup's wgmma, ldmatrix .x4 .trans.
shot mma-m16n8k16-bf16-sm90            -a sm_90 -i mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
shot mma-sp-m16n8k32-f16-sm90          -a sm_90 -i mma_sp_m16n8k32_f32_f16
shot wgmma-m64n64k16-f16-sm90          -a sm_90 -i wgmma_m64n64k16_f32_f16
shot ldmatrix-x4-trans-sm90            -a sm_90 -i ldmatrix_x4_trans
# Zoomed in: labels in full (register, bits, lane).
shot mfma-16x16x16-f16-gfx942-zoom    -a gfx942  -i v_mfma_f32_16x16x16_f16 --zoom 1.8
# Linking, compare, registers, details.
shot linking-mfma-16x16x16-f16-gfx942 -a gfx942  -i v_mfma_f32_16x16x16_f16 --pin D,5,9
shot compare-wmma-rdna3-vs-rdna4      -a gfx1100 -i v_wmma_f32_16x16x16_f16 --compare-arch gfx1200
shot registers-mfma-16x16x16-f16-gfx942 -a gfx942 -i v_mfma_f32_16x16x16_f16 --tab registers
shot details-dark-mfma-32x32x8-f16    -a gfx942  -i v_mfma_f32_32x32x8_f16 --tab details --theme dark
# Tile mode (docs/app.md): a 256x256 C tile with its A and B at K = 64 over 2x2 waves with 2x2 sub-tiles
# each (a lane of wave 1 pinned; an A element pinned at 1100x720), a small 2x2-wave tile with an A
# element pinned (its 2 waves' copies and the D row it feeds), an RDNA3 tile, the tile's Details.
# The Memory tab: an operand as a tile in LDS or global memory, its loads and the LDS banks,
# each at the two window sizes the app is checked at. The pin shows the hover linking.
shot_at() {  # shot_at NAME WxH ARGS...
  local name=$1 size=$2; shift 2
  env -u DISPLAY -u WAYLAND_DISPLAY "$app" --no-settings --size "$size" "$@" --screenshot "$out/$name.png" >/dev/null
  echo "$out/$name.png"
}
tile256=(-a gfx942 -i v_mfma_f32_32x32x8_f16 --waves 2x2 --tiles-per-wave 2x2 --shape 256x256x64)
shot_at tile-256x256-mfma-32x32x8-gfx942          1400x900 "${tile256[@]}" --pin lane,17,1
shot_at tile-256x256-mfma-32x32x8-gfx942-1100x720 1100x720 "${tile256[@]}" --pin A,70,9
shot_at tile-256x256-mfma-32x32x8-gfx942-corner   1100x720 "${tile256[@]}" --pin D,0,0 --zoom 100%
# Readable at fit: lane numbers and shades in a 32x32 MFMA, NVIDIA in PTX's terms, a scaled MFMA's formats.
shot_at mfma-32x32x8-f16-gfx942-1100x720           1100x720 -a gfx942 -i v_mfma_f32_32x32x8_f16
shot_at wgmma-m64n256k16-f16-sm90a-1100x720        1100x720 -a sm_90a -i wgmma_m64n256k16_f32_f16
shot_at mfma-scale-16x16x128-fp4-fp6-gfx950-1100x720 1100x720 -a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 4 --blgp 2
shot_at tile-2x2-waves-mfma-16x16x16-gfx942       1400x900 -a gfx942 -i v_mfma_f32_16x16x16_f16 --waves 2x2 --pin A,5,3
shot_at tile-2x2-waves-mfma-16x16x16-gfx942-zoom  1400x900 -a gfx942 -i v_mfma_f32_16x16x16_f16 --waves 2x2 --zoom 3 --pin lane,5,0
shot_at tile-2x2-waves-wmma-16x16x16-gfx1100      1400x900 -a gfx1100 -i v_wmma_f32_16x16x16_f16 --waves 2x2 --tiles-per-wave 2x1 --pin D,20,5
shot_at tile-details-mfma-32x32x8-gfx942          1400x900 "${tile256[@]}" --tab details
for size in 1100x720 1400x900; do
  shot_at memory-mfma-32x32x8-f16-B-row-ld64-gfx942-$size       $size -a gfx942  -i v_mfma_f32_32x32x8_f16 --view memory --operand B --memory lds --order row --ld 64 --pin B,2,5
  shot_at memory-mfma-32x32x8-f16-B-row-ld64-pad8-gfx942-$size  $size -a gfx942  -i v_mfma_f32_32x32x8_f16 --view memory --operand B --memory lds --order row --ld 64 --pad 8
  shot_at memory-mfma-16x16x32-f16-B-transposed-gfx950-$size    $size -a gfx950  -i v_mfma_f32_16x16x32_f16 --view memory --operand B --memory lds --order row --ld 64 --transpose
  shot_at memory-wmma-16x16x16-f16-B-global-gfx1200-$size       $size -a gfx1200 -i v_wmma_f32_16x16x16_f16 --view memory --operand B --memory global --order row --ld 64 --transpose
  # Tile mode's Memory tab: B of the 256x256 tile, every wave's loads; lane 5 of wave 3 pinned.
  shot_at memory-tile-256x256-mfma-32x32x8-B-gfx942-$size        $size "${tile256[@]}" --view memory --pin lane,5,3
  # NVIDIA: wgmma's B through a 128B-swizzled descriptor, B[9][3] pinned; an ldmatrix plan for mma.sync's A.
  shot_at memory-wgmma-m64n128k16-B-128B-sm90a-$size             $size -a sm_90a -i wgmma_m64n128k16_f32_f16 --memory smem --operand B --swizzle 128B --pin B,9,3
  shot_at memory-mma-m16n8k16-A-ldmatrix-sm90-$size              $size -a sm_90 -i mma_m16n8k16_f32_f16 --view memory --operand A --ld 24
done
