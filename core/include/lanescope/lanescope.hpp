// lanescope core: the layout engine and instruction catalog.
//
// Public API in one header. No GUI, GPU or I/O dependency beyond the standard
// library. Typical use (tests/consumer compiles these lines against the
// installed package):
//
//   const lanescope::Catalog& cat = lanescope::Catalog::builtin();
//   const lanescope::Target& gfx = cat.find_target("gfx942");
//   const lanescope::Instruction& ins = cat.find_instruction(gfx, "v_mfma_f32_32x32x8_f16");
//   lanescope::OperandLayout a = lanescope::layout_of(ins, gfx, lanescope::Operand::A, lanescope::Modifiers{});
//   for (const lanescope::Location& loc : a.where({0, 3, 5}))     // element -> slots
//       std::printf("A[3][5]: v%d lane %d\n", loc.reg, loc.lane);
//   for (const lanescope::SlotPart& p : a.which(1, 17))           // slot -> elements
//       std::printf("v1 lane 17 bits %d..%d: A[%d][%d]\n", p.bit_lo, p.bit_hi, p.element.row, p.element.col);
//
// (Modifiers{} are the encoding fields as given, defaulted and checked here; a
// bare {} would be ambiguous with the ResolvedModifiers overload.) Tiles of
// many waves, linear layouts and layout checks: tile.hpp, linear.hpp, check.hpp.
//
// Conventions (the same in the CLI and its JSON contract):
//  * A is rows x K (row = i, col = k), B is K x cols (row = k, col = j),
//    C and D are M x N. Multi-block instructions add a block index.
//  * Sparse instructions (smfmac/swmmac): A and K (the sparse index) are given
//    in dense coordinates, M x K, as AMD's Matrix Instruction Calculator does.
//    The four k of a 4:2 group k = 4g .. 4g+3 share one slot: for A the bits
//    holding the group's two stored values (lower k first), for K the group's
//    4-bit index field (bits 1:0 locate the first stored value, 3:2 the second).
//  * Scale operands of mfma_scale_*: SA is M x (K/32) (one E8M0 byte per row and
//    32-wide K block), SB is (K/32) x N.
//  * Registers are numbered from the operand's first VGPR. A location is
//    (reg, lane, bit_lo, bit_hi) with bit_lo in 0..31 of `reg`; bit_hi is
//    inclusive and may exceed 31 when the element continues into the next
//    register(s) (64-bit elements, 6-bit elements straddling a boundary).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

// Every user-facing failure (unknown name, illegal modifier, broken catalog).
// The message says what was wrong and what is legal.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// AMD families first (their order is the CLI's and the app's), then NVIDIA's.
// CDNA5 is gfx1250/gfx1251 (AMD's ROCm sources call gfx1250 CDNA5; LLVM's
// AMDGPUUsage lists it after GFX12 with product names "TBA"): WMMA in wave32
// only, so is_cdna() (the MFMA families, wave64) is false for it.
//
// NVIDIA Blackwell comes in two instruction sets, so two families: Blackwell
// (compute capability 10.x and 11.0: sm_100 B200/GB200, sm_103 B300/GB300,
// sm_110 Thor; tcgen05 and Tensor Memory) and BlackwellGeForce (12.x: sm_120
// RTX 50 / RTX PRO, sm_121 DGX Spark; no tcgen05, block-scaled mma.sync), as
// the CUDA C++ Programming Guide's compute-capability table and PTX ISA §9.7.16
// / §9.7.14.5.14 separate them.
enum class Family { CDNA1, CDNA2, CDNA3, CDNA4, RDNA3, RDNA4, CDNA5, Ampere, Ada, Hopper, Blackwell, BlackwellGeForce };
std::string_view family_name(Family f);            // "cdna3", "hopper"
std::string_view family_title(Family f);           // "CDNA3", "Hopper"
bool is_cdna(Family f);                            // the MFMA families CDNA1-4 (wave64)
// Every family, in display order (AMD, then NVIDIA).
const std::vector<Family>& all_families();

enum class Vendor { AMD, NVIDIA };
Vendor vendor_of(Family f);
std::string_view vendor_name(Vendor v);            // "AMD", "NVIDIA"
std::string_view register_noun(Vendor v);          // "VGPR" on AMD, "register" on NVIDIA

// One GPU target (a gfx id) with its family and product names.
struct Target {
    std::string gfx;                   // "gfx942"
    Family family;
    std::string title;                 // "CDNA3 (gfx942, MI300X/MI300A/MI325X)"
    std::vector<std::string> products; // lower-case, e.g. "mi300x"
    std::vector<int> wave_sizes;       // {64} or {32, 64}
    int default_wave;
    // The compiler that witnesses this target's builtins (conformance, probe
    // kernels): "clang-22" (LLVM 22) for every AMD target it knows, "clang-19"
    // for gfx940/gfx941, which LLVM 22 removed; "" on NVIDIA (PTX has no builtins).
    std::string compiler;
    bool has_compiler() const { return !compiler.empty(); }
    Vendor vendor() const { return vendor_of(family); }
    // The name `arch` has in JSON: the family on AMD ("cdna3"), the sm id on
    // NVIDIA ("sm_90"), as each vendor's users name architectures.
    std::string arch_name() const;
};

