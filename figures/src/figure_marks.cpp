// figure --highlight and --crop (docs/figures.md, "Highlight and crop"): the words users type,
// checked against the operands drawn, and the marks a highlight leaves on a built figure.
#include "figure_marks.hpp"

#include "lanescope/render.hpp"
#include "lanescope/tile.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>

namespace lanescope::figures {

namespace {

constexpr const char* kCropGrammar = "legal: ROWSxCOLS@R,C, e.g. 16x16@64,128 (rows R..R+ROWS-1, columns C..C+COLS-1)";
constexpr const char* kHighlightGrammar =
    "legal: comma-separated items, each OP[R][C] (one element, e.g. D[77][130]; OP[bB][R][C] on a multi-block "
    "instruction), OP[R][*] (row R), OP[*][C] (column C), lane:L (every cell lane L holds: the AMD lane, the NVIDIA "
    "thread, the TMEM lane, numbered as `which --lane` takes them), lane:L@ctaC (lane or thread L within CTA C of a "
    "cta_group::2 pair), reg:G (every cell register G holds, as `which --reg`; in Tensor Memory column G)";

std::string span(int from, int count) {
    return count == 1 ? std::to_string(from) : std::to_string(from) + "\u2013" + std::to_string(from + count - 1);
}

std::string shape_words(const DrawnOperand& d) {
    return std::string(operand_name(d.op)) + " is " + (d.blocks > 1 ? std::to_string(d.blocks) + " blocks of " : "") +
           std::to_string(d.rows) + " x " + std::to_string(d.cols) + " (rows " + span(0, d.rows) + ", columns " +
           span(0, d.cols) + (d.blocks > 1 ? ", blocks b" + span(0, d.blocks) : "") + ")";
}

// What can be highlighted in this figure: each drawn operand's shape, lanes and registers.
std::string legal_ranges(const std::vector<DrawnOperand>& drawn) {
    std::string out = "drawn here: ";
    for (size_t n = 0; n < drawn.size(); ++n) {
        const DrawnOperand& d = drawn[n];
        out += (n ? "; " : "") + shape_words(d);
        if (d.window.on()) out += ", window " + crop_words(d.window, d.rows, d.cols);
        if (d.lanes > 0) out += ", lanes " + span(0, d.lanes) + ", registers " + span(0, d.regs);
    }
    return out;
}

// Digits only, at most 7 (no sign, no spaces): the indices a user types.
bool take_number(std::string_view& s, int& v) {
    size_t n = 0;
    while (n < s.size() && n < 8 && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
    if (n == 0 || n > 7) return false;
    v = std::stoi(std::string(s.substr(0, n)));
    s.remove_prefix(n);
    return true;
}

bool take(std::string_view& s, std::string_view word) {
    if (s.size() < word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != word[i]) return false;
    s.remove_prefix(word.size());
    return true;
}

enum class MarkKind { Element, Lane, Reg };
struct Mark {
    MarkKind kind = MarkKind::Element;
    std::string text;  // as typed
    Operand op = Operand::A;
    int block = -1, row = -1, col = -1;  // Element: -1 row or column is every one; block -1: not written
    int lane = -1, cta = -1, reg = -1;
};

// One item in the grammar of kHighlightGrammar, or nothing.
std::optional<Mark> parse_mark(std::string_view s) {
    Mark m;
    m.text = std::string(s);
    if (take(s, "lane:")) {
        m.kind = MarkKind::Lane;
        if (!take_number(s, m.lane)) return std::nullopt;
        if (take(s, "@cta") && !take_number(s, m.cta)) return std::nullopt;
        return s.empty() ? std::optional<Mark>(m) : std::nullopt;
    }
    if (take(s, "reg:")) {
        m.kind = MarkKind::Reg;
        return take_number(s, m.reg) && s.empty() ? std::optional<Mark>(m) : std::nullopt;
    }
    const size_t bracket = s.find('[');
    if (bracket == std::string_view::npos) return std::nullopt;
    const std::optional<Operand> op = parse_operand(s.substr(0, bracket));
    if (!op) return std::nullopt;
    m.op = *op;
    s.remove_prefix(bracket);
    // [bB] then [R|*][C|*]
    if (take(s, "[b")) {
        if (!take_number(s, m.block) || !take(s, "]")) return std::nullopt;
    }
    for (int* index : {&m.row, &m.col}) {
        if (!take(s, "[")) return std::nullopt;
        if (!take(s, "*") && !take_number(s, *index)) return std::nullopt;
        if (!take(s, "]")) return std::nullopt;
    }
    if (!s.empty() || (m.row < 0 && m.col < 0)) return std::nullopt;  // OP[*][*] names nothing in particular
    return m;
}

std::string trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return std::string(s);
}

std::vector<Mark> parse_marks(const std::string& text, const std::vector<DrawnOperand>& drawn) {
    std::vector<Mark> out;
    size_t from = 0;
    while (from <= text.size()) {
        size_t comma = from;  // the next comma outside brackets ("D[3,4]" stays one item)
        for (int depth = 0; comma < text.size() && (text[comma] != ',' || depth > 0); ++comma)
            depth += text[comma] == '[' ? 1 : text[comma] == ']' ? -1 : 0;
        const std::string item = trimmed(std::string_view(text).substr(from, comma - from));
        const std::optional<Mark> m = parse_mark(item);
        if (!m)
            throw Error("bad --highlight item '" + item + "'" + (item.empty() ? " (empty)" : "") + "; " + kHighlightGrammar +
                        "; " + legal_ranges(drawn));
        out.push_back(*m);
        from = comma + 1;
    }
    return out;
}

// An item checked against the drawn operands: the operand exists and the indices are inside it
// (and inside its window); lanes and registers exist; the pair form only on a pair operand.
void check_mark(const Mark& m, const FigureSpec& spec, const std::vector<DrawnOperand>& drawn) {
    const std::string head = "--highlight " + m.text + ": ";
    if (m.kind == MarkKind::Element) {
        auto it = std::find_if(drawn.begin(), drawn.end(), [&](const DrawnOperand& d) { return d.op == m.op; });
        if (it == drawn.end()) throw Error(head + std::string(operand_name(m.op)) + " is not drawn; " + legal_ranges(drawn));
        const DrawnOperand& d = *it;
        if (m.block < 0 && d.blocks > 1)
            throw Error(head + "name the block, e.g. " + std::string(operand_name(d.op)) + "[b0][" +
                        (m.row < 0 ? "*" : std::to_string(m.row)) + "][" + (m.col < 0 ? "*" : std::to_string(m.col)) + "]: " +
                        shape_words(d));
        if (m.block >= std::max(1, d.blocks) || m.row >= d.rows || m.col >= d.cols)
            throw Error(head + "outside " + std::string(operand_name(d.op)) + ": " + shape_words(d));
        const CropWindow& w = d.window;
        const bool row_out = m.row >= 0 && (m.row < w.row0 || m.row >= w.row0 + w.rows);
        const bool col_out = m.col >= 0 && (m.col < w.col0 || m.col >= w.col0 + w.cols);
        if (w.on() && (row_out || col_out))
            throw Error(head + "outside the window drawn (--crop: " + crop_words(w, d.rows, d.cols) + ")");
        return;
    }
    if (spec.tile)
        throw Error(head + "a tile of many waves repeats every lane and register in each wave and copy, so lane: and reg: "
                           "name no one cell; legal with tile options: OP[R][C], OP[R][*], OP[*][C]");
    int lanes = 0, regs = 0;
    for (const DrawnOperand& d : drawn) lanes = std::max(lanes, d.lanes), regs = std::max(regs, d.regs);
    if (m.kind == MarkKind::Reg && m.reg >= regs)
        throw Error(head + "outside the registers of the drawn operands; " + legal_ranges(drawn));
    if (m.kind == MarkKind::Lane && m.cta < 0 && m.lane >= lanes)
        throw Error(head + "outside the lanes of the drawn operands; " + legal_ranges(drawn));
    if (m.kind == MarkKind::Lane && m.cta >= 0) {
        for (const DrawnOperand& d : drawn) {
            // core's pair model: the CTA's last lane names how many lanes each CTA has.
            const PairSlot last = pair_slot(*spec.ins, d.op, spec.mods, Location{0, d.lanes - 1, 0, 31});
            if (last.pair && m.cta <= last.cta && m.lane <= last.lane) return;
            if (last.pair)
                throw Error(head + "a cta_group::2 pair has CTAs 0\u20131, each with lanes 0\u2013" + std::to_string(last.lane) +
                            " of " + std::string(operand_name(d.op)) + " (lane:L@ctaC)");
        }
        throw Error(head + "@cta names a CTA of a cta_group::2 pair, and no operand drawn is one; legal here: lane:L; " +
                    legal_ranges(drawn));
    }
}

// What a tile shows: its operand, element, and (where one instruction is drawn) its location.
struct TileTarget {
    Operand op = Operand::A;
    Element element;
    std::optional<Location> loc;
};

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> out(1);
    for (char c : s) {
        if (c == '.') out.emplace_back();
        else out.back() += c;
    }
    return out;
}

int to_int(const std::string& s, size_t skip = 0) { return std::stoi(s.substr(skip)); }

// Tiles are named (Tile::ref, else Tile::id) "A.b.r.c.n" in the matrix view (the n-th location
// of where()) and "A.v3.l17.n" (tiles: "A.w1.v3.l17.n") in the registers view (which()'s n-th part).
class TileResolver {
public:
    explicit TileResolver(const FigureSpec& spec) : spec_(spec) {}
    std::optional<TileTarget> resolve(const Tile& t) {
        const std::vector<std::string> p = split_dots(t.ref.empty() ? t.id : t.ref);
        if (p.size() < 5) return std::nullopt;
        const std::optional<Operand> op = parse_operand(p[0]);
        if (!op) return std::nullopt;
        TileTarget out;
        out.op = *op;
        if (p[1].empty() || (p[1][0] != 'v' && p[1][0] != 'w')) {  // matrix view
            out.element = Element{to_int(p[1]), to_int(p[2]), to_int(p[3])};
            if (!spec_.tile) {
                const std::vector<Location> locs = layout(*op).where(out.element);
                const size_t n = static_cast<size_t>(to_int(p[4]));
                if (n < locs.size()) out.loc = locs[n];
            }
            return out;
        }
        const bool waved = p[1][0] == 'w';
        const int wave = waved ? to_int(p[1], 1) : 0;
        const int reg = to_int(p[waved ? 2 : 1], 1), lane = to_int(p[waved ? 3 : 2], 1);
        const size_t n = static_cast<size_t>(to_int(p[waved ? 4 : 3]));
        const std::vector<SlotPart> parts = spec_.tile ? tile(*op).which(wave, reg, lane) : layout(*op).which(reg, lane);
        if (n >= parts.size()) return std::nullopt;
        out.element = parts[n].element;
        if (!spec_.tile) out.loc = Location{reg, lane, parts[n].bit_lo, parts[n].bit_hi};
        return out;
    }

private:
    const OperandLayout& layout(Operand op) {
        auto it = layouts_.find(op);
        if (it == layouts_.end()) it = layouts_.emplace(op, layout_of(*spec_.ins, *spec_.target, op, spec_.mods)).first;
        return it->second;
    }
    const TileLayout& tile(Operand op) {
        auto it = tiles_.find(op);
        if (it == tiles_.end())
            it = tiles_.emplace(op, std::make_unique<TileLayout>(*spec_.ins, *spec_.target, op, spec_.mods, *spec_.tile)).first;
        return *it->second;
    }
    const FigureSpec& spec_;
    std::map<Operand, OperandLayout> layouts_;
    std::map<Operand, std::unique_ptr<TileLayout>> tiles_;
};

bool matches(const Mark& m, const TileTarget& t, const FigureSpec& spec) {
    switch (m.kind) {
        case MarkKind::Element:
            return m.op == t.op && (m.block < 0 || m.block == t.element.block) && (m.row < 0 || m.row == t.element.row) &&
                   (m.col < 0 || m.col == t.element.col);
        case MarkKind::Reg: return t.loc && t.loc->reg == m.reg;
        case MarkKind::Lane: {
            if (!t.loc) return false;
            if (m.cta < 0) return t.loc->lane == m.lane;
            const PairSlot p = pair_slot(*spec.ins, t.op, spec.mods, *t.loc);  // core's one model of the pair
            return p.pair && p.cta == m.cta && p.lane == m.lane;
        }
    }
    return false;
}

Rgb blend(const Rgb& a, const Rgb& b, double t) {
    auto m = [t](std::uint8_t x, std::uint8_t y) { return static_cast<std::uint8_t>(std::lround(x + (y - x) * t)); };
    return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)};
}

