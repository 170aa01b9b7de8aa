// Subcommands that check layouts against a device and the real compiler:
//   verify       run the probe on a GPU (--device auto: AMD through HIP, else NVIDIA
//                through CUDA; or --device hip / cuda) or the software device
//   conformance  compile every builtin with each target's compiler witness (clang-22,
//                clang-19 for gfx940/gfx941) and compare with the catalog; with --ptxas,
//                assemble every NVIDIA PTX spelling with ptxas on every sm_ target
// Exit status: 0 all passed, 4 no device ("no AMD GPU found: ...", "no NVIDIA GPU
// found: ..."), 5 a check
// failed, 1 bad input, 2 usage.
#include "common.hpp"

#include "lanescope/files.hpp"

#include <csignal>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#ifdef LANESCOPE_HAVE_GPU
#include "lanescope/gpu.hpp"
#endif

namespace lscli {

namespace {
constexpr int kNoDevice = 4;
constexpr int kCheckFailed = 5;

#ifdef LANESCOPE_HAVE_GPU
namespace gpu = lanescope::gpu;

struct VerifyArgs {
    bool all = false;
    bool every_modifier = false;
    bool smem = false;
    std::string device = "auto";
    std::string corrupt;
    size_t max_mismatches = 8;
    CLI::App* sub = nullptr;
};

std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (c == '\n') {
            o += "\\n";
            continue;
        }
        o += c;
    }
    return o;
}

std::string report_json(const gpu::Report& r) {
    std::string s = "{\"instruction\": \"" + json_escape(r.instruction) + "\", \"target\": \"" + r.target +
                    "\", \"modifiers\": \"" + json_escape(r.modifiers) + "\", \"device\": \"" + json_escape(r.device) +
                    "\", \"passed\": " + (r.passed ? "true" : "false") + ", \"probes\": " + std::to_string(r.probes) +
                    ", \"slots_checked\": " + std::to_string(r.slots_checked) +
                    ", \"mismatch_count\": " + std::to_string(r.mismatch_count) + ", \"mismatches\": [";
    for (size_t i = 0; i < r.mismatches.size(); ++i) {
        const gpu::Mismatch& m = r.mismatches[i];
        s += std::string(i ? ", " : "") + "{\"probe\": \"" + json_escape(m.probe) + "\", \"d\": [" +
             std::to_string(m.d.block) + ", " + std::to_string(m.d.row) + ", " + std::to_string(m.d.col) +
             "], \"reg\": " + std::to_string(m.at.reg) + ", \"lane\": " + std::to_string(m.at.lane) +
             ", \"expected\": " + std::to_string(m.expected) + ", \"found\": " + std::to_string(m.found) +
             ", \"explanation\": \"" + json_escape(m.explanation) + "\"}";
    }
    return s + "]}";
}

// --smem: the shared-memory probes (wgmma B and SS A through descriptors, TMA boxes) on an H200.
int run_verify_smem(const Options& o, const VerifyArgs& v) {
    const bool json = o.format == "json";
    if (!json && o.format != "table") throw ls::Error("unknown format '" + o.format + "' for verify; legal: table, json");
    if (v.all || v.every_modifier)
        throw ls::Error("--smem runs its own set of configurations; it does not go with --all or --every-modifier");
    // Every other option would be ignored: refused by name.
    static const std::set<std::string> takes = {"smem", "device", "corrupt", "max-mismatches", "format", "out", "help"};
    for (const CLI::Option* opt : v.sub->get_options())
        if (opt->count() > 0 && !opt->get_lnames().empty() && !takes.count(opt->get_lnames().front()))
            throw ls::Error("--smem runs its own set of wgmma and TMA configurations (docs/gpu.md); --" +
                            opt->get_lnames().front() + " does not go with it (legal with --smem: --device, --corrupt, "
                            "--max-mismatches, --format, --out)");
    if (v.device != "cuda" && v.device != "auto")
        throw ls::Error("--smem needs --device cuda (or auto): the probes run wgmma and TMA on an NVIDIA Hopper GPU");
    const gpu::SmemCorruption corruption =
        v.corrupt.empty() ? gpu::SmemCorruption::None : gpu::parse_smem_corruption(v.corrupt);
    std::string why;
    std::unique_ptr<gpu::CudaDevice> dev = gpu::CudaDevice::open(&why);
    if (!dev) {
        err_printf("lanescope-cli: %s\n", why.c_str());
        return kNoDevice;
    }
    const gpu::SmemReport r = gpu::verify_smem(*dev, gpu::smem_cases(), corruption, v.max_mismatches);
    emit(o, gpu::render_smem_report(r, json));
    return r.passed() ? 0 : kCheckFailed;
}

