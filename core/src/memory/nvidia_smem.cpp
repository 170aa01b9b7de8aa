// NVIDIA shared memory: matrix descriptors (wgmma, tcgen05), canonical layouts
// and swizzles, the smem modifiers, and the OperandSpec of an operand in shared
// memory. Sources in lanescope/smem.hpp; the rules in words in docs/memory.md
// ("NVIDIA shared memory").
#include "lanescope/smem.hpp"
#include "lanescope/numbers.hpp"

#include "catalog/catalog_blackwell.hpp"
#include "layouts/layout_spec.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

namespace lanescope {

namespace {


std::string hex64(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(v));
    return b;
}

constexpr std::uint32_t kWindow = 1u << 18;  // the descriptor's 18-bit byte address (enc(x) = (x & 0x3FFFF) >> 4)

int pattern_rows(SmemSwizzle s) {  // 128-byte rows of one period: 2^b
    switch (s) {
        case SmemSwizzle::None: return 1;
        case SmemSwizzle::B32: return 2;
        case SmemSwizzle::B64: return 4;
        case SmemSwizzle::B128: return 8;
        case SmemSwizzle::B128Base32: return 4;
    }
    return 1;
}

}  // namespace

std::string_view smem_swizzle_name(SmemSwizzle s) {
    switch (s) {
        case SmemSwizzle::None: return "none";
        case SmemSwizzle::B32: return "32B";
        case SmemSwizzle::B64: return "64B";
        case SmemSwizzle::B128: return "128B";
        case SmemSwizzle::B128Base32: return "128B_base32B";
    }
    return "none";
}

std::optional<SmemSwizzle> parse_smem_swizzle(std::string_view text) {
    // Names only, as typed (no space): a number would be read as one encoding or another.
    const std::string t = text::lower(text);
    if (t == "none" || t == "interleave") return SmemSwizzle::None;
    if (t == "32b") return SmemSwizzle::B32;
    if (t == "64b") return SmemSwizzle::B64;
    if (t == "128b") return SmemSwizzle::B128;
    if (t == "128b_base32b" || t == "128b_atom_32b" || t == "128b_32b") return SmemSwizzle::B128Base32;
    return std::nullopt;
}

int swizzle_span(SmemSwizzle s) {
    switch (s) {
        case SmemSwizzle::None: return 0;
        case SmemSwizzle::B32: return 32;
        case SmemSwizzle::B64: return 64;
        case SmemSwizzle::B128:
        case SmemSwizzle::B128Base32: return 128;
    }
    return 0;
}

int swizzle_period(SmemSwizzle s) { return s == SmemSwizzle::None ? 0 : 128 * pattern_rows(s); }

std::uint32_t smem_swizzle(std::uint32_t a, SmemSwizzle s, int base_offset) {
    if (s == SmemSwizzle::None) return a;
    const int rows = pattern_rows(s);
    const int unit_shift = s == SmemSwizzle::B128Base32 ? 5 : 4;  // 32-byte units (Swizzle<2,5,2>) or 16-byte chunks
    const std::uint32_t row = static_cast<std::uint32_t>(((static_cast<int>((a >> 7) % 8) - base_offset) % rows + rows) % rows);
    return a ^ (row << unit_shift);
}

std::string_view smem_major_name(SmemMajor m) { return m == SmemMajor::K ? "K" : "MN"; }
std::string_view descriptor_format_name(DescriptorFormat f) { return f == DescriptorFormat::Wgmma ? "wgmma" : "tcgen05"; }

// ------------------------------------------------------------ descriptors ---

namespace {

std::uint64_t enc(std::uint32_t bytes) { return (bytes & 0x3FFFFu) >> 4; }

int wgmma_code(SmemSwizzle s) {  // bits 62-63: 0 none (interleave), 1 128B, 2 64B, 3 32B
    switch (s) {
        case SmemSwizzle::None: return 0;
        case SmemSwizzle::B128: return 1;
        case SmemSwizzle::B64: return 2;
        case SmemSwizzle::B32: return 3;
        case SmemSwizzle::B128Base32: break;
    }
    throw Error("the 128B_base32B swizzle exists only in tcgen05 descriptors; wgmma's: none, 32B, 64B, 128B");
}

int tcgen05_code(SmemSwizzle s) {  // bits 61-63: 0 none, 1 128B_base32B, 2 128B, 4 64B, 6 32B
    switch (s) {
        case SmemSwizzle::None: return 0;
        case SmemSwizzle::B128Base32: return 1;
        case SmemSwizzle::B128: return 2;
        case SmemSwizzle::B64: return 4;
        case SmemSwizzle::B32: return 6;
    }
    return 0;
}

}  // namespace

std::uint64_t encode_descriptor(const SmemDescriptor& d) {
    std::uint64_t v = enc(d.start) | enc(d.lbo) << 16 | enc(d.sbo) << 32 |
                      static_cast<std::uint64_t>(d.base_offset & 7) << 49;
    if (d.format == DescriptorFormat::Wgmma) return v | static_cast<std::uint64_t>(wgmma_code(d.swizzle)) << 62;
    return v | std::uint64_t{1} << 46 | static_cast<std::uint64_t>(d.lbo_mode & 1) << 52 |
           static_cast<std::uint64_t>(tcgen05_code(d.swizzle)) << 61;
}

std::vector<DescriptorField> descriptor_fields(std::uint64_t v, DescriptorFormat f) {
    auto bits = [v](int lo, int hi) { return (v >> lo) & ((std::uint64_t{1} << (hi - lo + 1)) - 1); };
    std::vector<DescriptorField> out;
    auto add = [&](const char* name, int lo, int hi, bool ignored, std::string meaning, bool bytes = false) {
        DescriptorField d;
        d.name = name;
        d.lo = lo;
        d.hi = hi;
        d.bits = bits(lo, hi);
        d.bytes = bytes ? static_cast<long long>(d.bits << 4) : -1;
        d.ignored = ignored;
        d.meaning = std::move(meaning);
        out.push_back(std::move(d));
    };
    const bool wg = f == DescriptorFormat::Wgmma;
    add("start_address", 0, 13, false, "start address >> 4 (bytes = field * 16)", true);
    // tcgen05's reserved bits: PTX says they must be 0, nothing says they are ignored (not measured).
    const char* reserved = "reserved (must be 0 per PTX; effect not measured on hardware)";
    add(wg ? "ignored" : "reserved", 14, 15, wg, wg ? "unused; the hardware ignores these bits" : reserved);
    add("leading_byte_offset", 16, 29, false, "LBO >> 4 (bytes = field * 16)", true);
    add(wg ? "ignored" : "reserved", 30, 31, wg, wg ? "unused; the hardware ignores these bits" : reserved);
    add("stride_byte_offset", 32, 45, false, "SBO >> 4 (bytes = field * 16)", true);
    if (wg) {
        add("ignored", 46, 48, true, "unused on sm_90 (tcgen05's fixed 0b001 here is ignored by wgmma)");
        add("base_offset", 49, 51, false, "matrix base offset: the 128-byte row where the swizzle pattern starts "
                                          "(subtracted from address bits 7-9; no effect without a swizzle)");
        add("ignored", 52, 61, true, "unused on sm_90 (tcgen05's LBO-mode bit 52 and 32B-atomicity bit 61 are ignored)");
        const int code = static_cast<int>(bits(62, 63));
        const char* names[] = {"none (interleave)", "128B", "64B", "32B"};
        add("layout_type", 62, 63, false, std::string("swizzle: ") + names[code] + " (0 none, 1 128B, 2 64B, 3 32B)");
    } else {
        add("version", 46, 48, false, "fixed 0b001 (PTX tcgen05 Table 40; CUTLASS version_ = 1)");
        add("base_offset", 49, 51, false, "matrix base offset: the 128-byte row where the swizzle pattern starts");
        add("lbo_mode", 52, 52, false, "0: LBO is a byte offset; 1: LBO is an absolute address (sm_103a, 48-byte K)");
        add("fixed_zero", 53, 60, false, "fixed 0");
        const int code = static_cast<int>(bits(61, 63));
        const char* names[] = {"none", "128B_base32B", "128B", "invalid", "64B", "invalid", "32B", "invalid"};
        add("layout_type", 61, 63, false,
            std::string("swizzle: ") + names[code] + " (0 none, 1 128B_base32B, 2 128B, 4 64B, 6 32B)");
    }
    return out;
}

