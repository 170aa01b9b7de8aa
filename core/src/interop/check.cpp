// check_layout (check.hpp): compares, element by element, every placement
// lanescope gives with every placement the other layout gives. Both sides are
// flat sorted lists of packed (element, placement) pairs, 16 bytes each, so a
// comparison of the largest legal layouts (2^24 places) stays within memory.
#include "lanescope/check.hpp"

#include "lanescope/limits.hpp"
#include "lanescope/numbers.hpp"
#include "util/json_read.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>

namespace lanescope {

namespace {

using json_read::Pull;


auto key(const Placement& p) { return std::make_tuple(p.wave, p.lane, p.reg, p.bit_lo, p.bit_hi, p.index); }

// The bounds of what a placement may say (and what packs into 64 bits below).
struct Bound {
    const char* name;
    int max;
};
constexpr Bound kBlock{"block", 255}, kRow{"row", (1 << 24) - 1}, kCol{"col", (1 << 24) - 1}, kWave{"wave", 4095},
    kLane{"lane", 65535}, kReg{"reg", (1 << 24) - 1}, kBitLo{"bit_lo", 63}, kBitHi{"bit_hi", 63};

// The readers hold what check compares: as many placements as a tile check takes (docs/limits.md).
std::string too_many_placements() {
    return "more than " + num(kMaxHeldPlacements) + " placements; check compares at most " + num(kMaxHeldPlacements) +
           " (every placement of both layouts is held in memory)";
}

std::string bound_text(const Bound& b) { return "a whole number from 0 to " + num(b.max); }

// ------------------------------------------------------------------ readers ----

// The bits each element spans over its placements when every element (of the
// first 4096 seen) spans as many, else 0. Replicated elements count one copy:
// the bits of their placements in the first (wave, lane) that holds them.
int uniform_element_bits(const std::vector<std::pair<Element, Placement>>& entries) {
    std::map<std::tuple<int, int, int>, std::pair<std::pair<int, int>, int>> bits;  // element -> ((wave, lane), bits)
    for (const auto& [e, p] : entries) {
        const auto key = std::make_tuple(e.block, e.row, e.col);
        auto it = bits.find(key);
        if (it == bits.end()) {
            if (bits.size() >= 4096) continue;
            it = bits.emplace(key, std::make_pair(std::make_pair(p.wave, p.lane), 0)).first;
        }
        if (it->second.first == std::make_pair(p.wave, p.lane)) it->second.second += p.bit_hi - p.bit_lo + 1;
    }
    int w = 0;
    for (const auto& kv : bits) {
        if (w && kv.second.second != w) return 0;
        w = kv.second.second;
    }
    return w;
}

GivenLayout from_contract(std::string_view text, const std::string& origin) {
    GivenLayout g;
    g.origin = origin;
    Pull p(text, origin);
    bool have_entries = false;
    p.object([&](const std::string& k) {
        if (k == "operand") {
            if (p.peek() != Pull::String) p.fail("\"operand\" must be a string naming the operand (A, B, C, D, K, SA, SB)");
            g.operand = p.string();
            if (!parse_operand(g.operand))
                p.fail("\"operand\" \"" + g.operand.substr(0, 16) + "\" is not one of A, B, C, D, K, SA, SB");
            return;
        }
        if (k == "element_bits" && p.peek() == Pull::Int) {
            const long long b = p.integer("\"element_bits\"");
            if (b < 1 || b > 64) p.fail("\"element_bits\" = " + num(b) + ": must be a whole number from 1 to 64");
            g.element_bits = static_cast<int>(b);
            return;
        }
        if (k == "type" && p.peek() == Pull::String) {
            g.type = p.string().substr(0, 32);
            return;
        }
        if (k == "modifiers" && p.peek() == Pull::Object) {
            // The contract's modifiers: those that differ from their default, as `info` names them.
            p.object([&](const std::string& name) {
                if (p.peek() != Pull::Int || name == "wave") return p.skip();
                const long long v = p.integer("\"modifiers\"." + name.substr(0, 24));
                if (v != 0 && g.modifiers.size() < 256)
                    g.modifiers += (g.modifiers.empty() ? "" : " ") + name.substr(0, 24) + "=" + num(v);
            });
            return;
        }
        if (k != "entries") return p.skip();
        if (have_entries) p.fail("\"entries\" appears twice");
        have_entries = true;
        if (p.peek() != Pull::Array) p.fail("\"entries\" must be a list");
        p.array([&](size_t n) {
            const std::string at = "entries[" + num(static_cast<long long>(n)) + "]";
            if (static_cast<long long>(n) >= kMaxHeldPlacements) p.fail(too_many_placements());
            if (p.peek() != Pull::Object) p.fail(at + " must be an object {\"row\", \"col\", \"lane\", \"reg\", \"bit_lo\", \"bit_hi\"}");
            int v[8] = {0, -1, -1, 0, -1, -1, -1, -1};  // block row col wave lane reg bit_lo bit_hi
            static const Bound* const bounds[8] = {&kBlock, &kRow, &kCol, &kWave, &kLane, &kReg, &kBitLo, &kBitHi};
            p.object([&](const std::string& field) {
                for (int i = 0; i < 8; ++i)
                    if (field == bounds[i]->name) {
                        const std::string what = at + "." + field;
                        const long long x = p.integer(what);
                        if (x < 0 || x > bounds[i]->max) p.fail(what + " = " + num(x) + ": must be " + bound_text(*bounds[i]));
                        v[i] = static_cast<int>(x);
                        return;
                    }
                p.skip();  // other fields of the contract (none today) are not compared
            });
            for (int i : {1, 2, 4, 5, 6, 7})
                if (v[i] < 0) p.fail(at + " has no \"" + bounds[i]->name + "\" (" + bound_text(*bounds[i]) + ")");
            Placement pl;
            pl.wave = v[3];
            pl.lane = v[4];
            pl.reg = v[5];
            pl.bit_lo = v[6];
            pl.bit_hi = v[7];
            g.entries.push_back({Element{v[0], v[1], v[2]}, pl});
        });
    });
    p.finish();
    if (!have_entries) throw Error(origin + ": \"entries\" is missing (the JSON contract lists them)");
    if (!g.element_bits) g.element_bits = uniform_element_bits(g.entries);
    return g;
}

// Splits one CSV line (quotes as RFC 4180); at most `max_cells` cells kept.
std::vector<std::string> split_csv_line(std::string_view line, size_t max_cells) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else out.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            if (out.size() > max_cells) return out;  // the caller reports the count
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

GivenLayout from_csv(std::string_view text, const std::string& origin) {
    GivenLayout g;
    g.origin = origin;
    std::vector<std::string> head;
    std::map<std::string, size_t> col;
    size_t line_no = 0, start = 0;
    constexpr size_t kMaxColumns = 64;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() : end + 1;
        ++line_no;
        if (line.empty() || line == "\r") continue;
        auto cells = split_csv_line(line, kMaxColumns);
        if (head.empty()) {
            if (cells.size() > kMaxColumns)
                throw Error(origin + ": line " + num(static_cast<long long>(line_no)) + ": the CSV header has more than " +
                            num(kMaxColumns) + " columns; legal: row, col, lane, reg, bit_lo, bit_hi (and optionally "
                            "block, wave), as `layout --format csv` writes");
            head = cells;
            for (size_t i = 0; i < head.size(); ++i) col[head[i]] = i;
            for (const char* need : {"row", "col", "lane", "reg", "bit_lo", "bit_hi"})
                if (!col.count(need))
                    throw Error(origin + ": not a layout lanescope reads: as CSV, the header needs columns row, col, "
                                "lane, reg, bit_lo, bit_hi (and optionally block, wave), as `layout --format csv` "
                                "writes; missing '" + need + "' (other forms: the JSON contract, a linear layout as "
                                "JSON, Gluon's DistributedLinearLayout(...) or Triton's LinearLayout text)");
            continue;
        }
        if (cells.size() != head.size())
            throw Error(origin + ": line " + num(static_cast<long long>(line_no)) + ": " +
                        (cells.size() > head.size() ? "more than " + num(static_cast<long long>(head.size()))
                                                    : num(static_cast<long long>(cells.size()))) +
                        " cells, the header has " + num(static_cast<long long>(head.size())));
        auto get = [&](const Bound& b) {
            auto it = col.find(b.name);
            if (it == col.end()) return 0;
            const std::string& s = cells[it->second];
            long long v = 0;
            auto r = std::from_chars(s.data(), s.data() + s.size(), v);
            if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0 || v > b.max)
                throw Error(origin + ": line " + num(static_cast<long long>(line_no)) + ": " + b.name + " '" +
                            s.substr(0, 24) + "' is not " + bound_text(b));
            return static_cast<int>(v);
        };
        if (static_cast<long long>(g.entries.size()) >= kMaxHeldPlacements)
            throw Error(origin + ": line " + num(static_cast<long long>(line_no)) + ": " + too_many_placements());
        Placement p;
        p.wave = get(kWave);
        p.lane = get(kLane);
        p.reg = get(kReg);
        p.bit_lo = get(kBitLo);
        p.bit_hi = get(kBitHi);
        g.entries.push_back({Element{get(kBlock), get(kRow), get(kCol)}, p});
    }
    if (head.empty()) throw Error(origin + ": empty; expected the JSON contract, CSV or a linear layout");
    g.element_bits = uniform_element_bits(g.entries);
    return g;
}

