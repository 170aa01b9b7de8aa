// One workgroup computes one M x N tile of C = A * B over K (the tile of a
// generated header, namespace `tile`): A (M x K, row-major) and B (K x N,
// column-major, i.e. each column's K contiguous) are staged in LDS, then every
// fragment load, register packing, instruction and the C store come from the
// header (load_a, load_b, A/B/D::pack, mma, D::unpack, store_c). The same source
// serves every AMD target the header is generated for (gfx942/gfx950 MFMA,
// gfx1200 WMMA): tests/header_device.cmake compiles it device-only with clang
// and scripts/bench-header.sh measures it. Self-contained (-nogpulib -nogpuinc):
// the HIP keywords it needs are spelled as clang attributes and builtins.
#include "tile.hpp"

#define LS_KERNEL extern "C" __attribute__((global))
#define LS_SHARED __attribute__((shared))

typedef _Float16 half;
struct alignas(16) Chunk {
    unsigned w[4];
};

static __attribute__((device)) inline void workgroup_barrier() {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

constexpr int M = tile::A::rows, K = tile::A::cols, N = tile::B::cols;
constexpr int kThreads = tile::A::waves * tile::A::lanes;
static_assert(tile::B::rows == K && tile::D::rows == M && tile::D::cols == N, "one tile");

LS_KERNEL void __attribute__((amdgpu_flat_work_group_size(kThreads, kThreads)))
lanescope_gemm_tile(const half* a, const half* b, float* c, int ldc) {
    LS_SHARED Chunk sa_raw[M * K / 8];  // A row-major, ld K
    LS_SHARED Chunk sb_raw[N * K / 8];  // B column-major, ld K
    const int tid = static_cast<int>(__builtin_amdgcn_workitem_id_x());
    const int tile_m = static_cast<int>(__builtin_amdgcn_workgroup_id_x()) * M;
    const int tile_n = static_cast<int>(__builtin_amdgcn_workgroup_id_y()) * N;
    // Stage this tile: 16 bytes per thread per step (A rows tile_m.., B columns tile_n..; lda = ldb = K).
    for (int i = tid; i < M * K / 8; i += kThreads) sa_raw[i] = reinterpret_cast<const Chunk*>(a + tile_m * K)[i];
    for (int i = tid; i < N * K / 8; i += kThreads) sb_raw[i] = reinterpret_cast<const Chunk*>(b + tile_n * K)[i];
    workgroup_barrier();
    const half* sa = reinterpret_cast<const half*>(sa_raw);
    const half* sb = reinterpret_cast<const half*>(sb_raw);
    const int wave = tid / tile::A::lanes, lane = tid % tile::A::lanes;

    half x[tile::A::items], y[tile::B::items];
    tile::load_a(sa, K, true, wave, lane, x);
    tile::load_b(sb, K, false, wave, lane, y);
    unsigned ra[tile::A::regs], rb[tile::B::regs], rc[tile::D::regs];
    tile::A::pack(x, ra);
    tile::B::pack(y, rb);
#pragma unroll
    for (int r = 0; r < tile::D::regs; ++r) rc[r] = 0;
    // Every sub-tile of C this wave owns, over every K step: A's step (k, tile_m, repeat_m) times B's
    // (k, tile_n, repeat_n) into D's (tile_m, tile_n, repeat_m, repeat_n).
    // Fully unrolled, so that every register index is a constant (no scratch).
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
    float z[tile::D::items];
    tile::D::unpack(rc, z);
    tile::store_c(c + tile_m * ldc + tile_n, ldc, true, wave, lane, z);
}
