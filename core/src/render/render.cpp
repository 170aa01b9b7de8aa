// Text renderers: one place that turns layouts and facts into tables, CSV,
// Markdown and the JSON contract (docs/json.md).
#include "lanescope/render.hpp"
#include "lanescope/search.hpp"
#include "lanescope/palette.hpp"
#include "catalog/catalog_blackwell.hpp"
#include "lanescope/blackwell.hpp"
#include "lanescope/smem.hpp"
#include "lanescope/numbers.hpp"
#include "layouts/layout_spec.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>

namespace lanescope {

namespace {



std::string hex64(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// Dword 0 of the MFMA/WMMA word (the family's encoding format | opcode).
unsigned encoding_word0(const Instruction& ins) { return encoding_words(ins).back().word; }

// "dwords 0-1: v_mfma_ld_scale_b32 0xD3AC0000 (opcode 0x2C), prefix; dwords 2-3: ..."
std::string encoding_text(const Instruction& ins) {
    const EncodingFormat fmt = encoding_format(ins.families.front());
    std::string s;
    for (const EncodingWord& w : encoding_words(ins))
        s += (s.empty() ? "" : "; ") + std::string("dwords ") + num(w.dword) + "-" + num(w.dword + fmt.dwords - 1) +
             ": " + w.mnemonic + " " + hex(w.word, 8, HexCase::Upper) + " (opcode " + hex(w.opcode, 2, HexCase::Upper) + "), " +
             (w.role == "prefix" ? "prefix" : "the matrix word");
    return s + " (" + fmt.name + ", opcode in dword 0 bits " + num(fmt.opcode_lo + fmt.opcode_bits - 1) + ":" +
           num(fmt.opcode_lo) + ")";
}

// [{"dword": 0, "word": "0xD3AC0000", "opcode": 44, "mnemonic": ..., "role": "prefix"}, ...]
std::string encoding_words_json(const Instruction& ins) {
    std::string s = "[";
    const auto words = encoding_words(ins);
    for (size_t n = 0; n < words.size(); ++n)
        s += (n ? ", " : "") + std::string("{\"dword\": ") + num(words[n].dword) + ", \"word\": " +
             json_string(hex(words[n].word, 8, HexCase::Upper)) + ", \"opcode\": " + num(words[n].opcode) + ", \"mnemonic\": " +
             json_string(words[n].mnemonic) + ", \"role\": " + json_string(words[n].role) + "}";
    return s + "]";
}

bool gfx1250_kind(const Instruction& ins) {
    return ins.kind == LayoutKind::WmmaGfx1250 || ins.kind == LayoutKind::WmmaScaleGfx1250 ||
           ins.kind == LayoutKind::SwmmacGfx1250;
}

std::string modifiers_json(const ResolvedModifiers& m, const Instruction& ins) {
    const Vendor v = ins.vendor();
    // gfx1250 rows add their controls (other families' JSON is unchanged).
    const std::string g = !gfx1250_kind(ins) ? std::string()
                          : ", \"matrix_a_fmt\": " + num(m.matrix_a_fmt) + ", \"matrix_b_fmt\": " + num(m.matrix_b_fmt) +
                                ", \"matrix_a_scale\": " + num(m.matrix_a_scale) + ", \"matrix_b_scale\": " +
                                num(m.matrix_b_scale) + ", \"matrix_a_scale_fmt\": " + num(m.matrix_a_scale_fmt) +
                                ", \"matrix_b_scale_fmt\": " + num(m.matrix_b_scale_fmt) + ", \"index_key\": " +
                                num(m.index_key);
    // tcgen05 rows add the Tensor Memory modifiers (tmem_load as Gluon's instr_variant name, "" for none).
    const bool tc = ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::Tcgen05LdSt;
    const std::string tmem = !tc ? std::string()
                             : ", \"tmem_load\": " + json_string(m.tmem_load ? text::lower(modifier_value_name("tmem_load", m.tmem_load)) : "") +
                                   ", \"num_warps\": " + num(m.num_warps) + ", \"sfa_id\": " + num(m.sfa_id) +
                                   ", \"sfb_id\": " + num(m.sfb_id) + ", \"half_split\": " + num(m.half_split);
    // sm_120 block-scaled rows add PTX's byte-id / thread-id selectors of SA and SB.
    const std::string sf = ins.kind != LayoutKind::MmaBlockScale ? std::string()
                           : ", \"sf_byte_a\": " + num(m.sf_byte_a) + ", \"sf_thread_a\": " + num(m.sf_thread_a) +
                                 ", \"sf_byte_b\": " + num(m.sf_byte_b) + ", \"sf_thread_b\": " + num(m.sf_thread_b);
    // wgmma and tcgen05.mma rows add the shared-memory descriptor's options as given, named as the CLI's
    // (null: not given, CUTLASS's canonical value for each operand; smem_layout in the operand's JSON has the values used).
    const bool sm = ins.kind == LayoutKind::Wgmma || ins.kind == LayoutKind::Tcgen05Mma;
    auto given = [](int v) { return v < 0 ? std::string("null") : num(v); };
    const std::string smem =
        !sm ? std::string()
            : (ins.kind == LayoutKind::Wgmma ? ", \"smem_a\": " + num(m.smem_a) : std::string()) +
                  ", \"major\": " + (m.smem_major < 0 ? std::string("null") : json_string(m.smem_major ? "MN" : "K")) +
                  ", \"swizzle\": " +
                  (m.swizzle < 0 ? std::string("null") : json_string(smem_swizzle_name(static_cast<SmemSwizzle>(m.swizzle)))) +
                  ", \"lbo\": " + given(m.lbo) + ", \"sbo\": " + given(m.sbo) + ", \"smem_address\": " + given(m.smem_address) +
                  ", \"base_offset\": " + given(m.base_offset) + ", \"descriptor\": " +
                  (m.descriptor ? json_string(hex64(*m.descriptor)) : std::string("null"));
    return "{\"cbsz\": " + num(m.cbsz) + ", \"abid\": " + num(m.abid) + ", \"blgp\": " + num(m.blgp) +
           ", \"opsel\": " + num(m.opsel) + ", \"opsel_a\": " + num(m.opsel_a) + ", \"opsel_b\": " + num(m.opsel_b) +
           (v == Vendor::NVIDIA ? ", \"selector\": " + num(m.selector) : std::string()) + g + tmem + sf + smem +
           ", \"wave\": " + num(m.wave) + "}";
}

std::string header_json(const Query& q) {
    std::string s;
    s += "\"arch\": " + json_string(q.target->arch_name()) + ", ";
    s += "\"target\": " + json_string(q.target->gfx) + ", ";
    s += "\"instruction\": " + json_string(q.ins->mnemonic) + ", ";
    s += "\"builtin\": " + json_string(q.ins->builtin(q.mods.wave)) + ", ";
    s += "\"wave\": " + num(q.mods.wave) + ", ";
    s += "\"modifiers\": " + modifiers_json(q.mods, *q.ins);
    return s;
}

std::string title(const Query& q) {
    std::string s = q.ins->mnemonic + " on " + q.target->gfx + " (" + std::string(family_title(q.target->family)) +
                    ", " + lane_group_name(*q.ins, q.mods.wave) + ")";
    std::string m = q.mods.describe();
    if (!m.empty()) s += " [" + m + "]";
    return s;
}

// One CSV row (RFC 4180): cells with a comma, quote, space or line break quoted, quotes doubled.
void append_csv_row(std::string& out, const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) {
        const std::string& cell = cells[c];
        if (c) out += ',';
        if (cell.find_first_of(",\" \r\n") != std::string::npos) {
            out += '"';
            for (char ch : cell) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
            out += '"';
        } else {
            out += cell;
        }
    }
    out += '\n';
}

std::string markdown_cell(const std::string& c) {
    std::string out;
    for (char ch : c) {
        if (ch == '|') out += "\\|";
        else if (ch == '\n') out += "<br>";
        else if (ch != '\r') out += ch;
    }
    return out;
}

std::string grid_aligned(const std::vector<std::vector<std::string>>& rows, Format f);

// Prose as one line (a table cell): lines joined by spaces, the last line break dropped.
std::string trim_newline(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

std::string one_line(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '\n' ? ' ' : c;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

// A grid of strings rendered as an aligned table, CSV or Markdown.
std::string grid(const std::vector<std::vector<std::string>>& rows, Format f) {
    std::string out;
    if (rows.empty()) return out;
    if (f == Format::Csv) {
        for (const auto& r : rows) {
            append_csv_row(out, r);
        }
        return out;
    }
    if (f == Format::Markdown) {
        // GitHub Flavored Markdown tables: a | inside a cell is \|, a cell is one line.
        bool plain = true;
        for (const auto& r : rows)
            for (const auto& c : r) plain = plain && c.find_first_of("|\n\r") == std::string::npos;
        if (!plain) {
            std::vector<std::vector<std::string>> escaped = rows;
            for (auto& r : escaped)
                for (auto& c : r) c = markdown_cell(c);
            return grid_aligned(escaped, f);
        }
    }
    return grid_aligned(rows, f);
}

std::string grid_aligned(const std::vector<std::vector<std::string>>& rows, Format f) {
    std::string out;
    std::vector<size_t> width(rows[0].size(), 0);
    for (const auto& r : rows)
        for (size_t c = 0; c < r.size() && c < width.size(); ++c) width[c] = std::max(width[c], r[c].size());
    for (size_t ri = 0; ri < rows.size(); ++ri) {
        const auto& r = rows[ri];
        if (f == Format::Markdown) out += "| ";
        for (size_t c = 0; c < r.size(); ++c) {
            std::string cell = r[c];
            if (c + 1 < r.size() || f == Format::Markdown) cell.resize(width[c], ' ');
            out += cell;
            if (c + 1 < r.size()) out += f == Format::Markdown ? " | " : "  ";
        }
        if (f == Format::Markdown) out += " |";
        out += '\n';
        if (f == Format::Markdown && ri == 0) {
            out += "|";
            for (size_t c = 0; c < r.size(); ++c) out += std::string(width[c] + 2, '-') + "|";
            out += '\n';
        }
    }
    return out;
}

// The hot path of `layout --format json`: integers formatted in place, no temporaries.
// One entry is formatted into a stack buffer and appended once: the export of
// every layout writes millions of them (wgmma's accumulators are 64 x 256).
template <size_t N>
char* put_field(char* p, const char (&key)[N], int v) {
    std::memcpy(p, key, N - 1);
    return std::to_chars(p + (N - 1), p + (N - 1) + 11, v).ptr;  // an int takes at most 11 characters
}
// Beside lane/reg (the space's own lane and register, docs/json.md), the names a
// space gives them: TMEM "cta", "tmem_lane", "column"; shared memory "address",
// "bank". Registers add nothing (the contract's first fields are theirs).
char* put_space_fields(char* p, Space space, const Location& l) {
    switch (space) {
        case Space::Registers: break;
        case Space::TensorMemory:
            p = put_field(p, ", \"cta\": ", l.lane / 128);
            p = put_field(p, ", \"tmem_lane\": ", l.lane % 128);
            p = put_field(p, ", \"column\": ", l.reg);
            break;
        case Space::SharedMemory:
            p = put_field(p, ", \"address\": ", 128 * l.lane + 4 * l.reg + l.bit_lo / 8);
            p = put_field(p, ", \"bank\": ", l.reg);
            break;
    }
    return p;
}

// cta_threads > 0: registers of a cta_group::2 read-back, whose thread t of CTA c is lane
// cta_threads*c + t: "cta" and "thread" (within the CTA) are added, as TMEM adds "cta" and "tmem_lane".
void append_entry_json(std::string& s, const Entry& e, Space space, int cta_threads = 0) {
    char buf[10 * (14 + 11) + 1];  // at most ten keys of at most 14 characters, ten ints, '}'
    char* p = buf;
    p = put_field(p, "{\"block\": ", e.element.block);
    p = put_field(p, ", \"row\": ", e.element.row);
    p = put_field(p, ", \"col\": ", e.element.col);
    p = put_field(p, ", \"lane\": ", e.loc.lane);
    p = put_field(p, ", \"reg\": ", e.loc.reg);
    p = put_field(p, ", \"bit_lo\": ", e.loc.bit_lo);
    p = put_field(p, ", \"bit_hi\": ", e.loc.bit_hi);
    p = put_space_fields(p, space, e.loc);
    if (cta_threads > 0) {
        p = put_field(p, ", \"cta\": ", e.loc.lane / cta_threads);
        p = put_field(p, ", \"thread\": ", e.loc.lane % cta_threads);
    }
    *p++ = '}';
    s.append(buf, static_cast<size_t>(p - buf));
}

std::string location_json(const Location& l) {
    return "{\"lane\": " + num(l.lane) + ", \"reg\": " + num(l.reg) + ", \"bit_lo\": " + num(l.bit_lo) +
           ", \"bit_hi\": " + num(l.bit_hi) + "}";
}

std::string locations_text(const Instruction& ins, Operand op, const std::vector<Location>& locs, int bits, Space space) {
    std::string s;
    // Several locations of one element: ", " between them where a label has a space in it (TMEM, shared memory).
    const std::string between = space == Space::Registers ? " " : ", ";
    for (size_t n = 0; n < locs.size(); ++n) s += (n ? between : "") + cell_label_text(ins, op, locs[n], bits, ":", space);
    return s.empty() ? "-" : s;
}

}  // namespace

// "confidence": "...", "confidence_why": ..., "confidence_sources": ..., "alternatives": [...] (gfx1250).
std::string evidence_json(const Evidence& e) {
    std::string s = "\"confidence\": " + json_string(e.confidence) + ", \"confidence_why\": " + json_string(e.why) +
                    ", \"confidence_sources\": " + json_string(e.sources) + ", \"alternatives\": [";
    for (size_t n = 0; n < e.alternatives.size(); ++n)
        s += (n ? ", " : "") + std::string("{\"reading\": ") + json_string(e.alternatives[n].reading) + ", \"source\": " +
             json_string(e.alternatives[n].source) + ", \"differs\": " + json_string(e.alternatives[n].differs) + "}";
    return s + "]";
}

// Lines for text output: "Confidence: high (why; sources)" and one line per alternative.
std::string evidence_text(const Evidence& e) {
    if (e.confidence.empty()) return "";
    std::string s = "Confidence: " + e.confidence + " — " + e.why + ". Sources: " + e.sources + ".\n";
    for (const Alternative& a : e.alternatives)
        s += "Second reading (not shown): " + a.reading + " — per " + a.source + "; " + a.differs + ".\n";
    return s;
}


std::string query_header_json(const Query& q) { return header_json(q); }
std::string query_title(const Query& q) { return title(q); }
std::string render_grid(const std::vector<std::vector<std::string>>& rows, Format f) { return grid(rows, f); }

std::vector<std::vector<std::string>> with_note(std::vector<std::vector<std::string>> rows, const std::string& note) {
    const std::string line = one_line(note);
    if (line.empty() || rows.empty()) return rows;
    rows[0].push_back("note");
    for (size_t r = 1; r < rows.size(); ++r) rows[r].push_back(line);
    return rows;
}

std::string render_table_or_one(const std::vector<std::vector<std::string>>& rows, Format f, const std::string& prose) {
    if (f == Format::Csv || f == Format::Markdown) return grid(with_note(rows, prose), f);
    return grid(rows, f) + prose;
}

void stream_grid(int count, const std::function<void(int, std::vector<std::string>&)>& row, Format f, TextSink& out) {
    if (count <= 0) return;
    std::vector<std::string> cells;
    std::vector<size_t> width;
    if (f != Format::Csv) {
        for (int i = 0; i < count; ++i) {
            cells.clear();
            row(i, cells);
            if (i == 0) width.assign(cells.size(), 0);
            for (size_t c = 0; c < cells.size() && c < width.size(); ++c) width[c] = std::max(width[c], cells[c].size());
        }
    }
    for (int i = 0; i < count; ++i) {
        cells.clear();
        row(i, cells);
        std::string& s = out.text();
        if (f == Format::Csv) {
            append_csv_row(s, cells);
        } else {
            const bool md = f == Format::Markdown;
            if (md) s += "| ";
            for (size_t c = 0; c < cells.size(); ++c) {
                s += cells[c];
                if ((c + 1 < cells.size() || md) && c < width.size() && cells[c].size() < width[c])
                    s.append(width[c] - cells[c].size(), ' ');
                if (c + 1 < cells.size()) s += md ? " | " : "  ";
            }
            if (md) s += " |";
            s += '\n';
            if (md && i == 0) {
                s += "|";
                for (size_t c = 0; c < cells.size(); ++c) s += std::string(width[c] + 2, '-') + "|";
                s += '\n';
            }
        }
        out.maybe_flush();
    }
}

std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

std::string location_label(const Location& loc, int bits) {
    // The app's and figures' label (palette.hpp) with the CLI's ":" between register and lane.
    std::string s = tile_label(loc, bits, true);
    const size_t dot = s.find(" \u00B7 ");
    return dot == std::string::npos ? s : s.replace(dot, std::string(" \u00B7 ").size(), ":");
}

std::string element_label(Operand op, const Element& e, int blocks) {
    std::string s(operand_name(op));
    if (blocks > 1) s += "[b" + num(e.block) + "]";
    return s + "[" + num(e.row) + "][" + num(e.col) + "]";
}

std::string render_layout(const Query& q, const OperandLayout& L, View view, Format f) {
    const Operand op = L.operand();
    if (f == Format::Json) {
        std::string s = "{" + header_json(q) + ", ";
        s += "\"operand\": " + json_string(operand_name(op)) + ", ";
        s += "\"view\": " + json_string(view == View::Matrix ? "matrix" : "registers") + ", ";
        s += "\"type\": " + json_string(elem_name(L.type())) + ", ";
        s += "\"element_bits\": " + num(L.element_bits()) + ", ";
        s += "\"space\": " + json_string(space_name(L.space())) + ", ";
        s += "\"blocks\": " + num(L.blocks()) + ", \"rows\": " + num(L.rows()) + ", \"cols\": " + num(L.cols()) +
             ", \"regs\": " + num(L.regs()) + ", \"lanes\": " + num(L.lanes()) + ",\n";
        if (const Evidence ev = layout_evidence(*q.ins, op, q.mods); !ev.confidence.empty())
            s += evidence_json(ev) + ",\n";
        s += "\"entries\": [\n";
        const auto entries = L.entries();
        s.reserve(s.size() + entries.size() * 96);
        const int cta_threads =
            L.space() == Space::Registers && pair_slot(*q.ins, op, q.mods, Location{}).pair && q.mods.tmem_load > 0 ? L.lanes() / 2 : 0;
        for (size_t n = 0; n < entries.size(); ++n) {
            append_entry_json(s, entries[n], L.space(), cta_threads);
            s += n + 1 < entries.size() ? ",\n" : "\n";
        }
        s += "]";
        if (view == View::Registers) {
            s += ",\n\"slots\": [\n";
            bool first = true;
            for (int lane = 0; lane < L.lanes(); ++lane)
                for (int reg = 0; reg < L.regs(); ++reg) {
                    if (!first) s += ",\n";
                    first = false;
                    s += "{\"lane\": " + num(lane) + ", \"reg\": " + num(reg) + ", \"parts\": [";
                    auto parts = L.which(reg, lane);
                    for (size_t n = 0; n < parts.size(); ++n) {
                        const auto& p = parts[n];
                        s += (n ? ", " : "") + std::string("{\"bit_lo\": ") + num(p.bit_lo) + ", \"bit_hi\": " +
                             num(p.bit_hi) + ", \"block\": " + num(p.element.block) + ", \"row\": " +
                             num(p.element.row) + ", \"col\": " + num(p.element.col) + ", \"elem_bit_lo\": " +
                             num(p.elem_bit_lo) + "}";
                    }
                    s += "]}";
                }
            s += "\n]";
        }
        s += "}\n";  // appended in place: the entries can be hundreds of kB
        return s;
    }

    std::string out;
    if (f == Format::Csv) {
        std::vector<std::vector<std::string>> rows;
        if (view == View::Matrix) {
            rows.push_back({"block", "row", "col", "reg", "lane", "bit_lo", "bit_hi"});
            for (const Entry& e : L.entries())
                rows.push_back({num(e.element.block), num(e.element.row), num(e.element.col), num(e.loc.reg),
                                num(e.loc.lane), num(e.loc.bit_lo), num(e.loc.bit_hi)});
        } else {
            rows.push_back({"lane", "reg", "bit_lo", "bit_hi", "block", "row", "col"});
            for (int lane = 0; lane < L.lanes(); ++lane)
                for (int reg = 0; reg < L.regs(); ++reg)
                    for (const SlotPart& p : L.which(reg, lane))
                        rows.push_back({num(lane), num(reg), num(p.bit_lo), num(p.bit_hi), num(p.element.block),
                                        num(p.element.row), num(p.element.col)});
        }
        return grid(rows, Format::Csv);
    }

    // The matrix view's grid of blocks b0..b1-1 (a first column "block" when asked) and the registers view's.
    auto matrix_rows = [&](int b0, int b1, bool block_column) {
        std::vector<std::vector<std::string>> rows;
        std::vector<std::string> head;
        if (block_column) head.push_back("block");
        head.push_back(std::string(operand_name(op)) + " row\\col");
        for (int c = 0; c < L.cols(); ++c) head.push_back(num(c));
        rows.push_back(head);
        for (int b = b0; b < b1; ++b)
            for (int r = 0; r < L.rows(); ++r) {
                std::vector<std::string> row;
                if (block_column) row.push_back(num(b));
                row.push_back(num(r));
                for (int c = 0; c < L.cols(); ++c)
                    row.push_back(locations_text(*q.ins, L.operand(), L.where({b, r, c}), L.element_bits(), L.space()));
                rows.push_back(row);
            }
        return rows;
    };
    auto register_rows = [&] {
        std::vector<std::vector<std::string>> rows;
        const bool regs_space = L.space() == Space::Registers;
        std::vector<std::string> head = {regs_space ? "lane" : std::string(space_axes(L.space(), q.ins->vendor()).first)};
        for (int reg = 0; reg < L.regs(); ++reg) head.push_back(register_text(*q.ins, L.operand(), reg, L.element_bits(), L.space()));
        rows.push_back(head);
        for (int lane = 0; lane < L.lanes(); ++lane) {
            std::vector<std::string> row = {regs_space ? num(lane) : lane_axis_text(*q.ins, lane, L.space())};
            for (int reg = 0; reg < L.regs(); ++reg) {
                std::string cell;
                for (const SlotPart& p : L.which(reg, lane)) {
                    if (!cell.empty()) cell += " ";
                    const bool whole = p.bit_lo == 0 && p.bit_hi == 31;
                    if (!whole) cell += "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
                    cell += element_label(op, p.element, L.blocks());
                }
                row.push_back(cell.empty() ? "-" : cell);
            }
            rows.push_back(row);
        }
        return rows;
    };
    const std::string evidence = evidence_text(layout_evidence(*q.ins, op, q.mods));
    if (f == Format::Markdown)  // one table: blocks as a first column, the evidence as a last one
        return grid(with_note(view == View::Matrix ? matrix_rows(0, L.blocks(), L.blocks() > 1) : register_rows(), evidence), f);
    out += std::string(operand_title(op)) + " of " + title(q) + "\n";
    out += std::string(operand_name(op)) + ": " + L.formula() + "\n";
    out += evidence + "\n";
    if (view == View::Matrix) {
        for (int b = 0; b < L.blocks(); ++b) {
            if (L.blocks() > 1) out += "Block " + num(b) + "\n";
            out += grid(matrix_rows(b, b + 1, false), f) + "\n";
        }
    } else {
        out += grid(register_rows(), f);
    }
    return out;
}

namespace {
// The where tables' header and rows, in the operand's space: element, reg/column/address,
// lane/tmem_lane/bank, bits, label.
std::vector<std::string> location_header(Space space) {
    const auto [reg, lane] = location_column_titles(space);
    return {"element", reg, lane, "bits", "label"};
}
// A Blackwell slot in its CTA's terms (pair_slot): the lane column counts within the CTA, and
// the label says the CTA, the thread's warp and its tcgen05.ld load where they exist.
std::vector<std::string> location_row(const Query& q, const OperandLayout& L, const Element& e, const Location& l) {
    const std::string reg = reg_column_text(*q.ins, L.operand(), l, L.element_bits(), L.space());
    std::string lane = lane_column_text(l, L.space()), label = cell_label_text(*q.ins, L.operand(), l, L.element_bits(), ":", L.space());
    if (const PairSlot p = pair_slot(*q.ins, L.operand(), q.mods, l); p.pair || p.warp >= 0) {
        lane = num(p.lane) + (p.pair ? " (CTA" + num(p.cta) + ")" : "");
        if (L.space() == Space::Registers) label = reg + ":" + pair_slot_text(*q.ins, L.operand(), q.mods, l);
    }
    return {element_label(L.operand(), e, L.blocks()), reg, lane, "[" + num(l.bit_hi) + ":" + num(l.bit_lo) + "]", label};
}

// The PairSlot fields of a Blackwell slot, for JSON (", \"cta\": 1, \"tmem_lane\": 77" ...; "" elsewhere).
std::string pair_slot_json(const Query& q, Operand op, Space space, const Location& l) {
    if (!detail::is_tcgen05(*q.ins)) return "";
    const PairSlot p = pair_slot(*q.ins, op, q.mods, l);
    std::string s = ", \"cta\": " + num(p.cta);
    if (space == Space::TensorMemory) s += ", \"tmem_lane\": " + num(p.lane);
    if (p.warp >= 0) s += ", \"thread\": " + num(p.lane) + ", \"warp\": " + num(p.warp);
    if (p.load >= 0)
        s += ", \"load\": " + num(p.load) + ", \"load_reg\": " + num(p.load_reg) + ", \"loads\": " + num(p.loads) +
             ", \"load_ptx\": " + json_string(p.load_ptx);
    return s;
}
}  // namespace

std::string render_where(const Query& q, const OperandLayout& L, const Element& e, Format f) {
    auto locs = L.where(e);
    if (f == Format::Json) {
        std::string s = "{" + header_json(q) + ", \"operand\": " + json_string(operand_name(L.operand())) +
                        ", \"block\": " + num(e.block) + ", \"row\": " + num(e.row) + ", \"col\": " + num(e.col) +
                        ", \"locations\": [";
        for (size_t n = 0; n < locs.size(); ++n) {
            std::string one = location_json(locs[n]);
            // NVIDIA: PTX's name of the element's fragment register ("a0"), added after the promised fields.
            if (q.ins->vendor() == Vendor::NVIDIA && L.space() == Space::Registers)
                one.insert(one.size() - 1, ", \"ptx\": " + json_string(reg_column_text(*q.ins, L.operand(), locs[n], L.element_bits())));
            // TMEM / shared memory: the label in the space's terms ("L5 c7", "0x0480 b0"), added likewise.
            if (L.space() != Space::Registers)
                one.insert(one.size() - 1, ", \"label\": " + json_string(cell_label_text(*q.ins, L.operand(), locs[n], L.element_bits(), ":", L.space())));
            // Blackwell: the CTA, the lane or thread (and warp) within it, the tcgen05.ld load (pair_slot).
            one.insert(one.size() - 1, pair_slot_json(q, L.operand(), L.space(), locs[n]));
            s += (n ? ", " : "") + one;
        }
        s += "]";
        if (const Evidence ev = layout_evidence(*q.ins, L.operand(), q.mods); !ev.confidence.empty())
            s += ", " + evidence_json(ev);
        return s + "}\n";
    }
    const std::string ev_text = evidence_text(layout_evidence(*q.ins, L.operand(), q.mods));
    std::vector<std::vector<std::string>> rows = {location_header(L.space())};
    for (const auto& l : locs) rows.push_back(location_row(q, L, e, l));
    const bool one = f == Format::Csv || f == Format::Markdown;
    if (locs.empty() && one) rows.push_back({element_label(L.operand(), e, L.blocks()), "-", "-", "-", "held by no lane"});
    if (locs.empty() && !one) return element_label(L.operand(), e, L.blocks()) + " is held by no lane under these modifiers\n" + ev_text;
    return render_table_or_one(rows, f, ev_text);
}

std::string render_where_many(const Query& q, const OperandLayout& L, const std::vector<Element>& elements, Format f) {
    if (f == Format::Json) {
        std::string s = "[\n";
        for (size_t n = 0; n < elements.size(); ++n) {
            std::string one = render_where(q, L, elements[n], f);
            if (!one.empty() && one.back() == '\n') one.pop_back();
            s += one + (n + 1 < elements.size() ? ",\n" : "\n");
        }
        return s + "]\n";
    }
    std::vector<std::vector<std::string>> rows = {location_header(L.space())};
    for (const Element& e : elements) {
        const auto locs = L.where(e);
        if (locs.empty()) rows.push_back({element_label(L.operand(), e, L.blocks()), "-", "-", "-", "held by no lane"});
        for (const auto& l : locs) rows.push_back(location_row(q, L, e, l));
    }
    return grid(rows, f);
}

std::string render_which(const Query& q, const OperandLayout& L, int reg, int lane, Format f) {
    auto parts = L.which(reg, lane);
    // PTX's fragment names exist for registers only: TMEM cells and shared memory have none.
    const bool nvidia = q.ins->vendor() == Vendor::NVIDIA && L.space() == Space::Registers;
    if (f == Format::Json) {
        std::string s = "{" + header_json(q) + ", \"operand\": " + json_string(operand_name(L.operand())) +
                        ", \"reg\": " + num(reg) + ", \"lane\": " + num(lane) +
                        pair_slot_json(q, L.operand(), L.space(), Location{reg, lane, 0, 31}) + ", \"parts\": [";
        for (size_t n = 0; n < parts.size(); ++n) {
            const auto& p = parts[n];
            s += (n ? ", " : "") + std::string("{\"bit_lo\": ") + num(p.bit_lo) + ", \"bit_hi\": " + num(p.bit_hi) +
                 ", \"block\": " + num(p.element.block) + ", \"row\": " + num(p.element.row) + ", \"col\": " +
                 num(p.element.col) + ", \"elem_bit_lo\": " + num(p.elem_bit_lo) +
                 (nvidia ? ", \"ptx\": " + json_string(reg_column_text(*q.ins, L.operand(), Location{reg, lane, p.bit_lo, p.bit_hi}, L.element_bits()))
                         : std::string()) + "}";
        }
        s += "]";
        if (const Evidence ev = layout_evidence(*q.ins, L.operand(), q.mods); !ev.confidence.empty())
            s += ", " + evidence_json(ev);
        return s + "}\n";
    }
    const std::string ev_text = evidence_text(layout_evidence(*q.ins, L.operand(), q.mods));
    if (parts.empty() && (f == Format::Csv || f == Format::Markdown))
        return render_table_or_one({{"bits", "element", "block", "row", "col"}, {"-", "none", "-", "-", "-"}}, f, ev_text);
    if (parts.empty() && L.space() != Space::Registers)
        return cell_label_text(*q.ins, L.operand(), Location{reg, lane, 0, 31}, 32, ":", L.space()) + " (" +
               std::string(space_title(L.space())) + ") holds no element of " + std::string(operand_name(L.operand())) +
               " under these modifiers\n" + ev_text;
    if (parts.empty())
        return (nvidia ? "register " + num(reg) + " (" + register_text(*q.ins, L.operand(), reg, L.element_bits()) + ") of thread "
                       : "v" + num(reg) + " of lane ") + num(lane) + " holds no element of " +
               std::string(operand_name(L.operand())) + " under these modifiers\n" + ev_text;
    // NVIDIA: a last column with PTX's name of each part ("a0", "a1").
    std::vector<std::vector<std::string>> rows = {{"bits", "element", "block", "row", "col"}};
    if (nvidia) rows.front().push_back("ptx");
    for (const auto& p : parts) {
        std::string bits = "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
        if (p.elem_bit_lo) bits += " (element bits from " + num(p.elem_bit_lo) + ")";
        rows.push_back({bits, element_label(L.operand(), p.element, L.blocks()), num(p.element.block),
                        num(p.element.row), num(p.element.col)});
        if (nvidia) rows.back().push_back(reg_column_text(*q.ins, L.operand(), Location{reg, lane, p.bit_lo, p.bit_hi}, L.element_bits()));
    }
    // Blackwell: the slot in its CTA's terms, and which tcgen05.ld load holds the register.
    std::string slot_text = detail::is_tcgen05(*q.ins) ? pair_slot_text(*q.ins, L.operand(), q.mods, Location{reg, lane, 0, 31}) : "";
    if (!slot_text.empty() && f == Format::Table) {
        const PairSlot ps = pair_slot(*q.ins, L.operand(), q.mods, Location{reg, lane, 0, 31});
        slot_text = (L.space() == Space::Registers ? "thread " : "TMEM lane ") + num(lane) + (L.space() == Space::Registers ? ", register " + num(reg) : "") +
                    " = " + slot_text + (ps.load >= 0 ? " of " + num(ps.loads) + " (" + ps.load_ptx + ")" : "") + "\n";
        return slot_text + render_table_or_one(rows, f, ev_text);
    }
    return render_table_or_one(rows, f, ev_text);
}

std::string render_lane(const Query& q, const OperandLayout& L, int lane, Format f) {
    if (lane < 0 || lane >= L.lanes())
        throw Error("lane " + num(lane) + " is outside operand " + std::string(operand_name(L.operand())) + "; legal: lane 0.." +
                    num(L.lanes() - 1));
    const bool nvidia = q.ins->vendor() == Vendor::NVIDIA && L.space() == Space::Registers;
    if (f == Format::Json) {
        std::string s = "{" + header_json(q) + ", \"operand\": " + json_string(operand_name(L.operand())) + ", \"lane\": " +
                        num(lane) + ", \"regs\": [\n";
        for (int reg = 0; reg < L.regs(); ++reg) {
            const auto parts = L.which(reg, lane);
            s += "{\"reg\": " + num(reg) + ", \"parts\": [";
            for (size_t n = 0; n < parts.size(); ++n) {
                const auto& p = parts[n];
                s += (n ? ", " : "") + std::string("{\"bit_lo\": ") + num(p.bit_lo) + ", \"bit_hi\": " + num(p.bit_hi) +
                     ", \"block\": " + num(p.element.block) + ", \"row\": " + num(p.element.row) + ", \"col\": " +
                     num(p.element.col) + ", \"elem_bit_lo\": " + num(p.elem_bit_lo) +
                     (nvidia ? ", \"ptx\": " + json_string(reg_column_text(*q.ins, L.operand(),
                                                                           Location{reg, lane, p.bit_lo, p.bit_hi},
                                                                           L.element_bits()))
                             : std::string()) + "}";
            }
            s += reg + 1 < L.regs() ? "]},\n" : "]}\n";
        }
        s += "]";
        if (const Evidence ev = layout_evidence(*q.ins, L.operand(), q.mods); !ev.confidence.empty())
            s += ", " + evidence_json(ev);
        return s + "}\n";
    }
    std::string out;
    if (f == Format::Table)
        out = (L.space() != Space::Registers ? lane_axis_text(*q.ins, lane, L.space()) + " (" + std::string(space_title(L.space())) + ")"
               : (q.ins->vendor() == Vendor::NVIDIA ? "thread " : "lane ") + num(lane)) +
              " of " + std::string(operand_name(L.operand())) + " of " + title(q) + "\n";
    std::vector<std::vector<std::string>> rows = {{location_column_titles(L.space()).first, "bits", "element", "block", "row", "col"}};
    for (int reg = 0; reg < L.regs(); ++reg)
        for (const auto& p : L.which(reg, lane)) {
            std::string bits = "[" + num(p.bit_hi) + ":" + num(p.bit_lo) + "]";
            if (p.elem_bit_lo) bits += " (element bits from " + num(p.elem_bit_lo) + ")";
            rows.push_back({register_text(*q.ins, L.operand(), reg, L.element_bits(), L.space()), bits,
                            element_label(L.operand(), p.element, L.blocks()), num(p.element.block), num(p.element.row),
                            num(p.element.col)});
        }
    if (rows.size() == 1) rows.push_back({"-", "-", "holds no element under these modifiers", "-", "-", "-"});
    return out + grid(rows, f) + (f == Format::Table ? evidence_text(layout_evidence(*q.ins, L.operand(), q.mods)) : "");
}

std::string render_trace(const Query& q, const Trace& t, Format f) {
    const int blocks = q.ins->kind == LayoutKind::Mfma ? q.ins->blocks : 1;
    const std::vector<Operand> ops = operands_of(*q.ins);
    auto bits_of = [&](Operand op) {
        if (std::find(ops.begin(), ops.end(), op) == ops.end()) return elem_bits(q.ins->b);  // wgmma's B: in memory
        return elem_bits(operand_type(*q.ins, op, q.mods)) * (q.ins->sparse() && op == Operand::A ? 2 : 1);
    };
    if (f == Format::Json) {
        std::string s = "{" + header_json(q) + ", \"d\": {\"block\": " + num(t.d.block) + ", \"row\": " + num(t.d.row) +
                        ", \"col\": " + num(t.d.col) + ", \"locations\": [";
        for (size_t n = 0; n < t.d_locations.size(); ++n) s += (n ? ", " : "") + location_json(t.d_locations[n]);
        s += "]}, \"terms\": [\n";
        for (size_t n = 0; n < t.terms.size(); ++n) {
            const auto& term = t.terms[n];
            s += "{\"operand\": " + json_string(operand_name(term.operand)) + ", \"block\": " +
                 num(term.element.block) + ", \"row\": " + num(term.element.row) + ", \"col\": " +
                 num(term.element.col) + ", \"locations\": [";
            for (size_t m = 0; m < term.locations.size(); ++m) s += (m ? ", " : "") + location_json(term.locations[m]);
            s += n + 1 < t.terms.size() ? "]},\n" : "]}\n";
        }
        // How sure the layouts are: the weakest of the operands a trace spans (as `info` and a GEMM figure say).
        const Evidence ev = instruction_evidence(*q.ins, q.mods);
        return s + "], \"note\": " + json_string(t.note) + (ev.confidence.empty() ? "" : ", " + evidence_json(ev)) + "}\n";
    }
    const std::string ev_text = evidence_text(instruction_evidence(*q.ins, q.mods));
    const std::string d_label = "D" + std::string(blocks > 1 ? "[b" + num(t.d.block) + "]" : "") + "[" + num(t.d.row) + "][" +
                                num(t.d.col) + "]";
    auto space_of = [&](Operand op) { return std::find(ops.begin(), ops.end(), op) == ops.end() ? Space::Registers : operand_space(*q.ins, op, q.mods); };
    const std::string d_at =
        locations_text(*q.ins, Operand::D, t.d_locations, elem_bits(q.ins->c) == 64 ? 64 : elem_bits(q.ins->c), space_of(Operand::D));
    // CSV and Markdown: one table, D first, then its inputs (D = sum over k of A[i][k]*B[k][j] + C[i][j]).
    const bool one = f == Format::Csv || f == Format::Markdown;
    std::vector<std::vector<std::string>> rows = {{"operand", "element", "locations"}};
    if (one) rows.push_back({"D", d_label, d_at});
    for (const auto& term : t.terms) {
        int ob = (term.operand == Operand::A || term.operand == Operand::B || term.operand == Operand::C) ? blocks : 1;
        rows.push_back({std::string(operand_name(term.operand)), element_label(term.operand, term.element, ob),
                        locations_text(*q.ins, term.operand, term.locations, bits_of(term.operand), space_of(term.operand))});
    }
    if (one) return grid(with_note(rows, t.note.empty() ? ev_text : t.note + " " + ev_text), f);
    std::string out = d_label + " of " + title(q) + " is at " + d_at + "\n";
    out += "D = sum over k of A[i][k]*B[k][j] + C[i][j]; its inputs:\n\n";
    out += grid(rows, f);
    if (!t.note.empty()) out += "\nnote: " + t.note + "\n";
    return out + ev_text;
}

namespace {
// Registers per thread of an operand: none where it lives in shared memory or Tensor Memory
// (wgmma B, tcgen05.mma A/B/C/D: the MMA reads it there; a D read back by --tmem-load is registers).
int thread_regs(const Query& q, Operand op) {
    return operand_space(*q.ins, op, q.mods) == Space::Registers ? operand_regs(*q.ins, op, q.mods) : 0;
}

// "A 4, C 64, D 64 (32-bit); B in shared memory", or "none: A, B in shared memory; C, D in Tensor Memory".
std::string thread_regs_text(const Query& q, const std::vector<Operand>& ops) {
    std::string regs;
    std::vector<std::pair<Space, std::string>> elsewhere;  // space, its operands
    for (Operand op : ops) {
        const Space sp = operand_space(*q.ins, op, q.mods);
        if (sp == Space::Registers) {
            regs += (regs.empty() ? "" : ", ") + std::string(operand_name(op)) + " " + num(operand_regs(*q.ins, op, q.mods));
            continue;
        }
        auto it = std::find_if(elsewhere.begin(), elsewhere.end(), [&](const auto& e) { return e.first == sp; });
        if (it == elsewhere.end()) elsewhere.push_back({sp, std::string(operand_name(op))});
        else it->second += ", " + std::string(operand_name(op));
    }
    std::string out = regs.empty() ? std::string(elsewhere.empty() ? "none" : "none: ") : regs + " (32-bit)";
    for (size_t n = 0; n < elsewhere.size(); ++n)
        out += std::string(n == 0 ? (regs.empty() ? "" : "; ") : "; ") + elsewhere[n].second + " in " +
               std::string(space_title(elsewhere[n].first));
    return out;
}

// {"A": "registers", "B": "smem", ...}: where each operand lives (space_name).
std::string operand_spaces_json(const Query& q, const std::vector<Operand>& ops) {
    std::string s = "{";
    for (size_t n = 0; n < ops.size(); ++n)
        s += (n ? ", " : "") + json_string(operand_name(ops[n])) + ": " +
             json_string(space_name(operand_space(*q.ins, ops[n], q.mods)));
    return s + "}";
}

// NVIDIA facts: the PTX spelling, target, registers; none of AMD's encoding facts.
std::vector<std::pair<std::string, std::string>> nvidia_facts(const Query& q) {
    const Instruction& ins = *q.ins;
    const std::string address = detail::nvidia_address_rule(ins);
    std::string types, regs;
    for (Operand op : operands_of(ins)) {
        types += (types.empty() ? "" : ", ") + std::string(operand_name(op)) + " " +
                 std::string(elem_name(operand_type(ins, op, q.mods)));
    }
    regs = thread_regs_text(q, operands_of(ins));
    if (ins.kind == LayoutKind::Wgmma) types += " (B " + std::string(elem_name(ins.b)) + ", in shared memory)";
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"PTX", ins.mnemonic});
    rows.push_back({"short name", ins.short_name});
    std::vector<std::string> others;
    for (const auto& a : ins.aliases)
        if (a != ins.short_name) others.push_back(a);
    if (!others.empty()) rows.push_back({"also spelled", text::join(others, ", ")});
    rows.push_back({"shape", ins.kind == LayoutKind::LdStMatrix
                                 ? num(ins.blocks) + " matrices of 8x8 b16"
                                 : ins.shape() + (ins.sparse() ? " (K dense; A 2:4 sparse)" : "")});
    rows.push_back({"types", types});
    rows.push_back({"registers per thread", regs});
    rows.push_back({"lanes", num(q.mods.wave) + (q.mods.wave == 128 ? " (a warpgroup: 4 warps, T = 32*warp + lane)"
                                                                      : " (a warp)")});
    if (computes_product(ins)) rows.push_back({"ops per instruction", num(ins.ops()) + " (2*M*N*K)"});
    rows.push_back({"minimum target", ins.min_target + ", PTX ISA " + ins.ptx_version});
    if (!address.empty()) rows.push_back({"row addresses", address});
    const ExecFacts ef = exec_facts(ins, *q.target, q.mods);
    if (!ef.value_modifiers.empty()) rows.push_back({"value-only modifiers", ef.value_modifiers});
    rows.push_back({"families", [&] {
                        std::vector<std::string> v;
                        for (Family fam : ins.families) v.emplace_back(family_name(fam));
                        return text::join(v, ", ");
                    }()});
    const detail::BlackwellFacts bw = detail::blackwell_facts(ins);
    if (!bw.sass.empty()) {
        rows.push_back({"legal on", text::join(ins.targets, ", ") +
                                        (bw.ptx_only ? " (PTX ISA " + ins.ptx_version + " allows it there; " +
                                                           std::string(kPtxOnly) + " on any target)"
                                                     : " (CUDA 13.0 ptxas accepts it there, refuses it elsewhere)")});
        rows.push_back({"PTX section", bw.section});
        rows.push_back({"SASS", bw.sass});
    }
    rows.push_back({"facts from", ins.source + " (core/catalog/" + (bw.sass.empty() ? "nvidia" : "blackwell") + ".txt line " +
                                      num(ins.catalog_line) + ")"});
    rows.push_back({"confidence", ins.confidence});
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& r : rows) out.emplace_back(r[0], r[1]);
    return out;
}

// AMD facts: builtin, encoding, execution.
std::vector<std::pair<std::string, std::string>> amd_facts(const Query& q) {
    const Instruction& ins = *q.ins;
    const int wave = q.mods.wave;
    const std::vector<Operand> ops = operands_of(ins);
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"builtin", ins.builtin(wave)});
    rows.push_back({"signature", ins.signature(wave)});
    if (!ins.aliases.empty()) rows.push_back({"also spelled", text::join(ins.aliases, ", ")});
    rows.push_back({"shape (MxNxK)", ins.shape() + (ins.sparse() ? " (K dense; A 4:2 sparse)" : "")});
    rows.push_back({"blocks", num(ins.blocks)});
    std::string types, regs;
    for (Operand op : ops) {
        types += (types.empty() ? "" : ", ") + std::string(operand_name(op)) + " " +
                 std::string(elem_name(operand_type(ins, op, q.mods)));
        regs += (regs.empty() ? "" : ", ") + std::string(operand_name(op)) + " " + num(operand_regs(ins, op, q.mods));
    }
    rows.push_back({"types", types});
    rows.push_back({"VGPRs per lane", regs});
    rows.push_back({"ops per instruction", num(ins.ops()) + " (2*M*N*K*blocks)"});
    if (ins.cycles == 0)
        rows.push_back({"cycles", "not published (no public source gives them)"});
    else
    rows.push_back({"cycles", num(effective_cycles(ins, q.mods)) +
                                  (ins.kind == LayoutKind::MfmaScaled
                                       ? " (" + num(ins.cycles) + " FP4/FP6 only, " + num(ins.cycles_fp8) + " with FP8/BF8)"
                                       : "")});
    rows.push_back({"opcode", hex(ins.opcode, 2, HexCase::Upper) + " (" + num(ins.opcode) + "), dword0 " + hex(encoding_word0(ins), 8, HexCase::Upper) +
                                  (gfx1250_kind(ins) ? " (8-bit VOP3P opcode field, dword0 bits 23:16)" : "")});
    if (encoding_words(ins).size() > 1) rows.push_back({"encoding", encoding_text(ins)});
    if (const std::string sel = compiler_selection(ins); !sel.empty()) rows.push_back({"selected by", sel});
    rows.push_back({"compiler witness", q.target->compiler.empty() ? "none" : q.target->compiler});
    const ExecFacts ef = exec_facts(ins, *q.target, q.mods);
    rows.push_back({"VALU co-execution", ef.coexec ? "yes, " + num(ef.coexec_cycles) + " cycles" : "no"});
    std::string files;
    for (const auto& [op, f] : ef.register_files)
        files += (files.empty() ? "" : "; ") + std::string(operand_name(op)) + ": " + f;
    rows.push_back({"register files", files});
    rows.push_back({"register alignment", num(ef.gpr_alignment_bytes) + " bytes"});
    if (!ef.value_modifiers.empty()) rows.push_back({"value-only modifiers", ef.value_modifiers});
    rows.push_back({"target features", ins.features + (is_cdna(q.target->family) ||
                                                               ins.features.find("wavefrontsize") != std::string::npos
                                                           ? ""
                                                           : ", wavefrontsize" + num(wave))});
    rows.push_back({"families", [&] {
                        std::vector<std::string> v;
                        for (Family fam : ins.families) v.emplace_back(family_name(fam));
                        return text::join(v, ", ");
                    }()});
    rows.push_back({"facts from", ins.source + " (catalog line " + num(ins.catalog_line) + ")"});
    if (const Evidence ev = instruction_evidence(ins, q.mods); !ev.confidence.empty()) {
        rows.push_back({"layout confidence", ev.confidence + " (weakest operand; " + ev.why + ")"});
        for (const Alternative& a : ev.alternatives)
            rows.push_back({"second reading", a.reading + " — per " + a.source + "; " + a.differs});
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& r : rows) out.emplace_back(r[0], r[1]);
    return out;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> instruction_facts(const Query& q) {
    return q.ins->vendor() == Vendor::NVIDIA ? nvidia_facts(q) : amd_facts(q);
}

