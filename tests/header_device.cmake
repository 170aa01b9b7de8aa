# Generated headers compile as HIP device code: lanescope-cli header for an MFMA
# or WMMA tile on every AMD target, a kernel that calls load_a, load_b and
# store_c (and checks a constexpr answer at compile time), then clang -x hip
# device-only for that target, as the GPU backend compiles its probes: clang-22
# (LLVM 22) for every target it knows, clang-19 for gfx940/gfx941 (LLVM 22
# removed them; "no compiler here" when clang-19 is missing).
# -DCLI=<lanescope-cli> -DCLANG22=<clang++-22> -DCLANG19=<clang++-19 or empty> -DWORK=<scratch directory>
#
# With -DGEMM=<tests/gemm_tile.hip> (and CLANG a clang that knows gfx950 and
# gfx1200, e.g. clang-22) instead: the same GEMM tile kernel, built only on the
# header's load_a / load_b / pack / mma / unpack / store_c, compiles for gfx942,
# gfx950 (MFMA, 256x256x64 over 2x2 waves) and gfx1200 (WMMA, 64x64x32) with no
# scratch and no table in memory (no s_getpc_b64, no data object), and on
# gfx942 its LDS reads are, in 8-byte units, the ds_read_b64 that
# `lanescope-cli load` plans for A (row-major) and B (column-major) per wave.
# With -DFRAGMENTS=<tests/gemm_fragments.cu> also the CUDA GEMM's kernel source,
# device-only for each of those AMD targets on the same header.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# With -DNVCC=<nvcc> -DFRAGMENTS=<tests/gemm_fragments.cu>: the CUDA GEMM of scripts/verify-gemm-cuda.sh
# (mma.sync tile and wgmma headers) compiles for sm_90a with no stack frame (nothing spilled, no tables).
if(NVCC)
  execute_process(COMMAND ${CLI} header -a sm_90 -i mma_m16n8k16_f32_f16 --waves 2x2 --shape 64x32x16 --namespace tile
                          -o ${WORK}/tile.hpp RESULT_VARIABLE rc1)
  execute_process(COMMAND ${CLI} header -a sm_90a -i wgmma_m64n64k16_f32_f16 --namespace wg -o ${WORK}/wg.hpp
                  RESULT_VARIABLE rc2)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "lanescope-cli header for the CUDA GEMM failed")
  endif()
  execute_process(COMMAND ${NVCC} -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -DLS_WGMMA -I${WORK} -Xptxas -v
                          ${FRAGMENTS} -o ${WORK}/gemm RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc failed:\n${out}\n${err}")
  endif()
  string(REGEX MATCHALL "[0-9]+ bytes stack frame" frames "${out}${err}")
  foreach(f IN LISTS frames)
    if(NOT f STREQUAL "0 bytes stack frame")
      message(FATAL_ERROR "a kernel has a stack frame (${f}):\n${err}")
    endif()
  endforeach()
  message("nvcc sm_90a: gemm_fragments and gemm_wgmma compile, no stack frame")
  # Every mma() (mma.sync) and wgmma() helper the headers generate assembles: one kernel each.
  execute_process(COMMAND ${CLI} list -a sm_90a --format csv OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  string(REPLACE "\n" ";" lines "${listing}")
  set(source "")
  set(count 0)
  foreach(line IN LISTS lines)
    # target,arch,instruction,short name,MxNxK,... (list's CSV: the text table wraps to 100 columns)
    if(NOT line MATCHES "^[^,]+,[^,]+,[^,]+,((mma|wgmma)_[a-z0-9_]+),[0-9]+x[0-9]+x[0-9]+,")
      continue()
    endif()
    set(ins ${CMAKE_MATCH_1})
    if(ins MATCHES "^wgmma_m64n([0-9]+)" AND NOT CMAKE_MATCH_1 MATCHES "^(8|24|64|256)$")
      continue()  # every type at a few N (8, 24, 64, 256)
    endif()
    execute_process(COMMAND ${CLI} header -a sm_90a -i ${ins} --namespace n${count} -o ${WORK}/n${count}.hpp RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      continue()  # multi-block instructions have no header
    endif()
    file(READ ${WORK}/n${count}.hpp text)
    if(text MATCHES "inline void mma\\(")
      string(APPEND source "#include \"n${count}.hpp\"\n__global__ void k${count}(const unsigned* a, unsigned* d) {\n"
             "    unsigned x[n${count}::D::step_regs];\n    n${count}::mma(a, a, d, x);\n"
             "    for (int r = 0; r < n${count}::D::step_regs; ++r) d[r] = x[r];\n}\n")
    elseif(text MATCHES "inline void wgmma\\(")
      string(APPEND source "#include \"n${count}.hpp\"\n__global__ void k${count}(const unsigned* a, unsigned long long b, unsigned* d) {\n"
             "    n${count}::wgmma_fence();\n    n${count}::wgmma(a, b, d);\n    n${count}::wgmma_commit_and_wait();\n}\n")
    else()
      continue()
    endif()
    math(EXPR count "${count} + 1")
  endforeach()
  if(count LESS 50)
    message(FATAL_ERROR "only ${count} mma/wgmma helpers found")
  endif()
  file(WRITE ${WORK}/helpers.cu "${source}")
  execute_process(COMMAND ${NVCC} -std=c++17 -O1 -gencode arch=compute_90a,code=sm_90a -I${WORK} -c ${WORK}/helpers.cu
                          -o ${WORK}/helpers.o RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc of the mma/wgmma helpers failed:\n${out}\n${err}")
  endif()
  message("nvcc sm_90a: ${count} mma.sync and wgmma helpers assemble")
  file(REMOVE_RECURSE ${WORK})
  return()
endif()
if(GEMM)
  foreach(spec "gfx942;v_mfma_f32_32x32x8_f16;256x256x64" "gfx950;v_mfma_f32_32x32x8_f16;256x256x64"
               "gfx1200;v_wmma_f32_16x16x16_f16;64x64x32")
    list(GET spec 0 gfx)
    list(GET spec 1 ins)
    list(GET spec 2 shape)
    execute_process(COMMAND ${CLI} header --arch ${gfx} -i ${ins} --waves 2x2 --shape ${shape} --namespace tile
                            -o ${WORK}/tile.hpp RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "lanescope-cli header for ${gfx} ${ins} failed: ${err}")
    endif()
    execute_process(COMMAND ${CLANG} -x hip --offload-arch=${gfx} --offload-device-only -nogpulib -nogpuinc -std=c++17
                            -O3 -Wall -Werror -S -I${WORK} ${GEMM} -o ${WORK}/${gfx}.s
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "clang -x hip for ${gfx} failed:\n${out}\n${err}")
    endif()
    file(READ ${WORK}/${gfx}.s asm)
    if(NOT asm MATCHES "\\.private_segment_fixed_size: 0\n")
      string(REGEX MATCH "\\.private_segment_fixed_size: [0-9]+" got "${asm}")
      message(FATAL_ERROR "${gfx}: the GEMM tile kernel uses scratch (${got})")
    endif()
    string(REGEX MATCHALL "s_getpc_b64" getpc "${asm}")
    string(REGEX MATCHALL "@object" objects "${asm}")
    list(LENGTH getpc n_getpc)
    list(LENGTH objects n_objects)
    if(n_getpc GREATER 0 OR n_objects GREATER 1)  # one object: clang's __hip_cuid
      message(FATAL_ERROR "${gfx}: the kernel addresses data in memory (${n_getpc} s_getpc_b64, ${n_objects} objects)")
    endif()
    # The CUDA GEMM's source (tests/gemm_fragments.cu) on the same header: the same kernel for AMD.
    if(FRAGMENTS)
      execute_process(COMMAND ${CLANG} -x hip --offload-arch=${gfx} --offload-device-only -nogpulib -nogpuinc -std=c++17
                              -O3 -Wall -Werror -DLS_DEVICE_ONLY -S -I${WORK} ${FRAGMENTS} -o ${WORK}/${gfx}_fragments.s
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "clang -x hip of gemm_fragments.cu for ${gfx} failed:\n${out}\n${err}")
      endif()
      file(READ ${WORK}/${gfx}_fragments.s fasm)
      if(NOT fasm MATCHES "\\.private_segment_fixed_size: 0\n" OR fasm MATCHES "s_getpc_b64")
        message(FATAL_ERROR "${gfx}: gemm_fragments uses scratch or addresses a table")
      endif()
      message("${gfx}: gemm_fragments.cu compiles (no scratch, no tables)")
    endif()
    if(gfx STREQUAL "gfx942")
      string(REGEX MATCHALL "[ \t]ds_read_b64[ \t]" one "${asm}")
      string(REGEX MATCHALL "[ \t]ds_read2(st64)?_b64[ \t]" two "${asm}")
      string(REGEX MATCHALL "[ \t]ds_read(_u16|_b32|_b96|_b128|_u8|2_b32)[ \t]" other "${asm}")
      list(LENGTH one n1)
      list(LENGTH two n2)
      list(LENGTH other n_other)
      math(EXPR reads "${n1} + 2 * ${n2}")
      set(planned 0)
      foreach(op "A;row" "B;col")
        list(GET op 0 operand)
        list(GET op 1 order)
        execute_process(COMMAND ${CLI} load --arch ${gfx} -i ${ins} --waves 2x2 --shape ${shape} --operand ${operand}
                                --order ${order} OUTPUT_VARIABLE plan RESULT_VARIABLE rc)
        if(NOT rc EQUAL 0 OR NOT plan MATCHES "plain loads: ([0-9]+) instructions per wave")
          message(FATAL_ERROR "lanescope-cli load for ${operand} failed")
        endif()
        math(EXPR planned "${planned} + ${CMAKE_MATCH_1}")
        if(NOT plan MATCHES "ds_read_b64" OR plan MATCHES "ds_read_(u16|b32|b128)")
          message(FATAL_ERROR "load plans other than ds_read_b64 for ${operand}: update this test")
        endif()
      endforeach()
      if(NOT reads EQUAL planned OR n_other GREATER 0)
        message(FATAL_ERROR "gfx942: ${reads} 8-byte LDS reads (${n1} ds_read_b64, ${n2} pairs) and ${n_other} others; load plans ${planned} ds_read_b64")
      endif()
      message("gfx942: ${reads} 8-byte LDS reads (${n2} ds_read2_b64 pairs), as load plans; no scratch, no tables")
    else()
      message("${gfx}: no scratch, no tables")
    endif()
  endforeach()
  file(REMOVE_RECURSE ${WORK})
  return()
endif()
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