// The top-level keys of a JSON object, for telling its form (values skipped).
struct TopKeys {
    bool entries = false, linear = false;
};
TopKeys top_keys(std::string_view text, const std::string& origin) {
    TopKeys k;
    Pull p(text, origin);
    p.object([&](const std::string& key) {
        if (key == "entries") k.entries = true;
        for (const char* l : {"register", "lane", "reg_bases", "lane_bases"})
            if (key == l) k.linear = true;
        p.skip();
    });
    p.finish();
    return k;
}

// ------------------------------------------------------------ comparison ----

// (element, placement) packed: element block 8 | row 24 | col 24 bits;
// placement wave 12 | lane 16 | reg 24 | bit_lo 6 | bit_hi 6, or for a linear
// form wave 12 | lane 16 | index 36 (the readers' bounds keep every field inside; lane takes the
// threads of a CTA pair, 512 for tcgen05's cta_group::2 read back by 8 warps a CTA).
struct Rec {
    uint64_t el, pl;
    bool operator<(const Rec& o) const { return el != o.el ? el < o.el : pl < o.pl; }
    bool operator==(const Rec& o) const { return el == o.el && pl == o.pl; }
};
constexpr int kLaneShift = 36;
uint64_t pack_el(const Element& e) {
    return static_cast<uint64_t>(e.block) << 48 | static_cast<uint64_t>(e.row) << 24 | static_cast<uint64_t>(e.col);
}
Element unpack_el(uint64_t v) {
    return {static_cast<int>(v >> 48), static_cast<int>(v >> 24 & 0xffffff), static_cast<int>(v & 0xffffff)};
}
uint64_t pack_pl(const Placement& p) {
    const uint64_t head = static_cast<uint64_t>(p.wave) << 52 | static_cast<uint64_t>(p.lane) << kLaneShift;
    if (p.index >= 0) return head | static_cast<uint64_t>(p.index);
    return head | static_cast<uint64_t>(p.reg) << 12 | static_cast<uint64_t>(p.bit_lo) << 6 | static_cast<uint64_t>(p.bit_hi);
}
Placement unpack_pl(uint64_t v, bool linear) {
    Placement p;
    p.wave = static_cast<int>(v >> 52);
    p.lane = static_cast<int>(v >> kLaneShift & 0xffff);
    if (linear) {
        p.index = static_cast<int>(v & 0xffffffffu);
    } else {
        p.reg = static_cast<int>(v >> 12 & 0xffffffu);
        p.bit_lo = static_cast<int>(v >> 6 & 63);
        p.bit_hi = static_cast<int>(v & 63);
    }
    return p;
}