// One instruction, target and set of modifiers to verify.
struct Job {
    const ls::Target* t;
    const ls::Instruction* ins;
    ls::ResolvedModifiers mods;
};

// No device opened: what is said (an unknown --device is an error; a missing GPU, exit 4 with what it needs).
int no_device(const Options& o, const VerifyArgs& v, std::string why) {
    if (v.device != "auto" && v.device != "hip" && v.device != "cuda" && v.device != "software") throw ls::Error(why);
    // A Blackwell entry asked for by name: say plainly which GPU it needs (none is here).
    if (!v.all && (v.device == "cuda" || v.device == "auto")) try {
            const ls::Catalog& c = catalog(o);
            const ls::Target& t = c.find_target(o.arch);
            const std::string need = gpu::blackwell_need(c.find_instruction(t, o.instruction), t, 0);
            if (!need.empty()) why += "\n" + need;
        } catch (const ls::Error&) {
        }
    err_printf("lanescope-cli: %s\n", why.c_str());
    return kNoDevice;
}

// --all: which instructions are checked on which targets, each wave size.
std::vector<Job> all_jobs(const Options& o, const VerifyArgs& v, const ls::Catalog& cat, const gpu::Device& dev) {
    // AMD: one target per family (or only --arch's family), every
    // instruction, each wave size. NVIDIA: every row once, on the oldest
    // target that accepts it (so the PTX JIT also checks that claim), or on
    // --arch's target. A GPU checks its own vendor's rows only.
    std::vector<Job> jobs;
    const bool one_arch = v.sub->count("--arch") > 0;
    const ls::Target* only = one_arch ? &cat.find_target(o.arch) : nullptr;
    const bool gpu_is_amd = dynamic_cast<const gpu::HipDevice*>(&dev) != nullptr;
    const bool gpu_is_nvidia = dynamic_cast<const gpu::CudaDevice*>(&dev) != nullptr;
    for (ls::Family f : ls::all_families()) {
        if (gpu_is_nvidia) break;
        if (ls::vendor_of(f) != ls::Vendor::AMD) continue;
        const ls::Target* t = nullptr;
        if (only) {
            if (only->family == f) t = only;
        } else {
            for (const auto& x : cat.targets())
                if (x.family == f) {
                    t = &x;
                    break;
                }
        }
        if (!t) continue;
        for (const ls::Instruction* ins : cat.on(f))
            for (int wave : t->wave_sizes) {
                ls::Modifiers m;
                m.wave = wave;
                jobs.push_back({t, ins, ls::resolve_modifiers(*ins, *t, m)});
            }
    }
    for (const ls::Instruction& ins : cat.instructions()) {
        if (gpu_is_amd || ins.vendor() != ls::Vendor::NVIDIA) continue;
        if (only && (only->vendor() != ls::Vendor::NVIDIA || !ins.on(only->family))) continue;
        const ls::Target* t = only;
        for (const auto& x : cat.targets())
            if (!t && x.gfx == ins.min_target) t = &x;
        for (const auto& x : cat.targets())
            if (!t && ins.on(x.family)) t = &x;
        if (!t) continue;
        for (int wave : ls::wave_sizes(ins, *t)) {
            ls::Modifiers m;
            m.wave = wave;
            jobs.push_back({t, &ins, ls::resolve_modifiers(ins, *t, m)});
        }
    }
    return jobs;
}

