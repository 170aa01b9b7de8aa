// Linear layouts over GF(2) (linear.hpp): derived from the engine's answers,
// never assumed: bases are read off single-bit indices, then the whole map is
// evaluated back and compared.
#include "lanescope/linear.hpp"
#include "lanescope/numbers.hpp"
#include "util/json_read.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

namespace lanescope {

namespace {


bool power_of_two(long long v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

std::pair<int, int> LinearLayout::apply(int r, int l, int w) const {
    int row = 0, col = 0;
    auto fold = [&](const std::vector<std::pair<int, int>>& b, int x) {
        for (size_t i = 0; i < b.size(); ++i)
            if (x >> i & 1) {
                row ^= b[i].first;
                col ^= b[i].second;
            }
    };
    fold(reg, r);
    fold(lane, l);
    fold(warp, w);
    return {row, col};
}

namespace {
// Why two elements share bits of one register: A of a structured-sparse instruction is given in
// dense coordinates (lanescope.hpp), so the K elements of a group share the slot the sparse index K
// fills at run time; otherwise the modifiers (cbsz/abid broadcasts) put several elements there.
std::string shared_bits_cause(const TileLayout& t, const SlotPart& a, const SlotPart& b) {
    if (t.operand() == Operand::A && a.element.block == b.element.block && a.element.row == b.element.row &&
        a.bit_lo == b.bit_lo && a.bit_hi == b.bit_hi)
        return "(A[" + num(a.element.row) + "][" + num(a.element.col) + "] and A[" + num(b.element.row) + "][" +
               num(b.element.col) + "]): A is structured-sparse, held compressed, and which of its K elements a "
               "slot holds is chosen at run time by the sparse index (operand K), not by the layout";
    return "under these modifiers";
}
}  // namespace

std::vector<std::vector<Element>> held_elements(const TileLayout& t) {
    std::vector<std::vector<Element>> out(static_cast<size_t>(t.waves()) * t.lanes());
    for (int w = 0; w < t.waves(); ++w)
        for (int lane = 0; lane < t.lanes(); ++lane) {
            auto& list = out[static_cast<size_t>(w) * t.lanes() + lane];
            for (int reg = 0; reg < t.regs(); ++reg) {
                auto parts = t.which(w, reg, lane);
                std::sort(parts.begin(), parts.end(),
                          [](const SlotPart& a, const SlotPart& b) { return a.bit_lo < b.bit_lo; });
                for (size_t n = 0; n < parts.size(); ++n) {
                    if (n && parts[n].bit_lo <= parts[n - 1].bit_hi)
                        throw Error("v" + num(reg) + " bits [" + num(parts[n].bit_hi) + ":" + num(parts[n].bit_lo) +
                                    "] of lane " + num(lane) + " hold several elements " +
                                    shared_bits_cause(t, parts[n - 1], parts[n]) +
                                    ", so the layout is no function of (register, lane, wave)");
                    if (parts[n].elem_bit_lo == 0) list.push_back(parts[n].element);
                }
            }
        }
    return out;
}

std::string uniform_held_elements(const TileLayout& t, std::vector<std::vector<Element>>& held) {
    try {
        held = held_elements(t);
    } catch (const Error& e) {
        return e.what();
    }
    const size_t n = held[0].size();
    for (const auto& list : held)
        if (list.size() != n)
            return "lanes hold different numbers of elements (" + num(n) + " and " + num(list.size()) + ")";
    return {};
}

LinearResult to_linear(const TileLayout& t) {
    LinearResult res;
    if (t.instruction().space() != Space::Registers) {
        res.why_not = "the operand lives in " + std::string(space_title(t.instruction().space())) +
                      ": a linear layout maps registers, lanes and warps";
        return res;
    }
    std::vector<std::vector<Element>> held;
    res.why_not = uniform_held_elements(t, held);
    if (!res.why_not.empty()) return res;
    const size_t n = held[0].size();
    if (!power_of_two(static_cast<long long>(n)) || !power_of_two(t.lanes()) || !power_of_two(t.waves())) {
        res.why_not = "each lane holds " + num(n) + " elements over " + num(t.lanes()) + " lanes and " + num(t.waves()) +
                      " waves; a linear layout needs powers of two";
        return res;
    }
    if (!power_of_two(t.rows()) || !power_of_two(t.cols())) {
        res.why_not = "the shape " + num(t.rows()) + " x " + num(t.cols()) + " is not a power of two in each dimension";
        return res;
    }
    auto at = [&](int r, int l, int w) { return held[static_cast<size_t>(w) * t.lanes() + l][r]; };
    const Element origin = at(0, 0, 0);
    if (origin.row != 0 || origin.col != 0) {
        res.why_not = "index 0 of lane 0 in wave 0 holds (" + num(origin.row) + ", " + num(origin.col) +
                      "), but a linear layout sends index 0 to (0, 0) (the placement is shifted or rotated)";
        return res;
    }
    LinearLayout L;
    L.rows = t.rows();
    L.cols = t.cols();
    for (int b = 1; b < static_cast<int>(n); b *= 2) L.reg.push_back({at(b, 0, 0).row, at(b, 0, 0).col});
    for (int b = 1; b < t.lanes(); b *= 2) L.lane.push_back({at(0, b, 0).row, at(0, b, 0).col});
    for (int b = 1; b < t.waves(); b *= 2) L.warp.push_back({at(0, 0, b).row, at(0, 0, b).col});
    for (int w = 0; w < t.waves(); ++w)
        for (int l = 0; l < t.lanes(); ++l)
            for (int r = 0; r < static_cast<int>(n); ++r) {
                const Element e = at(r, l, w);
                const auto rc = L.apply(r, l, w);
                if (rc.first != e.row || rc.second != e.col) {
                    res.why_not = "register index " + num(r) + " of lane " + num(l) + " in wave " + num(w) + " holds (" +
                                  num(e.row) + ", " + num(e.col) + "), but the XOR of its bits' bases gives (" +
                                  num(rc.first) + ", " + num(rc.second) +
                                  "): the placement is not an XOR of per-bit moves (e.g. a rotation)";
                    return res;
                }
            }
    res.layout = L;
    return res;
}

std::string render_linear(const LinearLayout& l) {
    auto bases = [](const std::vector<std::pair<int, int>>& b) {
        std::string s = "[";
        for (size_t i = 0; i < b.size(); ++i)
            s += (i ? ", " : "") + std::string("[") + num(b[i].first) + ", " + num(b[i].second) + "]";
        return s + "]";
    };
    return "{\"register\": " + bases(l.reg) + ",\n \"lane\": " + bases(l.lane) + ",\n \"warp\": " + bases(l.warp) +
           ",\n \"block\": [],\n \"shape\": [" + num(l.rows) + ", " + num(l.cols) + "]}\n";
}

std::string render_distributed_linear(const LinearLayout& l, int warp_lanes, const std::vector<std::pair<int, int>>& block_bases) {
    // Gluon builds DistributedLinearLayout surjective (Triton's LinearLayout with requireSurjective):
    // the bases must span the whole shape, or Gluon refuses the layout.
    std::vector<uint64_t> span;
    for (const auto* dim : {&l.reg, &l.lane, &l.warp, &block_bases})
        for (const auto& [r, c] : *dim) {
            uint64_t v = static_cast<uint64_t>(r) << 32 | static_cast<uint32_t>(c);
            for (uint64_t b : span)
                if ((v ^ b) < v) v ^= b;
            if (v) span.push_back(v), std::sort(span.rbegin(), span.rend());
        }
    const long long covered = 1LL << span.size(), cells = static_cast<long long>(l.rows) * l.cols;
    if (covered != cells)
        throw Error("Gluon's DistributedLinearLayout must be surjective (its bases reach every element of the shape); "
                    "these bases reach " + num(covered) + " of the " + num(l.rows) + " x " + num(l.cols) + " = " + num(cells) +
                    " elements; legal: bases that span the shape (or a shape of " + num(covered) + " elements they fill)");
    auto bases = [](const std::vector<std::pair<int, int>>& b) {
        std::string s = "[";
        for (size_t i = 0; i < b.size(); ++i)
            s += (i ? ", " : "") + std::string("[") + num(b[i].first) + ", " + num(b[i].second) + "]";
        return s + "]";
    };
    // Lanes past a warp's (a warpgroup's lanes 32..127 on NVIDIA) are Triton's low warp bits.
    const LinearLayout w = split_warp_lanes(l, warp_lanes);
    return "DistributedLinearLayout(reg_bases=" + bases(w.reg) + ", lane_bases=" + bases(w.lane) +
           ", warp_bases=" + bases(w.warp) + ", block_bases=" + bases(block_bases) + ", shape=[" + num(w.rows) + ", " +
           num(w.cols) + "])";
}

LinearLayout split_warp_lanes(const LinearLayout& l, int warp_lanes) {
    if (warp_lanes <= 0) return l;
    LinearLayout out = l;
    size_t keep = 0;
    while ((1 << keep) < warp_lanes && keep < l.lane.size()) ++keep;
    out.warp.assign(l.lane.begin() + static_cast<long>(keep), l.lane.end());
    out.lane.resize(keep);
    out.warp.insert(out.warp.end(), l.warp.begin(), l.warp.end());
    return out;
}

int linear_warp_lanes(const Instruction& ins, const ResolvedModifiers& mods) {
    return ins.kind == LayoutKind::Tcgen05Mma && mods.tmem_load > 0 ? 32 : 0;
}

std::string_view without_bom(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    return text;
}

namespace {

using json_read::Pull;
using Basis = std::pair<long long, long long>;

// Bases as read, before their limits are checked against the shape.
struct RawLinear {
    std::vector<Basis> reg, lane, warp, block;
    size_t counted[4] = {0, 0, 0, 0};  // bases listed per in-dim (register, lane, warp, block)
    bool seen[5] = {false, false, false, false, false};  // register, lane, warp, block, shape
    long long rows = 0, cols = 0;
};

const char* const kInDims[4] = {"register", "lane", "warp", "block"};
constexpr size_t kMaxDim[3] = {kLinearMaxBasesLog2, kLinearMaxLaneBases, kLinearMaxWarpBases};

std::string limits_text() {
    return "legal: register + lane + warp bases at most " + num(kLinearMaxBasesLog2) + " in all (2^" +
           num(kLinearMaxBasesLog2) + " = 16M places: the largest tile lanescope lays out), lane at most " +
           num(kLinearMaxLaneBases) + " (128 lanes), warp at most " + num(kLinearMaxWarpBases) + " (1024 waves)";
}

// Stores basis `i` of in-dim `d` while within its limit; past it only counts (for the message).
void keep_basis(RawLinear& raw, int d, Basis b) {
    raw.counted[d]++;
    if (d == 3) {
        if (raw.block.size() < 1) raw.block.push_back(b);
        return;
    }
    auto& v = d == 0 ? raw.reg : d == 1 ? raw.lane : raw.warp;
    if (v.size() < kMaxDim[d]) v.push_back(b);
}

// Checks the limits and the shape; the names (`key`) as the form spells them.
// Without a shape (`shape_optional`, for check): rows and cols 0, bases bounded by the largest shape.
LinearLayout finish_linear(const RawLinear& raw, const std::string& where, const char* const key[5],
                           bool shape_optional = false) {
    const bool no_shape = !raw.seen[4] && shape_optional;
    if (!raw.seen[4] && !no_shape) throw Error(where + ": missing \"" + key[4] + "\" ([rows, cols], powers of two)");
    for (int d = 0; d < 2; ++d)
        if (!raw.seen[d]) throw Error(where + ": missing \"" + key[d] + "\" (a list of [row, col] bases)");
    const long long R = no_shape ? kLinearMaxCells : raw.rows, C = no_shape ? kLinearMaxCells : raw.cols;
    if (!no_shape && (!power_of_two(R) || !power_of_two(C) || R > kLinearMaxCells || C > kLinearMaxCells || R * C > kLinearMaxCells))
        throw Error(where + ": \"" + key[4] + "\" [" + num(R) + ", " + num(C) +
                    "] is not legal: powers of two with rows x cols at most 16777216 (2^24, the largest tile lanescope "
                    "lays out)");
    // Block bases place the CTAs of a cluster: lanescope lays out one CTA, or a tcgen05 cta_group::2 pair
    // (its threads one list, thread 32*W*c + t, so the CTA is read as the warp basis after the last).
    if (raw.counted[3] > 1)
        throw Error(where + ": \"" + key[3] + "\" has " + num(static_cast<long long>(raw.counted[3])) +
                    " bases; legal: none (one CTA) or one (a tcgen05 cta_group::2 CTA pair)");
    size_t total = 0;
    for (int d = 0; d < 3; ++d) {
        if (raw.counted[d] > kMaxDim[d])
            throw Error(where + ": too many bases in \"" + key[d] + "\" (" + num(static_cast<long long>(raw.counted[d])) +
                        "); at most " + num(static_cast<long long>(kMaxDim[d])) + "; " + limits_text());
        total += raw.counted[d];
    }
    if (total > static_cast<size_t>(kLinearMaxBasesLog2))
        throw Error(where + ": too many bases (" + num(static_cast<long long>(total)) + " register + lane + warp: " +
                    num(static_cast<long long>(raw.counted[0])) + " + " + num(static_cast<long long>(raw.counted[1])) +
                    " + " + num(static_cast<long long>(raw.counted[2])) + "); at most " + num(kLinearMaxBasesLog2) +
                    " in all; " + limits_text());
    LinearLayout L;
    L.rows = no_shape ? 0 : static_cast<int>(R);
    L.cols = no_shape ? 0 : static_cast<int>(C);
    for (int d = 0; d < 3; ++d) {
        const auto& in = d == 0 ? raw.reg : d == 1 ? raw.lane : raw.warp;
        auto& out = d == 0 ? L.reg : d == 1 ? L.lane : L.warp;
        for (size_t i = 0; i < in.size(); ++i) {
            const auto [r, c] = in[i];
            if (r < 0 || r >= R || c < 0 || c >= C)
                throw Error(where + ": \"" + key[d] + "\"[" + num(static_cast<long long>(i)) + "] = [" + num(r) + ", " +
                            num(c) + "] is outside the shape " + num(R) + " x " + num(C) + " (legal: 0.." +
                            num(R - 1) + ", 0.." + num(C - 1) + ")");
            out.push_back({static_cast<int>(r), static_cast<int>(c)});
        }
    }
    for (const auto& [r, c] : raw.block) {
        if (r < 0 || r >= R || c < 0 || c >= C)
            throw Error(where + ": \"" + key[3] + "\"[0] = [" + num(r) + ", " + num(c) + "] is outside the shape " + num(R) +
                        " x " + num(C));
        L.warp.push_back({static_cast<int>(r), static_cast<int>(c)});  // the CTA: after the last warp
        ++L.block_bases;
    }
    return L;
}

// [dim0, dim1] at the reader's position.
Basis read_basis(Pull& p, const std::string& what) {
    if (p.peek() != Pull::Array) p.fail(what + " must be [row, col] (a list of two whole numbers)");
    long long v[2] = {0, 0};
    size_t n = 0;
    p.array([&](size_t i) {
        const long long x = p.integer(what + "[" + num(static_cast<long long>(i)) + "]");
        if (i < 2) v[i] = x;
        n = i + 1;
    });
    if (n != 2)
        p.fail(what + " has " + num(static_cast<long long>(n)) +
               " numbers; legal: [row, col] (two: lanescope compares two-dimensional layouts)");
    return {v[0], v[1]};
}

void read_bases(Pull& p, RawLinear& raw, int d, const std::string& key) {
    if (p.peek() != Pull::Array) p.fail("\"" + key + "\" must be a list of [row, col] bases");
    p.array([&](size_t i) { keep_basis(raw, d, read_basis(p, "\"" + key + "\"[" + num(static_cast<long long>(i)) + "]")); });
}

void read_shape(Pull& p, RawLinear& raw, const std::string& key) {
    if (p.peek() != Pull::Array) p.fail("\"" + key + "\" must be [rows, cols]");
    const Basis b = read_basis(p, "\"" + key + "\"");
    raw.rows = b.first;
    raw.cols = b.second;
}

const char* const kLanescopeKeys[5] = {"register", "lane", "warp", "block", "shape"};
const char* const kTritonKeys[5] = {"reg_bases", "lane_bases", "warp_bases", "block_bases", "shape"};

LinearLayout parse_linear_json(std::string_view text, const std::string& where, bool shape_optional) {
    Pull p(text, where);
    if (p.peek() != Pull::Object)
        throw Error(where + ": expected an object {\"register\": ..., \"lane\": ..., \"warp\": ..., \"shape\": [R, C]} "
                            "or Triton's {\"reg_bases\": ..., \"lane_bases\": ..., \"warp_bases\": ..., \"shape\": [R, C]}");
    RawLinear raw;
    int form = 0;  // 1 lanescope's keys, 2 Triton's
    p.object([&](const std::string& key) {
        for (int f = 1; f <= 2; ++f) {
            const char* const* keys = f == 1 ? kLanescopeKeys : kTritonKeys;
            for (int k = 0; k < 5; ++k) {
                if (key != keys[k] || (k == 4 && f == 2)) continue;
                if (form && form != f && k != 4)
                    p.fail("\"" + key + "\" mixes Triton's key names (reg_bases, lane_bases, warp_bases, block_bases) "
                           "with lanescope's (register, lane, warp, block); use one set");
                if (k != 4) form = f;
                if (raw.seen[k]) p.fail("\"" + key + "\" appears twice");
                raw.seen[k] = true;
                if (k == 4) read_shape(p, raw, key);
                else read_bases(p, raw, k, key);
                return;
            }
        }
        if (key == "layout" || key == "params") return p.skip();  // scripts/triton-layouts.py records
        if (key == "error") {
            const std::string why = p.peek() == Pull::String ? p.string() : "";
            p.fail("this record is Triton's refusal of the layout, not a layout: " + why);
        }
        p.fail("unknown key \"" + key +
               "\"; legal: register, lane, warp, block, shape (lanescope) or reg_bases, lane_bases, warp_bases, "
               "block_bases, shape (Triton, Gluon's DistributedLinearLayout)");
    });
    p.finish();
    return finish_linear(raw, where, form == 2 ? kTritonKeys : kLanescopeKeys, shape_optional);
}

// Gluon: DistributedLinearLayout(reg_bases=[...], lane_bases=[...], warp_bases=[...], block_bases=[...], shape=[...])
LinearLayout parse_linear_gluon(std::string_view text, const std::string& where, bool shape_optional) {
    // The first call: "DistributedLinearLayout" followed by '(' (comments may name it too).
    const std::string_view name = "DistributedLinearLayout";
    size_t pos = 0;
    auto space = [&] {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    };
    for (size_t at = text.find(name);; at = text.find(name, at + 1)) {
        if (at == std::string_view::npos)
            throw Error(where + ": no call DistributedLinearLayout(reg_bases=..., lane_bases=..., warp_bases=..., "
                                "block_bases=..., shape=...) in the text");
        pos = at + name.size();
        space();
        if (pos < text.size() && text[pos] == '(') break;
    }
    ++pos;
    RawLinear raw;
    bool keyword_given = false;  // Python refuses a positional argument after a keyword one (a SyntaxError)
    for (int arg = 0;; ++arg) {
        space();
        if (pos < text.size() && text[pos] == ')') break;
        size_t name_end = pos;
        while (name_end < text.size() && (std::isalnum(static_cast<unsigned char>(text[name_end])) || text[name_end] == '_'))
            ++name_end;
        int k = arg;
        size_t after = name_end;
        while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
        if (name_end > pos && after < text.size() && text[after] == '=') {
            const std::string_view name = text.substr(pos, name_end - pos);
            k = -1;
            for (int i = 0; i < 5; ++i)
                if (name == kTritonKeys[i]) k = i;
            if (k < 0)
                Pull(text, where, pos).fail("unknown argument " + std::string(name) +
                                            "; legal: reg_bases, lane_bases, warp_bases, block_bases, shape");
            pos = after + 1;
            keyword_given = true;
        } else if (keyword_given) {
            Pull(text, where, pos).fail("a positional argument follows a keyword argument, which Python refuses "
                                        "(SyntaxError); legal: name every argument after the first keyword one");
        } else if (k > 4) {
            Pull(text, where, pos).fail("DistributedLinearLayout takes five arguments "
                                        "(reg_bases, lane_bases, warp_bases, block_bases, shape)");
        }
        if (raw.seen[k]) Pull(text, where, pos).fail(std::string(kTritonKeys[k]) + " is given twice");
        raw.seen[k] = true;
        Pull p(text, where, pos);
        if (k == 4) read_shape(p, raw, kTritonKeys[k]);
        else read_bases(p, raw, k, kTritonKeys[k]);
        pos = p.position();
        space();
        if (pos < text.size() && text[pos] == ',') {
            ++pos;
            continue;
        }
        if (pos < text.size() && text[pos] == ')') break;
        Pull(text, where, pos).fail("expected ',' or ')' in DistributedLinearLayout(...)");
    }
    return finish_linear(raw, where, kTritonKeys, shape_optional);
}

// Triton's LinearLayout::toString() (lib/Tools/LinearLayout.cpp):
//    - register=1 -> (0, 1)
//      register=2 -> (8, 0)
//    - lane=1 -> (1, 0)
//    - warp is a size 1 dimension
//   where out dims are: [dim0 (size 16), dim1 (size 16)]
// or "(empty layout with out-dims [dim0 (size 1), dim1 (size 1)])".
LinearLayout parse_linear_text(std::string_view text, const std::string& where) {
    struct RawBasis {
        long long v[2] = {0, 0};
        size_t n = 0;
        int dim = 0;
    };
    std::vector<RawBasis> bases;  // bounded: each in-dim keeps at most its limit
    RawLinear raw;
    raw.seen[0] = raw.seen[1] = true;  // absent in-dims are size 1
    int current = -1;                  // in-dim of the lines being read
    bool in_dim_seen[4] = {false, false, false, false};
    bool done = false, started = false;
    std::vector<std::pair<std::string, long long>> out_dims;
    size_t line_no = 0, start = 0;
    auto fail = [&](const std::string& what) -> void {
        throw Error(where + ": line " + num(static_cast<long long>(line_no)) + ": " + what);
    };
    auto parse_out_dims = [&](std::string_view s) {
        // "[dim0 (size 32), dim1 (size 32)]"
        if (s.empty() || s.front() != '[' || s.back() != ']')
            fail("expected the out dims as [dim0 (size R), dim1 (size C)]");
        s = s.substr(1, s.size() - 2);
        while (!s.empty()) {
            const size_t open = s.find(" (size ");
            const size_t close = s.find(')');
            if (open == std::string_view::npos || close == std::string_view::npos || close < open)
                fail("expected an out dim as NAME (size N)");
            long long size = 0;
            const auto r = std::from_chars(s.data() + open + 7, s.data() + close, size);
            if (r.ec != std::errc() || r.ptr != s.data() + close) fail("an out dim's size must be a whole number");
            out_dims.push_back({std::string(s.substr(0, open)), size});
            if (out_dims.size() > 4) fail("more than two out dims; lanescope compares two-dimensional layouts (dim0, dim1)");
            s.remove_prefix(close + 1);
            if (s.substr(0, 2) == ", ") s.remove_prefix(2);
            else if (!s.empty()) fail("expected ', ' between out dims");
        }
    };
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() : end + 1;
        ++line_no;
        auto trim = [&] {
            while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
            while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
        };
        trim();
        if (line.substr(0, 2) == "//") line.remove_prefix(2);
        else if (line.substr(0, 1) == "#") line.remove_prefix(1);
        trim();
        if (line.empty()) continue;
        if (done) fail("text after \"where out dims are\": one layout per file");
        if (line.substr(0, 13) == "(empty layout") {
            const std::string_view prefix = "(empty layout with out-dims ";
            if (line == "(empty layout)")
                fail("an empty layout has no out dims, so no shape; legal: one over dim0 and dim1");
            if (line.substr(0, prefix.size()) != prefix || line.back() != ')')
                fail("expected (empty layout with out-dims [dim0 (size R), dim1 (size C)])");
            parse_out_dims(line.substr(prefix.size(), line.size() - prefix.size() - 1));
            done = true;
            continue;
        }
        const std::string_view where_prefix = "where out dims are:";
        if (line.substr(0, where_prefix.size()) == where_prefix) {
            line.remove_prefix(where_prefix.size());
            trim();
            parse_out_dims(line);
            done = true;
            continue;
        }
        bool new_dim = false;
        if (line.substr(0, 2) == "- ") {
            line.remove_prefix(2);
            trim();
            new_dim = true;
        }
        // The in-dim's name: up to '=' or ' is a size 1 dimension'.
        size_t name_end = 0;
        while (name_end < line.size() && (std::isalnum(static_cast<unsigned char>(line[name_end])) || line[name_end] == '_'))
            ++name_end;
        const std::string_view name = line.substr(0, name_end);
        if (!new_dim && !started) {
            if (!line.empty() && line.back() == ':') continue;  // a label before the layout ("tileLayout:")
            fail("expected \" - register=1 -> (row, col)\" (Triton's LinearLayout::toString())");
        }
        int d = -1;
        for (int i = 0; i < 4; ++i)
            if (name == kInDims[i]) d = i;
        if (d < 0)
            fail("in-dim '" + std::string(name) +
                 "' is not one of register, lane, warp, block (a distributed layout; other layouts are not read)");
        if (new_dim) {
            if (in_dim_seen[d]) fail("in-dim " + std::string(name) + " appears twice");
            in_dim_seen[d] = true;
            current = d;
            started = true;
            if (line.substr(name_end) == " is a size 1 dimension") {
                current = -1;
                continue;
            }
        } else if (d != current) {
            fail("expected \"" + std::string(current >= 0 ? kInDims[current] : "register") + "=...\" or \" - IN_DIM=1 -> ...\"");
        }
        // "=V -> (a, b)"
        std::string_view rest = line.substr(name_end);
        if (rest.empty() || rest.front() != '=') fail("expected " + std::string(name) + "=N -> (row, col)");
        rest.remove_prefix(1);
        long long v = 0;
        auto r = std::from_chars(rest.data(), rest.data() + rest.size(), v);
        const size_t index = raw.counted[d];
        if (r.ec != std::errc() || index >= 62 || v != (1LL << index))
            fail(std::string(name) + "=" + std::string(rest.substr(0, static_cast<size_t>(r.ptr - rest.data()))) +
                 ": expected " + std::string(name) + "=" + (index < 62 ? num(1LL << index) : std::string("2^i")) +
                 " (bases are listed for 1, 2, 4, ...)");
        rest.remove_prefix(static_cast<size_t>(r.ptr - rest.data()));
        if (rest.substr(0, 5) != " -> (" || rest.back() != ')') fail("expected " + std::string(name) + "=N -> (row, col)");
        rest = rest.substr(5, rest.size() - 6);
        RawBasis b;
        b.dim = d;
        while (true) {
            while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
            long long x = 0;
            auto rx = std::from_chars(rest.data(), rest.data() + rest.size(), x);
            if (rx.ec != std::errc()) fail("expected whole numbers in (row, col)");
            if (b.n < 2) b.v[b.n] = x;
            if (++b.n > 4) fail("more than two numbers in a basis; lanescope compares two-dimensional layouts");
            rest.remove_prefix(static_cast<size_t>(rx.ptr - rest.data()));
            if (rest.empty()) break;
            if (rest.front() != ',') fail("expected ', ' between a basis' numbers");
            rest.remove_prefix(1);
        }
        raw.counted[d]++;
        if (d < 3 ? raw.counted[d] <= kMaxDim[d] : raw.counted[d] <= 1) bases.push_back(b);  // as keep_basis
    }
    if (!done)
        throw Error(where + ": no \"where out dims are: [dim0 (size R), dim1 (size C)]\" line: the text of Triton's "
                            "LinearLayout::toString() ends with one");
    // Out dims: dim0 (rows) and dim1 (cols), in the order the bases list them.
    int row_at = -1, col_at = -1;
    for (size_t i = 0; i < out_dims.size(); ++i) {
        if (out_dims[i].first == "dim0" && row_at < 0) row_at = static_cast<int>(i), raw.rows = out_dims[i].second;
        else if (out_dims[i].first == "dim1" && col_at < 0) col_at = static_cast<int>(i), raw.cols = out_dims[i].second;
        else
            throw Error(where + ": out dim '" + out_dims[i].first +
                        "': legal out dims are dim0 (rows) and dim1 (cols), once each (a two-dimensional tensor)");
    }
    if (row_at < 0 || col_at < 0)
        throw Error(where + ": the out dims must be dim0 (rows) and dim1 (cols); lanescope compares two-dimensional layouts");
    raw.seen[4] = true;
    for (const RawBasis& b : bases) {
        if (b.n != out_dims.size())
            throw Error(where + ": a " + kInDims[b.dim] + " basis has " + num(static_cast<long long>(b.n)) +
                        " numbers, but there are " + num(static_cast<long long>(out_dims.size())) + " out dims");
        auto& v = b.dim == 0 ? raw.reg : b.dim == 1 ? raw.lane : b.dim == 2 ? raw.warp : raw.block;
        v.push_back({b.v[row_at], b.v[col_at]});
    }
    static const char* const keys[5] = {"register", "lane", "warp", "block", "where out dims are"};
    return finish_linear(raw, where, keys);
}

size_t first_text(std::string_view text) {
    size_t first = text.find_first_not_of(" \t\r\n");
    return first == std::string_view::npos ? text.size() : first;
}

}  // namespace

std::string_view linear_form_of(std::string_view text) {
    text = without_bom(text);
    const size_t first = first_text(text);
    if (first >= text.size()) return "";
    if (text[first] == '{') return "JSON";
    if (text.find("DistributedLinearLayout") != std::string_view::npos) return "Gluon DistributedLinearLayout";
    const std::string_view head = text.substr(first, 64);
    if (head.substr(0, 2) == "- " || head.substr(0, 13) == "(empty layout" || head.substr(0, 4) == "// -" ||
        text.find("where out dims are:") != std::string_view::npos)
        return "Triton LinearLayout text";
    return "";
}

LinearLayout parse_linear(std::string_view text_in, std::string_view origin, bool shape_optional) {
    const std::string where(origin);
    const std::string_view text = without_bom(text_in);
    const std::string_view form = linear_form_of(text);
    if (form == "JSON") return parse_linear_json(text, where, shape_optional);
    if (form == "Gluon DistributedLinearLayout") return parse_linear_gluon(text, where, shape_optional);
    if (form == "Triton LinearLayout text") return parse_linear_text(text, where);
    if (first_text(text) >= text.size())
        throw Error(where + ": empty; expected a linear layout (lanescope's or Triton's JSON, Gluon's "
                            "DistributedLinearLayout(...) or the text of Triton's LinearLayout::toString())");
    throw Error(where + ": not a linear layout: expected lanescope's or Triton's JSON object, Gluon's "
                        "DistributedLinearLayout(...) or the text of Triton's LinearLayout::toString() "
                        "(\" - register=1 -> (0, 1)\" ... \"where out dims are: [dim0 (size R), dim1 (size C)]\")");
}

}  // namespace lanescope
