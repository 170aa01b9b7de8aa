// SVG 1.1 serialiser of the figure model. Text stays <text> (searchable,
// selectable); fonts are named by family with generic fall-backs.
//
// Compact by construction, because the gallery holds thousands of figures:
// one <style> holds what many elements share (fonts, tile stroke, text
// styles as classes); the tiles of one fill colour are one <path>, with runs
// of neighbouring tiles merged, and the tile borders one grid <path> of merged
// lines; the labels of a row of tiles are one <text> per label line, one
// <tspan> per tile; other texts of one style sit in one <g class>; numbers
// carry at most two decimals. Each tile stays addressable: the first line of
// its label is a <tspan id="...">, its further lines the id-less tspans at the
// same x below it.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace lanescope::figures {

namespace {

void attr(std::string& out, const char* name, double v) {
    out += ' ';
    out += name;
    out += "=\"";
    append_number(out, v);
    out += '"';
}

const char* anchor_word(Anchor a) {
    switch (a) {
        case Anchor::Start: return "start";
        case Anchor::Middle: return "middle";
        case Anchor::End: return "end";
    }
    return "start";
}

// "M50 100h91v26h-91z": one rectangle as a closed subpath.
void rect_path(std::string& d, double x, double y, double w, double h) {
    d += 'M';
    append_number(d, x);
    d += ' ';
    append_number(d, y);
    d += 'h';
    append_number(d, w);
    d += 'v';
    append_number(d, h);
    d += 'h';
    append_number(d, -w);
    d += 'z';
}

// Keeps the order in which keys first appear, so output is deterministic.
template <class Key>
class Groups {
public:
    std::string& operator[](const Key& k) {
        auto it = index_.find(k);
        if (it == index_.end()) {
            it = index_.emplace(k, items_.size()).first;
            items_.push_back({k, std::string()});
        }
        return items_[it->second].second;
    }
    const std::vector<std::pair<Key, std::string>>& items() const { return items_; }

private:
    std::map<Key, size_t> index_;
    std::vector<std::pair<Key, std::string>> items_;
};

// Tile borders as merged lines: every tile edge, collinear touching pieces
// joined, so a regular grid costs one line per row and column boundary.
class GridLines {
public:
    void add_rect(double x, double y, double w, double h) {
        horizontal_.push_back({key(y), key(x), key(x + w)});
        horizontal_.push_back({key(y + h), key(x), key(x + w)});
        vertical_.push_back({key(x), key(y), key(y + h)});
        vertical_.push_back({key(x + w), key(y), key(y + h)});
    }
    void append_path(std::string& d) {
        emit(d, horizontal_, 'H', true);
        emit(d, vertical_, 'V', false);
    }

private:
    struct Seg {
        long long at, a, b;  // hundredths of a unit
        bool operator<(const Seg& o) const { return at != o.at ? at < o.at : a < o.a; }
    };
    static long long key(double v) { return std::llround(v * 100); }
    static void number(std::string& d, long long hundredths) { append_number(d, static_cast<double>(hundredths) / 100); }
    static void emit(std::string& d, std::vector<Seg>& segs, char cmd, bool horizontal) {
        std::sort(segs.begin(), segs.end());
        for (size_t i = 0; i < segs.size();) {
            Seg cur = segs[i++];
            while (i < segs.size() && segs[i].at == cur.at && segs[i].a <= cur.b) cur.b = std::max(cur.b, segs[i++].b);
            d += 'M';
            number(d, horizontal ? cur.a : cur.at);
            d += ' ';
            number(d, horizontal ? cur.at : cur.a);
            d += cmd;
            number(d, cur.b);
        }
    }
    std::vector<Seg> horizontal_, vertical_;
};

// FigureSpec::highlight: the outline as one path, then each highlighted tile as an unfilled,
// unstroked rectangle named "hl-" and the tile's name (for scripts, and the tests, to find).
void append_highlight(std::string& out, const Figure& f) {
    if (f.highlight.empty()) return;
    // The outline (the first line's width), then the guides to tiny cells (another width).
    std::string d_outline, guides;
    for (const Line& l : f.highlight) {
        std::string& d = l.width == f.highlight.front().width ? d_outline : guides;
        d += 'M';
        append_number(d, l.x1);
        d += ' ';
        append_number(d, l.y1);
        d += 'L';
        append_number(d, l.x2);
        d += ' ';
        append_number(d, l.y2);
    }
    out += "<path id=\"highlight\" fill=\"none\" stroke=\"" + f.highlight.front().color.hex() + "\"";
    attr(out, "stroke-width", f.highlight.front().width);
    out += " stroke-linecap=\"square\" d=\"" + d_outline + "\"/>\n";
    for (const Line& l : f.highlight)
        if (l.width != f.highlight.front().width) {
            out += "<path id=\"highlight-guides\" fill=\"none\" stroke=\"" + l.color.hex() + "\"";
            attr(out, "stroke-width", l.width);
            out += " d=\"" + guides + "\"/>\n";
            break;
        }
    out += "<g id=\"highlighted\" fill=\"none\">\n";
    for (const Tile& t : f.tiles) {
        if (!t.highlighted) continue;
        out += "<rect id=\"hl-" + (t.ref.empty() ? t.id : t.ref) + "\"";
        attr(out, "x", t.x);
        attr(out, "y", t.y);
        attr(out, "width", t.w);
        attr(out, "height", t.h);
        out += "/>\n";
    }
    out += "</g>\n";
}

}  // namespace