// --every-modifier: every legal combination of the modifier fields, per instruction and wave.
std::vector<Job> every_modifier_jobs(const std::vector<Job>& jobs) {
    std::vector<Job> expanded;
    for (const Job& j : jobs) {
        // Field by field, each one's legal values given the fields before it
        // (abid's depend on cbsz); the gfx1250 controls included.
        std::vector<ls::Modifiers> todo(1);
        todo[0].wave = j.mods.wave;
        for (const char* field : {"cbsz", "abid", "blgp", "opsel", "opsel_a", "opsel_b", "selector", "matrix_a_fmt",
                                  "matrix_b_fmt", "matrix_a_scale", "matrix_b_scale", "matrix_a_scale_fmt",
                                  "matrix_b_scale_fmt", "index_key"}) {
            std::vector<ls::Modifiers> next;
            for (const ls::Modifiers& given : todo) {
                std::vector<int> values;
                for (const ls::ModifierRange& r :
                     ls::modifier_ranges(*j.ins, *j.t, ls::resolve_modifiers(*j.ins, *j.t, given)))
                    if (r.name == field) values = r.values;
                if (values.empty()) next.push_back(given);
                for (int value : values) {
                    ls::Modifiers c = given;
                    ls::set_modifier(c, field, value);
                    next.push_back(c);
                }
            }
            todo = next;
        }
        for (const ls::Modifiers& given : todo) expanded.push_back({j.t, j.ins, ls::resolve_modifiers(*j.ins, *j.t, given)});
    }
    return expanded;
}

// --corrupt: whether it applies to the jobs (refused where it cannot), and the jobs (indices) in which it moves
// no element.
std::set<size_t> jobs_corruption_misses(const VerifyArgs& v, const std::vector<Job>& jobs,
                                        const gpu::Corruption& corruption) {
    std::set<size_t> moves_nothing;
    // Every corruption must apply somewhere: an operand the instruction has, lanes inside its wave.
    bool applies = false;
    for (const Job& j : jobs) {
        const auto ops = gpu::probe_operands(*j.ins);  // wgmma: B in shared memory too
        const bool has = std::find(ops.begin(), ops.end(), corruption.operand) != ops.end();
        if (!v.all && !has) {
            std::string legal;
            for (ls::Operand op : ops) legal += (legal.empty() ? "" : ", ") + std::string(ls::operand_name(op));
            throw ls::Error("--corrupt: " + j.ins->mnemonic + " has no operand " +
                            std::string(ls::operand_name(corruption.operand)) + "; legal operands: " + legal);
        }
        // The lanes are the operand's, as the probe reads it (wgmma's B: one shared-memory image, no lanes),
        // checked before anything is said about what a swap would move.
        std::optional<gpu::ClaimedLayout> probed;
        if (has) probed = gpu::probe_layout(*j.ins, *j.t, corruption.operand, j.mods);
        const int lanes = probed ? probed->lanes : j.mods.wave;
        const bool swap = corruption.kind == gpu::Corruption::SwapLanes;
        const bool lanes_in = !swap || (corruption.lane_a < lanes && corruption.lane_b < lanes);
        if (!v.all && has && swap && lanes <= 1) {
            const std::string X(ls::operand_name(corruption.operand));
            throw ls::Error("--corrupt " + v.corrupt + ": " + X + " of " + j.ins->mnemonic + " lives in shared memory " +
                            "(the device reads it through its matrix descriptor), so it has no register lanes to "
                            "swap; legal: " + X + ":shift-regs (shifts its 32-bit words), or swap-lanes on a "
                            "register operand");
        }
        if (!v.all && !lanes_in) {
            std::vector<int> outside;
            for (int l : {corruption.lane_a, corruption.lane_b})
                if (l >= lanes) outside.push_back(l);
            const std::string span = lanes == j.mods.wave ? "wave" + std::to_string(lanes)
                                                          : "the " + std::to_string(lanes) + " lanes of " +
                                                                std::string(ls::operand_name(corruption.operand));
            throw ls::Error("--corrupt: " +
                            (outside.size() == 2 ? "lanes " + std::to_string(outside[0]) + " and " +
                                                       std::to_string(outside[1]) + " are"
                                                 : "lane " + std::to_string(outside[0]) + " is") +
                            " outside " + span + "; legal: 0.." + std::to_string(lanes - 1));
        }
        // A corruption that moves nothing would PASS while "corrupted": refused for one
        // instruction, and those it moves nothing in are not run (--all, --every-modifier).
        std::string nothing;
        if (has && lanes_in) nothing = gpu::why_nothing_moves(*probed, corruption);
        if (!nothing.empty() && jobs.size() == 1)
            throw ls::Error("--corrupt " + v.corrupt + " moves nothing in " + j.ins->mnemonic + " on " + j.t->gfx +
                            ": " + nothing);
        if (!nothing.empty() || (has && !lanes_in)) moves_nothing.insert(&j - jobs.data());  // lanes it lacks: no move
        applies = applies || (has && lanes_in && nothing.empty());
    }
    if (!applies)
        throw ls::Error("--corrupt " + v.corrupt + " applies to none of the instructions checked (no operand " +
                        std::string(ls::operand_name(corruption.operand)) +
                        ", lanes outside the wave, or it moves no element); legal: an operand they have, lanes "
                        "inside their wave that hold different elements");
    return moves_nothing;
}

