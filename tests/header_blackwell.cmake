# Generated headers for Blackwell compile with nvcc: lanescope-cli header for the registers of a
# tcgen05.mma D read back with each tcgen05.ld shape by 4 and 8 warps (f32 and 16-bit D) for
# sm_100a, and for sm_120's block-scaled mma.sync (A/B/C/D fragments, SFA/SFB owners) for
# sm_120a; one kernel calls every helper, and static_asserts check values Triton 3.6 gives
# (get_tmem_reg_layout, fp32 [128, 64], 16x256b, 4 warps: register basis [0, 1], lane basis
# [0, 2], warp basis [32, 0]) and PTX's fragment table (mma m16n8k64: D row = lane/4).
# -DCLI=<lanescope-cli> -DNVCC=<nvcc> -DWORK=<scratch directory>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(compile arch source what)
  execute_process(COMMAND ${NVCC} -std=c++17 -O3 -gencode arch=compute_${arch},code=sm_${arch} -I${WORK} -c ${WORK}/${source}
                          -o ${WORK}/${source}.o RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc sm_${arch} failed:\n${out}\n${err}")
  endif()
  message("nvcc sm_${arch}: ${what}")
endfunction()
function(header arch ins ns)
  execute_process(COMMAND ${CLI} header -a ${arch} -i ${ins} ${ARGN} --namespace ${ns} -o ${WORK}/${ns}.hpp
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lanescope-cli header -a ${arch} -i ${ins} ${ARGN} failed: ${err}")
  endif()
endfunction()

# sm_100a: tcgen05.ld fragments of D.
set(body100 "")
set(includes100 "")
set(n 0)
foreach(d f32 f16)
  foreach(v 32x32b 16x64b 16x128b 16x256b)
    foreach(w 4 8)
      foreach(m 64 128)
        header(sm_100a tcgen05_mma_m${m}n64k16_${d}_f16 t${n} --tmem-load ${v} --num-warps ${w})
        string(APPEND includes100 "#include \"t${n}.hpp\"\nstatic_assert(t${n}::D::closed_form, \"${d} ${v} ${w} warps M=${m}: closed form\");\n")
        string(APPEND body100 "    { auto it = t${n}::D::which(0, threadIdx.x % t${n}::D::lanes, i % t${n}::D::items); "
                              "auto s = t${n}::D::where(it.row, it.col); out[${n}] = it.row * 1000 + it.col + s.lane; }\n")
        math(EXPR n "${n} + 1")
      endforeach()
    endforeach()
  endforeach()
endforeach()
header(sm_100a tcgen05_mma_m128n64k16_f32_f16 tw --tmem-load 16x256b --num-warps 4)
file(WRITE ${WORK}/sm100.cu "${includes100}#include \"tw.hpp\"
// Triton 3.6's worked example: thread t, register index e -> D (row, col) by its bases.
static_assert(tw::D::closed_form, \"the tcgen05.ld fragment is linear: a closed form\");
static_assert(tw::D::row_of(0, 0, 1) == 0 && tw::D::col_of(0, 0, 1) == 1, \"register basis 0 is [0, 1]\");
static_assert(tw::D::row_of(0, 1, 0) == 0 && tw::D::col_of(0, 1, 0) == 2, \"lane basis 0 is [0, 2]\");
static_assert(tw::D::row_of(0, 32, 0) == 32 && tw::D::col_of(0, 32, 0) == 0, \"warp basis 0 is [32, 0]\");
__global__ void use(int* out, int i) {
${body100}}
")
compile(100a sm100.cu "${n} tcgen05.ld fragment headers compile, Triton's bases hold at compile time")

# sm_120a: block-scaled mma.sync fragments and scale-factor owners.
set(body120 "")
set(includes120 "")
set(k 0)
foreach(ins mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue4m3 mma_m16n8k64_f32_e2m1_mxf4_2x_ue8m0
            mma_m16n8k32_f32_e4m3_mxf8f6f4_1x_ue8m0 mma_m16n8k32_f32_e2m1_e4m3_f8f6f4)
  header(sm_120a ${ins} s${k})
  string(APPEND includes120 "#include \"s${k}.hpp\"\n")
  foreach(op A B C D)
    string(APPEND body120 "    { auto it = s${k}::${op}::which(0, threadIdx.x % 32, i % s${k}::${op}::items); out[${k}] += it.row + it.col; }\n")
  endforeach()
  if(NOT ins MATCHES "_f8f6f4$")
    # The scale-factor owners are tables (a scale word serves several elements): constexpr on the host.
    foreach(op SA SB)
      string(APPEND includes120 "static_assert(s${k}::${op}::where(s${k}::${op}::rows - 1, s${k}::${op}::cols - 1).lane < 32, \"${op} has an owner\");\n")
    endforeach()
  endif()
  math(EXPR k "${k} + 1")
endforeach()
file(WRITE ${WORK}/sm120.cu "${includes120}
// PTX's m16n8k64 fragment (9.7.14.5.11): D element i of lane l is row l/4 + 8*(i/2), column 2*(l%4) + i%2.
static_assert(s0::D::row_of(0, 5, 0) == 1 && s0::D::col_of(0, 5, 1) == 3, \"D row = lane/4, col = 2*(lane%4) + i%2\");
// PTX 9.7.14.3, scale_vec::1X with thread-id-a 0: lanes 4g and 4g + 1 give the scales of A's rows g and g + 8.
static_assert(s2::SA::where(9, 0).lane == 5 && s2::SA::where(1, 0).lane == 4, \"SFA of row 9 from lane 5, row 1 from lane 4\");
__global__ void use(int* out, int i) {
${body120}}
")
compile(120a sm120.cu "${k} block-scaled mma.sync headers (A/B/C/D, SFA/SFB owners) compile")
