// The memory side of an operand: where each element lies in a tile stored in
// global memory or LDS, which memory instructions each lane issues to fill its
// fragment (plain vector loads or the hardware transpose loads), and what the
// LDS banks make of them.
//
// Addresses follow the contract of `lanescope-cli load`: element (row, col) of a
// row-major tile lies at (row*(ld+pad) + col)*element_bits/8 bytes from the
// tile's start, column-major at (col*(ld+pad) + row)*element_bits/8, before any
// swizzle; for sub-byte types the address is the byte holding the element's
// lowest bit. `ld` and `pad` count elements.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/request.hpp"
#include "lanescope/tile.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanescope {

enum class MemorySpace { Global, Lds };
enum class MemoryOrder { RowMajor, ColMajor };
std::string_view memory_space_name(MemorySpace s);  // "global", "lds"
// The same as the target names it: NVIDIA's on-chip shared memory (MemorySpace::Lds) is "smem".
std::string_view memory_space_name(const Target& t, MemorySpace s);
std::string_view memory_order_name(MemoryOrder o);  // "row", "col"

// The XOR swizzle kernels use against LDS bank conflicts (Triton's
// SwizzledSharedEncoding; CK's xor transforms): with `line` the index along the
// strided dimension (row for row-major, col for column-major) and `pos` the
// index along the contiguous one, the element is stored at contiguous position
//     pos XOR (vec * ((line / per_phase) % max_phase)).
// vec = 0 (or max_phase <= 1) means no swizzle.
struct XorSwizzle {
    int vec = 0, per_phase = 1, max_phase = 1;
    bool active() const { return vec > 0 && max_phase > 1; }
    bool operator==(const XorSwizzle& o) const {
        return vec == o.vec && per_phase == o.per_phase && max_phase == o.max_phase;
    }
};

// A matrix tile (one operand, or one operand's tile of many waves) in memory.
struct MemoryTile {
    MemorySpace space = MemorySpace::Lds;
    MemoryOrder order = MemoryOrder::RowMajor;
    int ld = 0;   // leading dimension in elements (>= the contiguous extent)
    int pad = 0;  // extra elements after each line
    XorSwizzle swizzle;
    int element_bits = 16;
};

// Byte offset of element (row, col) from the tile's start (see the top of this file).
long long element_address(const MemoryTile& t, int row, int col);
// The same in bits: (line*(ld+pad) + pos) * element_bits, the element's lowest bit.
long long element_bit_address(const MemoryTile& t, int row, int col);
// The extent along the contiguous dimension of a rows x cols tile (cols for
// row-major, rows for column-major): the default and the least legal `ld`.
int contiguous_extent(MemoryOrder o, int rows, int cols);
// Throws Error naming what is wrong and what is legal: ld below the contiguous
// extent, negative pad, a swizzle with non-positive parameters or one that moves
// an element beyond the line's ld, element_bits not 1..64, or a tile whose
// bytes exceed 2^40.
void check_memory_tile(const MemoryTile& t, int rows, int cols);

// The memory matrix of one operand of one instruction: the operand's
// (block*rows + row, col), i.e. blocks stacked along the rows. For tiles the
// tile's own (row, col).
inline int memory_row(const Element& e, int rows) { return e.block * rows + e.row; }

// One memory instruction issued by one lane. Transpose loads deliver data to
// other lanes of the lane's shuffle group, so every op lists what it delivers
// and where each element lands.
struct Delivery {
    Element element;   // operand (or tile) coordinates
    int wave = 0;      // receiving wave (tiles)
    Location at;       // receiving lane, register, bits
};
struct MemoryOp {
    int wave = 0;
    int lane = 0;          // the lane that supplies the address
    int issue = 0;         // issue order within the wave (0, 1, ...)
    std::string mnemonic;  // "ds_read_b128", "global_load_dwordx4", "ds_read_b64_tr_b16", ...
    long long address = 0; // byte offset from the tile's start
    int bytes = 0;
    int reg = 0;           // first destination (load) or source (store) 32-bit register of `lane`
    int bit = 0;           // first bit of `reg` the data lands in (16: the _d16_hi forms)
    int width_bits = 0;    // register bits this op fills (8 * bytes unless via_temp)
    // Through a scratch VGPR: the op loads `bytes` at `address` into a scratch
    // register and the lane moves `width_bits` bits starting at `unit_bit` of
    // that unit into reg:bit (a byte at bits 8 or 24 of a register, which no
    // load can address; sub-byte elements; a store's byte at bits 8/24 shifted
    // out first). False for the ordinary case: the bytes land in place. All
    // lanes of one issue share mnemonic and bytes; reg, bit and width_bits are
    // shared too unless via_temp (a lane may then shift its own bits out of the unit).
    bool via_temp = false;
    int unit_bit = 0;
    std::string builtin;   // clang builtin that issues it ("__builtin_amdgcn_ds_read_tr16_b64_v4f16"); empty
                           // for plain loads/stores, which the compiler selects from a vector access
    std::vector<Delivery> delivers;  // loads: what lands where; stores: what is written (at = source)
};

