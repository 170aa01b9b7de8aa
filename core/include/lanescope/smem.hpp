// NVIDIA shared memory: the 64-bit matrix descriptors of wgmma (sm_90a) and
// tcgen05.mma (sm_100a and later), the canonical K- and MN-major layouts they
// describe, the swizzles (anchored at absolute shared-memory addresses, the base
// offset subtracted from the 128-byte row), TMA tiled copies into shared memory
// and the bank model of ld.shared / st.shared / ldmatrix / stmatrix.
//
// Sources: PTX ISA §9.7.15.5.1.2 "Shared Memory Matrix Layout" and
// §9.7.15.5.1.2.2 "Matrix Descriptor Format" (wgmma); PTX ISA §9.7.16.4.1
// "Shared Memory Descriptor" (tcgen05, Tables 40-41); PTX ISA §5.5.7
// "Swizzling Modes"; CUTLASS include/cute/arch/mma_sm90_desc.hpp
// (GmmaDescriptor), include/cute/atom/mma_traits_sm90_gmma.hpp
// (make_gmma_desc), include/cute/arch/mma_sm100_desc.hpp (UMMA::SmemDescriptor,
// make_umma_desc), include/cute/swizzle.hpp; the CUDA driver API's
// cuTensorMapEncodeTiled; the CUDA C++ Programming Guide ("The Swizzle Modes",
// shared-memory banks). Where the documents are silent (the base offset is
// subtracted, the swizzle is anchored at the absolute address, LBO is ignored
// for swizzled K-major) the rules follow measurements on an H200
// (docs/memory.md, "NVIDIA shared memory").
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/memory.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// Swizzle modes. The numbers are lanescope's (the `swizzle` modifier), not an
// encoding: encode_descriptor writes each format's own code.
enum class SmemSwizzle { None = 0, B32 = 1, B64 = 2, B128 = 3, B128Base32 = 4 };
std::string_view smem_swizzle_name(SmemSwizzle s);  // "none" "32B" "64B" "128B" "128B_base32B"
// "none", "32B", "64B", "128B", "128B_base32B" (any case; "interleave" = none, "128B_atom_32B" = 128B_base32B).
std::optional<SmemSwizzle> parse_smem_swizzle(std::string_view text);
int swizzle_span(SmemSwizzle s);    // bytes of one swizzled row: 0 (none), 32, 64, 128, 128
int swizzle_period(SmemSwizzle s);  // bytes after which the pattern repeats: 0, 256, 512, 1024, 512
// The swizzled address of absolute shared-memory byte address `a`: the XOR of the
// mode (CuTe Swizzle<3,4,3> for 128B: 16-byte chunk ^= bits 7-9; <2,4,3> 64B;
// <1,4,3> 32B; <2,5,2> 128B_base32B: 32-byte unit ^= bits 7-8) with the base
// offset subtracted from the 128-byte row first:
//     row = ((a >> 7) - base_offset) mod rows_of_pattern,  a ^ (row << unit_shift).
// No effect for none.
std::uint32_t smem_swizzle(std::uint32_t a, SmemSwizzle s, int base_offset = 0);

enum class SmemMajor { K = 0, MN = 1 };
std::string_view smem_major_name(SmemMajor m);  // "K", "MN"

enum class DescriptorFormat { Wgmma, Tcgen05 };
std::string_view descriptor_format_name(DescriptorFormat f);  // "wgmma", "tcgen05"

// A descriptor's fields in bytes (start, LBO, SBO are encoded as (x & 0x3FFFF) >> 4).
struct SmemDescriptor {
    DescriptorFormat format = DescriptorFormat::Wgmma;
    std::uint32_t start = 0, lbo = 0, sbo = 0;
    int base_offset = 0;  // bits 49-51
    SmemSwizzle swizzle = SmemSwizzle::None;
    int lbo_mode = 0;     // tcgen05 bit 52: 0 relative byte offset, 1 absolute address (sm_103a)
};
// The 64-bit value (tcgen05: bits 46-48 = 0b001, the fixed "version").
std::uint64_t encode_descriptor(const SmemDescriptor& d);
// Reads a value; throws Error naming the bits for what the format does not
// define (tcgen05: swizzle codes 3, 5, 7; bits 46-48 other than 0b001; bits
// 53-60 set). Bits the hardware ignores (wgmma: 14-15, 30-31, 46-48, 52-61)
// are read as nothing.
SmemDescriptor decode_descriptor(std::uint64_t value, DescriptorFormat f);
// Every field of a value, lowest bits first, the ignored ones named as ignored.
struct DescriptorField {
    std::string name;         // "start_address", "leading_byte_offset", ..., "ignored"
    int lo = 0, hi = 0;       // bits
    std::uint64_t bits = 0;   // the raw field
    long long bytes = -1;     // start / LBO / SBO in bytes (field << 4); -1 elsewhere
    bool ignored = false;     // the hardware does not read these bits
    std::string meaning;      // one line
};
std::vector<DescriptorField> descriptor_fields(std::uint64_t value, DescriptorFormat f);