// One side as a function of (wave, lane, slot): `at[(w * lanes + l) * slots + s]`,
// slot labels "i3" (linear) or "v1[15:0]"; empty when it is no such function.
struct Grid {
    int waves = 0, lanes = 0, slots = 0;
    std::vector<Element> at;
    std::vector<std::string> labels;
    const Element& operator()(int w, int l, int s) const {
        return at[(static_cast<size_t>(w) * lanes + l) * slots + s];
    }
    bool empty() const { return at.empty(); }
};

Grid grid_from_held(const std::vector<std::vector<Element>>& held, int lanes) {
    Grid g;
    if (held.empty() || lanes <= 0) return g;
    const size_t n = held[0].size();
    for (const auto& list : held)
        if (list.size() != n) return g;
    g.waves = static_cast<int>(held.size()) / lanes;
    g.lanes = lanes;
    g.slots = static_cast<int>(n);
    g.at.reserve(held.size() * n);
    for (const auto& list : held) g.at.insert(g.at.end(), list.begin(), list.end());
    for (size_t i = 0; i < n; ++i) g.labels.push_back("i" + num(static_cast<long long>(i)));
    return g;
}

Grid grid_from_linear(const LinearLayout& L) {
    Grid g;
    g.waves = L.warp_count();
    g.lanes = L.lane_count();
    g.slots = L.reg_count();
    g.at.reserve(static_cast<size_t>(L.places()));
    for (int w = 0; w < g.waves; ++w)
        for (int l = 0; l < g.lanes; ++l)
            for (int i = 0; i < g.slots; ++i) {
                auto rc = L.apply(i, l, w);
                g.at.push_back({0, rc.first, rc.second});
            }
    for (int i = 0; i < g.slots; ++i) g.labels.push_back("i" + num(i));
    return g;
}

// From placements with (reg, bits): every (wave, lane) must hold the same slots, one element each.
Grid grid_from_slots(std::vector<Rec> recs /* el, pl */, int waves, int lanes) {
    Grid g;
    std::sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) { return a.pl != b.pl ? a.pl < b.pl : a.el < b.el; });
    for (size_t i = 1; i < recs.size(); ++i)
        if (recs[i].pl == recs[i - 1].pl) return g;  // a slot holds two elements
    if (waves <= 0 || lanes <= 0 || recs.empty() || recs.size() % (static_cast<size_t>(waves) * lanes) != 0) return g;
    const size_t slots = recs.size() / (static_cast<size_t>(waves) * lanes);
    const uint64_t slot_mask = (uint64_t(1) << kLaneShift) - 1;
    for (size_t i = 0; i < recs.size(); ++i) {
        const Placement p = unpack_pl(recs[i].pl, false);
        const size_t wl = i / slots;
        if (p.wave != static_cast<int>(wl) / lanes || p.lane != static_cast<int>(wl) % lanes) return g;
        if ((recs[i].pl & slot_mask) != (recs[i % slots].pl & slot_mask)) return g;  // other slots than lane 0's
    }
    g.waves = waves;
    g.lanes = lanes;
    g.slots = static_cast<int>(slots);
    for (const Rec& r : recs) g.at.push_back(unpack_el(r.el));
    for (size_t s = 0; s < slots; ++s) {
        const Placement p = unpack_pl(recs[s].pl, false);
        g.labels.push_back("v" + num(p.reg) + "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]");
    }
    return g;
}

struct ElementHash {
    size_t operator()(const Element& e) const { return std::hash<uint64_t>()(pack_el(e)); }
};

std::string mapping_text(const std::vector<int>& p, const std::vector<std::string>& from, const std::vector<std::string>& to,
                         const char* noun) {
    std::string s;
    int shown = 0, moved = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        if (static_cast<int>(i) == p[i] && from[i] == to[p[i]]) continue;
        ++moved;
        if (shown < 16) s += (shown++ ? ", " : "") + from[i] + " -> " + to[static_cast<size_t>(p[i])];
    }
    if (moved > shown) s += ", ... (" + num(moved) + " " + noun + " moved)";
    return s;
}