// The border of the union of the highlighted tiles: every tile edge no other highlighted tile
// shares, collinear touching pieces joined.
std::vector<Line> union_border(const std::vector<const Tile*>& tiles, const Rgb& color, double width) {
    using Seg = std::tuple<bool, long long, long long, long long>;  // vertical?, at, from, to (hundredths)
    // Hundredths, with edges a rounding apart (x + w of one tile, x of the next) made one.
    std::map<long long, long long> snap_x, snap_y;
    for (const Tile* t : tiles)
        for (double x : {t->x, t->x + t->w}) snap_x[std::llround(x * 100)];
    for (const Tile* t : tiles)
        for (double y : {t->y, t->y + t->h}) snap_y[std::llround(y * 100)];
    for (auto* snap : {&snap_x, &snap_y}) {
        long long last = -1000000;
        for (auto& [v, to] : *snap) to = v - last <= 2 ? last : (last = v);
    }
    auto qx = [&](double v) { return snap_x[std::llround(v * 100)]; };
    auto qy = [&](double v) { return snap_y[std::llround(v * 100)]; };
    std::map<Seg, int> count;
    for (const Tile* t : tiles) {
        const long long x1 = qx(t->x), y1 = qy(t->y), x2 = qx(t->x + t->w), y2 = qy(t->y + t->h);
        for (const Seg& s : {Seg{false, y1, x1, x2}, Seg{false, y2, x1, x2}, Seg{true, x1, y1, y2}, Seg{true, x2, y1, y2}}) ++count[s];
    }
    std::vector<Line> out;
    std::optional<Seg> run;
    auto flush = [&] {
        if (!run) return;
        const auto [vertical, at, a, b] = *run;
        const double c = static_cast<double>(at) / 100, from = static_cast<double>(a) / 100, to = static_cast<double>(b) / 100;
        out.push_back(vertical ? Line{c, from, c, to, color, width} : Line{from, c, to, c, color, width});
        run.reset();
    };
    for (const auto& [s, n] : count) {  // sorted by orientation, line, start: runs are neighbours
        if (n != 1) continue;
        if (run && std::get<0>(*run) == std::get<0>(s) && std::get<1>(*run) == std::get<1>(s) && std::get<3>(*run) == std::get<2>(s)) {
            std::get<3>(*run) = std::get<3>(s);
            continue;
        }
        flush();
        run = s;
    }
    flush();
    return out;
}

