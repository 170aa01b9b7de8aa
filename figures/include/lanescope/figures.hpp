// lanescope figures: layout diagrams as SVG, TikZ and PNG, and a browsable
// gallery of the whole catalog. Headless: no display, no network.
//
// One figure model (tiles, texts, lines, legend) is built from the layout
// engine's answers, then serialised three ways, so the three formats always
// show the same thing. Colours and tile labels come from palette.hpp, the
// scheme the desktop app uses too.
//
//   lanescope::figures::FigureSpec spec;           // instruction, target, modifiers, operands
//   lanescope::figures::Figure f = lanescope::figures::build_figure(spec);
//   std::string svg = lanescope::figures::to_svg(f);
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/memory.hpp"
#include "lanescope/palette.hpp"
#include "lanescope/render.hpp"
#include "lanescope/smem.hpp"
#include "lanescope/tile.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope::figures {

enum class FigureFormat { Svg, Tikz, Png };

// What to draw. With several operands {A, B, D} in the matrix view the panels
// take the GEMM arrangement: A on the left, B above, D where they cross.
struct FigureSpec {
    const Instruction* ins = nullptr;
    const Target* target = nullptr;
    ResolvedModifiers mods;
    std::vector<Operand> operands;  // one, or A, B, D for the GEMM arrangement (then SA, SB: a row each under it)
    View view = View::Matrix;
    ColorBy color = ColorBy::Lane;
    Theme theme = Theme::Light;
    // Fit to a width, in user units (0: natural size, labels at 9 units). The
    // cells take the width left by indices and margins; a tile label is drawn
    // only where it fits its cell at a font of at least `min_font` units (else
    // the tiles keep colours, frames and index ticks, without text); indices
    // are written every 2^n rows/columns so they do not touch; headings wrap.
    double fit_width = 0;
    double min_font = 0;  // user units; 0 with fit_width: 10
    // A tile of many waves (tile.hpp) instead of one instruction: each operand
    // is the TileLayout of these parameters (the registers view: a block per
    // wave, lanes x the tile's registers). Colour by lane
    // then means a hue per wave and a shade per lane group (wave_color; with
    // one wave, the lane groups take the hues as for one instruction); labels
    // name the wave ("w1 v3[15:0]" over "L17"), or drop the bits, or are left
    // out when they do not fit; frames mark the instruction tiles, the waves
    // and the repetitions of the wave grid's tile.
    std::optional<TileParams> tile;
    // Every tile carries its full element and location as a hover text, which the SVG writes as
    // a <title> over the tile (a browser or a notebook shows it under the pointer).
    bool hover_titles = false;
    // What the text talks about (docs/figures.md, "Highlight and crop"): comma-separated items,
    // each an element "D[77][130]" ("A[b1][3][5]" on a multi-block instruction), a row "A[3][*]",
    // a column "B[*][5]", a lane "lane:5" (the AMD lane, NVIDIA thread or TMEM lane, numbered as
    // `which --lane` takes them; "lane:77@cta1": lane 77 of CTA 1 of a cta_group::2 pair, core's
    // pair_slot) or a register "reg:2" (TMEM: column 2). The tiles they name get a strong outline
    // (the border of their union, in the theme's highlight colour) and the rest is dimmed.
    // build_figure throws Error on a bad item (with this grammar and the drawn operands' ranges),
    // an element outside its operand (naming its shape) and an item that names no drawn cell.
    std::string highlight;
    // A window of the one operand drawn (matrix view): "ROWSxCOLS@R,C" draws rows R..R+ROWS-1 and
    // columns C..C+COLS-1, its indices the operand's own. Throws Error outside the operand (naming
    // its shape), with several operands and in the registers view.
    std::string crop;
    // With fit_width: the tallest the figure may be, in user units (0: any height). A taller figure
    // wraps a scale operand's rows side by side, then is drawn narrower (every font kept) until it
    // fits; Figure::page_fit says what was done (page_fit_note words it).
    double fit_height = 0;
};

// Points per user unit of each format: TikZ draws 1 unit as 0.5 pt; SVG and
// PNG take 1 unit as 1 CSS px, which is 0.75 pt.
double pt_per_unit(FigureFormat format);
// A printed width: "246pt", "3.4in", "8.5cm", "85mm", "328px", or a named one:
// "column" (240 pt, a two-column paper's column), "page" (500 pt, its full
// text width); "natural" gives 0 (no fitting). Throws Error on anything else.
double parse_width_pt(const std::string& s);
// A font size in points, "5pt" or "5", from 3 to 30. Throws Error otherwise.
double parse_font_pt(const std::string& s);

