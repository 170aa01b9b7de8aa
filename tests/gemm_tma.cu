// The H200 proof of lanescope's shared-memory helpers (scripts/verify-gemm-tma.sh): a GEMM
// C = A * B^T (A: M x K, B: N x K, both K-contiguous f16; C: M x N f32) whose shared-memory side
// comes only from `lanescope-cli header -a sm_90a -i wgmma_m64n128k16_f32_f16 --namespace wg`:
//   - the TMA boxes (wg::smem::tma_box_inner, wg::smem::tensor_map_swizzle) that write A and B tiles,
//   - the wgmma descriptors of A and B (wg::smem::wgmma_desc, ktile_offset, canonical_lbo / _sbo),
//   - the instruction, SS form (wg::wgmma_ss), and D's registers (wg::D::unpack, wg::store_c),
// at every swizzle mode (none, 32B, 64B, 128B), one kernel each. 128 x 128 x 64 per CTA, four
// stages of mbarrier-synchronised TMA loads by one producer thread, two consumer warpgroups of
// 64 x 128 each (PTX ISA 9.7.9.27 cp.async.bulk.tensor, 9.7.13.15 mbarrier, 9.7.15.5.2 wgmma).
// Usage: gemm_tma OUTDIR M N K [iterations]: writes A.bin, B.bin (f16) and C_<mode>.bin (f32),
// prints each mode's max |C - reference| (a plain GPU reference of the same f16 values) and TFLOP/s.
#include "wg.hpp"

#include <cuda.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <cstdlib>
#include <string>
#include <vector>

constexpr int BM = 128, BN = 128, BK = 64, STAGES = 4, THREADS = 384;
constexpr int kStageBytes = (BM + BN) * BK * 2;
static_assert(wg::D::rows == 64 && wg::D::cols == BN, "the header must be wgmma m64n128k16");

__device__ inline unsigned smem_u32(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
__device__ inline void bar_init(unsigned long long* b, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(b)), "r"(count));
}
__device__ inline void bar_expect(unsigned long long* b, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(b)), "r"(bytes) : "memory");
}
__device__ inline void bar_arrive(unsigned long long* b) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(b)) : "memory");
}
__device__ inline void bar_wait(unsigned long long* b, unsigned parity) {
    asm volatile(
        "{\n.reg .pred p;\nLS_WAIT_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra LS_WAIT_%=;\n}\n" ::"r"(
            smem_u32(b)),
        "r"(parity)
        : "memory");
}
__device__ inline void tma_load(void* dst, const CUtensorMap* map, int x, int y, unsigned long long* bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            smem_u32(dst)),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(x), "r"(y), "r"(smem_u32(bar))
        : "memory");
}

template <int MODE>
__global__ void __launch_bounds__(THREADS) gemm_tma(const __grid_constant__ CUtensorMap map_a,
                                                    const __grid_constant__ CUtensorMap map_b, float* c, int N, int K) {
    extern __shared__ __align__(1024) unsigned char smem[];
    __shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES];
    constexpr int E = wg::smem::tma_box_inner(2, MODE);  // elements of one box row: the swizzle span (none: 16 bytes)
    constexpr int boxes = BK / E;
    const int tid = threadIdx.x, group = tid / 128;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, k_tiles = K / BK;
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) bar_init(&full[s], 1), bar_init(&empty[s], 2);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (group == 0) {  // producer: one thread issues every TMA copy
        if (tid != 0) return;
        for (int kt = 0; kt < k_tiles; ++kt) {
            const int s = kt % STAGES;
            if (kt >= STAGES) bar_wait(&empty[s], ((kt / STAGES) - 1) & 1);
            unsigned char* a = smem + s * kStageBytes;
            unsigned char* b = a + BM * BK * 2;
            bar_expect(&full[s], kStageBytes);
            for (int j = 0; j < boxes; ++j) {
                // Box j of the tile: K elements [j*E, (j+1)*E) of every row, at ktile_offset(0, j*E).
                tma_load(a + wg::smem::ktile_offset(0, j * E, BM, 2, MODE), &map_a, kt * BK + j * E, m0, &full[s]);
                tma_load(b + wg::smem::ktile_offset(0, j * E, BN, 2, MODE), &map_b, kt * BK + j * E, n0, &full[s]);
            }
        }
        return;
    }
    const int w = group - 1;  // consumer warpgroup: rows 64w .. 64w + 63 of the CTA's tile
    unsigned d[wg::D::regs];