// Cells under this many units are hard to find in a large operand: thin guides lead to the
// highlighted ones from the panel's left and top edges, where the row and column indices are.
constexpr double kTinyCell = 4;

std::string operand_of(const Tile& t) {
    const std::string& name = t.ref.empty() ? t.id : t.ref;
    return name.substr(0, name.find('.'));
}

// A guide from the panel's left edge to the first highlighted cell of each row, and from its top
// edge to the first of each column (the panel: the extent of its operand's tiles), for operands
// whose highlighted cells are tiny; only along a direction with a few highlighted rows (columns):
// a whole highlighted row or column needs none.
constexpr size_t kMostGuides = 4;
void guides(Figure& f, const std::vector<const Tile*>& lit, const Rgb& color) {
    std::map<std::string, std::pair<double, double>> origin;  // operand -> (left, top)
    for (const Tile& t : f.tiles) {
        auto [it, fresh] = origin.emplace(operand_of(t), std::make_pair(t.x, t.y));
        if (!fresh) it->second = {std::min(it->second.first, t.x), std::min(it->second.second, t.y)};
    }
    std::map<std::pair<std::string, long long>, double> row_end, col_end;  // (operand, centre) -> first cell's edge
    for (const Tile* t : lit) {
        const std::string op = operand_of(*t);
        if (std::min(t->w, t->h) >= kTinyCell) continue;
        auto r = row_end.emplace(std::make_pair(op, std::llround((t->y + t->h / 2) * 100)), t->x).first;
        r->second = std::min(r->second, t->x);
        auto c = col_end.emplace(std::make_pair(op, std::llround((t->x + t->w / 2) * 100)), t->y).first;
        c->second = std::min(c->second, t->y);
    }
    auto count = [](const auto& ends, const std::string& op) {
        size_t n = 0;
        for (const auto& [key, edge] : ends) n += key.first == op;
        return n;
    };
    const double width = 0.6;
    for (const auto& [key, x] : row_end)
        if (x > origin[key.first].first && count(row_end, key.first) <= kMostGuides)
            f.highlight.push_back({origin[key.first].first, key.second / 100.0, x, key.second / 100.0, color, width});
    for (const auto& [key, y] : col_end)
        if (y > origin[key.first].second && count(col_end, key.first) <= kMostGuides)
            f.highlight.push_back({key.second / 100.0, origin[key.first].second, key.second / 100.0, y, color, width});
}

}  // namespace

