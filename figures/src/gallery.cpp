// The gallery: every instruction of the catalog as SVG figures, a facts page
// per instruction and one index.html with filters. Everything is inline and
// relative, so it opens from the file system with no server and no network.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"
#include "lanescope/files.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <chrono>
#include <filesystem>
#include <optional>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <unistd.h>

namespace lanescope::figures {

namespace fs = std::filesystem;

void write_file_atomic(const std::string& path, const std::string& bytes) { files::write_file(path, bytes); }

namespace {

constexpr const char* kMarker = ".lanescope-gallery";

std::string html(std::string_view s) {
    std::string out;
    append_xml(out, s);
    return out;
}

bool same_entries(const std::vector<Entry>& a, const std::vector<Entry>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!(a[i].element == b[i].element) || !(a[i].loc == b[i].loc)) return false;
    return true;
}

// The modifier settings that move data: each value of each such modifier on
// its own, and under every cbsz value each abid value it allows (the pair
// decides which block's A is broadcast, or which sparse-index set is read).
std::vector<ResolvedModifiers> data_variants(const Instruction& ins, const Target& t, int wave) {
    Modifiers base;
    base.wave = wave;
    const ResolvedModifiers def = resolve_modifiers(ins, t, base);
    std::vector<ResolvedModifiers> out;
    std::set<std::string> seen{def.describe()};
    auto add = [&](const Modifiers& m) {
        try {
            ResolvedModifiers r = resolve_modifiers(ins, t, m);
            if (seen.insert(r.describe()).second) out.push_back(r);
        } catch (const Error&) {
            // Not a legal combination: nothing to draw.
        }
    };
    for (const ModifierRange& r : modifier_ranges(ins, t, def)) {
        if (!r.moves_data || r.name == "wave") continue;
        for (int v : r.values) {
            if (v == modifier_value(def, r.name)) continue;
            Modifiers m = base;
            set_modifier(m, r.name, v);
            add(m);
            if (r.name != "cbsz") continue;
            try {
                for (const ModifierRange& r2 : modifier_ranges(ins, t, resolve_modifiers(ins, t, m)))
                    if (r2.name == "abid" && r2.moves_data)
                        for (int a : r2.values) {
                            Modifiers m2 = m;
                            m2.abid = a;
                            add(m2);
                        }
            } catch (const Error&) {
            }
        }
    }
    return out;
}

// The gallery keeps a representative subset of wgmma's N (every N is one more
// copy of the same 16x8 tile pattern; `figure` draws any N): these values.
constexpr int kGalleryWgmmaN[] = {8, 64, 128};
bool in_gallery(const Instruction& ins) {
    if (ins.kind != LayoutKind::Wgmma) return true;
    return std::find(std::begin(kGalleryWgmmaN), std::end(kGalleryWgmmaN), ins.n) != std::end(kGalleryWgmmaN);
}

// Blackwell's instructions are templates, not rows of Catalog::on(), and are legal only on
// arch-specific targets (tcgen05 on sm_100a/103a/110a, block-scaled mma.sync on sm_120a/121a;
// CUDA 13.0 ptxas): a handful of representatives on their first legal target, one per layout
// family that looks different (`figure` draws any other).
struct GalleryPick {
    const char* gfx;
    const char* name;
};
constexpr GalleryPick kGalleryBlackwell[] = {
    {"sm_100a", "tcgen05_mma_m128n64k16_f32_f16"},             // D in TMEM, Layout D (M = 128)
    {"sm_100a", "tcgen05_mma_m64n64k16_f32_f16"},              // Layout F (M = 64): lanes 16-31 of each quarter unused
    {"sm_100a", "tcgen05_mma_m256n64k16_f32_f16_2cta"},        // Layout A: the CTA pair's 256 lanes
    {"sm_100a", "tcgen05_mma_m128n64k64_f32_e2m1_mxf4nvf4_4x_ue4m3"},  // scale factors SFA / SFB in TMEM
    {"sm_100a", "tcgen05_ld_32x32b_x8"},
    {"sm_100a", "tcgen05_ld_16x256b_x1"},
    {"sm_100a", "tcgen05_ld_16x32bx2_x4"},
    {"sm_120a", "mma_m16n8k32_f32_e4m3_f8f6f4"},
    {"sm_120a", "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue4m3"},    // SFA / SFB owners under the thread and byte selectors
};

std::string variant_slug(const ResolvedModifiers& m) {
    std::string d = m.describe();
    if (d.empty()) return "default";
    for (char& c : d)
        if (c == ' ') c = '_';
        else if (c == '=') c = '-';
    return d;
}

struct FigureLink {
    std::string op, file;
};
struct VariantFigures {
    std::string title;  // "default modifiers" or "cbsz=1 abid=1"
    std::vector<FigureLink> figures;
};
struct Row {
    std::string key, family, family_title, gfx_list, mnemonic, builtin, shape, types, type_words;
    int blocks = 1, wave = 64;
    int preview_w = 0, preview_h = 0;
    std::string facts_text;  // info in Markdown
    std::vector<VariantFigures> variants;
};

// The index's picture of an instruction: A, B and D in the GEMM arrangement
// (A left, B above, D where they cross; blocks as a batched GEMM), one unit
// per element, coloured by lane group like the figures, without text. Runs of
// one colour along a row are one rectangle, so a preview stays a few KB.
struct Preview {
    std::string svg;
    int width = 0, height = 0;  // pixels
};

// The path of a w x h rectangle at (x, y): "Mx yhwvhh-wz".
std::string rect_path(int x, int y, int w, int h) {
    return "M" + std::to_string(x) + " " + std::to_string(y) + "h" + std::to_string(w) + "v" + std::to_string(h) + "h-" +
           std::to_string(w) + "z";
}

// An index preview under construction: one path per fill colour (first-use
// order) and one path of frames, written as a small SVG by finish().
struct PreviewPaths {
    std::vector<std::pair<Rgb, std::string>> paths;
    std::string frames;

