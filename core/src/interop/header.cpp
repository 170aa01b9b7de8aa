// render_header (header.hpp). Per operand either closed forms derived from the
// layout's linear form over GF(2) (linear.hpp: to_linear) — forward maps
// (wave, lane, item) -> (row, col) as XORs of shifted, masked bit groups, and
// the inverse (row, col, copy) -> (wave, lane, item) by Gauss-Jordan over GF(2)
// — or, where the layout is not linear, the engine's tables. The closed forms
// are checked against the engine before they are written (and again by
// tests/test_header.cpp, compiled and run).
#include "lanescope/header.hpp"
#include "lanescope/limits.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/numbers.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <vector>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>

namespace lanescope {

namespace {

// A C literal: 0, or 0x and the fewest hexadecimal digits.
std::string c_literal(unsigned long long v) { return v == 0 ? "0" : hex(v); }

int log2i(long long v) {
    int n = 0;
    while ((1LL << n) < v) ++n;
    return n;
}

template <typename F>
std::string table(const char* type, const std::string& name, size_t n, F value) {
    std::string s = "    static constexpr " + std::string(type) + " " + name + "[" + num(n ? n : 1) + "] = {";
    for (size_t i = 0; i < n; ++i) {
        if (i % 24 == 0) s += "\n        ";
        s += num(value(i)) + ",";
    }
    if (n == 0) s += "0";
    return s + "};\n";
}

// A linear map over GF(2) written as C++: sources are (variable, columns), where
// columns[b] is the mask of target bits that source bit b flips. Source bits that
// move to a single target bit are grouped by shift into (v & mask) << s; the rest
// become ((v >> b) & 1) * mask. Terms are XORed.
struct Source {
    std::string var;
    std::vector<unsigned> columns;
};
std::string gf2_expr(const std::vector<Source>& sources) {
    std::vector<std::string> terms;
    for (const Source& src : sources) {
        std::map<int, unsigned> by_shift;  // shift -> source mask
        for (size_t b = 0; b < src.columns.size(); ++b) {
            const unsigned c = src.columns[b];
            if (c == 0) continue;
            if ((c & (c - 1)) == 0) {
                by_shift[log2i(c) - static_cast<int>(b)] |= 1u << b;
            } else {
                terms.push_back("(((" + src.var + " >> " + num(static_cast<long long>(b)) + ") & 1) * " + c_literal(c) + ")");
            }
        }
        for (const auto& [shift, mask] : by_shift) {
            std::string t = "(" + src.var + " & " + c_literal(mask) + ")";
            if (shift > 0) t = "(" + t + " << " + num(shift) + ")";
            if (shift < 0) t = "(" + t + " >> " + num(-shift) + ")";
            terms.push_back(t);
        }
    }
    if (terms.empty()) return "0";
    std::string s;
    for (size_t i = 0; i < terms.size(); ++i) s += (i ? " ^ " : "") + terms[i];
    return s;
}

// One item of a lane: its element and its register bits.
struct ItemAt {
    int row, col, reg, bit_lo, bit_hi;
};

// Items per (wave, lane): every (element, bits) part starting an element, by (reg, bit_lo, row, col).
std::vector<std::vector<ItemAt>> items_per_lane(const TileLayout& t) {
    std::vector<std::vector<ItemAt>> per(static_cast<size_t>(t.waves()) * t.lanes());
    for (const TileEntry& e : t.entries())
        per[static_cast<size_t>(e.at.wave) * t.lanes() + e.at.loc.lane].push_back(
            {e.element.row, e.element.col, e.at.loc.reg, e.at.loc.bit_lo, e.at.loc.bit_hi});
    for (auto& list : per)
        std::sort(list.begin(), list.end(), [](const ItemAt& a, const ItemAt& b) {
            if (a.reg != b.reg) return a.reg < b.reg;
            if (a.bit_lo != b.bit_lo) return a.bit_lo < b.bit_lo;
            if (a.row != b.row) return a.row < b.row;
            return a.col < b.col;
        });
    return per;
}

const char* kAccessors =
    "    LANESCOPE_HD static constexpr Item which(int wave, int lane, int item) {\n"
    "        return Item{row_of(wave, lane, item), col_of(wave, lane, item)};\n    }\n";

// The earlier form: the engine's tables, sorted two ways.
std::string table_struct(const TileLayout& t, const std::string& X) {
    const auto per_lane = items_per_lane(t);
    int items = 0;
    for (const auto& l : per_lane) items = std::max(items, static_cast<int>(l.size()));
    const size_t nl = per_lane.size() * static_cast<size_t>(items);
    std::vector<int> it_row(nl, -1), it_col(nl, -1), it_reg(nl, -1), it_lo(nl, -1);
    for (size_t wl = 0; wl < per_lane.size(); ++wl)
        for (size_t k = 0; k < per_lane[wl].size(); ++k) {
            const size_t i = wl * items + k;
            it_row[i] = per_lane[wl][k].row;
            it_col[i] = per_lane[wl][k].col;
            it_reg[i] = per_lane[wl][k].reg;
            it_lo[i] = per_lane[wl][k].bit_lo;
        }
    const auto entries = t.entries();
    std::vector<int> first(static_cast<size_t>(t.rows()) * t.cols() + 1, 0);
    for (const TileEntry& e : entries) ++first[static_cast<size_t>(e.element.row) * t.cols() + e.element.col + 1];
    for (size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
    std::string s;
    s += "    static constexpr int rows = " + num(t.rows()) + ", cols = " + num(t.cols()) + ", regs = " + num(t.regs()) +
         ", items = " + num(items) + ", waves = " + num(t.waves()) + ", lanes = " + num(t.lanes()) +
         ", element_bits = " + num(t.instruction().element_bits()) + ";\n";
    s += "    static constexpr bool closed_form = false;  // tables (the layout is not linear, or --tables)\n";
    s += table("int", "item_row", nl, [&](size_t i) { return it_row[i]; });
    s += table("int", "item_col", nl, [&](size_t i) { return it_col[i]; });
    s += table("short", "item_reg", nl, [&](size_t i) { return it_reg[i]; });
    s += table("short", "item_bit_lo", nl, [&](size_t i) { return it_lo[i]; });
    s += table("int", "loc_first", first.size(), [&](size_t i) { return first[i]; });
    s += table("short", "loc_wave", entries.size(), [&](size_t i) { return entries[i].at.wave; });
    s += table("short", "loc_lane", entries.size(), [&](size_t i) { return entries[i].at.loc.lane; });
    s += table("short", "loc_reg", entries.size(), [&](size_t i) { return entries[i].at.loc.reg; });
    s += table("short", "loc_bit_lo", entries.size(), [&](size_t i) { return entries[i].at.loc.bit_lo; });
    s += table("short", "loc_bit_hi", entries.size(), [&](size_t i) { return entries[i].at.loc.bit_hi; });
    s += "    LANESCOPE_HD static constexpr int row_of(int wave, int lane, int item) {\n"
         "        return item_row[(wave * lanes + lane) * items + item];\n    }\n"
         "    LANESCOPE_HD static constexpr int col_of(int wave, int lane, int item) {\n"
         "        return item_col[(wave * lanes + lane) * items + item];\n    }\n";
    s += kAccessors;
    s += "    // How many (wave, lane, register) places hold element (row, col).\n"
         "    LANESCOPE_HD static constexpr int copies(int row, int col) {\n"
         "        return loc_first[row * cols + col + 1] - loc_first[row * cols + col];\n    }\n"
         "    LANESCOPE_HD static constexpr Slot where(int row, int col, int copy = 0) {\n"
         "        const int i = loc_first[row * cols + col] + copy;\n"
         "        return Slot{loc_wave[i], loc_lane[i], loc_reg[i], loc_bit_lo[i], loc_bit_hi[i]};\n    }\n"
         "    LANESCOPE_HD static constexpr Slot slot(int wave, int lane, int item) {\n"
         "        const int i = (wave * lanes + lane) * items + item;\n"
         "        return Slot{wave, lane, item_reg[i], item_bit_lo[i], item_bit_lo[i] + element_bits - 1};\n    }\n"
         "    static constexpr int vec_row_major = 1, vec_col_major = 1;\n";
    (void)X;
    return s;
}

// The layout's bases over GF(2), read off single-bit indices as to_linear does, but
// also where the counts are not powers of two (wgmma's N = 24, 40, ...: 12, 20, ...
// items): the map must then be linear on the indices that exist. Checked over all
// of them; empty with the reason otherwise.
std::optional<LinearLayout> bases_of(const TileLayout& t, std::string& why) {
    LinearResult lin = to_linear(t);
    if (lin.layout) return lin.layout;
    std::vector<std::vector<Element>> held;
    why = uniform_held_elements(t, held);
    if (!why.empty()) return std::nullopt;
    const int n = static_cast<int>(held[0].size());
    auto at = [&](int r, int l, int w) { return held[static_cast<size_t>(w) * t.lanes() + l][static_cast<size_t>(r)]; };
    if (at(0, 0, 0).row != 0 || at(0, 0, 0).col != 0) {
        why = lin.why_not;
        return std::nullopt;
    }
    LinearLayout L;
    L.rows = t.rows();
    L.cols = t.cols();
    for (int b = 1; b < n; b *= 2) L.reg.push_back({at(b, 0, 0).row, at(b, 0, 0).col});
    for (int b = 1; b < t.lanes(); b *= 2) L.lane.push_back({at(0, b, 0).row, at(0, b, 0).col});
    for (int b = 1; b < t.waves(); b *= 2) L.warp.push_back({at(0, 0, b).row, at(0, 0, b).col});
    for (int w = 0; w < t.waves(); ++w)
        for (int l = 0; l < t.lanes(); ++l)
            for (int r = 0; r < n; ++r) {
                const auto rc = L.apply(r, l, w);
                if (rc.first != at(r, l, w).row || rc.second != at(r, l, w).col) {
                    why = lin.why_not;
                    return std::nullopt;
                }
            }
    return L;
}

// The closed form of a linear operand; empty when some part is not expressible
// (the caller then writes tables).
struct Closed {
    std::string body;
    int vec_row = 1, vec_col = 1;
    bool dense = false;  // item k sits at bits [k * element_bits, ...) of the registers
};

Closed closed_struct(const TileLayout& t, const LinearLayout& L) {
    Closed out;
    const auto per_lane = items_per_lane(t);
    const int items = static_cast<int>(per_lane[0].size());
    for (const auto& l : per_lane)
        if (static_cast<int>(l.size()) != items) return out;
    if (items > L.reg_count()) return out;
    // Registers of item k: the same in every lane; written as k * S (S bits per item) or a table over k.
    for (const auto& l : per_lane)
        for (int k = 0; k < items; ++k)
            if (l[k].reg != per_lane[0][k].reg || l[k].bit_lo != per_lane[0][k].bit_lo || l[k].bit_hi != per_lane[0][k].bit_hi)
                return out;
    // The map must agree with the engine's items (it was built from held_elements, which orders parts the same way).
    for (size_t wl = 0; wl < per_lane.size(); ++wl)
        for (int k = 0; k < items; ++k) {
            const auto rc = L.apply(k, static_cast<int>(wl) % t.lanes(), static_cast<int>(wl) / t.lanes());
            if (rc.first != per_lane[wl][k].row || rc.second != per_lane[wl][k].col) return out;
        }
    const int R = log2i(t.rows()), C = log2i(t.cols());
    // Inputs: item bits, lane bits, wave bits, in that order.
    struct In {
        int var, bit;  // 0 item, 1 lane, 2 wave
        unsigned vec;  // row | col << R
    };
    std::vector<In> in;
    auto add = [&](int var, const std::vector<std::pair<int, int>>& bases) {
        for (size_t b = 0; b < bases.size(); ++b)
            in.push_back({var, static_cast<int>(b), static_cast<unsigned>(bases[b].first) | static_cast<unsigned>(bases[b].second) << R});
    };
    add(0, L.reg);
    add(1, L.lane);
    add(2, L.warp);
    if (in.size() > 64 || R + C > 31) return out;
    // Gauss-Jordan: for each output bit, the inputs whose XOR gives it.
    std::vector<std::pair<unsigned, uint64_t>> rowsv;  // (vector, input combination)
    std::vector<int> free_bits;
    for (size_t i = 0; i < in.size(); ++i) {
        if (in[i].vec == 0) {
            free_bits.push_back(static_cast<int>(i));
            continue;
        }
        rowsv.push_back({in[i].vec, uint64_t{1} << i});
    }
    if (static_cast<int>(rowsv.size()) != R + C) return out;  // not a bijection of the non-zero bases
    for (int o = 0; o < R + C; ++o) {
        size_t p = o;
        while (p < rowsv.size() && !(rowsv[p].first >> o & 1)) ++p;
        if (p == rowsv.size()) return out;
        std::swap(rowsv[o], rowsv[p]);
        for (size_t q = 0; q < rowsv.size(); ++q)
            if (q != static_cast<size_t>(o) && (rowsv[q].first >> o & 1)) {
                rowsv[q].first ^= rowsv[o].first;
                rowsv[q].second ^= rowsv[o].second;
            }
    }
    // rowsv[o] now has vector 1 << o and the inputs that make it.
    // Copies: free bits ordered as the engine sorts locations (wave, then lane/register order of Location).
    auto loc_of = [&](int wave, int lane, int item) {
        const ItemAt& it = per_lane[0][static_cast<size_t>(item)];
        return TileLocation{wave, Location{it.reg, lane, it.bit_lo, it.bit_hi}};
    };
    std::sort(free_bits.begin(), free_bits.end(), [&](int a, int b) {
        auto single = [&](int i) {
            int v[3] = {0, 0, 0};
            v[in[static_cast<size_t>(i)].var] = 1 << in[static_cast<size_t>(i)].bit;
            return loc_of(v[2], v[1], v[0]);
        };
        return single(a) < single(b);
    });
    const char* names[3] = {"item", "lane", "wave"};
    // Forward: row and col from (item, lane, wave).
    auto forward = [&](bool col) {
        std::vector<Source> src;
        const std::vector<std::pair<int, int>>* bases[3] = {&L.reg, &L.lane, &L.warp};
        for (int v = 0; v < 3; ++v) {
            Source s{names[v], {}};
            for (const auto& b : *bases[v]) s.columns.push_back(static_cast<unsigned>(col ? b.second : b.first));
            src.push_back(s);
        }
        return gf2_expr(src);
    };
    // Inverse: each of item, lane, wave from (row, col) and the copy's bits.
    auto inverse = [&](int var) {
        Source srow{"row", std::vector<unsigned>(static_cast<size_t>(R), 0u)}, scol{"col", std::vector<unsigned>(static_cast<size_t>(C), 0u)};
        for (int o = 0; o < R + C; ++o)
            for (size_t i = 0; i < in.size(); ++i)
                if ((rowsv[static_cast<size_t>(o)].second >> i & 1) && in[i].var == var) {
                    if (o < R) srow.columns[static_cast<size_t>(o)] |= 1u << in[i].bit;
                    else scol.columns[static_cast<size_t>(o - R)] |= 1u << in[i].bit;
                }
        Source scopy{"copy", {}};
        for (int f : free_bits)
            scopy.columns.push_back(in[static_cast<size_t>(f)].var == var ? 1u << in[static_cast<size_t>(f)].bit : 0u);
        return gf2_expr({srow, scol, scopy});
    };
    // Registers of item k.
    const int eb = t.instruction().element_bits();
    const int width = per_lane[0][0].bit_hi - per_lane[0][0].bit_lo + 1;
    long long stride = items > 1 ? per_lane[0][1].reg * 32LL + per_lane[0][1].bit_lo : eb;
    bool affine = per_lane[0][0].reg == 0 && per_lane[0][0].bit_lo == 0;
    for (int k = 0; k < items; ++k)
        affine &= per_lane[0][k].reg * 32LL + per_lane[0][k].bit_lo == k * stride &&
                  per_lane[0][k].bit_hi - per_lane[0][k].bit_lo + 1 == width;
    out.dense = affine && stride == eb && eb >= 8;
    std::string& s = out.body;
    s += "    static constexpr int rows = " + num(t.rows()) + ", cols = " + num(t.cols()) + ", regs = " + num(t.regs()) +
         ", items = " + num(items) + ", waves = " + num(t.waves()) + ", lanes = " + num(t.lanes()) +
         ", element_bits = " + num(eb) + ";\n";
    s += "    static constexpr bool closed_form = true;  // linear over GF(2): shifts, masks and XORs, no tables\n";
    s += "    // (row, col) of item `item` of `lane` in `wave`.\n";
    const std::string fw = "        (void)wave, (void)lane, (void)item;\n";
    const std::string iv = "        (void)row, (void)col, (void)copy;\n";
    s += "    LANESCOPE_HD static constexpr int row_of(int wave, int lane, int item) {\n" + fw + "        return " +
         forward(false) + ";\n    }\n";
    s += "    LANESCOPE_HD static constexpr int col_of(int wave, int lane, int item) {\n" + fw + "        return " +
         forward(true) + ";\n    }\n";
    s += kAccessors;
    s += "    // How many (wave, lane, item) places hold element (row, col): 2^(bases that are zero).\n";
    s += "    LANESCOPE_HD static constexpr int copies(int, int) { return " + num(1LL << free_bits.size()) + "; }\n";
    s += "    // Place `copy` (0 .. copies-1, in (wave, lane, register) order) of element (row, col).\n";
    s += "    LANESCOPE_HD static constexpr int wave_of(int row, int col, int copy = 0) {\n" + iv + "        return " + inverse(2) +
         ";\n    }\n";
    s += "    LANESCOPE_HD static constexpr int lane_of(int row, int col, int copy = 0) {\n" + iv + "        return " + inverse(1) +
         ";\n    }\n";
    s += "    LANESCOPE_HD static constexpr int item_of(int row, int col, int copy = 0) {\n" + iv + "        return " + inverse(0) +
         ";\n    }\n";
    if (affine) {
        s += "    // Item k sits at bits [" + num(stride) + "k, " + num(stride) + "k + " + num(width) + ") of the lane's registers.\n";
        s += "    static constexpr int item_bits = " + num(stride) + ", item_width = " + num(width) + ";\n";
        s += "    LANESCOPE_HD static constexpr int reg_of_item(int item) { return (item * item_bits) >> 5; }\n"
             "    LANESCOPE_HD static constexpr int bit_of_item(int item) { return (item * item_bits) & 31; }\n";
    } else {
        s += "    static constexpr int item_width = " + num(width) + ";\n";
        s += table("short", "item_reg", static_cast<size_t>(items), [&](size_t k) { return per_lane[0][k].reg; });
        s += table("short", "item_bit_lo", static_cast<size_t>(items), [&](size_t k) { return per_lane[0][k].bit_lo; });
        s += "    LANESCOPE_HD static constexpr int reg_of_item(int item) { return item_reg[item]; }\n"
             "    LANESCOPE_HD static constexpr int bit_of_item(int item) { return item_bit_lo[item]; }\n";
    }
    s += "    LANESCOPE_HD static constexpr Slot slot(int wave, int lane, int item) {\n"
         "        return Slot{wave, lane, reg_of_item(item), bit_of_item(item), bit_of_item(item) + item_width - 1};\n    }\n"
         "    LANESCOPE_HD static constexpr Slot where(int row, int col, int copy = 0) {\n"
         "        return slot(wave_of(row, col, copy), lane_of(row, col, copy), item_of(row, col, copy));\n    }\n";
    // Vector width: the longest run of items 0, 1, ... that moves one element at a time along the
    // contiguous dimension (col for row-major, row for column-major), at most 16 bytes, with every other
    // base a multiple of the run there (so each run starts aligned when ld is a multiple of it).
    auto run = [&](bool row_major) {
        if (eb < 8 || eb > 64) return 1;
        int v = 1;
        while (v * 2 <= items && v * 2 * eb <= 128) {
            const auto& b = L.reg[static_cast<size_t>(log2i(v))];
            if (row_major ? (b.first != 0 || b.second != v) : (b.second != 0 || b.first != v)) break;
            v *= 2;
        }
        if (!out.dense) v = 1;
        auto aligned = [&](const std::vector<std::pair<int, int>>& bases, size_t from) {
            for (size_t i = from; i < bases.size(); ++i)
                if ((row_major ? bases[i].second : bases[i].first) % v != 0) return false;
            return true;
        };
        while (v > 1 && !(aligned(L.reg, static_cast<size_t>(log2i(v))) && aligned(L.lane, 0) && aligned(L.warp, 0))) v /= 2;
        return v;
    };
    out.vec_row = run(true);
    out.vec_col = run(false);
    s += "    // Items per vector access (" + num(out.vec_row * eb / 8) + " and " + num(out.vec_col * eb / 8) +
         " bytes): ld must be a multiple of these.\n";
    s += "    static constexpr int vec_row_major = " + num(out.vec_row) + ", vec_col_major = " + num(out.vec_col) + ";\n";
    return out;
}

// The builtin's vector type names ("v4f16") as ext_vector types.
std::string vector_typedef(const std::string& v) {
    static const std::map<std::string, std::string> base = {{"f16", "_Float16"}, {"bf16", "__bf16"}, {"f32", "float"},
                                                            {"f64", "double"},   {"i16", "short"},   {"i32", "int"},
                                                            {"i64", "long long"}};
    if (v.size() > 1 && v[0] == 'v') {
        size_t p = 1;
        while (p < v.size() && std::isdigit(static_cast<unsigned char>(v[p]))) ++p;
        auto it = base.find(v.substr(p));
        if (it != base.end())
            return "typedef " + it->second + " ls_" + v + " __attribute__((ext_vector_type(" + v.substr(1, p - 1) + ")));\n";
    }
    auto it = base.find(v);
    if (it != base.end()) return "typedef " + it->second + " ls_" + v + ";\n";
    return {};
}

using text::split;

// Why an AMD instruction gets no mma(a, b, c, d): the operands past A, B and C it has, or else
// the builtin's own constant arguments, which the helper would have to choose for the caller.
std::string no_mma_helper_reason(const Instruction& ins, int wave) {
    std::vector<std::string> extra;
    for (Operand op : operands_of(ins)) {
        if (op == Operand::K) extra.push_back("the sparse index K");
        if (op == Operand::SA) extra.push_back("the block scales SA and SB");
    }
    if (!extra.empty())
        return ins.mnemonic + " takes more than A, B and C (" + text::join(extra, ", ") + ")";
    return "helpers are written for MFMA and RDNA3/RDNA4 WMMA builtins; " + ins.mnemonic + "'s builtin is " +
           ins.signature(wave) + ", whose constant arguments the helper would choose for you; call it directly";
}

// mma(a, b, c, d): one instruction on 32-bit registers (step-sized slices of the operands' regs).
std::string mma_helper(const Query& q) {
    const Instruction& ins = *q.ins;
    const ResolvedModifiers& mods = q.mods;
    auto regs = [&](Operand op) { return operand_regs(ins, op, mods); };
    std::string s;
    const std::string sig = "(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* d)";
    if (ins.vendor() == Vendor::AMD) {
        const bool integer = ins.a == ElemType::IU8 || ins.a == ElemType::IU4;
        std::string args;
        switch (ins.kind) {
            case LayoutKind::Mfma:
                args = "va, vb, vc, " + num(mods.cbsz) + ", " + num(mods.abid) + ", " + num(mods.blgp);
                break;
            case LayoutKind::WmmaRdna3:
                args = integer ? "0, va, 0, vb, vc, 0"
                               : elem_bits(ins.c) == 16 ? "va, vb, vc, " + num(mods.opsel == 4 ? 1 : 0) : "va, vb, vc";
                break;
            case LayoutKind::WmmaRdna4: args = integer ? "0, va, 0, vb, vc, 0" : "va, vb, vc"; break;
            default: return "// No mma() helper: " + no_mma_helper_reason(ins, mods.wave) + ".\n";
        }
        const std::vector<std::string> types = split(ins.vector_types(mods.wave), '>');
        if (types.size() != 2) return {};
        const std::vector<std::string> in = split(types[0], ',');
        if (in.size() != 3) return {};
        std::string defs;
        for (const std::string& v : {in[0], in[1], in[2], types[1]}) {
            const std::string d = vector_typedef(v);
            if (d.empty()) return "// No mma() helper: builtin type " + v + " unknown.\n";
            if (defs.find(d) == std::string::npos) defs += d;
        }
        s += "#if defined(__HIP__)\n" + defs;
        s += "// One " + ins.mnemonic + " (" + ins.builtin(mods.wave) + "): d = a * b + c on this lane's registers of one\n"
             "// step (A::step_regs, B::step_regs, C::step_regs words each; d may be c).\n";
        s += "__attribute__((device)) inline void mma" + sig + " {\n#if defined(__HIP_DEVICE_COMPILE__)\n";
        s += "    ls_" + in[0] + " va;\n    ls_" + in[1] + " vb;\n    ls_" + in[2] + " vc;\n";
        s += "    static_assert(sizeof va == " + num(4 * regs(Operand::A)) + " && sizeof vb == " + num(4 * regs(Operand::B)) +
             " && sizeof vc == " + num(4 * regs(Operand::C)) + ", \"register counts\");\n";
        s += "    __builtin_memcpy(&va, a, sizeof va);\n    __builtin_memcpy(&vb, b, sizeof vb);\n"
             "    __builtin_memcpy(&vc, c, sizeof vc);\n";
        s += "    const ls_" + types[1] + " vd = " + ins.builtin(mods.wave) + "(" + args + ");\n";
        s += "    __builtin_memcpy(d, &vd, sizeof vd);\n#else\n    (void)a, (void)b, (void)c, (void)d;\n#endif\n}\n#endif\n";
        return s;
    }
    if (ins.kind == LayoutKind::Wgmma) {
        // wgmma with A from registers (PTX 9.7.15.5.2): d, a, b-desc, scale-d[, imm-scale-a, imm-scale-b[, imm-trans-b]].
        const int ra = regs(Operand::A), rd = regs(Operand::D);
        const bool f16 = ins.a == ElemType::F16 || ins.a == ElemType::BF16;
        const bool integer = ins.c == ElemType::S32 || ins.c == ElemType::I32;  // .s32 accumulators: no scale or transpose immediates
        std::string d_list, a_list, outs, ins_;
        for (int i = 0; i < rd; ++i) {
            d_list += (i ? ", %" : "%") + num(i);
            outs += std::string(i ? ", " : "") + "\"+r\"(d[" + num(i) + "])";
        }
        for (int i = 0; i < ra; ++i) {
            a_list += (i ? ", %" : "%") + num(rd + i);
            ins_ += std::string(i ? ", " : "") + "\"r\"(a[" + num(i) + "])";
        }
        ins_ += ", \"l\"(desc_b)";
        const std::string tail = integer ? "" : f16 ? ", 1, 1, 0" : ", 1, 1";
        s += "#if defined(__CUDACC__) || defined(__CUDA__)\n";
        s += "// One " + ins.mnemonic + " with A from this thread's registers (A::step_regs words of a step) and B\n"
             "// from shared memory through the wgmma matrix descriptor desc_b (K-major B), accumulating into d\n"
             "// (D::regs words, in place). Between wgmma_fence() and wgmma_commit_and_wait(), as PTX requires.\n";
        s += "LANESCOPE_DEVICE inline void wgmma(const unsigned* a, unsigned long long desc_b, unsigned* d) {\n#if defined(__CUDA_ARCH__)\n";
        s += "    asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, 1, 0;\\n" + ins.mnemonic + " {" + d_list + "}, {" + a_list +
             "}, %" + num(rd + ra) + ", p" + tail + ";\\n}\\n\"\n                 : " + outs + "\n                 : " + ins_ +
             "\n                 : \"memory\");\n";
        s += "#else\n    (void)a, (void)desc_b, (void)d;\n#endif\n}\n";
        {
            // The SS form (PTX 9.7.15.5.2): A through its descriptor too; the transposes (16-bit types only)
            // as template arguments: 0 K-major, 1 MN-major.
            std::string ss_outs;
            for (int i = 0; i < rd; ++i) ss_outs += std::string(i ? ", " : "") + "\"+r\"(d[" + num(i) + "])";
            const std::string ss_tail = integer ? "" : f16 ? ", 1, 1, %" + num(rd + 2) + ", %" + num(rd + 3) : ", 1, 1";
            const std::string ss_ins = "\"l\"(desc_a), \"l\"(desc_b)" + std::string(f16 ? ", \"n\"(TransA), \"n\"(TransB)" : "");
            s += "// One " + ins.mnemonic + " with A and B from shared memory (the SS form) through the descriptors\n"
                 "// desc_a and desc_b (smem::wgmma_desc)" + std::string(f16 ? ", TransA / TransB = 1 for an MN-major A / B" : "") +
                 ", accumulating into d.\n";
            s += "template <int TransA = 0, int TransB = 0>\n"
                 "LANESCOPE_DEVICE inline void wgmma_ss(unsigned long long desc_a, unsigned long long desc_b, unsigned* d) {\n"
                 "    static_assert(TransA == 0 || TransA == 1, \"TransA: 0 or 1\");\n"
                 "    static_assert(TransB == 0 || TransB == 1, \"TransB: 0 or 1\");\n#if defined(__CUDA_ARCH__)\n";
            s += "    asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, 1, 0;\\n" + ins.mnemonic + " {" + d_list + "}, %" + num(rd) +
                 ", %" + num(rd + 1) + ", p" + ss_tail + ";\\n}\\n\"\n                 : " + ss_outs + "\n                 : " + ss_ins +
                 "\n                 : \"memory\");\n";
            s += "#else\n    (void)desc_a, (void)desc_b, (void)d;\n#endif\n}\n";
        }
        s += "LANESCOPE_DEVICE inline void wgmma_fence() {\n#if defined(__CUDA_ARCH__)\n"
             "    asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\");\n#endif\n}\n";
        s += "LANESCOPE_DEVICE inline void wgmma_commit_and_wait() {\n#if defined(__CUDA_ARCH__)\n"
             "    asm volatile(\"wgmma.commit_group.sync.aligned;\\n\" ::: \"memory\");\n"
             "    asm volatile(\"wgmma.wait_group.sync.aligned 0;\\n\" ::: \"memory\");\n#endif\n}\n";
        s += "#endif\n";
        return s;
    }
    if (ins.kind != LayoutKind::MmaSync || elem_bits(ins.c) == 64 || elem_bits(ins.a) == 64)
        return "// No mma() helper for " + ins.mnemonic + " (f64 and sparse forms are not generated): use the\n"
               "// fragments with your own asm.\n";
    const int ra = regs(Operand::A), rb = regs(Operand::B), rc = regs(Operand::C), rd = regs(Operand::D);
    const bool fc = ins.c == ElemType::F32;  // f32 accumulators in "f" registers, the rest as b32
    std::string asm_text = ins.mnemonic + " {";
    int n = 0;
    auto group = [&](int count) {
        std::string g;
        for (int i = 0; i < count; ++i) g += (i ? ", %" : "%") + num(n++);
        return g;
    };
    // One statement each: the groups number their operands in order (d, a, b, c).
    asm_text += group(rd);
    asm_text += "}, {";
    asm_text += group(ra);
    asm_text += "}, {";
    asm_text += group(rb);
    asm_text += "}, {";
    asm_text += group(rc);
    asm_text += "};";
    std::string outs, ins_;
    for (int i = 0; i < rd; ++i) outs += std::string(i ? ", " : "") + (fc ? "\"=f\"(fd[" : "\"=r\"(d[") + num(i) + "])";
    for (int i = 0; i < ra; ++i) ins_ += std::string(ins_.empty() ? "" : ", ") + "\"r\"(a[" + num(i) + "])";
    for (int i = 0; i < rb; ++i) ins_ += ", \"r\"(b[" + num(i) + "])";
    for (int i = 0; i < rc; ++i) ins_ += std::string(", ") + (fc ? "\"f\"(fc[" : "\"r\"(c[") + num(i) + "])";
    s += "#if defined(__CUDACC__) || defined(__CUDA__)\n";
    s += "// One " + ins.mnemonic + ": d = a * b + c on this thread's registers of one step\n"
         "// (A::step_regs, B::step_regs, C::step_regs words each; d may be c).\n";
    s += "LANESCOPE_DEVICE inline void mma" + sig + " {\n#if defined(__CUDA_ARCH__)\n";
    if (fc) s += "    float fc[" + num(rc) + "], fd[" + num(rd) + "];\n    __builtin_memcpy(fc, c, sizeof fc);\n";
    s += "    asm volatile(\"" + asm_text + "\"\n                 : " + outs + "\n                 : " + ins_ + ");\n";
    if (fc) s += "    __builtin_memcpy(d, fd, sizeof fd);\n";
    s += "#else\n    (void)a, (void)b, (void)c, (void)d;\n#endif\n}\n#endif\n";
    return s;
}

// ldmatrix (PTX 9.7.14.5.15): lane l receives, in each 32-bit register j, row l/4 and elements
// 2(l%4), 2(l%4)+1 of 8x8 matrix j (b16). An operand's step register j is such a fragment when its
// two items of lane l are (r0 + l/4, c0 + 2(l%4) + e) ("rows": non-transposed from row-major
// memory, .trans from column-major) or (r0 + 2(l%4) + e, c0 + l/4) ("cols": the other way round),
// in every wave and step. Returns 1 (rows), 2 (cols) or 0 (no ldmatrix form).
int ldmatrix_form(const TileLayout& t, const std::vector<std::vector<ItemAt>>& per_lane) {
    if (t.instruction().element_bits() != 16 || t.lanes() != 32) return 0;
    const int step_regs = t.instruction().regs(), items = static_cast<int>(per_lane[0].size());
    if (items != 2 * step_regs * t.steps()) return 0;
    int form = 0;
    for (int w = 0; w < t.waves(); ++w)
        for (int s = 0; s < t.steps(); ++s)
            for (int j = 0; j < step_regs; ++j) {
                const auto& l0 = per_lane[static_cast<size_t>(w) * 32][static_cast<size_t>(s * 2 * step_regs + 2 * j)];
                for (int f = 1; f <= 2; ++f) {
                    bool ok = true;
                    for (int l = 0; l < 32 && ok; ++l)
                        for (int e = 0; e < 2 && ok; ++e) {
                            const ItemAt& it = per_lane[static_cast<size_t>(w) * 32 + l][static_cast<size_t>(s * 2 * step_regs + 2 * j + e)];
                            const int dr = f == 1 ? l / 4 : 2 * (l % 4) + e, dc = f == 1 ? 2 * (l % 4) + e : l / 4;
                            ok = it.row == l0.row + dr && it.col == l0.col + dc && it.reg == s * step_regs + j;
                        }
                    if (ok) {
                        if (form && form != f) return 0;
                        form = f;
                        break;
                    }
                    if (f == 2) return 0;
                }
            }
    return form;
}

std::string ldmatrix_helper(const TileLayout& t, const std::vector<std::vector<ItemAt>>& per_lane) {
    const int form = ldmatrix_form(t, per_lane);
    if (!form) return {};
    const int r = t.instruction().regs();
    const std::string x = ".x" + num(r);
    std::string regs_out, regs_list;
    for (int i = 0; i < r; ++i) {
        regs_list += (i ? ", %" : "%") + num(i);
        regs_out += std::string(i ? ", " : "") + "\"=r\"(regs[" + num(i) + "])";
    }
    const std::string plain = "ldmatrix.sync.aligned.m8n8" + x + ".shared.b16 {" + regs_list + "}, [%" + num(r) + "];";
    const std::string trans = "ldmatrix.sync.aligned.m8n8" + x + ".trans.shared.b16 {" + regs_list + "}, [%" + num(r) + "];";
    std::string s;
    s += "    // ldmatrix" + x + ": each step's " + num(r) + " registers are 8x8 b16 fragments (" +
         (form == 1 ? "rows of the operand along a lane's quad" : "columns of the operand along a lane's quad") +
         "), so one\n    // ldmatrix" + x + " per step fills them from shared memory: non-transposed from " +
         (form == 1 ? "row" : "column") + "-major, .trans\n    // from " + (form == 1 ? "column" : "row") +
         "-major. ldmatrix_row: the row (16 bytes) lane `lane` names for `step`.\n";
    s += "    static constexpr bool ldmatrix_trans_row_major = " + std::string(form == 1 ? "false" : "true") + ";\n";
    s += "    template <typename T>\n"
         "    LANESCOPE_HD static const T* ldmatrix_row(const T* p, long ld, bool row_major, int wave, int lane, int step) {\n"
         "        const Item e = which(wave, 0, step * step_items + 2 * ((lane >> 3) % step_regs));\n"
         "        return row_major ? p + (e.row + (lane & 7)) * ld + e.col : p + (e.col + (lane & 7)) * ld + e.row;\n    }\n";
    s += "#if defined(__CUDACC__) || defined(__CUDA__)\n";
    s += "    // regs[0.." + num(r - 1) + "] of `step` from the tile at p (shared memory) with leading dimension ld.\n";
    s += "    template <typename T>\n"
         "    LANESCOPE_DEVICE static void ldmatrix(const T* p, long ld, bool row_major, int wave, int lane, int step, unsigned* regs) {\n"
         "#if defined(__CUDA_ARCH__)\n"
         "        const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(ldmatrix_row(p, ld, row_major, wave, lane, step)));\n"
         "        if (row_major == ldmatrix_trans_row_major)\n"
         "            asm volatile(\"" + trans + "\" : " + regs_out + " : \"r\"(a));\n"
         "        else\n"
         "            asm volatile(\"" + plain + "\" : " + regs_out + " : \"r\"(a));\n"
         "#else\n        (void)p, (void)ld, (void)row_major, (void)wave, (void)lane, (void)step, (void)regs;\n#endif\n    }\n";
    s += "#endif\n";
    return s;
}

}  // namespace

std::string default_header_namespace(const Instruction& ins, const Target& t, int wave) {
    const std::string name = "ls_" + t.gfx + "_" + ins.key(wave);
    std::string safe;
    for (char c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        if (c != '_' || safe.empty() || safe.back() != '_') safe += c;
    }
    while (!safe.empty() && safe.back() == '_') safe.pop_back();
    return safe;
}

void check_namespace_name(const std::string& name, const std::string& option) {
    const std::string rule =
        "; legal: a C++ identifier (letters, digits, _; not starting with a digit) that is not a keyword or reserved "
        "name, or such identifiers joined by :: (a nested namespace), the first not main";
    // A nested namespace (C++17 [namespace.def]): every part is checked as one name.
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
        const size_t at = name.find("::", start);
        parts.push_back(name.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) break;
        start = at + 2;
    }
    for (size_t n = 0; n < parts.size(); ++n) {
        const std::string& part = parts[n];
        const std::string what = option + " '" + name + "'" + (parts.size() > 1 ? " (its part '" + part + "')" : "");
        bool ident = !part.empty() && (std::isalpha(static_cast<unsigned char>(part[0])) || part[0] == '_');
        for (char c : part) ident &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        if (!ident) throw Error(what + " is not a C++ identifier" + rule);
        // C++17 keywords and alternative tokens (ISO/IEC 14882:2017 [lex.key], [lex.digraph]), and C++20's.
        static const char* const kKeywords[] = {
            "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
            "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
            "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
            "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
            "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
            "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
            "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
            "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
            "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
            // Names the generated code defines or uses itself.
            "LANESCOPE_HD", "LANESCOPE_DEVICE", "LANESCOPE_UNROLL", "LS_HD", "LS_LDS", "LS_GLOBAL"};
        for (const char* k : kKeywords)
            if (part == k) throw Error(what + " is a C++ keyword or a name the generated code uses" + rule);
        if (part.find("__") != std::string::npos ||
            (part.size() > 1 && part[0] == '_' && std::isupper(static_cast<unsigned char>(part[1]))))
            throw Error(what + " is reserved to the implementation (a double underscore, or _ and a capital) ([lex.name])" + rule);
        if (n == 0) {
            // The global namespace: ::main is the program's entry ([basic.start.main]: no other entity at global
            // scope is named main), names starting with _ are reserved there ([lex.name]), std and posix to the
            // standard library ([namespace.std]).
            if (part == "main")
                throw Error(what + ": a namespace main at global scope clashes with every program's main function" + rule);
            if (part[0] == '_') throw Error(what + " starts with _, reserved in the global namespace ([lex.name])" + rule);
            if (part == "std" || part == "posix" || (part.rfind("std", 0) == 0 && part.size() > 3 &&
                                                     std::all_of(part.begin() + 3, part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })))
                throw Error(what + " is reserved to the standard library ([namespace.std], [namespace.posix])" + rule);
        }
    }
}