enum class Operand { A, B, C, D, K, SA, SB };
std::string_view operand_name(Operand op);        // "A", ..., "SB"
std::optional<Operand> parse_operand(std::string_view s);
std::string_view operand_title(Operand op);       // "A (M x K)" etc.

// Element types, with their bit width in registers.
enum class ElemType {
    F64, F32, XF32, F16, BF16, I32, I8, IU8, IU4, FP8, BF8, FP6, BF6, FP4, E8M0, IDX,
    F8F6F4,  // format chosen by cbsz (A) / blgp (B) on mfma_scale_*, matrix_a/b_fmt on gfx1250
    // NVIDIA (PTX) types. e4m3/e5m2 are the OCP formats AMD calls fp8/bf8 on
    // CDNA4/RDNA4; tf32 sits in a 32-bit register like xf32; b16 is ldmatrix's
    // untyped 16-bit element.
    TF32, S32, S8, U8, S4, E4M3, E5M2, B16,
    E5M3,    // gfx1250 scale format 1 (scale_fmt E4M3 uses E4M3 above)
    UE4M3    // PTX's unsigned e4m3 scale factor (mxf4nvf4 .ue4m3; PTX ISA §9.7.16.10.7, §9.7.14.5.14)
};
std::string_view elem_name(ElemType t);
int elem_bits(ElemType t);
std::optional<ElemType> parse_elem(std::string_view s);

// The formula families. Each family's formulas live in one place (layouts.cpp)
// and name their source.
enum class LayoutKind {
    Mfma, MfmaScaled, SmfmacCdna3, SmfmacCdna4, WmmaRdna3, WmmaRdna4, SwmmacRdna4,
    // gfx1250/gfx1251 (core/src/layouts/layouts_gfx1250.cpp)
    WmmaGfx1250,       // dense WMMA, f8f6f4 and 32x16x128 f4
    WmmaScaleGfx1250,  // wmma_scale_* / wmma_scale16_*: the same plus scale operands SA, SB
    SwmmacGfx1250,     // SWMMAC: sparse A, index operand K
    // NVIDIA (core/src/layouts/layouts_nvidia.cpp)
    MmaSync,     // mma.sync dense: warp of 32, quads g = lane/4, t = lane%4
    MmaSparse,   // mma.sp 2:4 sparse A with metadata (operand K) and selector
    LdStMatrix,  // ldmatrix / stmatrix m8n8 b16: operand D, one block per 8x8 matrix
    Wgmma,       // wgmma.mma_async: register A and accumulator D of a 128-thread warpgroup
    // NVIDIA Blackwell (core/src/layouts/layouts_tcgen05.cpp, layouts_nvidia.cpp)
    Tcgen05Mma,      // tcgen05.mma{.sp}{.ws}: D (and A, scale factors, metadata) in Tensor Memory
    Tcgen05LdSt,     // tcgen05.ld / tcgen05.st: the register fragment of a warp <-> its TMEM lane quarter
    Tcgen05Cp,       // tcgen05.cp: shared memory -> Tensor Memory
    MmaBlockScale    // sm_120 mma.sync kind::f8f6f4 / mxf8f6f4 / mxf4 / mxf4nvf4 (+ SFA/SFB owners)
};
std::string_view layout_kind_name(LayoutKind k);