// What the jobs' runs came to: the text printed and how many passed, failed, were not runnable or not run.
struct VerifyTally {
    std::string text;
    int passed = 0, failed = 0, skipped = 0, unmoved = 0;
};

// Runs each job on the device: its report (table or JSON), or why it was skipped.
VerifyTally run_jobs(const VerifyArgs& v, bool json, const std::vector<Job>& jobs,
                     const std::set<size_t>& moves_nothing, const gpu::Corruption* corruption, gpu::Device& dev) {
    VerifyTally n;
    std::string& text = n.text;
    text = json ? "[\n" : "";
    bool first = true;
    for (const Job& j : jobs) {
        if (moves_nothing.count(static_cast<size_t>(&j - jobs.data()))) {
            ++n.unmoved;
            if (!json) text += "SKIP " + j.ins->mnemonic + " on " + j.t->gfx +
                               (j.mods.describe().empty() ? "" : " [" + j.mods.describe() + "]") + ": --corrupt " +
                               v.corrupt + " moves no element here\n";
            continue;
        }
        std::string unsupported;
        if (!dev.supports(*j.ins, *j.t, &unsupported)) {
            if (!v.all) throw ls::Error(unsupported);
            ++n.skipped;
            continue;
        }
        gpu::VerifyOptions opts;
        opts.max_mismatches = v.max_mismatches;
        if (corruption) {
            const std::vector<ls::Operand> ops = gpu::probe_operands(*j.ins);
            if (std::find(ops.begin(), ops.end(), corruption->operand) != ops.end())
                opts.claimed = gpu::corrupted_layouts(*j.ins, *j.t, j.mods, *corruption);
        }
        gpu::Report r;
        try {
            r = gpu::verify(*j.ins, *j.t, j.mods, dev, opts);
        } catch (const ls::Error& e) {
            // One instruction alone: its refusal is the answer. Many (--all, --every-modifier):
            // the rest still run, and this one is counted and named as not runnable.
            if (jobs.size() == 1) throw;
            ++n.skipped;
            if (!json) text += "SKIP " + j.ins->mnemonic + " on " + j.t->gfx +
                               (j.mods.describe().empty() ? "" : " [" + j.mods.describe() + "]") + ": " + e.what() + "\n";
            continue;
        }
        (r.passed ? n.passed : n.failed)++;
        if (json) {
            text += std::string(first ? "" : ",\n") + report_json(r);
            first = false;
            continue;
        }
        text += r.summary() + "\n";
        for (const gpu::Mismatch& m : r.mismatches) text += "    " + m.text() + "\n";
        if (r.mismatch_count > long(r.mismatches.size()))
            text += "    ... " + std::to_string(r.mismatch_count - long(r.mismatches.size())) + " more\n";
    }
    return n;
}

