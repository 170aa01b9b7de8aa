// Text renderings of tiles: the single-instruction renderings (render.cpp) with
// a wave in every location and the tile's parameters in every header.
#include "lanescope/tile.hpp"

#include <charconv>

namespace lanescope {

namespace {

std::string num(long long v) { return std::to_string(v); }

void append_int(std::string& s, const char* key, int v) {
    char buf[16];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s += key;
    s.append(buf, static_cast<size_t>(r.ptr - buf));
}

std::string tile_label(const TileLocation& at, int bits, int waves) {
    std::string s = location_label(at.loc, bits);
    return waves > 1 ? "w" + num(at.wave) + ":" + s : s;
}

std::string part_json(const SlotPart& p) {
    return "{\"bit_lo\": " + num(p.bit_lo) + ", \"bit_hi\": " + num(p.bit_hi) + ", \"block\": 0, \"row\": " +
           num(p.element.row) + ", \"col\": " + num(p.element.col) + ", \"elem_bit_lo\": " + num(p.elem_bit_lo) + "}";
}

std::string tile_title(const Query& q, const TileLayout& t) {
    return std::string(operand_name(t.operand())) + " tile (" + num(t.rows()) + " x " + num(t.cols()) + ") of " +
           query_title(q) + ": " + t.params().describe() + "; " + num(t.regs()) + " registers per lane\n";
}

}  // namespace

std::string tile_json_fields(const TileLayout& t) {
    const TileParams& p = t.params();
    std::string s = "\"waves\": [" + num(p.waves_m) + ", " + num(p.waves_n) + "], \"tiles_per_wave\": [" +
                    num(p.tiles_m) + ", " + num(p.tiles_n) + "], \"shape\": [" + num(p.m) + ", " + num(p.n) + ", " +
                    num(p.k) + "], \"wave_count\": " + num(t.waves()) + ", \"steps\": " + num(t.steps()) +
                    ", \"instruction_regs\": " + num(t.instruction().regs()) +
                    ", \"k_width\": " + (t.k_width() ? num(t.k_width()) : std::string("null")) +
                    ", \"transposed\": " + (p.transposed ? "true" : "false") + ", \"register_order\": [";
    bool first = true;
    for (const auto& [digit, count] : t.register_order()) {
        s += (first ? "" : ", ") + std::string("{\"digit\": ") + json_string(tile_digit_name(digit)) +
             ", \"count\": " + num(count) + "}";
        first = false;
    }
    return s + "]";
}

std::string render_tile_layout(const Query& q, const TileLayout& t, View view, Format f) {
    const Operand op = t.operand();
    const int bits = t.instruction().element_bits();
    if (f == Format::Json) {
        std::string s = "{" + query_header_json(q) + ", " + tile_json_fields(t) + ", ";
        s += "\"operand\": " + json_string(operand_name(op)) + ", ";
        s += "\"view\": " + json_string(view == View::Matrix ? "matrix" : "registers") + ", ";
        s += "\"type\": " + json_string(elem_name(t.instruction().type())) + ", ";
        s += "\"element_bits\": " + num(bits) + ", ";
        s += "\"blocks\": 1, \"rows\": " + num(t.rows()) + ", \"cols\": " + num(t.cols()) + ", \"regs\": " +
             num(t.regs()) + ", \"lanes\": " + num(t.lanes()) + ",\n\"entries\": [\n";
        const auto entries = t.entries();
        s.reserve(s.size() + entries.size() * 104);
        for (size_t n = 0; n < entries.size(); ++n) {
            const TileEntry& e = entries[n];
            append_int(s, "{\"block\": ", 0);
            append_int(s, ", \"row\": ", e.element.row);
            append_int(s, ", \"col\": ", e.element.col);
            append_int(s, ", \"wave\": ", e.at.wave);
            append_int(s, ", \"lane\": ", e.at.loc.lane);
            append_int(s, ", \"reg\": ", e.at.loc.reg);
            append_int(s, ", \"bit_lo\": ", e.at.loc.bit_lo);
            append_int(s, ", \"bit_hi\": ", e.at.loc.bit_hi);
            s += n + 1 < entries.size() ? "},\n" : "}\n";
        }
        s += "]";
        if (view == View::Registers) {
            s += ",\n\"slots\": [\n";
            bool first = true;
            for (int w = 0; w < t.waves(); ++w)
                for (int lane = 0; lane < t.lanes(); ++lane)
                    for (int reg = 0; reg < t.regs(); ++reg) {
                        s += first ? "" : ",\n";
                        first = false;
                        s += "{\"wave\": " + num(w) + ", \"lane\": " + num(lane) + ", \"reg\": " + num(reg) + ", \"parts\": [";
                        auto parts = t.which(w, reg, lane);
                        for (size_t n = 0; n < parts.size(); ++n) s += (n ? ", " : "") + part_json(parts[n]);
                        s += "]}";
                    }
            s += "\n]";
        }
        return s + "}\n";
    }
    std::vector<std::vector<std::string>> rows;
    if (f == Format::Csv) {
        if (view == View::Matrix) {
            rows.push_back({"block", "row", "col", "wave", "reg", "lane", "bit_lo", "bit_hi"});
            for (const TileEntry& e : t.entries())
                rows.push_back({"0", num(e.element.row), num(e.element.col), num(e.at.wave), num(e.at.loc.reg),
                                num(e.at.loc.lane), num(e.at.loc.bit_lo), num(e.at.loc.bit_hi)});
        } else {
            rows.push_back({"wave", "lane", "reg", "bit_lo", "bit_hi", "block", "row", "col"});
            for (int w = 0; w < t.waves(); ++w)
                for (int lane = 0; lane < t.lanes(); ++lane)
                    for (int reg = 0; reg < t.regs(); ++reg)
                        for (const SlotPart& p : t.which(w, reg, lane))
                            rows.push_back({num(w), num(lane), num(reg), num(p.bit_lo), num(p.bit_hi), "0",
                                            num(p.element.row), num(p.element.col)});
        }
        return render_grid(rows, Format::Csv);
    }
    const bool md = f == Format::Markdown;
    std::string out = (md ? "### " : "") + tile_title(q, t) + "\n";
    if (view == View::Matrix) {
        std::vector<std::string> head = {std::string(operand_name(op)) + " row\\col"};
        for (int c = 0; c < t.cols(); ++c) head.push_back(num(c));
        rows.push_back(head);
        for (int r = 0; r < t.rows(); ++r) {
            std::vector<std::string> row = {num(r)};
            for (int c = 0; c < t.cols(); ++c) {
                std::string cell;
                for (const TileLocation& at : t.where({0, r, c})) cell += (cell.empty() ? "" : " ") + tile_label(at, bits, t.waves());
                row.push_back(cell.empty() ? "-" : cell);
            }
            rows.push_back(row);
        }
    } else {
        std::vector<std::string> head = {"wave", "lane"};
        for (int reg = 0; reg < t.regs(); ++reg) head.push_back("v" + num(reg));
        rows.push_back(head);
        for (int w = 0; w < t.waves(); ++w)
            for (int lane = 0; lane < t.lanes(); ++lane) {
                std::vector<std::string> row = {num(w), num(lane)};
                for (int reg = 0; reg < t.regs(); ++reg) {
                    std::string cell;
                    for (const SlotPart& p : t.which(w, reg, lane)) {
                        if (!cell.empty()) cell += " ";
                        if (!(p.bit_lo == 0 && p.bit_hi == 31)) cell += "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
                        cell += element_label(op, p.element, 1);
                    }
                    row.push_back(cell.empty() ? "-" : cell);
                }
                rows.push_back(row);
            }
    }
    return out + render_grid(rows, f);
}

std::string render_tile_where(const Query& q, const TileLayout& t, const Element& e, Format f) {
    auto locs = t.where(e);
    const int bits = t.instruction().element_bits();
    if (f == Format::Json) {
        std::string s = "{" + query_header_json(q) + ", " + tile_json_fields(t) + ", \"operand\": " +
                        json_string(operand_name(t.operand())) + ", \"block\": 0, \"row\": " + num(e.row) +
                        ", \"col\": " + num(e.col) + ", \"locations\": [";
        for (size_t n = 0; n < locs.size(); ++n)
            s += (n ? ", " : "") + std::string("{\"wave\": ") + num(locs[n].wave) + ", \"lane\": " + num(locs[n].loc.lane) +
                 ", \"reg\": " + num(locs[n].loc.reg) + ", \"bit_lo\": " + num(locs[n].loc.bit_lo) + ", \"bit_hi\": " +
                 num(locs[n].loc.bit_hi) + "}";
        return s + "]}\n";
    }
    if (locs.empty()) return element_label(t.operand(), e, 1) + " is held by no lane under these modifiers\n";
    std::vector<std::vector<std::string>> rows = {{"element", "wave", "reg", "lane", "bits", "label"}};
    for (const auto& at : locs)
        rows.push_back({element_label(t.operand(), e, 1), num(at.wave), "v" + num(at.loc.reg), num(at.loc.lane),
                        "[" + num(at.loc.bit_hi) + ":" + num(at.loc.bit_lo) + "]", tile_label(at, bits, t.waves())});
    return render_grid(rows, f);
}

std::string render_tile_which(const Query& q, const TileLayout& t, int wave, int reg, int lane, Format f) {
    auto parts = t.which(wave, reg, lane);
    if (f == Format::Json) {
        std::string s = "{" + query_header_json(q) + ", " + tile_json_fields(t) + ", \"operand\": " +
                        json_string(operand_name(t.operand())) + ", \"wave_index\": " + num(wave) + ", \"reg\": " + num(reg) +
                        ", \"lane\": " + num(lane) + ", \"parts\": [";
        for (size_t n = 0; n < parts.size(); ++n) s += (n ? ", " : "") + part_json(parts[n]);
        return s + "]}\n";
    }
    if (parts.empty())
        return "v" + num(reg) + " of lane " + num(lane) + " in wave " + num(wave) + " holds no element of " +
               std::string(operand_name(t.operand())) + " under these modifiers\n";
    std::vector<std::vector<std::string>> rows = {{"bits", "element", "block", "row", "col"}};
    for (const auto& p : parts) {
        std::string bits = "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
        if (p.elem_bit_lo) bits += " (element bits from " + num(p.elem_bit_lo) + ")";
        rows.push_back({bits, element_label(t.operand(), p.element, 1), "0", num(p.element.row), num(p.element.col)});
    }
    return render_grid(rows, f);
}

std::string render_tile_lane(const Query& q, const TileLayout& t, int wave, int lane, Format f) {
    if (wave < 0 || wave >= t.waves()) throw Error("wave " + num(wave) + " is out of range: 0.." + num(t.waves() - 1));
    if (lane < 0 || lane >= t.lanes()) throw Error("lane " + num(lane) + " is out of range: 0.." + num(t.lanes() - 1));
    if (f == Format::Json) {
        std::string s = "{" + query_header_json(q) + ", " + tile_json_fields(t) + ", \"operand\": " +
                        json_string(operand_name(t.operand())) + ", \"wave_index\": " + num(wave) + ", \"lane\": " +
                        num(lane) + ", \"regs\": [\n";
        for (int reg = 0; reg < t.regs(); ++reg) {
            const auto parts = t.which(wave, reg, lane);
            s += "{\"reg\": " + num(reg) + ", \"parts\": [";
            for (size_t n = 0; n < parts.size(); ++n) s += (n ? ", " : "") + part_json(parts[n]);
            s += reg + 1 < t.regs() ? "]},\n" : "]}\n";
        }
        return s + "]}\n";
    }
    std::string out;
    if (f == Format::Table)
        out = "lane " + num(lane) + " of wave " + num(wave) + " in the " + tile_title(q, t);
    std::vector<std::vector<std::string>> rows = {{"reg", "bits", "element", "row", "col"}};
    for (int reg = 0; reg < t.regs(); ++reg)
        for (const auto& p : t.which(wave, reg, lane)) {
            std::string bits = "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
            if (p.elem_bit_lo) bits += " (element bits from " + num(p.elem_bit_lo) + ")";
            rows.push_back({"v" + num(reg), bits, element_label(t.operand(), p.element, 1), num(p.element.row),
                            num(p.element.col)});
        }
    return out + render_grid(rows, f);
}

std::string render_tile_trace(const Query& q, const TileLayout& a, const TileLayout& b, const TileLayout& c,
                              const TileLayout& d, const Element& e, Format f) {
    const auto d_at = d.where(e);  // range check with the tile's message
    const int waves = d.waves();
    auto labels = [&](const std::vector<TileLocation>& ls, int bits) {
        std::string s;
        for (const auto& at : ls) s += (s.empty() ? "" : " ") + tile_label(at, bits, waves);
        return s;
    };
    auto json_locs = [](const std::vector<TileLocation>& ls) {
        std::string s = "[";
        for (size_t n = 0; n < ls.size(); ++n)
            s += (n ? ", " : "") + std::string("{\"wave\": ") + num(ls[n].wave) + ", \"lane\": " + num(ls[n].loc.lane) +
                 ", \"reg\": " + num(ls[n].loc.reg) + ", \"bit_lo\": " + num(ls[n].loc.bit_lo) + ", \"bit_hi\": " +
                 num(ls[n].loc.bit_hi) + "}";
        return s + "]";
    };
    struct Term {
        Operand op;
        Element el;
        std::vector<TileLocation> at;
        int bits;
    };
    std::vector<Term> terms;
    for (int k = 0; k < a.cols(); ++k) {
        terms.push_back({Operand::A, {0, e.row, k}, a.where({0, e.row, k}), a.instruction().element_bits()});
        terms.push_back({Operand::B, {0, k, e.col}, b.where({0, k, e.col}), b.instruction().element_bits()});
    }
    terms.push_back({Operand::C, e, c.where(e), c.instruction().element_bits()});
    if (f == Format::Json) {
        std::string s = "{" + query_header_json(q) + ", " + tile_json_fields(d) + ", \"d\": {\"block\": 0, \"row\": " +
                        num(e.row) + ", \"col\": " + num(e.col) + ", \"locations\": " + json_locs(d_at) +
                        "}, \"terms\": [\n";
        for (size_t n = 0; n < terms.size(); ++n)
            s += "{\"operand\": " + json_string(operand_name(terms[n].op)) + ", \"block\": 0, \"row\": " +
                 num(terms[n].el.row) + ", \"col\": " + num(terms[n].el.col) + ", \"locations\": " +
                 json_locs(terms[n].at) + (n + 1 < terms.size() ? "},\n" : "}\n");
        return s + "]}\n";
    }
    std::string title = tile_title(q, d);
    title.pop_back();  // its newline
    std::string out = "D[" + num(e.row) + "][" + num(e.col) + "] of the " + title + "\nis at " +
                      labels(d_at, d.instruction().element_bits()) + "\nD = sum over the tile's k of A[i][k]*B[k][j] + C[i][j]; its inputs:\n\n";
    std::vector<std::vector<std::string>> rows = {{"operand", "element", "locations"}};
    for (const Term& t : terms)
        rows.push_back({std::string(operand_name(t.op)), element_label(t.op, t.el, 1), labels(t.at, t.bits)});
    return out + render_grid(rows, f);
}

}  // namespace lanescope
