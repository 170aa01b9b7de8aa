// NVIDIA catalog rows (core/catalog/nvidia.txt): parsing, N-range expansion for
// wgmma, and the checks each row must pass (family rules, stated register counts
// equal to the formulas').
#include "lanescope/lanescope.hpp"
#include "lanescope/smem.hpp"
#include "layouts/layout_spec.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

namespace lanescope::detail {

namespace {

constexpr size_t kFields = 12;

[[noreturn]] void fail(std::string_view origin, int line, const std::string& what) {
    throw Error(std::string(origin) + ":" + std::to_string(line) + ": " + what);
}

int number(std::string_view origin, int line, std::string_view field, std::string_view text) {
    const std::string s(text);
    try {
        size_t used = 0;
        long v = std::stol(s, &used, 10);
        if (used != s.size() || v < 0 || v > 4096) throw std::invalid_argument(s);
        return static_cast<int>(v);
    } catch (const std::exception&) {
        fail(origin, line, std::string(field) + " '" + s + "' is not a number");
    }
}

std::optional<Family> nvidia_family(std::string_view name) {
    if (name == "ampere") return Family::Ampere;
    if (name == "ada") return Family::Ada;
    if (name == "hopper") return Family::Hopper;
    if (name == "blackwell") return Family::Blackwell;
    if (name == "blackwell-geforce") return Family::BlackwellGeForce;
    return std::nullopt;
}

// "8..256/8", "8..24/8,32..256/16", "8,16,64" or "-" (none).
std::vector<int> n_values(std::string_view origin, int line, std::string_view spec) {
    std::vector<int> out;
    if (text::trim_view(spec) == "-") return out;
    for (std::string_view t : text::split_view(spec, ',', true)) {
        const auto dots = t.find("..");
        if (dots == std::string::npos) {
            out.push_back(number(origin, line, "N", t));
            continue;
        }
        const auto slash = t.find('/');
        if (slash == std::string::npos || slash < dots)
            fail(origin, line, "N range '" + std::string(t) + "' must read a..b/step");
        const int lo = number(origin, line, "N", t.substr(0, dots));
        const int hi = number(origin, line, "N", t.substr(dots + 2, slash - dots - 2));
        const int step = number(origin, line, "N", t.substr(slash + 1));
        if (step == 0 || hi < lo) fail(origin, line, "N range '" + std::string(t) + "' is empty");
        for (int n = lo; n <= hi; n += step) out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool ranged_shape(std::string_view shape) { return shape.find("{N}") != std::string_view::npos; }

// Spellings are lower-cased once per line, so the placeholder is "{n}" there.
std::string replace_n(std::string s, int n) {
    for (auto at = s.find("{n}"); at != std::string::npos; at = s.find("{n}")) s.replace(at, 3, std::to_string(n));
    return s;
}

// "A4 B2 C4 D4 K1", "A4 C=N/2 D=N/4": registers per thread of each operand, read
// once per row; counts() gives them for one N.
struct StatedRegs {
    struct Word {
        std::string_view text;  // into the regs text, which outlives the StatedRegs
        Operand op;
        int regs = 0;  // a fixed count, or
        bool per_n = false;  // N / div registers
        int div = 0;
    };
    std::vector<Word> words;

    StatedRegs(std::string_view origin, int line, std::string_view spec) {
        for (std::string_view w : text::split_view(spec, ' ', true)) {
            if (w.empty()) continue;
            auto op = parse_operand(w.substr(0, 1));
            if (!op) fail(origin, line, "regs '" + std::string(w) + "' must start with an operand letter A B C D K");
            std::string_view count = w.substr(1);
            Word word{w, *op};
            if (count.rfind("=N/", 0) == 0) {
                word.per_n = true;
                word.div = number(origin, line, "regs", count.substr(3));
            } else {
                word.regs = number(origin, line, "regs", count);
            }
            words.push_back(word);
        }
        if (words.empty()) fail(origin, line, "regs is empty; write e.g. 'A4 B2 C4 D4'");
    }

    std::vector<std::pair<Operand, int>> counts(std::string_view origin, int line, int n) const {
        std::vector<std::pair<Operand, int>> out;
        out.reserve(words.size());
        for (const Word& w : words) {
            if (w.per_n && (w.div == 0 || n % w.div != 0))
                fail(origin, line, "regs '" + std::string(w.text) + "' does not divide N = " + std::to_string(n));
            out.emplace_back(w.op, w.per_n ? n / w.div : w.regs);
        }
        return out;
    }
};

// Family rules: what a row of each layout family must look like.
void check_family_rules(std::string_view origin, int line, const Instruction& r) {
    if (std::string why = nvidia_rule_violation(r); !why.empty()) fail(origin, line, r.mnemonic + ": " + why);
}

}  // namespace

std::string nvidia_rule_violation(const Instruction& r) {
    std::string why;
    auto bad = [&why](const std::string& w) {
        if (why.empty()) why = w;
    };
    switch (r.kind) {
        case LayoutKind::MmaSync: {
            const bool m16 = r.m == 16, m8 = r.m == 8;
            if (!(m16 || m8) || r.n != 8) bad("mma_sync shapes are m16n8kK or m8n8kK");
            const int w = elem_bits(r.a), unit = std::max(32, w), p = unit / w;
            if (r.k % (4 * p) != 0) bad("K must be a multiple of 4 elements per register (" + std::to_string(4 * p) + ")");
            if (m8 && r.k != 4 * p) bad("m8n8 shapes hold one register row of A: K = " + std::to_string(4 * p));
            if (r.k * w > 1024) bad("K of at most 1024 bits of A per row (m16n8k16 f64, m16n8k64 s4)");
            if (r.blocks != 1) bad("mma_sync has one block");
            break;
        }
        case LayoutKind::MmaSparse:
            if (r.m != 16 || r.n != 8 || (r.k != 16 && r.k != 32)) bad("mma_sp shapes are m16n8k16 and m16n8k32");
            if (elem_bits(r.a) != 16) bad("mma_sp rows cover the 16-bit (f16/bf16) forms only");
            break;
        case LayoutKind::LdStMatrix:
            if (r.m != 8 || r.n != 8 || r.k != 0) bad("ldmatrix/stmatrix move 8x8 matrices: shape 8x8x0");
            if (r.blocks != 1 && r.blocks != 2 && r.blocks != 4) bad("blocks (matrices) must be 1, 2 or 4 (.x1 .x2 .x4)");
            if (r.mnemonic.find(".x" + std::to_string(r.blocks) + ".") == std::string::npos)
                bad("blocks " + std::to_string(r.blocks) + " disagrees with the spelling's .xN");
            if (r.a != ElemType::B16) bad("ldmatrix/stmatrix move b16 elements");
            break;
        case LayoutKind::Wgmma: {
            if (r.m != 64 || r.n < 8 || r.n > 256 || r.n % 8 != 0) bad("wgmma shapes are m64nNkK with N = 8..256, step 8");
            const int w = elem_bits(r.a);
            if (r.k * w != 256) bad("wgmma K is 32 bytes of A per row (k16 f16, k8 tf32, k32 8-bit)");
            break;
        }
        case LayoutKind::MmaBlockScale:
            if (r.m != 16 || r.n != 8 || (r.k != 32 && r.k != 64 && r.k != 128))
                bad("sm_120 mma.sync kind:: shapes are m16n8k32, m16n8k64 (dense) and m16n8k64, m16n8k128 (sparse)");
            break;
        case LayoutKind::Tcgen05Mma:
        case LayoutKind::Tcgen05LdSt:
        case LayoutKind::Tcgen05Cp:
            break;  // shapes are checked against core/catalog/blackwell.txt's templates (catalog_blackwell.cpp)
        default: bad("layout family is not an NVIDIA one");
    }
    return why;
}

bool is_nvidia_row(const std::vector<std::string_view>& fields) {
    if (fields.empty()) return false;
    for (std::string_view fam : text::split_view(fields[0], ',', true))
        if (!nvidia_family(fam)) return false;
    return true;
}

void parse_nvidia_row(const std::vector<std::string_view>& f, std::string_view origin, int line, bool check,
                      std::vector<Instruction>& out, std::vector<RangedRow>* lazy) {
    if (f.size() != kFields)
        fail(origin, line,
             "expected 12 '|'-separated fields for an NVIDIA row (families | ptx | short | aliases | layout | shape | n | "
             "blocks | types | regs | target | source), found " + std::to_string(f.size()));
    static constexpr std::pair<std::string_view, LayoutKind> kKinds[] = {{"mma_sync", LayoutKind::MmaSync},
                                                                        {"mma_sp", LayoutKind::MmaSparse},
                                                                        {"ldstmatrix", LayoutKind::LdStMatrix},
                                                                        {"wgmma", LayoutKind::Wgmma}};
    Instruction base;
    base.catalog_line = line;
    for (std::string_view fam : text::split_view(f[0], ',', true)) base.families.push_back(*nvidia_family(fam));
    const std::string ptx = text::lower(f[1]), short_name = text::lower(f[2]);
    std::vector<std::string> aliases;
    if (f[3] != "-")
        for (std::string_view a : text::split_view(f[3], ',', true)) aliases.push_back(text::lower(a));
    if (ptx.empty() || short_name.empty()) fail(origin, line, "empty PTX spelling or short name");
    const auto* kind = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const auto& e) { return e.first == f[4]; });
    if (kind == std::end(kKinds))
        fail(origin, line, "unknown layout '" + std::string(f[4]) + "'; legal: mma_sync mma_sp ldstmatrix wgmma");
    base.kind = kind->second;
    const auto dims = text::split_view(f[5], 'x');
    if (dims.size() != 3) fail(origin, line, "shape '" + std::string(f[5]) + "' is not MxNxK");
    base.m = number(origin, line, "shape", dims[0]);
    base.k = number(origin, line, "shape", dims[2]);
    base.blocks = number(origin, line, "blocks", f[7]);
    const auto types = text::split_view(f[8], ',');
    if (types.size() != 3) fail(origin, line, "types '" + std::string(f[8]) + "' must be A,B,C");
    ElemType* slots[3] = {&base.a, &base.b, &base.c};
    for (int i = 0; i < 3; ++i) {
        auto t = parse_elem(text::trim_view(types[i]));
        if (!t) fail(origin, line, "unknown element type '" + std::string(types[i]) + "'");
        *slots[i] = *t;
    }
    const auto target = text::split_view(f[10], '/', true);
    if (target.size() != 2 || target[0].substr(0, 3) != "sm_")
        fail(origin, line, "target '" + std::string(f[10]) + "' must read 'sm_XX / PTX version'");
    base.min_target = target[0];
    base.ptx_version = target[1];
    base.source = f[11];
    base.transposed = ptx.find(".trans.") != std::string::npos;
    base.store = ptx.rfind("stmatrix", 0) == 0;
    if (!ranged_shape(f[5]) && (ptx.find("{n}") != std::string::npos || short_name.find("{n}") != std::string::npos))
        fail(origin, line, "{N} in the spelling of a row whose shape has no {N}");

