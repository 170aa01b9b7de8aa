// Compiler conformance: every catalog builtin compiled by the real AMD compiler
// for each target, disassembled, and compared with the catalog (the thing under
// test) -- mnemonic, VOP3P opcode, modifier fields, operand register counts.
// Builtins must also fail to compile for targets the catalog does not claim.
//
// Compiles are batched (one file per target and wave size); a batch that fails
// is retried one builtin at a time so that the failing builtin is named.
//
// Each target is compiled by its compiler witness (Target::compiler: clang-22
// for every target LLVM 22 knows, clang-19 for gfx940/gfx941); a witness that
// is not installed is said once per target ("no compiler here"), not counted
// as a failure. Multi-word instructions (gfx950's v_mfma_scale_*: an ld_scale
// prefix, then the MFMA word) are judged by their matrix word, with the opcode
// field as wide as the family's encoding format says.
#include "lanescope/gpu.hpp"

#include "process.hpp"

#include <algorithm>
#include <cctype>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

namespace lanescope::gpu {

using detail::read_file;

bool ConformanceResult::passed() const { return failures() == 0; }
int ConformanceResult::failures() const {
    int n = 0;
    for (const ConformanceCheck& c : checks) n += c.passed ? 0 : 1;
    return n;
}

namespace {

// The time limit of a tool's first questions (--version, an empty function), in seconds.
constexpr double kProbeSeconds = 10;

struct Case {
    const Instruction* ins = nullptr;
    const Target* target = nullptr;
    ResolvedModifiers mods;
    bool negative = false;
    std::string builtin, fname;
    int first_line = 0, last_line = 0;  // inside its batch file
    bool done = false;                  // verdict reached
    bool passed = false;
    std::string detail;
};

// Compiled with -mwavefrontsize64: wave64 builtins on targets that run wave64
// (gfx1250 is wave32 only: clang-22 refuses the flag there, and its _w64
// builtins must fail without it).
bool wave64_flag(const Case& c) {
    const auto& w = c.target->wave_sizes;
    return c.mods.wave == 64 && c.builtin.find("_w64") != std::string::npos &&
           std::find(w.begin(), w.end(), 64) != w.end();
}

// The compiler and disassembler that judge one target.
struct Toolchain {
    std::string clang, objdump;
};

std::vector<std::string> compile_argv(const Toolchain& o, const std::string& gfx, bool w64,
                                      const std::string& src, const std::string& obj) {
    std::vector<std::string> a = {o.clang, "-x", "c", "--target=amdgcn-amd-amdhsa", "-mcpu=" + gfx, "-nogpulib",
                                  "-O2", "-fno-crash-diagnostics", "-ferror-limit=0", "-w"};
    if (w64) a.push_back("-mwavefrontsize64");
    a.insert(a.end(), {"-c", src, "-o", obj});
    return a;
}

// Runs tasks on `jobs` threads.
// Runs tasks on `jobs` threads; the first error is rethrown after all joined.
void parallel(int jobs, std::vector<std::function<void()>>& tasks) {
    std::atomic<size_t> next{0};
    std::mutex mu;
    std::string first_error_text;
    std::vector<std::thread> pool;
    for (int j = 0; j < std::max(1, jobs); ++j)
        pool.emplace_back([&] {
            for (size_t i; (i = next++) < tasks.size();) {
                try {
                    tasks[i]();
                } catch (const std::exception& e) {
                    std::lock_guard<std::mutex> lock(mu);
                    if (first_error_text.empty()) first_error_text = e.what();
                }
            }
        });
    for (auto& t : pool) t.join();
    if (!first_error_text.empty()) throw Error(first_error_text);
}

std::string first_error(const std::string& log) {
    std::istringstream s(log);
    std::string line;
    while (std::getline(s, line)) {
        auto at = line.find("error:");
        if (at != std::string::npos) return line.substr(at);
    }
    for (std::istringstream s2(log); std::getline(s2, line);)
        if (line.find("Cannot select") != std::string::npos || line.find("LLVM ERROR") != std::string::npos) return line;
    return log.substr(0, 200);
}

// The disassembly is external text of any length: it is read by hand, each
// scan one pass over the line (no backtracking matcher).
bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Digits from `at` (at least one, at most 9): their value, `at` moved past them; -1 if none.
long digits(const std::string& s, size_t& at) {
    const size_t from = at;
    long v = 0;
    while (at < s.size() && is_digit(s[at]) && at - from < 9) v = v * 10 + (s[at++] - '0');
    return at > from && (at == s.size() || !is_digit(s[at])) ? v : -1;
}

// "v[4:7]" -> 4, "a12" -> 1, anything else 0.
int regs_of_token(const std::string& tok) {
    if (tok.size() < 2 || (tok[0] != 'v' && tok[0] != 'a')) return 0;
    size_t at = 1;
    if (tok[1] != '[') return digits(tok, at) >= 0 && at == tok.size() ? 1 : 0;
    at = 2;
    const long lo = digits(tok, at);
    if (lo < 0 || at >= tok.size() || tok[at++] != ':') return 0;
    const long hi = digits(tok, at);
    if (hi < 0 || at + 1 != tok.size() || tok[at] != ']') return 0;
    return static_cast<int>(hi - lo + 1);
}

// " ADDR: DWORD DWORD ..." (the text after "//"): the dwords, each of exactly 8 hex
// digits; empty when the text is not of that form.
std::vector<unsigned> encoding_dwords(const std::string& tail) {
    size_t at = 0;
    while (at < tail.size() && is_blank(tail[at])) ++at;
    const size_t addr = at;
    while (at < tail.size() && is_hex(tail[at])) ++at;
    if (at == addr || at >= tail.size() || tail[at] != ':') return {};
    ++at;
    std::vector<unsigned> out;
    while (at < tail.size()) {
        const size_t gap = at;
        while (at < tail.size() && is_blank(tail[at])) ++at;
        if (at == tail.size()) break;
        if (at == gap) return {};  // words are separated by white space
        const size_t word = at;
        while (at < tail.size() && is_hex(tail[at])) ++at;
        if (at - word != 8 || (at < tail.size() && !is_blank(tail[at]))) return {};
        out.push_back(unsigned(std::stoul(tail.substr(word, 8), nullptr, 16)));
    }
    return out;
}

// "00000000 <name>:" at the start of a line: the name; "" otherwise.
std::string function_label(const std::string& line) {
    size_t at = 0;
    while (at < line.size() && is_hex(line[at])) ++at;
    if (at == 0 || line.compare(at, 2, " <") != 0) return "";
    const size_t name = at += 2;
    while (at < line.size() && is_word(line[at])) ++at;
    if (at == name || line.compare(at, 2, ">:") != 0) return "";
    return line.substr(name, at - name);
}

// Where the first matrix mnemonic (v_mfma*, v_smfma*, v_wmma*, v_swmma*: the
// smfmac/swmmac forms included) starts as a word; npos if none.
size_t matrix_mnemonic_at(const std::string& line) {
    for (size_t at = line.find("v_"); at != std::string::npos; at = line.find("v_", at + 1)) {
        if (at > 0 && is_word(line[at - 1])) continue;
        for (const char* stem : {"mfma", "smfma", "wmma", "swmma"})
            if (line.compare(at + 2, std::char_traits<char>::length(stem), stem) == 0) return at;
    }
    return std::string::npos;
}

// A tool's line as it appears in a message: at most 300 characters.
std::string clipped(const std::string& line) {
    constexpr size_t kMost = 300;
    if (line.size() <= kMost) return line;
    return line.substr(0, kMost) + "... (" + std::to_string(line.size()) + " characters)";
}

// A compiler that exited 0 must have written its object: the disassembler is not asked about a missing
// or empty file (it would be blamed for the compiler's failure).
void require_object(const std::string& clang, const std::string& obj, const std::string& what) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(obj, ec))
        throw Error("the compiler " + clang + " exited with status 0 compiling " + what +
                    " but wrote no object file: it is not a working AMD compiler; pass --clang with one (clang-22, "
                    "scripts/packages/gpu.txt)");
}

}  // namespace

