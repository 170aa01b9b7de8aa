// The probes a Blackwell GPU would run (none is here: they are generated and assembled by
// ptxas in the tests, so they are known to build, and verify says the GPU they need).
//
// tcgen05.ld / tcgen05.st (PTX ISA 9.7.16.8.3 tcgen05.ld, 9.7.16.8.4 tcgen05.st, 9.7.16.7.1
// tcgen05.alloc, 9.7.16.8.1 the memory consistency model: wait::st / wait::ld and the
// thread-sync fences): one CTA of four warps. Warp 0 allocates the columns; every warp clears
// its lane quarter (32x32b), stores its tagged registers with the row's shape, reads the
// cells back as 32x32b (thread = TMEM lane 32*warp + lane, register = column: the witness of
// where the store put each register) and with the row's shape (the round trip), and writes
// both to `out`, thread-major: the cells first, then the round-tripped registers.
#include "lanescope/blackwell.hpp"
#include "lanescope/gpu.hpp"
#include "lanescope/smem.hpp"
#include "lanescope/numbers.hpp"
#include "nvidia.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace lanescope::gpu {

namespace {


// 32-bit registers per thread of one .x1 message of a shape, and the columns it spans.
struct LdStShape {
    const char* shape;
    int regs, cols;
};
constexpr LdStShape kLdSt[] = {{"32x32b", 1, 1}, {"16x64b", 1, 2}, {"16x128b", 2, 4}, {"16x256b", 4, 8}, {"16x32bx2", 1, 1}};

std::string reg_list(const std::string& name, int first, int count) {
    std::string s = "{";
    for (int i = 0; i < count; ++i) s += (i ? ", %" : "%") + name + num(first + i);
    return s + "}";
}

}  // namespace

std::string blackwell_need(const Instruction& ins, const Target& t, int device_sm) {
    const bool datacenter = t.family == Family::Blackwell, geforce = t.family == Family::BlackwellGeForce;
    const bool tcgen05 = ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::Tcgen05LdSt ||
                         ins.kind == LayoutKind::Tcgen05Cp;
    const bool scaled = ins.kind == LayoutKind::MmaBlockScale;
    if (!datacenter && !geforce && !tcgen05 && !scaled) return "";
    const int want = detail::sm_number(t.gfx);
    if (device_sm == want) return "";
    const std::string gpu = tcgen05 || datacenter ? "a Blackwell datacenter GPU (B200, B300, GB200/GB300: sm_100a, sm_103a; Thor: sm_110a)"
                                                  : "a Blackwell GeForce/workstation GPU (RTX 50, RTX PRO: sm_120a; DGX Spark: sm_121a)";
    return "Blackwell entries need a Blackwell GPU: " + ins.mnemonic + " on " + t.gfx + " runs on " + gpu +
           (device_sm > 0 ? "; the GPU here is sm_" + num(device_sm) : std::string("; no NVIDIA GPU is here")) +
           (ins.kind == LayoutKind::Tcgen05LdSt && ins.mnemonic.find(".red") == std::string::npos
                ? ". Its tcgen05.st/ld round-trip probe is generated and assembled by ptxas in lanescope's tests"
                : std::string("")) +
           "; the layout stays not confirmed on hardware";
}

