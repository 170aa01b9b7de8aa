// Text renderings of tiles: the single-instruction renderings (render.cpp) with
// a wave in every location and the tile's parameters in every header.
#include "lanescope/palette.hpp"
#include "lanescope/tile.hpp"
#include "lanescope/numbers.hpp"
#include "lanescope/render_tile.hpp"

#include <charconv>
#include <functional>

namespace lanescope {

namespace {


void append_int(std::string& s, const char* key, int v) {
    char buf[16];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s += key;
    s.append(buf, static_cast<size_t>(r.ptr - buf));
}

// A tile location in the CLI's form: "w1:" then core's cell label ("v0[15:0]:L17", "a0:T13").
std::string tile_label(const Instruction& ins, Operand op, const TileLocation& at, int bits, int waves) {
    std::string s = cell_label_text(ins, op, at.loc, bits, ":");
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

namespace {

// gfx1250's evidence of the tile's operand (the same as one instruction's: a tile
// composes copies of it): ", \"confidence\": ..." for JSON objects; "" elsewhere.
std::string tile_evidence_json(const Query& q, const TileLayout& t) {
    const Evidence ev = layout_evidence(*q.ins, t.operand(), q.mods);
    return ev.confidence.empty() ? std::string() : ", " + evidence_json(ev);
}
// The "Confidence: ..." lines after a table or markdown (CSV stays one table).
std::string tile_evidence_text(const Query& q, const TileLayout& t, Format f = Format::Table) {
    return f == Format::Csv ? std::string() : evidence_text(layout_evidence(*q.ins, t.operand(), q.mods));
}

}  // namespace

std::string render_tile_layout(const Query& q, const TileLayout& t, View view, Format f) {
    std::string all;
    TextSink sink([&all](std::string_view chunk) { all += chunk; });
    render_tile_layout(q, t, view, f, sink);
    sink.finish();
    return all;
}

// Streamed in the order of TileLayout::entries() (by element, then wave, then
// location) without holding them: each element's where() in turn.
void render_tile_layout(const Query& q, const TileLayout& t, View view, Format f, TextSink& out) {
    const Operand op = t.operand();
    const int bits = t.instruction().element_bits();
    if (f == Format::Json) {
        std::string& s = out.text();
        s += "{" + query_header_json(q) + ", " + tile_json_fields(t) + ", ";
        s += "\"operand\": " + json_string(operand_name(op)) + ", ";
        s += "\"view\": " + json_string(view == View::Matrix ? "matrix" : "registers") + ", ";
        s += "\"type\": " + json_string(elem_name(t.instruction().type())) + ", ";
        s += "\"element_bits\": " + num(bits) + ", ";
        s += "\"space\": " + json_string(space_name(t.instruction().space())) + ", ";
        s += "\"blocks\": 1, \"rows\": " + num(t.rows()) + ", \"cols\": " + num(t.cols()) + ", \"regs\": " +
             num(t.regs()) + ", \"lanes\": " + num(t.lanes()) + tile_evidence_json(q, t) + ",\n\"entries\": [\n";
        bool first = true;
        for (int r = 0; r < t.rows(); ++r)
            for (int c = 0; c < t.cols(); ++c) {
                for (const TileLocation& at : t.where({0, r, c})) {
                    std::string& b = out.text();
                    if (!first) b += ",\n";
                    first = false;
                    append_int(b, "{\"block\": ", 0);
                    append_int(b, ", \"row\": ", r);
                    append_int(b, ", \"col\": ", c);
                    append_int(b, ", \"wave\": ", at.wave);
                    append_int(b, ", \"lane\": ", at.loc.lane);
                    append_int(b, ", \"reg\": ", at.loc.reg);
                    append_int(b, ", \"bit_lo\": ", at.loc.bit_lo);
                    append_int(b, ", \"bit_hi\": ", at.loc.bit_hi);
                    b += "}";
                }
                out.maybe_flush();
            }
        out.append(first ? "]" : "\n]");
        if (view == View::Registers) {
            out.append(",\n\"slots\": [\n");
            bool first_slot = true;
            for (int w = 0; w < t.waves(); ++w)
                for (int lane = 0; lane < t.lanes(); ++lane)
                    for (int reg = 0; reg < t.regs(); ++reg) {
                        std::string& b = out.text();
                        b += first_slot ? "" : ",\n";
                        first_slot = false;
                        b += "{\"wave\": " + num(w) + ", \"lane\": " + num(lane) + ", \"reg\": " + num(reg) + ", \"parts\": [";
                        auto parts = t.which(w, reg, lane);
                        for (size_t n = 0; n < parts.size(); ++n) b += (n ? ", " : "") + part_json(parts[n]);
                        b += "]}";
                        out.maybe_flush();
                    }
            out.append("\n]");
        }
        out.append("}\n");
        return;
    }
    std::function<void(int, std::vector<std::string>&)> row;
    int count = 0;
    if (f == Format::Csv) {
        if (view == View::Matrix) {
            // One CSV row per entry: the grid's rows are elements, each writing its entries.
            out.append("block,row,col,wave,reg,lane,bit_lo,bit_hi\n");
            for (int r = 0; r < t.rows(); ++r)
                for (int c = 0; c < t.cols(); ++c) {
                    std::string& b = out.text();
                    for (const TileLocation& at : t.where({0, r, c})) {
                        append_int(b, "0,", r);
                        append_int(b, ",", c);
                        append_int(b, ",", at.wave);
                        append_int(b, ",", at.loc.reg);
                        append_int(b, ",", at.loc.lane);
                        append_int(b, ",", at.loc.bit_lo);
                        append_int(b, ",", at.loc.bit_hi);
                        b += '\n';
                    }
                    out.maybe_flush();
                }
            return;
        }
        out.append("wave,lane,reg,bit_lo,bit_hi,block,row,col\n");
        for (int w = 0; w < t.waves(); ++w)
            for (int lane = 0; lane < t.lanes(); ++lane) {
                std::string& b = out.text();
                for (int reg = 0; reg < t.regs(); ++reg)
                    for (const SlotPart& p : t.which(w, reg, lane)) {
                        append_int(b, "", w);
                        append_int(b, ",", lane);
                        append_int(b, ",", reg);
                        append_int(b, ",", p.bit_lo);
                        append_int(b, ",", p.bit_hi);
                        append_int(b, ",", 0);
                        append_int(b, ",", p.element.row);
                        append_int(b, ",", p.element.col);
                        b += '\n';
                    }
                out.maybe_flush();
            }
        return;
    }
    if (f != Format::Markdown) out.append(tile_title(q, t) + "\n" + tile_evidence_text(q, t));  // Markdown: the one table alone
    if (view == View::Matrix) {
        count = t.rows() + 1;
        row = [&](int i, std::vector<std::string>& cells) {
            if (i == 0) {
                cells.push_back(std::string(operand_name(op)) + " row\\col");
                for (int c = 0; c < t.cols(); ++c) cells.push_back(num(c));
                return;
            }
            const int r = i - 1;
            cells.push_back(num(r));
            for (int c = 0; c < t.cols(); ++c) {
                std::string cell;
                for (const TileLocation& at : t.where({0, r, c})) cell += (cell.empty() ? "" : " ") + tile_label(*q.ins, op, at, bits, t.waves());
                cells.push_back(cell.empty() ? "-" : cell);
            }
        };
    } else {
        count = t.waves() * t.lanes() + 1;
        row = [&](int i, std::vector<std::string>& cells) {
            if (i == 0) {
                cells = {"wave", "lane"};
                for (int reg = 0; reg < t.regs(); ++reg) cells.push_back(register_text(*q.ins, op, reg, bits));
                return;
            }
            const int w = (i - 1) / t.lanes(), lane = (i - 1) % t.lanes();
            cells.push_back(num(w));
            cells.push_back(num(lane));
            for (int reg = 0; reg < t.regs(); ++reg) {
                std::string cell;
                for (const SlotPart& p : t.which(w, reg, lane)) {
                    if (!cell.empty()) cell += " ";
                    if (!(p.bit_lo == 0 && p.bit_hi == 31)) cell += "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
                    cell += element_label(op, p.element, 1);
                }
                cells.push_back(cell.empty() ? "-" : cell);
            }
        };
    }
    stream_grid(count, row, f, out);
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
        return s + "]" + tile_evidence_json(q, t) + "}\n";
    }
    if (locs.empty())
        return element_label(t.operand(), e, 1) + " is held by no lane under these modifiers\n" + tile_evidence_text(q, t, f);
    std::vector<std::vector<std::string>> rows = {{"element", "wave", "reg", "lane", "bits", "label"}};
    for (const auto& at : locs)
        rows.push_back({element_label(t.operand(), e, 1), num(at.wave), reg_column_text(*q.ins, t.operand(), at.loc, bits),
                        num(at.loc.lane), "[" + num(at.loc.bit_hi) + ":" + num(at.loc.bit_lo) + "]",
                        tile_label(*q.ins, t.operand(), at, bits, t.waves())});
    return render_grid(rows, f) + tile_evidence_text(q, t, f);
}

std::string render_tile_which(const Query& q, const TileLayout& t, int wave, int reg, int lane, Format f) {
    auto parts = t.which(wave, reg, lane);
    if (f == Format::Json) {
        std::string s = "{" + query_header_json(q) + ", " + tile_json_fields(t) + ", \"operand\": " +
                        json_string(operand_name(t.operand())) + ", \"wave_index\": " + num(wave) + ", \"reg\": " + num(reg) +
                        ", \"lane\": " + num(lane) + ", \"parts\": [";
        for (size_t n = 0; n < parts.size(); ++n) s += (n ? ", " : "") + part_json(parts[n]);
        return s + "]" + tile_evidence_json(q, t) + "}\n";
    }
    if (parts.empty())
        return (q.ins->vendor() == Vendor::NVIDIA ? "register " + num(reg) + " of thread " + num(lane) + " in warp "
                                                  : "v" + num(reg) + " of lane " + num(lane) + " in wave ") +
               num(wave) + " holds no element of " +
               std::string(operand_name(t.operand())) + " under these modifiers\n" + tile_evidence_text(q, t, f);
    // NVIDIA: a last column with PTX's name of each part ("a0", "a1"), as render_which.
    const bool nvidia = q.ins->vendor() == Vendor::NVIDIA;
    std::vector<std::vector<std::string>> rows = {{"bits", "element", "block", "row", "col"}};
    if (nvidia) rows.front().push_back("ptx");
    for (const auto& p : parts) {
        std::string bits = "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
        if (p.elem_bit_lo) bits += " (element bits from " + num(p.elem_bit_lo) + ")";
        rows.push_back({bits, element_label(t.operand(), p.element, 1), "0", num(p.element.row), num(p.element.col)});
        if (nvidia)
            rows.back().push_back(reg_column_text(*q.ins, t.operand(), Location{reg, lane, p.bit_lo, p.bit_hi}, t.instruction().element_bits()));
    }
    return render_grid(rows, f) + tile_evidence_text(q, t, f);
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
        return s + "]" + tile_evidence_json(q, t) + "}\n";
    }
    std::string out;
    if (f == Format::Table)
        out = "lane " + num(lane) + " of wave " + num(wave) + " in the " + tile_title(q, t);
    std::vector<std::vector<std::string>> rows = {{"reg", "bits", "element", "row", "col"}};
    for (int reg = 0; reg < t.regs(); ++reg)
        for (const auto& p : t.which(wave, reg, lane)) {
            std::string bits = "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
            if (p.elem_bit_lo) bits += " (element bits from " + num(p.elem_bit_lo) + ")";
            rows.push_back({register_text(*q.ins, t.operand(), reg, t.instruction().element_bits()), bits,
                            element_label(t.operand(), p.element, 1), num(p.element.row),
                            num(p.element.col)});
        }
    return out + render_grid(rows, f) + tile_evidence_text(q, t, f);
}

std::string render_tile_trace(const Query& q, const TileLayout& a, const TileLayout& b, const TileLayout& c,
                              const TileLayout& d, const Element& e, Format f) {
    const auto d_at = d.where(e);  // range check with the tile's message
    const int waves = d.waves();
    auto labels = [&](Operand op, const std::vector<TileLocation>& ls, int bits) {
        std::string s;
        for (const auto& at : ls) s += (s.empty() ? "" : " ") + tile_label(*q.ins, op, at, bits, waves);
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
        // The weakest evidence of the operands the trace spans, as one instruction's trace gives it.
        const Evidence ev = instruction_evidence(*q.ins, q.mods);
        return s + "]" + (ev.confidence.empty() ? "" : ", " + evidence_json(ev)) + "}\n";
    }
    std::vector<std::vector<std::string>> rows = {{"operand", "element", "locations"}};
    std::string out;
    if (f == Format::Csv || f == Format::Markdown) {
        // One table: D first, then its inputs.
        rows.push_back({"D", element_label(Operand::D, e, 1), labels(Operand::D, d_at, d.instruction().element_bits())});
    } else {
        std::string title = tile_title(q, d);
        title.pop_back();  // its newline
        out = "D[" + num(e.row) + "][" + num(e.col) + "] of the " + title + "\nis at " +
              labels(Operand::D, d_at, d.instruction().element_bits()) +
              "\nD = sum over the tile's k of A[i][k]*B[k][j] + C[i][j]; its inputs:\n\n";
    }
    for (const Term& t : terms)
        rows.push_back({std::string(operand_name(t.op)), element_label(t.op, t.el, 1), labels(t.op, t.at, t.bits)});
    // As the tile's where/which: the confidence after the table (CSV: the table alone).
    return out + render_grid(rows, f) + (f == Format::Csv ? "" : evidence_text(instruction_evidence(*q.ins, q.mods)));
}

}  // namespace lanescope