    std::string& fill(const Rgb& c) {
        for (auto& p : paths)
            if (p.first == c) return p.second;
        paths.push_back({c, std::string()});
        return paths.back().second;
    }
    // A W x H picture (one unit per element) at most `max_side` pixels a side and 4 pixels a unit.
    Preview finish(int W, int H, double max_side, const std::string& title, const Rgb& frame_color) const {
        const double scale = std::min(4.0, max_side / std::max(W, H));
        Preview p;
        p.width = std::max(1, static_cast<int>(std::lround(W * scale)));
        p.height = std::max(1, static_cast<int>(std::lround(H * scale)));
        std::string& o = p.svg;
        o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
            std::to_string(p.width) + "\" height=\"" + std::to_string(p.height) + "\" viewBox=\"0 0 " + std::to_string(W) +
            " " + std::to_string(H) + "\" shape-rendering=\"crispEdges\">\n<title>";
        append_xml(o, title);
        o += "</title>\n";
        for (const auto& [color, d] : paths) o += "<path fill=\"" + color.hex() + "\" d=\"" + d + "\"/>\n";
        o += "<path fill=\"none\" stroke=\"" + frame_color.hex() + "\" stroke-width=\"";
        append_number(o, 0.9 / scale);
        o += "\" d=\"" + frames + "\"/>\n</svg>\n";
        return p;
    }
};

Preview preview_svg(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, Theme theme) {
    const ThemeColors tc = theme_colors(theme);
    // A and B where the instruction has them in registers (not ldmatrix, not wgmma's B).
    const std::vector<Operand> ops = operands_of(ins);
    auto optional_layout = [&](Operand op) {
        return std::find(ops.begin(), ops.end(), op) == ops.end() ? std::optional<OperandLayout>()
                                                                   : std::optional<OperandLayout>(layout_of(ins, t, op, mods));
    };
    const std::optional<OperandLayout> A = optional_layout(Operand::A), B = optional_layout(Operand::B);
    const OperandLayout D = layout_of(ins, t, Operand::D, mods);
    const int aw = A ? A->cols() : 0, ah = A ? A->rows() * A->blocks() : 0;
    const int bw = B ? B->cols() * B->blocks() : 0, bh = B ? B->rows() : 0;
    const int dw = D.cols() * D.blocks(), dh = D.rows() * D.blocks();
    const int gap = std::max(1, (std::max(aw + dw, bh + dh) + 20) / 40);
    const int ox = A ? aw + gap : 0, oy = B ? bh + gap : 0;
    const int W = ox + std::max(bw, dw), H = oy + std::max(ah, dh);
    PreviewPaths pp;
    // Draws block b of L with its top-left cell at (x0, y0).
    auto draw = [&](const OperandLayout& L, int b, int x0, int y0) {
        auto color_at = [&](int r, int c) {
            const Element e{b, r, c};
            const std::vector<Location> locs = L.where(e);
            return locs.empty() ? tc.grid : tile_color(ins, ColorBy::Lane, e, locs.front(), theme);
        };
        for (int r = 0; r < L.rows(); ++r)
            for (int c = 0; c < L.cols();) {
                const Rgb color = color_at(r, c);
                int run = 1;
                while (c + run < L.cols() && color_at(r, c + run) == color) ++run;
                pp.fill(color) += rect_path(x0 + c, y0 + r, run, 1);
                c += run;
            }
        pp.frames += rect_path(x0, y0, L.cols(), L.rows());
    };
    if (A)
        for (int b = 0; b < A->blocks(); ++b) draw(*A, b, 0, oy + b * A->rows());
    if (B)
        for (int b = 0; b < B->blocks(); ++b) draw(*B, b, ox + b * B->cols(), 0);
    for (int b = 0; b < D.blocks(); ++b) draw(D, b, ox + b * D.cols(), oy + b * D.rows());

    // At most 80 pixels a side and 4 pixels a cell.
    return pp.finish(W, H, 80, ins.mnemonic + std::string(A && B ? ": A, B and D" : A ? ": A and D" : ": D") +
                                   " coloured by lane group", tc.text);
}

// The gallery's tiles of many waves (docs/tiles.md): a few representative
// wave grids, sub-tiles and shapes, one per family kind; `figure` draws any.
struct GalleryTile {
    const char* gfx;
    const char* instruction;
    int wave;  // -1: the target's default
    TileParams params;
    bool per_operand;  // also A, B and D each at natural size, every cell labelled
    const char* shows;
};
const GalleryTile kGalleryTiles[] = {
    {"gfx942", "v_mfma_f32_32x32x8_f16", -1, {2, 2, 2, 1, 128, 128, 16}, false,
     "sub-tiles contiguous within a wave, the wave grid's 128x64 tile repeated along N, two K steps"},
    {"gfx950", "v_mfma_f32_16x16x32_f16", -1, {4, 1, 1, 1, 64, 64, 64}, false,
     "four waves down M, each repeating along N; two K steps in A and B"},
    {"gfx1100", "v_wmma_f32_16x16x16_f16", 32, {2, 2, 1, 1, 0, 0, 0}, false,
     "RDNA3 wave32: every A and B element in two lanes of each wave holding it"},
    {"gfx942", "v_mfma_f32_16x16x16_f16", -1, {2, 2, 1, 1, 0, 0, 0}, true,
     "sharing: waves along N hold copies of A, waves along M copies of B (labelled cells)"},
};

struct TileRow {
    std::string key, family_title, mnemonic, params, order, shows;
    int preview_w = 0, preview_h = 0;
    std::vector<FigureLink> figures;  // the GEMM picture first
};

std::string tile_slug(const TileParams& p) {
    auto x = [](int a, int b) { return std::to_string(a) + "x" + std::to_string(b); };
    return "w" + x(p.waves_m, p.waves_n) + "_t" + x(p.tiles_m, p.tiles_n) + "_" + x(p.m, p.n) + "x" + std::to_string(p.k);
}

// "A: k_step x2, tile_m x2", fastest first, counts of 1 left out.
std::string order_words(const TileLayout& t) {
    std::string s;
    for (const auto& [digit, count] : t.register_order())
        if (count > 1) s += (s.empty() ? "" : ", ") + std::string(tile_digit_name(digit)) + " x" + std::to_string(count);
    return std::string(operand_name(t.operand())) + ": " + (s.empty() ? "one instruction" : s);
}

// The index's picture of a tile: A, B and D in the GEMM arrangement, one unit
// per element, a hue per wave and a shade per lane group (the first wave
// holding a shared A/B element), frames around each wave's part, no text.
Preview tile_preview_svg(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, const TileParams& params,
                         Theme theme) {
    const ThemeColors tc = theme_colors(theme);
    const TileLayout A(ins, t, Operand::A, mods, params), B(ins, t, Operand::B, mods, params), D(ins, t, Operand::D, mods, params);
    const int gap = std::max(2, (A.cols() + D.cols() + 20) / 40);
    const int ox = A.cols() + gap, oy = B.rows() + gap;
    const int W = ox + D.cols(), H = oy + D.rows();
    const int groups = lane_groups(ins, mods.wave);
    PreviewPaths pp;
    auto draw = [&](const TileLayout& L, int x0, int y0) {
        std::vector<Rgb> colors(static_cast<size_t>(L.rows()) * L.cols(), tc.grid);
        std::vector<bool> set(colors.size(), false);
        for (const TileEntry& e : L.entries()) {  // sorted: the first entry of an element is its first wave
            const size_t i = static_cast<size_t>(e.element.row) * L.cols() + e.element.col;
            if (set[i]) continue;
            set[i] = true;
            colors[i] = L.waves() > 1 ? wave_color(e.at.wave, lane_group(ins, e.at.loc.lane), groups, theme)
                                      : tile_color(ins, ColorBy::Lane, e.element, e.at.loc, theme);
        }
        // Runs of one colour along a row, merged down while the rows below repeat them.
        struct Run {
            int c, len, top, height;
            Rgb color;
        };
        std::vector<Run> open, done;
        for (int r = 0; r < L.rows(); ++r) {
            std::vector<Run> next;
            for (int c = 0; c < L.cols();) {
                const Rgb color = colors[static_cast<size_t>(r) * L.cols() + c];
                int len = 1;
                while (c + len < L.cols() && colors[static_cast<size_t>(r) * L.cols() + c + len] == color) ++len;
                auto above = std::find_if(open.begin(), open.end(),
                                          [&](const Run& o) { return o.c == c && o.len == len && o.color == color; });
                if (above != open.end()) {
                    ++above->height;
                    next.push_back(*above);
                    above->len = 0;  // taken
                } else {
                    next.push_back({c, len, r, 1, color});
                }
                c += len;
            }
            for (const Run& o : open)
                if (o.len > 0) done.push_back(o);
            open = std::move(next);
        }
        done.insert(done.end(), open.begin(), open.end());
        for (const Run& o : done)
            pp.fill(o.color) += rect_path(x0 + o.c, y0 + o.top, o.len, o.height);
        // Frames: around the operand and between the waves' parts (M rows of A and D, N columns of B and D).
        const TileParams& p = L.params();
        pp.frames += rect_path(x0, y0, L.cols(), L.rows());
        if (L.operand() != Operand::B)
            for (int r = L.instruction().rows() * p.tiles_m; r < L.rows(); r += L.instruction().rows() * p.tiles_m)
                pp.frames += "M" + std::to_string(x0) + " " + std::to_string(y0 + r) + "h" + std::to_string(L.cols());
        if (L.operand() != Operand::A)
            for (int c = L.instruction().cols() * p.tiles_n; c < L.cols(); c += L.instruction().cols() * p.tiles_n)
                pp.frames += "M" + std::to_string(x0 + c) + " " + std::to_string(y0) + "v" + std::to_string(L.rows());
    };
    draw(A, 0, oy);
    draw(B, ox, 0);
    draw(D, ox, oy);
    return pp.finish(W, H, 120, ins.mnemonic + " tile (" + D.params().describe() + "): A, B and D coloured by wave", tc.text);
}

// The facts of `info` (its Markdown form) as HTML: the facts table as a
// table, the formulas as wrapping code lines, the symbols as a definition
// list. Long words (signatures, formulas) wrap instead of overflowing.
std::string facts_body(const std::string& markdown) {
    std::string h;
    bool in_table = false, in_symbols = false;
    size_t start = 0;
    auto trim = [](std::string v) {
        while (!v.empty() && (v.back() == ' ' || v.back() == '|')) v.pop_back();
        size_t a = 0;
        while (a < v.size() && v[a] == ' ') ++a;
        return v.substr(a);
    };
    while (start < markdown.size()) {
        size_t end = markdown.find('\n', start);
        if (end == std::string::npos) end = markdown.size();
        const std::string line = markdown.substr(start, end - start);
        start = end + 1;
        const bool table_row = line.size() > 2 && line[0] == '|';
        if (in_table && !table_row) h += "</table>\n", in_table = false;
        if (in_symbols && line.rfind("  ", 0) != 0) h += "</dl>\n", in_symbols = false;
        if (line.empty() || line.rfind("## ", 0) == 0) continue;  // the page has its own heading
        if (table_row) {
            const size_t bar = line.find(" | ");
            if (bar == std::string::npos || line.rfind("|--", 0) == 0) continue;
            const std::string fact = trim(line.substr(1, bar - 1)), value = trim(line.substr(bar + 3));
            if (!in_table) {  // the header row
                h += "<table class=\"facts\">\n";
                in_table = true;
                continue;
            }
            // info's Markdown is one table: a fact of several lines (modifiers, layout,
            // symbols) joins them with <br>; the page shows them as lines, the symbols as
            // a definition list.
            std::vector<std::string> parts;
            for (size_t from = 0;;) {
                const size_t br = value.find("<br>", from);
                std::string part = value.substr(from, br == std::string::npos ? br : br - from);
                for (size_t bar; (bar = part.find("\\|")) != std::string::npos;) part.erase(bar, 1);  // Markdown's \|
                parts.push_back(part);
                if (br == std::string::npos) break;
                from = br + 4;
            }
            if (parts.size() == 1) {
                h += "<tr><th>" + html(fact) + "</th><td>" + html(parts.front()) + "</td></tr>\n";
                continue;
            }
            h += "</table>\n<h3>" + html(fact) + "</h3>\n";
            if (fact == "symbols") {
                h += "<dl class=\"symbols\">\n";
                for (const std::string& part : parts) {
                    const std::string d = trim(part);
                    const size_t colon = d.find(": ");
                    h += "<dt><code>" + html(d.substr(0, colon)) + "</code></dt><dd>" +
                         html(colon == std::string::npos ? "" : d.substr(colon + 2)) + "</dd>\n";
                }
                h += "</dl>\n";
            } else {
                for (const std::string& part : parts) h += "<p class=\"line\"><code>" + html(part) + "</code></p>\n";
            }
            h += "<table class=\"facts\">\n";
        } else if (in_symbols) {
            const size_t colon = line.find(": ");
            h += "<dt><code>" + html(line.substr(2, colon - 2)) + "</code></dt><dd>" +
                 html(colon == std::string::npos ? "" : line.substr(colon + 2)) + "</dd>\n";
        } else if (line.back() == ':') {
            h += "<h3>" + html(line.substr(0, line.size() - 1)) + "</h3>\n";
            if (line == "Symbols:") h += "<dl class=\"symbols\">\n", in_symbols = true;
        } else {
            h += "<p class=\"line\"><code>" + html(line) + "</code></p>\n";
        }
    }
    if (in_table) h += "</table>\n";
    if (in_symbols) h += "</dl>\n";
    return h;
}

const char* kCss =
    "body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;margin:1.5em;color:#1A1A1A;background:#FFF}"
    "h1{font-size:1.4em}table{border-collapse:collapse;font-size:.9em}"
    "th,td{border-bottom:1px solid #D8DADF;padding:.25em .6em;text-align:left;vertical-align:top}"
    "th{background:#F2F3F5;position:sticky;top:0}tr[hidden]{display:none}"
    "code{font-family:'DejaVu Sans Mono',monospace}a{color:#0060A8}"
    ".filters{display:flex;gap:1em;flex-wrap:wrap;align-items:end;margin:1em 0}"
    ".filters label{display:flex;flex-direction:column;font-size:.85em;gap:.2em}"
    "pre{background:#F6F7F9;padding:1em;overflow:auto;font-size:.85em}"
    "figure{margin:1em 0}figure img{max-width:100%;border:1px solid #D8DADF}#count{color:#70747A}"
    ".facts td,dd,.line code{overflow-wrap:anywhere}pre{white-space:pre-wrap}"
    ".facts th{white-space:nowrap;font-weight:normal;color:#50545A}"
    ".line{margin:.2em 0;font-size:.9em}dl.symbols{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}"
    "dl.symbols dd{margin:0}td.pv{padding:2px}td.pv img{display:block;max-width:160px;height:auto}"
    // The index fits a 1400 px window: long mnemonics and builtins break anywhere
    // (underscores and dots included) instead of widening the table.
    "#list,table#tiles{width:100%}#list td:nth-child(3),#list td:nth-child(4),table#tiles td{overflow-wrap:anywhere}"
    "#list td:nth-child(5){white-space:nowrap}select{max-width:22em}";

std::string index_html(const std::vector<Row>& rows, const std::vector<TileRow>& tiles, const std::vector<const Target*>& targets,
                       const Catalog& cat) {
    std::set<std::string> types, shapes;
    for (const Row& r : rows) {
        shapes.insert(r.shape);
        size_t s = 0;
        while (s < r.type_words.size()) {
            size_t e = r.type_words.find(' ', s);
            if (e == std::string::npos) e = r.type_words.size();
            types.insert(r.type_words.substr(s, e - s));
            s = e + 1;
        }
    }
    std::string h;
    h.reserve(rows.size() * 900 + 8192);
    h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src 'self' file:\">"
         "<meta name=\"viewport\" content=\"width=device-width\">"
         "<title>lanescope gallery: AMD and NVIDIA GPU matrix instruction layouts</title><style>";
    h += kCss;
    h += "</style></head><body>\n<h1>lanescope gallery</h1>\n"
         "<p>Where every element of every AMD and NVIDIA GPU matrix instruction lives: lane, register (VGPR on AMD) "
         "and bits. One SVG figure per operand (default modifiers), and one for every modifier value that moves data "
         "(see each instruction's facts page). wgmma is shown for N = 8, 64 and 128 (every other N repeats the "
         "same 16x8 tile pattern; <code>lanescope-cli figure</code> draws any N). Filters can be set in the address: <code>index.html#arch=gfx942&amp;type=f16&amp;shape=32x32x8&amp;q=mfma</code>.</p>\n";
    if (!tiles.empty()) {
        h += "<h2 id=\"tiles\">Tiles of many waves</h2>\n<p>One instruction repeated over a wave grid, sub-tiles per wave "
             "and a tensor shape, composed as Triton's AMD layouts do (wave <code>w = wm * WN + wn</code>). A hue per "
             "wave, a shade per lane group; frames mark the instruction tiles, the waves and the repetitions of the wave "
             "grid's tile. Any tile: <code>lanescope-cli figure --waves 2x2 --tiles-per-wave 2x1 --shape 128x128x16</code>."
             "</p>\n<table id=\"tiles\"><thead><tr><th>preview</th><th>architecture</th><th>instruction</th><th>tile</th>"
             "<th>register order (fastest first)</th><th>figures</th></tr></thead><tbody>\n";
        for (const TileRow& t : tiles) {
            h += "<tr data-tile=\"" + t.key + "\"><td class=\"pv\"><a href=\"svg/" + t.figures.front().file +
                 "\"><img loading=\"lazy\" src=\"preview/" + t.key + ".svg\" width=\"" + std::to_string(t.preview_w) +
                 "\" height=\"" + std::to_string(t.preview_h) + "\" alt=\"" + html(t.mnemonic + " tile, A, B, D") + "\"></a></td>";
            h += "<td>" + html(t.family_title) + "</td><td>" + html(t.mnemonic) + "</td><td>" + html(t.params) + "<br>" +
                 html(t.shows) + "</td><td>" + html(t.order) + "</td><td>";
            for (const FigureLink& l : t.figures) h += "<a href=\"svg/" + l.file + "\">" + l.op + "</a> ";
            h += "</td></tr>\n";
        }
        h += "</tbody></table>\n<h2>Instructions</h2>\n";
    }
    h += "<div class=\"filters\"><label>search<input id=\"q\" type=\"search\" placeholder=\"mnemonic or builtin\"></label>"
         "<label>architecture<select id=\"arch\"><option value=\"\">all</option>";
    for (const Target* t : targets) {
        h += "<option value=\"" + std::string(family_name(t->family)) + "\">" + std::string(family_title(t->family)) +
             " (all)</option>";
    }
    for (const Target& t : cat.targets()) h += "<option value=\"" + t.gfx + "\">" + html(t.title) + "</option>";
    h += "</select></label><label>element type<select id=\"type\"><option value=\"\">all</option>";
    for (const std::string& t : types) h += "<option>" + html(t) + "</option>";
    h += "</select></label><label>shape (MxNxK)<select id=\"shape\"><option value=\"\">all</option>";
    for (const std::string& s : shapes) h += "<option>" + html(s) + "</option>";
    h += "</select></label><span id=\"count\"></span></div>\n";
    h += "<table id=\"list\"><thead><tr><th>preview</th><th>architecture</th><th>instruction</th><th>builtin</th><th>shape</th>"
         "<th>blocks</th><th>A, B, C types</th><th>wave</th><th>figures (default modifiers)</th><th>variants</th></tr>"
         "</thead><tbody>\n";
    for (const Row& r : rows) {
        h += "<tr data-arch=\"" + r.family + " " + r.gfx_list + "\" data-types=\"" + html(r.type_words) +
             "\" data-shape=\"" + html(r.shape) + "\" data-name=\"" + html(r.mnemonic + " " + r.builtin) + "\">";
        h += "<td class=\"pv\"><a href=\"facts/" + r.key + ".html\"><img loading=\"lazy\" src=\"preview/" + r.key +
             ".svg\" width=\"" + std::to_string(r.preview_w) + "\" height=\"" + std::to_string(r.preview_h) + "\" alt=\"" +
             html(r.mnemonic) + " A, B, D\"></a></td>";
        h += "<td>" + html(r.family_title) + "</td><td><a href=\"facts/" + r.key + ".html\">" + html(r.mnemonic) +
             "</a></td><td><code>" + html(r.builtin) + "</code></td><td>" + html(r.shape) + "</td><td>" +
             std::to_string(r.blocks) + "</td><td>" + html(r.types) + "</td><td>" + std::to_string(r.wave) + "</td><td>";
        for (const FigureLink& l : r.variants.front().figures)
            h += "<a href=\"svg/" + l.file + "\">" + l.op + "</a> ";
        h += "</td><td>";
        if (r.variants.size() > 1)
            h += "<a href=\"facts/" + r.key + ".html#variants\">" + std::to_string(r.variants.size() - 1) + "</a>";
        h += "</td></tr>\n";
    }
    h += "</tbody></table>\n";
    // The script avoids line comments so the page holds no double slash at all.
    h += "<script>\n"
         "(function(){\n"
         "var ids=['q','arch','type','shape'];var f={};ids.forEach(function(k){f[k]=document.getElementById(k);});\n"
         "var rows=Array.prototype.slice.call(document.querySelectorAll('#list tbody tr'));\n"
         "function has(list,w){return (' '+list+' ').indexOf(' '+w+' ')>=0;}\n"
         "function apply(){var q=f.q.value.trim().toLowerCase(),a=f.arch.value,t=f.type.value,s=f.shape.value,n=0;\n"
         " rows.forEach(function(r){var ok=(!a||has(r.dataset.arch,a))&&(!t||has(r.dataset.types,t))&&(!s||r.dataset.shape===s)"
         "&&(!q||r.dataset.name.toLowerCase().indexOf(q)>=0);r.hidden=!ok;if(ok)n++;});\n"
         " document.getElementById('count').textContent=n+' of '+rows.length+' shown';}\n"
         "function setSelect(el,v){if(el.tagName==='SELECT'&&v&&!Array.prototype.some.call(el.options,function(o){return o.value===v;})){"
         "var o=document.createElement('option');o.value=v;o.textContent=v;el.appendChild(o);}el.value=v;}\n"
         "function fromHash(){var h=decodeURIComponent(location.hash.replace(/^#/,''));var v={};\n"
         " h.split('&').forEach(function(p){var i=p.indexOf('=');if(i>0)v[p.slice(0,i)]=p.slice(i+1);});\n"
         " ids.forEach(function(k){setSelect(f[k],v[k]||'');});apply();}\n"
         "function toHash(){var p=[];ids.forEach(function(k){if(f[k].value)p.push(k+'='+encodeURIComponent(f[k].value));});\n"
         " var h='#'+p.join('&');if(location.hash!==h){try{history.replaceState(null,'',h);}catch(e){location.hash=h;}}apply();}\n"
         "ids.forEach(function(k){f[k].addEventListener('input',toHash);f[k].addEventListener('change',toHash);});\n"
         "window.addEventListener('hashchange',fromHash);fromHash();\n"
         "})();\n</script>\n</body></html>\n";
    return h;
}

std::string facts_html(const Row& r) {
    std::string h;
    h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "img-src 'self' file:\"><title>" +
         html(r.mnemonic) + " on " +
         html(r.family_title) + ", wave" + std::to_string(r.wave) + "</title><style>";
    h += kCss;
    h += "</style></head><body>\n<p><a href=\"../index.html\">&#8592; gallery</a></p>\n<h1>" + html(r.mnemonic) + " (" +
         html(r.family_title) + ", wave" + std::to_string(r.wave) + ")</h1>\n" + facts_body(r.facts_text);
    if (r.variants.size() > 1) {
        h += "<p>Modifier values that move data: ";
        for (size_t v = 1; v < r.variants.size(); ++v)
            h += "<a href=\"#v" + std::to_string(v) + "\">" + html(r.variants[v].title) + "</a>" +
                 (v + 1 < r.variants.size() ? " &#183; " : "");
        h += "</p>\n";
    }
    for (size_t v = 0; v < r.variants.size(); ++v) {
        const VariantFigures& vf = r.variants[v];
        if (v == 1) h += "<h2 id=\"variants\">Modifier values that move data</h2>\n";
        h += v == 0 ? "<h2>" : "<h3 id=\"v" + std::to_string(v) + "\">";
        h += html(vf.title) + (v == 0 ? "</h2>\n" : "</h3>\n");
        for (const FigureLink& l : vf.figures)
            h += "<figure><a href=\"../svg/" + l.file + "\"><img loading=\"lazy\" src=\"../svg/" + l.file + "\" alt=\"" +
                 html(r.mnemonic + " operand " + l.op + ", " + vf.title) + "\"></a><figcaption>operand " + l.op +
                 "</figcaption></figure>\n";
    }
    h += "</body></html>\n";
    return h;
}

void write_plain(const fs::path& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f.flush()) throw Error("cannot write '" + p.string() + "' (disk full or not writable?)");
}

}  // namespace