// One catalog row: an instruction (builtin + mnemonic) on a set of families
// that share all of its facts.
struct Instruction {
    std::string builtin_pattern;      // without "__builtin_amdgcn_"; "{w}" -> w32/w64
    std::string mnemonic;             // ISA spelling on these families
    std::vector<std::string> aliases; // other spellings LLVM accepts
    std::vector<Family> families;
    LayoutKind kind;
    int m = 0, n = 0, k = 0, blocks = 1;
    ElemType a = ElemType::F32, b = ElemType::F32, c = ElemType::F32;  // D has C's type unless `d` says otherwise
    std::optional<ElemType> d;        // D's type where it differs from C (gfx1250 bf16f32: C f32, D bf16)
    unsigned opcode = 0;              // the matrix instruction's opcode (of its own word where there are several)
    // Multi-word instructions (gfx1250 wmma_scale*): the prefix instruction that
    // comes first (v_wmma_ld_scale_paired_b32, VOP3P 0x35), else empty / 0.
    std::string prefix_mnemonic;
    unsigned prefix_opcode = 0;
    int cycles = 0;                   // cycles (passes x 4); for mfma_scale: FP4/FP6 case; 0: not published
    int cycles_fp8 = 0;               // mfma_scale only: when A or B is FP8/BF8
    std::string vec_w32;              // builtin vector types "A,B,C>D" (wave64 on CDNA)
    std::string vec_w64;              // RDNA wave64 vector types, else empty
    std::string features;             // clang target features the builtin needs
    bool tied = false;                // D is tied to C (_tied builtins, smfmac)
    // mfma_scaled rows: true for v_mfma_scale_* (scale operands SA/SB, an
    // ld_scale prefix word); false for the unscaled f8f6f4 form that the
    // compiler selects for the same builtin when both scales are literal 0
    // (catalog layout "mfma_f8f6f4": the same A/B/C/D formulas, no SA/SB).
    bool scales = false;
    std::string source;               // where the facts come from
    int catalog_line = 0;
    // NVIDIA rows (empty on AMD rows). `mnemonic` holds the full PTX spelling,
    // `aliases` the short form and other accepted spellings.
    std::string short_name;           // "mma_m16n8k16_f32_bf16"
    std::string min_target;           // oldest target that accepts it: "sm_80", "sm_90a"
    std::string ptx_version;          // PTX ISA version it needs: "7.0"
    std::vector<std::pair<Operand, int>> stated_regs;  // 32-bit registers per thread, as the source states
    bool transposed = false;          // ldmatrix/stmatrix .trans
    bool store = false;               // stmatrix (registers -> memory)
    std::string confidence;           // how sure the layout is, and why (NVIDIA rows)
    // NVIDIA Blackwell rows (defaults elsewhere). PTX ISA §9.7.16 (tcgen05),
    // §9.7.14.5.14 (sm_120 block-scaled mma.sync).
    std::string mma_kind;             // ".kind::" of tcgen05.mma / sm_120 mma.sync: "f16" "tf32" "f8f6f4" "i8"
                                      // "mxf8f6f4" "mxf4" "mxf4nvf4"; "" elsewhere
    int cta_group = 0;                // tcgen05.mma / tcgen05.cp: 1 or 2; 0 elsewhere
    bool ws = false;                  // tcgen05.mma.ws (weight-stationary)
    bool tcgen05_sparse = false;      // tcgen05.mma.sp (A 2:4 / 1:2 / 4:8 with metadata in TMEM)
    bool a_in_tmem = false;           // tcgen05.mma with [a-tmem] (A in Tensor Memory, CUTLASS *_TS)
    int scale_vec = 0;                // block_scale: scale factors per row of A / column of B in one
                                      // instruction (1X, 2X, 4X; K = 96: 3, 6); 0 = not block-scaled
    int scale_block = 0;              // the block size that spells it: 16 (block16) or 32 (block32); 0 =
                                      // spelled scale_vec::NX
    ElemType scale_type = ElemType::E8M0;  // scale-factor type: ue8m0 (E8M0) or ue4m3 (E4M3)
    std::string tmem_shape;           // tcgen05.ld/st: "32x32b" "16x64b" "16x128b" "16x256b" "16x32bx2";
                                      // tcgen05.cp: "128x256b" "128x128b" "4x256b" "64x128b.warpx2::02_13" ...
    int tmem_num = 0;                 // tcgen05.ld/st .num: 1 .. 128 (.x1 .. .x128)
    bool pack16 = false;              // tcgen05.ld .pack::16b / tcgen05.st .unpack::16b
    std::vector<std::string> targets; // rows whose legality is per target (Blackwell): exactly the targets whose
                                      // ptxas accepts the spelling; empty: every target of `families` from min_target

    bool sparse() const;
    bool on(Family f) const;
    ElemType d_type() const { return d ? *d : c; }
    Vendor vendor() const { return vendor_of(families.front()); }
    // A file- and URL-safe identifier, unique per family and wave: the builtin
    // without "__builtin_amdgcn_" on AMD, the short name on NVIDIA.
    std::string key(int wave) const;
    std::string builtin(int wave) const;     // full "__builtin_amdgcn_..." name; "" on NVIDIA
    std::string signature(int wave) const;   // C prototype of the builtin
    std::string vector_types(int wave) const;
    long long ops() const;                   // 2*M*N*K*blocks
    std::string shape() const;               // "32x32x8"
};