CropWindow parse_crop(const std::string& text, Operand op, int rows, int cols) {
    if (text.empty()) return {};
    std::string_view s = text;
    CropWindow w;
    if (!take_number(s, w.rows) || !take(s, "x") || !take_number(s, w.cols) || !take(s, "@") || !take_number(s, w.row0) ||
        !take(s, ",") || !take_number(s, w.col0) || !s.empty())
        throw Error("bad --crop '" + text + "'; " + kCropGrammar + "; " + std::string(operand_name(op)) + " is " +
                    std::to_string(rows) + " x " + std::to_string(cols));
    if (w.rows < 1 || w.cols < 1 || w.row0 + w.rows > rows || w.col0 + w.cols > cols)
        throw Error("--crop " + text + " leaves " + std::string(operand_name(op)) + ", which is " + std::to_string(rows) + " x " +
                    std::to_string(cols) + " (rows 0\u2013" + std::to_string(rows - 1) + ", columns 0\u2013" +
                    std::to_string(cols - 1) + "); legal: ROWS, COLS from 1 with R+ROWS <= " + std::to_string(rows) +
                    " and C+COLS <= " + std::to_string(cols));
    return w;
}

std::string crop_words(const CropWindow& w, int rows, int cols) {
    return "rows " + span(w.row0, w.rows) + ", columns " + span(w.col0, w.cols) + " of " + std::to_string(rows) + " x " +
           std::to_string(cols);
}