bool gallery_matches(const Instruction& ins, int wave, const std::string& match) {
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    const std::string needle = lower(match);
    return needle.empty() || lower(ins.mnemonic).find(needle) != std::string::npos ||
           lower(ins.builtin(wave)).find(needle) != std::string::npos || lower(ins.key(wave)).find(needle) != std::string::npos;
}

GalleryStats write_gallery(const Catalog& cat, const std::string& dir, Theme theme, const std::string& match) {
    const auto t0 = std::chrono::steady_clock::now();
    GalleryStats st;
    const bool write = !dir.empty();
    fs::path final_dir, work;
    std::unique_ptr<files::DirectoryWriter> out;
    if (write) {
        final_dir = fs::path(dir);
        if (final_dir.filename().empty()) final_dir = final_dir.parent_path();
        // Built in a fresh directory beside the target, swapped in whole by commit().
        out = std::make_unique<files::DirectoryWriter>(final_dir.string(), kMarker);
        work = out->dir();
        out->make_subdir("svg");
        out->make_subdir("facts");
        out->make_subdir("preview");
    }
    try {
        std::vector<const Target*> targets;
        std::vector<Row> rows;
        // What each family shows, on the family's first target; then Blackwell's representatives
        // on the targets where they are legal (kGalleryBlackwell).
        struct Source {
            Family fam;
            const Target* t;
            std::string gfx_list;
            std::vector<const Instruction*> list;
            bool variants = true;  // also the modifier values that move data (Blackwell's: `figure` draws them)
        };
        std::vector<Source> sources;
        for (Family fam : all_families()) {
            const Target* t = nullptr;
            std::string gfx_list;
            for (const Target& x : cat.targets())
                if (x.family == fam) {
                    if (!t) t = &x;
                    gfx_list += (gfx_list.empty() ? "" : " ") + x.gfx;
                }
            if (!t) continue;
            targets.push_back(t);
            sources.push_back({fam, t, gfx_list, cat.on(fam), true});
        }
        for (const GalleryPick& pick : kGalleryBlackwell) {
            const Target* t = nullptr;
            const Instruction* ins = nullptr;
            try {
                t = &cat.find_target(pick.gfx);
                ins = &cat.find_instruction(*t, pick.name);
            } catch (const Error&) {
                continue;  // a catalog without it (--catalog)
            }
            std::string gfx_list;
            for (const std::string& g : ins->targets) gfx_list += (gfx_list.empty() ? "" : " ") + g;
            sources.push_back({t->family, t, gfx_list, {ins}, false});
        }
        for (const Source& src : sources) {
            const Family fam = src.fam;
            const Target* t = src.t;
            const std::string& gfx_list = src.gfx_list;
            for (const Instruction* ins : src.list)
                for (int wave : wave_sizes(*ins, *t)) {
                    if (!gallery_matches(*ins, wave, match)) continue;
                    if (!in_gallery(*ins)) continue;
                    Row row;
                    row.family = std::string(family_name(fam));
                    row.family_title = std::string(family_title(fam)) + " (" + t->gfx + ")";
                    row.gfx_list = gfx_list;
                    row.mnemonic = ins->mnemonic;
                    row.builtin = ins->vendor() == Vendor::NVIDIA ? ins->short_name : ins->builtin(wave);
                    row.key = row.family + "_" + ins->key(wave);
                    row.shape = ins->shape();
                    row.blocks = ins->blocks;
                    row.wave = wave;
                    row.types = std::string(elem_name(ins->a)) + ", " + std::string(elem_name(ins->b)) + ", " +
                                std::string(elem_name(ins->c));
                    std::set<std::string> tw{std::string(elem_name(ins->a)), std::string(elem_name(ins->b)),
                                             std::string(elem_name(ins->c))};
                    for (const std::string& w : tw) row.type_words += (row.type_words.empty() ? "" : " ") + w;
                    Modifiers base;
                    base.wave = wave;
                    const ResolvedModifiers def = resolve_modifiers(*ins, *t, base);
                    if (write) row.facts_text = render_info(Query{ins, t, def}, Format::Markdown);
                    {
                        const Preview pv = preview_svg(*ins, *t, def, theme);
                        row.preview_w = pv.width, row.preview_h = pv.height;
                        if (write) write_plain(work / "preview" / (row.key + ".svg"), pv.svg);
                        st.bytes += pv.svg.size();
                    }

                    std::map<Operand, std::vector<Entry>> default_entries;
                    std::vector<ResolvedModifiers> all{def};
                    if (src.variants)
                        for (const ResolvedModifiers& m : data_variants(*ins, *t, wave)) all.push_back(m);
                    for (size_t v = 0; v < all.size(); ++v) {
                        VariantFigures vf;
                        vf.title = v == 0 ? "default modifiers" : all[v].describe();
                        for (Operand op : operands_of(*ins)) {
                            FigureSpec spec;
                            spec.ins = ins, spec.target = t, spec.mods = all[v], spec.operands = {op}, spec.theme = theme;
                            if (v == 0) {
                                default_entries[op] = layout_of(*ins, *t, op, all[v]).entries();
                            } else if (same_entries(default_entries[op], layout_of(*ins, *t, op, all[v]).entries())) {
                                continue;  // this modifier does not move this operand
                            }
                            const Figure fig = build_figure(spec);
                            const std::string svg = to_svg(fig);
                            const std::string file = row.key + "__" + variant_slug(all[v]) + "_" +
                                                     std::string(operand_name(op)) + ".svg";
                            if (write) write_plain(work / "svg" / file, svg);
                            vf.figures.push_back({std::string(operand_name(op)), file});
                            ++st.figures;
                            st.tiles += fig.tiles.size();
                            st.bytes += svg.size();
                        }
                        if (v > 0 && vf.figures.empty()) continue;
                        if (v > 0) ++st.variants;
                        row.variants.push_back(std::move(vf));
                    }
                    if (write) {
                        const std::string page = facts_html(row);
                        write_plain(work / "facts" / (row.key + ".html"), page);
                        st.bytes += page.size();
                    }
                    ++st.instructions;
                    rows.push_back(std::move(row));
                }
        }
        if (rows.empty())
            throw Error("--match '" + match + "' matches no instruction (mnemonic or builtin name); nothing written; "
                        "legal: part of a name that `lanescope-cli list` shows, e.g. 32x32x8");
        // The tiles of the instructions kept.
        std::vector<TileRow> tiles;
        for (const GalleryTile& gt : kGalleryTiles) {
            const Target* t = nullptr;
            const Instruction* ins = nullptr;
            try {
                t = &cat.find_target(gt.gfx);
                ins = &cat.find_instruction(*t, gt.instruction);
            } catch (const Error&) {
                continue;  // a catalog without it (--catalog)
            }
            Modifiers base;
            base.wave = gt.wave;
            const ResolvedModifiers mods = resolve_modifiers(*ins, *t, base);
            if (!gallery_matches(*ins, mods.wave, match)) continue;
            TileRow row;
            const TileLayout A(*ins, *t, Operand::A, mods, gt.params), B(*ins, *t, Operand::B, mods, gt.params),
                D(*ins, *t, Operand::D, mods, gt.params);
            row.key = "tile_" + std::string(family_name(t->family)) + "_" + ins->key(mods.wave) + "_" + tile_slug(D.params());
            row.family_title = std::string(family_title(t->family)) + " (" + t->gfx + "), wave" + std::to_string(mods.wave);
            row.mnemonic = ins->mnemonic;
            row.params = D.params().describe();
            row.order = order_words(A) + "; " + order_words(B) + "; " + order_words(D);
            row.shows = gt.shows;
            const Preview pv = tile_preview_svg(*ins, *t, mods, gt.params, theme);
            row.preview_w = pv.width, row.preview_h = pv.height;
            if (write) write_plain(work / "preview" / (row.key + ".svg"), pv.svg);
            st.bytes += pv.svg.size();
            // The GEMM picture fitted to 1000 px with fonts of at least 9 px; with
            // per_operand, each operand at natural size with every cell labelled.
            std::vector<std::pair<std::string, std::vector<Operand>>> figs{{"A, B, D together", {Operand::A, Operand::B, Operand::D}}};
            if (gt.per_operand)
                for (Operand op : {Operand::A, Operand::B, Operand::D}) figs.push_back({std::string(operand_name(op)), {op}});
            for (const auto& [name, ops] : figs) {
                FigureSpec spec;
                spec.ins = ins, spec.target = t, spec.mods = mods, spec.operands = ops, spec.theme = theme, spec.tile = gt.params;
                if (ops.size() > 1) spec.fit_width = 1000, spec.min_font = 9;
                const Figure fig = build_figure(spec);
                const std::string svg = to_svg(fig);
                const std::string file = row.key + "_" + (ops.size() > 1 ? std::string("ABD") : name) + ".svg";
                if (write) write_plain(work / "svg" / file, svg);
                row.figures.push_back({name, file});
                ++st.figures;
                ++st.tile_figures;
                st.tiles += fig.tiles.size();
                st.bytes += svg.size();
            }
            tiles.push_back(std::move(row));
        }
        const std::string index = index_html(rows, tiles, targets, cat);
        st.bytes += index.size();
        if (write) {
            write_plain(work / "index.html", index);
            out->commit();  // swaps the finished gallery in; the old one goes only after
        }
    } catch (...) {
        out.reset();  // removes the unfinished directory
        throw;
    }
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
}

}  // namespace lanescope::figures