std::string to_svg(const Figure& f) {
    // Tile fills: one path per colour, runs of touching tiles of a row merged.
    Groups<std::string> tile_paths;
    GridLines grid;
    std::map<std::string, size_t> ink_count;
    for (size_t i = 0; i < f.tiles.size();) {
        const Tile& t = f.tiles[i];
        double w = t.w;
        size_t j = i + 1;
        while (j < f.tiles.size() && f.tiles[j].fill == t.fill && f.tiles[j].y == t.y && f.tiles[j].h == t.h &&
               std::abs(f.tiles[j].x - (t.x + w)) < 1e-6)
            w += f.tiles[j++].w;
        rect_path(tile_paths[t.fill.hex()], t.x, t.y, w, t.h);
        i = j;
    }
    for (const Tile& t : f.tiles) {
        if (f.tile_grid) grid.add_rect(t.x, t.y, t.w, t.h);
        if (!t.id.empty()) ++ink_count[t.ink.hex()];
    }
    std::string main_ink = ink_count.empty() ? std::string("#000000") : ink_count.begin()->first;
    if (!f.tiles.empty() && !f.tiles.front().id.empty()) main_ink = f.tiles.front().ink.hex();
    for (const auto& [ink, n] : ink_count)
        if (n > ink_count[main_ink]) main_ink = ink;
    std::map<std::string, std::string> ink_class;  // other inks -> "i1", "i2", ...
    for (const auto& [ink, n] : ink_count)
        if (ink != main_ink) ink_class.emplace(ink, "i" + std::to_string(ink_class.size() + 1));

    // Other texts: one class per style (size, anchor, weight, colour).
    using Style = std::tuple<double, int, bool, std::string>;
    Groups<Style> text_groups;
    for (const Text& t : f.texts) {
        std::string& g = text_groups[Style{t.size, static_cast<int>(t.anchor), t.bold, t.color.hex()}];
        g += "<text";
        attr(g, "x", t.x);
        attr(g, "y", t.y);
        g += '>';
        append_xml(g, t.text);
        g += "</text>\n";
    }

    std::string out;
    out.reserve(4096 + f.tiles.size() * 64 + f.texts.size() * 40);
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"";
    attr(out, "width", f.width);
    attr(out, "height", f.height);
    out += " viewBox=\"0 0 ";
    append_number(out, f.width);
    out += ' ';
    append_number(out, f.height);
    out += "\">\n<title>";
    append_xml(out, f.title + " \u2014 " + f.subtitle);
    out += "</title>\n";
    for (const std::string& note : f.notes) {
        out += "<desc>";
        append_xml(out, note);
        out += "</desc>\n";
    }
    out += "<style type=\"text/css\">\n"
           "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif}\n"
           ".t text{font-size:";
    append_number(out, f.tile_font);
    out += "px;text-anchor:middle;fill:" + main_ink + "}\n";
    for (const auto& [ink, cls] : ink_class) out += "." + cls + "{fill:" + ink + "}\n";
    for (size_t n = 0; n < text_groups.items().size(); ++n) {
        const auto& [size, anchor, bold, color] = text_groups.items()[n].first;
        out += ".s" + std::to_string(n) + "{font-size:";
        append_number(out, size);
        out += "px;fill:" + color;
        if (anchor != static_cast<int>(Anchor::Start))
            out += std::string(";text-anchor:") + anchor_word(static_cast<Anchor>(anchor));
        if (bold) out += ";font-weight:bold";
        out += "}\n";
    }
    out += "</style>\n<rect x=\"0\" y=\"0\"";
    attr(out, "width", f.width);
    attr(out, "height", f.height);
    out += " fill=\"" + f.background.hex() + "\"/>\n";

    // Boxes (empty cells, legend swatches): one path per look.
    Groups<std::tuple<std::string, std::string, double>> box_paths;
    for (const Box& b : f.boxes)
        rect_path(box_paths[{b.filled ? b.fill.hex() : std::string("none"), b.stroke_width > 0 ? b.stroke.hex() : "",
                             b.stroke_width}],
                  b.x, b.y, b.w, b.h);
    for (const auto& [look, d] : box_paths.items()) {
        out += "<path fill=\"" + std::get<0>(look) + "\"";
        if (std::get<2>(look) > 0) {
            out += " stroke=\"" + std::get<1>(look) + "\"";
            attr(out, "stroke-width", std::get<2>(look));
        }
        out += " d=\"" + d + "\"/>\n";
    }

    out += "<g class=\"t\">\n";
    for (const auto& [fill, d] : tile_paths.items()) out += "<path fill=\"" + fill + "\" d=\"" + d + "\"/>\n";
    if (!f.tiles.empty() && f.tile_grid) {
        out += "<path fill=\"none\" stroke=\"" + f.tile_stroke.hex() + "\" stroke-width=\"0.5\" stroke-linecap=\"square\" d=\"";
        grid.append_path(out);
        out += "\"/>\n";
    }
    // Labels: a run of tiles whose first lines share a baseline is one <text>
    // per line, one <tspan> per tile.
    for (size_t i = 0; i < f.tiles.size();) {
        if (f.tiles[i].id.empty()) {  // an anonymous tile (colours only): no text
            ++i;
            continue;
        }
        auto baseline = [&](const Tile& t) {
            return t.y + (t.h - f.tile_line * static_cast<double>(t.lines.size())) / 2 + f.tile_line * 0.78;
        };
        const double y0 = baseline(f.tiles[i]);
        size_t j = i, lines = 0;
        // A tile without label lines (a fitted figure) still gets its id'd tspan.
        while (j < f.tiles.size() && !f.tiles[j].id.empty() && std::abs(baseline(f.tiles[j]) - y0) < 1e-6)
            lines = std::max({lines, size_t{1}, f.tiles[j++].lines.size()});
        for (size_t n = 0; n < lines; ++n) {
            out += "<text";
            attr(out, "y", y0 + static_cast<double>(n) * f.tile_line);
            out += '>';
            for (size_t k = i; k < j; ++k) {
                const Tile& t = f.tiles[k];
                if (n >= std::max(size_t{1}, t.lines.size())) continue;
                out += "<tspan";
                if (n == 0) out += " id=\"" + t.id + "\"";
                const std::string ink = t.ink.hex();
                if (ink != main_ink) out += " class=\"" + ink_class[ink] + "\"";
                attr(out, "x", t.x + t.w / 2);
                out += '>';
                if (n < t.lines.size()) append_xml(out, t.lines[n]);
                out += "</tspan>";
            }
            out += "</text>\n";
        }
        i = j;
    }
    out += "</g>\n";

    // Block frames: one path per colour and width.
    Groups<std::pair<std::string, double>> line_paths;
    for (const Line& l : f.lines) {
        std::string& d = line_paths[{l.color.hex(), l.width}];
        d += 'M';
        append_number(d, l.x1);
        d += ' ';
        append_number(d, l.y1);
        d += 'L';
        append_number(d, l.x2);
        d += ' ';
        append_number(d, l.y2);
    }
    for (const auto& [look, d] : line_paths.items()) {
        out += "<path fill=\"none\" stroke=\"" + look.first + "\"";
        attr(out, "stroke-width", look.second);
        out += " stroke-linecap=\"square\" d=\"" + d + "\"/>\n";
    }

    append_highlight(out, f);
    for (size_t n = 0; n < text_groups.items().size(); ++n)
        out += "<g class=\"s" + std::to_string(n) + "\">\n" + text_groups.items()[n].second + "</g>\n";
    // Hover titles: a transparent rectangle over each tile, on top of everything, carrying its text.
    if (f.hover_titles) {
        out += "<g fill=\"#000\" fill-opacity=\"0\">\n";
        for (const Tile& t : f.tiles) {
            if (t.hover.empty()) continue;
            out += "<rect";
            attr(out, "x", t.x);
            attr(out, "y", t.y);
            attr(out, "width", t.w);
            attr(out, "height", t.h);
            out += "><title>";
            append_xml(out, t.hover);
            out += "</title></rect>\n";
        }
        out += "</g>\n";
    }
    out += "</svg>\n";
    return out;
}

}  // namespace lanescope::figures