// Shared-memory descriptors and swizzled addresses for the operands wgmma and tcgen05.mma read
// through a matrix descriptor: closed forms of core's smem_swizzle / encode_descriptor /
// SmemOperand::linear (lanescope/smem.hpp), the same rules, written for device code.
std::string smem_helpers(const Query& q) {
    if (q.ins->kind != LayoutKind::Wgmma && q.ins->kind != LayoutKind::Tcgen05Mma) return "";
    std::string s = R"LS(
// Shared memory: matrix descriptors and swizzled addresses (PTX ISA 9.7.15.5.1.2 "Shared Memory
// Matrix Layout" and "Matrix Descriptor Format" for wgmma, 9.7.16.4.1 "Shared Memory Descriptor"
// for tcgen05; CUTLASS make_gmma_desc / make_umma_desc for the canonical LBO and SBO). Where PTX
// is silent these follow what an H200 does (lanescope-cli verify --device cuda --smem): the swizzle
// XOR takes its row from the ABSOLUTE shared-memory address, and the base offset is subtracted
// from that 128-byte row. Modes: 0 none, 1 32B, 2 64B, 3 128B, 4 128B_base32B (tcgen05 only).
namespace smem {
// Bytes of one swizzled row (none: 16, a core matrix's row) and log2 of the 128-byte rows of one period.
LANESCOPE_HD constexpr unsigned span(int mode) { return mode == 1 ? 32u : mode == 2 ? 64u : mode >= 3 ? 128u : 16u; }
LANESCOPE_HD constexpr unsigned period_rows_log2(int mode) { return mode == 1 ? 1u : mode == 2 ? 2u : mode == 3 ? 3u : mode == 4 ? 2u : 0u; }
// The byte the hardware uses for absolute shared-memory byte address a: CuTe's Swizzle<3,4,3> (128B),
// <2,4,3> (64B), <1,4,3> (32B), <2,5,2> (128B_base32B), the base offset subtracted from the row first.
LANESCOPE_HD constexpr unsigned swizzle(unsigned a, int mode, int base_offset = 0) {
    return mode == 0 ? a
                     : a ^ ((((a >> 7) - static_cast<unsigned>(base_offset)) & ((1u << period_rows_log2(mode)) - 1u))
                            << (mode == 4 ? 5 : 4));
}
LANESCOPE_HD constexpr unsigned long long enc(unsigned bytes) { return (bytes & 0x3FFFFu) >> 4; }
// wgmma (sm_90a): start >> 4 in bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset in 49-51,
// swizzle in 62-63 (0 none, 1 128B, 2 64B, 3 32B).
LANESCOPE_HD constexpr unsigned long long wgmma_desc(unsigned start, unsigned lbo, unsigned sbo, int mode, int base_offset = 0) {
    return enc(start) | enc(lbo) << 16 | enc(sbo) << 32 | static_cast<unsigned long long>(base_offset & 7) << 49 |
           static_cast<unsigned long long>(mode == 3 ? 1 : mode == 2 ? 2 : mode == 1 ? 3 : 0) << 62;
}
// tcgen05 (sm_100a and later): the same fields, bits 46-48 the fixed 0b001, bit 52 the LBO mode (1: LBO is
// an absolute address, sm_103a), swizzle in 61-63 (0 none, 1 128B_base32B, 2 128B, 4 64B, 6 32B).
LANESCOPE_HD constexpr unsigned long long tcgen05_desc(unsigned start, unsigned lbo, unsigned sbo, int mode,
                                                      int base_offset = 0, int lbo_mode = 0) {
    return enc(start) | enc(lbo) << 16 | enc(sbo) << 32 | 1ull << 46 | static_cast<unsigned long long>(base_offset & 7) << 49 |
           static_cast<unsigned long long>(lbo_mode & 1) << 52 |
           static_cast<unsigned long long>(mode == 4 ? 1 : mode == 3 ? 2 : mode == 2 ? 4 : mode == 1 ? 6 : 0) << 61;
}
// One instruction's operand in PTX's canonical layouts: the byte offset from the descriptor's start,
// before the swizzle, of element (mn, k) (mn: A's m or B's n) of e-byte elements.
//   K-major,  none: (mn%8)*16 + (mn/8)*SBO + (k%T)*e + (k/T)*LBO        T = 16/e
//   K-major,  W   : (mn%8)*W  + (mn/8)*SBO + k*e                         (LBO unused)
//   MN-major, none: (mn%T)*e  + (mn/T)*SBO + (k%8)*16 + (k/8)*LBO
//   MN-major, W   : (mn%(W/e))*e + (mn/(W/e))*LBO + (k%8)*W + (k/8)*SBO
LANESCOPE_HD constexpr unsigned canonical_offset(int mn, int k, int e, bool mn_major, int mode, unsigned lbo, unsigned sbo) {
    const unsigned W = span(mode), T = 16u / static_cast<unsigned>(e), m = static_cast<unsigned>(mn), kk = static_cast<unsigned>(k),
                   E = static_cast<unsigned>(e);
    if (!mn_major)
        return mode == 0 ? (m % 8) * 16 + (m / 8) * sbo + (kk % T) * E + (kk / T) * lbo : (m % 8) * W + (m / 8) * sbo + kk * E;
    return mode == 0 ? (m % T) * E + (m / T) * sbo + (kk % 8) * 16 + (kk / 8) * lbo
                     : (m % (W / E)) * E + (m / (W / E)) * lbo + (kk % 8) * W + (kk / 8) * sbo;
}
// Element (mn, k)'s absolute shared-memory byte address through a descriptor with these fields.
LANESCOPE_HD constexpr unsigned address(unsigned start, int mn, int k, int e, bool mn_major, int mode, unsigned lbo, unsigned sbo,
                                        int base_offset = 0) {
    return swizzle(start + canonical_offset(mn, k, e, mn_major, mode, lbo, sbo), mode, base_offset);
}
// CUTLASS's LBO and SBO for a tile_to_shape of the canonical atom whose MN extent is mn_extent elements.
LANESCOPE_HD constexpr unsigned canonical_lbo(int mn_extent, int e, bool mn_major, int mode) {
    return !mn_major ? (mode == 0 ? static_cast<unsigned>(mn_extent) * 16u : 16u)
                     : (mode == 0 ? static_cast<unsigned>(mn_extent * e) * 8u : 8u * span(mode));
}
LANESCOPE_HD constexpr unsigned canonical_sbo(int mn_extent, int e, bool mn_major, int mode) {
    return !mn_major ? (mode == 0 ? 128u : 8u * span(mode)) : (mode == 0 ? 128u : static_cast<unsigned>(mn_extent * e) * 8u);
}
// A K-major tile of mn_extent rows as TMA writes it with boxes span(mode) bytes wide (box j: the j-th
// span(mode) bytes of K of every row, mn_extent rows of span(mode) bytes; CUTLASS's tile_to_shape
// order, MN first): the byte offset before the swizzle of (mn, k). The descriptor of the k-slice
// starting at (mn0, k0) starts at tile + ktile_offset(mn0, k0, ...), with canonical_lbo / canonical_sbo.
LANESCOPE_HD constexpr unsigned ktile_offset(int mn, int k, int mn_extent, int e, int mode) {
    const unsigned W = span(mode), b = static_cast<unsigned>(k * e);
    return (b / W) * static_cast<unsigned>(mn_extent) * W + static_cast<unsigned>(mn) * W + b % W;
}
// The TMA box of such a tile (cuTensorMapEncodeTiled's boxDim[0], in elements) and its CUtensorMapSwizzle
// (0 NONE, 1 32B, 2 64B, 3 128B, 4 128B_ATOM_32B: the same numbers as the modes here).
LANESCOPE_HD constexpr int tma_box_inner(int e, int mode) { return static_cast<int>(span(mode)) / e; }
LANESCOPE_HD constexpr int tensor_map_swizzle(int mode) { return mode; }
}  // namespace smem
)LS";
    return s;
}