std::string tcgen05_ldst_probe_source(const Instruction& ins, const Target& t) {
    if (ins.kind != LayoutKind::Tcgen05LdSt || ins.mnemonic.find(".red") != std::string::npos)
        throw Error(ins.mnemonic + ": the tcgen05.st/ld round-trip probe is for tcgen05.ld and tcgen05.st rows "
                    "(tcgen05.ld.red reduces, it has none)");
    const LdStShape* sh = nullptr;
    for (const LdStShape& s : kLdSt)
        if (ins.tmem_shape == s.shape) sh = &s;
    if (!sh || ins.tmem_num < 1) throw Error(ins.mnemonic + ": no tcgen05.ld/st shape and .num in its row");
    const bool x2 = ins.tmem_shape == "16x32bx2";
    const int regs = sh->regs * ins.tmem_num;
    const int half = x2 ? ins.tmem_num : 0;  // immHalfSplitoff: the second half right after the first
    const int unpacked = ins.pack16 ? 2 : 1;  // .unpack::16b / .pack::16b: a register's halves in two columns
    const int cols = (sh->cols * ins.tmem_num + half) * unpacked;
    int alloc = 32;
    while (alloc < cols) alloc *= 2;
    if (alloc > 512) throw Error(ins.mnemonic + ": " + num(cols) + " columns, more than Tensor Memory's 512");
    const std::string shape = "." + ins.tmem_shape + ".x" + num(ins.tmem_num);
    const std::string imm = x2 ? ", " + num(half) : "";
    const int chunk = std::min(cols, 128);  // 32x32b reads at most 128 columns a message
    const int out_words = cols + regs;
    std::ostringstream p;
    p << "// lanescope probe: tcgen05.st/ld round trip for " << ins.mnemonic << " (" << regs << " registers, " << cols
      << " columns of lanes 32*warp..+31; out: per thread " << cols << " cells then " << regs << " registers)\n"
      << ".version " << (detail::sm_number(t.gfx) >= 110 && detail::sm_number(t.gfx) < 120 ? "9.0" : "8.8") << "\n"
      << ".target " << t.gfx << "\n.address_size 64\n\n"
      << ".visible .entry lanescope_probe(.param .u64 in, .param .u64 out)\n{\n"
      << "    .shared .align 4 .b32 tmem_base;\n"
      << "    .reg .pred %first;\n"
      << "    .reg .b32 %th, %warp, %base, %taddr, %caddr;\n"
      << "    .reg .b32 %v<" << regs << ">, %w<" << regs << ">, %c<" << chunk << ">;\n"
      << "    .reg .b64 %in, %out, %pin, %pout;\n"
      << "    ld.param.u64 %in, [in];\n    ld.param.u64 %out, [out];\n"
      << "    cvta.to.global.u64 %in, %in;\n    cvta.to.global.u64 %out, %out;\n"
      << "    mov.u32 %th, %tid.x;\n    shr.u32 %warp, %th, 5;\n    setp.eq.u32 %first, %warp, 0;\n"
      << "    @!%first bra ALLOCATED;\n"
      << "    tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [tmem_base], " << alloc << ";\n"
      << "    tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\nALLOCATED:\n"
      << "    tcgen05.fence::before_thread_sync;\n    bar.sync 0;\n    tcgen05.fence::after_thread_sync;\n"
      << "    ld.shared.b32 %base, [tmem_base];\n"
      << "    shl.b32 %taddr, %warp, 21;  // TMEM lane 32*warp in bits 31:16\n"
      << "    add.u32 %taddr, %taddr, %base;\n";
    for (int i = 0; i < chunk; ++i) p << "    mov.b32 %c" << i << ", 0;\n";
    for (int c = 0; c < cols; c += chunk)
        p << "    add.u32 %caddr, %taddr, " << c << ";\n    tcgen05.st.sync.aligned.32x32b.x" << chunk
          << ".b32 [%caddr], " << reg_list("c", 0, chunk) << ";\n";
    p << "    mul.wide.u32 %pin, %th, " << 4 * regs << ";\n    add.u64 %pin, %in, %pin;\n";
    for (int i = 0; i < regs; ++i) p << "    ld.global.b32 %v" << i << ", [%pin+" << 4 * i << "];\n";
    p << "    tcgen05.st.sync.aligned" << shape << (ins.pack16 ? ".unpack::16b" : "") << ".b32 [%taddr]" << imm << ", "
      << reg_list("v", 0, regs) << ";\n    tcgen05.wait::st.sync.aligned;\n"
      << "    mul.wide.u32 %pout, %th, " << 4 * out_words << ";\n    add.u64 %pout, %out, %pout;\n";
    for (int c = 0; c < cols; c += chunk) {
        p << "    add.u32 %caddr, %taddr, " << c << ";\n    tcgen05.ld.sync.aligned.32x32b.x" << chunk << ".b32 "
          << reg_list("c", 0, chunk) << ", [%caddr];\n    tcgen05.wait::ld.sync.aligned;\n";
        for (int i = 0; i < chunk; ++i) p << "    st.global.b32 [%pout+" << 4 * (c + i) << "], %c" << i << ";\n";
    }
    p << "    tcgen05.ld.sync.aligned" << shape << (ins.pack16 ? ".pack::16b" : "") << ".b32 " << reg_list("w", 0, regs)
      << ", [%taddr]" << imm << ";\n    tcgen05.wait::ld.sync.aligned;\n";
    for (int i = 0; i < regs; ++i) p << "    st.global.b32 [%pout+" << 4 * (cols + i) << "], %w" << i << ";\n";
    p << "    tcgen05.fence::before_thread_sync;\n    bar.sync 0;\n    @!%first bra DONE;\n"
      << "    tcgen05.dealloc.cta_group::1.sync.aligned.b32 %base, " << alloc << ";\nDONE:\n    ret;\n}\n";
    return p.str();
}

