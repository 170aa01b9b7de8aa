// PTX text for the NVIDIA probe kernels. One block of 32 threads (a warp) or
// 128 (a warpgroup, wgmma). Every thread loads its registers of each operand
// from the input buffer (lane-major, like the HIP probe), executes the one
// instruction, and stores its D registers (or, for stmatrix, the block copies
// the shared rows back).
//
// PTX ISA sections: mma 9.7.14.5.14, mma.sp 9.7.14.6.3, ldmatrix 9.7.14.5.15,
// stmatrix 9.7.14.5.16, wgmma.mma_async 9.7.15.5.2 with its descriptor
// 9.7.15.5.1.2 and the async-proxy fence 9.7.13.4 (membar/fence).
#include "lanescope/smem.hpp"
#include "lanescope/numbers.hpp"
#include "ptx.hpp"

#include <algorithm>
#include <sstream>

namespace lanescope::gpu::detail {

namespace {


// The register type PTX wants for an accumulator of this element type.
std::string acc_reg_type(const std::string& t) {
    if (t == "f32") return ".f32";
    if (t == "s32") return ".s32";
    if (t == "f64") return ".f64";
    return ".b32";  // f16 pairs
}

struct Gen {
    std::ostringstream body, decl;
    int in_words = 0;
    std::vector<PtxSegment> segments;

    // Reserves a segment (16-byte aligned, so 64-bit loads stay aligned).
    PtxSegment& segment(PtxSegment::Kind kind, Operand op, int lanes, int regs) {
        in_words = (in_words + 3) / 4 * 4;
        PtxSegment s;
        s.kind = kind;
        s.operand = op;
        s.lanes = lanes;
        s.regs = regs;
        s.offset = in_words;
        in_words += kind == PtxSegment::Registers ? lanes * regs : regs;
        segments.push_back(s);
        return segments.back();
    }

    // Declares `count` registers named %<name>0.. of `type` holding `words`
    // 32-bit registers per lane (64-bit registers hold two), loads them from
    // the segment, and returns the brace list "{%a0, %a1}".
    std::string load(const std::string& name, const std::string& type, int words, Operand op, int lanes) {
        const bool wide = type == ".f64";
        const int count = wide ? words / 2 : words;
        const PtxSegment& s = segment(PtxSegment::Registers, op, lanes, words);
        decl << "    .reg " << type << " %" << name << "<" << count << ">;\n";
        decl << "    .reg .b64 %p" << name << ";\n";
        body << "    mad.wide.u32 %p" << name << ", %lane, " << 4 * words << ", %in;\n";
        std::string list = "{";
        for (int i = 0; i < count; ++i) {
            const int byte = 4 * s.offset + (wide ? 8 : 4) * i;
            body << "    ld.global" << (wide ? ".f64" : type == ".b32" ? ".b32" : type) << " %" << name << i << ", [%p"
                 << name << "+" << byte << "];\n";
            list += (i ? ", %" : "%") + name + num(i);
        }
        return list + "}";
    }

    // Declares D registers and returns the brace list.
    std::string declare(const std::string& name, const std::string& type, int words) {
        const int count = type == ".f64" ? words / 2 : words;
        decl << "    .reg " << type << " %" << name << "<" << count << ">;\n";
        std::string list = "{";
        for (int i = 0; i < count; ++i) list += (i ? ", %" : "%") + name + num(i);
        return list + "}";
    }

    void store(const std::string& name, const std::string& type, int words) {
        const bool wide = type == ".f64";
        const int count = wide ? words / 2 : words;
        body << "    mad.wide.u32 %pout, %lane, " << 4 * words << ", %out;\n";
        for (int i = 0; i < count; ++i)
            body << "    st.global" << (wide ? ".f64" : type) << " [%pout+" << (wide ? 8 : 4) * i << "], %" << name << i
                 << ";\n";
    }

    // Copies `words` words from the input segment at `offset` into shared
    // memory, all threads together, then waits for the block.
    void copy_to_shared(int offset, int words, int threads) {
        body << "    mov.u32 %i, %lane;\n"
             << "LS_copy_in:\n"
             << "    setp.ge.u32 %done, %i, " << words << ";\n"
             << "    @%done bra LS_copied_in;\n"
             << "    mul.wide.u32 %off, %i, 4;\n"
             << "    add.s64 %g, %in, %off;\n"
             << "    ld.global.b32 %w, [%g+" << 4 * offset << "];\n"
             << "    mad.lo.u32 %s, %i, 4, %smem;\n"
             << "    st.shared.b32 [%s], %w;\n"
             << "    add.u32 %i, %i, " << threads << ";\n"
             << "    bra LS_copy_in;\n"
             << "LS_copied_in:\n";
    }