SmemDescriptor decode_descriptor(std::uint64_t v, DescriptorFormat f) {
    SmemDescriptor d;
    d.format = f;
    d.start = static_cast<std::uint32_t>(v & 0x3FFF) << 4;
    d.lbo = static_cast<std::uint32_t>((v >> 16) & 0x3FFF) << 4;
    d.sbo = static_cast<std::uint32_t>((v >> 32) & 0x3FFF) << 4;
    d.base_offset = static_cast<int>((v >> 49) & 7);
    if (f == DescriptorFormat::Wgmma) {
        const SmemSwizzle by_code[] = {SmemSwizzle::None, SmemSwizzle::B128, SmemSwizzle::B64, SmemSwizzle::B32};
        d.swizzle = by_code[(v >> 62) & 3];
        return d;
    }
    const std::string where = "--descriptor " + hex64(v) + " (tcgen05): ";
    if (((v >> 46) & 7) != 1)
        throw Error(where + "bits 46-48 are " + num(static_cast<long long>((v >> 46) & 7)) +
                    "; they must be 0b001 (the fixed version field, PTX tcgen05 'Shared Memory Descriptor'); legal: "
                    "the descriptor with bits 46-48 = 0b001 (" + hex64((v & ~(std::uint64_t{7} << 46)) | (std::uint64_t{1} << 46)) + ")");
    if ((v >> 53) & 0xFF)
        throw Error(where + "bits 53-60 must be 0 (fixed); legal: " + hex64(v & ~(std::uint64_t{0xFF} << 53)));
    d.lbo_mode = static_cast<int>((v >> 52) & 1);
    switch ((v >> 61) & 7) {
        case 0: d.swizzle = SmemSwizzle::None; break;
        case 1: d.swizzle = SmemSwizzle::B128Base32; break;
        case 2: d.swizzle = SmemSwizzle::B128; break;
        case 4: d.swizzle = SmemSwizzle::B64; break;
        case 6: d.swizzle = SmemSwizzle::B32; break;
        default:
            throw Error(where + "swizzle code " + num(static_cast<long long>((v >> 61) & 7)) +
                        " (bits 61-63) is not defined; legal: 0 none, 1 128B_base32B, 2 128B, 4 64B, 6 32B");
    }
    return d;
}

// ---------------------------------------------------------- the operand ---

namespace {

bool is_tcgen05(const Instruction& ins) { return ins.kind == LayoutKind::Tcgen05Mma; }

DescriptorFormat format_of(const Instruction& ins) {
    return is_tcgen05(ins) ? DescriptorFormat::Tcgen05 : DescriptorFormat::Wgmma;
}

// Bits of the tile's slot per element in shared memory. kind::f8f6f4 and kind::mxf8f6f4 take their
// 4- and 6-bit A/B in the 8-bit tile (16 slots per 16-byte chunk), the chunk's 16 values packed from
// its first bit and the rest padding (PTX ISA §9.7.16.10.4.4 "contiguously packed along with
// padding"; §9.7.16.9.1.1/.2 "16 elements of 4-bits each followed by 8 bytes of padding", "... of
// 6-bits each followed by 4 bytes of padding"; CUTLASS allocates them as uint8_t and loads them with
// TMA's 16U4_ALIGN16B / 16U6_ALIGN16B; Triton's fp4Padded core matrix: "8 'real' and 8 'padded'
// offsets"). kind::mxf4 / mxf4nvf4 pack e2m1 two per byte with no padding (§9.7.16.10.4.6).
bool padded_sub_byte(const Instruction& ins, ElemType t) {
    return elem_bits(t) < 8 && (ins.mma_kind == "f8f6f4" || ins.mma_kind == "mxf8f6f4");
}
int smem_slot_bits(const Instruction& ins, ElemType t) { return padded_sub_byte(ins, t) ? 8 : elem_bits(t); }

int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

}  // namespace

bool in_shared_memory(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    if (ins.kind == LayoutKind::Wgmma) return op == Operand::B || (op == Operand::A && mods.smem_a == 1);
    if (ins.kind == LayoutKind::Tcgen05Mma) return op == Operand::B || (op == Operand::A && !ins.a_in_tmem);
    return false;
}

bool read_by_descriptor(const Instruction& ins, Operand op) {
    ResolvedModifiers ss;
    ss.smem_a = 1;  // wgmma's SS form
    return in_shared_memory(ins, op, ss);
}

std::string descriptor_operands_text(const Instruction& ins) {
    if (ins.kind == LayoutKind::Wgmma) return "A (the SS form) or B of wgmma";
    if (ins.kind == LayoutKind::Tcgen05Mma)
        return "B (and A unless it is in Tensor Memory); SFA, SFB (their path through shared memory) of a block-scaled kind";
    return "the A and B of wgmma and tcgen05.mma";
}

std::pair<int, int> SmemOperand::mn_k(int row, int col) const {
    return operand == Operand::A ? std::pair<int, int>{row, col} : std::pair<int, int>{col, row};
}

std::uint32_t SmemOperand::linear(int m, int kk) const {
    const std::uint32_t slot = slot_linear(m, kk);
    if (!padded()) return slot;
    // Slot i of its 16-byte chunk holds its value at bits i*e of the chunk (start is a multiple of 16,
    // and every swizzle of a K-major sub-byte operand moves whole 16-byte chunks).
    const std::uint32_t i = slot % 16;
    return slot - i + i * static_cast<std::uint32_t>(element_bits) / 8;
}

