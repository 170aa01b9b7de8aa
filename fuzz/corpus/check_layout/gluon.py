# A of v_mfma_f32_32x32x8_f16 on gfx942 (wave64), waves 2x2, tiles per wave 1x1, shape 128x128x16; lanescope-cli layout --format gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout
# named form: as Triton 3.6 builds it (witnessed by its own layouts, tests/data/triton)
layout = gl.DotOperandLayout(operand_index=0, parent=AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=False, warps_per_cta=[2, 2], element_bitwidth=32, tiles_per_warp=[1, 1]), k_width=4)
# the same layout as bases (exact: lanescope's linear form)
linear = gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 8], [64, 0]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], warp_bases=[[0, 0], [32, 0]], block_bases=[], shape=[128, 16])