// Checks one disassembled line against the catalog: what disagrees (empty: conforms).
std::vector<std::string> judge_disassembly(const Instruction& ins, const Target& target, const ResolvedModifiers& md,
                                           const std::string& line) {
    std::istringstream s(line);
    std::string mnemonic;
    s >> mnemonic;
    std::vector<std::string> problems;
    if (mnemonic != ins.mnemonic) problems.push_back("emitted " + mnemonic + ", catalog says " + ins.mnemonic);
    // Encoding: "// ADDR: DWORD0 DWORD1 [DWORD2 DWORD3]". The matrix word is the
    // last instruction word; any words before it are prefixes (the ld_scale of
    // v_mfma_scale_*), each checked against core's encoding_words.
    const EncodingFormat fmt = encoding_format(target.family);
    const std::vector<EncodingWord> expect_words = encoding_words(ins);
    std::vector<unsigned> dwords;
    if (const size_t at = line.find("//"); at != std::string::npos) {
        dwords = encoding_dwords(line.substr(at + 2));
    }
    const size_t want_dwords = size_t(expect_words.back().dword + fmt.dwords);
    auto hex = [](unsigned v) {
        std::ostringstream t;
        t << "0x" << std::hex << v;
        return t.str();
    };
    if (dwords.size() < size_t(fmt.dwords)) {
        problems.push_back("no encoding in the disassembly");
    } else {
        if (dwords.size() != want_dwords)
            problems.push_back(std::to_string(dwords.size()) + " dwords, catalog says " + std::to_string(want_dwords) +
                               " (" + std::to_string(expect_words.size()) + " instruction word" +
                               (expect_words.size() > 1 ? "s" : "") + ")");
        const unsigned op = fmt.opcode_of(dwords[dwords.size() - size_t(fmt.dwords)]);
        if (op != ins.opcode) problems.push_back("opcode " + hex(op) + ", catalog says " + hex(ins.opcode));
        if (dwords.size() == want_dwords)
            for (const EncodingWord& w : expect_words) {
                if (w.role != "prefix") continue;
                const unsigned pop = fmt.opcode_of(dwords[size_t(w.dword)]);
                if (pop != w.opcode)
                    problems.push_back("prefix word " + std::to_string(w.dword) + " opcode " + hex(pop) + ", catalog says " +
                                       hex(w.opcode) + " (" + w.mnemonic + ")");
            }
    }
    // Operands: D, A, B, then C (dense) or the sparse index.
    std::string rest = line.substr(line.find(mnemonic) + mnemonic.size());
    rest = rest.substr(0, rest.find("//"));
    std::vector<std::string> toks;
    std::istringstream r(rest);
    for (std::string piece; std::getline(r, piece, ',') && toks.size() < 6;) {
        std::istringstream w(piece);
        std::string word;
        w >> word;
        toks.push_back(word);
    }
    const Operand fourth = ins.sparse() ? Operand::K : Operand::C;
    std::vector<std::pair<Operand, int>> expect = {{Operand::D, 0}, {Operand::A, 1}, {Operand::B, 2}, {fourth, 3}};
    const std::vector<Operand> ops = operands_of(ins);
    if (std::find(ops.begin(), ops.end(), Operand::SA) != ops.end()) {
        expect.push_back({Operand::SA, 4});
        expect.push_back({Operand::SB, 5});
    }
    for (const auto& e : expect) {
        const int want = operand_regs(ins, e.first, md);
        const int got = e.second < int(toks.size()) ? regs_of_token(toks[e.second]) : -1;
        if (got != want)
            problems.push_back("operand " + std::string(operand_name(e.first)) + " uses " + std::to_string(got) +
                               " registers (" + (e.second < int(toks.size()) ? toks[e.second] : "?") +
                               "), catalog says " + std::to_string(want));
    }
    // Modifier fields: present with the value asked for, absent when zero.
    auto field = [&](const std::string& name, const std::string& value, bool want) {
        const bool has_name = line.find(name + ":") != std::string::npos;
        const bool has = line.find(name + ":" + value) != std::string::npos;
        if (want && !has) problems.push_back("expected " + name + ":" + value);
        if (!want && has_name) problems.push_back("unexpected " + name + ": field");
    };
    const bool f64_neg = ins.a == ElemType::F64 && (target.family == Family::CDNA3 || target.family == Family::CDNA4);
    switch (ins.kind) {
        case LayoutKind::Mfma:
            field("cbsz", std::to_string(md.cbsz), md.cbsz != 0);
            field("abid", std::to_string(md.abid), md.abid != 0);
            if (f64_neg) {
                field("blgp", "", false);
                field("neg", "[" + std::to_string(md.blgp & 1) + "," + std::to_string((md.blgp >> 1) & 1) + "," +
                                 std::to_string((md.blgp >> 2) & 1) + "]",
                      md.blgp != 0);
            } else {
                field("blgp", std::to_string(md.blgp), md.blgp != 0);
            }
            break;
        case LayoutKind::SmfmacCdna3:
        case LayoutKind::SmfmacCdna4:
            field("cbsz", std::to_string(md.cbsz), md.cbsz != 0);
            field("abid", std::to_string(md.abid), md.abid != 0);
            break;
        case LayoutKind::WmmaRdna3: field("op_sel", "[0,0,1]", md.opsel == 4); break;
        case LayoutKind::SwmmacRdna4: field("index_key", std::to_string(md.opsel), md.opsel != 0); break;
        case LayoutKind::MfmaScaled:
            field("cbsz", std::to_string(md.cbsz), md.cbsz != 0);
            field("blgp", std::to_string(md.blgp), md.blgp != 0);
            break;
        case LayoutKind::WmmaRdna4: break;
        case LayoutKind::WmmaGfx1250:
        case LayoutKind::WmmaScaleGfx1250:
        case LayoutKind::SwmmacGfx1250: {
            // llvm-objdump-22 spells the gfx1250 controls by name, absent when 0.
            auto named = [&](const char* name, const char* prefix, int v) {
                field(name, prefix + modifier_value_name(name, v), v != 0);
            };
            if (ins.a == ElemType::F8F6F4) {
                named("matrix_a_fmt", "MATRIX_FMT_", md.matrix_a_fmt);
                named("matrix_b_fmt", "MATRIX_FMT_", md.matrix_b_fmt);
            }
            if (ins.kind == LayoutKind::WmmaScaleGfx1250) {
                named("matrix_a_scale", "MATRIX_SCALE_", md.matrix_a_scale);
                named("matrix_b_scale", "MATRIX_SCALE_", md.matrix_b_scale);
                named("matrix_a_scale_fmt", "MATRIX_SCALE_FMT_", md.matrix_a_scale_fmt);
                named("matrix_b_scale_fmt", "MATRIX_SCALE_FMT_", md.matrix_b_scale_fmt);
            }
            if (ins.kind == LayoutKind::SwmmacGfx1250) field("index_key", std::to_string(md.index_key), md.index_key != 0);
            break;
        }
        case LayoutKind::MmaSync:  // NVIDIA rows have no clang builtin to check
        case LayoutKind::MmaSparse:
        case LayoutKind::LdStMatrix:
        case LayoutKind::Wgmma:
        case LayoutKind::Tcgen05Mma:
        case LayoutKind::Tcgen05LdSt:
        case LayoutKind::Tcgen05Cp:
        case LayoutKind::MmaBlockScale: break;
    }
    return problems;
}