// One operand in shared memory: the A (M x K) or B (K x N) of one wgmma or
// tcgen05.mma read through one descriptor, with the element -> byte map.
struct SmemOperand {
    Operand operand = Operand::B;
    int rows = 0, cols = 0;    // the operand's matrix: A M x K, B K x N (tcgen05 cta_group::2: this CTA's half)
    int mn = 0, k = 0;         // its MN and K extents
    ElemType type = ElemType::F16;
    int element_bits = 16;     // bits of one value in shared memory (e2m1 4, e2m3/e3m2 6, e4m3 8, ...)
    // Bits of the tile's slot per element: element_bits, except for the padded sub-byte A/B of
    // kind::f8f6f4 and kind::mxf8f6f4, which take the 8-bit tile (16 slots per 16-byte chunk) with a
    // chunk's 16 values packed from its first bit and the rest padding (PTX ISA §9.7.16.10.4.4,
    // §9.7.16.9.1; CUTLASS TMA 16U4_ALIGN16B / 16U6_ALIGN16B; Triton fp4Padded): slot_bits 8.
    int slot_bits = 16;
    bool padded() const { return slot_bits != element_bits; }
    SmemMajor major = SmemMajor::K;
    SmemDescriptor desc;
    std::uint64_t value = 0;   // the descriptor
    bool lbo_used = true, sbo_used = true, base_offset_used = true;
    std::vector<std::string> notes;  // "LBO is ignored here: ...", defaults taken, cta_group halves
    std::string formula;             // the byte formula, in words

    // Element (mn, k): its byte offset before the swizzle (from start), the
    // absolute byte address after it, the bit within that byte where its value
    // starts (sub-byte types; a 6-bit value may run on into the next byte:
    // bits bit .. bit+element_bits-1 counted from that byte's bit 0), and its
    // core matrix (8 rows x 16 bytes; numbered MN first). The one answer every
    // front end shows (JSON bit_lo/bit_hi, figures, the app, Python, the web page).
    std::uint32_t linear(int mn, int k) const;
    std::uint32_t address(int mn, int k) const;
    int bit(int mn, int k) const;
    // The tile's slot of (mn, k) (slot_bits wide) before / after the swizzle: where an 8-bit TMA
    // box puts the element's container (padded types: the value sits at the start of its chunk).
    std::uint32_t slot_linear(int mn, int k) const;
    std::uint32_t slot_address(int mn, int k) const;
    int core_matrix(int mn, int k) const;
    // The (mn, k) of the operand's matrix element (row, col).
    std::pair<int, int> mn_k(int row, int col) const;
};