// Tries the explanations that are cheap and exact; "" when none fits.
std::string explain(const Grid& E, const Grid& G, Operand op) {
    if (E.empty() || G.empty() || E.waves != G.waves || E.lanes != G.lanes || E.slots != G.slots) return "";
    const size_t n = E.at.size();
    // Transposed: your (r, c) is lanescope's (c, r).
    {
        bool ok = true;
        for (size_t i = 0; i < n && ok; ++i) ok = G.at[i].row == E.at[i].col && G.at[i].col == E.at[i].row;
        if (ok) return "your layout is lanescope's transposed (rows <-> cols): your element (r, c) is lanescope's (c, r)";
    }
    // Registers permuted: your slot s is lanescope's slot p(s), in every lane of every wave.
    {
        std::unordered_map<Element, int, ElementHash> where;
        for (int s = 0; s < E.slots; ++s) where.emplace(E(0, 0, s), s);
        std::vector<int> p(static_cast<size_t>(G.slots), -1);
        std::vector<char> used(static_cast<size_t>(E.slots), 0);
        bool ok = static_cast<int>(where.size()) == E.slots;
        for (int s = 0; s < G.slots && ok; ++s) {
            auto it = where.find(G(0, 0, s));
            ok = it != where.end() && !used[static_cast<size_t>(it->second)];
            if (ok) p[static_cast<size_t>(s)] = it->second, used[static_cast<size_t>(it->second)] = 1;
        }
        for (int w = 0; w < E.waves && ok; ++w)
            for (int l = 0; l < E.lanes && ok; ++l)
                for (int s = 0; s < E.slots && ok; ++s) ok = G(w, l, s) == E(w, l, p[static_cast<size_t>(s)]);
        if (ok)
            return "registers permuted (the same in every lane and wave; your register -> lanescope's): " +
                   mapping_text(p, G.labels, E.labels, "registers");
    }
    // Lanes (then waves) permuted: your lane l holds what lanescope's lane q(l) holds, in every wave.
    for (int pass = 0; pass < 2; ++pass) {
        const bool lanes = pass == 0;
        const int count = lanes ? E.lanes : E.waves;
        const size_t span = lanes ? static_cast<size_t>(E.slots) : static_cast<size_t>(E.lanes) * E.slots;
        auto row = [&](const Grid& g, int x) { return g.at.begin() + static_cast<long>(x * span); };
        std::map<std::vector<Element>, std::vector<int>> by_list;
        for (int x = count - 1; x >= 0; --x) by_list[std::vector<Element>(row(E, x), row(E, x) + static_cast<long>(span))].push_back(x);
        std::vector<int> q(static_cast<size_t>(count), -1);
        bool ok = true;
        for (int x = 0; x < count && ok; ++x) {
            auto it = by_list.find(std::vector<Element>(row(G, x), row(G, x) + static_cast<long>(span)));
            ok = it != by_list.end() && !it->second.empty();
            if (ok) q[static_cast<size_t>(x)] = it->second.back(), it->second.pop_back();
        }
        if (ok && lanes)  // the same lane permutation in every wave
            for (int w = 1; w < E.waves && ok; ++w)
                for (int l = 0; l < E.lanes && ok; ++l)
                    for (int s = 0; s < E.slots && ok; ++s) ok = G(w, l, s) == E(w, q[static_cast<size_t>(l)], s);
        if (ok) {
            std::vector<std::string> names;
            for (int x = 0; x < count; ++x) names.push_back((lanes ? "L" : "w") + num(x));
            return std::string(lanes ? "lanes permuted (the same in every wave; " : "waves permuted (") + "your " +
                   (lanes ? "lane" : "wave") + " -> lanescope's that holds the same elements): " +
                   mapping_text(q, names, names, lanes ? "lanes" : "waves");
        }
    }
    // K permuted (A: columns, B: rows), the other coordinate unchanged.
    if (op == Operand::A || op == Operand::B) {
        const bool k_cols = op == Operand::A;
        int extent = 0;
        for (const Element& e : E.at) extent = std::max(extent, (k_cols ? e.col : e.row) + 1);
        for (const Element& e : G.at) extent = std::max(extent, (k_cols ? e.col : e.row) + 1);
        std::vector<int> pi(static_cast<size_t>(extent), -1);
        bool ok = true;
        for (size_t i = 0; i < n && ok; ++i) {
            const int ek = k_cols ? E.at[i].col : E.at[i].row, gk = k_cols ? G.at[i].col : G.at[i].row;
            ok = (k_cols ? E.at[i].row == G.at[i].row : E.at[i].col == G.at[i].col) && E.at[i].block == G.at[i].block &&
                 (pi[static_cast<size_t>(gk)] < 0 || pi[static_cast<size_t>(gk)] == ek);
            if (ok) pi[static_cast<size_t>(gk)] = ek;
        }
        std::vector<char> hit(static_cast<size_t>(extent), 0);
        for (size_t k = 0; k < pi.size() && ok; ++k)
            if (pi[k] >= 0) ok = !hit[static_cast<size_t>(pi[k])], hit[static_cast<size_t>(pi[k])] = 1;
        if (ok) {
            std::vector<std::string> names;
            for (int k = 0; k < extent; ++k) names.push_back("k" + num(k));
            for (size_t k = 0; k < pi.size(); ++k)
                if (pi[k] < 0) pi[k] = static_cast<int>(k);
            return std::string("your layout equals lanescope's with K permuted (your k is lanescope's: ") +
                   mapping_text(pi, names, names, "k") + "); when " + (k_cols ? "B" : "A") +
                   "'s K is permuted the same way, D = A x B is unchanged";
        }
    }
    return "";
}

