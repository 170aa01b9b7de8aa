// A GEMM whose every fragment load, register packing, instruction and store
// comes from lanescope's generated helpers (lanescope-cli header):
//   C (M x N, f32, row-major) = A (M x K, f16, row-major) * B (K x N, f16,
//   column-major: each column's K contiguous, i.e. B^T row-major).
//
// gemm_fragments: one block per tile::D::rows x tile::D::cols block of C, the
// header's wave grid as its warps (waves); over K in steps of tile::A::cols:
// load_a / load_b straight from global memory, A/B::pack, mma per step in the
// header's register order (step()), then D::unpack and store_c. One source:
// CUDA with an mma.sync header (namespace `tile`), HIP with an MFMA/WMMA header
// (-DLS_DEVICE_ONLY: tests/header_device.cmake compiles it device-only for
// gfx942, gfx950 and gfx1200).
//
// gemm_ldmatrix (CUDA): the same with A and B staged in shared memory and their fragments loaded
// by the header's ldmatrix (one ldmatrix.x4 / .x2 per step, row addresses from ldmatrix_row).
//
// gemm_wgmma (CUDA, sm_90a, -DLS_WGMMA with a wgmma m64nNk16 f16 header in
// namespace `wg`): one warpgroup per 64 x N block of C; A from registers through
// wg::A::load and pack, B staged in shared memory in the no-swizzle K-major
// layout of core matrices and passed as a wgmma descriptor (built here: lanescope
// models register fragments, not shared-memory descriptors), the instruction
// through wg::wgmma, D through wg::D::unpack and wg::store_c.
//
// The host part (CUDA only) runs both over several sizes, compares with a GPU
// reference (f32 products of the same f16 values) and writes A, B, C for an
// independent check (scripts/verify-gemm-cuda.sh compares with torch.matmul).
#include "tile.hpp"
#if defined(LS_WGMMA)
#include "wg.hpp"
#endif

#if defined(__HIP__)
#define LS_KERNEL extern "C" __attribute__((global))
#define LS_THREAD() static_cast<int>(__builtin_amdgcn_workitem_id_x())
#define LS_BLOCK_X() static_cast<int>(__builtin_amdgcn_workgroup_id_x())
#define LS_BLOCK_Y() static_cast<int>(__builtin_amdgcn_workgroup_id_y())
typedef _Float16 half_t;
#else
#include <cuda_fp16.h>
#define LS_KERNEL extern "C" __global__
#define LS_THREAD() static_cast<int>(threadIdx.x)
#define LS_BLOCK_X() static_cast<int>(blockIdx.x)
#define LS_BLOCK_Y() static_cast<int>(blockIdx.y)
typedef __half half_t;
#endif

// K of one step, rows and columns of C per block, threads per block.
constexpr int kTileK = tile::A::cols, kTileM = tile::D::rows, kTileN = tile::D::cols;
constexpr int kThreads = tile::A::waves * tile::A::lanes;

#if defined(__HIP__)
#define LS_BOUNDS __attribute__((amdgpu_flat_work_group_size(kThreads, kThreads)))
#else
#define LS_BOUNDS __launch_bounds__(kThreads)
#endif

LS_KERNEL void LS_BOUNDS gemm_fragments(const half_t* a, const half_t* b, float* c, int M, int N, int K) {
    (void)M;
    const int tid = LS_THREAD();
    const int wave = tid / tile::A::lanes, lane = tid % tile::A::lanes;
    const int m0 = LS_BLOCK_Y() * kTileM, n0 = LS_BLOCK_X() * kTileN;
    unsigned rc[tile::D::regs];
#pragma unroll
    for (int r = 0; r < tile::D::regs; ++r) rc[r] = 0;
    for (int k0 = 0; k0 < K; k0 += kTileK) {
        half_t x[tile::A::items], y[tile::B::items];
        tile::load_a(a + static_cast<long>(m0) * K + k0, K, true, wave, lane, x);
        tile::load_b(b + static_cast<long>(n0) * K + k0, K, false, wave, lane, y);
        unsigned ra[tile::A::regs], rb[tile::B::regs];
        tile::A::pack(x, ra);
        tile::B::pack(y, rb);
#pragma unroll
        for (int rm = 0; rm < tile::D::repeats_m; ++rm)
#pragma unroll
            for (int rn = 0; rn < tile::D::repeats_n; ++rn)
#pragma unroll
                for (int tm = 0; tm < tile::D::tiles_m; ++tm)
#pragma unroll
                    for (int tn = 0; tn < tile::D::tiles_n; ++tn)
#pragma unroll
                        for (int ks = 0; ks < tile::A::k_steps; ++ks) {
                            unsigned* acc = rc + tile::D::step(0, tm, tn, rm, rn) * tile::D::step_regs;
                            tile::mma(ra + tile::A::step(ks, tm, tn, rm, rn) * tile::A::step_regs,
                                      rb + tile::B::step(ks, tm, tn, rm, rn) * tile::B::step_regs, acc, acc);
                        }
    }
    float z[tile::D::items];
    tile::D::unpack(rc, z);
    tile::store_c(c + static_cast<long>(m0) * N + n0, N, true, wave, lane, z);
}