// Plain loads: every lane's elements of `op`, in register order, grouped into
// the widest legal vector loads (ds_read_b32/b64/b96/b128 for LDS,
// global_load_dword... / global_load_b32... for global) given contiguity and
// alignment; ops of one issue index form one wave-level instruction, the same
// for every lane and every wave (lanes with nothing there sit it out). The tile's
// element_bits must be the operand's. Throws Error (with what is legal) for
// NVIDIA targets, the compressed sparse A and its index, and illegal tiles
// (check_memory_tile). docs/memory.md gives the rules and their sources.
std::vector<MemoryOp> plan_plain_loads(const Instruction& ins, const Target& t, Operand op,
                                       const ResolvedModifiers& mods, const MemoryTile& tile,
                                       const std::optional<TileParams>& tiles = std::nullopt);
// Stores of C/D (op must be C or D) to global memory or LDS, widest legal vectors.
std::vector<MemoryOp> plan_stores(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                  const MemoryTile& tile, const std::optional<TileParams>& tiles = std::nullopt);

// NVIDIA: the ldmatrix (or, `store`, stmatrix) instructions that move operand `op` of an mma.sync /
// mma.sp between `tile` in shared memory and its fragment: every register of the fragment is one
// m8n8 matrix (with .trans where the tile's order needs it), grouped .x4, .x2, .x1 in register
// order; lane 8j+i supplies the address of row i of matrix j (PTX ISA §9.7.14.5.15-16). Each op's
// `reg` is the first register of the group, `width_bits` 32 per matrix. Throws Error naming the
// register that no matrix fills and why (rows not 16 contiguous, 16-byte aligned bytes; elements
// that .trans would split), for AMD targets, other instructions and stmatrix before sm_90.
std::vector<MemoryOp> plan_matrix_loads(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                        const MemoryTile& tile, bool store = false);

// Wave-level instructions of `wave` in a plan (ops of one issue index count once).
int wave_instruction_count(const std::vector<MemoryOp>& ops, int wave = 0);
// The alignment rule applied to a plain access of `bytes` bytes on this target
// and memory (bytes), with its source in words. docs/memory.md lists them all.
int plain_access_alignment(const Target& t, MemorySpace s, int bytes);
std::string alignment_rule(const Target& t, MemorySpace s);

// The LDS of a family: bank count and width, with the source.
struct BankModel {
    int banks = 32;
    int bank_bytes = 4;
    std::string source;      // "I4 §11.1", ...
    std::string confidence;  // "documented", "derived", "measured", "inferred"
};
BankModel bank_model(const Target& t);

// Which lanes the LDS serves together for one memory instruction.
struct PassGrouping {
    std::string name;                      // "16 consecutive lanes", "gfx942 b128 groups", ...
    std::vector<std::vector<int>> passes;  // lanes of each pass
    std::string source;
    std::string confidence;  // "documented", "measured", "inferred" (said in every output)
};
// Groupings offered for `mnemonic` on `t`, the best-supported first; the user may pick any.
std::vector<PassGrouping> pass_groupings(const Target& t, std::string_view mnemonic, int wave_size);

struct BankPass {
    std::vector<int> lanes;
    int cycles = 1;  // the largest number of distinct dwords one bank must supply in this pass
    // The (lowest) bank that needs `cycles`, and its distinct words: the byte address of each
    // and the first lane of the pass that reads (writes) it, in address order.
    int bank = 0;
    std::vector<std::pair<long long, int>> bank_words;
};
struct BankReport {
    int wave = 0, issue = 0;
    std::string mnemonic;
    PassGrouping grouping;
    std::vector<BankPass> passes;
    int cycles = 0;          // sum over passes
    int minimum_cycles = 0;  // conflict-free minimum for the same bytes
};
// One report per wave-level LDS instruction (ops sharing wave and issue).
// `grouping` names one of pass_groupings(); empty = the first.
std::vector<BankReport> analyse_banks(const std::vector<MemoryOp>& ops, const Target& t, int wave_size,
                                      std::string_view grouping = {});