// [{"symbol": ..., "meaning": ...}, ...] for every symbol `formulas` uses.
std::string symbols_json(const Instruction& ins, const std::string& formulas) {
    std::string s = "[";
    const std::vector<FormulaSymbol> syms = formula_symbols(ins, formulas);
    for (size_t n = 0; n < syms.size(); ++n)
        s += std::string(n ? ", " : "") + "{\"symbol\": " + json_string(syms[n].symbol) +
             ", \"meaning\": " + json_string(syms[n].meaning) + "}";
    return s + "]";
}

// {"A": 4, "B": 4, ...}: registers per lane of each operand.
std::string operand_regs_json(const Query& q, const std::vector<Operand>& ops) {
    std::string s = "{";
    for (size_t n = 0; n < ops.size(); ++n)
        s += (n ? ", " : "") + json_string(operand_name(ops[n])) + ": " + num(thread_regs(q, ops[n]));
    return s + "}";
}

// {"A": "f16", ...}: element type of each operand.
std::string operand_types_json(const Query& q, const std::vector<Operand>& ops) {
    std::string s = "{";
    for (size_t n = 0; n < ops.size(); ++n)
        s += (n ? ", " : "") + json_string(operand_name(ops[n])) + ": " +
             json_string(elem_name(operand_type(*q.ins, ops[n], q.mods)));
    return s + "}";
}