    void copy_from_shared(int words, int threads) {
        body << "    mov.u32 %i, %lane;\n"
             << "LS_copy_out:\n"
             << "    setp.ge.u32 %done, %i, " << words << ";\n"
             << "    @%done bra LS_copied_out;\n"
             << "    mad.lo.u32 %s, %i, 4, %smem;\n"
             << "    ld.shared.b32 %w, [%s];\n"
             << "    mul.wide.u32 %off, %i, 4;\n"
             << "    add.s64 %g, %out, %off;\n"
             << "    st.global.b32 [%g], %w;\n"
             << "    add.u32 %i, %i, " << threads << ";\n"
             << "    bra LS_copy_out;\n"
             << "LS_copied_out:\n";
    }
};

}  // namespace

PtxKernel ptx_kernel(const std::string& mnemonic, const NvSpelling& s, const std::string& target, const PtxRegs& regs,
                     int selector) {
    PtxKernel k;
    Gen g;
    const bool wgmma = s.cls == NvClass::Wgmma;
    const bool rows = s.cls == NvClass::LdMatrix || s.cls == NvClass::StMatrix;
    k.threads = wgmma ? 128 : 32;
    int shared_bytes = 0;
    if (wgmma) shared_bytes = wgmma_b_bytes(s.n, s.k, 0);
    if (rows) shared_bytes = int(scattered_rows(s.matrices).words.size()) * 4;

    const std::string instr = mnemonic;
    if (s.cls == NvClass::MmaSync || s.cls == NvClass::MmaSparse) {
        const std::string ab = s.a == "f64" ? ".f64" : ".b32";
        const std::string a = g.load("a", ab, regs.a, Operand::A, 32);
        const std::string b = g.load("b", ab, regs.b, Operand::B, 32);
        const std::string c = g.load("c", acc_reg_type(s.c), regs.c, Operand::C, 32);
        std::string e;
        if (s.cls == NvClass::MmaSparse) e = g.load("e", ".b32", regs.e, Operand::K, 32);
        const std::string d = g.declare("d", acc_reg_type(s.d), regs.d);
        g.body << "    " << instr << " " << d << ", " << a << ", " << b << ", " << c;
        if (s.cls == NvClass::MmaSparse) g.body << ", %e0, " << selector;
        g.body << ";\n";
        g.store("d", acc_reg_type(s.d), regs.d);
        k.out_lanes = 32;
        k.out_regs = regs.d;
    } else if (wgmma) {
        // A in registers, D in registers (it is also C: scale-d = 1 adds it),
        // B in shared memory behind a descriptor.
        const std::string a = g.load("a", ".b32", regs.a, Operand::A, 128);
        const std::string d = g.load("d", acc_reg_type(s.d), regs.d, Operand::C, 128);
        const PtxSegment img = g.segment(PtxSegment::SharedImage, Operand::B, 1, shared_bytes / 4);
        g.copy_to_shared(img.offset, img.regs, k.threads);
        // Generic-proxy stores must be made visible to the async proxy that wgmma reads with.
        g.body << "    fence.proxy.async.shared::cta;\n"
               << "    bar.sync 0;\n";
        const unsigned long long fixed =
            ((unsigned long long)(kWgmmaLbo >> 4) << 16) | ((unsigned long long)(kWgmmaSbo >> 4) << 32);
        g.decl << "    .reg .b64 %desc;\n    .reg .b32 %saddr;\n    .reg .pred %scale_d;\n";
        g.body << "    shr.u32 %saddr, %smem, 4;\n"
               << "    and.b32 %saddr, %saddr, 16383;\n"
               << "    cvt.u64.u32 %desc, %saddr;\n"
               << "    or.b64 %desc, %desc, " << fixed << ";\n"
               << "    setp.ne.u32 %scale_d, %lane, 4294967295;\n"
               << "    wgmma.fence.sync.aligned;\n"
               << "    " << instr << " " << d << ", " << a << ", %desc, %scale_d";
        if (s.a == "f16" || s.a == "bf16") g.body << ", 1, 1, 0";  // imm-scale-a, imm-scale-b, imm-trans-b
        else if (s.a == "tf32" || s.a == "e4m3" || s.a == "e5m2") g.body << ", 1, 1";
        g.body << ";\n"
               << "    wgmma.commit_group.sync.aligned;\n"
               << "    wgmma.wait_group.sync.aligned 0;\n";
        g.store("d", acc_reg_type(s.d), regs.d);
        k.out_lanes = 128;
        k.out_regs = regs.d;
    } else {
        // ldmatrix / stmatrix: rows scattered over shared memory, one row address per lane.
        const PtxSegment img = g.segment(PtxSegment::SharedImage, Operand::D, 1, shared_bytes / 4);
        const PtxSegment addr = g.segment(PtxSegment::LaneAddresses, Operand::D, 1, 32);
        g.copy_to_shared(img.offset, img.regs, k.threads);
        g.body << "    bar.sync 0;\n";
        g.decl << "    .reg .b32 %row;\n    .reg .b64 %paddr;\n";
        g.body << "    mad.wide.u32 %paddr, %lane, 4, %in;\n"
               << "    ld.global.b32 %row, [%paddr+" << 4 * addr.offset << "];\n"
               << "    add.u32 %row, %row, %smem;\n";
        if (s.cls == NvClass::LdMatrix) {
            const std::string d = g.declare("d", ".b32", regs.d);
            g.body << "    " << instr << " " << d << ", [%row];\n";
            g.store("d", ".b32", regs.d);
            k.out_lanes = 32;
            k.out_regs = regs.d;
        } else {
            const std::string d = g.load("d", ".b32", regs.d, Operand::D, 32);
            g.body << "    " << instr << " [%row], " << d << ";\n"
                   << "    bar.sync 0;\n";
            g.copy_from_shared(img.regs, k.threads);
            k.out_is_image = true;
            k.out_lanes = 1;
            k.out_regs = img.regs;
        }
    }

    std::ostringstream ptx;
    // PTX 8.7: the newest form any catalog instruction needs (fp8 mma with f16
    // accumulators); older spellings are accepted under it.
    ptx << "// lanescope probe: " << mnemonic << "\n"
        << ".version 8.7\n"
        << ".target " << target << "\n"
        << ".address_size 64\n\n";
    if (shared_bytes) ptx << ".shared .align 1024 .b8 lanescope_rows[" << shared_bytes << "];\n\n";
    ptx << ".visible .entry lanescope_probe(.param .u64 lanescope_in, .param .u64 lanescope_out)\n{\n"
        << "    .reg .b32 %lane, %i, %w, %s, %smem;\n"
        << "    .reg .b64 %in, %out, %pout, %off, %g;\n"
        << "    .reg .pred %done;\n"
        << g.decl.str()
        << "    ld.param.u64 %in, [lanescope_in];\n"
        << "    ld.param.u64 %out, [lanescope_out];\n"
        << "    cvta.to.global.u64 %in, %in;\n"
        << "    cvta.to.global.u64 %out, %out;\n"
        << "    mov.u32 %lane, %tid.x;\n";
    if (shared_bytes) ptx << "    mov.u32 %smem, lanescope_rows;\n";
    ptx << g.body.str() << "    ret;\n}\n";
    k.text = ptx.str();
    k.inputs = g.segments;
    k.in_words = g.in_words;
    return k;
}

}  // namespace lanescope::gpu::detail

