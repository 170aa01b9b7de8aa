// Gluon constructors (gluon.hpp). The named layouts' parameters follow
// Triton's python/triton/experimental/gluon/language/_layouts.py and
// amd/_layouts.py (Triton 3.6): AMDMFMALayout(version, instr_shape,
// transposed, warps_per_cta, element_bitwidth, tiles_per_warp),
// AMDWMMALayout(version, transposed, warps_per_cta, instr_shape,
// tiles_per_warp), NVMMADistributedLayout(version, warps_per_cta,
// instr_shape), DotOperandLayout(operand_index, parent, k_width). The AMD ones
// are witnessed by tests/data/triton (Triton 3.6's own layouts: equal bases,
// equal parameters). Every form printed here was evaluated back in Triton
// 3.6's Gluon on the host (scripts/gluon-roundtrip.py, 1,278 cases, the log in
// docs/verification/2026-12-01-h200-gluon.md): the named forms, NVIDIA's too,
// give lanescope's bases exactly, which is why a wgmma grid with warpgroups
// along both M and N gets none (Triton numbers them along M first).
#include "lanescope/gluon.hpp"
#include "lanescope/numbers.hpp"
#include "layouts/layout_spec.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace lanescope {

namespace {

std::string pair(int a, int b) { return "[" + num(a) + ", " + num(b) + "]"; }
std::string list_text(const std::vector<int>& v) {
    std::string s;
    for (int x : v) s += (s.empty() ? "" : ", ") + num(x);
    return s;
}
int mfma_version(Family f) { return f == Family::CDNA1 ? 1 : f == Family::CDNA2 ? 2 : f == Family::CDNA3 ? 3 : 4; }
int wmma_version(TritonLayout l) { return l == TritonLayout::Wmma1 ? 1 : l == TritonLayout::Wmma2 ? 2 : 3; }

}  // namespace

std::vector<int> gluon_k_widths(std::string_view parent, int version, int element_bits) {
    if (parent == "AMDMFMALayout") return {1, 2, 4, 8, 16};
    if (parent == "AMDWMMALayout")
        return triton_k_widths(version == 1 ? TritonLayout::Wmma1 : version == 2 ? TritonLayout::Wmma2 : TritonLayout::Wmma3);
    if (parent == "NVMMADistributedLayout" && version == 2) return {32 / std::max(1, std::min(32, element_bits))};
    return {};
}

namespace {
// The modifiers that move this instruction's data ("matrix_a_fmt, matrix_b_fmt" on gfx1250 f8f6f4,
// "cbsz, abid, blgp" on MFMA): what a named layout, which takes none, cannot express.
std::string data_modifier_names(const Instruction& ins, const Target& target) {
    std::vector<std::string> names;
    try {
        for (const ModifierRange& r : modifier_ranges(ins, target, resolve_modifiers(ins, target, Modifiers{})))
            if (r.moves_data && r.name != "wave" && r.values.size() > 1) names.push_back(r.name);
    } catch (const Error&) {
    }
    return names.empty() ? std::string("modifiers") : text::join(names, ", ");
}
}  // namespace