void apply_highlight(Figure& f, const FigureSpec& spec, const std::vector<DrawnOperand>& drawn) {
    if (spec.highlight.empty()) return;
    const std::vector<Mark> marks = parse_marks(spec.highlight, drawn);
    for (const Mark& m : marks) check_mark(m, spec, drawn);
    TileResolver resolver(spec);
    std::vector<bool> hit(marks.size(), false);
    std::vector<const Tile*> lit;
    double smallest = 1e9;
    for (Tile& t : f.tiles) {
        const std::optional<TileTarget> target = resolver.resolve(t);
        for (size_t n = 0; target && n < marks.size(); ++n)
            if (matches(marks[n], *target, spec)) hit[n] = t.highlighted = true;
        if (t.highlighted) lit.push_back(&t), smallest = std::min({smallest, t.w, t.h});
    }
    for (size_t n = 0; n < marks.size(); ++n)
        if (!hit[n])
            throw Error("--highlight " + marks[n].text + ": names no cell drawn here (held by no lane under these modifiers" +
                        std::string(std::any_of(drawn.begin(), drawn.end(), [](const DrawnOperand& d) { return d.window.on(); })
                                        ? ", or not in the window"
                                        : "") +
                        "); " + legal_ranges(drawn));
    // The rest dimmed towards the background, its text with it; the highlight in the theme's
    // highlight colour (the app's selection), a border about a fifth of the smallest cell.
    const ThemeColors tc = theme_colors(spec.theme);
    for (Tile& t : f.tiles)
        if (!t.highlighted) {
            t.fill = blend(t.fill, tc.background, 0.7);
            t.ink = blend(text_on(t.fill), tc.background, 0.45);
        }
    const double width = std::clamp(smallest / 5, 1.5, 3.0);
    f.highlight = union_border(lit, tc.highlight, width);
    if (smallest < kTinyCell) guides(f, lit, tc.highlight);
    f.notes.push_back("highlighted: " + spec.highlight + " (" + std::to_string(lit.size()) + " tile" + (lit.size() == 1 ? "" : "s") +
                      " outlined in " + tc.highlight.hex() + ", the others dimmed)");
}

}  // namespace lanescope::figures