#if !defined(__HIP__)
// The same on fragments from shared memory through the header's ldmatrix (row addresses from
// ldmatrix_row): A's block row-major, B's block column-major, both with leading dimension kTileK.
LS_KERNEL void LS_BOUNDS gemm_ldmatrix(const half_t* a, const half_t* b, float* c, int M, int N, int K) {
    (void)M;
    __shared__ alignas(16) half_t sa[kTileM * kTileK], sb[kTileN * kTileK];
    const int tid = LS_THREAD();
    const int wave = tid / tile::A::lanes, lane = tid % tile::A::lanes;
    const int m0 = LS_BLOCK_Y() * kTileM, n0 = LS_BLOCK_X() * kTileN;
    unsigned rc[tile::D::regs];
#pragma unroll
    for (int r = 0; r < tile::D::regs; ++r) rc[r] = 0;
    for (int k0 = 0; k0 < K; k0 += kTileK) {
        for (int i = tid; i < kTileM * kTileK; i += kThreads)
            sa[i] = a[static_cast<long>(m0 + i / kTileK) * K + k0 + i % kTileK];
        for (int i = tid; i < kTileN * kTileK; i += kThreads)
            sb[i] = b[static_cast<long>(n0 + i / kTileK) * K + k0 + i % kTileK];
        __syncthreads();
        unsigned ra[tile::A::regs], rb[tile::B::regs];
#pragma unroll
        for (int s = 0; s < tile::A::steps; ++s) tile::A::ldmatrix(sa, kTileK, true, wave, lane, s, ra + s * tile::A::step_regs);
#pragma unroll
        for (int s = 0; s < tile::B::steps; ++s) tile::B::ldmatrix(sb, kTileK, false, wave, lane, s, rb + s * tile::B::step_regs);
        __syncthreads();
#pragma unroll
        for (int rm = 0; rm < tile::D::repeats_m; ++rm)
#pragma unroll
            for (int rn = 0; rn < tile::D::repeats_n; ++rn)
#pragma unroll
                for (int tm = 0; tm < tile::D::tiles_m; ++tm)
#pragma unroll
                    for (int tn = 0; tn < tile::D::tiles_n; ++tn)
#pragma unroll
                        for (int ks = 0; ks < tile::A::k_steps; ++ks) {
                            unsigned* acc = rc + tile::D::step(0, tm, tn, rm, rn) * tile::D::step_regs;
                            tile::mma(ra + tile::A::step(ks, tm, tn, rm, rn) * tile::A::step_regs,
                                      rb + tile::B::step(ks, tm, tn, rm, rn) * tile::B::step_regs, acc, acc);
                        }
    }
    float z[tile::D::items];
    tile::D::unpack(rc, z);
    tile::store_c(c + static_cast<long>(m0) * N + n0, N, true, wave, lane, z);
}
#endif

#if defined(LS_WGMMA)
// B's 16 x N tile in shared memory for wgmma without swizzle, K-major: core matrices of 8 columns (n)
// x 8 k (16 bytes each row), core matrix (n / 8, k / 8) at ((n / 8) * 2 + k / 8) * 128 bytes, so the
// leading (K) byte offset is 128 and the stride (N) byte offset 256 (PTX 9.7.15.5.1 "Shared Memory
// Matrix Layout"; CUTLASS make_gmma_desc, SWIZZLE_NONE K-major).
constexpr int kWgN = wg::D::cols;
__device__ inline int wg_b_offset(int k, int n) { return ((n / 8) * 2 + k / 8) * 64 + (n % 8) * 8 + k % 8; }