GluonForm gluon_of(const TileLayout& t, const Instruction& ins, const Target& target) {
    GluonForm g;
    const LinearResult lin = to_linear(t);
    const bool nvidia = target.vendor() == Vendor::NVIDIA;
    if (lin.layout) {
        try {
            g.linear = "gl." + render_distributed_linear(*lin.layout, nvidia ? 32 : t.lanes());
        } catch (const Error& e) {
            g.why_not_linear = e.what();
        }
    } else {
        g.why_not_linear = lin.why_not;
    }

    const TileParams& p = t.params();
    const Operand op = t.operand();
    const bool dot = op == Operand::A || op == Operand::B;
    const bool acc = op == Operand::C || op == Operand::D;
    std::string parent;
    int k_width = 0;
    const Family f = target.family;
    // Triton's named layouts know no modifiers (cbsz/abid, blgp, opsel): only default-modifier layouts have one.
    bool default_modifiers = false;
    try {
        Modifiers m;
        if (!nvidia) m.wave = t.lanes();
        const auto a = layout_of(ins, target, op, resolve_modifiers(ins, target, m)).entries();
        const auto b = t.instruction().entries();
        default_modifiers = a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Entry& x, const Entry& y) {
                                return x.element == y.element && x.loc == y.loc;
                            });
    } catch (const Error&) {
    }
    if (!lin.layout) {
        g.named_note = "no named Gluon layout: Triton's layouts are linear and this one is not";
    } else if (!default_modifiers) {
        g.named_note = "no named Gluon layout under these modifiers (Triton's layouts have no " +
                       data_modifier_names(ins, target) + ")";
    } else if (!dot && !acc) {
        g.named_note = "no named Gluon layout for operand " + std::string(operand_name(op)) + " (only A, B, C/D have one)";
    } else if (t.triton() == TritonLayout::Mfma && ins.m == ins.n && (ins.m == 16 || ins.m == 32)) {
        const int version = mfma_version(f);
        // Triton's instr_shape K grows with kWidth (two 32x32x8 issues at kWidth 8 are its 32x32x16).
        const int kw = t.k_width(), native = t.native_k_width();
        const int k = dot && kw > 0 && native > 0 ? ins.k * kw / native : ins.k;
        parent = "AMDMFMALayout(version=" + num(version) + ", instr_shape=[" + num(ins.m) + ", " + num(ins.n) + ", " +
                 num(k) + "], transposed=" + (p.transposed ? "True" : "False") + ", warps_per_cta=" +
                 pair(p.waves_m, p.waves_n) + ", element_bitwidth=" + num(elem_bits(ins.c)) +
                 ", tiles_per_warp=" + pair(p.tiles_m, p.tiles_n) + ")";
        k_width = kw;
        g.named_note = "named form: as Triton 3.6 builds it (witnessed by its own layouts, tests/data/triton)";
    } else if ((t.triton() == TritonLayout::Wmma1 || t.triton() == TritonLayout::Wmma2 || t.triton() == TritonLayout::Wmma3) &&
               ins.m == 16 && ins.n == 16) {
        const int version = wmma_version(t.triton());
        parent = "AMDWMMALayout(version=" + num(version) + ", transposed=" + (p.transposed ? "True" : "False") +
                 ", warps_per_cta=" + pair(p.waves_m, p.waves_n) + ", instr_shape=[" + num(ins.m) + ", " + num(ins.n) + ", " +
                 num(ins.k) + "], tiles_per_warp=" + pair(p.tiles_m, p.tiles_n) + ")";
        k_width = t.k_width();
        g.named_note = "named form: as Triton 3.6 builds it (witnessed by its own layouts, tests/data/triton)";
    } else if (ins.kind == LayoutKind::MmaSync && ins.m == 16 && ins.n == 8 && p.tiles_m == 1 && p.tiles_n == 1) {
        parent = "gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=" + pair(p.waves_m, p.waves_n) +
                 ", instr_shape=[16, 8])";
        k_width = 32 / std::max(1, elem_bits(ins.a));
        g.named_note = "named form: Triton 3.6 evaluates it to these bases (mma v2; kWidth = 32 bits / element; "
                       "measured: docs/verification/2026-12-01-h200-gluon.md)";
    } else if (ins.kind == LayoutKind::Wgmma && acc && p.tiles_m == 1 && p.tiles_n == 1 && p.waves_m > 1 && p.waves_n > 1) {
        // Triton 3.6 numbers the warps of warps_per_cta=[4*WM, WN] along M first, so its warpgroup g is
        // lanescope's wave (g % WM) * WN + g / WM: the same elements per thread, other wave numbers.
        g.named_note = "no named Gluon layout with this wave numbering: NVMMADistributedLayout(version=[3, 0], "
                       "warps_per_cta=" + pair(4 * p.waves_m, p.waves_n) + ", ...) numbers warpgroups along M first "
                       "(its warpgroup g is lanescope's wave (g % " + num(p.waves_m) + ") * " + num(p.waves_n) +
                       " + g / " + num(p.waves_m) + "); the DistributedLinearLayout is the exact one";
    } else if (ins.kind == LayoutKind::Wgmma && acc && p.tiles_m == 1 && p.tiles_n == 1) {
        parent = "gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=" + pair(4 * p.waves_m, p.waves_n) +
                 ", instr_shape=[16, " + num(ins.n) + ", " + num(256 / std::max(1, elem_bits(ins.a))) + "])";
        g.named_note = "named form: Triton 3.6 evaluates it to these bases (mma v3: a warpgroup is 4 warps along M; "
                       "measured: docs/verification/2026-12-01-h200-gluon.md)";
    } else {
        g.named_note = "no named Gluon layout for " + ins.mnemonic + " (" + std::string(layout_kind_name(ins.kind)) +
                       (p.tiles_m * p.tiles_n > 1 ? ", tiles per wave" : "") +
                       "); the DistributedLinearLayout is the exact one";
    }
    if (!parent.empty() && dot) {
        // Every named form printed is one its consumer takes: a kWidth Triton refuses gets none.
        const std::string kind = parent.find("AMDMFMALayout") != std::string::npos   ? "AMDMFMALayout"
                                 : parent.find("AMDWMMALayout") != std::string::npos ? "AMDWMMALayout"
                                                                                     : "NVMMADistributedLayout";
        const int version = kind == "AMDMFMALayout" ? mfma_version(f) : kind == "AMDWMMALayout" ? wmma_version(t.triton()) : 2;
        const std::vector<int> legal = gluon_k_widths(kind, version, elem_bits(op == Operand::A ? ins.a : ins.b));
        if (!legal.empty() && std::find(legal.begin(), legal.end(), k_width) == legal.end()) {
            g.named_note = "no named Gluon layout: the kWidth this operand needs (" + num(k_width) +
                           ") is not one Triton takes for a DotOperandLayout over " + kind + " (legal k_width: " +
                           list_text(legal) +
                           "); the DistributedLinearLayout is the exact one";
            parent.clear();
        }
    }
    if (!parent.empty())
        g.named = dot ? "gl.DotOperandLayout(operand_index=" + num(op == Operand::A ? 0 : 1) + ", parent=" + parent +
                            ", k_width=" + num(k_width) + ")"
                      : parent;
    return g;
}

