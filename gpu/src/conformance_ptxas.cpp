// ptxas as a witness of the NVIDIA catalog: every PTX spelling the
// catalog holds (core/catalog/nvidia.txt's rows with their aliases and every wgmma
// N; every spelling of core/catalog/blackwell.txt's templates, tcgen05.mma with A
// from a descriptor and from Tensor Memory) is assembled for every NVIDIA target.
// A spelling must assemble exactly on the targets the catalog claims for it
// (claimed_on) and be refused on every other one.
//
// Batched: one PTX file per target holds every spelling, one per line; ptxas
// reports each refusal with its line, so a target costs one ptxas call. Where no
// ptxas is installed the check says "no compiler here" once and passes.
#include "lanescope/blackwell.hpp"
#include "lanescope/gpu.hpp"

#include "process.hpp"

#include <chrono>
#include <cstdlib>
#include <map>
#include <ostream>
#include <set>
#include <sys/stat.h>

namespace lanescope::gpu {

namespace {

std::string vec(const char* prefix, int count, int start) {
    std::string s = "{";
    for (int i = 0; i < count; ++i) s += (i ? "," : "") + std::string(prefix) + std::to_string(start + i);
    return s + "}";
}

int stated(const Instruction& ins, Operand op) {
    for (const auto& [o, n] : ins.stated_regs)
        if (o == op) return n;
    return 0;
}

// The register file a value of type t sits in: .f32 for f32, .f64 pairs for f64, else .b32.
std::string regs_of(ElemType t, Operand op, int count, int start) {
    if (t == ElemType::F64) return vec("fd", count / 2, start);
    if (t == ElemType::F32 && (op == Operand::C || op == Operand::D)) return vec("f", count, start);
    return vec("r", count, start);
}

// One PTX statement using `ins` with well-typed operands (empty: not a form this check writes).
std::string statement(const Instruction& ins) {
    const std::string& p = ins.mnemonic;
    const bool half = ins.tmem_shape == "16x32bx2";
    switch (ins.kind) {
        case LayoutKind::MmaSync:
        case LayoutKind::MmaSparse:
        case LayoutKind::MmaBlockScale: {
            const ElemType d = ins.d.value_or(ins.c);
            std::string ops = regs_of(d, Operand::D, stated(ins, Operand::D), 100) + ", " +
                              regs_of(ins.a, Operand::A, stated(ins, Operand::A), 200) + ", " +
                              regs_of(ins.b, Operand::B, stated(ins, Operand::B), 300) + ", " +
                              regs_of(ins.c, Operand::C, stated(ins, Operand::C), 400);
            if (ins.sparse()) ops += ", r8, 0";
            if (ins.scale_vec > 0) ops += ", r30, {h0, h1}, r31, {h2, h3}";
            return p + " " + ops + ";";
        }
        case LayoutKind::LdStMatrix: {
            const std::string d = vec("r", stated(ins, Operand::D), 10);
            return ins.store ? p + " [d0], " + d + ";" : p + " " + d + ", [d0];";
        }
        case LayoutKind::Wgmma: {
            const ElemType d = ins.d.value_or(ins.c);
            const std::string dr = regs_of(d, Operand::D, stated(ins, Operand::D), 100);
            const bool f16 = ins.a == ElemType::F16 || ins.a == ElemType::BF16;
            const bool integer = ins.a == ElemType::S8 || ins.a == ElemType::U8;
            return p + " " + dr + ", d0, d1, p" + (f16 ? ", 1, 1, 0, 0" : integer ? "" : ", 1, 1") + ";";
        }
        case LayoutKind::Tcgen05Mma:
            return p + " [r0], " + (ins.a_in_tmem ? "[r2]" : "d0") + ", d1" + (ins.tcgen05_sparse ? ", [r3]" : "") + ", r1" +
                   (ins.scale_vec > 0 ? ", [r4], [r5]" : "") + ", p;";
        case LayoutKind::Tcgen05LdSt: {
            const int n = stated(ins, Operand::D);
            const std::string imm = half ? ", 1" : "";
            if (p.find(".red.") != std::string::npos) {
                const bool f = ins.a == ElemType::F32;
                return p + " " + vec(f ? "f" : "r", n, 10) + ", " + (f ? "f1" : "r1") + ", [r0]" + imm + ";";
            }
            return ins.store ? p + " [r0]" + imm + ", " + vec("r", n, 10) + ";" : p + " " + vec("r", n, 10) + ", [r0]" + imm + ";";
        }
        case LayoutKind::Tcgen05Cp: return p + " [r0], d0;";
        default: return "";
    }
}

const char* kHeader =
    ".version 9.0\n.target {T}\n.address_size 64\n.visible .entry lanescope_conformance()\n{\n"
    "  .reg .b32 r<600>;\n  .reg .f32 f<600>;\n  .reg .f64 fd<600>;\n  .reg .b16 h<8>;\n  .reg .b64 d<4>;\n  .reg .pred p;\n";

bool executable(const std::string& path) {
    struct stat st {};
    return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

std::string find_ptxas(const std::string& given) {
    if (!given.empty()) return given;
    if (const char* env = std::getenv("LANESCOPE_PTXAS"); env && *env) return env;
    for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/local/cuda-13.0/bin/ptxas"})
        if (executable(p)) return p;
    if (const char* path = std::getenv("PATH"))
        for (size_t at = 0;;) {
            const std::string s = path;
            const size_t end = s.find(':', at);
            const std::string dir = s.substr(at, end == std::string::npos ? std::string::npos : end - at);
            if (!dir.empty() && executable(dir + "/ptxas")) return dir + "/ptxas";
            if (end == std::string::npos) break;
            at = end + 1;
        }
    return "";
}

struct Line {
    const Instruction* ins;
    std::string spelling;  // as assembled (mnemonic or alias)
    std::string text;      // the PTX statement
};

}  // namespace

ConformanceResult run_ptxas_conformance(const Catalog& cat, const PtxasConformanceOptions& o, std::ostream& log) {
    const auto t0 = std::chrono::steady_clock::now();
    ConformanceResult result;
    std::vector<const Target*> targets;
    for (const Target& t : cat.targets())
        if (t.vendor() == Vendor::NVIDIA &&
            (o.targets.empty() || std::find(o.targets.begin(), o.targets.end(), t.gfx) != o.targets.end()))
            targets.push_back(&t);
    const std::string ptxas = find_ptxas(o.ptxas);
    if (ptxas.empty() || !executable(ptxas)) {
        log << "conformance --ptxas: no compiler here (no ptxas at " << (o.ptxas.empty() ? "/usr/local/cuda/bin or on PATH" : o.ptxas)
            << "); the NVIDIA spellings were not assembled\n";
        for (const Target* t : targets) {
            TargetSummary s;
            s.target = t->gfx;
            s.skipped = s.no_compiler = true;
            s.skip_reason = "no compiler here (ptxas)";
            result.targets.push_back(s);
        }
        return result;
    }
    // Every spelling: the NVIDIA rows of the catalog (PTX aliases too), then Blackwell's templates.
    const std::vector<Instruction> blackwell = blackwell_spellings();
    std::vector<Line> lines;
    auto add = [&](const Instruction& ins) {
        const std::string s = statement(ins);
        if (s.empty()) return;
        lines.push_back({&ins, ins.mnemonic, s});
        for (const std::string& a : ins.aliases) {
            if (a.find('.') == std::string::npos || a == ins.mnemonic) continue;  // short names are lanescope's
            Instruction alt = ins;
            alt.mnemonic = a;
            lines.push_back({&ins, a, statement(alt)});
        }
    };
    for (const Instruction& ins : cat.instructions())
        if (ins.vendor() == Vendor::NVIDIA) add(ins);
    // tcgen05.mma's collector qualifiers and .ashift (accepted by find_instruction, same layouts):
    // each spelling once with one of them, legal exactly where the plain spelling is.
    std::vector<Instruction> qualified;
    for (const Instruction& ins : blackwell) {
        if (ins.kind != LayoutKind::Tcgen05Mma) continue;
        Instruction q = ins;
        q.mnemonic += ins.ws ? ".collector::b1::lastuse" : ins.a_in_tmem ? ".ashift.collector::a::lastuse" : ".collector::a::use";
        qualified.push_back(std::move(q));
    }
    for (const Instruction& ins : blackwell) add(ins);
    for (const Instruction& ins : qualified) add(ins);
    log << "conformance --ptxas: " << lines.size() << " spellings x " << targets.size() << " targets with " << ptxas << "\n";

    std::string dir = o.workdir.empty() ? detail::make_temp_dir("lanescope-ptxas") : o.workdir;
    for (const Target* t : targets) {
        TargetSummary sum;
        sum.target = t->gfx;
        sum.compiler = ptxas;
        std::string head = kHeader;
        head.replace(head.find("{T}"), 3, t->gfx);
        const int first = 1 + static_cast<int>(std::count(head.begin(), head.end(), '\n'));
        std::string src = head;
        for (const Line& l : lines) src += "  " + l.text + "\n";
        src += "  ret;\n}\n";
        const std::string ptx = dir + "/" + t->gfx + ".ptx", err = dir + "/" + t->gfx + ".err";
        detail::write_file_atomic(ptx, src);
        std::string why;
        const int rc = detail::run_process({ptxas, "-arch=" + t->gfx, ptx, "-o", dir + "/" + t->gfx + ".cubin"}, "", err, &why);
        const std::string errors = detail::read_file(err);
        std::map<int, std::string> refused;  // line index -> first message
        for (size_t at = errors.find("line "); at != std::string::npos; at = errors.find("line ", at + 1)) {
            // "ptxas FILE, line N; error   : ..." (warnings and advisories do not refuse a spelling).
            const size_t semi = errors.find(';', at);
            if (semi == std::string::npos || errors.compare(semi, 8, "; error ") != 0) continue;
            const int n = std::atoi(errors.c_str() + at + 5) - first;
            const size_t eol = errors.find('\n', at);
            const size_t colon = errors.find(": ", at);
            if (n >= 0 && static_cast<size_t>(n) < lines.size() && !refused.count(n))
                refused[n] = errors.substr(colon == std::string::npos ? at : colon + 2,
                                           (eol == std::string::npos ? errors.size() : eol) - (colon == std::string::npos ? at : colon + 2));
        }
        if (rc < 0 || (rc != 0 && refused.empty())) {
            sum.skipped = true;
            sum.skip_reason = "ptxas failed without naming a line: " + (why.empty() ? errors.substr(0, 300) : why);
            result.targets.push_back(sum);
            ConformanceCheck k;
            k.target = t->gfx;
            k.builtin = "(ptxas)";
            k.detail = sum.skip_reason;
            result.checks.push_back(k);
            continue;
        }
        std::set<std::string> claimed_names, passed_names;
        for (size_t i = 0; i < lines.size(); ++i) {
            const Line& l = lines[i];
            ConformanceCheck k;
            k.target = t->gfx;
            k.builtin = l.spelling + (l.ins->a_in_tmem ? " [a-tmem]" : "");
            k.mnemonic = l.spelling;
            // Blackwell spellings: what find_instruction accepts on this target (the qualified
            // tcgen05.mma forms included); the other NVIDIA rows: their families from min_target on.
            if (ptx_only(*l.ins)) {
                k.negative = true;  // PTX allows it, CUDA 13.0 ptxas must refuse it (the row says so)
            } else if (!l.ins->targets.empty()) {
                try {
                    cat.find_instruction(*t, l.spelling);
                    k.negative = false;
                } catch (const Error&) {
                    k.negative = true;
                }
            } else {
                k.negative = !claimed_on(*l.ins, *t);
            }
            const auto it = refused.find(static_cast<int>(i));
            const bool accepted = it == refused.end();
            k.passed = accepted != k.negative;
            k.detail = accepted ? (k.negative ? "ptxas accepts it, the catalog does not claim " + t->gfx : "assembles")
                                : (k.negative ? "refused: " + it->second : "ptxas refuses it: " + it->second);
            if (k.negative) {
                ++sum.negatives;
                sum.negatives_passed += k.passed;
            } else {
                ++sum.builtins;
                sum.builtins_passed += k.passed;
            }
            result.checks.push_back(std::move(k));
        }
        result.targets.push_back(sum);
    }
    for (const TargetSummary& s : result.targets) {
        log << "  " << s.target << ": ";
        if (s.skipped) {
            log << s.skip_reason << "\n";
            continue;
        }
        log << s.builtins_passed << "/" << s.builtins << " claimed spellings assemble; " << s.negatives_passed << "/"
            << s.negatives << " unclaimed spellings refused\n";
    }
    int shown = 0;
    for (const ConformanceCheck& k : result.checks) {
        if (k.passed && !o.verbose) continue;
        if (!k.passed && shown++ >= 50) continue;
        log << (k.passed ? "  ok   " : "  FAIL ") << k.target << " " << k.builtin << (k.negative ? " (must not assemble)" : "")
            << ": " << k.detail << "\n";
    }
    if (!o.keep && o.workdir.empty()) detail::remove_tree(dir);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    log << "conformance --ptxas: " << result.checks.size() << " checks, " << result.failures() << " failed, " << secs << " s"
        << (o.keep ? " (work files in " + dir + ")" : "") << "\n";
    return result;
}

}  // namespace lanescope::gpu
