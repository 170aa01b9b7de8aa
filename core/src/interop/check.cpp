// check_layout (check.hpp): compares, element by element, every placement
// lanescope gives with every placement the other layout gives.
#include "lanescope/check.hpp"

#include "lanescope/limits.hpp"
#include "util/json_read.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

namespace lanescope {

namespace {

using json_read::Json;
using json_read::member;

std::string num(long long v) { return std::to_string(v); }

auto key(const Placement& p) { return std::make_tuple(p.wave, p.lane, p.reg, p.bit_lo, p.bit_hi, p.index); }

int as_int(const Json* v, const std::string& what, const std::string& origin) {
    if (!v || v->kind != Json::Int || v->i < 0 || v->i > (1 << 30))
        throw Error(origin + ": " + what + " must be a whole number from 0 to " + num(1 << 30));
    return static_cast<int>(v->i);
}

GivenLayout from_contract(const Json& doc, const std::string& origin) {
    GivenLayout g;
    g.origin = origin;
    if (const Json* op = member(doc, "operand")) {
        if (op->kind != Json::String)
            throw Error(origin + ": \"operand\" must be a string naming the operand (A, B, C, D, K, SA or SB)");
        g.operand = op->s;
    }
    const Json* entries = member(doc, "entries");
    if (!entries || entries->kind != Json::Array) throw Error(origin + ": \"entries\" must be a list");
    g.entries.reserve(entries->items.size());
    for (size_t n = 0; n < entries->items.size(); ++n) {
        const Json& e = entries->items[n];
        const std::string at = "entries[" + num(n) + "].";
        if (e.kind != Json::Object) throw Error(origin + ": entries[" + num(n) + "] must be an object");
        Element el{member(e, "block") ? as_int(member(e, "block"), at + "block", origin) : 0,
                   as_int(member(e, "row"), at + "row", origin), as_int(member(e, "col"), at + "col", origin)};
        Placement p;
        p.wave = member(e, "wave") ? as_int(member(e, "wave"), at + "wave", origin) : 0;
        p.lane = as_int(member(e, "lane"), at + "lane", origin);
        p.reg = as_int(member(e, "reg"), at + "reg", origin);
        p.bit_lo = as_int(member(e, "bit_lo"), at + "bit_lo", origin);
        p.bit_hi = as_int(member(e, "bit_hi"), at + "bit_hi", origin);
        g.entries.push_back({el, p});
    }
    return g;
}

std::vector<std::string> split_csv_line(std::string_view line) {
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
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() : end + 1;
        ++line_no;
        if (line.empty() || line == "\r") continue;
        auto cells = split_csv_line(line);
        if (head.empty()) {
            head = cells;
            for (size_t i = 0; i < head.size(); ++i) col[head[i]] = i;
            for (const char* need : {"row", "col", "lane", "reg", "bit_lo", "bit_hi"})
                if (!col.count(need))
                    throw Error(origin + ": the CSV header needs columns row, col, lane, reg, bit_lo, bit_hi (and "
                                "optionally block, wave), as `layout --format csv` writes; missing '" + need + "'");
            continue;
        }
        if (cells.size() != head.size())
            throw Error(origin + ": line " + num(line_no) + ": " + num(cells.size()) + " cells, the header has " + num(head.size()));
        auto get = [&](const char* name, int fallback) {
            auto it = col.find(name);
            if (it == col.end()) return fallback;
            const std::string& s = cells[it->second];
            int v = 0;
            auto r = std::from_chars(s.data(), s.data() + s.size(), v);
            if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0 || v > (1 << 30))
                throw Error(origin + ": line " + num(line_no) + ": " + name + " '" + s + "' is not a whole number from 0 to " +
                            num(1 << 30));
            return v;
        };
        Placement p;
        p.wave = get("wave", 0);
        p.lane = get("lane", 0);
        p.reg = get("reg", 0);
        p.bit_lo = get("bit_lo", 0);
        p.bit_hi = get("bit_hi", 0);
        g.entries.push_back({Element{get("block", 0), get("row", 0), get("col", 0)}, p});
    }
    if (head.empty()) throw Error(origin + ": empty; expected the JSON contract, CSV or a linear layout");
    return g;
}

}  // namespace

bool Placement::operator<(const Placement& o) const { return key(*this) < key(o); }
bool Placement::operator==(const Placement& o) const { return key(*this) == key(o); }

std::string Placement::label() const {
    std::string w = "w" + num(wave) + ":";
    if (index >= 0) return w + "L" + num(lane) + ":i" + num(index);
    return w + "v" + num(reg) + "[" + num(bit_hi) + ":" + num(bit_lo) + "]:L" + num(lane);
}