// A tcgen05.mma D read back with --tmem-load: Triton 3.6's own constructors (scripts/triton-tmem-layouts.py
// dumps what they build; tests/test_tcgen05.cpp compares them element by element).
GluonForm gluon_of(const TileLayout& t, const Instruction& ins, const Target& target, const ResolvedModifiers& mods) {
    GluonForm g = gluon_of(t, ins, target);
    const Operand op = t.operand();
    if (ins.kind != LayoutKind::Tcgen05Mma || mods.tmem_load <= 0 || (op != Operand::C && op != Operand::D)) return g;
    const detail::TmemRegBases b = detail::tcgen05_tmem_reg_bases(ins, mods);
    const std::string dtype = b.element_bits == 16 ? (ins.d_type() == ElemType::BF16 ? "gl.bfloat16" : "gl.float16")
                                                   : ins.d_type() == ElemType::S32 ? "gl.int32" : "gl.float32";
    const std::string variant = b.variant == "16x32bx2" ? "32x32b" : b.variant;
    if (!b.cta.empty()) {
        // cta_group::2: Gluon's layouts are per CTA, the CTA a block basis: the DistributedLinearLayout of the pair
        // is each CTA's warps' bases with block_bases the CTA's rows ([128, 0] Layout A, [64, 0] Layout B).
        LinearLayout pair;
        pair.reg = b.reg, pair.lane = b.lane, pair.warp = b.warp;
        pair.rows = b.rows, pair.cols = b.cols;
        g.linear = "gl." + render_distributed_linear(pair, 32, b.cta);
        g.why_not_linear.clear();
    }
    if (b.layout != 'D' && b.layout != 'F' && b.layout != 'A') {
        // Layouts B, E, G: no TensorMemoryLayout of Triton 3.6 holds them; the bases are exact.
        g.named.clear();
        g.named_note = std::string("no named form: Triton 3.6's TensorMemoryLayout has no Layout ") + b.layout +
                       " (.ws M = 64 / 32, or cta_group::2 M = 128); the DistributedLinearLayout below is the read-back, exact";
        return g;
    }
    if (!b.cta.empty()) {
        // Layout A: CTA c of the pair holds rows 128c..128c+127 as the two_ctas layout of a 128-row block (Triton
        // 3.6's dump: tests/test_tcgen05_cli.cpp compares it with both CTAs).
        g.named = "get_tmem_reg_layout(" + dtype + ", [128, " + num(b.cols) + "], TensorMemoryLayout(block=(128, " + num(b.cols) +
                  "), col_stride=" + num(32 / b.element_bits) + ", two_ctas=True), num_warps=" + num(b.num_warps) +
                  ", instr_variant=\"" + variant + "\")";
        g.named_note = "named form: each CTA's layout (Triton 3.6's get_tmem_reg_layout for its 128-row block of D with two_ctas; "
                       "CTA c holds rows 128c..128c+127: " + b.message + " in each CTA); the pair is the DistributedLinearLayout "
                       "below, the CTA its block basis [128, 0]";
        return g;
    }
    // Triton infers 16x32bx2 from a 32x32b request on a 64-row block; it refuses it by name (variant above).
    g.named = "get_tmem_reg_layout(" + dtype + ", [" + num(b.rows) + ", " + num(b.cols) +
              "], TensorMemoryLayout(block=(" + num(b.rows) + ", " + num(b.cols) + "), col_stride=" +
              num(32 / b.element_bits) + "), num_warps=" + num(b.num_warps) + ", instr_variant=\"" + variant + "\")";
    g.named_note = "named form: Triton 3.6's get_tmem_reg_layout for a TMEM block of D (" + b.message +
                   "; witnessed by its own layouts, tests/data/triton)";
    return g;
}

