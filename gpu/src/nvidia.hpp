// NVIDIA instructions as the probe sees them: what a PTX spelling says (class,
// shape, types), where wgmma's B lies in shared memory, and how ldmatrix /
// stmatrix move rows between shared memory and registers. Facts here are the
// PTX ISA's (sections named beside each); the register layouts stay in core.
#pragma once

#include "lanescope/gpu.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope::gpu::detail {

enum class NvClass { MmaSync, MmaSparse, LdMatrix, StMatrix, Wgmma };

// The facts a PTX spelling states, e.g. "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
// or "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16".
struct NvSpelling {
    NvClass cls = NvClass::MmaSync;
    int m = 0, n = 0, k = 0;
    int matrices = 0;   // ldmatrix/stmatrix: .x1 .x2 .x4
    bool trans = false; // ldmatrix/stmatrix .trans
    std::string d, a, b, c;  // PTX element types (mma: D, A, B, C; wgmma: D, A, B)
};
// nullopt when `mnemonic` is not an NVIDIA matrix instruction lanescope knows.
std::optional<NvSpelling> parse_nv_spelling(const std::string& mnemonic);
std::optional<NvSpelling> nv_spelling(const Instruction& ins);
// "sm_90a" -> 90 (0 when not an sm id).
int sm_number(const std::string& id);

// wgmma reads B from shared memory through a matrix descriptor: K-major, no
// swizzle, core matrices of 8 rows (n) x 16 bytes (k), the two 16-byte halves
// of K `kWgmmaLbo` bytes apart, groups of 8 n `kWgmmaSbo` bytes apart
// (PTX ISA 9.7.15.5.1.2, "Shared Memory Matrix Layout" / "Matrix Descriptor
// Format"). As a layout: one "lane", the image's 32-bit words as registers.
constexpr int kWgmmaLbo = 128, kWgmmaSbo = 256;
int wgmma_b_bytes(int n, int k, int elem_bytes);
ClaimedLayout wgmma_b_shared_layout(int n, int k, ElemType type);

// ldmatrix / stmatrix through shared memory: row r of 8x8 matrix m is the
// 16-byte row whose address lane 8m + r supplies (PTX ISA 9.7.14.5.15/16);
// lanes 8 * matrices .. 31 point at decoy rows that must stay untouched. The
// rows are scattered over the image so that an address mix-up shows.
struct RowImage {
    int matrices = 0;
    int rows = 0;                         // row slots in the image (matrix rows + decoys)
    std::vector<uint32_t> lane_address;   // 32 byte offsets into the image
    std::vector<uint32_t> words;          // the image, 4 bytes a word
    int row_of(int matrix, int row) const;  // row slot of (matrix, row)
    uint16_t element(int slot, int col) const;
    void set(int slot, int col, uint16_t v);
};
RowImage scattered_rows(int matrices);
// The tag of element (matrix, row, col): distinct, non-zero, never a decoy's.
uint16_t row_tag(int matrix, int row, int col);
constexpr uint16_t kDecoy = 0xD000, kUnwritten = 0xEEEE;

}  // namespace lanescope::gpu::detail

namespace lanescope::gpu::detail {
// The PTX .target for a probe: the catalog target's sm id ("sm_80"), so that
// the JIT also checks the row's minimum target; wgmma exists only as sm_90a.
std::string ptx_target(const NvSpelling& s, const Target& t);
// mma.sp's sparsity selector: which lane of each quad (pair) supplies metadata.
int sparsity_selector(const ResolvedModifiers& mods);
}  // namespace lanescope::gpu::detail