// A tile is one (element, location) in the matrix view, or one part of one
// register of one lane in the registers view. `id` names it:
// matrix view "A.b.r.c.n" (operand, block, row, col, n-th location of where()),
// registers view "A.v3.l17.n" (operand, reg, lane, n-th part of which()).
// A tile figure drawn as colours only has anonymous tiles (empty id, no lines):
// no per-tile text in SVG, fills instead of nodes in TikZ.
struct Tile {
    double x = 0, y = 0, w = 0, h = 0;
    Rgb fill, ink;
    std::string id;
    std::vector<std::string> lines;  // label, one string per text line
    // The same name also where the tile is drawn anonymous (id empty); never written by a
    // format: front ends that hit-test the pointer (the web page, docs/web.md) read it.
    std::string ref;
    // With FigureSpec::hover_titles: what a pointer over the tile is told, in full however little of
    // the label fits ("A[1][6]: L17 v3[15:0]"); the SVG writes it as the tile's <title>.
    std::string hover;
    bool highlighted = false;  // named by FigureSpec::highlight (the others are dimmed)
};
enum class Anchor { Start, Middle, End };
struct Text {
    double x = 0, y = 0;  // y is the baseline
    std::string text;
    double size = 10;
    Anchor anchor = Anchor::Start;
    bool bold = false;
    Rgb color;
};
struct Box {
    double x = 0, y = 0, w = 0, h = 0;
    Rgb fill;
    bool filled = true;
    Rgb stroke;
    double stroke_width = 0;  // 0: no outline
};
struct Line {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    Rgb color;
    double width = 1;
};
struct LegendEntry {
    Rgb color;
    std::string label;  // "lanes 0–15", "v3", "block 2"
};

// The headless figure: everything in user units (1 unit = 1 CSS px in SVG).
struct Figure {
    double width = 0, height = 0;
    Rgb background;
    Rgb tile_stroke;
    bool tile_grid = true;  // outline every tile (off for tile figures with cells too small to outline)
    double tile_font = 9, tile_line = 10.5;  // tiles without lines carry no label (fitted figures)
    std::string title;     // first line of the heading
    std::string subtitle;  // target, wave, operands, modifiers
    std::vector<Box> boxes;    // drawn first: frames, empty cells, legend swatches
    std::vector<Tile> tiles;
    std::vector<Line> lines;   // block separators; tile figures: instruction tile, wave and repetition frames
    std::vector<Text> texts;   // title, axes, legend
    std::vector<LegendEntry> legend;
    std::string legend_title;
    bool hover_titles = false;  // the SVG writes each tile's hover text as its <title>
    // FigureSpec::highlight's outline, drawn over everything but the texts (SVG: <path id="highlight">,
    // then an unfilled <rect id="hl-REF"> per highlighted tile; TikZ: \draw after the frames).
    std::vector<Line> highlight;
    // What a reader of the figure's source should know about how it was laid out (TikZ: % comments).
    std::vector<std::string> notes;
    // FigureSpec::fit_height's doing: the figure as first laid out was `tall_height` high at width
    // `asked_width` (units), over the limit `height_limit`; `how` lists what was changed.
    struct PageFit {
        bool applied = false;
        double asked_width = 0, tall_height = 0, height_limit = 0;
        std::string how;
    } page_fit;
};

Figure build_figure(const FigureSpec& spec);
// "taller than a page: 981pt at 240pt wide, over the 650pt limit (--height); SA's rows wrapped side
// by side; drawn 221pt wide, 640pt tall" in a format's points; "" where no page fit was applied.
std::string page_fit_note(const Figure& f, FigureFormat format);
// A page's text height: "page" (650 pt, 9 in: US letter with 1 in margins), a length as
// parse_width_pt takes them, or "none" (0: any height). Throws Error on anything else.
double parse_height_pt(const std::string& s);

// The memory view (docs/memory.md): an operand's tile as it lies in
// memory, one grid row per line (a row of a row-major tile, a column of a
// column-major one), one column per element position of ld + pad (the
// swizzle applied), padding greyed. Each cell is coloured by the lane group of
// the lane whose access reads it (the palette of the layout figures; a cell
// read by k lanes is k slices) and labelled "L17" over "i0" (issue index; for
// transpose loads "i0→L3": the lane that receives it), or "L17" alone, or not
// at all when that does not fit at min_font (colours and legend then). Each
// access of one lane is framed (thicker for the chosen issue). Below the grid,
// for LDS, the bank strip of the chosen wave-level instruction: one column per
// bank (bank_model), one row per pass of the grouping (analyse_banks), the
// lanes hitting each bank, banks that must serve several dwords in one pass
// framed in red, and a caption with passes, cycles versus the conflict-free
// minimum, the grouping and its confidence; for global memory a coalescing
// caption. With request.transpose and `compare`, the plain plan and the
// transposed one side by side, the transpose load's lane-rule confidence in
// its heading. One instruction only (tile options are refused).
struct MemoryFigureSpec {
    Query query;            // instruction, target, modifiers
    MemoryRequest request;  // operand, tile in memory (element_bits the operand's), transpose/store, grouping
    int issue = 0;          // the wave-level instruction the bank strip / coalescing caption shows
    bool compare = true;    // with request.transpose: the plain loads beside the transposed ones
    Theme theme = Theme::Light;
    double fit_width = 0;   // as FigureSpec
    double min_font = 0;
};
Figure build_memory_figure(const MemoryFigureSpec& spec);

