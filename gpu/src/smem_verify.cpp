// verify --device cuda --smem: the hardware reports where it reads or writes each element of a
// shared-memory operand, and lanescope's claims (core: smem_operand, tma_entries) are compared
// with it element by element.
//
// wgmma (PTX ISA §9.7.15.5.1.2 "Shared Memory Matrix Layout", §9.7.15.5.2 wgmma.mma_async): a
// 36 KB shared buffer whose halfword h holds the f16 with bits 0x3C00 + h (distinct, normal and
// exact through f32 accumulation).
//   B: A = [I16; 0] in registers (placed by core's register layout of A), so D[k][n] = B[k][n]
//      names the halfword the hardware read as B[k][n].
//   A (the SS form): B = [I16 | 0] in shared memory behind its own descriptor (K-major, no
//      swizzle, outside the tagged part), so D[m][k] = A[m][k].
// D is read back through core's register layout of D (itself confirmed by `verify` on the H200).
//
// TMA (PTX ISA §9.7.9.27 cp.async.bulk.tensor, §9.7.13.15 mbarrier; the CUDA driver API's
// cuTensorMapEncodeTiled): a global tensor of tags (row * width + col) copied by one tiled 2-D
// cp.async.bulk.tensor into a window prefilled with all-ones; every changed element names the
// global element that landed there.
#include "lanescope/gpu.hpp"
#include "lanescope/smem.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