// ---------------------------------------------------------------- why ----

std::string pair_text(std::pair<int, int> p) { return "[" + num(p.first) + ", " + num(p.second) + "]"; }

// Lanescope's layout as bases (the element at index 2^b of each in-dim) against
// the checked layout's, where lanescope's sends place 0 to (0, 0).
void basis_differences(const Grid& E, const LinearLayout& G, CheckResult& res) {
    if (E.empty() || E.at[0].row != 0 || E.at[0].col != 0) return;
    struct Dim {
        const char* name;
        int expected_count;
        const std::vector<std::pair<int, int>>& given;
    };
    const Dim dims[3] = {{"register", E.slots, G.reg}, {"lane", E.lanes, G.lane}, {"warp", E.waves, G.warp}};
    for (const Dim& d : dims) {
        int count = 0;
        while ((1 << count) < d.expected_count) ++count;
        if ((1 << count) != d.expected_count) return;  // not a power of two: lanescope's has no bases
        if (count != static_cast<int>(d.given.size()))
            res.bases_note += std::string(res.bases_note.empty() ? "" : "; ") + "yours has " +
                              num(static_cast<long long>(d.given.size())) + " " + d.name + " bases, lanescope's " + num(count);
        for (int b = 0; b < std::min(count, static_cast<int>(d.given.size())); ++b) {
            const int i = 1 << b;
            const Element& e = d.name[0] == 'r' ? E(0, 0, i) : d.name[0] == 'l' ? E(0, i, 0) : E(i, 0, 0);
            if (std::make_pair(e.row, e.col) != d.given[static_cast<size_t>(b)])
                res.bases.push_back({d.name, b, d.given[static_cast<size_t>(b)], {e.row, e.col}});
        }
    }
}

// Places where the two layouts hold different elements, by wave, lane and slot.
DifferenceSummary summarize(const Grid& E, const Grid& G) {
    DifferenceSummary s;
    if (E.empty() || G.empty() || E.waves != G.waves || E.lanes != G.lanes || E.slots != G.slots) return s;
    s.waves = E.waves, s.lanes = E.lanes, s.slots = E.slots;
    std::vector<size_t> w(static_cast<size_t>(E.waves)), l(static_cast<size_t>(E.lanes)), r(static_cast<size_t>(E.slots));
    s.places = E.at.size();
    for (int a = 0; a < E.waves; ++a)
        for (int b = 0; b < E.lanes; ++b)
            for (int c = 0; c < E.slots; ++c)
                if (!(E(a, b, c) == G(a, b, c))) ++w[static_cast<size_t>(a)], ++l[static_cast<size_t>(b)], ++r[static_cast<size_t>(c)], ++s.differing_places;
    for (size_t i = 0; i < w.size(); ++i)
        if (w[i]) s.by_wave.push_back({static_cast<int>(i), w[i]});
    for (size_t i = 0; i < l.size(); ++i)
        if (l[i]) s.by_lane.push_back({static_cast<int>(i), l[i]});
    for (size_t i = 0; i < r.size(); ++i)
        if (r[i]) s.by_slot.push_back({E.labels[i], r[i]});
    return s;
}

// Rank over GF(2) of (row, col) vectors, and the first one that adds nothing.
OneToOne one_to_one_linear(const LinearLayout& L) {
    OneToOne o;
    o.known = true;
    std::vector<uint64_t> basis;  // reduced, by leading bit
    const char* names[3] = {"register", "lane", "warp"};
    const std::vector<std::pair<int, int>>* dims[3] = {&L.reg, &L.lane, &L.warp};
    int rank = 0, total = 0;
    for (int d = 0; d < 3; ++d)
        for (size_t i = 0; i < dims[d]->size(); ++i, ++total) {
            const auto [r, c] = (*dims[d])[i];
            uint64_t v = static_cast<uint64_t>(r) << 32 | static_cast<uint32_t>(c);
            for (uint64_t b : basis)
                if ((v ^ b) < v) v ^= b;
            if (v) {
                basis.push_back(v);
                std::sort(basis.rbegin(), basis.rend());
                ++rank;
            } else if (o.why.empty()) {
                o.why = std::string(names[d]) + " basis " + num(static_cast<long long>(i)) + " " + pair_text({r, c}) +
                        ((r | c) ? " is the XOR of earlier bases" : " is zero") + ": places differing in that bit hold the same element";
            }
        }
    o.places = static_cast<size_t>(1) << total;
    o.elements_held = static_cast<size_t>(1) << rank;
    o.shape_elements = static_cast<size_t>(L.rows) * static_cast<size_t>(L.cols);
    o.injective = rank == total;
    o.surjective = o.elements_held == o.shape_elements;
    return o;
}

