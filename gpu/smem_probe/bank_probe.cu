// Bank wavefronts of shared-memory accesses on an H200, counted by Nsight Compute (the live check of
// lanescope's NVIDIA bank model, core/src/memory/nvidia_banks.cpp; docs/verification/).
// Input (patterns.txt, from banks.py make): one line per pattern, "name access a0 ... a31 predicted"
// (byte addresses per lane; ldmatrix/stmatrix .xN use lanes 0..8N-1). Each pattern is one launch
// of one warp executing the access kLoops times; ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
// of the launch, less the 1 it adds per launch, divided by kLoops, is the access's wavefront count.
// Loads use ld.volatile.shared (ptxas hoists a loop-invariant plain ld.shared) and feed a register
// chain (addr ^= value & zero, zero read at run time) so nothing is merged or removed; the SASS
// count of each kernel is checked with cuobjdump in the script.
// Build: nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a bank_probe.cu -o bank_probe
#include <cstdio>
#include <cstring>
#include <string>

constexpr int kLoops = 64;

enum Kind { LD32, LD64, LD128, ST32, ST64, ST128, LDM1, LDM2, LDM4, LDM4T, STM1, STM2, STM4, STM4T };

template <int K>
__global__ void probe(const unsigned* addr, const unsigned* zero_p, unsigned* sink) {
    __shared__ __align__(1024) unsigned char smem[16384];
    const int lane = threadIdx.x;
    const unsigned zero = *zero_p;
    // No fill: every shared access in the kernel is the probed one (the values do not matter).
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + addr[lane];
    unsigned acc = 0, v0 = lane, v1 = 1, v2 = 2, v3 = 3;
#pragma unroll
    for (int i = 0; i < kLoops; ++i) {
        if constexpr (K == LD32) {
            asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v0) : "r"(a) : "memory");
        } else if constexpr (K == LD64) {
            asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a) : "memory");
        } else if constexpr (K == LD128) {
            asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a) : "memory");
        } else if constexpr (K == ST32) {
            asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(v0 + i) : "memory");
        } else if constexpr (K == ST64) {
            asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v0 + i), "r"(v1) : "memory");
        } else if constexpr (K == ST128) {
            asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v0 + i), "r"(v1), "r"(v2), "r"(v3) : "memory");
        } else if constexpr (K == LDM1) {
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(v0) : "r"(a) : "memory");
        } else if constexpr (K == LDM2) {
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a) : "memory");
        } else if constexpr (K == LDM4) {
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a) : "memory");
        } else if constexpr (K == LDM4T) {
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a) : "memory");
        } else if constexpr (K == STM1) {
            asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(v0 + i) : "memory");
        } else if constexpr (K == STM2) {
            asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(v0 + i), "r"(v1) : "memory");
        } else if constexpr (K == STM4) {
            asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v0 + i), "r"(v1), "r"(v2), "r"(v3) : "memory");
        } else if constexpr (K == STM4T) {
            asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v0 + i), "r"(v1), "r"(v2), "r"(v3) : "memory");
        }
        acc += v0 ^ v1 ^ v2 ^ v3;
        a ^= acc & zero;  // a run-time dependency: the next access waits for this one's value
    }
    sink[lane] = acc;
}

typedef void (*Kernel)(const unsigned*, const unsigned*, unsigned*);
struct Access { const char* name; Kernel k; };
const Access kAccess[] = {
    {"ld.shared.u32", probe<LD32>},         {"ld.shared.v2.u32", probe<LD64>},      {"ld.shared.v4.u32", probe<LD128>},
    {"st.shared.u32", probe<ST32>},         {"st.shared.v2.u32", probe<ST64>},      {"st.shared.v4.u32", probe<ST128>},
    {"ldmatrix.x1", probe<LDM1>},           {"ldmatrix.x2", probe<LDM2>},           {"ldmatrix.x4", probe<LDM4>},
    {"ldmatrix.x4.trans", probe<LDM4T>},    {"stmatrix.x1", probe<STM1>},           {"stmatrix.x2", probe<STM2>},
    {"stmatrix.x4", probe<STM4>},           {"stmatrix.x4.trans", probe<STM4T>},
};

int main(int argc, char** argv) {
    FILE* f = fopen(argc > 1 ? argv[1] : "patterns.txt", "r");
    if (!f) { fprintf(stderr, "no patterns file\n"); return 1; }
    unsigned *addr, *zero, *sink;
    cudaMalloc(&addr, 128);
    cudaMalloc(&zero, 4);
    cudaMalloc(&sink, 128);
    cudaMemset(zero, 0, 4);
    char name[128], access[64];
    int n = 0;
    while (fscanf(f, "%127s %63s", name, access) == 2) {
        unsigned a[32];
        for (int i = 0; i < 32; ++i) fscanf(f, "%u", &a[i]);
        int predicted;
        fscanf(f, "%d", &predicted);
        Kernel k = nullptr;
        for (const Access& x : kAccess)
            if (!strcmp(x.name, access)) k = x.k;
        if (!k) { fprintf(stderr, "unknown access %s\n", access); return 1; }
        cudaMemcpy(addr, a, 128, cudaMemcpyHostToDevice);
        k<<<1, 32>>>(addr, zero, sink);
        cudaError_t e = cudaDeviceSynchronize();
        printf("launch %d %s %s %s\n", n++, name, access, cudaGetErrorString(e));
    }
    return 0;
}
