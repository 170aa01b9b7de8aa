// TikZ serialiser: a standalone LaTeX document with one tikzpicture, like
// CuTe's print_latex. One user unit is 0.5 pt; y grows downwards as in SVG.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <tuple>
#include <map>
#include <vector>

namespace lanescope::figures {

namespace {

constexpr double kPtPerUnit = 0.5;

// LaTeX for the characters lanescope writes that TeX does not take as they are
// (the default OT1 encoding: '<' '>' '|' '"' print other glyphs there), and
// for every non-ASCII character the figure model writes (core's lane ranges
// "T12–15", the "·" separators, "→" of transpose loads, "§" of sources, "—"
// of evidence) and a few more a user's catalog may bring; nullptr for a
// character with no entry.
const char* latex_for(std::uint32_t cp) {
    switch (cp) {
        case '\\': return "\\textbackslash{}";
        case '{': return "\\{";
        case '}': return "\\}";
        case '_': return "\\_";
        case '#': return "\\#";
        case '$': return "\\$";
        case '%': return "\\%";
        case '&': return "\\&";
        case '~': return "\\textasciitilde{}";
        case '^': return "\\textasciicircum{}";
        case '<': return "\\textless{}";
        case '>': return "\\textgreater{}";
        case '|': return "\\textbar{}";
        case '"': return "''";
        case 0xA0: return "~";                     // no-break space
        case 0xA7: return "\\S{}";                 // §
        case 0xB0: return "\\ensuremath{^\\circ}";  // °
        case 0xB1: return "\\ensuremath{\\pm}";
        case 0xB2: return "\\ensuremath{^2}";
        case 0xB5: return "\\ensuremath{\\mu}";    // µ
        case 0xB7: return "\\ensuremath{\\cdot}";  // ·
        case 0xD7: return "\\ensuremath{\\times}";
        case 0x3BC: return "\\ensuremath{\\mu}";   // μ
        case 0x2009: return "\\,";                 // thin space
        case 0x2013: return "--";                  // en dash
        case 0x2014: return "---";                 // em dash
        case 0x2018: return "`";
        case 0x2019: return "'";
        case 0x201C: return "``";
        case 0x201D: return "''";
        case 0x2022: return "\\ensuremath{\\bullet}";
        case 0x2026: return "\\ldots{}";
        case 0x2190: return "\\ensuremath{\\leftarrow}";
        case 0x2192: return "\\ensuremath{\\to}";
        case 0x2194: return "\\ensuremath{\\leftrightarrow}";
        case 0x2212: return "\\ensuremath{-}";     // minus sign
        case 0x221E: return "\\ensuremath{\\infty}";
        case 0x2248: return "\\ensuremath{\\approx}";
        case 0x2260: return "\\ensuremath{\\neq}";
        case 0x2264: return "\\ensuremath{\\leq}";
        case 0x2265: return "\\ensuremath{\\geq}";
    }
    return nullptr;
}

std::string latex_text(std::string_view s) {
    std::string out;
    auto put = [&](std::string_view t) {
        // TeX joins "--" into a dash: a hyphen after a hyphen stays a hyphen.
        if (!t.empty() && t.front() == '-' && !out.empty() && out.back() == '-') out += "{}";
        out += t;
    };
    for (size_t i = 0; i < s.size();) {
        const std::uint32_t cp = next_codepoint(s, i);
        if (const char* l = latex_for(cp)) {
            put(l);
        } else if (cp >= 0x20 && cp < 0x7F) {
            put(std::string(1, static_cast<char>(cp)));
        } else if (cp == '\n' || cp == '\t') {
            put(" ");
        } else {
            // No entry (or bad UTF-8, U+FFFD): the code point itself, never a silent '?'.
            char buf[16];
            std::snprintf(buf, sizeof buf, "[U+%04X]", static_cast<unsigned>(cp));
            put(buf);
        }
    }
    return out;
}

class Colors {
public:
    const std::string& name(const Rgb& c) {
        const std::string hex = c.hex().substr(1);
        auto it = names_.find(hex);
        if (it != names_.end()) return it->second;
        std::string n = "ls" + std::to_string(names_.size());
        defs_ += "\\definecolor{" + n + "}{HTML}{" + hex + "}\n";
        return names_.emplace(hex, n).first->second;
    }
    const std::string& definitions() const { return defs_; }

private:
    std::map<std::string, std::string> names_;
    std::string defs_;
};

void point(std::string& out, double x, double y) {
    out += '(';
    append_number(out, x);
    out += ',';
    append_number(out, y);
    out += ')';
}

void pt(std::string& out, double units) {
    append_number(out, units * kPtPerUnit);
    out += "pt";
}

std::string font_cmd(double size_units) {
    std::string s = "\\fontsize{";
    append_number(s, size_units * kPtPerUnit);
    s += "}{";
    append_number(s, size_units * kPtPerUnit * 1.17);
    s += "}\\selectfont";
    return s;
}

}  // namespace

std::string to_tikz(const Figure& f) {
    Colors colors;
    std::string body;
    body.reserve(f.tiles.size() * 160 + 4096);
    body += "\\fill[";
    body += colors.name(f.background);
    body += "] (0,0) rectangle ";
    point(body, f.width, f.height);
    body += ";\n";
    for (const Box& b : f.boxes) {
        body += b.stroke_width > 0 ? "\\filldraw[" : "\\fill[";
        body += "fill=" + colors.name(b.fill);
        if (b.stroke_width > 0) {
            body += ", draw=" + colors.name(b.stroke) + ", line width=";
            pt(body, b.stroke_width);
        }
        body += "] ";
        point(body, b.x, b.y);
        body += " rectangle ";
        point(body, b.x + b.w, b.y + b.h);
        body += ";\n";
    }
    // Tiles. TeX keeps the whole picture in its main memory (5,000,000 words by
    // default) until the page is shipped, so a figure of thousands of tiles must
    // be few, short paths: the tiles of one colour are one \fill of rectangles
    // (touching tiles merged along rows, then equal runs down columns), the
    // grid one \draw of merged horizontal and vertical lines, and only a
    // labelled tile is a \node (its label). Paths are split every kPerPath parts.
    constexpr int kPerPath = 400;
    auto q = [](double v) { return std::llround(v * 100); };  // hundredths: the precision written
    struct Rect {
        long long x1, y1, x2, y2;
    };
    std::map<std::string, std::vector<Rect>> fills;  // colour name -> rectangles
    std::vector<std::string> order;
    std::map<long long, std::vector<std::pair<long long, long long>>> hlines, vlines;  // y -> [x1,x2]; x -> [y1,y2]
    for (const Tile& t : f.tiles) {
        const Rect r{q(t.x), q(t.y), q(t.x + t.w), q(t.y + t.h)};
        const std::string& c = colors.name(t.fill);
        auto it = fills.find(c);
        if (it == fills.end()) it = fills.emplace(c, std::vector<Rect>{}).first, order.push_back(c);
        it->second.push_back(r);
        if (f.tile_grid) {
            hlines[r.y1].push_back({r.x1, r.x2});
            hlines[r.y2].push_back({r.x1, r.x2});
            vlines[r.x1].push_back({r.y1, r.y2});
            vlines[r.x2].push_back({r.y1, r.y2});
        }
    }
    auto merge = [](std::vector<std::pair<long long, long long>>& v) {
        std::sort(v.begin(), v.end());
        std::vector<std::pair<long long, long long>> out;
        for (const auto& s : v) {
            if (!out.empty() && s.first <= out.back().second) out.back().second = std::max(out.back().second, s.second);
            else out.push_back(s);
        }
        v = std::move(out);
    };
    auto coord = [](std::string& out, long long x, long long y) {
        out += '(';
        append_number(out, static_cast<double>(x) / 100);
        out += ',';
        append_number(out, static_cast<double>(y) / 100);
        out += ')';
    };
    body += "% tiles: one rectangle per run of (element, location)s of a colour; then the grid\n";
    for (const std::string& c : order) {
        std::vector<Rect>& rs = fills[c];
        // Along rows: touching rectangles of one height.
        std::sort(rs.begin(), rs.end(), [](const Rect& a, const Rect& b) {
            return std::tie(a.y1, a.y2, a.x1) < std::tie(b.y1, b.y2, b.x1);
        });
        std::vector<Rect> row;
        for (const Rect& r : rs) {
            if (!row.empty() && row.back().y1 == r.y1 && row.back().y2 == r.y2 && row.back().x2 == r.x1) row.back().x2 = r.x2;
            else row.push_back(r);
        }
        // Down columns: equal runs that touch.
        std::sort(row.begin(), row.end(), [](const Rect& a, const Rect& b) {
            return std::tie(a.x1, a.x2, a.y1) < std::tie(b.x1, b.x2, b.y1);
        });
        std::vector<Rect> merged;
        for (const Rect& r : row) {
            if (!merged.empty() && merged.back().x1 == r.x1 && merged.back().x2 == r.x2 && merged.back().y2 == r.y1)
                merged.back().y2 = r.y2;
            else merged.push_back(r);
        }
        for (size_t i = 0; i < merged.size(); ++i) {
            if (i % kPerPath == 0) body += (i ? ";\n\\fill[" : "\\fill[") + c + "]";
            body += ' ';
            coord(body, merged[i].x1, merged[i].y1);
            body += " rectangle ";
            coord(body, merged[i].x2, merged[i].y2);
        }
        body += ";\n";
    }
    if (f.tile_grid) {
        std::string grid;
        int n = 0;
        auto segment = [&](long long x1, long long y1, long long x2, long long y2) {
            if (n++ % kPerPath == 0) grid += (n > 1 ? ";\n\\draw[" : "\\draw[") + colors.name(f.tile_stroke) + ", line width=0.25pt]";
            grid += ' ';
            coord(grid, x1, y1);
            grid += " -- ";
            coord(grid, x2, y2);
        };
        for (auto& [y, v] : hlines) {
            merge(v);
            for (const auto& s : v) segment(s.first, y, s.second, y);
        }
        for (auto& [x, v] : vlines) {
            merge(v);
            for (const auto& s : v) segment(x, s.first, x, s.second);
        }
        if (n) body += grid + ";\n";
    }
    body += "% tile labels: one node per labelled tile, named by its id\n";
    for (const Tile& t : f.tiles) {
        if (t.lines.empty()) continue;
        body += "\\node[tile, text=" + colors.name(t.ink) + ", minimum width=";
        pt(body, t.w);
        body += ", minimum height=";
        pt(body, t.h);
        std::string name = t.id;  // TikZ reads a dot in a node name as an anchor
        for (char& ch : name)
            if (ch == '.') ch = '-';
        body += "] (" + name + ") at ";
        point(body, t.x, t.y);
        body += " {";
        for (size_t n = 0; n < t.lines.size(); ++n) {
            if (n) body += "\\\\";
            body += latex_text(t.lines[n]);
        }
        body += "};\n";
    }
    for (const Line& l : f.lines) {
        body += "\\draw[" + colors.name(l.color) + ", line width=";
        pt(body, l.width);
        body += "] ";
        point(body, l.x1, l.y1);
        body += " -- ";
        point(body, l.x2, l.y2);
        body += ";\n";
    }
    if (!f.highlight.empty()) body += "% highlight: the border of the highlighted tiles (--highlight)\n";
    for (const Line& l : f.highlight) {
        body += "\\draw[" + colors.name(l.color) + ", line width=";
        pt(body, l.width);
        body += ", line cap=rect] ";
        point(body, l.x1, l.y1);
        body += " -- ";
        point(body, l.x2, l.y2);
        body += ";\n";
    }
    for (const Text& t : f.texts) {
        body += "\\node[label text, text=" + colors.name(t.color) + ", anchor=";
        body += t.anchor == Anchor::Start ? "base west" : t.anchor == Anchor::Middle ? "base" : "base east";
        body += ", font=" + font_cmd(t.size) + (t.bold ? "\\bfseries" : "") + "] at ";
        point(body, t.x, t.y);
        body += " {" + latex_text(t.text) + "};\n";
    }

    std::string out;
    out.reserve(body.size() + 2048);
    out += "% lanescope figure: " + latex_text(f.title) + "\n% " + latex_text(f.subtitle) + "\n";
    for (const std::string& note : f.notes) out += "% note: " + latex_text(note) + "\n";
    if (f.page_fit.applied) out += "% note: " + latex_text(page_fit_note(f, FigureFormat::Tikz)) + "\n";
    out += "\\documentclass[tikz,border=2pt]{standalone}\n"
           "\\renewcommand{\\familydefault}{\\sfdefault}\n";
    out += colors.definitions();
    out += "\\begin{document}\n\\begin{tikzpicture}[x=";
    append_number(out, kPtPerUnit);
    out += "pt, y=-";
    append_number(out, kPtPerUnit);
    out += "pt,\n  tile/.style={anchor=north west, inner sep=0pt, outer sep=0pt, align=center, font=" +
           font_cmd(f.tile_font) + "},\n  label text/.style={inner sep=0pt}]\n";
    out += body;
    out += "\\end{tikzpicture}\n\\end{document}\n";
    return out;
}

}  // namespace lanescope::figures