namespace {

void judge(Case& c, const std::string& line) {
    c.done = true;
    const std::vector<std::string> problems = judge_disassembly(*c.ins, *c.target, c.mods, line);
    c.passed = problems.empty();
    if (c.passed) {
        c.detail = clipped(line);
    } else {
        for (size_t i = 0; i < problems.size(); ++i) c.detail += (i ? "; " : "") + clipped(problems[i]);
        c.detail += "  [" + clipped(line) + "]";
    }
}

// Disassembly lines of each function: label "<name>:" then its instructions;
// keeps the first matrix instruction.
std::map<std::string, std::string> matrix_lines(const std::string& dis) {
    std::map<std::string, std::string> out;
    std::istringstream s(dis);
    std::string line, current;
    while (std::getline(s, line)) {
        if (std::string name = function_label(line); !name.empty()) {
            current = name;
            continue;
        }
        if (current.empty() || out.count(current)) continue;
        if (const size_t at = matrix_mnemonic_at(line); at != std::string::npos) out[current] = line.substr(at);
    }
    return out;
}

// What the tools of one run share: the options, the work directory, the time limits and their words,
// and what is known of the tools so far.
struct Work {
    Work(const ConformanceOptions& options, std::string work_dir) : o(options), dir(std::move(work_dir)) {}
    const ConformanceOptions& o;
    std::string dir;
    std::string limit_words;        // " did not finish within T s (--tool-timeout) and was killed"
    double probe_seconds = 0;       // the limit of a tool's first questions
    std::string probe_limit_words;  // as limit_words, for the first questions
    std::map<std::string, std::string> version_of;  // "" = not installed
    std::set<std::string> disassemblers_seen;
    std::map<std::string, Toolchain> tools;  // gfx -> what judges it
};

// A number of seconds as a message writes it.
std::string seconds_text(double seconds) {
    std::ostringstream t;
    t << seconds;
    return t.str();
}

// Runs a tool under the time limit (--tool-timeout); `why`, if given, says why it did not start or was killed.
int run_process(const Work& w, const std::vector<std::string>& argv, const std::string& out, const std::string& err,
                std::string* why = nullptr) {
    return detail::run_process(argv, out, err, why, w.o.tool_seconds);
}

// The first questions asked of each tool (its --version, an empty function) take a working tool
// well under a second: a tool that does not answer them within kProbeSeconds (or --tool-timeout,
// if less) is hanging, and is not waited for through the batches' limit.
int probe_process(const Work& w, const std::vector<std::string>& argv, const std::string& out, const std::string& err) {
    return detail::run_process(argv, out, err, nullptr, w.probe_seconds);
}

// Which targets are judged: --target's (all: every AMD target), else the default set.
std::vector<std::string> target_names(const Catalog& cat, const ConformanceOptions& o) {
    std::vector<std::string> gfxs;
    for (const std::string& g : o.targets) {
        if (g != "all") {
            gfxs.push_back(g);
            continue;
        }
        for (const Target& t : cat.targets())
            if (t.vendor() == Vendor::AMD && std::find(gfxs.begin(), gfxs.end(), t.gfx) == gfxs.end())
                gfxs.push_back(t.gfx);
    }
    if (gfxs.empty()) gfxs = {"gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1200", "gfx1250"};
    return gfxs;
}

// Whether a compiler is here (each asked once): its first --version line, "" if it does not run.
const std::string& version(Work& w, const std::string& clang) {
    auto it = w.version_of.find(clang);
    if (it != w.version_of.end()) return it->second;
    const std::string file = w.dir + "/version" + std::to_string(w.version_of.size()) + ".txt";
    std::string v;
    const int rc = probe_process(w, {clang, "--version"}, file, "");
    if (rc == detail::kTimedOut) throw Error(clang + " --version" + w.probe_limit_words);
    if (rc == 0) {
        v = read_file(file);
        v = v.substr(0, v.find('\n'));
        if (v.empty()) v = "unknown version";
    }
    return w.version_of.emplace(clang, v).first->second;
}

// Whether a disassembler runs: each answers --version once, before any batch is compiled for it.
void check_disassembler(Work& w, const std::string& objdump) {
    if (!w.disassemblers_seen.insert(objdump).second) return;
    const std::string file = w.dir + "/objdump_version" + std::to_string(w.disassemblers_seen.size()) + ".txt";
    const int rc = probe_process(w, {objdump, "--version"}, file, file + ".log");
    if (rc == detail::kTimedOut) throw Error("the disassembler " + objdump + " --version" + w.probe_limit_words);
    if (rc != 0)
        throw Error("the disassembler " + objdump + " does not run (" +
                    (rc < 0 ? std::string("not found or not executable") : "--version: exit status " + std::to_string(rc)) +
                    "); install llvm-22 (scripts/packages/gpu.txt) or pass --objdump");
}

// The disassembler of a compiler: "clang-22" -> "llvm-objdump-22"; "/opt/x/clang" -> "/opt/x/llvm-objdump".
std::string objdump_for(const std::string& clang) {
    const size_t slash = clang.rfind('/');
    const std::string dirpart = slash == std::string::npos ? "" : clang.substr(0, slash + 1);
    const std::string base = clang.substr(dirpart.size());
    const size_t dash = base.rfind('-');
    const std::string suffix = dash != std::string::npos && dash + 1 < base.size() &&
                                       base.find_first_not_of("0123456789", dash + 1) == std::string::npos
                                   ? base.substr(dash)
                                   : "";
    return dirpart + "llvm-objdump" + suffix;
}

// Whether some AMD compiler runs here (--clang, or clang-22 or clang-19): refused with what to install if not.
void require_a_compiler(Work& w) {
    const ConformanceOptions& o = w.o;
    if (!o.clang.empty() && version(w, o.clang).empty())
        throw Error("the conformance check needs the AMD compiler '" + o.clang +
                    "' (it does not run); install clang-22 llvm-22 lld-22 (scripts/packages/gpu.txt) or pass --clang");
    bool any_compiler = !o.clang.empty();
    for (const char* c : {"clang-22", "clang-19"}) any_compiler = any_compiler || !version(w, c).empty();
    if (!any_compiler)
        throw Error("the conformance check needs an AMD compiler: neither clang-22 nor clang-19 runs here; install "
                    "clang-22 llvm-22 lld-22 (scripts/packages/gpu.txt) or pass --clang");
}

// Whether a compiler knows a target: it compiles an empty function for it.
bool knows(const Work& w, const std::string& clang, const std::string& gfx) {
    const std::string obj = w.dir + "/empty_" + gfx + ".o";
    const int rc = probe_process(w, compile_argv({clang, ""}, gfx, false, w.dir + "/empty.c", obj), "",
                                 w.dir + "/probe_" + gfx + ".log");
    if (rc == detail::kTimedOut)
        throw Error(clang + ", compiling an empty function for " + gfx + "," + w.probe_limit_words);
    if (rc == 0) require_object(clang, obj, "an empty function for " + gfx);
    return rc == 0;
}

// Which compiler judges a target: --clang, else its witness, else clang-19; the summary says which, or
// why the target is skipped.
TargetSummary choose_toolchain(Work& w, const Target& t, Toolchain& tc) {
    const ConformanceOptions& o = w.o;
    TargetSummary sum;
    sum.target = t.gfx;
    if (!o.clang.empty()) {
        tc = {o.clang, o.objdump.empty() ? objdump_for(o.clang) : o.objdump};
        if (!knows(w, tc.clang, t.gfx)) {
            sum.skipped = true;
            // In the compiler's own words: an unknown target, or a crash, or anything else.
            const std::string log_text = read_file(w.dir + "/probe_" + t.gfx + ".log");
            sum.skip_reason = o.clang + " cannot compile an empty function for -mcpu=" + t.gfx +
                              (log_text.empty() ? std::string() : " (" + clipped(first_error(log_text)) + ")") +
                              " (pass --clang with a compiler that does)";
        }
    } else if (!version(w, t.compiler).empty() && knows(w, t.compiler, t.gfx)) {
        tc = {t.compiler, o.objdump.empty() ? objdump_for(t.compiler) : o.objdump};
    } else if (t.compiler != "clang-19" && !version(w, "clang-19").empty() && knows(w, "clang-19", t.gfx)) {
        tc = {"clang-19", o.objdump.empty() ? "llvm-objdump-19" : o.objdump};
        sum.skip_reason = "its witness " + t.compiler + " is not here; judged by clang-19";
    } else {
        sum.skipped = sum.no_compiler = true;
        sum.skip_reason = "no compiler here (its witness " + t.compiler +
                          (version(w, t.compiler).empty() ? " is not installed" : " does not know it") +
                          "; not counted as a failure)";
    }
    return sum;
}

// Which builtin names the catalog claims on which families, and a row of each.
struct Claims {
    std::map<std::string, std::set<Family>> claimed;
    std::map<std::string, const Instruction*> any_row;
};

Claims claimed_builtins(const Catalog& cat) {
    Claims k;
    for (const Instruction& ins : cat.instructions())
        for (int wave : {32, 64}) {
            if (ins.vendor() != Vendor::AMD) break;  // PTX rows have no clang builtin
            if (wave == 32 && ins.builtin_pattern.find("{w}") == std::string::npos) continue;
            const std::string b = ins.builtin(wave);
            for (Family f : ins.families) k.claimed[b].insert(f);
            if (!k.any_row.count(b)) k.any_row[b] = &ins;
        }
    return k;
}

// Positive cases: every row on this family, each wave size, default
// modifiers and a few legal non-zero combinations.
void add_positive_cases(const Catalog& cat, const Target& t, std::vector<Case>& cases) {
    for (const Instruction* ins : cat.on(t.family))
        for (int wave : t.wave_sizes) {
            Modifiers base;
            base.wave = wave;
            std::vector<Modifiers> combos = {base};
            ResolvedModifiers def = resolve_modifiers(*ins, t, base);
            for (const ModifierRange& r : modifier_ranges(*ins, t, def)) {
                if (r.name == "wave" || r.name == "abid" || r.values.size() < 2) continue;
                // gfx1250 SWMMAC: the clang-22 builtin has no index_key argument (and
                // does not fold a shifted index into it), so no builtin selects it.
                if (r.name == "index_key" && ins->kind == LayoutKind::SwmmacGfx1250) continue;
                std::vector<int> picks = {r.values.back()};
                if (r.values.size() > 2) picks.push_back(r.values[1]);
                for (int v : picks) {
                    Modifiers m = base;
                    set_modifier(m, r.name, v);
                    combos.push_back(m);
                }
            }
            // abid: its largest legal value, with cbsz at each picked value.
            for (size_t n = 0, end = combos.size(); n < end; ++n) {
                try {
                    ResolvedModifiers rm = resolve_modifiers(*ins, t, combos[n]);
                    for (const ModifierRange& r : modifier_ranges(*ins, t, rm))
                        if (r.name == "abid" && r.values.size() >= 2) {
                            Modifiers m = combos[n];
                            m.abid = r.values.back();
                            combos.push_back(m);
                        }
                } catch (const Error&) {
                }
            }
            for (const Modifiers& m : combos) {
                Case c;
                c.ins = ins;
                c.target = &t;
                try {
                    c.mods = resolve_modifiers(*ins, t, m);
                } catch (const Error&) {
                    continue;
                }
                c.builtin = ins->builtin(wave);
                cases.push_back(c);
            }
        }
}

// Negative cases: builtin names the catalog does not claim here.
void add_negative_cases(const Claims& k, const Target& t, std::vector<Case>& cases) {
    for (const auto& [name, fams] : k.claimed) {
        if (fams.count(t.family)) continue;
        Case c;
        c.ins = k.any_row.at(name);
        c.target = &t;
        c.negative = true;
        c.builtin = name;
        c.mods.wave = name.find("_w32") != std::string::npos ? 32 : 64;
        cases.push_back(c);
    }
}

// The cases of every target (its summary in `result`, its toolchain in w.tools), each named after its index.
std::vector<Case> all_cases(Work& w, const Catalog& cat, const std::vector<std::string>& gfxs,
                            ConformanceResult& result) {
    const Claims claims = claimed_builtins(cat);
    std::vector<Case> cases;
    for (const std::string& gfx : gfxs) {
        const Target& t = cat.find_target(gfx);
        if (t.vendor() != Vendor::AMD)
            throw Error(t.gfx + " is an NVIDIA target: PTX has no compiler builtins to check; legal: AMD targets "
                                "(gfx908 ... gfx1201) or all");
        Toolchain tc;
        TargetSummary sum = choose_toolchain(w, t, tc);
        if (sum.skipped) {
            result.targets.push_back(sum);
            continue;
        }
        sum.compiler = tc.clang;
        sum.objdump = tc.objdump;
        w.tools[t.gfx] = tc;
        check_disassembler(w, tc.objdump);
        result.targets.push_back(sum);
        add_positive_cases(cat, t, cases);
        add_negative_cases(claims, t, cases);
    }
    for (size_t n = 0; n < cases.size(); ++n) cases[n].fname = "lanescope_case_" + std::to_string(n);
    return cases;
}

// Says which compiler (and version) and disassembler judge which targets.
void log_tools(Work& w, const ConformanceResult& result, std::ostream& log) {
    std::map<std::string, std::vector<std::string>> by_tool;
    for (const TargetSummary& s : result.targets)
        if (!s.skipped) by_tool[s.compiler + " (" + version(w, s.compiler) + "), " + s.objdump].push_back(s.target);
    for (const auto& [tool, targets] : by_tool) {
        log << "conformance: " << tool << ":";
        for (const std::string& g : targets) log << " " << g;
        log << "\n";
    }
}

// The source of some cases, one function each; with write_lines, each case's lines in it are noted.
std::string source_of(std::vector<Case>& cases, const std::vector<size_t>& ids, bool write_lines) {
    std::string src = probe_prelude();
    int line = int(std::count(src.begin(), src.end(), '\n')) + 1;
    for (size_t id : ids) {
        Case& c = cases[id];
        std::string f = "// " + c.builtin + "\n" + probe_function(*c.ins, *c.target, c.mods, c.fname);
        if (write_lines) {
            c.first_line = line;
            c.last_line = line + int(std::count(f.begin(), f.end(), '\n')) - 1;
        }
        line += int(std::count(f.begin(), f.end(), '\n'));
        src += f;
    }
    return src;
}

// Disassembles an object: each function's first matrix instruction.
std::map<std::string, std::string> disassemble(const Work& w, const std::string& gfx, bool w64, const std::string& obj,
                                               const std::string& base) {
    const std::string& objdump = w.tools.at(gfx).objdump;
    std::vector<std::string> a = {objdump, "-d", "--mcpu=" + gfx};
    if (w64) a.push_back("--mattr=+wavefrontsize64");
    a.push_back(obj);
    std::string err;
    const int rc = run_process(w, a, base + ".dis", base + ".dis.log", &err);
    if (rc != 0)
        throw Error("disassembling with " + objdump + " failed (" +
                    (rc == detail::kTimedOut ? std::string("killed at the time limit")
                                             : rc < 0 ? std::string("not run") : "exit status " + std::to_string(rc)) +
                    "): " + clipped(err.empty() ? first_error(read_file(base + ".dis.log")) : err));
    return matrix_lines(read_file(base + ".dis"));
}

// One case alone (after its batch failed): its verdict.
void single(const Work& w, std::vector<Case>& cases, size_t id) {
    Case& c = cases[id];
    std::vector<size_t> one = {id};
    const std::string base = w.dir + "/" + c.fname;
    if (!detail::write_file_atomic(base + ".c", source_of(cases, one, false)))
        throw Error("cannot write " + base + ".c");
    const int rc = run_process(w, compile_argv(w.tools.at(c.target->gfx), c.target->gfx, wave64_flag(c), base + ".c",
                                               base + ".o"),
                               "", base + ".log");
    if (rc == detail::kTimedOut) {
        c.done = true;
        c.detail = "the compiler" + w.limit_words;
        return;
    }
    if (c.negative) {
        c.done = true;
        c.passed = rc != 0;
        c.detail = rc != 0 ? "rejected: " + first_error(read_file(base + ".log"))
                           : "compiles for " + c.target->gfx + " although the catalog does not claim it there";
        return;
    }
    if (rc != 0) {
        c.done = true;
        c.detail = "does not compile for " + c.target->gfx + " although the catalog claims it: " +
                   first_error(read_file(base + ".log"));
        return;
    }
    require_object(w.tools.at(c.target->gfx).clang, base + ".o", c.builtin + " for " + c.target->gfx);
    auto lines = disassemble(w, c.target->gfx, wave64_flag(c), base + ".o", base);
    if (!lines.count(c.fname)) {
        c.done = true;
        c.detail = "no matrix instruction in the disassembly";
        return;
    }
    judge(c, lines[c.fname]);
}

// One batch of cases and where its files go.
struct Batch {
    std::string gfx;
    bool w64 = false;
    std::string base;
    const std::vector<size_t>* ids = nullptr;
};

// A batch of unclaimed builtins: those the compiler does not offer pass; those it offers are retried alone.
void negative_batch(const Work& w, std::vector<Case>& cases, const Batch& b, std::mutex& mu,
                    std::vector<size_t>& retry) {
    const std::string& gfx = b.gfx;
    const std::string& base = b.base;
    // The compiler's own list of what it offers for this target
    // (__has_builtin honours target features); builtins it does
    // offer are compiled alone and must still fail.
    // A positive control first: a builtin every amdgcn target has. Unless the compiler says it has
    // it, its silence about the others is no evidence that they are absent (a broken
    // preprocessor or __has_builtin would pass them all).
    const std::string control = "__builtin_amdgcn_workitem_id_x";
    std::string probe_src = "#if __has_builtin(" + control + ")\nint lanescope_control_present;\n#endif\n";
    for (size_t id : *b.ids)
        probe_src += "#if __has_builtin(" + cases[id].builtin + ")\nint lanescope_has_" + std::to_string(id) +
                     ";\n#endif\n";
    if (!detail::write_file_atomic(base + ".c", probe_src)) throw Error("cannot write " + base + ".c");
    const std::string& clang = w.tools.at(gfx).clang;
    std::vector<std::string> a = {clang, "-x", "c", "--target=amdgcn-amd-amdhsa", "-mcpu=" + gfx,
                                  "-nogpulib", "-E", base + ".c", "-o", base + ".i"};
    if (b.w64) a.push_back("-mwavefrontsize64");
    std::string err;
    if (run_process(w, a, "", base + ".log", &err) != 0)
        throw Error("running " + clang + " -E failed: " +
                    clipped(err.empty() ? first_error(read_file(base + ".log")) : err));
    const std::string offered = read_file(base + ".i");
    std::lock_guard<std::mutex> lock(mu);
    if (offered.find("lanescope_control_present;") == std::string::npos) {
        for (size_t id : *b.ids) {
            Case& c = cases[id];
            c.done = true;
            c.passed = false;
            c.detail = "the compiler gave no answer: " + clang + " -E did not report __has_builtin(" + control +
                       "), which every amdgcn target has, as present, so its silence about " + c.builtin +
                       " says nothing";
        }
        return;
    }
    for (size_t id : *b.ids) {
        Case& c = cases[id];
        const std::string mark = "lanescope_has_" + std::to_string(id) + ";";
        if (offered.find(mark) == std::string::npos) {
            c.done = c.passed = true;
            c.detail = "not offered for " + gfx + " (__has_builtin is false)";
        } else {
            retry.push_back(id);
        }
    }
}

// A batch of claimed builtins compiled and disassembled together: each case judged, or retried alone.
void positive_batch(const Work& w, std::vector<Case>& cases, const Batch& b, std::mutex& mu,
                    std::vector<size_t>& retry) {
    const std::string& gfx = b.gfx;
    const std::string& base = b.base;
    const std::vector<size_t>& ids = *b.ids;
    if (!detail::write_file_atomic(base + ".c", source_of(cases, ids, true)))
        throw Error("cannot write " + base + ".c");
    const int rc =
        run_process(w, compile_argv(w.tools.at(gfx), gfx, b.w64, base + ".c", base + ".o"), "", base + ".log");
    if (rc == detail::kTimedOut) {
        // One at a time would wait the limit again for each: the batch's cases fail here.
        std::lock_guard<std::mutex> lock(mu);
        for (size_t id : ids) {
            cases[id].done = true;
            cases[id].detail =
                "the compiler, compiling its batch of " + std::to_string(ids.size()) + "," + w.limit_words;
        }
        return;
    }
    if (rc != 0) {
        std::lock_guard<std::mutex> lock(mu);
        retry.insert(retry.end(), ids.begin(), ids.end());
        return;
    }
    require_object(w.tools.at(gfx).clang, base + ".o", "its batch for " + gfx);
    auto lines = disassemble(w, gfx, b.w64, base + ".o", base);
    std::lock_guard<std::mutex> lock(mu);
    if (lines.empty()) {
        // Not one function with a matrix instruction: compiling each case alone would say the same
        // for every one of them, each at the cost of a compile and a disassembly.
        for (size_t id : ids) {
            cases[id].done = true;
            cases[id].detail = "no matrix instruction in " + w.tools.at(gfx).objdump +
                               "'s disassembly of the batch (none of its " + std::to_string(ids.size()) +
                               " functions has one)";
        }
        return;
    }
    for (size_t id : ids) {
        Case& c = cases[id];
        if (lines.count(c.fname)) judge(c, lines[c.fname]);
        else retry.push_back(id);
    }
}

// Every case's verdict: the batches (target, wave64 flag, negative) on o.jobs threads, then each case they left
// undecided compiled alone.
void run_cases(const Work& w, std::vector<Case>& cases) {
    std::map<std::tuple<std::string, bool, bool>, std::vector<size_t>> batches;
    for (size_t n = 0; n < cases.size(); ++n)
        batches[{cases[n].target->gfx, wave64_flag(cases[n]), cases[n].negative}].push_back(n);
    std::mutex mu;
    std::vector<std::function<void()>> tasks;
    std::vector<size_t> retry;
    int batch_no = 0;
    for (auto& [key, ids] : batches) {
        Batch b;
        b.gfx = std::get<0>(key);
        b.w64 = std::get<1>(key);
        const bool negative = std::get<2>(key);
        b.base = w.dir + "/batch" + std::to_string(batch_no++) + "_" + b.gfx + (b.w64 ? "_w64" : "") +
                 (negative ? "_neg" : "");
        b.ids = &ids;
        tasks.push_back([&, b, negative] {
            if (negative) negative_batch(w, cases, b, mu, retry);
            else positive_batch(w, cases, b, mu, retry);
        });
    }
    parallel(w.o.jobs, tasks);
    tasks.clear();
    for (size_t id : retry) tasks.push_back([&, id] { single(w, cases, id); });
    parallel(w.o.jobs, tasks);
}

// The checks of the cases, and each target's counts of builtins and unclaimed builtins passed.
void tally(const std::vector<Case>& cases, ConformanceResult& result) {
    std::map<std::string, std::map<std::string, bool>> builtin_ok;  // target -> builtin -> all cases passed
    for (const Case& c : cases) {
        ConformanceCheck k;
        k.target = c.target->gfx;
        k.builtin = c.builtin;
        k.mnemonic = c.ins->mnemonic;
        k.modifiers = c.mods.describe();
        k.negative = c.negative;
        k.passed = c.done && c.passed;
        k.detail = c.detail;
        result.checks.push_back(k);
        for (TargetSummary& s : result.targets)
            if (s.target == k.target) {
                if (c.negative) {
                    ++s.negatives;
                    s.negatives_passed += k.passed;
                } else {
                    auto it = builtin_ok[k.target].find(k.builtin);
                    if (it == builtin_ok[k.target].end()) builtin_ok[k.target][k.builtin] = k.passed;
                    else it->second = it->second && k.passed;
                }
            }
    }
    for (TargetSummary& s : result.targets)
        for (const auto& [name, ok] : builtin_ok[s.target]) {
            ++s.builtins;
            s.builtins_passed += ok;
        }
}

// Says each target's counts (or why it was skipped), then the failed checks (every check with --verbose).
void log_results(const Catalog& cat, const ConformanceOptions& o, const ConformanceResult& result, std::ostream& log) {
    for (const TargetSummary& s : result.targets) {
        const Target& t = cat.find_target(s.target);
        log << "  " << s.target << " (" << family_title(t.family) << "): ";
        if (s.skipped) {
            log << (s.no_compiler ? "" : "SKIPPED -- ") << s.skip_reason << "\n";
            continue;
        }
        int cases_n = 0, cases_ok = 0;
        for (const ConformanceCheck& k : result.checks)
            if (k.target == s.target && !k.negative) {
                ++cases_n;
                cases_ok += k.passed;
            }
        bool unanswered = false;  // the positive control was not seen: no evidence about the unclaimed builtins
        for (const ConformanceCheck& k : result.checks)
            unanswered = unanswered || (k.target == s.target && k.negative && k.detail.rfind("the compiler gave no answer", 0) == 0);
        log << s.builtins_passed << "/" << s.builtins << " builtins passed (" << cases_ok << "/" << cases_n
            << " with modifier combinations); " << s.negatives_passed << "/" << s.negatives
            << " unclaimed builtins rejected"
            << (unanswered ? " (the compiler gave no answer: its preprocessor did not report "
                             "__has_builtin(__builtin_amdgcn_workitem_id_x), which every amdgcn target has)"
                           : "")
            << "; " << s.compiler
            << (s.skip_reason.empty() ? "" : " (" + s.skip_reason + ")") << "\n";
    }
    int shown = 0;
    for (const ConformanceCheck& k : result.checks) {
        if (k.passed && !o.verbose) continue;
        if (!k.passed && shown++ >= 50) continue;
        log << (k.passed ? "  ok   " : "  FAIL ") << k.target << " " << k.builtin
            << (k.modifiers.empty() ? "" : " [" + k.modifiers + "]") << (k.negative ? " (must not compile)" : "") << ": "
            << k.detail << "\n";
    }
}

}  // namespace