class Catalog {
public:
    // The catalog compiled into the library (core/catalog/instructions.txt).
    static const Catalog& builtin();
    // The built-in rows on family `f` only, in builtin()'s order, read on first use:
    // what a query of one target needs (a start-up reads no other family's rows).
    // find_instruction answers as builtin()'s does, its refusals included.
    static const Catalog& builtin(Family f);
    // find_target without a catalog: the targets do not depend on the rows.
    static const Target& target(std::string_view name);
    // The text it was parsed from (for benchmarks and tools that derive catalogs).
    static std::string_view builtin_text();
    // Parse catalog text; throws Error naming `origin`, the line and the field.
    static Catalog parse(std::string_view text, std::string_view origin);
    // Parses the built-in catalog text with every check of parse() (which
    // builtin() skips at run time: the build runs this, and so does a test).
    // Throws Error with parse()'s message.
    static void check_builtin();
    static Catalog load_file(const std::string& path);

    // Every row (builtin(Family) of NVIDIA makes its N ranges' instructions on the first call).
    const std::vector<Instruction>& instructions() const;
    const std::vector<Target>& targets() const;

    // Accepts family names ("cdna3", "rdna3.5"), gfx ids ("gfx942") and product
    // names ("mi300x"), case-insensitively. Throws Error with suggestions.
    const Target& find_target(std::string_view name) const;
    // Accepts the mnemonic as spelled on that family, LLVM's other spelling,
    // or the builtin name (with or without "__builtin_amdgcn_", with or without
    // _w32/_w64). Throws Error with a "did you mean" suggestion.
    const Instruction& find_instruction(const Target& t, std::string_view name) const;
    // Same, and also reports the wave size a _w32/_w64 builtin name implies (0 if none).
    const Instruction& find_instruction(const Target& t, std::string_view name, int* implied_wave) const;
    std::vector<const Instruction*> on(Family f) const;

private:
    // `check` false: trusts the text (the built-in catalog, checked when built)
    // and skips the name, formula and duplicate checks.
    static Catalog parse(std::string_view text, std::string_view origin, bool check);
    std::vector<Instruction> rows_;
    bool partial_ = false;  // builtin(Family): a miss is answered by builtin()
    // builtin(Family): the family's lines, a row parsed only when a name asks for it
    // (and of an N range, such as wgmma's, only that N made), so a start-up reads one
    // row, not Hopper's 321 instructions; instructions() and on() parse them all
    // once, in the catalog's order (objects other than those find_instruction gave
    // before, equal in every field).
    struct Lazy;
    std::shared_ptr<Lazy> lazy_;
    const Instruction* find_lazy(std::string_view name, int* implied_wave) const;
};

// Modifiers are the encoding fields, as the ISA guide and the assembler write
// them. -1 means "not given" (so the default applies).
//
// gfx1250 (CDNA5) fields, named as LLVM's assembler writes them:
//  matrix_a_fmt / matrix_b_fmt   f8f6f4 data formats: 0 FP8, 1 BF8, 2 FP6, 3 BF6, 4 FP4
//                                (MATRIX_FMT_*; the builtin's fmt_a / fmt_b)
//  matrix_a_scale / matrix_b_scale        0 ROW0, 1 ROW1 (MATRIX_SCALE_ROW*; the builtin's
//                                a_scale_sel / b_scale_sel): which half-wave supplies the scales
//  matrix_a_scale_fmt / matrix_b_scale_fmt  0 E8M0, 1 E5M3, 2 E4M3 (MATRIX_SCALE_FMT_*)
//  index_key                     SWMMAC index_key (dword0 bit 11)
struct Modifiers {
    int cbsz = -1, abid = -1, blgp = -1, opsel = -1, wave = -1;
    int opsel_a = -1, opsel_b = -1;  // mfma_scale only: scale byte selects
    int selector = -1;               // NVIDIA mma.sp only: the sparsity selector (which lanes give metadata)
    int matrix_a_fmt = -1, matrix_b_fmt = -1;              // gfx1250 f8f6f4
    int matrix_a_scale = -1, matrix_b_scale = -1;          // gfx1250 wmma_scale*
    int matrix_a_scale_fmt = -1, matrix_b_scale_fmt = -1;  // gfx1250 wmma_scale*
    int index_key = -1;                                    // gfx1250 SWMMAC
    // NVIDIA Blackwell, Tensor Memory (layouts_tcgen05.cpp):
    //  tmem_load   tcgen05.mma D read back into registers by one tcgen05.ld shape: 0 none (D in
    //              TMEM), 1 32x32b, 2 16x64b, 3 16x128b, 4 16x256b, 5 16x32bx2 (names accepted too)
    //  num_warps   the warps that read it (4 or 8; Triton's num_warps)
    //  sfa_id / sfb_id  block-scaled tcgen05.mma: the idesc SFA_ID / SFB_ID byte of the scale word
    //  half_split  tcgen05.ld/st .16x32bx2: immHalfSplitoff, in columns
    int tmem_load = -1, num_warps = -1, sfa_id = -1, sfb_id = -1, half_split = -1;
    // bwcat: sm_120 block-scaled mma.sync (PTX 9.7.14.3): the {byte-id, thread-id}
    // selectors of scale-a-data / scale-b-data: the byte holding the first scale
    // factor, and which lane of a pair (A) / quad (B) supplies it.
    int sf_byte_a = -1, sf_thread_a = -1, sf_byte_b = -1, sf_thread_b = -1;
    // NVIDIA shared memory (smem: lanescope/smem.hpp, core/src/memory/nvidia_smem.cpp): the operands
    // wgmma / tcgen05.mma read through a 64-bit matrix descriptor. -1 = not given (CUTLASS's
    // make_gmma_desc / make_umma_desc values for the operand's tile).
    int smem_a = -1;        // wgmma: 1 = A from shared memory (the SS form; `load --memory smem` on operand A)
    int smem_major = -1;    // 0 K-major, 1 MN-major (wgmma imm-trans-a/b; tcgen05's instruction descriptor)
    int swizzle = -1;       // SmemSwizzle: 0 none, 1 32B, 2 64B, 3 128B, 4 128B_base32B (tcgen05 only)
    int lbo = -1, sbo = -1; // leading / stride byte offsets (bytes, multiples of 16)
    int smem_address = -1;  // the descriptor's start address: absolute shared-memory byte (multiple of 16)
    int base_offset = -1;   // descriptor bits 49-51 (0..7)
    std::optional<std::uint64_t> descriptor;  // a whole 64-bit descriptor: its fields replace the four above
};