// The same for a list of placements (sorted by element): copies in several
// (wave, lane)s, places shared by elements (overlapping bits of one register).
OneToOne one_to_one_list(const std::vector<Rec>& recs, size_t shape_elements) {
    OneToOne o;
    o.known = true;
    o.places = recs.size();
    o.shape_elements = shape_elements;
    size_t copies = 0;
    for (size_t i = 0; i < recs.size();) {
        size_t j = i;
        const uint64_t wl = recs[i].pl >> kLaneShift;  // wave and lane
        bool several = false;
        while (j < recs.size() && recs[j].el == recs[i].el) several = several || (recs[j].pl >> kLaneShift) != wl, ++j;
        ++o.elements_held;
        copies += several;
        i = j;
    }
    // Places by (wave, lane, reg), then bit_lo: an overlap with another element shares bits.
    std::vector<std::pair<uint64_t, uint64_t>> by_place;  // (placement, element)
    by_place.reserve(recs.size());
    for (const Rec& r : recs) by_place.push_back({r.pl, r.el});
    std::sort(by_place.begin(), by_place.end());
    for (size_t i = 1; i < by_place.size(); ++i) {
        const uint64_t a = by_place[i - 1].first, b = by_place[i].first;
        const bool same_reg = (a >> 12) == (b >> 12);
        const int a_hi = static_cast<int>(a & 63), b_lo = static_cast<int>(b >> 6 & 63);
        if (same_reg && b_lo <= a_hi && by_place[i - 1].second != by_place[i].second) ++o.shared_places;
    }
    o.injective = copies == 0 && o.shared_places == 0;
    o.surjective = o.elements_held >= shape_elements;
    if (o.shared_places)
        o.why = num(static_cast<long long>(o.shared_places)) + " places hold bits of two elements";
    else if (copies)
        o.why = num(static_cast<long long>(copies)) + " elements are held by more than one (wave, lane)";
    return o;
}

// Element widths or types that differ: the cause no permutation explains.
std::string width_cause(const GivenLayout& g, const OperandLayout& L) {
    auto lower = [](std::string v) {
        for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return v;
    };
    const std::string ours = std::string(elem_name(L.type()));
    if (g.element_bits && g.element_bits != L.element_bits())
        return "element widths differ: your elements are " + num(g.element_bits) + "-bit" +
               (g.type.empty() ? "" : " (" + g.type + ")") + ", lanescope's " + num(L.element_bits()) + "-bit (" + ours +
               "): another data format or modifier (e.g. cbsz/blgp or matrix_a_fmt), not a permutation";
    if (!g.type.empty() && lower(g.type) != lower(ours))
        return "element types differ: yours are " + g.type + ", lanescope's " + ours;
    return "";
}

std::vector<Rec> given_recs(const GivenLayout& given, const LinearLayout* L) {
    std::vector<Rec> out;
    if (L) {
        out.reserve(static_cast<size_t>(L->places()));
        for (int w = 0; w < L->warp_count(); ++w)
            for (int l = 0; l < L->lane_count(); ++l)
                for (int i = 0; i < L->reg_count(); ++i) {
                    auto rc = L->apply(i, l, w);
                    out.push_back({pack_el({0, rc.first, rc.second}), pack_pl({w, l, -1, -1, -1, i})});
                }
    } else {
        out.reserve(given.entries.size());
        for (const auto& [el, p] : given.entries) out.push_back({pack_el(el), pack_pl(p)});
    }
    return out;
}

// Element by element over two sorted lists.
void compare(std::vector<Rec>& mine, std::vector<Rec>& theirs, bool linear, CheckResult& res) {
    std::sort(mine.begin(), mine.end());
    std::sort(theirs.begin(), theirs.end());
    size_t i = 0, j = 0;
    while (i < mine.size() || j < theirs.size()) {
        uint64_t el = i < mine.size() ? mine[i].el : theirs[j].el;
        if (j < theirs.size() && theirs[j].el < el) el = theirs[j].el;
        size_t i2 = i, j2 = j;
        while (i2 < mine.size() && mine[i2].el == el) ++i2;
        while (j2 < theirs.size() && theirs[j2].el == el) ++j2;
        ++res.elements;
        if (i2 - i != j2 - j || !std::equal(mine.begin() + static_cast<long>(i), mine.begin() + static_cast<long>(i2),
                                            theirs.begin() + static_cast<long>(j))) {
            ++res.differing;
            if (res.differences.size() < kMaxListedDifferences) {
                LayoutDifference d;
                d.element = unpack_el(el);
                for (size_t x = i; x < i2; ++x) d.expected.push_back(unpack_pl(mine[x].pl, linear));
                for (size_t x = j; x < j2; ++x) d.given.push_back(unpack_pl(theirs[x].pl, linear));
                res.differences.push_back(std::move(d));
            }
        }
        i = i2;
        j = j2;
    }
}

// A layout of 32-lane warps checked against a wave of more lanes (NVIDIA's
// 128-lane warpgroup, as Triton's warps 0-3): its low warp bases are lanes.
LinearLayout fold_warps(LinearLayout L, int lanes) {
    // Triton's 32-lane warps of lanescope's one list of threads: a wgmma warpgroup (128), the warps
    // reading a tcgen05 D back (32 x W) and a CTA pair's (2 x 32 x W, the CTA after the warps).
    if (lanes <= 32 || L.lane_count() != 32) return L;
    while (L.lane_count() < lanes && !L.warp.empty()) {
        L.lane.push_back(L.warp.front());
        L.warp.erase(L.warp.begin());
    }
    return L;
}