// NVIDIA shared memory read through a wgmma / tcgen05 matrix descriptor
// (docs/figures.md, "The shared-memory figure"): the operand's tile as core's
// SmemOperand places it, one grid row per 128-byte row of shared memory (only
// the rows it occupies; skipped ones are marked), its address in hex on the
// left, each row split into its 8 chunks of 16 bytes (4 banks each). A chunk
// holding elements is coloured by its core matrix (8 rows x 16 bytes) and
// labelled with them (smem_chunk_labels, the shortest form that fits) over its
// chunk index in the row before and after the swizzle ("c1→c5"; without a
// swizzle its banks); the descriptor's fields (descriptor_fields: ignored bits
// named ignored), the byte formula with the swizzle's XOR rule and core's notes
// beside the tile (below it when fitted to a width); a caption says how far the
// model is confirmed (wgmma: H200; tcgen05: not on hardware). Tile ids and refs
// "B.0x0400" (the chunk's first address); with hover_titles every chunk's address
// range, banks, core matrix and elements as its <title>.
struct SmemFigureSpec {
    Query query;          // instruction, target, modifiers
    SmemOperand operand;  // smem_operand(...) of the operand drawn
    Theme theme = Theme::Light;
    double fit_width = 0;  // as FigureSpec
    double min_font = 0;
    bool hover_titles = false;
};
Figure build_smem_figure(const SmemFigureSpec& spec);

// SVG 1.1, standalone, text kept as <text>.
std::string to_svg(const Figure& f);
// A LaTeX document (standalone class) holding one tikzpicture; one \node[tile]
// per tile.
std::string to_tikz(const Figure& f);
// PNG bytes, rasterised in memory with the TrueType font at `font_path`
// (empty: $LANESCOPE_FONT, then DejaVu Sans from fonts-dejavu-core).
// `scale` is pixels per user unit; it is lowered so neither side exceeds
// 16384 pixels. Throws Error if no font can be read.
std::vector<std::uint8_t> to_png(const Figure& f, double scale = 2.0, const std::string& font_path = "");
// The font to_png would use, or "" if none is found.
std::string find_font(const std::string& font_path = "");

// Legend text of one colour class, shared by every format: "lanes 0–15" (core's lane_group_text),
// "v3", "block 2". Tile figures add "wave 3 (1,1)" (wave wm*WN+wn, then (wm,wn)).
std::string legend_label(const Instruction& ins, ColorBy by, int index, Space space = Space::Registers);

// Parse user words; throw Error naming the legal values.
FigureFormat parse_figure_format(const std::string& s);
ColorBy parse_color_by(const std::string& s);
Theme parse_theme(const std::string& s);

// The gallery: every instruction of `cat` on one target per family, every wave
// size, every operand, default modifiers plus each modifier value that moves
// data, as SVG files under dir/svg, one facts page per instruction under
// dir/facts, a few tiles of many waves (their SVGs under dir/svg, named
// tile_*), and dir/index.html (no server, no network).
struct GalleryStats {
    std::size_t instructions = 0;  // (family, instruction, wave) rows
    std::size_t figures = 0;       // SVG files
    std::size_t variants = 0;      // modifier variants beyond the defaults
    std::size_t tile_figures = 0;  // of the figures: the "Tiles of many waves" section's
    std::size_t tiles = 0;
    std::size_t bytes = 0;
    double seconds = 0;
};
// With `dir` empty, renders everything in memory and writes nothing (benchmark).
// A non-empty `match` keeps only the instructions whose mnemonic or builtin
// name contains it (case-insensitive): a partial gallery, for tests and previews.
// Otherwise builds into a sibling temp directory and renames it into place;
// an existing `dir` is only replaced when it is a previous gallery (holds the
// marker file .lanescope-gallery) or empty. Throws Error on any failure,
// leaving no partial gallery behind.
// Whether --match TEXT keeps an instruction: its mnemonic, builtin or catalog key (of this wave size)
// contains TEXT, case aside; an empty TEXT keeps every one. The SVG gallery and the site use it.
bool gallery_matches(const Instruction& ins, int wave, const std::string& match);
GalleryStats write_gallery(const Catalog& cat, const std::string& dir, Theme theme = Theme::Light,
                           const std::string& match = "");

// Write `bytes` to `path` atomically (temp file in the same directory, then
// rename); throws Error saying what failed.
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace lanescope::figures