std::string mma_block_scale_probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods) {
    if (ins.kind != LayoutKind::MmaBlockScale || ins.mnemonic.find(".block_scale") == std::string::npos ||
        ins.mnemonic.rfind("mma.sync.", 0) != 0)
        throw Error(ins.mnemonic + ": the one-hot scale-factor probe is for the dense block-scaled mma.sync rows of "
                    "sm_120 (kind::mxf8f6f4, mxf4, mxf4nvf4 with .block_scale)");
    if (ptx_only(ins))
        throw Error(ins.mnemonic + ": " + kPtxOnly + " (PTX ISA " + ins.ptx_version +
                    "), so no probe of it can be assembled; legal: the block-scaled mma.sync rows ptxas accepts "
                    "(scale_vec::4X with ue4m3)");
    auto regs = [&](Operand op) { return operand_regs(ins, op, mods); };
    const int ra = regs(Operand::A), rb = regs(Operand::B), rc = regs(Operand::C), rd = regs(Operand::D);
    const std::string acc = elem_bits(ins.d_type()) == 32 ? ".f32" : ".b32";
    std::ostringstream p, body;
    int word = 0;  // the input: per thread A, B, C, SFA, SFB words, thread-major
    const int words = ra + rb + rc + 2;
    auto load = [&](const std::string& name, int count) {
        for (int i = 0; i < count; ++i) body << "    ld.global.b32 %" << name << i << ", [%pin+" << 4 * (word + i) << "];\n";
        word += count;
    };
    body << "    mul.wide.u32 %pin, %th, " << 4 * words << ";\n    add.u64 %pin, %in, %pin;\n";
    load("a", ra);
    load("b", rb);
    load("c", rc);
    load("sfa", 1);
    load("sfb", 1);
    // PTX ISA 9.7.14.3: {byte-id, thread-id} selectors, immediates; the one-hot scale word of the
    // thread they select is what scales each row of A / column of B.
    body << "    " << ins.mnemonic << " " << reg_list("d", 0, rd) << ", " << reg_list("a", 0, ra) << ", "
         << reg_list("b", 0, rb) << ", " << reg_list("c", 0, rc) << ", %sfa0, {" << mods.sf_byte_a << ", "
         << mods.sf_thread_a << "}, %sfb0, {" << mods.sf_byte_b << ", " << mods.sf_thread_b << "};\n";
    body << "    mul.wide.u32 %pout, %th, " << 4 * rd << ";\n    add.u64 %pout, %out, %pout;\n";
    for (int i = 0; i < rd; ++i) body << "    st.global" << acc << " [%pout+" << 4 * i << "], %d" << i << ";\n";
    p << "// lanescope probe: one-hot scale factors for " << ins.mnemonic << " (a warp; in: per thread A " << ra
      << ", B " << rb << ", C " << rc << ", SFA 1, SFB 1 words; out: D " << rd << " words)\n"
      << ".version 8.8\n.target " << t.gfx << "\n.address_size 64\n\n"
      << ".visible .entry lanescope_probe(.param .u64 in, .param .u64 out)\n{\n"
      << "    .reg .b32 %th, %a<" << ra << ">, %b<" << rb << ">, %sfa<1>, %sfb<1>;\n"
      << "    .reg " << acc << " %c<" << rc << ">, %d<" << rd << ">;\n"
      << "    .reg .b64 %in, %out, %pin, %pout;\n"
      << "    ld.param.u64 %in, [in];\n    ld.param.u64 %out, [out];\n"
      << "    cvta.to.global.u64 %in, %in;\n    cvta.to.global.u64 %out, %out;\n"
      << "    mov.u32 %th, %tid.x;\n"
      << body.str() << "    ret;\n}\n";
    return p.str();
}

}  // namespace lanescope::gpu