GivenLayout parse_layout_text(std::string_view text, std::string_view origin_view) {
    const std::string origin(origin_view);
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) throw Error(origin + ": empty; expected the JSON contract, CSV or a linear layout");
    if (text[first] == '[')
        throw Error(origin + ": a list of layouts; give one operand's layout (layout --operand X, not all)");
    if (text[first] != '{') return from_csv(text, origin);
    Json doc = json_read::Reader(text, origin).document();
    if (member(doc, "entries")) return from_contract(doc, origin);
    if (member(doc, "register") || member(doc, "lane")) {
        GivenLayout g;
        g.origin = origin;
        g.linear = true;
        g.linear_layout = parse_linear(text, origin);
        return g;
    }
    throw Error(origin + ": a JSON object with neither \"entries\" (the JSON contract) nor \"register\"/\"lane\" (a linear layout)");
}

namespace {

// The expected side: placements per element, and the per-(wave, lane) lists a
// linear form is compared with (empty, with the reason, when there are none).
CheckResult compare(std::map<Element, std::pair<std::vector<Placement>, std::vector<Placement>>> by_element,
                    const std::vector<std::vector<Element>>& held, const std::string& held_error, int lanes, int rows,
                    int cols, const GivenLayout& given) {
    CheckResult res;
    if (given.linear) {
        const LinearLayout& L = given.linear_layout;
        if (!held_error.empty()) res.note = "lanescope's layout has no linear form: " + held_error;
        for (size_t wl = 0; wl < held.size(); ++wl)
            for (size_t i = 0; i < held[wl].size(); ++i)
                by_element[held[wl][i]].first.push_back(
                    {static_cast<int>(wl) / lanes, static_cast<int>(wl) % lanes, -1, -1, -1, static_cast<int>(i)});
        for (int w = 0; w < L.warp_count(); ++w)
            for (int l = 0; l < L.lane_count(); ++l)
                for (int i = 0; i < L.reg_count(); ++i) {
                    auto rc = L.apply(i, l, w);
                    by_element[Element{0, rc.first, rc.second}].second.push_back({w, l, -1, -1, -1, i});
                }
        if (L.rows != rows || L.cols != cols)
            res.note = "the shapes differ: lanescope " + num(rows) + " x " + num(cols) + ", given " + num(L.rows) + " x " +
                       num(L.cols);
    } else {
        for (const auto& [el, p] : given.entries) by_element[el].second.push_back(p);
    }
    for (auto& [el, pair] : by_element) {
        auto& [mine, theirs] = pair;
        std::sort(mine.begin(), mine.end());
        std::sort(theirs.begin(), theirs.end());
        ++res.elements;
        if (mine != theirs) res.differences.push_back({el, mine, theirs});
    }
    res.equal = res.differences.empty() && res.note.empty();
    return res;
}

}  // namespace

CheckResult check_layout(const TileLayout& t, const GivenLayout& given) {
    check_tile_work(t, kMaxHeldPlacements, "check", "every placement of both layouts is compared in memory");
    std::map<Element, std::pair<std::vector<Placement>, std::vector<Placement>>> by_element;
    std::vector<std::vector<Element>> held;
    std::string held_error;
    if (given.linear) {
        try {
            held = held_elements(t);
        } catch (const Error& e) {
            held_error = e.what();
        }
    } else {
        for (const TileEntry& e : t.entries())
            by_element[e.element].first.push_back({e.at.wave, e.at.loc.lane, e.at.loc.reg, e.at.loc.bit_lo, e.at.loc.bit_hi, -1});
    }
    return compare(std::move(by_element), held, held_error, t.lanes(), t.rows(), t.cols(), given);
}

CheckResult check_layout(const OperandLayout& L, const GivenLayout& given) {
    if (L.blocks() != 1 && given.linear) {
        CheckResult res;
        res.note = "a multi-block layout has no two-dimensional linear form";
        return res;
    }
    std::map<Element, std::pair<std::vector<Placement>, std::vector<Placement>>> by_element;
    std::vector<std::vector<Element>> held;
    std::string held_error;
    if (given.linear) {
        held.assign(L.lanes(), {});
        for (int lane = 0; lane < L.lanes() && held_error.empty(); ++lane)
            for (int reg = 0; reg < L.regs(); ++reg) {
                auto parts = L.which(reg, lane);
                std::sort(parts.begin(), parts.end(), [](const SlotPart& a, const SlotPart& b) { return a.bit_lo < b.bit_lo; });
                for (size_t n = 0; n < parts.size(); ++n) {
                    if (n && parts[n].bit_lo <= parts[n - 1].bit_hi) held_error = "a slot holds several elements";
                    if (parts[n].elem_bit_lo == 0) held[lane].push_back(parts[n].element);
                }
            }
        if (!held_error.empty()) held.clear();
    } else {
        for (const Entry& e : L.entries())
            by_element[e.element].first.push_back({0, e.loc.lane, e.loc.reg, e.loc.bit_lo, e.loc.bit_hi, -1});
    }
    return compare(std::move(by_element), held, held_error, L.lanes(), L.rows(), L.cols(), given);
}

}  // namespace lanescope
