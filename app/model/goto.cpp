#include "model/goto.hpp"

#include "lanescope/numbers.hpp"
#include "lanescope/palette.hpp"

#include <cctype>
#include <vector>

namespace lsapp {

namespace {

// Words of the text: separators are spaces, commas, brackets, ':' and '='.
std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : text) {
        if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',' || ch == '[' || ch == ']' || ch == ':' || ch == '=' ||
            ch == '(' || ch == ')') {
            if (!cur.empty()) out.push_back(cur), cur.clear();
        } else {
            cur += ch;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool all_digits(const std::string& s, size_t from) {
    if (from >= s.size()) return false;
    for (size_t i = from; i < s.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

// "L17" / "T17" / "w2" / "b3": the number after a one-letter prefix ("" when not of that form).
std::string after_prefix(const std::string& word, const char* prefixes) {
    if (word.size() < 2) return "";
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(word[0])));
    for (const char* p = prefixes; *p; ++p)
        if (c == *p && all_digits(word, 1)) return word.substr(1);
    return "";
}

// The operands a place may name, and the lanes of one wave: "A, B, D (lanes 0..63 of one wave)".
std::string shown_space(const LayoutSet& set, const TileSet* tile) {
    std::string ops;
    if (tile)
        for (const ls::TileLayout& t : tile->layouts) ops += (ops.empty() ? "" : ", ") + std::string(ls::operand_name(t.operand()));
    else
        for (const ls::OperandLayout& l : set.layouts) ops += (ops.empty() ? "" : ", ") + std::string(ls::operand_name(l.operand()));
    const bool nv = set.ins && set.ins->vendor() == ls::Vendor::NVIDIA;
    std::string s = (tile ? "the tile's operands " : "operands ") + ops + "; " + (nv ? "threads 0.." : "lanes 0..") +
                    std::to_string(set.wave() - 1) + (tile ? " of waves 0.." + std::to_string(tile->waves() - 1) : " of one wave");
    return s;
}

}  // namespace

std::string legal_forms(bool tile_mode) {
    return tile_mode ? "OP ROW COL inside the operand's tile (e.g. \"A 3 17\", \"D[13][7]\", \"D,3,5\"), or a lane: \"lane 17\", "
                       "\"L17\", \"lane 17 wave 2\" (also lane,N,WAVE)"
                     : "OP ROW COL [BLOCK] inside the operand (e.g. \"A 3 17\", \"D[13][7]\", \"D,3,5\", \"B 2 5 b3\"), or a "
                       "lane: \"lane 17\", \"L17\", \"T13\" (also lane,N)";
}

Hover parse_place(const std::string& text, const LayoutSet& set, const TileSet* tile) {
    std::vector<std::string> w = words_of(text);
    if (w.empty()) throw ls::Error("nothing to go to");
    Hover h;
    // A lane: "lane N [wave W]", "L17", "T13", "w2 L17", "lane,17,2".
    const std::string head = lower(w[0]);
    std::string lane_text, wave_text;
    size_t used = 0;
    if (head == "lane" || head == "thread") {
        if (w.size() < 2) throw ls::Error("'" + w[0] + "' needs a number");
        lane_text = w[1], used = 2;
    } else if (!after_prefix(w[0], "lt").empty()) {
        lane_text = after_prefix(w[0], "lt"), used = 1;
    } else if (!after_prefix(w[0], "w").empty() && w.size() >= 2 && !after_prefix(w[1], "lt").empty()) {
        wave_text = after_prefix(w[0], "w"), lane_text = after_prefix(w[1], "lt"), used = 2;
    }
    if (!lane_text.empty()) {
        if (used < w.size()) {
            const std::string next = lower(w[used]);
            if (next == "wave" && used + 1 < w.size()) wave_text = w[used + 1], used += 2;
            else if (!after_prefix(w[used], "w").empty()) wave_text = after_prefix(w[used], "w"), used += 1;
            else if (all_digits(w[used], 0)) wave_text = w[used], used += 1;
        }
        if (used != w.size()) throw ls::Error("'" + w[used] + "' does not belong to a lane");
        h.kind = Hover::Kind::Lane;
        h.lane = static_cast<int>(ls::parse_integer(lane_text, 0, set.wave() - 1, "lane"));
        if (!wave_text.empty()) {
            if (!tile)
                throw ls::Error("a wave ('" + wave_text + "') is only part of a place in tile mode (--waves, --tiles-per-wave, "
                                "--shape); " + set.ins->mnemonic + " alone shows " + shown_space(set, nullptr));
            h.wave = static_cast<int>(ls::parse_integer(wave_text, 0, tile->waves() - 1, "wave"));
        }
        return h;
    }
    // An element: OP ROW COL [BLOCK | bN | block N].
    const auto op = ls::parse_operand(w[0]);
    if (!op) throw ls::Error("'" + w[0] + "' is neither an operand nor a lane");
    if (w.size() < 3) throw ls::Error("an element needs a row and a column");
    std::string block_text;
    if (w.size() == 4) block_text = !after_prefix(w[3], "b").empty() ? after_prefix(w[3], "b") : w[3];
    else if (w.size() == 5 && lower(w[3]) == "block") block_text = w[4];
    else if (w.size() != 3) throw ls::Error("it has " + std::to_string(w.size()) + " parts");
    h.kind = Hover::Kind::Element;
    if (tile) {
        const ls::TileLayout* t = tile->find(*op);
        if (!t) throw ls::Error("operand '" + w[0] + "' is not shown for " + set.ins->mnemonic + "'s tile; it shows " + shown_space(set, tile));
        if (!block_text.empty()) throw ls::Error("a tile has no blocks");
        h.operand = t->operand();
        h.element = {0, static_cast<int>(ls::parse_integer(w[1], 0, t->rows() - 1, "row")),
                     static_cast<int>(ls::parse_integer(w[2], 0, t->cols() - 1, "col"))};
        const auto where = t->where(h.element);
        h.wave = where.empty() ? -1 : where.front().wave;
        return h;
    }
    const ls::OperandLayout* l = set.find(*op);
    if (!l) throw ls::Error("operand '" + w[0] + "' is not shown for " + set.ins->mnemonic + "; it shows " + shown_space(set, nullptr));
    h.operand = *op;
    h.element = {block_text.empty() ? 0 : static_cast<int>(ls::parse_integer(block_text, 0, l->blocks() - 1, "block")),
                 static_cast<int>(ls::parse_integer(w[1], 0, l->rows() - 1, "row")),
                 static_cast<int>(ls::parse_integer(w[2], 0, l->cols() - 1, "col"))};
    return h;
}

std::string place_text(const Hover& h, const LayoutSet& set) {
    if (h.kind == Hover::Kind::Element)
        return std::string(ls::operand_name(h.operand)) + "[" + std::to_string(h.element.row) + "][" + std::to_string(h.element.col) +
               "]" + (set.ins && set.ins->blocks > 1 ? " block " + std::to_string(h.element.block) : "");
    if (h.kind == Hover::Kind::Lane)
        return (h.wave >= 0 ? "wave " + std::to_string(h.wave) + " " : std::string()) +
               (set.ins && set.ins->vendor() == ls::Vendor::NVIDIA ? "thread " : "lane ") + std::to_string(h.lane);
    return "";
}

std::string place_location(const Hover& h, const LayoutSet& set, const TileSet* tile) {
    if (h.kind != Hover::Kind::Element || !set.ins) return "";
    auto copies = [](size_t n) { return n > 1 ? " +" + std::to_string(n - 1) + (n > 2 ? " copies" : " copy") : std::string(); };
    if (tile) {
        const ls::TileLayout* t = tile->find(h.operand);
        if (!t) return "";
        const auto where = t->where(h.element);
        if (where.empty()) return "not held";
        return "w" + std::to_string(where.front().wave) + " " +
               ls::cell_label_text(*set.ins, t->operand(), where.front().loc, t->instruction().element_bits()) + copies(where.size());
    }
    const ls::OperandLayout* l = set.find(h.operand);
    if (!l) return "";
    const auto where = l->where(h.element);
    if (where.empty()) return "not held";
    return ls::cell_label_text(*set.ins, l->operand(), where.front(), l->element_bits(), " \u00B7 ", l->space()) + copies(where.size());
}

}  // namespace lsapp