// ["alias", ...], "families": ["cdna3", ...]: the value of "aliases" and the "families" field after it.
std::string aliases_families_json(const Instruction& ins) {
    std::string s = "[";
    for (size_t n = 0; n < ins.aliases.size(); ++n) s += (n ? ", " : "") + json_string(ins.aliases[n]);
    s += "], \"families\": [";
    for (size_t n = 0; n < ins.families.size(); ++n) s += (n ? ", " : "") + json_string(family_name(ins.families[n]));
    return s + "]";
}

// {"cbsz": [0, 1, ...], ...}: the legal values of every modifier of the query's instruction.
std::string modifiers_legal_json(const Query& q) {
    std::string s = "{";
    const auto ranges = modifier_ranges(*q.ins, *q.target, q.mods);
    for (size_t n = 0; n < ranges.size(); ++n) {
        s += (n ? ", " : "") + json_string(ranges[n].name) + ": [";
        for (size_t m = 0; m < ranges[n].values.size(); ++m) s += (m ? ", " : "") + num(ranges[n].values[m]);
        s += "]";
    }
    return s + "}";
}

// "formulas" and "formula_symbols" lines of info's JSON.
std::string formulas_json(const Query& q) {
    const std::string formulas = family_formulas(*q.ins, q.mods);
    return "\"formulas\": " + json_string(formulas) + ",\n\"formula_symbols\": " + symbols_json(*q.ins, formulas) + ",\n";
}