std::uint32_t SmemOperand::slot_linear(int m, int kk) const {
    const long long e_bits = slot_bits;
    const long long W = swizzle_span(desc.swizzle);
    const long long lbo = desc.lbo, sbo = desc.sbo;
    long long lin = 0;
    if (major == SmemMajor::K) {
        const long long kb = kk * e_bits;  // bit offset along K
        if (W == 0)
            lin = (m % 8) * 16 + (m / 8) * sbo + (kb % 128) / 8 + (kb / 128) * lbo;
        else
        {
            lin = (m % 8) * W + (m / 8) * sbo + kb / 8;
            // Bit 52 (absolute LBO, CUTLASS's SM103 mma_unpack: lbo_mode 1, LBO = the next K chunk's start
            // address): the bytes of K past the start's W-byte swizzle row continue at address LBO.
            const long long at = desc.start % W;
            if (desc.lbo_mode == 1 && at + kb / 8 >= W)
                lin = lbo - static_cast<long long>(desc.start) + (m % 8) * W + (m / 8) * sbo + (at + kb / 8 - W);
        }
    } else {
        const long long mb = m * e_bits;  // bit offset along MN
        if (W == 0)
            lin = (mb % 128) / 8 + (mb / 128) * sbo + (kk % 8) * 16 + (kk / 8) * lbo;
        else if (desc.swizzle == SmemSwizzle::B128Base32)
            lin = (mb % 1024) / 8 + (mb / 1024) * lbo + (kk % 4) * 128 + (kk / 4) * sbo;
        else
            lin = (mb % (8 * W)) / 8 + (mb / (8 * W)) * lbo + (kk % 8) * W + (kk / 8) * sbo;
    }
    return static_cast<std::uint32_t>(lin);
}

std::uint32_t SmemOperand::address(int m, int kk) const {
    return smem_swizzle(desc.start + linear(m, kk), desc.swizzle, desc.base_offset);
}

std::uint32_t SmemOperand::slot_address(int m, int kk) const {
    return smem_swizzle(desc.start + slot_linear(m, kk), desc.swizzle, desc.base_offset);
}

int SmemOperand::bit(int m, int kk) const {
    if (padded()) return static_cast<int>((slot_linear(m, kk) % 16 * static_cast<std::uint32_t>(element_bits)) % 8);
    return major == SmemMajor::K ? static_cast<int>((static_cast<long long>(kk) * element_bits) % 8) : 0;
}

int SmemOperand::core_matrix(int m, int kk) const {
    if (major == SmemMajor::K) {
        const int per_mn = ceil_div(mn, 8);
        return static_cast<int>(static_cast<long long>(kk) * slot_bits / 128) * per_mn + m / 8;
    }
    const int per_mn = ceil_div(static_cast<long long>(mn) * slot_bits, 128);
    return (kk / 8) * per_mn + static_cast<int>(static_cast<long long>(m) * slot_bits / 128);
}

