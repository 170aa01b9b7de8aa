# Generated headers compile as HIP device code: lanescope-cli header for an MFMA
# tile on gfx942 and a WMMA tile on gfx1100, a kernel that calls load_a, load_b
# and store_c (and checks a constexpr answer at compile time), then clang++-19
# -x hip device-only for each target, as the GPU backend compiles its probes.
# -DCLI=<lanescope-cli> -DCLANG=<clang++-19> -DWORK=<scratch directory>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(spec "gfx942;v_mfma_f32_32x32x8_f16;mfma;39" "gfx1100;v_wmma_f32_16x16x16_f16;wmma;23")
  list(GET spec 0 gfx)
  list(GET spec 1 ins)
  list(GET spec 2 ns)
  list(GET spec 3 lane_of_5_7)
  execute_process(COMMAND ${CLI} header --arch ${gfx} -i ${ins} --waves 2x2 --tiles-per-wave 1x2 --namespace ${ns}
                          -o ${WORK}/${ns}.hpp RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lanescope-cli header for ${gfx} ${ins} failed: ${err}")
  endif()
  file(WRITE ${WORK}/${ns}.hip "#include \"${ns}.hpp\"
// C[5][7] of the tile's first sub-tile: lane ${lane_of_5_7} of wave 0 (the instruction's layout).
static_assert(${ns}::C::where(5, 7).lane == ${lane_of_5_7} && ${ns}::C::where(5, 7).wave == 0, \"C[5][7]\");
static_assert(${ns}::A::copies(0, 0) >= 2, \"waves along N share A\");
extern \"C\" __attribute__((global)) void lanescope_header_kernel(const _Float16* a, const _Float16* b, float* c, int wave) {
    const int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    _Float16 x[${ns}::A::items], y[${ns}::B::items];
    ${ns}::load_a(a, ${ns}::A::cols, true, wave, lane, x);
    ${ns}::load_b(b, ${ns}::B::rows, false, wave, lane, y);
    float acc[${ns}::D::items];
    for (int i = 0; i < ${ns}::D::items; ++i) acc[i] = (float)x[i % ${ns}::A::items] * (float)y[i % ${ns}::B::items];
    ${ns}::store_c(c, ${ns}::D::cols, true, wave, lane, acc);
}
")
  execute_process(COMMAND ${CLANG} -x hip --offload-arch=${gfx} --offload-device-only -nogpulib -nogpuinc -std=c++17
                          -O2 -Wall -Werror -c ${WORK}/${ns}.hip -o ${WORK}/${ns}.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/${ns}.o)
    message(FATAL_ERROR "clang -x hip for ${gfx} failed:\n${out}\n${err}")
  endif()
  message("compiled ${ns}.hpp for ${gfx}")
endforeach()
file(REMOVE_RECURSE ${WORK})