namespace {
// info as one table (CSV, Markdown): its facts, then the prose sections as facts too (a cell of
// several lines is quoted in CSV, <br> in Markdown).
std::string info_table(std::vector<std::vector<std::string>> rows, const Query& q, const std::string& layout,
                       const std::string& evidence, Format f) {
    const Instruction& ins = *q.ins;
    rows.push_back({"title", title(q)});
    rows.push_back({"modifiers", trim_newline(modifier_notes(ins, *q.target))});
    rows.push_back({"layout", trim_newline(layout)});
    if (!evidence.empty()) rows.push_back({"evidence per operand", trim_newline(evidence)});
    rows.push_back({"symbols", trim_newline(formula_symbols_text(ins, family_formulas(ins, q.mods)))});
    rows.push_back({"formula source", family_source(ins.kind)});
    return grid(rows, f);
}
}  // namespace

// NVIDIA: info from instruction_facts; JSON with the PTX facts.
std::string render_info_nvidia(const Query& q, Format f) {
    const Instruction& ins = *q.ins;
    std::vector<Operand> ops = operands_of(ins);
    const std::string address = detail::nvidia_address_rule(ins);
    std::string types, regs;
    for (Operand op : ops) {
        types += (types.empty() ? "" : ", ") + std::string(operand_name(op)) + " " +
                 std::string(elem_name(operand_type(ins, op, q.mods)));
        regs += (regs.empty() ? "" : ", ") + std::string(operand_name(op)) + " " + num(operand_regs(ins, op, q.mods));
    }
    if (f == Format::Json) {
        std::string s = "{" + header_json(q) + ",\n";
        // The names the foundation's contract promised, as on AMD.
        s += "\"mnemonic\": " + json_string(ins.mnemonic) + ", \"wave_size\": " + num(q.mods.wave) +
             ", \"gprs\": " + operand_regs_json(q, ops) + ",\n";
        s += "\"vendor\": \"NVIDIA\", \"ptx\": " + json_string(ins.mnemonic) + ", \"short\": " + json_string(ins.short_name) +
             ", \"aliases\": " + aliases_families_json(ins) +
             ",\n\"layout_family\": " + json_string(layout_kind_name(ins.kind)) + ", ";
        s += "\"m\": " + num(ins.m) + ", \"n\": " + num(ins.n) + ", \"k\": " + num(ins.k) + ", \"blocks\": " +
             num(ins.blocks) + ", \"shape\": " + json_string(ins.shape()) + ", \"sparse\": " +
             (ins.sparse() ? "true" : "false") + ", \"lanes\": " + num(q.mods.wave) + ",\n";
        s += "\"types\": " + operand_types_json(q, ops) + ",\n\"registers\": " + operand_regs_json(q, ops) +
             ", \"operand_spaces\": " + operand_spaces_json(q, ops) +
             ",\n\"ops\": " + num(ins.ops()) + ", \"min_target\": " + json_string(ins.min_target) +
             ", \"ptx_version\": " + json_string(ins.ptx_version) + ",\n";
        if (!address.empty()) s += "\"addresses\": " + json_string(address) + ",\n";
        s += "\"modifiers_legal\": " + modifiers_legal_json(q);
        const ExecFacts ef = exec_facts(ins, *q.target, q.mods);
        s += ", \"value_modifiers\": " + json_string(ef.value_modifiers) + ",\n";
        s += formulas_json(q);
        s += "\"formula_source\": " + json_string(family_source(ins.kind)) + ", \"source\": " + json_string(ins.source) +
             ", \"confidence\": " + json_string(ins.confidence) + ", \"catalog_line\": " + num(ins.catalog_line);
        // Blackwell rows (core/catalog/blackwell.txt): where ptxas accepts them, their SASS and PTX section;
        // nothing of them ran on Blackwell silicon.
        if (const detail::BlackwellFacts bw = detail::blackwell_facts(ins); !bw.sass.empty()) {
            std::string targets;
            for (const std::string& t : ins.targets) targets += (targets.empty() ? "" : ", ") + json_string(t);
            s += ",\n\"catalog_file\": \"core/catalog/blackwell.txt\", \"targets\": [" + targets + "], \"sass\": " +
                 json_string(bw.sass) + ", \"ptx_section\": " + json_string(bw.section) +
                 ", \"ptx_only\": " + (bw.ptx_only ? "true" : "false") + ", \"ptxas_accepts\": " +
                 (bw.ptx_only ? "false" : "true") + ", \"hardware_confirmed\": false";
        }
        s += "}\n";
        return s;
    }
    std::vector<std::vector<std::string>> rows = {{"fact", "value"}};
    for (auto& [k, v] : instruction_facts(q)) rows.push_back({k, v});
    const std::string layout = "Layout (" + std::string(layout_kind_name(ins.kind)) +
                               (computes_product(ins) ? "; A is M x K, B is K x N, D is M x N; g = lane/4, t = lane%4, i = PTX element index"
                                                      : "; block = matrix, row/col as the matrix lies in memory") +
                               "):\n" + family_formulas(ins, q.mods);
    if (f == Format::Csv || f == Format::Markdown) return info_table(std::move(rows), q, layout, "", f);
    std::string out = title(q) + "\n\n";
    out += grid(rows, Format::Table);
    out += "\nModifiers:\n" + modifier_notes(ins, *q.target);
    out += "\n" + layout;
    out += "Symbols:\n" + formula_symbols_text(ins, family_formulas(ins, q.mods));
    out += "Source: " + family_source(ins.kind) + "\n";
    return out;
}