std::string render_gluon(const GluonForm& g, const std::string& title) {
    std::string s = "# " + title + "\n";
    s += "from triton.experimental.gluon import language as gl\n";
    if (g.named.find("AMDMFMALayout") != std::string::npos || g.named.find("AMDWMMALayout") != std::string::npos)
        s += "from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout\n";
    if (g.named.find("get_tmem_reg_layout") != std::string::npos)
        s += "from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, get_tmem_reg_layout\n";
    if (!g.named.empty()) s += "# " + g.named_note + "\nlayout = " + g.named + "\n";
    else s += "# " + g.named_note + "\n";
    if (!g.linear.empty()) s += "# the same layout as bases (exact: lanescope's linear form)\nlinear = " + g.linear + "\n";
    else s += "# no DistributedLinearLayout: " + g.why_not_linear + "\n";
    return s;
}

// ------------------------------------------------------- reading them back ----

namespace {

const char* const kNamedParents[] = {"AMDMFMALayout", "AMDWMMALayout", "NVMMADistributedLayout"};

// A call as Python writes it: NAME(key=value, ...), values whole numbers,
// True/False, lists of values or calls. Bounded: 64 levels, 4096 list items.
struct PyValue {
    enum Kind { Int, Bool, List, Call } kind = Int;
    long long i = 0;
    std::vector<PyValue> items;                          // List
    std::string name;                                    // Call
    std::vector<std::pair<std::string, PyValue>> args;   // Call (positional ones have an empty key)
};

class PyReader {
public:
    PyReader(std::string_view text, std::string where, size_t pos) : t_(text), where_(std::move(where)), pos_(pos) {}
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(where_ + ": in the Gluon constructor at character " + num(static_cast<long long>(pos_ + 1)) + ": " + what);
    }
    void space() {
        while (pos_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[pos_]))) ++pos_;
    }
    std::string ident() {
        size_t b = pos_;
        while (pos_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[pos_])) || t_[pos_] == '_' || t_[pos_] == '.')) ++pos_;
        return std::string(t_.substr(b, pos_ - b));
    }
    PyValue value(int depth) {
        if (depth > 64) fail("nested more than 64 levels");
        space();
        if (pos_ >= t_.size()) fail("the text ends inside the constructor");
        PyValue v;
        const char c = t_[pos_];
        if (c == '[' || c == '(') {
            const char close = c == '[' ? ']' : ')';
            ++pos_;
            v.kind = PyValue::List;
            for (;;) {
                space();
                if (pos_ < t_.size() && t_[pos_] == close) { ++pos_; break; }
                if (v.items.size() >= 4096) fail("a list of more than 4096 items");
                v.items.push_back(value(depth + 1));
                space();
                if (pos_ < t_.size() && t_[pos_] == ',') { ++pos_; continue; }
                if (pos_ < t_.size() && t_[pos_] == close) { ++pos_; break; }
                fail(pos_ >= t_.size() ? std::string("the text ends inside the constructor")
                                       : std::string("expected ',' or '") + close + "' in a list");
            }
            return v;
        }
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
            auto r = std::from_chars(t_.data() + pos_, t_.data() + t_.size(), v.i);
            if (r.ec != std::errc() || v.i < -(1LL << 40) || v.i > (1LL << 40)) fail("expected a whole number");
            pos_ = static_cast<size_t>(r.ptr - t_.data());
            return v;
        }
        const std::string name = ident();
        if (name.empty()) fail(std::string("unexpected '") + c + "'; expected a number, True, False, a list or a call");
        if (name == "True" || name == "False") {
            v.kind = PyValue::Bool;
            v.i = name == "True";
            return v;
        }
        space();
        if (pos_ >= t_.size() || t_[pos_] != '(') fail("'" + name.substr(0, 40) + "' is not a value Gluon's layouts take here");
        ++pos_;
        v.kind = PyValue::Call;
        v.name = name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
        for (;;) {
            space();
            if (pos_ < t_.size() && t_[pos_] == ')') { ++pos_; break; }
            if (v.args.size() >= 16) fail(v.name + "(...) has more than 16 arguments");
            std::string key;
            const size_t save = pos_;
            if (pos_ < t_.size() && (std::isalpha(static_cast<unsigned char>(t_[pos_])) || t_[pos_] == '_')) {
                key = ident();
                space();
                if (pos_ < t_.size() && t_[pos_] == '=' && key.find('.') == std::string::npos) ++pos_;
                else key.clear(), pos_ = save;
            }
            if (key.empty() && !v.args.empty() && !v.args.back().first.empty())
                fail("in " + v.name + "(...) a positional argument follows a keyword argument, which Python refuses "
                     "(SyntaxError); legal: name every argument after the first keyword one");
            v.args.push_back({key, value(depth + 1)});
            space();
            if (pos_ < t_.size() && t_[pos_] == ',') { ++pos_; continue; }
            if (pos_ < t_.size() && t_[pos_] == ')') { ++pos_; break; }
            fail(pos_ >= t_.size() ? "the text ends inside the constructor" : "expected ',' or ')' in " + v.name + "(...)");
        }
        return v;
    }

