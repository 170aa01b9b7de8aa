# Generated headers compile as HIP device code: lanescope-cli header for an MFMA
# or WMMA tile on every AMD target, a kernel that calls load_a, load_b and
# store_c (and checks a constexpr answer at compile time), then clang -x hip
# device-only for that target, as the GPU backend compiles its probes: clang-22
# (LLVM 22) for every target it knows, clang-19 for gfx940/gfx941 (LLVM 22
# removed them; "no compiler here" when clang-19 is missing).
# -DCLI=<lanescope-cli> -DCLANG22=<clang++-22> -DCLANG19=<clang++-19 or empty> -DWORK=<scratch directory>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# gfx:instruction:lane of C[5][7] (32x32 MFMA: j + 32*((i/4)%2); RDNA3 wave32: j + 16*(i%2); RDNA4 wave32: j + 16*(i/8))
set(specs gfx908:v_mfma_f32_32x32x8f16:39 gfx90a:v_mfma_f32_32x32x8f16:39 gfx940:v_mfma_f32_32x32x8_f16:39
          gfx941:v_mfma_f32_32x32x8_f16:39 gfx942:v_mfma_f32_32x32x8_f16:39 gfx950:v_mfma_f32_32x32x16_f16:39)
foreach(gfx gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153)
  list(APPEND specs ${gfx}:v_wmma_f32_16x16x16_f16:23)
endforeach()
list(APPEND specs gfx1200:v_wmma_f32_16x16x16_f16:7 gfx1201:v_wmma_f32_16x16x16_f16:7)
# gfx1250/gfx1251 (wave32): C[5][7] in lane j + 16*floor(i/8), as on RDNA4.
list(APPEND specs gfx1250:v_wmma_f32_16x16x32_f16:7 gfx1251:v_wmma_f32_16x16x32_f16:7)
set(compiled "")
set(absent "")
foreach(entry ${specs})
  string(REPLACE ":" ";" spec ${entry})
  list(GET spec 0 gfx)
  list(GET spec 1 ins)
  list(GET spec 2 lane_of_5_7)
  set(ns "${gfx}")
  if(gfx STREQUAL "gfx940" OR gfx STREQUAL "gfx941")
    set(CLANG "${CLANG19}")
  else()
    set(CLANG "${CLANG22}")
  endif()
  if(NOT CLANG)
    list(APPEND absent ${gfx})
    continue()
  endif()
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
  get_filename_component(cc ${CLANG} NAME)
  list(APPEND compiled "${gfx}(${cc})")
endforeach()
string(REPLACE ";" " " compiled "${compiled}")
message("compiled the generated header for: ${compiled}")
if(absent)
  string(REPLACE ";" " " absent "${absent}")
  message("no compiler here for: ${absent} (their witness clang-19 is not installed; not a failure)")
endif()
file(REMOVE_RECURSE ${WORK})