#pragma unroll
    for (int i = 0; i < wg::D::regs; ++i) d[i] = 0;
    constexpr unsigned lbo_a = wg::smem::canonical_lbo(BM, 2, false, MODE), sbo_a = wg::smem::canonical_sbo(BM, 2, false, MODE);
    constexpr unsigned lbo_b = wg::smem::canonical_lbo(BN, 2, false, MODE), sbo_b = wg::smem::canonical_sbo(BN, 2, false, MODE);
    for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % STAGES;
        bar_wait(&full[s], (kt / STAGES) & 1);
        const unsigned a = smem_u32(smem + s * kStageBytes), b = a + BM * BK * 2;
        wg::wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < BK / 16; ++ks) {
            const unsigned long long da =
                wg::smem::wgmma_desc(a + wg::smem::ktile_offset(64 * w, 16 * ks, BM, 2, MODE), lbo_a, sbo_a, MODE);
            const unsigned long long db = wg::smem::wgmma_desc(b + wg::smem::ktile_offset(0, 16 * ks, BN, 2, MODE), lbo_b, sbo_b, MODE);
            wg::wgmma_ss<0, 0>(da, db, d);
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        // Keep one stage in flight: the previous stage's wgmmas are done, so its buffers go back.
        asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        if (kt > 0 && tid % 128 == 0) bar_arrive(&empty[(kt - 1) % STAGES]);
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    float z[wg::D::items];
    wg::D::unpack(d, z);
    wg::store_c(c + static_cast<long>(m0 + 64 * w) * N + n0, N, true, 0, tid % 128, z);
}

__global__ void reference(const __half* a, const __half* b, float* c, int M, int N, int K) {
    const int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y;
    if (n >= N || m >= M) return;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += __half2float(a[static_cast<long>(m) * K + k]) * __half2float(b[static_cast<long>(n) * K + k]);
    c[static_cast<long>(m) * N + n] = s;
}

static void check(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) {
        const char* s = nullptr;
        cuGetErrorString(r, &s);
        std::fprintf(stderr, "%s: %s\n", what, s ? s : "?");
        std::exit(1);
    }
}
static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

static CUtensorMap make_map(const __half* p, int rows, int K, int mode, int box_rows) {
    CUtensorMap m;
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(K), static_cast<cuuint64_t>(rows)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(K) * 2};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(wg::smem::tma_box_inner(2, mode)), static_cast<cuuint32_t>(box_rows)};
    const cuuint32_t es[2] = {1, 1};
    check(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half*>(p), dims, strides, box, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(wg::smem::tensor_map_swizzle(mode)),
                                 CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          "cuTensorMapEncodeTiled");
    return m;
}