namespace lanescope::gpu {

std::string tcgen05_mma_probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods) {
    if (ins.kind != LayoutKind::Tcgen05Mma || ins.mma_kind != "f16" || ins.cta_group != 1 || ins.ws ||
        ins.tcgen05_sparse || ins.a_in_tmem || (ins.m != 64 && ins.m != 128))
        throw Error(ins.mnemonic + ": the one-hot D probe is generated for tcgen05.mma.cta_group::1.kind::f16 with A "
                    "and B in shared memory, M = 64 or 128 (the D layouts D and F); legal: such a row");
    const SmemOperand a = smem_operand(ins, Operand::A, mods), b = smem_operand(ins, Operand::B, mods);
    auto image_bytes = [](const SmemOperand& s) {
        std::uint32_t most = 0;
        for (int mn = 0; mn < s.mn; ++mn)
            for (int k = 0; k < s.k; ++k) most = std::max(most, s.linear(mn, k) + std::uint32_t(s.element_bits / 8));
        return (most + 1023) / 1024 * 1024;
    };
    const std::uint32_t abytes = image_bytes(a), bbytes = image_bytes(b);
    // Instruction descriptor, kind::f16 (PTX ISA 9.7.16.4.2; CUTLASS UMMA::InstrDescriptor): D format bits 4-5
    // (0 f16, 1 f32), A / B format bits 7-9 / 10-12 (0 f16, 1 bf16), A / B major bits 15 / 16 (0 K-major),
    // N >> 3 in bits 17-22, M >> 4 in bits 24-28.
    auto fmt = [](ElemType e) { return e == ElemType::BF16 ? 1u : 0u; };
    const std::uint32_t idesc = (elem_bits(ins.d_type()) == 32 ? 1u : 0u) << 4 | fmt(ins.a) << 7 | fmt(ins.b) << 10 |
                                std::uint32_t(a.major == SmemMajor::MN) << 15 | std::uint32_t(b.major == SmemMajor::MN) << 16 |
                                std::uint32_t(ins.n >> 3) << 17 | std::uint32_t(ins.m >> 4) << 24;
    const int words = ins.n;  // D columns: a 16-bit D of tcgen05.mma is unpacked, one element per column
    int alloc = 32;
    while (alloc < words) alloc *= 2;
    const int chunk = std::min(words, 128);
    auto hex = [](std::uint64_t v) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
        return std::string(buf);
    };
    // Words [from, from + count) of `in` to the shared image at `dst`, 128 threads striding.
    auto copy = [](const std::string& name, const std::string& dst, std::uint32_t from, std::uint32_t count) {
        std::ostringstream c;
        c << "    mov.u32 %i, %th;\nCOPY_" << name << ":\n"
          << "    setp.ge.u32 %done, %i, " << count << ";\n    @%done bra COPIED_" << name << ";\n"
          << "    add.u32 %word, %i, " << from << ";\n"
          << "    mul.wide.u32 %pin, %word, 4;\n    add.u64 %pin, %in, %pin;\n    ld.global.b32 %word, [%pin];\n"
          << "    shl.b32 %caddr, %i, 2;\n    add.u32 %caddr, %caddr, " << dst << ";\n    st.shared.b32 [%caddr], %word;\n"
          << "    add.u32 %i, %i, 128;\n    bra COPY_" << name << ";\nCOPIED_" << name << ":\n";
        return c.str();
    };
    std::ostringstream p;
    p << "// lanescope probe: one-hot D of " << ins.mnemonic << " m" << ins.m << "n" << ins.n << "k" << ins.k
      << " (128 threads; in: A's shared-memory image " << abytes << " bytes, then B's " << bbytes
      << "; out: per thread = TMEM lane, " << words << " columns of D)\n"
      << ".version 8.8\n.target " << t.gfx << "\n.address_size 64\n\n"
      << ".visible .entry lanescope_probe(.param .u64 in, .param .u64 out)\n{\n"
      << "    .shared .align 1024 .b8 smem_a[" << abytes << "];\n"
      << "    .shared .align 1024 .b8 smem_b[" << bbytes << "];\n"
      << "    .shared .align 8 .b64 mbar;\n    .shared .align 4 .b32 tmem_base;\n"
      << "    .reg .pred %first, %leader, %done;\n"
      << "    .reg .b32 %th, %warp, %base, %taddr, %caddr, %i, %word, %sa, %sb, %sm, %idesc, %c<" << chunk << ">;\n"
      << "    .reg .b64 %in, %out, %pin, %pout, %adesc, %bdesc, %tmp;\n"
      << "    ld.param.u64 %in, [in];\n    ld.param.u64 %out, [out];\n"
      << "    cvta.to.global.u64 %in, %in;\n    cvta.to.global.u64 %out, %out;\n"
      << "    mov.u32 %th, %tid.x;\n    shr.u32 %warp, %th, 5;\n"
      << "    setp.eq.u32 %first, %warp, 0;\n    setp.eq.u32 %leader, %th, 0;\n"
      << "    mov.u32 %sa, smem_a;\n    mov.u32 %sb, smem_b;\n    mov.u32 %sm, mbar;\n"
      // The operand images, word by word (the host writes the one-hot A and B as the claimed layouts place them).
      << copy("A", "%sa", 0, abytes / 4) << copy("B", "%sb", abytes / 4, bbytes / 4)
      << "    @!%first bra ALLOCATED;\n"
      << "    tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [tmem_base], " << alloc << ";\n"
      << "    tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\nALLOCATED:\n"
      << "    @%leader mbarrier.init.shared::cta.b64 [mbar], 1;\n"
      << "    fence.proxy.async.shared::cta;  // the generic-proxy stores, seen by the MMA's async proxy\n"
      << "    tcgen05.fence::before_thread_sync;\n    bar.sync 0;\n    tcgen05.fence::after_thread_sync;\n"
      << "    ld.shared.b32 %base, [tmem_base];\n"
      // Descriptors: the fixed fields of the canonical layout, the start address (>> 4) at run time.
      << "    shr.u32 %sa, %sa, 4;\n    cvt.u64.u32 %tmp, %sa;\n    or.b64 %adesc, %tmp, " << hex(a.value & ~0x3FFFull) << ";\n"
      << "    shr.u32 %sb, %sb, 4;\n    cvt.u64.u32 %tmp, %sb;\n    or.b64 %bdesc, %tmp, " << hex(b.value & ~0x3FFFull) << ";\n"
      << "    mov.b32 %idesc, " << idesc << ";\n"
      << "    @!%leader bra ISSUED;\n"
      << "    setp.ne.u32 %done, 0, 0;  // enable-input-d false: D = A * B\n"
      << "    " << ins.mnemonic.substr(0, ins.mnemonic.find(' ')) << " [%base], %adesc, %bdesc, %idesc, %done;\n"
      << "    tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];\nISSUED:\n"
      << "WAIT:\n    mbarrier.try_wait.parity.shared::cta.b64 %done, [mbar], 0;\n    @!%done bra WAIT;\n"
      << "    tcgen05.fence::after_thread_sync;\n"
      << "    shl.b32 %taddr, %warp, 21;\n    add.u32 %taddr, %taddr, %base;\n"
      << "    mul.wide.u32 %pout, %th, " << 4 * words << ";\n    add.u64 %pout, %out, %pout;\n";
    for (int c = 0; c < words; c += chunk) {
        p << "    add.u32 %caddr, %taddr, " << c << ";\n    tcgen05.ld.sync.aligned.32x32b.x" << chunk << ".b32 "
          << reg_list("c", 0, chunk) << ", [%caddr];\n    tcgen05.wait::ld.sync.aligned;\n";
        for (int i = 0; i < chunk; ++i) p << "    st.global.b32 [%pout+" << 4 * (c + i) << "], %c" << i << ";\n";
    }
    p << "    tcgen05.fence::before_thread_sync;\n    bar.sync 0;\n    @!%first bra DONE;\n"
      << "    tcgen05.dealloc.cta_group::1.sync.aligned.b32 %base, " << alloc << ";\nDONE:\n    ret;\n}\n";
    return p.str();
}

}  // namespace lanescope::gpu