std::string render_header(const Query& q, const TileParams& tp, const std::string& name, const HeaderOptions& opts) {
    check_namespace_name(name, "--namespace");
    const bool nvidia = q.ins->vendor() == Vendor::NVIDIA;
    std::string guard = "LANESCOPE_HEADER_" + name;
    for (char& c : guard)
        if (c == ':') c = '_';  // a nested namespace's ::
    std::string s;
    s += "// Generated by lanescope-cli header. Do not edit: regenerate.\n";
    s += "// " + q.ins->mnemonic + (nvidia ? "" : " (" + q.ins->builtin(q.mods.wave) + ")") + " on " + q.target->gfx + " (" +
         std::string(family_title(q.target->family)) + ", " + (nvidia ? "warp" : "wave") + num(q.mods.wave) + ")";
    if (!q.mods.describe().empty()) s += " [" + q.mods.describe() + "]";
    s += "\n";
    if (!tp.single()) s += "// Tile: " + with_shape(tp, *q.ins).describe() + " (docs/tiles.md: Triton's AMD composition)\n";
    s += "// Layout family " + std::string(layout_kind_name(q.ins->kind)) + "; source: " + family_source(q.ins->kind) + "\n";
    s += "//\n// Per operand X: X::rows, X::cols, X::items (elements one lane holds, in register-and-bit order),\n"
         "// X::row_of / X::col_of / X::which(wave, lane, item) -> element, X::copies(row, col),\n"
         "// X::where(row, col, copy) -> Slot{wave, lane, reg, bit_lo, bit_hi}, X::slot(wave, lane, item),\n"
         "// X::step(k_step, tile_m, tile_n, repeat_m, repeat_n) -> the step whose items are\n"
         "// [step * step_items, (step + 1) * step_items) and registers [step * step_regs, ...),\n"
         "// X::load(p, ld, row_major, wave, lane, out) / X::store(...) with vector accesses of\n"
         "// X::vec_row_major / X::vec_col_major items, X::pack(items, regs) / X::unpack(regs, items).\n"
         "// load_a / load_b / store_c are X::load / X::store for A, B and D; mma(a, b, c, d) runs one\n"
         "// instruction where lanescope knows its builtin (AMD) or PTX (mma.sync).\n";
    s += "#ifndef " + guard + "\n#define " + guard + "\n\n";
    s += "#if defined(__CUDACC__) && !defined(__clang__)\n#define LANESCOPE_HD __host__ __device__\n"
         "#define LANESCOPE_DEVICE __device__\n"
         "#elif defined(__HIP__) || defined(__CUDA__)\n#define LANESCOPE_HD __attribute__((host)) __attribute__((device))\n"
         "#define LANESCOPE_DEVICE __attribute__((device))\n"
         "#else\n#define LANESCOPE_HD\n#define LANESCOPE_DEVICE\n#endif\n"
         "#if defined(__clang__) || defined(__CUDACC__)\n#define LANESCOPE_UNROLL _Pragma(\"unroll\")\n#else\n"
         "#define LANESCOPE_UNROLL\n#endif\n\n";
    s += "namespace " + name + " {\n\n";
    s += "struct Slot {\n    int wave, lane, reg, bit_lo, bit_hi;\n};\nstruct Item {\n    int row, col;\n};\n\n";
    s += "// V consecutive items, V * sizeof(T) bytes at p (aligned to that): one vector access.\n"
         "template <typename T, int V>\nstruct alignas(V * sizeof(T)) Vec {\n    T v[V];\n};\n\n";
    std::string helpers;
    for (Operand op : operands_of(*q.ins))  // every operand within the limit before any work
        check_tile_work(TileLayout(*q.ins, *q.target, op, q.mods, tp), kMaxHeaderPlacements, "header",
                        "its closed forms are checked against every placement, and --tables writes them all; `layout --format json` streams larger tiles");
    for (Operand op : operands_of(*q.ins)) {
        TileLayout t(*q.ins, *q.target, op, q.mods, tp);
        const std::string X(operand_name(op));
        s += "// " + std::string(operand_title(op)) + ": " + std::string(elem_name(t.instruction().type())) + ", " + num(t.rows()) +
             " x " + num(t.cols()) + ", " + num(t.regs()) + " registers per lane\n";
        s += "struct " + X + " {\n";
        std::string body;
        if (!opts.tables) {
            std::string why;
            const std::optional<LinearLayout> lin = bases_of(t, why);
            if (lin) body = closed_struct(t, *lin).body;
            if (body.empty())
                s += "    // Not linear over GF(2) (" + (why.empty() ? std::string("its copies are no subspace") : why) + "): tables.\n";
        }
        if (body.empty()) body = table_struct(t, X);
        s += body;
        // Register order of tiles: the step's digits, fastest first.
        const auto& order = t.register_order();
        std::string step_expr, counts;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const std::string d(tile_digit_name(it->first));
            step_expr = step_expr.empty() ? d : "(" + step_expr + ") * " + num(it->second) + " + " + d;
        }
        std::string digits;
        for (const auto& [d, c] : order) digits += std::string(digits.empty() ? "" : ", ") + std::string(tile_digit_name(d)) + " " + num(c);
        s += "    static constexpr int steps = " + num(t.steps()) + ", step_items = items / steps, step_regs = " +
             num(t.instruction().regs()) + ";\n";
        s += "    // Register order, fastest digit first: " + digits + ".\n";
        std::map<std::string, int> count;
        for (const auto& [d, c] : order) count[std::string(tile_digit_name(d))] = c;
        auto count_of = [&](const char* d) { return num(count.count(d) ? count[d] : 1); };
        s += "    static constexpr int k_steps = " + count_of("k_step") + ", tiles_m = " + count_of("tile_m") +
             ", tiles_n = " + count_of("tile_n") + ", repeats_m = " + count_of("repeat_m") +
             ", repeats_n = " + count_of("repeat_n") + ";\n";
        // Digits beyond the five (should the tile model gain one) become trailing parameters, 0 by default.
        std::string extra, extra_void;
        for (const auto& [d, c] : order) {
            const std::string dn(tile_digit_name(d));
            if (dn != "k_step" && dn != "tile_m" && dn != "tile_n" && dn != "repeat_m" && dn != "repeat_n") {
                extra += ", int " + dn + " = 0";
                extra_void += ", (void)" + dn;
            }
        }
        s += "    LANESCOPE_HD static constexpr int step(int k_step, int tile_m, int tile_n, int repeat_m, int repeat_n" + extra +
             ") {\n        (void)k_step, (void)tile_m, (void)tile_n, (void)repeat_m, (void)repeat_n" + extra_void +
             ";\n        return " + (step_expr.empty() ? std::string("0") : step_expr) + ";\n    }\n";
        s += "    // regs (step_regs * steps words) from items, and back: item k at bits reg_of_item(k) * 32 + bit_of_item(k).\n"
             "    template <typename T>\n"
             "    LANESCOPE_HD static void pack(const T* in, unsigned* regs_out) {\n"
             "LANESCOPE_UNROLL\n"
             "        for (int r = 0; r < regs; ++r) regs_out[r] = 0;\n"
             "LANESCOPE_UNROLL\n"
             "        for (int k = 0; k < items; ++k) {\n"
             "            const Slot p = slot(0, 0, k);\n"
             "            if constexpr (sizeof(T) == 8) {\n"
             "                __builtin_memcpy(regs_out + p.reg, in + k, 8);\n"
             "            } else {\n"
             "                unsigned u = 0;\n"
             "                __builtin_memcpy(&u, in + k, sizeof(T) < 4 ? sizeof(T) : 4);\n"
             "                regs_out[p.reg] |= u << p.bit_lo;\n"
             "            }\n"
             "        }\n    }\n"
             "    template <typename T>\n"
             "    LANESCOPE_HD static void unpack(const unsigned* regs_in, T* out) {\n"
             "LANESCOPE_UNROLL\n"
             "        for (int k = 0; k < items; ++k) {\n"
             "            const Slot p = slot(0, 0, k);\n"
             "            if constexpr (sizeof(T) == 8) {\n"
             "                __builtin_memcpy(out + k, regs_in + p.reg, 8);\n"
             "            } else {\n"
             "                const unsigned u = regs_in[p.reg] >> p.bit_lo;\n"
             "                __builtin_memcpy(out + k, &u, sizeof(T) < 4 ? sizeof(T) : 4);\n"
             "            }\n"
             "        }\n    }\n";
        s += "    // out[item] = the element this lane holds as `item`, from p (leading dimension ld, a multiple of\n"
             "    // the vector width). Elements of items a lane does not hold (row -1, tables only) read as 0.\n"
             "    template <typename T>\n"
             "    LANESCOPE_HD static void load(const T* p, long ld, bool row_major, int wave, int lane, T* out) {\n"
             "        if (row_major) {\n"
             "LANESCOPE_UNROLL\n"
             "            for (int k = 0; k < items; k += vec_row_major) {\n"
             "                const Item e = which(wave, lane, k);\n"
             "                if (e.row < 0) { for (int i = 0; i < vec_row_major; ++i) out[k + i] = T(0); continue; }\n"
             "                const Vec<T, vec_row_major> v = *reinterpret_cast<const Vec<T, vec_row_major>*>(p + e.row * ld + e.col);\n"
             "LANESCOPE_UNROLL\n"
             "                for (int i = 0; i < vec_row_major; ++i) out[k + i] = v.v[i];\n"
             "            }\n"
             "        } else {\n"
             "LANESCOPE_UNROLL\n"
             "            for (int k = 0; k < items; k += vec_col_major) {\n"
             "                const Item e = which(wave, lane, k);\n"
             "                if (e.row < 0) { for (int i = 0; i < vec_col_major; ++i) out[k + i] = T(0); continue; }\n"
             "                const Vec<T, vec_col_major> v = *reinterpret_cast<const Vec<T, vec_col_major>*>(p + e.col * ld + e.row);\n"
             "LANESCOPE_UNROLL\n"
             "                for (int i = 0; i < vec_col_major; ++i) out[k + i] = v.v[i];\n"
             "            }\n"
             "        }\n    }\n"
             "    template <typename T>\n"
             "    LANESCOPE_HD static void store(T* p, long ld, bool row_major, int wave, int lane, const T* in) {\n"
             "        if (row_major) {\n"
             "LANESCOPE_UNROLL\n"
             "            for (int k = 0; k < items; k += vec_row_major) {\n"
             "                const Item e = which(wave, lane, k);\n"
             "                if (e.row < 0) continue;\n"
             "                Vec<T, vec_row_major> v;\n"
             "LANESCOPE_UNROLL\n"
             "                for (int i = 0; i < vec_row_major; ++i) v.v[i] = in[k + i];\n"
             "                *reinterpret_cast<Vec<T, vec_row_major>*>(p + e.row * ld + e.col) = v;\n"
             "            }\n"
             "        } else {\n"
             "LANESCOPE_UNROLL\n"
             "            for (int k = 0; k < items; k += vec_col_major) {\n"
             "                const Item e = which(wave, lane, k);\n"
             "                if (e.row < 0) continue;\n"
             "                Vec<T, vec_col_major> v;\n"
             "LANESCOPE_UNROLL\n"
             "                for (int i = 0; i < vec_col_major; ++i) v.v[i] = in[k + i];\n"
             "                *reinterpret_cast<Vec<T, vec_col_major>*>(p + e.col * ld + e.row) = v;\n"
             "            }\n"
             "        }\n    }\n";
        if (nvidia && (op == Operand::A || op == Operand::B) && s.find("closed_form = true", s.rfind("struct " + X + " {")) != std::string::npos)
            s += ldmatrix_helper(t, items_per_lane(t));
        s += "};\n\n";
        if (op == Operand::A)
            helpers += "template <typename T>\nLANESCOPE_HD inline void load_a(const T* p, long ld, bool row_major, int wave, "
                       "int lane, T* out) {\n    A::load(p, ld, row_major, wave, lane, out);\n}\n";
        if (op == Operand::B)
            helpers += "template <typename T>\nLANESCOPE_HD inline void load_b(const T* p, long ld, bool row_major, int wave, "
                       "int lane, T* out) {\n    B::load(p, ld, row_major, wave, lane, out);\n}\n";
        if (op == Operand::D)
            helpers += "template <typename T>\nLANESCOPE_HD inline void store_c(T* p, long ld, bool row_major, int wave, "
                       "int lane, const T* in) {\n    D::store(p, ld, row_major, wave, lane, in);\n}\n";
    }
    helpers += mma_helper(q);
    helpers += smem_helpers(q);
    s += helpers + "\n}  // namespace " + name + "\n\n#endif  // " + guard + "\n";
    return s;
}

}  // namespace lanescope