// The modifiers after validation and defaulting, as they apply to one instruction.
struct ResolvedModifiers {
    int cbsz = 0, abid = 0, blgp = 0, opsel = 0, wave = 64;  // NVIDIA: wave = 32 (warp) or 128 (warpgroup)
    int opsel_a = 0, opsel_b = 0;
    int selector = 0;
    int matrix_a_fmt = 0, matrix_b_fmt = 0;
    int matrix_a_scale = 0, matrix_b_scale = 0;
    int matrix_a_scale_fmt = 0, matrix_b_scale_fmt = 0;
    int index_key = 0;
    // NVIDIA Blackwell, Tensor Memory (see Modifiers); num_warps is 4 when tmem_load is given, else 0.
    int tmem_load = 0, num_warps = 0, sfa_id = 0, sfb_id = 0, half_split = 0;
    int sf_byte_a = 0, sf_thread_a = 0, sf_byte_b = 0, sf_thread_b = 0;  // bwcat: sm_120 scale-factor selectors
    // NVIDIA shared memory (see Modifiers): smem_a 0/1; the others as given, -1 = the canonical value for
    // the operand (resolved per operand by smem_operand, lanescope/smem.hpp); a --descriptor fills
    // swizzle, lbo, sbo, smem_address and base_offset from its fields and keeps its value.
    int smem_a = 0;
    int smem_major = -1, swizzle = -1, lbo = -1, sbo = -1, smem_address = -1, base_offset = -1;
    std::optional<std::uint64_t> descriptor;
    std::string describe() const;  // "cbsz=1 abid=1" (only non-default fields), or ""
};

// Validates `m` for `ins` on `t`; throws Error naming the modifier, the value,
// and the legal values (or that it does not apply to this instruction).
ResolvedModifiers resolve_modifiers(const Instruction& ins, const Target& t, const Modifiers& m);
// Which modifiers this instruction accepts and their legal values, for UIs.
struct ModifierRange {
    std::string name;          // "cbsz", "abid", "blgp", "opsel", "wave", "opsel_a", "opsel_b", "selector",
                               // "matrix_a_fmt", "matrix_b_fmt", "matrix_a_scale", "matrix_b_scale",
                               // "matrix_a_scale_fmt", "matrix_b_scale_fmt", "index_key", "tmem_load",
                               // "num_warps", "sfa_id", "sfb_id", "half_split",
                               // "sf_byte_a", "sf_thread_a", "sf_byte_b", "sf_thread_b"
    std::vector<int> values;   // legal values (given the other modifiers' current values)
    std::string meaning;       // one line
    bool moves_data;           // false for value-only modifiers (f64 negation)
};
std::vector<ModifierRange> modifier_ranges(const Instruction& ins, const Target& t, const ResolvedModifiers& current);
// The lane counts this instruction runs with on `t` (AMD: the target's wave
// sizes; NVIDIA: 32 for a warp, 128 for a wgmma warpgroup). Front ends iterate
// these instead of t.wave_sizes.
std::vector<int> wave_sizes(const Instruction& ins, const Target& t);
// "wave64", "warp" or "warpgroup": what the lanes of this query are called.
std::string lane_group_name(const Instruction& ins, int wave);
// Reads / writes one modifier field by the name modifier_ranges uses ("cbsz",
// "wave", "opsel_a", ...). Unknown names read 0 and write nothing.
int modifier_value(const ResolvedModifiers& m, std::string_view name);
// The same on the modifiers as given: -1 (not given) for unknown names.
int modifier_value(const Modifiers& m, std::string_view name);
void set_modifier(Modifiers& m, std::string_view name, int value);
// Every field those three know, in Modifiers' order ("cbsz" ... "base_offset"; the 64-bit
// --descriptor is Modifiers::descriptor, aside).
const std::vector<std::string_view>& modifier_field_names();
// Named values of the gfx1250 controls, as LLVM's assembler spells them:
// matrix_a_fmt / matrix_b_fmt FP8 BF8 FP6 BF6 FP4 (0..4), matrix_a_scale /
// matrix_b_scale ROW0 ROW1 (0, 1), matrix_a_scale_fmt / matrix_b_scale_fmt E8M0
// E5M3 E4M3 (0..2). The name of a value ("" where it has none; -1: "default"), and
// the value of a text: a name (any case, with or without MATRIX_FMT_ / MATRIX_SCALE_ /
// MATRIX_SCALE_FMT_) or a decimal number; nullopt when it is neither.
std::string modifier_value_name(std::string_view modifier, int value);
std::optional<int> parse_modifier_value(std::string_view modifier, std::string_view text);
// The legal spellings of a named modifier, for messages: "fp8 bf8 fp6 bf6 fp4 (or 0..4)".
std::string modifier_value_names(std::string_view modifier);