std::string render_info(const Query& q, Format f) {
    if (q.ins->vendor() == Vendor::NVIDIA) return render_info_nvidia(q, f);
    const Instruction& ins = *q.ins;
    const int wave = q.mods.wave;
    std::vector<Operand> ops = operands_of(ins);
    if (f == Format::Json) {
        std::string s = "{" + header_json(q) + ",\n";
        // The names the foundation's contract promised, beside today's ("instruction", "wave", "registers").
        s += "\"mnemonic\": " + json_string(ins.mnemonic) + ", \"wave_size\": " + num(wave) +
             ", \"gprs\": " + operand_regs_json(q, ops) + ",\n";
        s += "\"aliases\": " + aliases_families_json(ins) + ",\n\"layout_family\": " +
             json_string(layout_kind_name(ins.kind)) + ", ";
        s += "\"m\": " + num(ins.m) + ", \"n\": " + num(ins.n) + ", \"k\": " + num(ins.k) + ", \"blocks\": " +
             num(ins.blocks) + ", \"shape\": " + json_string(ins.shape()) + ", \"sparse\": " +
             (ins.sparse() ? "true" : "false") + ",\n";
        s += "\"types\": " + operand_types_json(q, ops) + ",\n\"registers\": " + operand_regs_json(q, ops) +
             ",\n\"ops\": " + num(ins.ops()) + ", \"flops\": " + num(ins.ops()) + ", \"cycles\": " +
             (ins.cycles == 0 ? std::string("null") : num(effective_cycles(ins, q.mods))) + ", \"ops_per_cycle_per_cu\": " +
             (ins.cycles == 0 ? std::string("null") : num(ins.ops() / std::max(1, effective_cycles(ins, q.mods)) * 4)) +
             ",\n";
        s += "\"opcode\": " + num(ins.opcode) + ", \"opcode_hex\": " + json_string(hex(ins.opcode, 2, HexCase::Upper)) +
             ", \"encoding\": " + json_string(hex(encoding_word0(ins), 8, HexCase::Upper)) + ",\n";
        {
            const EncodingFormat fmt = encoding_format(ins.families.front());
            s += "\"encoding_format\": " + json_string(fmt.name) + ", \"opcode_bits\": " + num(fmt.opcode_bits) +
                 ", \"encoding_words\": " + encoding_words_json(ins) + ",\n";
            s += "\"scale_operands\": " + std::string(std::find(ops.begin(), ops.end(), Operand::SA) != ops.end() ? "true" : "false") +
                 ", \"selected_by\": " + json_string(compiler_selection(ins)) + ", \"compiler\": " +
                 json_string(q.target->compiler) + ",\n";
        }
        if (ins.prefix_opcode)
            s += "\"prefix\": {\"mnemonic\": " + json_string(ins.prefix_mnemonic) + ", \"opcode\": " +
                 num(ins.prefix_opcode) + ", \"encoding\": " + json_string(hex(encoding_words(ins).front().word, 8, HexCase::Upper)) +
                 "},\n";
        if (const Evidence ev = instruction_evidence(ins, q.mods); !ev.confidence.empty()) {
            s += evidence_json(ev) + ",\n\"operand_evidence\": {";
            for (size_t n = 0; n < ops.size(); ++n)
                s += (n ? ", " : "") + json_string(operand_name(ops[n])) + ": {" +
                     evidence_json(layout_evidence(ins, ops[n], q.mods)) + "}";
            s += "},\n";
        }
        const ExecFacts ef = exec_facts(ins, *q.target, q.mods);
        s += "\"coexec\": " + std::string(ef.coexec ? "true" : "false") + ", \"coexec_cycles\": " +
             num(ef.coexec_cycles) + ", \"gpr_alignment_bytes\": " + num(ef.gpr_alignment_bytes) +
             ", \"register_files\": {";
        for (size_t n = 0; n < ef.register_files.size(); ++n)
            s += (n ? ", " : "") + json_string(operand_name(ef.register_files[n].first)) + ": " +
                 json_string(ef.register_files[n].second);
        s += "}, \"value_modifiers\": " + json_string(ef.value_modifiers) + ",\n";
        s += "\"signature\": " + json_string(ins.signature(wave)) + ", \"features\": " + json_string(ins.features) +
             ", \"tied\": " + (ins.tied ? "true" : "false") + ",\n";
        s += "\"modifiers_legal\": " + modifiers_legal_json(q);
        s += ",\n" + formulas_json(q);
        s += "\"formula_source\": " + json_string(family_source(ins.kind)) + ", \"source\": " + json_string(ins.source) +
             ", \"catalog_line\": " + num(ins.catalog_line) + "}\n";
        return s;
    }
    std::vector<std::vector<std::string>> rows = {{"fact", "value"}};
    for (auto& [k, v] : instruction_facts(q)) rows.push_back({k, v});
    const std::string layout = "Layout (" + std::string(layout_kind_name(ins.kind)) +
                               "; k, i, j as in A[i][k], B[k][j], D[i][j]):\n" + family_formulas(ins, q.mods);
    std::string evidence;
    if (gfx1250_kind(ins))
        for (Operand op : ops) {
            const Evidence ev = layout_evidence(ins, op, q.mods);
            evidence += "  " + std::string(operand_name(op)) + ": " + ev.confidence + " — " + ev.why + "\n";
            for (const Alternative& a : ev.alternatives)
                evidence += "     second reading: " + a.reading + " (per " + a.source + "; " + a.differs + ")\n";
        }
    if (f == Format::Csv || f == Format::Markdown) return info_table(std::move(rows), q, layout, evidence, f);
    std::string out = title(q) + "\n\n";
    out += grid(rows, Format::Table);
    out += "\nModifiers:\n" + modifier_notes(ins, *q.target);
    out += "\n" + layout;
    if (!evidence.empty()) out += "Evidence per operand:\n" + evidence;
    out += "Symbols:\n" + formula_symbols_text(ins, family_formulas(ins, q.mods));
    out += "Source: " + family_source(ins.kind) + "\n";
    return out;
}