int run_verify(const Options& o, const VerifyArgs& v) {
    if (v.smem) return run_verify_smem(o, v);
    std::string why;
    std::unique_ptr<gpu::Device> dev = gpu::make_device(v.device, &why);
    if (!dev) return no_device(o, v, why);
    const ls::Catalog& cat = catalog(o);
    const bool json = o.format == "json";
    if (!json && o.format != "table") throw ls::Error("unknown format '" + o.format + "' for verify; legal: table, json");
    std::vector<Job> jobs;
    if (v.all) {
        jobs = all_jobs(o, v, cat, *dev);
    } else {
        Resolved r = resolve(o);
        jobs.push_back({r.target, r.ins, r.query.mods});
    }
    if (v.every_modifier) jobs = every_modifier_jobs(jobs);
    std::unique_ptr<gpu::Corruption> corruption;
    std::set<size_t> moves_nothing;  // jobs (indices) in which the corruption moves no element
    if (!v.corrupt.empty()) {
        corruption = std::make_unique<gpu::Corruption>(gpu::parse_corruption(v.corrupt));
        moves_nothing = jobs_corruption_misses(v, jobs, *corruption);
    }

    VerifyTally n = run_jobs(v, json, jobs, moves_nothing, corruption.get(), *dev);
    std::string& text = n.text;
    if (json) {
        text += "\n]\n";
    } else {
        text += "device: " + dev->name() + (corruption ? "; claimed layout corrupted: " + gpu::describe(*corruption) : "") +
                "\n" + (dev->toolchain().empty() ? "" : dev->toolchain() + "\n") + std::to_string(n.passed) +
                " passed, " + std::to_string(n.failed) + " failed" +
                (n.skipped ? ", " + std::to_string(n.skipped) + " not runnable on this device" : "") +
                (n.unmoved ? ", " + std::to_string(n.unmoved) + " not run (the corruption moves nothing there)" : "") +
                "\n";
    }
    emit(o, text);
    return n.failed ? kCheckFailed : 0;
}

struct ConformanceArgs {
    gpu::ConformanceOptions opts;
    bool ptxas = false;           // --ptxas: the NVIDIA witness instead of the AMD compilers
    std::string ptxas_path;
    int tool_seconds = 300;
};

int run_conformance_cmd(const Options& o, const ConformanceArgs& a) {
    gpu::ConformanceOptions opts = a.opts;
    const ls::Catalog& cat = catalog(o);
    if (a.ptxas || !a.ptxas_path.empty()) {
        gpu::PtxasConformanceOptions p;
        for (const std::string& t : opts.targets) {
            if (t == "all") continue;
            const ls::Target& tgt = cat.find_target(t);
            if (tgt.vendor() != ls::Vendor::NVIDIA)
                throw ls::Error("--ptxas judges NVIDIA targets; " + tgt.gfx + " is AMD's (legal: sm_80 ... sm_121f, or all)");
            p.targets.push_back(tgt.gfx);
        }
        p.ptxas = a.ptxas_path;
        p.keep = opts.keep;
        p.verbose = opts.verbose;
        gpu::ConformanceResult r = gpu::run_ptxas_conformance(cat, p, ls::files::stdout_stream());
        ls::files::stdout_stream().flush();
        return r.passed() ? 0 : kCheckFailed;
    }
    std::vector<std::string> gfx;
    for (const std::string& t : opts.targets) gfx.push_back(t == "all" ? t : cat.find_target(t).gfx);
    opts.targets = gfx;
    if (opts.jobs < 1) throw ls::Error("--jobs must be at least 1");
    opts.tool_seconds = a.tool_seconds;
    gpu::ConformanceResult r;
    try {
        r = gpu::run_conformance(cat, opts, ls::files::stdout_stream());
    } catch (const ls::Error& e) {
        // Stopped by a signal: the temporary files are gone; end as that signal says.
        if (const int sig = gpu::interrupted_signal()) {
            ls::files::stdout_stream().flush();
            err_printf("lanescope-cli: conformance: %s\n", e.what());
            std::signal(sig, SIG_DFL);
            std::raise(sig);
        }
        throw;
    }
    ls::files::stdout_stream().flush();
    return r.passed() ? 0 : kCheckFailed;
}
#endif
}  // namespace