__device__ inline unsigned long long wg_descriptor(const void* smem) {
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    unsigned long long d = 0;
    d |= static_cast<unsigned long long>((addr >> 4) & 0x3FFF);        // start address
    d |= static_cast<unsigned long long>((128 >> 4) & 0x3FFF) << 16;   // leading byte offset (K)
    d |= static_cast<unsigned long long>((256 >> 4) & 0x3FFF) << 32;   // stride byte offset (N)
    return d;                                                          // base offset 0, no swizzle
}

LS_KERNEL void __launch_bounds__(128) gemm_wgmma(const half_t* a, const half_t* b, float* c, int M, int N, int K) {
    (void)M;
    static_assert(wg::A::lanes == 128 && wg::A::rows == 64 && wg::A::cols == 16 && kWgN == 64, "m64n64k16");
    __shared__ alignas(128) half_t sb[16 * kWgN];
    const int tid = LS_THREAD();
    const int m0 = LS_BLOCK_Y() * 64, n0 = LS_BLOCK_X() * kWgN;
    float d[wg::D::items];
#pragma unroll
    for (int i = 0; i < wg::D::items; ++i) d[i] = 0.f;
    unsigned rd[wg::D::regs];
    wg::D::pack(d, rd);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = tid; i < 16 * kWgN; i += 128) {
            const int n = i / 16, k = i % 16;
            sb[wg_b_offset(k, n)] = b[static_cast<long>(n0 + n) * K + k0 + k];
        }
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncthreads();
        half_t x[wg::A::items];
        wg::load_a(a + static_cast<long>(m0) * K + k0, K, true, 0, tid, x);
        unsigned ra[wg::A::regs];
        wg::A::pack(x, ra);
        wg::wgmma_fence();
        wg::wgmma(ra, wg_descriptor(sb), rd);
        wg::wgmma_commit_and_wait();
        __syncthreads();
    }
    wg::D::unpack(rd, d);
    wg::store_c(c + static_cast<long>(m0) * N + n0, N, true, 0, tid, d);
}
#endif

#if !defined(LS_DEVICE_ONLY)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// Reference: f32 products of the same f16 values, summed in f32 (one thread per element).
__global__ void gemm_reference(const half_t* a, const half_t* b, float* c, int M, int N, int K) {
    const int m = blockIdx.y * 16 + threadIdx.y, n = blockIdx.x * 16 + threadIdx.x;
    if (m >= M || n >= N) return;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += __half2float(a[static_cast<long>(m) * K + k]) * __half2float(b[static_cast<long>(n) * K + k]);
    c[static_cast<long>(m) * N + n] = s;
}

#define CHECK_CUDA(x)                                                                          \
    do {                                                                                       \
        cudaError_t e = (x);                                                                   \
        if (e != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
            std::exit(2);                                                                      \
        }                                                                                      \
    } while (0)