namespace {
SmemOperand smem_operand_uncached(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
}  // namespace

// One query asks for the same operand's layout many times (its type, registers, lanes, formula and
// places come from it): the last few are kept per thread. The key is everything smem_operand reads.
SmemOperand smem_operand(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    // The instruction by its address and by what smem_operand reads of it (a user's catalog may be
    // freed and another row take its address).
    using Key = std::tuple<const Instruction*, std::string, LayoutKind, int, int, int, int, bool, bool, ElemType, ElemType,
                           Operand, int, int, int, int, int, int, int, std::optional<std::uint64_t>>;
    const Key key{&ins,         ins.mnemonic, ins.kind,       ins.m,         ins.n,        ins.k,
                  ins.cta_group, ins.a_in_tmem, ins.tcgen05_sparse, ins.a,    ins.b,        op,
                  mods.smem_a,   mods.smem_major, mods.swizzle, mods.lbo,     mods.sbo,     mods.smem_address,
                  mods.base_offset, mods.descriptor};
    thread_local std::vector<std::pair<Key, SmemOperand>> kept;
    for (const auto& [k, so] : kept)
        if (k == key) return so;
    SmemOperand so = smem_operand_uncached(ins, op, mods);
    if (kept.size() >= 4) kept.erase(kept.begin());
    kept.emplace_back(key, so);
    return so;
}

namespace {
// Two blocks of an operand that LBO and SBO put on the same bytes. The blocks are PTX's (9.7.9.x,
// "Matrix Descriptor"): without a swizzle core matrices of 128 contiguous bytes, with one the
// swizzle atoms (rows of the swizzle width; a swizzle moves 16-byte chunks inside a row only, so an
// atom covers its rows' bytes whatever its start). Blocks start every step_mn along MN and step_k
// along K; span(kk) is the bytes of the block starting at K index kk.
struct BlockOverlap {
    std::uint32_t first_at = 0, second_at = 0;      // bytes from the start
    std::pair<int, int> first, second;              // (mn, k) of each block's first element
};
template <class Span>
std::optional<BlockOverlap> overlapping_blocks(const SmemOperand& s, int step_mn, int step_k, Span span) {
    std::vector<std::pair<std::uint32_t, std::pair<int, int>>> blocks;
    for (int m = 0; m < s.mn; m += step_mn)
        for (int kk = 0; kk < s.k; kk += step_k) blocks.push_back({s.linear(m, kk), {m, kk}});
    std::sort(blocks.begin(), blocks.end());
    size_t reach = 0;  // the block reaching furthest so far
    for (size_t i = 1; i < blocks.size(); ++i) {
        const auto end = [&](size_t b) { return blocks[b].first + static_cast<std::uint32_t>(span(blocks[b].second.second)); };
        if (end(i - 1) > end(reach)) reach = i - 1;
        if (blocks[i].first < end(reach))
            return BlockOverlap{blocks[reach].first, blocks[i].first, blocks[reach].second, blocks[i].second};
    }
    return std::nullopt;
}

// "B[0][64]": the element at (mn, k) of operand op.
std::string smem_element_name(Operand op, std::pair<int, int> at) {
    const int row = op == Operand::A ? at.first : at.second, col = op == Operand::A ? at.second : at.first;
    return std::string(operand_name(op)) + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

// The operand's extents and types as shared memory holds them (one CTA's half under cta_group::2,
// sparse A's compressed K), with notes on those and on the padded sub-byte types; refuses an operand
// that is not read from shared memory.
SmemOperand smem_extents(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    if (!in_shared_memory(ins, op, mods))
        throw Error("operand " + std::string(operand_name(op)) + " of " + ins.mnemonic +
                    " is not read from shared memory" +
                    (ins.kind == LayoutKind::Wgmma && op == Operand::A
                         ? " (A from registers; the SS form reads A through a descriptor: --memory smem on operand A)"
                         : ""));
    SmemOperand s;
    s.operand = op;
    const bool tc = is_tcgen05(ins);
    const int halves = tc && ins.cta_group == 2 ? 2 : 1;
    if (op == Operand::A) {
        s.mn = tc ? ins.m / halves : 64;
        s.k = tc && ins.tcgen05_sparse ? ins.k / 2 : ins.k;
        s.type = ins.a;
        s.rows = s.mn;
        s.cols = s.k;
    } else {
        s.mn = ins.n / halves;
        s.k = ins.k;
        s.type = ins.b;
        s.rows = s.k;
        s.cols = s.mn;
    }
    if (halves == 2)
        s.notes.push_back("cta_group::2: this is one CTA's half (" + std::string(op == Operand::A ? "M" : "N") + "/2 = " +
                          num(s.mn) + "); the peer CTA holds the other half at the same shared-memory offsets");
    if (tc && ins.tcgen05_sparse && op == Operand::A)
        s.notes.push_back("sparse A: shared memory holds the compressed K/2 = " + num(s.k) + " values per row");
    if (padded_sub_byte(ins, s.type)) {
        const int e = elem_bits(s.type);
        s.notes.push_back(std::string(detail::ptx_type_name(s.type)) + " under kind::" + ins.mma_kind + ": the 8-bit tile (16 slots per "
                          "16-byte chunk), each chunk's 16 values packed from its first bit (slot i at bits " + num(e) +
                          "*i.." + num(e) + "*i+" + num(e - 1) + "), then " + num(16 - 2 * e) + " bytes of padding (PTX ISA "
                          "§9.7.16.10.4.4, §9.7.16.9.1; CUTLASS TMA 16U" + num(e) + "_ALIGN16B; Triton fp4Padded)");
    }
    s.element_bits = elem_bits(s.type);
    s.slot_bits = smem_slot_bits(ins, s.type);
    return s;
}

// Refuses --major MN where the instruction has no MN-major form for the type (`bits`: the tile's slot,
// `vbits`: the value).
void check_major(SmemMajor major, bool tc, int bits, int vbits, const std::string& who, const std::string& tname) {
    if (major != SmemMajor::MN) return;
    if (!tc && bits != 16)
        throw Error("--major MN is not legal for " + who + ": wgmma's transpose (imm-trans-a/b) exists only for "
                    "16-bit types (f16, bf16), not " + tname + " (PTX ISA §9.7.15.5.1.2); legal: --major K");
    if (tc && vbits < 8)
        throw Error("--major MN is not legal for " + who + ": " + num(vbits) + "-bit " + tname +
                    " A/B are K-major only (PTX ISA §9.7.16.10.6, Table 54: MN-major is for 8- and 16-bit "
                    "values, and 32-bit with 128B_base32B; CUTLASS UMMA::InstrDescriptor: MN-major only for "
                    "E4M3, E5M2, INT8, F16, BF16, TF32); legal: --major K");
}

// The swizzle: --swizzle, else the default (128B: CUTLASS's atom for any tile whose K (K-major) or MN
// (MN-major) extent spans 128 bytes; tcgen05 MN-major 32-bit: 128B_base32B, its only legal mode);
// refuses one the instruction, the major or the type does not take.
SmemSwizzle swizzle_of(const ResolvedModifiers& mods, bool tc, SmemMajor major, int bits, const std::string& who) {
    SmemSwizzle sw = SmemSwizzle::B128;
    if (tc && major == SmemMajor::MN && bits == 32) sw = SmemSwizzle::B128Base32;
    if (mods.swizzle >= 0) sw = static_cast<SmemSwizzle>(mods.swizzle);
    if (sw == SmemSwizzle::B128Base32 && !tc)
        throw Error("--swizzle 128B_base32B is not legal for " + who + ": it is tcgen05's (128B with 32-byte "
                    "atomicity); legal for wgmma: none, 32B, 64B, 128B");
    if (tc && major == SmemMajor::MN && bits == 32 && sw != SmemSwizzle::B128Base32)
        throw Error("--swizzle " + std::string(smem_swizzle_name(sw)) + " is not legal for " + who +
                    ": MN-major 32-bit operands take only 128B_base32B (PTX tcgen05 §9.7.16.10.6); legal: --swizzle "
                    "128B_base32B, or --major K");
    if (tc && major == SmemMajor::MN && bits != 32 && sw == SmemSwizzle::B128Base32)
        throw Error("--swizzle 128B_base32B is not legal for " + who + ": with MN-major it is for 32-bit types only "
                    "(PTX tcgen05 §9.7.16.10.6); legal: none, 32B, 64B, 128B");
    if (tc && major == SmemMajor::K && sw == SmemSwizzle::B128Base32)
        throw Error("--swizzle 128B_base32B is not legal for " + who + " with --major K: CUTLASS's make_umma_desc "
                    "static_asserts K-major 128B_base32B invalid, and PTX ISA §9.7.16.10.6 lists no K-major atom for it "
                    "(Table 55) although its Table 54 allows the combination; lanescope sides with Table 55 and CUTLASS; "
                    "legal: none, 32B, 64B, 128B (128B_base32B with --major MN for 32-bit types)");
    return sw;
}

// CUTLASS's LBO and SBO for tile_to_shape(atom, (MN, K)), atoms repeated along MN first
// (make_gmma_desc / make_umma_desc).
std::pair<long long, long long> cutlass_offsets(const SmemOperand& s, SmemSwizzle sw, long long mn_bytes) {
    const int W = swizzle_span(sw);
    long long lbo = 0, sbo = 0;
    if (s.major == SmemMajor::K) {
        if (W == 0) {
            sbo = 128;
            lbo = static_cast<long long>(ceil_div(s.mn, 8)) * 128;
        } else {
            sbo = 8LL * W;
            lbo = 16;
        }
    } else {
        if (W == 0) {
            sbo = 128;
            lbo = static_cast<long long>(ceil_div(mn_bytes, 16)) * 128;
        } else if (sw == SmemSwizzle::B128Base32) {
            lbo = 512;
            sbo = static_cast<long long>(ceil_div(mn_bytes, 128)) * 512;
        } else {
            lbo = 8LL * W;
            sbo = static_cast<long long>(ceil_div(mn_bytes, W)) * 8 * W;
        }
    }
    return {lbo, sbo};
}

// The descriptor's fields and value; from a given tcgen05 descriptor also its LBO mode (refused where
// it does not apply), with notes on that mode and on reserved bits set.
void set_descriptor(SmemOperand& s, DescriptorFormat fmt, SmemSwizzle sw, long long lbo, long long sbo, bool tc,
                    const ResolvedModifiers& mods) {
    const int W = swizzle_span(sw);
    const bool from_descriptor = mods.descriptor.has_value();
    s.desc.format = fmt;
    s.desc.swizzle = sw;
    s.desc.lbo = static_cast<std::uint32_t>(lbo);
    s.desc.sbo = static_cast<std::uint32_t>(sbo);
    s.desc.start = static_cast<std::uint32_t>(mods.smem_address >= 0 ? mods.smem_address : 0);
    s.desc.base_offset = mods.base_offset >= 0 ? mods.base_offset : 0;
    if (from_descriptor && tc) {
        const SmemDescriptor d = decode_descriptor(*mods.descriptor, fmt);
        s.desc.lbo_mode = d.lbo_mode;
        if (d.lbo_mode == 1 && (s.major != SmemMajor::K || W == 0))
            throw Error("--descriptor " + hex64(*mods.descriptor) + ": bit 52 = 1 (LBO an absolute address) is for "
                        "swizzled K-major operands (CUTLASS's SM103 K = 96 path: K-major 128B), not " +
                        std::string(smem_major_name(s.major)) + "-major " + std::string(smem_swizzle_name(sw)) +
                        "; legal: bit 52 = 0, or --major K with a swizzle");
        if (d.lbo_mode == 1)
            s.notes.push_back("bit 52 = 1: LBO (" + num(lbo) + ") is the absolute address where K continues past the "
                              "start's " + num(W) + "-byte swizzle row (CUTLASS SM103 mma_unpack sets lbo_mode 1 with LBO "
                              "the next K chunk's start address); low confidence: PTX shows this mode in figures only, "
                              "and it is not confirmed on hardware");
        // Bits 14-15 and 30-31: PTX reserves them (they must be 0); what a GPU does with them set is not measured.
        for (const DescriptorField& f : descriptor_fields(*mods.descriptor, fmt))
            if (f.name == "reserved" && f.bits != 0)
                s.notes.push_back("bits " + num(f.lo) + "-" + num(f.hi) + " are " + num(static_cast<long long>(f.bits)) +
                                  ": reserved (must be 0 per PTX's tcgen05 shared memory descriptor; effect not measured "
                                  "on hardware): the layout shown reads the descriptor as if they were 0");
    }
    s.value = from_descriptor ? *mods.descriptor : encode_descriptor(s.desc);
}

// Which of LBO, SBO and the base offset the hardware reads for this operand, with notes on those it
// ignores and on the CUTLASS values taken where none is given.
void note_field_use(SmemOperand& s, SmemSwizzle sw, long long mn_bytes, long long k_bytes, long long lbo, long long sbo,
                    bool tc, const std::string& tname, const ResolvedModifiers& mods) {
    const int W = swizzle_span(sw);
    const bool swz = W > 0;
    if (s.major == SmemMajor::K) {
        s.lbo_used = (!swz && k_bytes > 16) || (s.desc.lbo_mode == 1 && s.desc.start % W + k_bytes > W);
        s.sbo_used = s.mn > 8;
    } else {
        const long long atom_bytes = swz ? (sw == SmemSwizzle::B128Base32 ? 128 : W) : 16;
        s.lbo_used = swz ? mn_bytes > atom_bytes : s.k > 8;
        s.sbo_used = swz ? s.k > (sw == SmemSwizzle::B128Base32 ? 4 : 8) : mn_bytes > 16;
    }
    s.base_offset_used = swz;
    const bool from_descriptor = mods.descriptor.has_value();
    const bool lbo_given = mods.lbo >= 0, sbo_given = mods.sbo >= 0;
    if (!s.lbo_used) {
        std::string why = s.major == SmemMajor::K && swz
                              ? "a swizzled K-major operand's K (" + num(k_bytes) + " bytes) lies inside one " + num(W) +
                                    "-byte swizzle row (PTX: 'not used, assumed 1'; H200: any value reads the same)"
                              : s.major == SmemMajor::K ? "K (" + num(k_bytes) + " bytes) fits in one core matrix"
                              : swz ? "MN (" + num(mn_bytes) + " bytes) fits in one swizzle atom"
                                    : "K (" + num(s.k) + ") fits in one 8-row group";
        s.notes.push_back("LBO is ignored here: " + why + (lbo_given || from_descriptor ? "; the given " + num(lbo) +
                                                                                               " changes nothing"
                                                                                         : ""));
    }
    if (!s.sbo_used)
        s.notes.push_back("SBO is ignored here: the operand has one " +
                          std::string(s.major == SmemMajor::K ? "8-row group along MN"
                                      : swz ? "8-row group along K" : "16-byte group along MN") +
                          (sbo_given || from_descriptor ? "; the given " + num(sbo) + " changes nothing" : ""));
    if (!swz && s.desc.base_offset != 0)
        s.notes.push_back("the base offset is ignored here: it has no effect without a swizzle");
    if (!lbo_given && !sbo_given && !from_descriptor)
        s.notes.push_back("LBO " + num(lbo) + ", SBO " + num(sbo) + ": CUTLASS's " +
                          (tc ? "make_umma_desc" : "make_gmma_desc") + " values for a " + num(s.mn) + " x " + num(s.k) +
                          " " + tname + " tile, " + std::string(smem_major_name(s.major)) + "-major, " +
                          std::string(smem_swizzle_name(sw)));
}

// Refuses a descriptor field that is not a 16-byte unit of the descriptor's 18-bit byte value.
void check_field(const char* flag, long long v, const std::string& who) {
    if (v % 16 != 0 || v < 0 || v >= kWindow)
        throw Error(std::string(flag) + " " + num(v) + " is not legal for " + who + ": descriptor fields are "
                    "16-byte units of an 18-bit byte value; legal: a multiple of 16 in 0.." + num(kWindow - 16));
}

// No swizzle: every core matrix is 128 contiguous bytes (8 rows x 16 bytes, PTX's canonical layouts);
// LBO and SBO place them, and refused are two placed on the same bytes (they would hold different
// elements there).
void check_unswizzled(const SmemOperand& s, long long mn_bytes, long long lbo, long long sbo, const std::string& who) {
    const int bits = s.slot_bits;
    const bool kmaj = s.major == SmemMajor::K;
    const int step_mn = kmaj ? 8 : std::max(1, 128 / bits), step_k = kmaj ? std::max(1, 128 / bits) : 8;
    if (const auto o = overlapping_blocks(s, step_mn, step_k, [](int) { return 128; }))
        throw Error("--lbo " + num(lbo) + " with --sbo " + num(sbo) + " is not legal for " + who +
                    " without a swizzle: each core matrix is 128 contiguous bytes (8 rows x 16 bytes), and the "
                    "core matrices starting at " + smem_element_name(s.operand, o->first) + " (byte " +
                    num(o->first_at) + ") and " + smem_element_name(s.operand, o->second) + " (byte " + num(o->second_at) +
                    ") overlap; legal: LBO and SBO that keep core matrices 128 bytes apart, e.g. CUTLASS's LBO " +
                    num(s.major == SmemMajor::K ? static_cast<long long>(ceil_div(s.mn, 8)) * 128
                                                : static_cast<long long>(ceil_div(mn_bytes, 16)) * 128) +
                    ", SBO 128");
}

// Swizzled K-major: every 8-row group's K slice must lie inside one W-byte swizzle row, and the groups
// must not overlap (a group is one swizzle period: 8 rows of W bytes); refuses an SBO or start that
// breaks either.
void check_swizzled_k(const SmemOperand& s, int W, long long k_bytes, long long sbo, const std::string& who) {
    const int groups = ceil_div(s.mn, 8);
    if (groups > 1 && sbo < 8LL * W)
        throw Error("--sbo " + num(sbo) + " is not legal for " + who + " with the " + num(W) +
                    "B swizzle: an 8-row group is one swizzle period (8 rows x " + num(W) + " bytes = " +
                    num(8 * W) + "); a smaller SBO puts the next group inside it; legal: SBO >= " + num(8 * W));
    for (int g = 0; g < groups; ++g) {
        const long long at = (s.desc.start + g * sbo) % W;
        // Absolute LBO: K may run on into the chunk at LBO, but no further than one more row.
        if (at + k_bytes > (s.desc.lbo_mode == 1 ? 2 * W : W))
            throw Error(std::string(g == 0 ? "--smem-address " + num(s.desc.start)
                                           : "--sbo " + num(sbo) + " (8-row group " + num(g) + ")") +
                        " is not legal for " + who + ": the " + num(k_bytes) + "-byte K slice starts " + num(at) +
                        " bytes into a " + num(W) + "-byte swizzle row and would leave it (misaligned swizzle "
                        "atom); legal: start + g*SBO = 0.." + num(W - k_bytes) + " (mod " + num(W) + ")");
    }
}

// Swizzled MN-major: refuses a start inside an atom's row, an LBO or SBO off the atoms' grid, and atoms
// along MN (LBO apart) and K groups (SBO apart) that land on each other's bytes.
void check_swizzled_mn(const SmemOperand& s, SmemSwizzle sw, long long mn_bytes, long long lbo, long long sbo,
                       const std::string& who) {
    const int W = swizzle_span(sw), bits = s.slot_bits;
    const long long atom_w = sw == SmemSwizzle::B128Base32 ? 128 : W;
    const long long atom_rows = sw == SmemSwizzle::B128Base32 ? 4 : 8;
    if (s.desc.start % atom_w != 0)
        throw Error("--smem-address " + num(s.desc.start) + " is not legal for " + who + " (MN-major, " +
                    std::string(smem_swizzle_name(sw)) + "): each K row of a swizzle atom is " + num(atom_w) +
                    " bytes of MN; a start inside it moves elements into the next row (misaligned swizzle "
                    "atom); legal: a multiple of " + num(atom_w));
    const int mn_atoms = ceil_div(mn_bytes, atom_w), k_groups = ceil_div(s.k, static_cast<int>(atom_rows));
    if (mn_atoms > 1 && (lbo % atom_w != 0 || lbo < atom_w * atom_rows))
        throw Error("--lbo " + num(lbo) + " is not legal for " + who + ": MN-major swizzled LBO is the distance "
                    "between swizzle atoms along MN (" + num(atom_rows) + " rows x " + num(atom_w) + " bytes); "
                    "legal: a multiple of " + num(atom_w) + ", at least " + num(atom_w * atom_rows));
    if (k_groups > 1 && (sbo % atom_w != 0 || sbo < atom_w * atom_rows))
        throw Error("--sbo " + num(sbo) + " is not legal for " + who + ": MN-major swizzled SBO is the distance "
                    "between " + num(atom_rows) + "-row groups along K, each one swizzle period (" +
                    num(atom_rows) + " rows x " + num(atom_w) + " bytes); legal: a multiple of " + num(atom_w) +
                    ", at least " + num(atom_w * atom_rows));
    const int atom_mn = static_cast<int>(atom_w * 8 / std::max(1, bits)), rows = static_cast<int>(atom_rows);
    const auto span = [&](int kk) { return static_cast<long long>(std::min(rows, s.k - kk)) * atom_w; };
    if (const auto o = overlapping_blocks(s, atom_mn, rows, span))
        throw Error("--lbo " + num(lbo) + " with --sbo " + num(sbo) + " is not legal for " + who + " (MN-major, " +
                    std::string(smem_swizzle_name(sw)) + "): each swizzle atom is " + num(atom_rows) +
                    " rows x " + num(atom_w) + " bytes, and the atoms starting at " +
                    smem_element_name(s.operand, o->first) + " (byte " + num(o->first_at) + ") and " +
                    smem_element_name(s.operand, o->second) + " (byte " + num(o->second_at) +
                    ") overlap, so two elements would share bytes; legal: LBO and SBO that keep atoms " +
                    num(atom_w * atom_rows) + " bytes apart (CUTLASS's values: leave --lbo and --sbo out)");
}

// Refuses an operand that reaches past the descriptor's 18-bit address window.
void check_window(const SmemOperand& s, const std::string& who) {
    const int bits = s.slot_bits;
    std::uint32_t top = 0;
    for (int m = 0; m < s.mn; m += std::max(1, s.mn - 1))
        for (int kk = 0; kk < s.k; kk += std::max(1, s.k - 1))
            top = std::max(top, s.desc.start + s.linear(m, kk) + static_cast<std::uint32_t>(std::max(1, bits / 8)));
    if (top > kWindow)
        throw Error(who + " reaches byte " + num(top) + ": the descriptor addresses 18 bits (0.." + num(kWindow - 1) +
                    "); legal: a smaller --smem-address, --lbo or --sbo");
}

// The byte formula in words, with the descriptor's start, LBO, SBO, base offset and value.
std::string formula_of(const SmemOperand& s, SmemSwizzle sw, long long lbo, long long sbo) {
    const int bits = s.slot_bits, vbits = s.element_bits, W = swizzle_span(sw);
    const bool swz = W > 0;
    const std::string T = num(128 / bits), e = bits >= 8 ? num(bits / 8) : "1/" + num(8 / bits);
    // The padded sub-byte types: the formula is the 8-bit slot's, the value at bits (slot%16)*e of its chunk.
    const std::string packing = s.padded() ? "; the value of slot s (the byte the formula gives) lies at bit " +
                                                 num(vbits) + "*(s%16) of its 16-byte chunk, from the chunk's first byte"
                                           : "";
    const std::string mnv = s.operand == Operand::A ? "m" : "n";
    const std::string Ws = num(W);
    std::string lin;
    if (s.major == SmemMajor::K)
        lin = swz ? "(" + mnv + "%8)*" + Ws + " + (" + mnv + "/8)*SBO + k*" + e
                  : "(" + mnv + "%8)*16 + (" + mnv + "/8)*SBO + (k%" + T + ")*" + e + " + (k/" + T + ")*LBO";
    else if (!swz)
        lin = "(" + mnv + "%" + T + ")*" + e + " + (" + mnv + "/" + T + ")*SBO + (k%8)*16 + (k/8)*LBO";
    else if (sw == SmemSwizzle::B128Base32)
        lin = "(" + mnv + "%" + num(1024 / bits) + ")*" + e + " + (" + mnv + "/" + num(1024 / bits) +
              ")*LBO + (k%4)*128 + (k/4)*SBO";
    else
        lin = "(" + mnv + "%" + num(8 * W / bits) + ")*" + e + " + (" + mnv + "/" + num(8 * W / bits) + ")*LBO + (k%8)*" +
              Ws + " + (k/8)*SBO";
    const std::string xr = sw == SmemSwizzle::B128Base32 ? "32-byte unit (bits 5-6)" : "16-byte chunk (bits 4-" +
                                                                                             num(3 + (W == 32 ? 1 : W == 64 ? 2 : 3)) + ")";
    return std::string(smem_major_name(s.major)) + "-major, swizzle " + std::string(smem_swizzle_name(sw)) +
           ": address = " + (swz ? "swz(" : "") + "start + " + lin + (swz ? ")" : "") + "; start = " +
           num(s.desc.start) + ", LBO = " + num(lbo) + ", SBO = " + num(sbo) +
           (swz ? "; swz: " + xr + " ^= ((address >> 7) - base_offset) mod " + num(pattern_rows(sw)) +
                      " on the absolute address, base_offset = " + num(s.desc.base_offset)
                : "") +
           packing + ". Descriptor " + hex64(s.value) + ".";
}

SmemOperand smem_operand_uncached(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    SmemOperand s = smem_extents(ins, op, mods);
    const bool tc = is_tcgen05(ins);
    const DescriptorFormat fmt = format_of(ins);
    const int bits = s.slot_bits;         // the tile's geometry (the padded sub-byte types: 8)
    const int vbits = s.element_bits;     // the value
    const std::string tname(detail::ptx_type_name(s.type));  // PTX's names: e3m2, e2m3, e2m1
    const std::string who = std::string(descriptor_format_name(fmt)) + " operand " + std::string(operand_name(op)) +
                            " (" + ins.mnemonic + ")";

    s.major = mods.smem_major == 1 ? SmemMajor::MN : SmemMajor::K;
    check_major(s.major, tc, bits, vbits, who, tname);
    const SmemSwizzle sw = swizzle_of(mods, tc, s.major, bits, who);
    const int W = swizzle_span(sw);
    const long long mn_bytes = static_cast<long long>(s.mn) * bits / 8;
    const long long k_bytes = static_cast<long long>(s.k) * bits / 8;
    auto [lbo, sbo] = cutlass_offsets(s, sw, mn_bytes);
    if (mods.lbo >= 0) lbo = mods.lbo;
    if (mods.sbo >= 0) sbo = mods.sbo;
    set_descriptor(s, fmt, sw, lbo, sbo, tc, mods);
    // What the hardware reads of the fields.
    note_field_use(s, sw, mn_bytes, k_bytes, lbo, sbo, tc, tname, mods);

    // Refusals: what the hardware does not allow.
    check_field("--smem-address", s.desc.start, who);
    // A given field is encoded even where it is ignored.
    if (s.lbo_used || mods.lbo >= 0) check_field("--lbo", lbo, who);
    if (s.sbo_used || mods.sbo >= 0) check_field("--sbo", sbo, who);
    if (W == 0) check_unswizzled(s, mn_bytes, lbo, sbo, who);
    else if (s.major == SmemMajor::K) check_swizzled_k(s, W, k_bytes, sbo, who);
    else check_swizzled_mn(s, sw, mn_bytes, lbo, sbo, who);
    // The operand stays inside the descriptor's address window.
    check_window(s, who);

    s.formula = formula_of(s, sw, lbo, sbo);
    return s;
}
}  // namespace

// ------------------------------------------------------------- modifiers ---

namespace detail {

void resolve_smem_modifiers(const Instruction& ins, const Target& t, const Modifiers& m, ResolvedModifiers& r) {
    struct Given {
        const char* flag;
        int value;
    };
    const Given given[] = {{"--memory smem", m.smem_a},  {"--major", m.smem_major},
                           {"--swizzle", m.swizzle},     {"--lbo", m.lbo},
                           {"--sbo", m.sbo},             {"--smem-address", m.smem_address},
                           {"--base-offset", m.base_offset}};
    const bool has_smem = ins.kind == LayoutKind::Wgmma || ins.kind == LayoutKind::Tcgen05Mma;
    const std::string where = ins.mnemonic + " on " + t.gfx;
    if (!has_smem) {
        for (const Given& g : given)
            if (g.value > 0 || (g.value == 0 && std::string(g.flag) != "--memory smem"))  // smem_a 0 is the default
                throw Error(std::string(g.flag) + " does not apply to " + where + ": only wgmma and tcgen05.mma read "
                            "operands through a shared-memory matrix descriptor; legal: leave " + g.flag + " out");
        if (m.descriptor)
            throw Error("--descriptor does not apply to " + where + ": only wgmma and tcgen05.mma read operands "
                        "through a shared-memory matrix descriptor; legal: leave --descriptor out");
        return;
    }
    if (m.smem_a >= 0) {
        if (m.smem_a > 1) throw Error("smem_a " + num(m.smem_a) + " is not legal; legal: 0 (A in registers), 1 (A in shared memory)");
        if (ins.kind != LayoutKind::Wgmma && m.smem_a == 1 && ins.a_in_tmem)
            throw Error("--memory smem on A does not apply to " + where + ": this form reads A from Tensor Memory");
        if (ins.kind == LayoutKind::Wgmma) r.smem_a = m.smem_a;
    }
    if (m.smem_major > 1) throw Error("--major " + num(m.smem_major) + " is not legal; legal: K (0), MN (1)");
    r.smem_major = m.smem_major;
    if (m.swizzle > 4)
        throw Error("--swizzle " + num(m.swizzle) + " is not legal; legal: none, 32B, 64B, 128B (tcgen05 also 128B_base32B)");
    if (m.base_offset > 7) throw Error("--base-offset " + num(m.base_offset) + " is not legal; legal: 0..7 (descriptor bits 49-51)");
    r.swizzle = m.swizzle;
    r.lbo = m.lbo;
    r.sbo = m.sbo;
    r.smem_address = m.smem_address;
    r.base_offset = m.base_offset;
    if (m.descriptor) {
        for (const Given& g : given)
            if (g.value >= 0 && std::string(g.flag) != "--major" && std::string(g.flag) != "--memory smem")
                throw Error(std::string(g.flag) + " does not go with --descriptor: the descriptor's own fields give the "
                            "swizzle, LBO, SBO, start address and base offset (the major-ness is the instruction's, "
                            "--major)");
        const SmemDescriptor d = decode_descriptor(*m.descriptor, format_of(ins));
        r.descriptor = m.descriptor;
        r.swizzle = static_cast<int>(d.swizzle);
        r.lbo = static_cast<int>(d.lbo);
        r.sbo = static_cast<int>(d.sbo);
        r.smem_address = static_cast<int>(d.start);
        r.base_offset = d.base_offset;
    }
    // The fields' geometry (swizzle atoms, LBO/SBO, the address window) is checked where an operand is
    // laid out (smem_operand), so a refusal names the operand asked about: A and B take the same fields.
}

void smem_modifier_ranges(const Instruction& ins, const ResolvedModifiers& cur, std::vector<ModifierRange>& out) {
    if (ins.kind != LayoutKind::Wgmma && ins.kind != LayoutKind::Tcgen05Mma) return;
    const bool tc = ins.kind == LayoutKind::Tcgen05Mma;
    if (!tc) out.push_back({"smem_a", {0, 1}, "A from registers (0) or shared memory through a descriptor (1, the SS form)", true});
    // The values' bits (A and B share the major-ness): MN-major needs 8-, 16- or 32-bit values on
    // tcgen05, 16-bit on wgmma; 128B_base32B is MN-major 32-bit's only swizzle (K-major: refused, see
    // smem_operand).
    const int bits = elem_bits(ins.b), least = std::min(bits, tc && !ins.a_in_tmem ? elem_bits(ins.a) : bits);
    std::vector<int> majors = {0};
    if ((!tc && bits == 16) || (tc && least >= 8)) majors.push_back(1);
    if (majors.size() > 1)
        out.push_back({"smem_major", majors, "the shared-memory operands' major-ness: 0 K-major, 1 MN-major", true});
    std::vector<int> sw = {0, 1, 2, 3};
    if (tc && cur.smem_major == 1 && bits == 32) sw = {4};
    out.push_back({"swizzle", sw, "the descriptor's swizzle: 0 none, 1 32B, 2 64B, 3 128B" + std::string(tc ? ", 4 128B_base32B" : ""), true});
    out.push_back({"base_offset", {0, 1, 2, 3, 4, 5, 6, 7}, "descriptor bits 49-51: the 128-byte row the swizzle pattern starts at", true});
}

OperandSpec smem_operand_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    const SmemOperand so = smem_operand(ins, op, mods);
    OperandSpec s;
    s.space = Space::SharedMemory;
    s.rows = so.rows;
    s.cols = so.cols;
    s.type = so.type;
    // A value starts at any multiple of gcd(bits, 8) of its line (6-bit values of the padded tile at
    // 8*chunk + 6*i); an item is that many bits.
    s.width = so.element_bits;
    s.stride = so.element_bits % 8 == 0 || 8 % so.element_bits == 0 ? so.element_bits : std::gcd(so.element_bits, 8);
    s.regs = 32;
    // The lines the operand spans: its highest address / 128. linear(m, k) is a sum of a
    // term in m and a term in k (every canonical layout above), and the swizzle moves
    // bits 4-6 only (below a 128-byte line): the highest line is that of
    // start + max_m linear(m, 0) + max_k linear(0, k), found in mn + k steps, not mn x k.
    // (K's absolute addresses: with bit 52's absolute LBO, K may continue below the start.)
    std::uint32_t top_m = 0, top_k = 0;
    for (int m = 0; m < so.mn; ++m) top_m = std::max(top_m, so.linear(m, 0));
    for (int kk = 0; kk < so.k; ++kk) top_k = std::max(top_k, so.desc.start + so.linear(0, kk));
    s.lanes = static_cast<int>((top_k + top_m - so.linear(0, 0)) / 128) + 1;
    s.formula = so.formula;
    const int bits = s.stride;
    s.place = [so, bits](int, int r, int c, std::vector<Slot>& out) {
        const auto [m, kk] = so.mn_k(r, c);
        const std::uint32_t a = so.address(m, kk);
        out.push_back({static_cast<int>(a / 128), static_cast<int>(((a % 128) * 8 + static_cast<std::uint32_t>(so.bit(m, kk))) / static_cast<std::uint32_t>(bits))});
    };
    return s;
}

}  // namespace detail

}  // namespace lanescope