namespace lanescope::gpu {

std::string ptx_probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods) {
    const auto s = detail::nv_spelling(ins);
    if (!s) throw Error(ins.mnemonic + " is not an NVIDIA instruction (mma.sync, mma.sp, ldmatrix, stmatrix, wgmma)");
    const std::vector<Operand> ops = operands_of(ins);
    auto regs_of = [&](Operand op, Operand fallback) {
        const Operand use = std::find(ops.begin(), ops.end(), op) != ops.end() ? op : fallback;
        if (in_shared_memory(ins, use, mods)) return 0;  // wgmma B: a descriptor, no registers
        return std::find(ops.begin(), ops.end(), use) != ops.end() ? operand_regs(ins, use, mods) : 0;
    };
    detail::PtxRegs regs;
    regs.d = regs_of(Operand::D, Operand::D);
    if (s->cls != detail::NvClass::LdMatrix && s->cls != detail::NvClass::StMatrix) {
        regs.a = regs_of(Operand::A, Operand::A);
        regs.b = regs_of(Operand::B, Operand::B);
        regs.c = regs_of(Operand::C, Operand::D);  // wgmma: C is D's registers
        regs.e = regs_of(Operand::K, Operand::K);
    }
    return detail::ptx_kernel(ins.mnemonic, *s, detail::ptx_target(*s, t), regs, detail::sparsity_selector(mods)).text;
}

}  // namespace lanescope::gpu
