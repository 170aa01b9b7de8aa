// Linear layouts over GF(2) (linear.hpp): derived from the engine's answers,
// never assumed: bases are read off single-bit indices, then the whole map is
// evaluated back and compared.
#include "lanescope/linear.hpp"
#include "util/json_read.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

namespace lanescope {

namespace {

using json_read::Json;
using json_read::Reader;
using json_read::member;

std::string num(long long v) { return std::to_string(v); }

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
                                    "] of lane " + num(lane) + " hold several elements under these modifiers, so " +
                                    "the layout is no function of (register, lane, wave)");
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

LinearLayout parse_linear(std::string_view text, std::string_view origin) {
    Json doc = Reader(text, origin).document();
    const std::string where(origin);
    if (doc.kind != Json::Object)
        throw Error(where + ": expected an object {\"register\": ..., \"lane\": ..., \"warp\": ..., \"shape\": [R, C]}");
    LinearLayout L;
    const Json* shape = member(doc, "shape");
    if (!shape || shape->kind != Json::Array || shape->items.size() != 2 || shape->items[0].kind != Json::Int ||
        shape->items[1].kind != Json::Int)
        throw Error(where + ": \"shape\" must be [rows, cols]");
    const long long R = shape->items[0].i, C = shape->items[1].i;
    if (!power_of_two(R) || !power_of_two(C) || R > (1 << 16) || C > (1 << 16))
        throw Error(where + ": \"shape\" [" + num(R) + ", " + num(C) + "] must be powers of two up to 65536");
    L.rows = static_cast<int>(R);
    L.cols = static_cast<int>(C);
    auto read = [&](const char* key, std::vector<std::pair<int, int>>& out, bool required, size_t max_bits) {
        const Json* b = member(doc, key);
        if (!b) {
            if (required) throw Error(where + ": missing \"" + key + "\" (a list of [row, col] bases)");
            return;
        }
        if (b->kind != Json::Array) throw Error(where + ": \"" + key + "\" must be a list of [row, col] bases");
        if (b->items.size() > max_bits) throw Error(where + ": \"" + key + "\" has too many bases (" + num(b->items.size()) + ")");
        for (size_t i = 0; i < b->items.size(); ++i) {
            const Json& v = b->items[i];
            if (v.kind != Json::Array || v.items.size() != 2 || v.items[0].kind != Json::Int || v.items[1].kind != Json::Int)
                throw Error(where + ": \"" + key + "\"[" + num(i) + "] must be [row, col]");
            long long r = v.items[0].i, c = v.items[1].i;
            if (r < 0 || r >= R || c < 0 || c >= C)
                throw Error(where + ": \"" + key + "\"[" + num(i) + "] = [" + num(r) + ", " + num(c) +
                            "] is outside the shape " + num(R) + " x " + num(C));
            out.push_back({static_cast<int>(r), static_cast<int>(c)});
        }
    };
    read("register", L.reg, true, 20);
    read("lane", L.lane, true, 10);
    read("warp", L.warp, false, 10);
    if (const Json* block = member(doc, "block"))
        if (block->kind != Json::Array || !block->items.empty())
            throw Error(where + ": \"block\" must be empty: layouts of one workgroup only");
    return L;
}

}  // namespace lanescope