struct Element {
    int block = 0, row = 0, col = 0;
    bool operator==(const Element& o) const { return block == o.block && row == o.row && col == o.col; }
    bool operator<(const Element& o) const;
};
// Where an element lives. One model for every place an operand can be: an
// operand's elements all live in one Space (OperandLayout::space()), and a
// Location is (reg, lane, bits) read in that space's terms:
//  Registers     lane = thread (AMD lane) of the wave/warp/warpgroup, reg = its
//                32-bit register, counted from the operand's first one.
//  TensorMemory  lane = TMEM lane (0..127 of one CTA; a cta_group::2 operand
//                numbers CTA 1's lanes 128..255), reg = TMEM column (32-bit cells).
//  SharedMemory  lane = 128-byte line of shared memory (absolute byte address / 128),
//                reg = 32-bit word of that line, which is also its bank (0..31);
//                the element's byte address is 128*lane + 4*reg + bit_lo/8.
// bit_lo/bit_hi are bits of that register / cell / word in every space.
enum class Space { Registers, TensorMemory, SharedMemory };
std::string_view space_name(Space s);     // "registers", "tmem", "smem" (the JSON's "space")
std::string_view space_title(Space s);    // "registers", "Tensor Memory", "shared memory"
// What `lane` and `reg` are called in a space: ("lane", "reg") on AMD registers,
// ("thread", "reg") on NVIDIA registers, ("tmem_lane", "column"), ("line", "bank").
std::pair<std::string_view, std::string_view> space_axes(Space s, Vendor v);

struct Location {
    int reg = 0, lane = 0, bit_lo = 0, bit_hi = 0;
    bool operator==(const Location& o) const {
        return reg == o.reg && lane == o.lane && bit_lo == o.bit_lo && bit_hi == o.bit_hi;
    }
    bool operator<(const Location& o) const;
};
struct Entry {
    Element element;
    Location loc;
};
// Part of one 32-bit register of one lane: bits [bit_lo, bit_hi] of that
// register hold bits [elem_bit_lo, ...] of `element`.
struct SlotPart {
    int bit_lo = 0, bit_hi = 0;
    Element element;
    int elem_bit_lo = 0;  // non-zero when this register holds the upper part of the element
};