namespace lanescope::gpu {

// The host side of the tcgen05.st/ld round trip (the probe above): every thread's register r of
// warp w holds the tag 0x80000000 | thread << 12 | r; after the store with the row's shape the
// 32x32b read-back gives, per TMEM lane (thread 32w + lane) and column, the tag stored there.
// Core's claim (the row's D layout: element (row, col) in (thread, register)) says register
// (lane, reg) of warp w lands in TMEM lane 32w + row, column col; every cell and every
// round-tripped register is compared. Runs only on a Blackwell datacenter GPU (none was here).
Report verify_tcgen05_ldst(CudaDevice& dev, const Instruction& ins, const Target& t) {
    Report r;
    r.instruction = ins.mnemonic;
    r.target = t.gfx;
    r.device = dev.name();
    const std::string need = blackwell_need(ins, t, dev.sm());
    if (!need.empty()) throw Error(need);
    const std::string ptx = tcgen05_ldst_probe_source(ins, t);  // refuses .red and other rows
    const LdStShape* sh = nullptr;
    for (const LdStShape& s : kLdSt)
        if (ins.tmem_shape == s.shape) sh = &s;
    const bool x2 = ins.tmem_shape == "16x32bx2";
    const int regs = sh->regs * ins.tmem_num, half = x2 ? ins.tmem_num : 0, unpacked = ins.pack16 ? 2 : 1;
    const int cols = (sh->cols * ins.tmem_num + half) * unpacked, out_words = cols + regs;
    std::vector<uint32_t> in(size_t(128) * regs);
    auto tag = [](int thread, int reg) { return 0x80000000u | uint32_t(thread) << 12 | uint32_t(reg); };
    for (int th = 0; th < 128; ++th)
        for (int i = 0; i < regs; ++i) in[size_t(th) * regs + i] = tag(th, i);
    const std::vector<uint32_t> out = dev.run_ptx(ptx, in, size_t(128) * out_words, 128);
    r.probes = 1;
    auto miss = [&](const std::string& probe, const Entry& e, double want, double got, const std::string& why) {
        ++r.mismatch_count;
        if (r.mismatches.size() >= 16) return;
        Mismatch m;
        m.probe = probe;
        m.d = e.element;
        m.at = e.loc;
        m.expected = want;
        m.found = got;
        m.explanation = why;
        r.mismatches.push_back(m);
    };
    // The round trip: the row's own ld returns every register as stored.
    for (int th = 0; th < 128; ++th)
        for (int i = 0; i < regs; ++i) {
            ++r.slots_checked;
            const uint32_t got = out[size_t(th) * out_words + cols + i];
            if (got != tag(th, i)) {
                Entry e;
                e.loc.lane = th;
                e.loc.reg = i;
                miss("round trip", e, tag(th, i), got, "the row's tcgen05.ld did not return what its tcgen05.st stored");
            }
        }
    // The cells: where core says each register went (32-bit elements; packed rows by the round trip only).
    if (!ins.pack16) {
        ResolvedModifiers mods = resolve_modifiers(ins, t, Modifiers{});
        const ClaimedLayout d = claimed_from_core(ins, t, Operand::D, mods);
        for (int w = 0; w < 4; ++w)
            for (const Entry& e : d.entries) {
                const int lane = 32 * w + e.element.row, col = e.element.col;
                if (col >= cols || e.element.row >= 32) {
                    miss("cells", e, 0, 0, "core places it outside the probe's columns");
                    continue;
                }
                ++r.slots_checked;
                const uint32_t want = tag(32 * w + e.loc.lane, e.loc.reg), got = out[size_t(lane) * out_words + col];
                if (got != want)
                    miss("cells", e, want, got,
                         "TMEM lane " + num(lane) + ", column " + num(col) + " holds thread " + num((got >> 12) & 0x7FFF) +
                             "'s register " + num(got & 0xFFF) + ", not thread " + num(32 * w + e.loc.lane) + "'s register " +
                             num(e.loc.reg));
            }
    }
    r.checked = {Operand::D};
    r.passed = r.mismatch_count == 0;
    return r;
}

}  // namespace lanescope::gpu