ConformanceResult run_conformance(const Catalog& cat, const ConformanceOptions& o, std::ostream& log) {
    const auto t0 = std::chrono::steady_clock::now();
    ConformanceResult result;
    const std::vector<std::string> gfxs = target_names(cat, o);
    if (!(o.tool_seconds > 0) || o.tool_seconds > 86400)
        throw Error("the tools' time limit must be more than 0 and at most 86400 seconds");
    // SIGINT/SIGTERM/SIGHUP stop the running tools and unwind (removing the work directory).
    detail::InterruptGuard interrupts;
    const bool own_dir = o.workdir.empty();
    // Our own work directory goes away on every exit: errors, time limits, signals.
    std::optional<detail::TempDir> own;
    if (own_dir) own.emplace("lanescope-conformance-");
    if (own && o.keep) own->keep();
    Work w(o, own ? own->path() : o.workdir);
    const std::string& dir = w.dir;
    w.limit_words = " did not finish within " + seconds_text(o.tool_seconds) + " s (--tool-timeout) and was killed";
    w.probe_seconds = std::min(o.tool_seconds, kProbeSeconds);
    w.probe_limit_words = w.probe_seconds == o.tool_seconds
                              ? w.limit_words
                              : " did not answer within " + seconds_text(w.probe_seconds) +
                                    " s (the limit of a tool's first questions: --version, an empty function) and was "
                                    "killed";

    if (!detail::write_file_atomic(dir + "/empty.c", "void lanescope_empty(void) {}\n"))
        throw Error("cannot write into " + dir);
    require_a_compiler(w);
    std::vector<Case> cases = all_cases(w, cat, gfxs, result);
    log_tools(w, result, log);
    run_cases(w, cases);
    tally(cases, result);
    log_results(cat, o, result, log);
    detail::InterruptGuard::check();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    log << "conformance: " << result.checks.size() << " checks, " << result.failures() << " failed, " << secs << " s"
        << (o.keep || !own_dir ? " (work files in " + dir + ")" : "") << "\n";
    return result;
}

}  // namespace lanescope::gpu