// Global coalescing of one wave-level instruction: distinct cache lines and 64-byte segments touched.
struct CoalescingReport {
    int wave = 0, issue = 0;
    std::string mnemonic;
    int bytes = 0;            // bytes moved by the wave
    int cache_lines = 0;      // distinct lines of `line_bytes`
    int segments_64b = 0;     // distinct 64-byte segments
    int minimum_lines = 0;    // ceil(unique_bytes / line_bytes)
    int unique_bytes = 0;     // distinct bytes (lanes that read the same bytes count once)
    int minimum_segments = 0; // ceil(unique_bytes / 64)
};
std::vector<CoalescingReport> analyse_coalescing(const std::vector<MemoryOp>& ops, int line_bytes = 128);

// Transpose loads (CDNA4 ds_read_*_tr_*, RDNA4 global_load_tr_*): the memory
// instructions that fill `op` of `ins` from `tile` through the hardware
// transpose, in issue order, for every lane. Throws Error naming what is legal
// when no transpose load serves this operand, orientation, target or wave size.
// Rules and sources: docs/transpose-loads.md.
std::vector<MemoryOp> plan_transposed_loads(const Instruction& ins, const Target& t, Operand op,
                                            const ResolvedModifiers& mods, const MemoryTile& tile,
                                            const std::optional<TileParams>& tiles = std::nullopt);

}  // namespace lanescope