namespace lanescope::gpu {

namespace {

constexpr int kTagBytes = 32768;        // the tagged part of the wgmma buffer (16384 halfwords)
constexpr int kIdentityBytes = 4096;    // SS form: B's identity image after it
constexpr int kTmaBytes = 32768;
constexpr int kOutD = 16;               // wgmma out: word 0 the buffer address, D from word 16
constexpr std::uint32_t kNoClaim = 0xFFFFFFFFu;
const char* kTarget = "sm_90a";


const Catalog& cat() { return Catalog::builtin(); }
const Target& sm90() { return cat().find_target(kTarget); }

// The f16 bits of a float that is exactly an f16 normal number (the tags); -1 otherwise.
int f16_bits(float v) {
    if (!(v >= 1.0f) || v > 65504.0f) return -1;
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    const int e = static_cast<int>((u >> 23) & 0xFF) - 127 + 15;
    if ((u & 0x1FFF) != 0 || e < 1 || e > 30) return -1;
    return (e << 10) | static_cast<int>((u >> 13) & 0x3FF);
}

struct Resolved {
    const Instruction* ins = nullptr;
    ResolvedModifiers mods;
    SmemOperand op;
    std::uint64_t value = 0;
};

Modifiers with_start(const SmemCase& c, std::uint32_t base) {
    Modifiers m = c.mods;
    m.smem_address = static_cast<int>(base) + std::max(0, c.mods.smem_address);
    if (c.kind == SmemCase::WgmmaA) m.smem_a = 1;
    return m;
}

Resolved resolve_case(const SmemCase& c, std::uint32_t base) {
    Resolved r;
    r.ins = &cat().find_instruction(sm90(), c.instruction);
    const Operand which = c.kind == SmemCase::WgmmaA ? Operand::A : Operand::B;
    Modifiers m = with_start(c, base);
    r.mods = resolve_modifiers(*r.ins, sm90(), m);
    r.op = smem_operand(*r.ins, which, r.mods);
    r.value = r.op.value;
    if (c.raw_bits) {
        // A raw descriptor: core's value with bits the hardware ignores set, decoded by core again.
        Modifiers raw;
        raw.smem_major = c.mods.smem_major;
        if (c.kind == SmemCase::WgmmaA) raw.smem_a = 1;
        raw.descriptor = r.op.value | c.raw_bits;
        r.mods = resolve_modifiers(*r.ins, sm90(), raw);
        r.op = smem_operand(*r.ins, which, r.mods);
        r.value = *raw.descriptor;
    }
    return r;
}

std::uint32_t corrupt_address(const SmemOperand& op, int mn, int k, SmemCorruption how) {
    const std::uint32_t start = op.desc.start, lin = op.linear(mn, k);
    const int bo = op.desc.base_offset;
    switch (how) {
        case SmemCorruption::NoSwizzle: return start + lin;
        case SmemCorruption::BaseOffsetAdded: return smem_swizzle(start + lin, op.desc.swizzle, (8 - bo) % 8);
        case SmemCorruption::StartAnchored: return start + smem_swizzle(lin, op.desc.swizzle, bo);
        default: return op.address(mn, k);
    }
}

}  // namespace

// ------------------------------------------------------------- the cases ---

std::vector<SmemCase> smem_cases() {
    std::vector<SmemCase> out;
    auto sw = [](const char* s) { return static_cast<int>(*parse_smem_swizzle(s)); };
    auto wg = [&](SmemCase::Kind kind, const char* ins, std::string name, int major, const char* swz, int lbo = -1,
                  int sbo = -1, int start = -1, int bo = -1, std::uint64_t raw = 0) {
        SmemCase c;
        c.kind = kind;
        c.name = std::move(name);
        c.instruction = ins;
        c.mods.smem_major = major;
        c.mods.swizzle = sw(swz);
        c.mods.lbo = lbo;
        c.mods.sbo = sbo;
        c.mods.smem_address = start;
        c.mods.base_offset = bo;
        c.raw_bits = raw;
        out.push_back(c);
    };
    const char* n64 = "wgmma_m64n64k16_f32_f16";
    const char* n128 = "wgmma_m64n128k16_f32_f16";
    const auto B = SmemCase::WgmmaB, A = SmemCase::WgmmaA;
    const int K = 0, MN = 1;
    // B, N = 64: every swizzle, both major-nesses, CUTLASS's values and others.
    wg(B, n64, "B K none, CUTLASS", K, "none");
    wg(B, n64, "B K none, LBO 2048 SBO 256", K, "none", 2048, 256);
    wg(B, n64, "B K none, start 16", K, "none", -1, -1, 16);
    wg(B, n64, "B K none, base offset 5 (no effect)", K, "none", -1, -1, -1, 5);
    wg(B, n64, "B K 32B, CUTLASS", K, "32B");
    wg(B, n64, "B K 32B, start 128", K, "32B", -1, -1, 128);
    wg(B, n64, "B K 32B, base offset 3", K, "32B", -1, -1, -1, 3);
    wg(B, n64, "B K 64B, CUTLASS", K, "64B");
    wg(B, n64, "B K 64B, start 32", K, "64B", -1, -1, 32);
    wg(B, n64, "B K 64B, start 256", K, "64B", -1, -1, 256);
    wg(B, n64, "B K 64B, base offset 5", K, "64B", -1, -1, -1, 5);
    wg(B, n64, "B K 128B, CUTLASS", K, "128B");
    wg(B, n64, "B K 128B, start 32", K, "128B", -1, -1, 32);
    wg(B, n64, "B K 128B, start 96", K, "128B", -1, -1, 96);
    wg(B, n64, "B K 128B, start 512", K, "128B", -1, -1, 512);
    wg(B, n64, "B K 128B, start 1664", K, "128B", -1, -1, 1664);
    for (int bo : {1, 3, 7}) wg(B, n64, "B K 128B, base offset " + num(bo), K, "128B", -1, -1, -1, bo);
    wg(B, n64, "B K 128B, start 512 base offset 4", K, "128B", -1, -1, 512, 4);
    wg(B, n64, "B K 128B, SBO 1536", K, "128B", -1, 1536);
    wg(B, n64, "B K 128B, LBO 8192 (ignored)", K, "128B", 8192);
    wg(B, n64, "B MN none, CUTLASS", MN, "none");
    wg(B, n64, "B MN none, LBO 2048 SBO 256", MN, "none", 2048, 256);
    wg(B, n64, "B MN 32B, CUTLASS", MN, "32B");
    wg(B, n64, "B MN 32B, start 512", MN, "32B", -1, -1, 512);
    wg(B, n64, "B MN 32B, base offset 1", MN, "32B", -1, -1, -1, 1);
    wg(B, n64, "B MN 64B, CUTLASS", MN, "64B");
    wg(B, n64, "B MN 64B, SBO 2048", MN, "64B", -1, 2048);
    wg(B, n64, "B MN 64B, LBO 2048", MN, "64B", 2048);
    wg(B, n64, "B MN 64B, base offset 6", MN, "64B", -1, -1, -1, 6);
    wg(B, n64, "B MN 128B, CUTLASS", MN, "128B");
    wg(B, n64, "B MN 128B, base offset 2", MN, "128B", -1, -1, -1, 2);
    wg(B, n64, "B MN 128B, start 1024 LBO 8192 (ignored)", MN, "128B", 8192, -1, 1024);
    // B, N = 128: two 128B atoms along N (MN-major: LBO between them), eight 8-row groups (K-major: SBO).
    wg(B, n128, "B(N128) K 128B, CUTLASS", K, "128B");
    wg(B, n128, "B(N128) K 64B, SBO 1024", K, "64B", -1, 1024);
    wg(B, n128, "B(N128) MN 128B, CUTLASS", MN, "128B");
    wg(B, n128, "B(N128) MN 128B, LBO 4096 SBO 1024", MN, "128B", 4096, 1024);
    wg(B, n128, "B(N128) MN 64B, start 384 base offset 3", MN, "64B", -1, -1, 384, 3);
    // Raw descriptors: core's value with bits the hardware ignores set (14, 30, 46, 52, 61).
    const std::uint64_t junk = (1ull << 14) | (1ull << 30) | (1ull << 46) | (1ull << 52) | (1ull << 61);
    wg(B, n64, "B raw K 128B + bits 14,30,46,52,61", K, "128B", -1, -1, -1, -1, junk);
    wg(B, n64, "B raw MN 64B + bits 52,61", MN, "64B", -1, -1, -1, -1, (1ull << 52) | (1ull << 61));
    wg(B, n64, "B raw K none + bit 46", K, "none", -1, -1, -1, -1, 1ull << 46);
    // A (the SS form, M = 64, K = 16).
    wg(A, n64, "A K none, CUTLASS", K, "none");
    wg(A, n64, "A K none, LBO 256 SBO 512", K, "none", 256, 512);
    wg(A, n64, "A K 32B, CUTLASS", K, "32B");
    wg(A, n64, "A K 32B, base offset 1", K, "32B", -1, -1, -1, 1);
    wg(A, n64, "A K 64B, CUTLASS", K, "64B");
    wg(A, n64, "A K 64B, start 256", K, "64B", -1, -1, 256);
    wg(A, n64, "A K 128B, CUTLASS", K, "128B");
    wg(A, n64, "A K 128B, start 96", K, "128B", -1, -1, 96);
    wg(A, n64, "A K 128B, base offset 3", K, "128B", -1, -1, -1, 3);
    wg(A, n64, "A K 128B, SBO 2048", K, "128B", -1, 2048);
    wg(A, n64, "A MN none, CUTLASS", MN, "none");
    wg(A, n64, "A MN none, LBO 2048 SBO 256", MN, "none", 2048, 256);
    wg(A, n64, "A MN 32B, CUTLASS", MN, "32B");
    wg(A, n64, "A MN 64B, CUTLASS", MN, "64B");
    wg(A, n64, "A MN 64B, LBO 2048", MN, "64B", 2048);
    wg(A, n64, "A MN 128B, CUTLASS", MN, "128B");
    wg(A, n64, "A MN 128B, base offset 2", MN, "128B", -1, -1, -1, 2);
    wg(A, n64, "A MN 128B, start 512 LBO 8192 (ignored)", MN, "128B", 8192, -1, 512);
    wg(A, n64, "A raw K 128B + bits 14,30,46,52,61", K, "128B", -1, -1, -1, -1, junk);
    // TMA boxes (inner x outer, element bits, swizzle, destination relative to the buffer).
    auto tma = [&](std::string name, int inner, int outer, int bits, const char* swz, int dst) {
        SmemCase c;
        c.kind = SmemCase::Tma;
        c.name = std::move(name);
        c.box.inner = inner;
        c.box.outer = outer;
        c.box.element_bits = bits;
        c.box.swizzle = *parse_smem_swizzle(swz);
        c.box.smem_address = static_cast<std::uint32_t>(dst);
        out.push_back(c);
    };
    tma("TMA 64x16 b16 none", 64, 16, 16, "none", 0);
    tma("TMA 24x10 b16 none (48-byte rows)", 24, 10, 16, "none", 0);
    tma("TMA 16x32 b16 32B", 16, 32, 16, "32B", 0);
    tma("TMA 16x32 b16 32B, dst 128", 16, 32, 16, "32B", 128);
    tma("TMA 32x32 b16 64B", 32, 32, 16, "64B", 0);
    tma("TMA 32x16 b16 64B, dst 384", 32, 16, 16, "64B", 384);
    tma("TMA 16x16 b16 64B (32-byte rows padded)", 16, 16, 16, "64B", 0);
    tma("TMA 64x32 b16 128B", 64, 32, 16, "128B", 0);
    tma("TMA 64x16 b16 128B, dst 384", 64, 16, 16, "128B", 384);
    tma("TMA 32x16 b16 128B (64-byte rows padded)", 32, 16, 16, "128B", 0);
    tma("TMA 8x12 b16 128B (16-byte rows padded), dst 640", 8, 12, 16, "128B", 640);
    tma("TMA 32x16 b32 128B", 32, 16, 32, "128B", 0);
    tma("TMA 8x16 b32 32B, dst 256", 8, 16, 32, "32B", 256);
    tma("TMA 12x8 b32 none (48-byte rows)", 12, 8, 32, "none", 0);
    tma("TMA 64x16 b16 128B_base32B (128B, 32-byte atoms)", 64, 16, 16, "128B_base32B", 0);
    return out;
}

SmemCorruption parse_smem_corruption(const std::string& text) {
    const std::pair<const char*, SmemCorruption> names[] = {
        {"no-swizzle", SmemCorruption::NoSwizzle}, {"base-offset-added", SmemCorruption::BaseOffsetAdded},
        {"start-anchored", SmemCorruption::StartAnchored}, {"swap-lbo-sbo", SmemCorruption::SwapStrides},
        {"no-padding", SmemCorruption::NoPadding}};
    std::string t = text.rfind("smem:", 0) == 0 ? text.substr(5) : text;
    for (const auto& n : names)
        if (t == n.first) return n.second;
    throw Error("bad shared-memory corruption '" + text +
                "'; legal with --smem: no-swizzle, base-offset-added, start-anchored, swap-lbo-sbo, no-padding");
}

std::string describe(SmemCorruption c) {
    switch (c) {
        case SmemCorruption::NoSwizzle: return "no-swizzle (addresses as if the swizzle were none)";
        case SmemCorruption::BaseOffsetAdded: return "base-offset-added (the base offset added to the 128-byte row, not subtracted)";
        case SmemCorruption::StartAnchored: return "start-anchored (the swizzle's rows counted from the start address, not the absolute address)";
        case SmemCorruption::SwapStrides: return "swap-lbo-sbo (LBO and SBO trade places)";
        case SmemCorruption::NoPadding: return "no-padding (TMA rows narrower than the swizzle span packed densely)";
        default: return "none";
    }
}

SmemClaim smem_claim(const SmemCase& c, std::uint32_t base, SmemCorruption how) {
    SmemClaim out;
    if (c.kind == SmemCase::Tma) {
        TmaBox b = c.box;
        b.smem_address += base;
        out.rows = b.outer;
        out.cols = b.inner;
        out.address.assign(static_cast<size_t>(b.inner) * b.outer, kNoClaim);
        const int e = b.element_bits / 8, pitch = tma_pitch(b);
        for (const TmaEntry& t : tma_entries(b)) {
            std::uint32_t a = t.address;
            const std::uint32_t lin = static_cast<std::uint32_t>(t.row * pitch + t.col * e);
            if (how == SmemCorruption::NoSwizzle) a = b.smem_address + lin;
            if (how == SmemCorruption::NoPadding)
                a = smem_swizzle(b.smem_address + static_cast<std::uint32_t>(t.row * b.inner * e + t.col * e), b.swizzle, 0);
            if (how == SmemCorruption::StartAnchored) a = b.smem_address + smem_swizzle(lin, b.swizzle, 0);
            out.address[static_cast<size_t>(t.row) * b.inner + t.col] = a;
        }
        if (how != SmemCorruption::None) {
            const SmemClaim truth = smem_claim(c, base);
            if (truth.address == out.address)
                out.why_unmoved = how == SmemCorruption::BaseOffsetAdded || how == SmemCorruption::SwapStrides
                                      ? "a TMA box has no base offset, LBO or SBO"
                                      : "the corruption moves no element of this box";
        }
        return out;
    }
    const Resolved r = resolve_case(c, base);
    const SmemOperand& op = r.op;
    out.rows = op.rows;
    out.cols = op.cols;
    out.descriptor = r.value;
    out.address.assign(static_cast<size_t>(op.rows) * op.cols, kNoClaim);
    SmemOperand swapped;
    bool have_swapped = false;
    if (how == SmemCorruption::SwapStrides) try {
            Modifiers m = with_start(c, base);
            m.lbo = static_cast<int>(op.desc.sbo);
            m.sbo = static_cast<int>(op.desc.lbo);
            m.swizzle = static_cast<int>(op.desc.swizzle);
            m.base_offset = op.desc.base_offset;
            m.smem_address = static_cast<int>(op.desc.start);
            swapped = smem_operand(*r.ins, op.operand, resolve_modifiers(*r.ins, sm90(), m));
            have_swapped = true;
        } catch (const Error& e) {
            out.why_unmoved = std::string("core refuses LBO and SBO swapped here: ") + e.what();
        }
    for (int row = 0; row < op.rows; ++row)
        for (int col = 0; col < op.cols; ++col) {
            const auto [mn, k] = op.mn_k(row, col);
            std::uint32_t a = op.address(mn, k);
            if (how == SmemCorruption::SwapStrides) a = have_swapped ? swapped.address(mn, k) : a;
            else if (how != SmemCorruption::None) a = corrupt_address(op, mn, k, how);
            out.address[static_cast<size_t>(row) * op.cols + col] = a;
        }
    if (how != SmemCorruption::None && out.why_unmoved.empty()) {
        bool moved = false;
        for (int row = 0; row < op.rows && !moved; ++row)
            for (int col = 0; col < op.cols && !moved; ++col) {
                const auto [mn, k] = op.mn_k(row, col);
                moved = out.address[static_cast<size_t>(row) * op.cols + col] != op.address(mn, k);
            }
        if (!moved)
            out.why_unmoved = how == SmemCorruption::NoPadding ? "no-padding is TMA's; a descriptor has no padding"
                                                               : "the corruption moves no element of this operand";
    }
    return out;
}

// -------------------------------------------------------------- kernels ---

std::string smem_probe_ptx(SmemCase::Kind kind, const Instruction& ins) {
    std::ostringstream p;
    p << "// lanescope shared-memory probe: " << (kind == SmemCase::Tma ? std::string("TMA tiled 2-D copy") : ins.mnemonic)
      << "\n.version 8.7\n.target " << kTarget << "\n.address_size 64\n\n";
    const bool tma = kind == SmemCase::Tma;
    const int bytes = tma ? kTmaBytes : kTagBytes + kIdentityBytes;
    p << ".shared .align 1024 .b8 lanescope_buf[" << bytes << "];\n";
    if (tma) p << ".shared .align 8 .b64 lanescope_bar;\n";
    p << "\n.visible .entry lanescope_probe(.param .u64 lanescope_in, .param .u64 lanescope_out, .param .u64 lanescope_extra)\n{\n"
      << "    .reg .b32 %t, %i, %w, %h, %s, %smem, %mode;\n"
      << "    .reg .b64 %in, %out, %extra, %off, %g;\n"
      << "    .reg .pred %p;\n"
      << "    ld.param.u64 %in, [lanescope_in];\n    ld.param.u64 %out, [lanescope_out];\n"
      << "    ld.param.u64 %extra, [lanescope_extra];\n"
      << "    cvta.to.global.u64 %in, %in;\n    cvta.to.global.u64 %out, %out;\n"
      << "    mov.u32 %t, %tid.x;\n    mov.u32 %smem, lanescope_buf;\n"
      << "    ld.global.b32 %mode, [%in];\n    setp.ne.u32 %p, %mode, 0;\n    @%p bra LS_BASE;\n";
    auto loop = [&](const std::string& label, int count, const std::string& body) {
        p << "    mov.u32 %i, %t;\n" << label << ":\n    setp.ge.u32 %p, %i, " << count << ";\n    @%p bra " << label
          << "_END;\n" << body << "    add.u32 %i, %i, 128;\n    bra " << label << ";\n" << label << "_END:\n";
    };
    if (!tma) {
        const bool ss = kind == SmemCase::WgmmaA;
        const int dregs = ins.n / 2;  // m64nNk16 f32: N/2 registers a thread
        // Tags: halfword h = 0x3C00 + h.
        loop("LS_FILL", kTagBytes / 4,
             "    shl.b32 %h, %i, 1;\n    add.u32 %h, %h, 15360;\n    add.u32 %w, %h, 1;\n    shl.b32 %w, %w, 16;\n"
             "    or.b32 %w, %w, %h;\n    mad.lo.u32 %s, %i, 4, %smem;\n    st.shared.b32 [%s], %w;\n");
        if (ss)  // B's identity image from the input (words 8..), after the tags
            loop("LS_IMAGE", kIdentityBytes / 4,
                 "    mul.wide.u32 %off, %i, 4;\n    add.s64 %g, %in, %off;\n    ld.global.b32 %w, [%g+32];\n"
                 "    mad.lo.u32 %s, %i, 4, %smem;\n    st.shared.b32 [%s+" + num(kTagBytes) + "], %w;\n");
        p << "    fence.proxy.async.shared::cta;\n    bar.sync 0;\n"
          << "    {\n    .reg .b64 %da, %db;\n    .reg .pred %sd;\n    .reg .f32 %d<" << dregs << ">;\n";
        if (!ss) p << "    .reg .b32 %a<4>;\n    mad.wide.u32 %off, %t, 16, %in;\n";
        if (!ss)
            for (int i = 0; i < 4; ++i) p << "    ld.global.b32 %a" << i << ", [%off+" << 32 + 4 * i << "];\n";
        p << "    ld.global.b64 %da, [%in+8];\n    ld.global.b64 %db, [%in+16];\n";
        for (int i = 0; i < dregs; ++i) p << "    mov.f32 %d" << i << ", 0f00000000;\n";
        p << "    ld.global.b32 %w, [%in+4];  // word 1: trans flags, bit 0 A, bit 1 B (immediates below)\n"
          << "    setp.ne.u32 %sd, %t, %t;\n    wgmma.fence.sync.aligned;\n";
        std::string d = "{";
        for (int i = 0; i < dregs; ++i) d += (i ? ", %d" : "%d") + num(i);
        d += "}";
        // The transpose flags are immediates: four variants, chosen by word 1.
        for (int v = 0; v < 4; ++v) {
            const int ta = v & 1, tb = v >> 1;
            if (!ss && ta) continue;
            p << "    setp.eq.u32 %p, %w, " << v << ";\n    @!%p bra LS_NOT" << v << ";\n    " << ins.mnemonic << " " << d
              << ", " << (ss ? "%da" : "{%a0, %a1, %a2, %a3}") << ", %db, %sd, 1, 1, " << (ss ? num(ta) + ", " : "")
              << tb << ";\n    bra LS_ISSUED;\nLS_NOT" << v << ":\n";
        }
        p << "LS_ISSUED:\n    wgmma.commit_group.sync.aligned;\n    wgmma.wait_group.sync.aligned 0;\n"
          << "    mad.wide.u32 %off, %t, " << 4 * dregs << ", %out;\n";
        for (int i = 0; i < dregs; ++i) p << "    st.global.f32 [%off+" << 4 * (kOutD + i) << "], %d" << i << ";\n";
        p << "    }\n";
    } else {
        loop("LS_FILL", kTmaBytes / 4, "    mad.lo.u32 %s, %i, 4, %smem;\n    st.shared.b32 [%s], 4294967295;\n");
        p << "    {\n    .reg .b32 %bar, %dst, %nbytes, %c0, %c1;\n    .reg .b64 %state;\n    .reg .pred %first, %ready;\n"
          << "    mov.u32 %bar, lanescope_bar;\n    setp.eq.u32 %first, %t, 0;\n"
          << "    @%first mbarrier.init.shared::cta.b64 [%bar], 1;\n"
          << "    fence.mbarrier_init.release.cluster;\n    fence.proxy.async.shared::cta;\n    bar.sync 0;\n"
          << "    ld.global.b32 %dst, [%in+4];\n    add.u32 %dst, %dst, %smem;\n    ld.global.b32 %nbytes, [%in+8];\n"
          << "    ld.global.b32 %c0, [%in+12];\n    ld.global.b32 %c1, [%in+16];\n"
          << "    @%first mbarrier.arrive.expect_tx.shared::cta.b64 %state, [%bar], %nbytes;\n"
          << "    @%first cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%dst], "
             "[%extra, {%c0, %c1}], [%bar];\n"
          << "LS_WAIT:\n    mbarrier.try_wait.parity.shared::cta.b64 %ready, [%bar], 0;\n    @!%ready bra LS_WAIT;\n"
          << "    bar.sync 0;\n    }\n";
        loop("LS_OUT", kTmaBytes / 4,
             "    mad.lo.u32 %s, %i, 4, %smem;\n    ld.shared.b32 %w, [%s];\n    mul.wide.u32 %off, %i, 4;\n"
             "    add.s64 %g, %out, %off;\n    st.global.b32 [%g+" + num(4 * kOutD) + "], %w;\n");
    }
    p << "LS_BASE:\n    setp.ne.u32 %p, %t, 0;\n    @%p bra LS_DONE;\n    st.global.b32 [%out], %smem;\nLS_DONE:\n    ret;\n}\n";
    return p.str();
}

// ------------------------------------------------------------- running ---

namespace {

struct Observed {
    std::vector<std::uint32_t> address;  // row-major over the case's rows x cols; kNoClaim: not seen
    std::vector<std::string> faults;     // what the hardware did that no placement explains
};

Observed run_wgmma(CudaDevice& dev, const SmemCase& c, std::uint32_t base, const std::string& ptx) {
    const Resolved r = resolve_case(c, base);
    const Instruction& ins = *r.ins;
    const bool ss = c.kind == SmemCase::WgmmaA;
    std::vector<std::uint32_t> in(8 + (ss ? kIdentityBytes / 4 : 128 * 4), 0);
    const bool mn = r.op.major == SmemMajor::MN;
    in[1] = ss ? (mn ? 1u : 0u) : (mn ? 2u : 0u);
    std::uint64_t da = 0, db = 0;
    if (ss) {
        da = r.value;
        // B = [I16 | 0]: K-major, no swizzle, its canonical strides, after the tags.
        Modifiers m;
        m.smem_a = 1;
        m.smem_major = 0;
        m.swizzle = 0;
        m.smem_address = static_cast<int>(base) + kTagBytes;
        const ResolvedModifiers rm = resolve_modifiers(ins, sm90(), m);
        const SmemOperand b = smem_operand(ins, Operand::B, rm);
        db = b.value;
        for (int k = 0; k < 16; ++k) {
            const std::uint32_t off = b.address(k, k) - (base + kTagBytes);  // (mn = n, k): B[k][k] = 1
            if (off + 2 > static_cast<std::uint32_t>(kIdentityBytes)) throw Error("internal: identity B outside its image");
            in[8 + off / 4] |= 0x3C00u << (8 * (off % 4));
        }
    } else {
        db = r.value;
        // A = [I16; 0] through core's register layout of A.
        const ClaimedLayout a = claimed_from_core(ins, sm90(), Operand::A, resolve_modifiers(ins, sm90(), Modifiers{}));
        if (a.regs != 4) throw Error("internal: " + ins.mnemonic + " has " + num(a.regs) + " A registers, not 4");
        for (const Entry& e : a.entries)
            if (e.element.row == e.element.col) in[8 + e.loc.lane * 4 + e.loc.reg] |= 0x3C00u << e.loc.bit_lo;
    }
    in[2] = static_cast<std::uint32_t>(da);
    in[3] = static_cast<std::uint32_t>(da >> 32);
    in[4] = static_cast<std::uint32_t>(db);
    in[5] = static_cast<std::uint32_t>(db >> 32);
    const int dregs = ins.n / 2;
    const std::vector<std::uint32_t> out = dev.run_ptx(ptx, in, kOutD + 128 * dregs, 128);
    if (out[0] != base) throw Error("internal: the probe buffer moved (" + num(out[0]) + ", was " + num(base) + ")");
    const ClaimedLayout d = claimed_from_core(ins, sm90(), Operand::D, resolve_modifiers(ins, sm90(), Modifiers{}));
    Observed o;
    o.address.assign(static_cast<size_t>(r.op.rows) * r.op.cols, kNoClaim);
    for (const Entry& e : d.entries) {
        float v;
        const std::uint32_t w = out[kOutD + static_cast<size_t>(e.loc.lane) * dregs + e.loc.reg];
        std::memcpy(&v, &w, 4);
        const int m = e.element.row, n = e.element.col;
        // B: D[k][n] = B[k][n] for k < 16; A: D[m][k] = A[m][k] for k < 16. The rest stays 0.
        const bool holds = ss ? n < 16 : m < 16;
        if (!holds) {
            if (v != 0.0f) o.faults.push_back("D[" + num(m) + "][" + num(n) + "] = " + std::to_string(v) + ", expected 0");
            continue;
        }
        const int bits = f16_bits(v);
        if (bits < 0x3C00 || bits >= 0x3C00 + kTagBytes / 2) {
            o.faults.push_back("D[" + num(m) + "][" + num(n) + "] = " + std::to_string(v) + " is no tag (a sum, or read outside the buffer)");
            continue;
        }
        const std::uint32_t addr = base + 2u * static_cast<std::uint32_t>(bits - 0x3C00);
        o.address[static_cast<size_t>(m) * r.op.cols + n] = addr;
    }
    return o;
}

Observed run_tma(CudaDevice& dev, const SmemCase& c, std::uint32_t base, const std::string& ptx) {
    const TmaBox& b = c.box;
    check_tma_box(b);
    const int e = b.element_bits / 8;
    CudaDevice::TensorMap2D map;
    map.element_bytes = e;
    const int c0 = 16 / e, c1 = 2;  // the box starts at (row 2, col 16 bytes in) of a larger tensor
    map.width = b.inner + 2 * c0;
    map.height = b.outer + 4;
    map.box_inner = b.inner;
    map.box_outer = b.outer;
    switch (b.swizzle) {  // CUtensorMapSwizzle
        case SmemSwizzle::None: map.swizzle = 0; break;
        case SmemSwizzle::B32: map.swizzle = 1; break;
        case SmemSwizzle::B64: map.swizzle = 2; break;
        case SmemSwizzle::B128: map.swizzle = 3; break;
        case SmemSwizzle::B128Base32: map.swizzle = 4; break;  // CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B
    }
    const long long count = static_cast<long long>(map.width) * map.height;
    if (count >= (e == 2 ? 0xFFFF : 0x7FFFFFFF)) throw Error("internal: TMA tensor too large for distinct tags");
    map.tensor.resize(static_cast<size_t>(count * e));
    for (long long i = 0; i < count; ++i) {
        const std::uint32_t tag = static_cast<std::uint32_t>(i);
        std::memcpy(&map.tensor[static_cast<size_t>(i * e)], &tag, static_cast<size_t>(e));  // little-endian low bytes
    }
    const int pitch = tma_pitch(b);
    if (b.smem_address + static_cast<long long>(pitch) * b.outer > kTmaBytes) throw Error("the box does not fit the probe's window");
    std::vector<std::uint32_t> in = {0, b.smem_address, static_cast<std::uint32_t>(b.inner * b.outer * e),
                                     static_cast<std::uint32_t>(c0), static_cast<std::uint32_t>(c1)};
    const std::vector<std::uint32_t> out = dev.run_ptx_tma(ptx, in, kOutD + kTmaBytes / 4, 128, map);
    if (out[0] != base) throw Error("internal: the probe buffer moved");
    Observed o;
    o.address.assign(static_cast<size_t>(b.inner) * b.outer, kNoClaim);
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(out.data() + kOutD);
    const std::uint32_t fill = e == 2 ? 0xFFFFu : 0xFFFFFFFFu;
    for (int off = 0; off < kTmaBytes; off += e) {
        std::uint32_t v = 0;
        std::memcpy(&v, bytes + off, static_cast<size_t>(e));
        if (v == fill) continue;
        const int gr = static_cast<int>(v / static_cast<std::uint32_t>(map.width)), gc = static_cast<int>(v % static_cast<std::uint32_t>(map.width));
        const int r = gr - c1, col = gc - c0;
        if (v >= count || r < 0 || r >= b.outer || col < 0 || col >= b.inner) {
            o.faults.push_back("byte " + num(base + off) + " holds tensor element " + num(v) + ", outside the box");
            continue;
        }
        std::uint32_t& slot = o.address[static_cast<size_t>(r) * b.inner + col];
        if (slot != kNoClaim) o.faults.push_back("box (" + num(r) + ", " + num(col) + ") landed twice");
        slot = base + static_cast<std::uint32_t>(off);
    }
    return o;
}

}  // namespace

SmemReport verify_smem(CudaDevice& dev, const std::vector<SmemCase>& cases, SmemCorruption corruption, size_t max_mismatches) {
    if (dev.sm() != 90)
        throw Error("the shared-memory probes run wgmma and TMA as sm_90a (Hopper); the GPU here is sm_" + num(dev.sm()));
    SmemReport rep;
    rep.device = dev.name();
    rep.corruption = corruption;
    const Instruction& ins64 = cat().find_instruction(sm90(), "wgmma_m64n64k16_f32_f16");
    // The buffer's address: one launch in mode 1 (each module places its buffer alike; checked per run).
    std::map<std::string, std::string> ptx;
    auto module = [&](const SmemCase& c) -> const std::string& {
        const std::string key = c.kind == SmemCase::Tma ? "tma" : c.instruction + (c.kind == SmemCase::WgmmaA ? ":A" : ":B");
        auto it = ptx.find(key);
        if (it == ptx.end())
            it = ptx.emplace(key, smem_probe_ptx(c.kind, c.kind == SmemCase::Tma ? ins64 : cat().find_instruction(sm90(), c.instruction))).first;
        return it->second;
    };
    std::map<std::string, std::uint32_t> bases;
    auto base_of = [&](const SmemCase& c) {
        const std::string& p = module(c);
        auto it = bases.find(p);
        if (it != bases.end()) return it->second;
        std::vector<std::uint32_t> in(8 + 1024, 0);
        in[0] = 1;
        std::uint32_t b;
        if (c.kind == SmemCase::Tma) {
            CudaDevice::TensorMap2D m;
            m.width = 64, m.height = 8, m.box_inner = 8, m.box_outer = 8;
            m.tensor.assign(64 * 8 * 2, 0);
            b = dev.run_ptx_tma(p, in, kOutD, 128, m)[0];
        } else {
            b = dev.run_ptx(p, in, kOutD, 128)[0];
        }
        bases.emplace(p, b);
        return b;
    };
    for (const SmemCase& c : cases) {
        SmemCaseResult res;
        res.c = c;
        try {
            const std::uint32_t base = base_of(c);
            rep.buffer_address = base;
            const SmemClaim claim = smem_claim(c, base, corruption);
            if (c.kind != SmemCase::Tma) res.descriptor = hex(claim.descriptor, 16);
            if (!claim.why_unmoved.empty()) {
                res.skipped = claim.why_unmoved;
                ++rep.skipped;
                rep.cases.push_back(res);
                continue;
            }
            const std::uint32_t lo = base, hi = base + (c.kind == SmemCase::Tma ? kTmaBytes : kTagBytes);
            const SmemClaim truth = corruption == SmemCorruption::None ? claim : smem_claim(c, base);
            for (std::uint32_t a : truth.address)
                if (a < lo || a >= hi)
                    throw Error("core places an element at byte " + num(a) + ", outside the probe's tagged window " +
                                num(lo) + ".." + num(hi - 1));
            const Observed o = c.kind == SmemCase::Tma ? run_tma(dev, c, base, module(c)) : run_wgmma(dev, c, base, module(c));
            res.elements = static_cast<long long>(claim.address.size());
            for (size_t i = 0; i < claim.address.size(); ++i) {
                if (o.address[i] == claim.address[i]) {
                    ++res.equal;
                    continue;
                }
                if (res.mismatches.size() < max_mismatches) {
                    const int row = static_cast<int>(i) / claim.cols, col = static_cast<int>(i) % claim.cols;
                    const std::string what = c.kind == SmemCase::Tma ? "box (" + num(row) + ", " + num(col) + ")"
                                                                     : std::string(c.kind == SmemCase::WgmmaA ? "A[" : "B[") +
                                                                           num(row) + "][" + num(col) + "]";
                    res.mismatches.push_back(what + ": claimed byte " + num(claim.address[i]) + ", the hardware " +
                                             (o.address[i] == kNoClaim ? std::string("read/wrote it nowhere")
                                                                       : "used byte " + num(o.address[i])));
                }
            }
            for (const std::string& f : o.faults)
                if (res.mismatches.size() < max_mismatches + 4) res.mismatches.push_back(f);
            if (!o.faults.empty()) res.equal = std::min(res.equal, res.elements - 1);
            ++rep.run;
            rep.elements += res.elements;
            rep.equal += res.equal;
            if (res.equal != res.elements) ++rep.failed;
        } catch (const Error& e) {
            res.skipped = std::string("not run: ") + e.what();
            ++rep.skipped;
        }
        rep.cases.push_back(res);
    }
    return rep;
}

namespace {
std::string json_str(const std::string& s) {
    std::string o = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\';
        if (ch == '\n') {
            o += "\\n";
            continue;
        }
        o += ch;
    }
    return o + "\"";
}
const char* kind_name(SmemCase::Kind k) { return k == SmemCase::WgmmaB ? "wgmma B" : k == SmemCase::WgmmaA ? "wgmma A (SS)" : "TMA"; }
}  // namespace