// ------------------------------------------------------------------ TMA ---

namespace lanescope {

void check_tma_box(const TmaBox& b) {
    if (b.inner < 1 || b.inner > 256 || b.outer < 1 || b.outer > 256)
        throw Error("--box " + num(b.inner) + "x" + num(b.outer) + " is not legal: cuTensorMapEncodeTiled takes box "
                    "dimensions 1..256");
    if (b.element_bits != 8 && b.element_bits != 16 && b.element_bits != 32 && b.element_bits != 64)
        throw Error("--element-bits " + num(b.element_bits) + " is not legal; legal: 8, 16, 32, 64");
    const long long inner_bytes = static_cast<long long>(b.inner) * b.element_bits / 8;
    if (inner_bytes % 16 != 0)
        throw Error("--box " + num(b.inner) + "x" + num(b.outer) + ": the inner box is " + num(inner_bytes) +
                    " bytes; cuTensorMapEncodeTiled needs boxDim[0] * element size to be a multiple of 16 bytes");
    const int W = swizzle_span(b.swizzle);
    if (W > 0 && inner_bytes > W)
        throw Error("--box " + num(b.inner) + "x" + num(b.outer) + ": the inner box is " + num(inner_bytes) +
                    " bytes, more than the " + std::string(smem_swizzle_name(b.swizzle)) + " swizzle's span of " +
                    num(W) + " bytes (cuTensorMapEncodeTiled: boxDim[0] * element size <= the swizzle span); legal: "
                    "an inner box of at most " + num(W * 8 / b.element_bits) + " elements");
    if (b.smem_address % 128 != 0)
        throw Error("--smem-address " + num(b.smem_address) + " is not legal for a TMA destination: shared memory "
                    "for cp.async.bulk.tensor must be 128-byte aligned (CUDA C++ Programming Guide, TMA swizzle); "
                    "legal: a multiple of 128");
    const long long end = b.smem_address + static_cast<long long>(tma_pitch(b)) * b.outer;
    if (end > kWindow)
        throw Error("the box ends at byte " + num(end) + ", beyond shared memory's 18-bit window (" + num(kWindow) +
                    "); legal: a smaller box or --smem-address");
}

int tma_pitch(const TmaBox& b) {
    const int inner_bytes = b.inner * b.element_bits / 8;
    return std::max(inner_bytes, swizzle_span(b.swizzle));
}

std::vector<TmaEntry> tma_entries(const TmaBox& b) {
    check_tma_box(b);
    const std::uint32_t pitch = static_cast<std::uint32_t>(tma_pitch(b));
    std::vector<TmaEntry> out;
    out.reserve(static_cast<size_t>(b.inner) * static_cast<size_t>(b.outer));
    for (int r = 0; r < b.outer; ++r)
        for (int c = 0; c < b.inner; ++c) {
            const std::uint32_t lin = b.smem_address + static_cast<std::uint32_t>(r) * pitch +
                                      static_cast<std::uint32_t>(c * b.element_bits / 8);
            out.push_back({r, c, smem_swizzle(lin, b.swizzle, 0)});
        }
    return out;
}

std::vector<SmemChunk> smem_chunks(const SmemOperand& so) {
    std::map<std::uint32_t, SmemChunk> by_chunk;  // address / 16
    for (int r = 0; r < so.rows; ++r)
        for (int c = 0; c < so.cols; ++c) {
            const auto [mn, k] = so.mn_k(r, c);
            const std::uint32_t a = so.address(mn, k);
            SmemChunk& ch = by_chunk[a / 16];
            if (ch.elements.empty()) {
                ch.address = a / 16 * 16;
                ch.core = so.core_matrix(mn, k);
                ch.before = static_cast<int>(((so.desc.start + so.linear(mn, k)) / 16) % 8);
            }
            ch.elements.push_back({r, c});
        }
    std::vector<SmemChunk> out;
    out.reserve(by_chunk.size());
    for (auto& [n, ch] : by_chunk) out.push_back(std::move(ch));
    return out;
}

std::string_view smem_model_confirmation(DescriptorFormat f) {
    return f == DescriptorFormat::Tcgen05
               ? "Modelled from the PTX ISA (tcgen05 shared memory descriptor) and CUTLASS (UMMA::SmemDescriptor); not "
                 "confirmed on hardware: no Blackwell GPU has been measured."
               : "Modelled from the PTX ISA (wgmma matrix descriptor) and CUTLASS (GmmaDescriptor); confirmed element by "
                 "element on an H200 (docs/verification/2026-12-02-h200-smem-live.md).";
}

}  // namespace lanescope