template <int MODE>
static void run(const char* name, const __half* a, const __half* b, float* c, const float* ref, int M, int N, int K, int iters,
                const std::string& out) {
    const CUtensorMap ma = make_map(a, M, K, MODE, BM), mb = make_map(b, N, K, MODE, BN);
    const int bytes = STAGES * kStageBytes;
    check(cudaFuncSetAttribute(gemm_tma<MODE>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), "smem attribute");
    const dim3 grid(N / BN, M / BM);
    check(cudaMemset(c, 0, static_cast<size_t>(M) * N * 4), "memset");
    gemm_tma<MODE><<<grid, THREADS, bytes>>>(ma, mb, c, N, K);
    check(cudaDeviceSynchronize(), name);
    std::vector<float> hc(static_cast<size_t>(M) * N), hr(hc.size());
    check(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost), "copy C");
    check(cudaMemcpy(hr.data(), ref, hr.size() * 4, cudaMemcpyDeviceToHost), "copy ref");
    double worst = 0;
    long bad = 0;
    for (size_t i = 0; i < hc.size(); ++i) {
        const double e = std::abs(double(hc[i]) - hr[i]);
        worst = e > worst ? e : worst;
        bad += e > 1e-3 * (1 + std::abs(double(hr[i])));
    }
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    for (int i = 0; i < 3; ++i) gemm_tma<MODE><<<grid, THREADS, bytes>>>(ma, mb, c, N, K);
    cudaEventRecord(t0);
    for (int i = 0; i < iters; ++i) gemm_tma<MODE><<<grid, THREADS, bytes>>>(ma, mb, c, N, K);
    cudaEventRecord(t1);
    check(cudaEventSynchronize(t1), name);
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    const double tflops = 2.0 * M * N * K / (ms / iters * 1e-3) / 1e12;
    std::printf("swizzle %-4s %dx%dx%d: max |C - reference| = %.3g, %ld of %zu outside tolerance: %s; %.1f TFLOP/s (%.3f ms)\n",
                name, M, N, K, worst, bad, hc.size(), bad ? "FAIL" : "ok", tflops, ms / iters);
    FILE* f = std::fopen((out + "/C_" + name + ".bin").c_str(), "wb");
    if (f) std::fwrite(hc.data(), 4, hc.size(), f), std::fclose(f);
    if (bad) std::exit(1);
}

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: gemm_tma OUTDIR M N K [iterations]\n");
        return 2;
    }
    const std::string out = argv[1];
    const int M = std::atoi(argv[2]), N = std::atoi(argv[3]), K = std::atoi(argv[4]), iters = argc > 5 ? std::atoi(argv[5]) : 20;
    if (M % BM || N % BN || K % BK) {
        std::fprintf(stderr, "M, N must be multiples of %d, K of %d\n", BM, BK);
        return 2;
    }
    std::vector<__half> ha(static_cast<size_t>(M) * K), hb(static_cast<size_t>(N) * K);
    unsigned x = 12345;
    auto rnd = [&] { x = x * 1664525u + 1013904223u; return static_cast<float>((x >> 9) % 2001) / 1000.f - 1.f; };
    for (auto& v : ha) v = __float2half(rnd());
    for (auto& v : hb) v = __float2half(rnd());
    __half *a, *b;
    float *c, *ref;
    check(cudaMalloc(&a, ha.size() * 2), "malloc");
    check(cudaMalloc(&b, hb.size() * 2), "malloc");
    check(cudaMalloc(&c, static_cast<size_t>(M) * N * 4), "malloc");
    check(cudaMalloc(&ref, static_cast<size_t>(M) * N * 4), "malloc");
    check(cudaMemcpy(a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice), "copy");
    reference<<<dim3((N + 255) / 256, M), 256>>>(a, b, ref, M, N, K);
    check(cudaDeviceSynchronize(), "reference");
    for (auto [p, n, name] : {std::tuple{ha.data(), ha.size(), "A"}, std::tuple{hb.data(), hb.size(), "B"}}) {
        FILE* f = std::fopen((out + "/" + name + ".bin").c_str(), "wb");
        if (f) std::fwrite(p, 2, n, f), std::fclose(f);
    }
    run<0>("none", a, b, c, ref, M, N, K, iters, out);
    run<1>("32B", a, b, c, ref, M, N, K, iters, out);
    run<2>("64B", a, b, c, ref, M, N, K, iters, out);
    run<3>("128B", a, b, c, ref, M, N, K, iters, out);
    return 0;
}