    // wgmma: one instruction per legal N; others: N is in the shape.
    const bool ranged = dims[1] == "{N}";
    RangedRow row;
    if (ranged) {
        const auto parts = text::split_view(f[6], ';');
        row.ns = n_values(origin, line, parts[0]);
        if (row.ns.empty()) fail(origin, line, "a {N} shape needs the legal N values in field 7");
        if (parts.size() > 1) {
            std::string_view h = text::trim_view(parts[1]);
            if (h.rfind("hw", 0) != 0) fail(origin, line, "field 7 after ';' must read 'hw' and the N run on hardware");
            row.hw = n_values(origin, line, text::trim_view(h.substr(2)));
        }
    } else {
        if (f[6] != "-") fail(origin, line, "field 7 (N values) is only for {N} shapes; write -");
        row.ns.push_back(number(origin, line, "shape", dims[1]));
    }
    row.hw_row = f[11].find("HW") != std::string_view::npos;
    row.regs = std::string(f[9]);
    (void)StatedRegs(origin, line, row.regs);  // a malformed regs field fails here, before any N is made
    base.mnemonic = ptx;
    base.short_name = short_name;
    base.aliases = std::move(aliases);
    row.base = std::move(base);
    row.ranged = ranged;
    row.origin = std::string(origin);
    // Unchecked (the built-in rows) and ranged: kept as one row, its N made when asked.
    if (ranged && !check && lazy) {
        lazy->push_back(std::move(row));
        return;
    }
    const std::vector<int>& ns = row.ns;
    if (out.capacity() < out.size() + ns.size()) out.reserve(std::max(2 * out.capacity(), out.size() + ns.size()));
    for (int n : ns) {
        Instruction& r = out.emplace_back(row.make(n));  // a failed check throws the catalog away
        if (!check) continue;
        check_family_rules(origin, line, r);
        // The stated register counts must be the formulas' (default modifiers).
        ResolvedModifiers mods;
        mods.wave = r.kind == LayoutKind::Wgmma ? 128 : 32;
        const auto ops = nvidia_operands(r);
        for (const auto& [op, regs] : r.stated_regs) {
            if (std::find(ops.begin(), ops.end(), op) == ops.end())
                fail(origin, line, r.mnemonic + ": regs names operand " + std::string(operand_name(op)) +
                                       ", which this instruction does not have");
            // An N range is checked at its ends (counts are linear in N; tests check every N).
            if (ranged && n != ns.front() && n != ns.back()) continue;
            const int formula = nvidia_spec(r, op, mods).regs;
            if (formula != regs)
                fail(origin, line, r.mnemonic + ": the row states " + std::to_string(regs) + " registers for " +
                                       std::string(operand_name(op)) + ", the " + std::string(layout_kind_name(r.kind)) +
                                       " formulas give " + std::to_string(formula));
        }
        for (Operand op : ops)
            if (!in_shared_memory(r, op, mods) &&  // a descriptor's operand has no registers to state
                std::none_of(r.stated_regs.begin(), r.stated_regs.end(), [&](const auto& s) { return s.first == op; }))
                fail(origin, line, r.mnemonic + ": regs does not state operand " + std::string(operand_name(op)));
    }
}

Instruction RangedRow::make(int n) const {
    Instruction r = base;
    r.n = n;
    r.mnemonic = replace_n(base.mnemonic, n);
    r.short_name = replace_n(base.short_name, n);
    r.aliases.clear();
    r.aliases.reserve(1 + base.aliases.size());
    r.aliases.push_back(r.short_name);
    for (const auto& a : base.aliases) r.aliases.push_back(replace_n(a, n));
    r.stated_regs = StatedRegs(origin, base.catalog_line, regs).counts(origin, base.catalog_line, n);
    if (ranged) {
        const bool run = std::find(hw.begin(), hw.end(), n) != hw.end();
        r.confidence = run ? "high: this N was run on an H200 (lanescope's CUDA probe, docs/verification)"
                           : "high: the same closed form as the N run on an H200 for this type (CuTe "
                             "CLayout_64xN holds for every N)";
    } else {
        r.confidence = hw_row ? "high: checked on an H200 (lanescope's CUDA probe, docs/verification)"
                              : "high: the same formula as a form checked on an H200; this exact type was not run";
    }
    return r;
}

std::optional<int> RangedRow::n_of(std::string_view name) const {
    auto match = [&](const std::string& pattern) -> std::optional<int> {
        const size_t at = pattern.find("{n}");
        if (at == std::string::npos || name.size() <= at || name.compare(0, at, pattern, 0, at) != 0) return std::nullopt;
        size_t end = at;
        while (end < name.size() && end - at < 4 && name[end] >= '0' && name[end] <= '9') ++end;
        if (end == at || (name[at] == '0')) return std::nullopt;
        const int n = std::stoi(std::string(name.substr(at, end - at)));
        if (!std::binary_search(ns.begin(), ns.end(), n) || replace_n(pattern, n) != name) return std::nullopt;
        return n;
    };
    if (auto n = match(base.mnemonic)) return n;
    if (auto n = match(base.short_name)) return n;
    for (const std::string& a : base.aliases)
        if (auto n = match(a)) return n;
    return std::nullopt;
}

}  // namespace lanescope::detail