// The explanation, causes first: element widths or types, then another of
// lanescope's layouts (kWidth, modifiers), then a permutation (only when the
// elements are alike: a permutation never explains another width).
void explain_difference(CheckResult& res, const std::string& cause, const std::vector<CheckAlternative>& alternatives,
                        const GivenLayout& given, const Grid& E, const Grid& G, Operand op);

}  // namespace

bool Placement::operator<(const Placement& o) const { return key(*this) < key(o); }
bool Placement::operator==(const Placement& o) const { return key(*this) == key(o); }

std::string Placement::label() const {
    std::string w = "w" + num(wave) + ":";
    if (index >= 0) return w + "L" + num(lane) + ":i" + num(index);
    return w + "v" + num(reg) + "[" + num(bit_hi) + ":" + num(bit_lo) + "]:L" + num(lane);
}

GivenLayout parse_layout_text(std::string_view text_in, std::string_view origin_view) {
    const std::string origin(origin_view);
    const std::string_view text = without_bom(text_in);
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) throw Error(origin + ": empty; expected the JSON contract, CSV or a linear layout");
    if (text[first] == '[') {
        // What the array is: arrays in arrays past the JSON reader's depth limit, a list of layouts
        // (layout --operand all), or some other array; none is one operand's layout.
        int depth = 0;
        size_t p = first;
        for (; p < text.size() && (text[p] == '[' || std::isspace(static_cast<unsigned char>(text[p]))); ++p)
            depth += text[p] == '[';
        if (depth > json_read::Pull::kMaxDepth)
            throw Error(origin + ": arrays nested more than " + num(json_read::Pull::kMaxDepth) +
                        " levels deep; expected one operand's layout (the JSON contract, an object; CSV or a linear layout)");
        if (depth == 1 && p < text.size() && text[p] == '{')
            throw Error(origin + ": a list of layouts; give one operand's layout (layout --operand X, not all)");
        throw Error(origin + ": a JSON array, not a layout; expected one operand's layout (the JSON contract, an object; "
                    "CSV or a linear layout)");
    }
    if (has_gluon_named_layout(text)) {
        GivenLayout g;
        g.origin = origin;
        g.named = true;
        g.named_layout = parse_gluon_named_layout(text, origin);
        g.shape_given = false;
        return g;
    }
    const std::string_view form = linear_form_of(text);
    if (form.empty()) return from_csv(text, origin);
    if (form == "JSON") {
        const TopKeys k = top_keys(text, origin);
        if (k.entries && k.linear)
            throw Error(origin + ": both \"entries\" (the JSON contract) and linear-layout bases; give one form");
        if (k.entries) return from_contract(text, origin);
        if (!k.linear)
            throw Error(origin + ": a JSON object with neither \"entries\" (the JSON contract) nor \"register\"/\"lane\" "
                                 "or \"reg_bases\"/\"lane_bases\" (a linear layout)");
    }
    GivenLayout g;
    g.origin = origin;
    g.linear = true;
    g.linear_layout = parse_linear(text, origin, /*shape_optional=*/true);
    g.shape_given = g.linear_layout.rows > 0;
    return g;
}

void resolve_given_layout(GivenLayout& given, const Instruction& ins, const Target& target, Operand op,
                          const ResolvedModifiers& mods, int rows, int cols) {
    if (given.named) {
        given.linear_layout = gluon_named_linear(given.named_layout, ins, target, op, mods, rows, cols);
        given.linear = true;
        given.named = false;
        return;
    }
    if (!given.linear || given.shape_given) return;
    LinearLayout& L = given.linear_layout;
    L.rows = rows;
    L.cols = cols;
    for (const auto* bases : {&L.reg, &L.lane, &L.warp})
        for (size_t i = 0; i < bases->size(); ++i) {
            const auto [r, c] = (*bases)[i];
            if (r >= rows || c >= cols)
                throw Error(given.origin + ": a basis [" + num(r) + ", " + num(c) + "] is outside the shape " + num(rows) +
                            " x " + num(cols) + " taken from lanescope's layout (the file gives no \"shape\"; "
                            "--shape sets it)");
        }
}