namespace {

// list's text table within kListColumns characters a line: as one aligned table where it fits, else
// each instruction as three lines: its name (wrapped after a '.' where longer than a line, PTX
// spellings reach 105 characters), its builtin or short name, then the rest of its row, aligned.
constexpr size_t kListColumns = 100;
std::string wrapped_name(const std::string& name) {
    std::string out, line;
    size_t at = 0;
    while (at < name.size()) {
        size_t dot = name.find('.', at + 1);
        const std::string piece = name.substr(at, dot == std::string::npos ? std::string::npos : dot - at);
        if (!line.empty() && line.size() + piece.size() > kListColumns) {
            out += line + "\n";
            line = "    ";
        }
        line += piece;
        at = dot == std::string::npos ? name.size() : dot;
    }
    return out + line + "\n";
}
std::string list_table_text(const std::vector<std::vector<std::string>>& rows) {
    const std::string one = grid(rows, Format::Table);
    size_t widest = 0;
    for (size_t at = 0, nl; at < one.size(); at = nl + 1) {
        nl = one.find('\n', at);
        widest = std::max(widest, nl - at);
    }
    if (widest <= kListColumns) return one;
    std::vector<std::vector<std::string>> rest;
    for (const auto& r : rows) rest.emplace_back(r.begin() + 2, r.end());
    const std::string tail = grid(rest, Format::Table);
    std::string out;
    size_t n = 0;
    for (size_t at = 0, nl; at < tail.size(); at = nl + 1, ++n) {
        nl = tail.find('\n', at);
        out += wrapped_name(rows[n][0]) + "  " + rows[n][1] + "\n    " + tail.substr(at, nl - at) + "\n";
    }
    return out;
}

}  // namespace