std::string render_smem_report(const SmemReport& r, bool json) {
    std::ostringstream s;
    const bool corrupt = r.corruption != SmemCorruption::None;
    if (json) {
        s << "{\"device\": " << json_str(r.device) << ", \"buffer_address\": " << r.buffer_address
          << ", \"corruption\": " << json_str(corrupt ? describe(r.corruption) : "none") << ", \"passed\": "
          << (r.passed() ? "true" : "false") << ", \"run\": " << r.run << ", \"failed\": " << r.failed
          << ", \"skipped\": " << r.skipped << ", \"elements\": " << r.elements << ", \"equal\": " << r.equal
          << ", \"cases\": [";
        for (size_t i = 0; i < r.cases.size(); ++i) {
            const SmemCaseResult& c = r.cases[i];
            s << (i ? ",\n  " : "\n  ") << "{\"name\": " << json_str(c.c.name) << ", \"kind\": " << json_str(kind_name(c.c.kind))
              << ", \"descriptor\": " << json_str(c.descriptor) << ", \"elements\": " << c.elements << ", \"equal\": " << c.equal
              << ", \"skipped\": " << json_str(c.skipped) << ", \"mismatches\": [";
            for (size_t j = 0; j < c.mismatches.size(); ++j) s << (j ? ", " : "") << json_str(c.mismatches[j]);
            s << "]}";
        }
        s << "\n]}\n";
        return s.str();
    }
    s << "| # | probe | configuration | descriptor | elements | equal |\n|---|---|---|---|---|---|\n";
    for (size_t i = 0; i < r.cases.size(); ++i) {
        const SmemCaseResult& c = r.cases[i];
        s << "| " << i << " | " << kind_name(c.c.kind) << " | " << c.c.name << " | " << (c.descriptor.empty() ? "-" : c.descriptor)
          << " | ";
        if (!c.skipped.empty()) s << "- | skipped: " << c.skipped << " |\n";
        else s << c.elements << " | " << c.equal << (c.equal == c.elements ? "" : " FAIL") << " |\n";
        for (const std::string& m : c.mismatches) s << "|   |   | " << m << " | | | |\n";
    }
    s << "\ndevice: " << r.device << "; probe buffer at shared-memory byte " << r.buffer_address << "\n";
    if (corrupt) s << "claim corrupted: " << describe(r.corruption) << "\n";
    s << (r.passed() ? "PASS" : "FAIL") << ": " << r.run << " configurations run, " << r.failed << " differ, " << r.skipped
      << " skipped; " << r.elements << " elements, " << r.equal << " equal to lanescope's claim"
      << (corrupt ? " (the corrupted one)" : "") << "\n";
    return s.str();
}

}  // namespace lanescope::gpu