private:
    std::string_view t_;
    std::string where_;
    size_t pos_;
};

// Where the first call of `name` (optionally module-qualified) starts, or npos.
size_t find_call(std::string_view text, std::string_view name) {
    for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
        size_t p = at + name.size();
        while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
        if (p < text.size() && text[p] == '(') return at;
    }
    return std::string_view::npos;
}

}  // namespace

bool has_gluon_named_layout(std::string_view text) {
    if (text.find("DistributedLinearLayout") != std::string_view::npos) return false;
    if (find_call(text, "DotOperandLayout") != std::string_view::npos) return true;
    for (const char* n : kNamedParents)
        if (find_call(text, n) != std::string_view::npos) return true;
    return false;
}

GluonNamedLayout parse_gluon_named_layout(std::string_view text, std::string_view origin) {
    const std::string where(origin);
    size_t at = find_call(text, "DotOperandLayout");
    if (at == std::string_view::npos)
        for (const char* n : kNamedParents) at = std::min(at, find_call(text, n));
    if (at == std::string_view::npos)
        throw Error(where + ": no Gluon constructor DotOperandLayout(...), AMDMFMALayout(...), AMDWMMALayout(...) or "
                            "NVMMADistributedLayout(...) in the text");
    PyReader r(text, where, at);
    const PyValue call = r.value(0);
    GluonNamedLayout g;
    const size_t end = std::min(text.size(), at + 400);
    g.text = std::string(text.substr(at, end - at));
    if (g.text.find('\n') != std::string::npos) g.text.resize(g.text.find('\n'));
    auto fail = [&](const std::string& what) -> void { throw Error(where + ": " + what); };
    auto integer = [&](const PyValue& v, const std::string& what, long long lo, long long hi) {
        if (v.kind != PyValue::Int || v.i < lo || v.i > hi)
            fail(what + " must be a whole number from " + num(lo) + " to " + num(hi));
        return static_cast<int>(v.i);
    };
    auto ints = [&](const PyValue& v, const std::string& what, size_t lo, size_t hi, int least = 1) {
        std::vector<int> out;
        if (v.kind != PyValue::List || v.items.size() < lo || v.items.size() > hi)
            fail(what + " must be a list of " + (lo == hi ? num(static_cast<long long>(lo)) : num(static_cast<long long>(lo)) + " to " + num(static_cast<long long>(hi))) + " whole numbers");
        for (const PyValue& x : v.items) out.push_back(integer(x, what + "'s items", least, 1 << 20));
        return out;
    };
    auto boolean = [&](const PyValue& v, const std::string& what) {
        if (v.kind != PyValue::Bool) fail(what + " must be True or False");
        return v.i != 0;
    };
    const PyValue* parent = &call;
    if (call.name == "DotOperandLayout") {
        static const char* const keys[3] = {"operand_index", "parent", "k_width"};
        const PyValue* got[3] = {nullptr, nullptr, nullptr};
        for (size_t i = 0; i < call.args.size(); ++i) {
            int k = call.args[i].first.empty() ? static_cast<int>(i) : -1;
            for (int j = 0; j < 3; ++j)
                if (call.args[i].first == keys[j]) k = j;
            if (k < 0 || k > 2)
                fail("DotOperandLayout takes operand_index, parent and k_width; not '" + call.args[i].first.substr(0, 32) + "'");
            if (got[k]) fail(std::string("DotOperandLayout: ") + keys[k] + " is given twice");
            got[k] = &call.args[i].second;
        }
        for (int j = 0; j < 3; ++j)
            if (!got[j]) fail(std::string("DotOperandLayout needs ") + keys[j]);
        g.operand_index = integer(*got[0], "operand_index", 0, 1);
        g.k_width = integer(*got[2], "k_width", 1, 1 << 20);
        parent = got[1];
        if (parent->kind != PyValue::Call)
            fail("DotOperandLayout's parent must be AMDMFMALayout(...), AMDWMMALayout(...) or NVMMADistributedLayout(...)");
    }
    g.parent = parent->name;
    std::vector<const char*> keys;
    if (g.parent == "AMDMFMALayout")
        keys = {"version", "instr_shape", "transposed", "warps_per_cta", "element_bitwidth", "tiles_per_warp"};
    else if (g.parent == "AMDWMMALayout")
        keys = {"version", "transposed", "warps_per_cta", "instr_shape", "tiles_per_warp"};
    else if (g.parent == "NVMMADistributedLayout")
        keys = {"version", "warps_per_cta", "instr_shape"};
    else
        fail("'" + g.parent.substr(0, 40) + "(...)' is not a layout lanescope reads; legal: DotOperandLayout over "
             "AMDMFMALayout, AMDWMMALayout or NVMMADistributedLayout, one of those alone, or DistributedLinearLayout");
    bool seen_version = false, seen_warps = false, seen_shape = false;
    std::vector<std::string> seen;
    for (size_t i = 0; i < parent->args.size(); ++i) {
        std::string key = parent->args[i].first;
        if (key.empty()) {
            if (i >= keys.size()) fail(g.parent + " takes at most " + num(static_cast<long long>(keys.size())) + " arguments");
            key = keys[i];
        }
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail(g.parent + ": " + key + " is given twice");
        seen.push_back(key);
        const PyValue& v = parent->args[i].second;
        const std::string what = g.parent + "'s " + key;
        if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; }) == keys.end()) {
            std::string legal;
            for (const char* k : keys) legal += (legal.empty() ? "" : ", ") + std::string(k);
            fail(g.parent + " has no argument '" + key.substr(0, 32) + "'; legal: " + legal);
        }
        if (key == "version") {
            seen_version = true;
            if (v.kind == PyValue::List) {
                const auto vv = ints(v, what, 2, 2, 0);
                g.version = vv[0];
                g.version_minor = vv[1];
            } else {
                g.version = integer(v, what, 0, 16);
            }
        } else if (key == "instr_shape") {
            seen_shape = true;
            g.instr_shape = ints(v, what, 2, 3);
        } else if (key == "transposed") {
            g.transposed = boolean(v, what);
        } else if (key == "warps_per_cta") {
            seen_warps = true;
            const auto w = ints(v, what, 2, 2);
            g.warps_m = w[0];
            g.warps_n = w[1];
        } else if (key == "tiles_per_warp") {
            const auto w = ints(v, what, 2, 2);
            g.tiles_m = w[0];
            g.tiles_n = w[1];
        } else if (key == "element_bitwidth") {
            g.element_bitwidth = integer(v, what, 1, 64);
        }
    }
    if (!seen_version) fail(g.parent + " needs version");
    if (!seen_warps) fail(g.parent + " needs warps_per_cta");
    if (!seen_shape && g.parent != "AMDWMMALayout") fail(g.parent + " needs instr_shape");
    if (g.parent == "NVMMADistributedLayout" && g.version != 2 && g.version != 3)
        fail("NVMMADistributedLayout's version must be [2, 0] (mma.sync) or [3, 0] (wgmma)");
    return g;
}

