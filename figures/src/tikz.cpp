// TikZ serialiser: a standalone LaTeX document with one tikzpicture, like
// CuTe's print_latex. One user unit is 0.5 pt; y grows downwards as in SVG.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"

#include <cmath>
#include <map>

namespace lanescope::figures {

namespace {

constexpr double kPtPerUnit = 0.5;

std::string latex_text(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        const std::uint32_t cp = next_codepoint(s, i);
        switch (cp) {
            case '\\': out += "\\textbackslash{}"; break;
            case '{': out += "\\{"; break;
            case '}': out += "\\}"; break;
            case '_': out += "\\_"; break;
            case '#': out += "\\#"; break;
            case '$': out += "\\$"; break;
            case '%': out += "\\%"; break;
            case '&': out += "\\&"; break;
            case '~': out += "\\textasciitilde{}"; break;
            case '^': out += "\\textasciicircum{}"; break;
            case 0xB7: out += "$\\cdot$"; break;
            case 0xD7: out += "$\\times$"; break;
            case 0x2192: out += "$\\to$"; break;
            case 0x2014: out += "---"; break;
            default:
                if (cp < 0x80) out += static_cast<char>(cp);
                else out += '?';
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
    body += "% tiles: one node per (element, location)\n";
    for (size_t i = 0; i < f.tiles.size(); ++i) {
        const Tile& t = f.tiles[i];
        if (t.id.empty()) {
            // An anonymous tile (a tile figure drawn as colours only): a fill, a
            // run of touching same-coloured tiles of a row at once without the grid.
            double w = t.w;
            while (!f.tile_grid && i + 1 < f.tiles.size() && f.tiles[i + 1].id.empty() && f.tiles[i + 1].fill == t.fill &&
                   f.tiles[i + 1].y == t.y && f.tiles[i + 1].h == t.h && std::abs(f.tiles[i + 1].x - (t.x + w)) < 1e-6)
                w += f.tiles[++i].w;
            body += f.tile_grid ? "\\filldraw[fill=" + colors.name(t.fill) + ", draw=" + colors.name(f.tile_stroke) + ", line width=0.25pt] "
                                : "\\fill[" + colors.name(t.fill) + "] ";
            point(body, t.x, t.y);
            body += " rectangle ";
            point(body, t.x + w, t.y + t.h);
            body += ";\n";
            continue;
        }
        body += "\\node[tile, fill=" + colors.name(t.fill) + ", text=" + colors.name(t.ink) + ", minimum width=";
        pt(body, t.w);
        body += ", minimum height=";
        pt(body, t.h);
        std::string name = t.id;  // TikZ reads a dot in a node name as an anchor
        for (char& c : name)
            if (c == '.') c = '-';
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
    out += "\\documentclass[tikz,border=2pt]{standalone}\n"
           "\\renewcommand{\\familydefault}{\\sfdefault}\n";
    out += colors.definitions();
    out += "\\begin{document}\n\\begin{tikzpicture}[x=";
    append_number(out, kPtPerUnit);
    out += "pt, y=-";
    append_number(out, kPtPerUnit);
    out += "pt,\n  tile/.style={draw=" + colors.name(f.tile_stroke) +
           ", line width=0.25pt, anchor=north west, inner sep=0pt, outer sep=0pt, align=center, font=" +
           font_cmd(f.tile_font) + "},\n  label text/.style={inner sep=0pt}]\n";
    out += body;
    out += "\\end{tikzpicture}\n\\end{document}\n";
    return out;
}

}  // namespace lanescope::figures