// Usage: gemm_fragments OUT_DIR M N K [M N K ...]; writes OUT_DIR/<kernel>_<M>x<N>x<K>.{a,b,c}.bin.
int main(int argc, char** argv) {
    if (argc < 5 || (argc - 2) % 3 != 0) {
        std::fprintf(stderr, "usage: %s OUT_DIR M N K [M N K ...]\n", argv[0]);
        return 2;
    }
    const std::string out = argv[1];
    int failures = 0;
    for (int at = 2; at + 2 < argc; at += 3) {
        const int M = std::atoi(argv[at]), N = std::atoi(argv[at + 1]), K = std::atoi(argv[at + 2]);
        struct Run {
            const char* name;
            int tm, tn, tk, threads;
        };
        std::vector<Run> runs = {{"mma_sync", kTileM, kTileN, kTileK, kThreads}, {"ldmatrix", kTileM, kTileN, kTileK, kThreads}};
#if defined(LS_WGMMA)
        runs.push_back({"wgmma", 64, kWgN, 16, 128});
#endif
        for (const Run& run : runs) {
            if (M % run.tm || N % run.tn || K % run.tk) {
                std::printf("%s %dx%dx%d: skipped (not a multiple of %dx%dx%d)\n", run.name, M, N, K, run.tm, run.tn, run.tk);
                continue;
            }
            std::vector<half_t> ha(static_cast<size_t>(M) * K), hb(static_cast<size_t>(K) * N);
            unsigned seed = 12345u + static_cast<unsigned>(M * 7 + N * 13 + K);
            auto rnd = [&] {
                seed = seed * 1664525u + 1013904223u;
                return static_cast<float>((seed >> 9) & 0xFFFF) / 65536.f * 2.f - 1.f;
            };
            for (auto& v : ha) v = __float2half(rnd());
            for (auto& v : hb) v = __float2half(rnd());
            half_t *da, *db;
            float *dc, *dr;
            CHECK_CUDA(cudaMalloc(&da, ha.size() * sizeof(half_t)));
            CHECK_CUDA(cudaMalloc(&db, hb.size() * sizeof(half_t)));
            CHECK_CUDA(cudaMalloc(&dc, static_cast<size_t>(M) * N * sizeof(float)));
            CHECK_CUDA(cudaMalloc(&dr, static_cast<size_t>(M) * N * sizeof(float)));
            CHECK_CUDA(cudaMemcpy(da, ha.data(), ha.size() * sizeof(half_t), cudaMemcpyHostToDevice));
            CHECK_CUDA(cudaMemcpy(db, hb.data(), hb.size() * sizeof(half_t), cudaMemcpyHostToDevice));
            CHECK_CUDA(cudaMemset(dc, 0xFF, static_cast<size_t>(M) * N * sizeof(float)));  // NaN where nothing is stored
            dim3 grid(N / run.tn, M / run.tm);
#if defined(LS_WGMMA)
            if (std::string(run.name) == "wgmma")
                gemm_wgmma<<<grid, run.threads>>>(da, db, dc, M, N, K);
            else
#endif
            if (std::string(run.name) == "ldmatrix")
                gemm_ldmatrix<<<grid, run.threads>>>(da, db, dc, M, N, K);
            else
                gemm_fragments<<<grid, run.threads>>>(da, db, dc, M, N, K);
            CHECK_CUDA(cudaGetLastError());
            gemm_reference<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(da, db, dr, M, N, K);
            CHECK_CUDA(cudaDeviceSynchronize());
            std::vector<float> hc(static_cast<size_t>(M) * N), hr(hc.size());
            CHECK_CUDA(cudaMemcpy(hc.data(), dc, hc.size() * sizeof(float), cudaMemcpyDeviceToHost));
            CHECK_CUDA(cudaMemcpy(hr.data(), dr, hr.size() * sizeof(float), cudaMemcpyDeviceToHost));
            // f16 inputs, f32 accumulation in another order: |c - r| <= 1e-3 * (sqrt(K) + |r|).
            double worst = 0;
            long bad = 0;
            for (size_t i = 0; i < hc.size(); ++i) {
                const double err = std::fabs(static_cast<double>(hc[i]) - hr[i]);
                const double tol = 1e-3 * (std::sqrt(static_cast<double>(K)) + std::fabs(hr[i]));
                if (!(err <= tol)) ++bad;
                if (err > worst || std::isnan(err)) worst = std::isnan(err) ? INFINITY : err;
            }
            std::printf("%-8s %5dx%5dx%5d: max |C - reference| = %.3g, %ld of %zu elements outside tolerance: %s\n", run.name, M,
                        N, K, worst, bad, hc.size(), bad ? "FAIL" : "ok");
            failures += bad != 0;
            const std::string stem = out + "/" + run.name + "_" + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
            auto dump = [](const std::string& path, const void* p, size_t bytes) {
                FILE* f = std::fopen(path.c_str(), "wb");
                if (!f || std::fwrite(p, 1, bytes, f) != bytes) std::fprintf(stderr, "cannot write %s\n", path.c_str());
                if (f) std::fclose(f);
            };
            dump(stem + ".a.bin", ha.data(), ha.size() * sizeof(half_t));
            dump(stem + ".b.bin", hb.data(), hb.size() * sizeof(half_t));
            dump(stem + ".c.bin", hc.data(), hc.size() * sizeof(float));
            cudaFree(da);
            cudaFree(db);
            cudaFree(dc);
            cudaFree(dr);
        }
    }
    return failures ? 1 : 0;
}
#endif