LinearLayout gluon_named_linear(const GluonNamedLayout& g, const Instruction& ins, const Target& target, Operand op,
                                const ResolvedModifiers& mods, int rows, int cols) {
    const std::string what = "the Gluon layout " + g.text.substr(0, 160) + (g.text.size() > 160 ? "..." : "");
    auto fail = [&](const std::string& why) -> void { throw Error(what + ": " + why); };
    const std::string query = ins.mnemonic + " on " + target.gfx;
    const bool dot = g.operand_index >= 0;
    if (dot && op != (g.operand_index == 0 ? Operand::A : Operand::B))
        fail("is operand " + std::string(g.operand_index == 0 ? "A" : "B") + "'s (operand_index=" + num(g.operand_index) +
             "), not " + std::string(operand_name(op)) + "'s (--operand)");
    if (!dot && op != Operand::C && op != Operand::D)
        fail("is the accumulator's (C/D) layout; operand " + std::string(operand_name(op)) +
             "'s is DotOperandLayout(operand_index=..., parent=..., k_width=...)");
    const TritonLayout tl = triton_layout_of(target.family);
    const auto shape_is = [&](int m, int n) {
        if (g.instr_shape.size() >= 2 && (g.instr_shape[0] != m || g.instr_shape[1] != n))
            fail("instr_shape " + pair(g.instr_shape[0], g.instr_shape[1]) + " is not " + query + "'s " + pair(m, n) +
                 " (give the instruction the layout names, -i)");
    };
    TileParams p;
    p.waves_m = g.warps_m;
    p.waves_n = g.warps_n;
    p.tiles_m = g.tiles_m;
    p.tiles_n = g.tiles_n;
    p.transposed = g.transposed;
    bool warpgroups_along_m = false;
    const int bits = elem_bits(op == Operand::A ? ins.a : op == Operand::B ? ins.b : ins.c);
    if (g.parent == "AMDMFMALayout") {
        if (tl != TritonLayout::Mfma) fail("is an MFMA layout; " + query + " is not an MFMA instruction");
        if (g.version != mfma_version(target.family))
            fail("version=" + num(g.version) + ": " + target.gfx + " is MFMA version " + num(mfma_version(target.family)));
        shape_is(ins.m, ins.n);
        if (g.element_bitwidth != elem_bits(ins.c))
            fail("element_bitwidth=" + num(g.element_bitwidth) + ": " + query + "'s accumulator is " + num(elem_bits(ins.c)) + "-bit");
    } else if (g.parent == "AMDWMMALayout") {
        if (tl != TritonLayout::Wmma1 && tl != TritonLayout::Wmma2 && tl != TritonLayout::Wmma3)
            fail("is a WMMA layout; " + query + " is not a WMMA instruction Triton lays out");
        if (g.version != wmma_version(tl))
            fail("version=" + num(g.version) + ": " + target.gfx + " is WMMA version " + num(wmma_version(tl)));
        shape_is(ins.m, ins.n);
        if (g.instr_shape.size() == 3 && g.instr_shape[2] != ins.k)
            fail("instr_shape K " + num(g.instr_shape[2]) + " is not " + query + "'s " + num(ins.k));
    } else {
        if (target.vendor() != Vendor::NVIDIA) fail("is an NVIDIA layout; " + query + " is not NVIDIA's");
        if (g.version == 2) {
            if (ins.kind != LayoutKind::MmaSync || ins.m != 16 || ins.n != 8)
                fail("version=[2, 0] is mma.sync m16n8 (Triton's mma v2); " + query + " is not");
            shape_is(16, 8);
            p.tiles_m = p.tiles_n = 1;
        } else {
            if (ins.kind != LayoutKind::Wgmma) fail("version=[3, 0] is wgmma (Triton's mma v3); " + query + " is not");
            if (dot) fail("lanescope reads NVMMADistributedLayout version [3, 0] for the accumulator only");
            if (g.instr_shape.size() >= 2 && (g.instr_shape[0] != 16 || g.instr_shape[1] != ins.n))
                fail("instr_shape " + pair(g.instr_shape[0], g.instr_shape[1]) + " is not " + query + "'s [16, " + num(ins.n) + "]");
            if (g.warps_m % 4 != 0) fail("warps_per_cta[0] = " + num(g.warps_m) + ": a warpgroup is 4 warps along M (a multiple of 4)");
            p.waves_m = g.warps_m / 4;
            p.tiles_m = p.tiles_n = 1;
            warpgroups_along_m = p.waves_m > 1 && p.waves_n > 1;
        }
    }
    if (dot) {
        const std::vector<int> legal = gluon_k_widths(g.parent, g.version, bits);
        if (!legal.empty() && std::find(legal.begin(), legal.end(), g.k_width) == legal.end())
            fail("k_width=" + num(g.k_width) + " is not one Triton takes (legal: " + list_text(legal) + ")");
        if (tl != TritonLayout::None) p.k_width = g.k_width;
    }
    // The shape: rows x cols of the operand; the dot operand's other dimension is one wave-grid tile.
    if (op == Operand::A) p.m = rows, p.k = cols, p.n = ins.n * p.tiles_n * p.waves_n;
    else if (op == Operand::B) p.k = rows, p.n = cols, p.m = ins.m * p.tiles_m * p.waves_m;
    else p.m = rows, p.n = cols;
    std::optional<TileLayout> t;
    try {
        t.emplace(ins, target, op, mods, p);
    } catch (const Error& e) {
        fail(std::string("at shape ") + num(rows) + " x " + num(cols) + ": " + e.what());
    }
    if (dot && g.parent == "AMDMFMALayout" && g.instr_shape.size() == 3 && t->native_k_width() > 0) {
        const int k = ins.k * g.k_width / t->native_k_width();
        if (g.instr_shape[2] != k)
            fail("instr_shape K " + num(g.instr_shape[2]) + ": with k_width=" + num(g.k_width) + " Triton's K of " + query +
                 " is " + num(k));
    }
    if (t->triton() == TritonLayout::None && tl != TritonLayout::None)
        fail("operand " + std::string(operand_name(op)) + " of " + query + " under these modifiers is not one of Triton's layouts");
    const LinearResult lin = to_linear(*t);
    if (!lin.layout) fail("has no linear form here: " + lin.why_not);
    LinearLayout L = *lin.layout;
    if (warpgroups_along_m) {
        // Triton 3.6 numbers the warpgroups of warps_per_cta=[4*WM, WN] along M first; lanescope's wave is wm * WN + wn.
        int bn = 0;
        while ((1 << bn) < p.waves_n) ++bn;
        std::rotate(L.warp.begin(), L.warp.begin() + bn, L.warp.end());
    }
    return L;
}

}  // namespace lanescope