std::string render_list(const Catalog& cat, const std::vector<const Target*>& targets, Format f, std::string_view query) {
    // Each target's rows: all of them, or what search() finds for the query, best first.
    auto rows_of = [&](const Target& t) {
        if (query.empty()) return listed_on(cat, t);
        std::vector<const Instruction*> hits;
        for (const SearchHit& h : search(cat, t, query)) hits.push_back(h.ins);
        return hits;
    };
    if (!query.empty() && std::all_of(targets.begin(), targets.end(), [&](const Target* t) { return rows_of(*t).empty(); })) {
        std::string where;
        for (const Target* t : targets) where += (where.empty() ? "" : ", ") + t->gfx;
        throw Error("no instruction on " + where + " matches '" + std::string(query) +
                    "'; legal: words that every match holds: parts of a name, shapes (32x32, 16x16x32), types (bf16, "
                    "fp8, int8), sparse, dense, scaled, a family (mfma, wmma, wgmma); `lanescope-cli list --arch " +
                    (targets.size() == 1 ? targets.front()->gfx : std::string("A")) + "` lists every instruction");
    }
    if (f == Format::Json) {
        std::string s = "{\"targets\": [\n";
        for (size_t t = 0; t < targets.size(); ++t) {
            auto rows = rows_of(*targets[t]);
            s += "{\"arch\": " + json_string(targets[t]->arch_name()) + ", \"target\": " +
                 json_string(targets[t]->gfx) + ", \"compiler\": " + json_string(targets[t]->compiler) + ", \"count\": " + num(static_cast<long long>(rows.size())) +
                 ", \"instructions\": [";
            for (size_t n = 0; n < rows.size(); ++n) {
                const Instruction& r = *rows[n];
                s += std::string(n ? "," : "") + "\n {\"instruction\": " + json_string(r.mnemonic) + ", \"builtin\": " +
                     json_string(r.builtin(targets[t]->default_wave)) + ", \"shape\": " + json_string(r.shape()) +
                     ", \"blocks\": " + num(r.blocks) + ", \"types\": " +
                     json_string(std::string(elem_name(r.a)) + "," + std::string(elem_name(r.b)) + "," +
                                 std::string(elem_name(r.c))) +
                     ", \"layout_family\": " + json_string(layout_kind_name(r.kind)) +
                     (r.vendor() == Vendor::NVIDIA ? ", \"short\": " + json_string(r.short_name) : std::string()) +
                     (ptx_only(r) ? ", \"ptx_only\": true, \"note\": " + json_string(kPtxOnly) : std::string()) + "}";
            }
            s += t + 1 < targets.size() ? "]},\n" : "]}\n";
        }
        return s + "]}\n";
    }
    std::string out;
    std::vector<std::vector<std::string>> counts = {{"arch", "target", "instructions", "builtins"}};
    for (const Target* t : targets) {
        auto rows = rows_of(*t);
        size_t builtins = 0;
        for (const Instruction* r : rows) builtins += r->builtin_pattern.find("{w}") != std::string::npos ? 2 : 1;
        counts.push_back({std::string(family_name(t->family)), t->gfx, num(static_cast<long long>(rows.size())),
                          num(static_cast<long long>(builtins))});
    }
    if (f == Format::Csv || f == Format::Markdown) {
        // One table: the target a first column (the counts are its rows counted).
        std::vector<std::vector<std::string>> rows = {
            {"target", "arch", "instruction", "builtin or short name", "MxNxK", "blocks", "A,B,C", "layout"}};
        for (const Target* t : targets) {
            const bool nvidia = t->vendor() == Vendor::NVIDIA;
            for (const Instruction* r : rows_of(*t))
                rows.push_back({t->gfx, std::string(family_name(t->family)), r->mnemonic,
                                nvidia ? r->short_name : r->builtin(t->default_wave), r->shape(), num(r->blocks),
                                std::string(elem_name(r->a)) + "," + std::string(elem_name(r->b)) + "," +
                                    std::string(elem_name(r->c)),
                                std::string(layout_kind_name(r->kind))});
        }
        return grid(rows, f);
    }
    for (const Target* t : targets) {
        out += t->title + "\n\n";
        if (!t->compiler.empty()) out += "compiler witness: " + t->compiler + "\n\n";
        const bool nvidia = t->vendor() == Vendor::NVIDIA;
        std::vector<std::vector<std::string>> rows = {
            {nvidia ? "ptx" : "mnemonic", nvidia ? "short" : "builtin", "MxNxK", "blocks", "A,B,C", "layout"}};
        for (const Instruction* r : rows_of(*t))
            rows.push_back({r->mnemonic, nvidia ? r->short_name + (ptx_only(*r) ? " (PTX-only: ptxas 13.0 refuses it)" : "")
                                                : r->builtin(t->default_wave),
                            r->shape(), num(r->blocks),
                            std::string(elem_name(r->a)) + "," + std::string(elem_name(r->b)) + "," +
                                std::string(elem_name(r->c)),
                            std::string(layout_kind_name(r->kind))});
        out += list_table_text(rows) + "\n";
    }
    out += grid(counts, f);
    return out;
}

}  // namespace lanescope