// The layout of one operand of one instruction under resolved modifiers.
class OperandLayout {
public:
    Operand operand() const { return operand_; }
    int blocks() const { return blocks_; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    // Where this operand's elements live (see Space); lanes() and regs() count
    // that space's lanes and registers (TMEM: lanes x columns; shared memory:
    // 128-byte lines x 32 words).
    Space space() const { return space_; }
    int lanes() const { return lanes_; }       // wave size
    int regs() const { return regs_; }         // VGPRs per lane the instruction reads/writes
    int element_bits() const { return bits_; }
    ElemType type() const { return type_; }
    int elements() const { return blocks_ * rows_ * cols_; }
    bool contains(const Element& e) const;

    // Every slot that holds (or supplies) this element; throws Error if out of range.
    std::vector<Location> where(const Element& e) const;
    // What register `reg` of `lane` holds, bit range by bit range (may be empty).
    std::vector<SlotPart> which(int reg, int lane) const;
    // All (element, location) pairs, sorted by element then location.
    std::vector<Entry> entries() const;
    // Formulas in words (forward and inverse) for this operand.
    std::string formula() const { return formula_; }

private:
    friend class LayoutBuilder;
    enum class Part { Whole, Elements, Slot };  // layout_of, layout_of_elements, layout_of_slot
    Part part_ = Part::Whole;
    std::vector<Element> covered_;  // Part::Elements: the elements made, sorted
    int part_slot_ = -1;            // Part::Slot: lane * regs + reg
    Operand operand_ = Operand::A;
    Space space_ = Space::Registers;
    ElemType type_ = ElemType::F32;
    int blocks_ = 1, rows_ = 0, cols_ = 0, lanes_ = 64, regs_ = 0, bits_ = 32;
    std::string formula_;
    std::string outside_note_;                   // appended to where()'s refusal of an element outside the operand
    std::vector<Entry> entries_;                 // sorted by element, then location
    std::vector<int> first_entry_;               // per linear element index (Elements: per covered one): [first, next) into entries_
    std::vector<SlotPart> slot_parts_;           // grouped by slot (lane * regs_ + reg), sorted by bit
    std::vector<int> slot_first_;                // per slot: [first, next) into slot_parts_
};

// Whether the instruction's formula family can lay it out: GPU families,
// element types, shape and blocks (each family's rule table in layouts.cpp), and
// register counts of the builtin's vector types that agree with the formulas.
// Throws Error "what, legal: ...". Catalog::parse checks every row with it, and
// layout_of refuses any row the rules refuse (no division by zero, no overflow).
void validate_instruction(const Instruction& ins);

// Throws Error if the operand does not exist for this instruction (K on a dense
// instruction, SA/SB without scales).
OperandLayout layout_of(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods);
OperandLayout layout_of(const Instruction& ins, const Target& t, Operand op, const Modifiers& mods);
// The same layout for a single query: only `elements` placed (where() answers for
// them, as layout_of's does, and throws Error for any other element), or only
// what slot (reg, lane) holds (which() of that slot, as layout_of's; entries()
// empty). The family's placement is evaluated for those elements alone (for a
// slot: every element placed, only the slot's parts kept), so one `where` of a
// 64x256 wgmma D does not build its 16,384 entries.
OperandLayout layout_of_elements(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                 const std::vector<Element>& elements);
OperandLayout layout_of_slot(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods, int reg,
                             int lane);
std::vector<Operand> operands_of(const Instruction& ins);  // A, B, C, D (+K) (+SA, SB); wgmma A, C, D; ldmatrix D
// True when D = A*B + C (every family but ldmatrix/stmatrix, which only move data).
bool computes_product(const Instruction& ins);

// Register counts per lane of each operand (the instruction's, for these modifiers).
int operand_regs(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
ElemType operand_type(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
// Where the operand's elements live under these modifiers (layout_of(...).space(), without laying it out).
Space operand_space(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
// A slot of a Blackwell operand in the one model every front end shows (docs/blackwell.md):
// the CTA of a cta_group::2 pair, the TMEM lane or thread within that CTA (a layout numbers the
// pair's slots 128*cta + lane in TMEM, 32*num_warps*cta + thread in registers), the thread's warp
// within its CTA, and for D read back by --tmem-load which tcgen05.ld of the thread holds the
// register and which register of that load it is. Elsewhere: cta 0, lane = loc.lane, the rest -1.
struct PairSlot {
    int cta = 0, lane = 0;
    int warp = -1;                 // registers of a tcgen05 read-back only
    int load = -1, load_reg = -1;  // --tmem-load only: load `load` (from 0), its register `load_reg`
    int loads = 0;                 // --tmem-load only: the loads each thread issues
    int load_regs = 0;             // --tmem-load only: the 32-bit registers of one load
    std::string load_ptx;          // --tmem-load only: that load's PTX ("tcgen05.ld.sync.aligned.32x32b.x128.b32")
    bool pair = false;             // a cta_group::2 operand (cta is meaningful)
};
PairSlot pair_slot(const Instruction& ins, Operand op, const ResolvedModifiers& mods, const Location& loc);
// "CTA1 T85 (warp 2), load 1 r72" / "CTA1 L77": pair_slot as text ("" where it adds nothing to T/L).
std::string pair_slot_text(const Instruction& ins, Operand op, const ResolvedModifiers& mods, const Location& loc);
int effective_cycles(const Instruction& ins, const ResolvedModifiers& mods);

// Execution facts beyond shape and types (CALC's per-instruction fields; CDNA4
// follows CDNA3 where no source says otherwise).
struct ExecFacts {
    bool coexec = false;          // independent VALU work can issue while it runs
    int coexec_cycles = 0;        // cycles left for VALU work (cycles - dependency delay)
    int gpr_alignment_bytes = 4;  // operand register alignment
    std::vector<std::pair<Operand, std::string>> register_files;  // "ArchVGPR or AccVGPR", ...
    std::string value_modifiers;  // modifiers that change values but never placement
};
ExecFacts exec_facts(const Instruction& ins, const Target& t, const ResolvedModifiers& mods);

// How an AMD matrix instruction is encoded: its dwords in order, each with its
// fixed bits (registers and modifiers zero). Multi-word instructions (gfx950's
// v_mfma_scale_*) start with a prefix instruction (v_mfma_ld_scale_b32) and end
// with the MFMA/WMMA instruction whose opcode the catalog gives.
struct EncodingWord {
    int dword = 0;              // index of the word's first dword in the instruction
    unsigned word = 0;          // dword 0 of that instruction word: fixed bits | opcode
    unsigned opcode = 0;
    std::string mnemonic;       // "v_mfma_ld_scale_b32", or the row's mnemonic
    std::string role;           // "prefix" or "matrix"
};
// The encoding format of a family's matrix instructions (a per-family fact).
struct EncodingFormat {
    std::string name;           // "VOP3P-MAI" (GFX9/CDNA), "VOP3P" (GFX11/GFX12)
    unsigned word0_fixed = 0;   // the format's fixed bits of dword 0
    int opcode_lo = 16;         // the opcode field: bits opcode_lo .. opcode_lo + opcode_bits - 1 of dword 0
    int opcode_bits = 7;
    int dwords = 2;             // dwords per instruction word (no literal)
    std::string source;
    unsigned opcode_of(unsigned dword0) const { return (dword0 >> opcode_lo) & ((1u << opcode_bits) - 1u); }
};
EncodingFormat encoding_format(Family f);
std::vector<EncodingWord> encoding_words(const Instruction& ins);
// How the compiler chooses this instruction from its builtin ("" when the
// builtin always gives it): the scaled / unscaled f8f6f4 pair.
std::string compiler_selection(const Instruction& ins);
// How sure a layout is, and the other readings of it (gfx1250 layouts carry
// this; other families return an empty `confidence` and state theirs in
// family_source / Instruction::confidence). An alternative is a whole
// description: what it says, who says it, and which elements it would move.
struct Alternative {
    std::string reading;  // "w = 8: A[i][k] in lane i + 16*(floor(k/8)%2), element 8*floor(k/16) + k%8"
    std::string source;   // "a reviewer's quotation of the CDNA5 ISA guide §7.12.2"
    std::string differs;  // "which elements move: every k with (k/8)%2 != (k/16)%2 ..."
};
struct Evidence {
    std::string confidence;  // "high", "disputed", "low, one source" (empty: not stated here)
    std::string sources;     // the sources of the chosen reading
    std::string why;         // one sentence: why this confidence
    std::vector<Alternative> alternatives;  // other readings a source gives (empty: none known)
};
// The evidence of one operand's layout under these modifiers.
Evidence layout_evidence(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
// The weakest evidence over every operand (what `info` and a whole figure show).
Evidence instruction_evidence(const Instruction& ins, const ResolvedModifiers& mods);

// The family's formulas in words, and their source.
std::string family_formulas(const Instruction& ins, const ResolvedModifiers& mods);
std::string family_source(LayoutKind k);
std::string modifier_notes(const Instruction& ins, const Target& t);

// One symbol of the layout formulas with its meaning for one instruction, so a
// formula is never shown without its legend (info, the gallery, the app).
struct FormulaSymbol {
    std::string symbol;   // as the formulas write it: "i", "b'", "G", "p(l)", "floor(x)"
    std::string meaning;  // "row of A and of C/D (0..31)"
};
// The symbols that `formulas` (text of family_formulas or OperandLayout::formula())
// uses, each defined for `ins`; in a fixed order (indices first, then
// quantities, then functions). Every single-letter symbol of the catalog's
// formulas has an entry; operand names (A, B, K, ...) are not symbols.
std::vector<FormulaSymbol> formula_symbols(const Instruction& ins, std::string_view formulas);
// The same as "symbol: meaning" lines (each ending in a newline).
std::string formula_symbols_text(const Instruction& ins, std::string_view formulas, std::string_view indent = "  ");

// For one element of D: every A, B, C (and K, SA, SB) element that feeds it,
// with where each one lives under the modifiers.
struct TraceTerm {
    Operand operand;
    Element element;
    std::vector<Location> locations;
};
struct Trace {
    Element d;
    std::vector<Location> d_locations;
    std::vector<TraceTerm> terms;
    std::string note;  // e.g. how the sparse index picks the B rows
};
Trace trace(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, const Element& d);

// "Did you mean" helper: the completions of `word` first (a truncated name), then
// the closest candidates by edit distance.
std::vector<std::string> closest(std::string_view word, const std::vector<std::string>& candidates, size_t max = 3);

}  // namespace lanescope