// ---------------------------------------------------------------------------
// `lanescope-cli load`: one request and its plan (render_memory.hpp prints them: table, CSV,
// the JSON contract of docs/memory.md, HIP code).
namespace lanescope {

struct MemoryRequest {
    Operand operand = Operand::A;
    MemoryTile tile;                  // element_bits must be the operand's
    std::optional<TileParams> tiles;  // many waves (tile.hpp); nullopt = one instruction
    bool transpose = false;           // plan_transposed_loads instead of plain loads
    bool store = false;               // plan_stores (C, D)
    std::string grouping;             // LDS pass grouping (pass_groupings' name); empty = the best-supported
    // NVIDIA (shared memory): plain ld.shared / st.shared instead of ldmatrix / stmatrix. Without it
    // the plan uses ldmatrix (stmatrix for stores on sm_90+) where every register is one m8n8
    // matrix of the tile, else the plain accesses (MemoryPlan::notes says why).
    bool ld_shared = false;
};
struct MemoryPlan {
    std::vector<MemoryOp> ops;
    std::vector<BankReport> banks;              // LDS
    std::vector<CoalescingReport> coalescing;   // global
    int instructions_per_wave = 0;              // wave-level instructions of wave 0
    std::vector<std::string> notes;             // what the planner chose and why (NVIDIA: ldmatrix or not)
};
// Plans the request (throws Error with what is legal, e.g. --transpose where no transpose load exists).
MemoryPlan plan_memory(const Query& q, const MemoryRequest& r);
// The operand's rows and columns as the memory tile sees them (blocks stacked along the rows).
std::pair<int, int> memory_extent(const Query& q, const MemoryRequest& r);

// ---------------------------------------------------------------------------
// `lanescope-cli load --sweep`: which padding or XOR swizzle (and, where legal,
// the transpose loads) to give an operand's tile, ranked by the cost the engine
// counts. Every candidate is one plan_memory of the request with its pad,
// swizzle and transpose replaced; the rest of the request (order, ld, memory,
// store, grouping, tiles) stays as given. docs/memory.md names the candidates.
struct SweepCandidate {
    int pad = 0;  // elements after each line
    XorSwizzle swizzle;
    bool transpose = false;
    bool ld_shared = false;  // NVIDIA: plain ld.shared / st.shared instead of ldmatrix / stmatrix (--ld-shared)
    // The tile's order and leading dimension (LDS: the sweep also tries the other order, and a
    // power-of-two ld where swizzles need room). `reorder`: the order differs from the request's;
    // `ld`: a leading dimension other than the request's (0: the request's, or with `reorder`
    // the other order's contiguous extent).
    MemoryOrder order = MemoryOrder::RowMajor;
    bool reorder = false;
    int ld = 0;
    // The load options that select it, beside the request's: "" (none), "--pad 4", "--swizzle 4,1,2",
    // "--transpose", "--pad 2 --swizzle 4,1,2 --order col --ld 64", ... (a row's command leaves out the
    // request's --order and --ld where the row names its own).
    std::string options() const;
};
// The bank that limits one instruction's worst pass (LDS): its distinct words and who reads them.
struct SweepConflict {
    std::string mnemonic;  // the instruction ("ds_read_b64"); empty: no LDS instruction
    int ways = 0;          // distinct words of one bank in its worst pass (1: conflict-free)
    int bank = 0;
    std::vector<std::pair<long long, int>> words;  // (byte address, first lane) of each, in address order
};
struct SweepRow {
    SweepCandidate candidate;
    // LDS: bank cycles per wave (the sum of analyse_banks' cycles over the wave's instructions, the
    // worst wave of a tile); global: 128-byte cache lines per wave (analyse_coalescing, the worst wave).
    long long cost = 0;
    long long instruction_minimum = 0;  // the same sum of analyse_banks' minimum_cycles (or minimum_lines)
    int instructions_per_wave = 0;
    std::vector<std::pair<std::string, int>> instructions;  // wave 0's mnemonics with their counts, in issue order
    long long pad_bytes = 0;  // LDS (or memory) bytes the padding adds to the tile: lines * pad * bits / 8
    // LDS: the pass grouping of each instruction of wave 0 ("ds_read_b64: 16 consecutive lanes (measured)"),
    // and the distinct confidence words among them (the cycles are as sure as the weakest).
    std::vector<std::string> groupings, confidences;
    // LDS: the most distinct words one bank supplies in one pass over the plan's instructions
    // (the worst wave), and where (1 or less: no pass conflicts).
    SweepConflict conflict;
    int ld = 0;               // the tile's leading dimension as planned (elements)
    long long loaded_bytes = 0; // bytes wave 0's instructions move (copies held by several lanes count each time)
    int lines = 0;            // lines of this candidate's order
    long long line_bytes = 0; // bytes from one line to the next: (ld + pad) * element_bits / 8
    // The cost under each grouping of SweepReport::by_grouping (same order).
    std::vector<long long> cost_by_grouping;
};
// One offered pass grouping applied to every instruction that offers it (the others keep their
// default), with the row that ranks first under it.
struct SweepGroupingRank {
    std::string grouping, confidence;
    size_t best = 0;       // index into SweepReport::rows
    long long cost = 0;    // that row's cost under this grouping
};
struct SweepReport {
    std::string metric;         // "LDS bank cycles per wave" or "128-byte cache lines per wave"
    long long bytes_per_wave = 0;     // the operand's bytes one wave holds (its distinct elements x bits / 8)
    int bytes_per_cycle = 0;          // banks x bank bytes (LDS), or 128 (cache line)
    long long minimum = 0;            // ceil(bytes_per_wave / bytes_per_cycle): no candidate can cost less
    int lines = 0;                    // lines of the tile in memory (rows of row-major, columns of col-major)
    int candidates = 0;               // enumerated
    int planned = 0;                  // planned (candidates up to kMaxSweepCandidates)
    int pad_step = 0, pad_max = 0;    // paddings 0, pad_step, ... pad_max (elements)
    int swizzles = 0;                 // XOR swizzles among the candidates (without the transpose copies)
    std::vector<std::string> skipped; // candidates the engine refused, each with the reason
    std::string transpose_note;       // why no transpose candidate, when none is planned
    std::vector<SweepRow> rows;       // ranked, best first
    int combined = 0;                 // candidates that combine a padding with a swizzle
    std::vector<std::string> orders;  // the orders searched ("row", "col")
    std::vector<int> lds_tried;       // the leading dimensions searched (given order first)
    std::vector<std::string> notes;   // what the search left out and why
    // Whether the best row reaches `minimum`, and why not in words derived from the plans.
    bool reaches_minimum = false;
    std::string why;
    // LDS, where a ranked row's grouping is inferred: the ranking under every offered grouping.
    std::vector<SweepGroupingRank> by_grouping;
    bool depends_on_grouping = false;  // the best options differ between those groupings
};
// The most candidates one sweep plans (the rest are counted, not planned). The most placements it
// plans in all is kMaxSweepPlacements (limits.hpp).
inline constexpr int kMaxSweepCandidates = 1024;
// Enumerates, plans and ranks the candidates for `r` (its pad, swizzle and transpose are ignored).
// Throws Error (what is legal) where the request cannot be planned at all.
SweepReport sweep_memory(const Query& q, const MemoryRequest& r);

}  // namespace lanescope