// Whether `op` of `ins` is read from shared memory: wgmma B, wgmma A with the
// smem_a modifier (the SS form), tcgen05.mma A (unless A is in Tensor Memory) and B.
bool in_shared_memory(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
// Whether a matrix descriptor may read `op` of `ins` under some modifiers: wgmma's B and A (the
// SS form), tcgen05.mma's B and A unless A is in Tensor Memory. The one rule front ends ask.
bool read_by_descriptor(const Instruction& ins, Operand op);
// Those operands in words, for a refusal's "legal: ..." ("A (the SS form) or B of wgmma").
std::string descriptor_operands_text(const Instruction& ins);
// The operand from the smem modifiers (defaults: CUTLASS's make_gmma_desc /
// make_umma_desc values for the operand's tile); throws Error with the rule for
// what the hardware does not allow.
SmemOperand smem_operand(const Instruction& ins, Operand op, const ResolvedModifiers& mods);

// The operand's 16-byte chunks of shared memory (8 to a 128-byte row, 4 banks each), ascending
// by address: what each holds, from SmemOperand::address. The figure (`figure --memory smem`),
// the app's Memory tab and the web page draw these, and label them with the texts below.
struct SmemChunk {
    std::uint32_t address = 0;                  // its first byte (a multiple of 16)
    std::vector<std::pair<int, int>> elements;  // (row, col) of the operand's matrix, row-major order
    int core = -1;                              // the core matrix of its first element
    int before = 0;                             // its chunk index in the 128-byte row before the swizzle
    int after() const { return static_cast<int>((address / 16) % 8); }  // ... and after it
    int first_bank() const { return static_cast<int>((address / 4) % 32); }
};
std::vector<SmemChunk> smem_chunks(const SmemOperand& so);
// A chunk's second label line: "c1→c5" (swizzled: its chunk index before → after the XOR),
// else its banks "b4–7".
std::string smem_chunk_place(const SmemOperand& so, const SmemChunk& ch);
// A chunk in full: "0x0400–0x040F: banks 0–3, core matrix 2, B[k0..7][n3], chunk 1 before the
// swizzle, 5 after" (the figure's hover text, the app's tooltip).
std::string smem_chunk_description(const SmemOperand& so, const SmemChunk& ch);
// How far the descriptor model is confirmed, one sentence for captions (wgmma: measured on an
// H200; tcgen05: not on hardware).
std::string_view smem_model_confirmation(DescriptorFormat f);

// ------------------------------------------------------------------ TMA ---
// Where a tiled cp.async.bulk.tensor (2-D box, CUDA's order: box[0] the inner
// dimension) puts each element in shared memory: row pitch = the box's inner
// bytes, raised to the swizzle span when narrower (CUDA C++ Programming Guide,
// "The Swizzle Modes"), the swizzle on the absolute address.
struct TmaBox {
    int inner = 0, outer = 0;  // box dims (elements): box[0], box[1]
    int element_bits = 16;
    SmemSwizzle swizzle = SmemSwizzle::None;
    std::uint32_t smem_address = 0;  // destination, 128-byte aligned
};
struct TmaEntry {
    int row = 0, col = 0;  // outer, inner box coordinate
    std::uint32_t address = 0;
};
// Throws Error with the rule (cuTensorMapEncodeTiled: box dims 1..256, inner
// bytes a multiple of 16 and at most the swizzle span; destination 128-byte aligned).
void check_tma_box(const TmaBox& b);
int tma_pitch(const TmaBox& b);
std::vector<TmaEntry> tma_entries(const TmaBox& b);

// Whether an operand's descriptor reads back what TMA wrote: the box D0 x D1 (CUDA's order) written
// at the descriptor's start with its swizzle, compared element by element; when they differ, the
// one change that makes them agree ("this descriptor's base offset must be 0 ...") or why none does.
struct TmaComparison {
    TmaBox box;
    int equal = 0, compared = 0;
    std::vector<std::string> differences;  // the first few, in words
    std::string why;
};
// Throws Error when the box does not cover the operand or is not a legal TMA box (check_tma_box).
TmaComparison compare_tma(const SmemOperand& so, int d0, int d1);


// ---------------------------------------------------------------- banks ---
// NVIDIA shared-memory bank model: 32 banks x 4 bytes, bank = (addr / 4) % 32.
// A warp access is split into fixed phases (32-bit: one of 32 lanes; 64-bit:
// two half-warps; 128-bit: four quarter-warps; ldmatrix / stmatrix .xN: N
// phases of the 8 row addresses of lanes 8j..8j+7, 16 bytes each); a phase
// costs the most distinct 4-byte words one bank must deliver; the costs add.
// Measured refinement (H200, Nsight Compute): a 64- or 128-bit ld.shared whose
// every lane n reads the address of lane n^1 (or every lane that of n^2) is
// served in phases twice as large (64-bit: one of 32 lanes; 128-bit: two half-warps).
struct SmemAccess {
    std::string name;  // "ld.shared.v4.u32", "ldmatrix.x4.trans", ...
    int bytes = 4;     // per lane (ldmatrix: per row address, 16)
    int lanes_used = 32;
    int phase_lanes = 32;
    bool store = false;
    bool matrix = false;  // ldmatrix / stmatrix
};
// Names legal: ld.shared.{u32,b32,f32,s32}, ld.shared.v2.*, ld.shared.v4.*, ld.shared.{u64,b64,f64},
// st.shared.* of the same, ldmatrix.x1/.x2/.x4[.trans], stmatrix.x1/.x2/.x4[.trans]
// (".sync.aligned.m8n8" and ".b16" may be spelled). Throws Error listing them.
SmemAccess parse_smem_access(std::string_view name);
std::string smem_access_names();
struct SmemPhase {
    std::vector<int> lanes;
    int wavefronts = 0;
    std::vector<int> words_per_bank;  // 32 entries: distinct words each bank delivers
};
struct SmemBankReport {
    SmemAccess access;
    std::vector<std::uint32_t> addresses;  // per lane given
    bool merged = false;                   // the n^1 / n^2 pair merge applied
    std::string merge_rule;                // which, when merged
    std::vector<SmemPhase> phases;
    int wavefronts = 0;
    int minimum = 0;  // ceil(distinct bytes / 128): no access of these bytes costs less
};
// The phases of one warp-wide access as pass groups, the measured n^1 / n^2 merge applied to these
// addresses (one per lane; `active`: the lanes that take part, empty = all that the access uses).
// The name says which ("4 quarter-warps", "2 half-warps (lane pairs n, n^1 merged)", "4 matrices
// of 8 row addresses"); `merge_rule`, when given, receives the merge's words ("" unmerged).
PassGrouping smem_phases(const SmemAccess& a, const std::vector<std::uint32_t>& addresses,
                         const std::vector<bool>& active = {}, std::string* merge_rule = nullptr);
// The fixed phases of the access before any merge (what pass_groupings offers for it).
PassGrouping smem_fixed_phases(const SmemAccess& a);
// `addresses`: one per lane (ldmatrix/stmatrix .xN: at least 8N, the rest ignored).
// Throws Error when an address is not aligned to the access or the count is wrong.
SmemBankReport smem_bank_wavefronts(const SmemAccess& a, const std::vector<std::uint32_t>& addresses);

}  // namespace lanescope