CheckResult check_layout(const TileLayout& t, const GivenLayout& given, const std::vector<CheckAlternative>& alternatives) {
    check_tile_work(t, kMaxHeldPlacements, "check", "every placement of both layouts is compared in memory");
    CheckResult res;
    std::vector<Rec> mine;
    std::vector<std::vector<Element>> held;
    Grid expected_grid, given_grid;
    if (given.linear) {
        try {
            held = held_elements(t);
        } catch (const Error& e) {
            res.note = std::string("lanescope's layout has no linear form: ") + e.what();
        }
        for (size_t wl = 0; wl < held.size(); ++wl)
            for (size_t i = 0; i < held[wl].size(); ++i)
                mine.push_back({pack_el(held[wl][i]), pack_pl({static_cast<int>(wl) / t.lanes(), static_cast<int>(wl) % t.lanes(),
                                                               -1, -1, -1, static_cast<int>(i)})});
        const LinearLayout L = fold_warps(given.linear_layout, t.lanes());
        if (L.rows != t.rows() || L.cols != t.cols())
            res.note = "the shapes differ: lanescope " + num(t.rows()) + " x " + num(t.cols()) + ", given " + num(L.rows) +
                       " x " + num(L.cols);
        std::vector<Rec> theirs = given_recs(given, &L);
        compare(mine, theirs, true, res);
        std::vector<Rec>().swap(mine);
        std::vector<Rec>().swap(theirs);
        res.one_to_one = one_to_one_linear(L);
        if (res.differing) {
            expected_grid = grid_from_held(held, t.lanes());
            given_grid = grid_from_linear(L);
            basis_differences(expected_grid, L, res);
        }
    } else {
        for (const TileEntry& e : t.entries())
            mine.push_back({pack_el(e.element), pack_pl({e.at.wave, e.at.loc.lane, e.at.loc.reg, e.at.loc.bit_lo,
                                                         e.at.loc.bit_hi, -1})});
        std::vector<Rec> theirs = given_recs(given, nullptr);
        compare(mine, theirs, false, res);
        res.one_to_one = one_to_one_list(theirs, static_cast<size_t>(t.elements()));
        if (res.differing) {
            expected_grid = grid_from_slots(std::move(mine), t.waves(), t.lanes());
            given_grid = grid_from_slots(std::move(theirs), t.waves(), t.lanes());
        }
    }
    res.equal = res.differing == 0 && res.note.empty();
    if (!res.equal) {
        res.summary = summarize(expected_grid, given_grid);
        explain_difference(res, width_cause(given, t.instruction()), alternatives, given, expected_grid, given_grid,
                           t.operand());
    }
    return res;
}

namespace {

void explain_difference(CheckResult& res, const std::string& cause, const std::vector<CheckAlternative>& alternatives,
                        const GivenLayout& given, const Grid& E, const Grid& G, Operand op) {
    for (const CheckAlternative& alt : alternatives) {
        if (!alt.layout) continue;
        if (check_layout(*alt.layout, given).equal) {
            res.explanation = (cause.empty() ? "" : cause + "; ") + "your layout equals lanescope's with " + alt.label;
            return;
        }
    }
    res.explanation = cause.empty() ? explain(E, G, op) : cause;
}

}  // namespace

CheckResult check_layout(const OperandLayout& L, const GivenLayout& given) {
    CheckResult res;
    if (L.blocks() != 1 && given.linear) {
        res.note = "a multi-block layout has no two-dimensional linear form";
        return res;
    }
    std::vector<Rec> mine;
    if (given.linear) {
        std::vector<std::vector<Element>> held(static_cast<size_t>(L.lanes()));
        std::string held_error;
        for (int lane = 0; lane < L.lanes() && held_error.empty(); ++lane)
            for (int reg = 0; reg < L.regs(); ++reg) {
                auto parts = L.which(reg, lane);
                std::sort(parts.begin(), parts.end(), [](const SlotPart& a, const SlotPart& b) { return a.bit_lo < b.bit_lo; });
                for (size_t n = 0; n < parts.size(); ++n) {
                    if (n && parts[n].bit_lo <= parts[n - 1].bit_hi) held_error = "a slot holds several elements";
                    if (parts[n].elem_bit_lo == 0) held[static_cast<size_t>(lane)].push_back(parts[n].element);
                }
            }
        if (!held_error.empty()) {
            held.clear();
            res.note = "lanescope's layout has no linear form: " + held_error;
        }
        for (size_t l = 0; l < held.size(); ++l)
            for (size_t i = 0; i < held[l].size(); ++i)
                mine.push_back({pack_el(held[l][i]), pack_pl({0, static_cast<int>(l), -1, -1, -1, static_cast<int>(i)})});
        const LinearLayout G = fold_warps(given.linear_layout, L.lanes());
        if (G.rows != L.rows() || G.cols != L.cols())
            res.note = "the shapes differ: lanescope " + num(L.rows()) + " x " + num(L.cols()) + ", given " + num(G.rows) +
                       " x " + num(G.cols);
        std::vector<Rec> theirs = given_recs(given, &G);
        compare(mine, theirs, true, res);
        res.one_to_one = one_to_one_linear(G);
        if (res.differing) {
            const Grid E = grid_from_held(held, L.lanes()), GG = grid_from_linear(G);
            basis_differences(E, G, res);
            res.summary = summarize(E, GG);
            explain_difference(res, "", {}, given, E, GG, L.operand());
        }
    } else {
        for (const Entry& e : L.entries())
            mine.push_back({pack_el(e.element), pack_pl({0, e.loc.lane, e.loc.reg, e.loc.bit_lo, e.loc.bit_hi, -1})});
        std::vector<Rec> theirs = given_recs(given, nullptr);
        const std::string cause = width_cause(given, L);
        if (L.blocks() == 1 && std::all_of(given.entries.begin(), given.entries.end(), [](const auto& e) { return e.first.block == 0; })) {
            compare(mine, theirs, false, res);
            res.one_to_one = one_to_one_list(theirs, static_cast<size_t>(L.elements()));
            if (res.differing) {
                const Grid E = grid_from_slots(std::move(mine), 1, L.lanes()), G = grid_from_slots(std::move(theirs), 1, L.lanes());
                res.summary = summarize(E, G);
                explain_difference(res, cause, {}, given, E, G, L.operand());
            }
        } else {
            compare(mine, theirs, false, res);
            res.one_to_one = one_to_one_list(theirs, static_cast<size_t>(L.elements()));
            if (res.differing) res.explanation = cause;
        }
    }
    res.equal = res.differing == 0 && res.note.empty();
    return res;
}

}  // namespace lanescope