void register_verify_commands(CLI::App& app, Options& o, std::vector<Command>& out) {
#ifdef LANESCOPE_HAVE_GPU
    // The arguments belong to this command line: each run (in `out`) owns its own, CLI11 writes into them.
    const auto verify_args = std::make_shared<VerifyArgs>();
    VerifyArgs& v = *verify_args;
    if (registers(o, "verify")) {
        CLI::App* sub = app.add_subcommand(
            "verify", "run probes that check every element's location on an AMD or NVIDIA GPU (or --device software); "
                      "exit 4 when no GPU is found, 5 when a layout disagrees");
        v.sub = sub;
        if (sets_up(o, "verify")) {
            add_target_options(sub, o, false);
            sub->add_flag("--all", v.all, "every instruction (of --arch's family if given, else of every family)");
            sub->add_flag("--every-modifier", v.every_modifier,
                          "every legal combination of cbsz/abid/blgp/opsel (and the scale selects), not only the given ones");
            sub->add_option("--device", v.device,
                            "auto (an AMD GPU through HIP, else an NVIDIA GPU through CUDA), hip, cuda, software (catalog semantics)")
                ->capture_default_str();
            sub->add_flag("--smem", v.smem,
                          "NVIDIA shared memory (sm_90a GPU): wgmma B and SS A read through descriptors at every swizzle, "
                          "both major-nesses, LBO/SBO, start and base offsets, raw descriptors; TMA boxes at every swizzle; "
                          "each element compared with lanescope's claim");
            sub->add_option("--corrupt", v.corrupt,
                            "check a deliberately wrong layout: OPERAND:swap-lanes:L1:L2 or OPERAND:shift-regs; with --smem: "
                            "no-swizzle, base-offset-added, start-anchored, swap-lbo-sbo, no-padding");
            add_size_option(sub, "--max-mismatches", v.max_mismatches, 0, 1000000, "mismatches to print per instruction (default 8)");
        }
        out.push_back({sub, [&o, verify_args] { return run_verify(o, *verify_args); }});
    }
    if (!registers(o, "conformance")) return;

    const auto conformance_args = std::make_shared<ConformanceArgs>();
    ConformanceArgs& c = *conformance_args;
    CLI::App* conf = app.add_subcommand(
        "conformance", "compile every catalog builtin for each target with its compiler witness (clang-22; clang-19 for "
                       "gfx940/gfx941) and compare the disassembly (mnemonic, opcode, modifiers, registers) with the "
                       "catalog; exit 5 on any failure");
    if (sets_up(o, "conformance")) {
        conf->add_option("-t,--target", c.opts.targets,
                         "only these targets, or all (every AMD target; default: gfx908 gfx90a gfx942 gfx950 gfx1100 gfx1200 gfx1250)");
        conf->add_option("--clang", c.opts.clang,
                         "the AMD-capable C compiler for every target (default: each target's witness, clang-22 or clang-19)");
        conf->add_option("--objdump", c.opts.objdump,
                         "the disassembler (default: the llvm-objdump of the compiler's version, e.g. llvm-objdump-22)");
        add_int_option(conf, "-j,--jobs", c.opts.jobs, 1, 256, "parallel compiles");
        conf->add_flag("--ptxas", c.ptxas,
                       "NVIDIA: assemble every PTX spelling of the catalog with CUDA's ptxas for each NVIDIA target "
                       "(--target: these sm_ targets) and expect it exactly where the catalog claims it");
        conf->add_option("--ptxas-path", c.ptxas_path, "the ptxas to use (implies --ptxas; default /usr/local/cuda/bin/ptxas, then PATH)");
        add_int_option(conf, "--tool-timeout", c.tool_seconds, 1, 86400,
                       "seconds each compiler or disassembler run may take before it is killed (default 300)");
        conf->add_flag("--keep", c.opts.keep, "keep the generated sources and disassembly");
        conf->add_flag("-v,--verbose", c.opts.verbose, "print every check, not only failures");
    }
    out.push_back({conf, [&o, conformance_args] { return run_conformance_cmd(o, *conformance_args); }});
#else
    (void)o;
    for (const char* name : {"verify", "conformance"}) {
        if (!registers(o, name)) continue;
        CLI::App* sub = app.add_subcommand(name, "GPU backend: not built (configure with -DLANESCOPE_BUILD_GPU=ON)");
        sub->allow_extras();
        out.push_back({sub, [] {
                           err_printf("lanescope-cli: GPU backend: not built (configure with "
                                                "-DLANESCOPE_BUILD_GPU=ON)\n");
                           return kNoDevice;
                       }});
    }
#endif
}

}  // namespace lscli