namespace lanescope::gpu {

// The host side of the one-hot tcgen05.mma probe (kind::f16, f32 D): A[m][0] = m + 1, A[m][1] = 256,
// B[0][n] = 1, B[1][n] = n + 1, the rest 0, so D[m][n] = (m + 1) + 256 (n + 1) names its element
// exactly. A and B are written into their shared-memory images where core's smem_operand places
// them (the buffers are 1024-byte aligned, so the swizzle of the image offset is the hardware's);
// every TMEM cell read back (32x32b: thread = TMEM lane, register = column) is compared with core's
// D layout in Tensor Memory. Runs only on a Blackwell datacenter GPU (none was here).
Report verify_tcgen05_mma(CudaDevice& dev, const Instruction& ins, const Target& t, const ResolvedModifiers& mods) {
    Report r;
    r.instruction = ins.mnemonic;
    r.target = t.gfx;
    r.device = dev.name();
    const std::string need = blackwell_need(ins, t, dev.sm());
    if (!need.empty()) throw Error(need);
    const std::string ptx = tcgen05_mma_probe_source(ins, t, mods);  // refuses rows it has no probe for
    if (elem_bits(ins.d_type()) != 32)
        throw Error(ins.mnemonic + ": the one-hot D comparison is written for f32 D (f16 cannot hold (m + 1) + 256 (n + 1) exactly)");
    const SmemOperand a = smem_operand(ins, Operand::A, mods), b = smem_operand(ins, Operand::B, mods);
    auto image = [](const SmemOperand& s, auto value) {
        std::uint32_t most = 0;
        for (int mn = 0; mn < s.mn; ++mn)
            for (int k = 0; k < s.k; ++k) most = std::max(most, s.linear(mn, k) + std::uint32_t(s.element_bits / 8));
        std::vector<std::uint32_t> words((most + 1023) / 1024 * 256, 0);
        for (int mn = 0; mn < s.mn; ++mn)
            for (int k = 0; k < s.k; ++k) {
                const std::uint16_t h = value(mn, k);
                if (!h) continue;
                const std::uint32_t off = smem_swizzle(s.linear(mn, k), s.desc.swizzle, s.desc.base_offset);
                words[off / 4] |= std::uint32_t(h) << (8 * (off % 4));
            }
        return words;
    };
    // f16 bits of small integers (exact): 1..2048.
    auto f16 = [](int v) {
        int e = 0;
        while ((v >> e) > 1) ++e;
        return static_cast<std::uint16_t>((e + 15) << 10 | ((v << (10 - e)) & 0x3FF));
    };
    const bool bf = ins.a == ElemType::BF16;
    auto enc = [&](int v) {
        if (!bf) return f16(v);
        float x = float(v);
        std::uint32_t u;
        std::memcpy(&u, &x, 4);
        return static_cast<std::uint16_t>(u >> 16);
    };
    std::vector<std::uint32_t> in = image(a, [&](int m, int k) { return k == 0 ? enc(m + 1) : k == 1 ? enc(256) : std::uint16_t(0); });
    const std::vector<std::uint32_t> bw = image(b, [&](int n, int k) { return k == 0 ? enc(1) : k == 1 ? enc(n + 1) : std::uint16_t(0); });
    in.insert(in.end(), bw.begin(), bw.end());
    const int words = ins.n;
    const std::vector<std::uint32_t> out = dev.run_ptx(ptx, in, size_t(128) * words, 128);
    r.probes = 1;
    const ClaimedLayout d = claimed_from_core(ins, t, Operand::D, mods);
    std::vector<bool> claimed(size_t(128) * words, false);
    for (const Entry& e : d.entries) {
        if (e.loc.lane >= 128 || e.loc.reg >= words) continue;
        claimed[size_t(e.loc.lane) * words + e.loc.reg] = true;
        ++r.slots_checked;
        float v;
        std::memcpy(&v, &out[size_t(e.loc.lane) * words + e.loc.reg], 4);
        const double want = (e.element.row + 1) + 256.0 * (e.element.col + 1);
        if (v == want) continue;
        ++r.mismatch_count;
        if (r.mismatches.size() < 16) {
            Mismatch m;
            m.probe = "D";
            m.d = e.element;
            m.at = e.loc;
            m.expected = want;
            m.found = v;
            const long iv = long(v) - 257;
            m.explanation = v > 0 && iv >= 0 ? "the cell holds D[" + num(iv % 256) + "][" + num(iv / 256) + "]" : "the cell holds " + std::to_string(v);
            r.mismatches.push_back(m);
        }
    }
    r.checked = {Operand::D};
    r.passed = r.mismatch_count == 0;
    return r;
}

}  // namespace lanescope::gpu
