// figure --highlight, --crop and --height (docs/figures.md, "Highlight and crop", "A page's
// height"): the outline parsed back from the SVG, the window's cells and indices, the TikZ of a
// tall GEMM picture measured from its coordinates, and every refusal's message. Expectations come
// from the instructions' own layouts as the ISA texts give them (CDNA3 ISA §7.1 for MFMA D,
// PTX ISA §9.7.13.4.8 for mma.m16n8k16's D, §9.7.16.8.x for tcgen05.ld's 16x256b fragment), not
// from lanescope's output.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <tuple>

namespace ls = lanescope;
namespace fig = lanescope::figures;
using namespace figtest;

namespace {

constexpr const char* kPair = "tcgen05_mma_m256n256k16_f32_f16_2cta";
constexpr const char* kScale = "v_mfma_scale_f32_32x32x64_f8f6f4";

// The SVG's highlight: every <rect id="hl-NAME"> (name -> x, y, w, h) and the outline path's segments.
struct Rect {
    double x, y, w, h;
};
struct Highlight {
    std::map<std::string, Rect> cells;
    std::vector<std::tuple<double, double, double, double>> segments;
    std::string stroke;
};

Highlight svg_highlight(const std::string& svg) {
    Highlight h;
    const std::regex rect(R"re(<rect id="hl-([^"]+)" x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" height="([-0-9.]+)"/>)re");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it)
        h.cells[(*it)[1]] = {std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4]), std::stod((*it)[5])};
    std::smatch m;
    if (std::regex_search(svg, m, std::regex(R"re(<path id="highlight" fill="none" stroke="([^"]+)"[^>]* d="([^"]*)")re"))) {
        h.stroke = m[1];
        const std::string d = m[2];
        const std::regex seg(R"re(M([-0-9.]+) ([-0-9.]+)L([-0-9.]+) ([-0-9.]+))re");
        for (auto it = std::sregex_iterator(d.begin(), d.end(), seg); it != std::sregex_iterator(); ++it)
            h.segments.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4]));
    }
    return h;
}

// The total length of the outline, and the perimeter of the union of the cells (unit cells of one
// grid: an edge between two outlined cells is no border), computed independently.
double outline_length(const Highlight& h) {
    double total = 0;
    for (const auto& [x1, y1, x2, y2] : h.segments) total += std::abs(x2 - x1) + std::abs(y2 - y1);
    return total;
}

std::set<std::string> names(const std::vector<std::tuple<int, int>>& cells) {
    std::set<std::string> out;
    for (const auto& [r, c] : cells) out.insert("D.0." + std::to_string(r) + "." + std::to_string(c) + ".0");
    return out;
}

std::set<std::string> keys(const std::map<std::string, Rect>& m) {
    std::set<std::string> out;
    for (const auto& [k, v] : m) out.insert(k);
    return out;
}

std::string figure_svg(const std::string& args) {
    const Run r = cli("figure " + args + " -o - --format svg");
    INFO(args << "\n" << r.err);
    REQUIRE(r.status == 0);
    REQUIRE(xml_problem(r.out).empty());
    return r.out;
}

}  // namespace

TEST_CASE("figure --highlight D[77][130] outlines exactly that cell of a tcgen05 CTA pair's D", "[figures][highlight]") {
    // D of cta_group::2, M = 256, in Tensor Memory (PTX ISA Layout A): one TMEM cell per element.
    const std::string svg = figure_svg(std::string("-a sm_100a -i ") + kPair + " --operand D --highlight 'D[77][130]'");
    const Highlight h = svg_highlight(svg);
    CHECK(keys(h.cells) == std::set<std::string>{"D.0.77.130.0"});
    CHECK(h.stroke == ls::theme_colors(ls::Theme::Light).highlight.hex());
    // The outline is that cell's border: four sides, as long as its perimeter, on its edges.
    const Rect c = h.cells.at("D.0.77.130.0");
    REQUIRE(h.segments.size() == 4);
    CHECK(outline_length(h) == Approx(2 * (c.w + c.h)).margin(0.05));
    for (const auto& [x1, y1, x2, y2] : h.segments) {
        for (double x : {x1, x2}) CHECK((std::abs(x - c.x) < 0.02 || std::abs(x - (c.x + c.w)) < 0.02));
        for (double y : {y1, y2}) CHECK((std::abs(y - c.y) < 0.02 || std::abs(y - (c.y + c.h)) < 0.02));
    }
    // Its label's tile is that rectangle (the label centred over it).
    bool labelled = false;
    for (const SvgTile& t : svg_tiles(svg))
        if (t.id == "D.0.77.130.0") labelled = std::abs(t.x - (c.x + c.w / 2)) < 0.02;
    CHECK(labelled);
}

TEST_CASE("figure --highlight of a row, a lane and a register names the cells the ISA texts give", "[figures][highlight]") {
    const std::string mfma = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D";
    SECTION("D[3][*]: the whole row, one rectangle") {
        const Highlight h = svg_highlight(figure_svg(mfma + " --highlight 'D[3][*]'"));
        std::vector<std::tuple<int, int>> row;
        for (int c = 0; c < 32; ++c) row.emplace_back(3, c);
        CHECK(keys(h.cells) == names(row));
        double w = 0, ch = 0;
        for (const auto& [k, r] : h.cells) w += r.w, ch = r.h;
        CHECK(h.segments.size() == 4);  // the union's border, no line between neighbours
        CHECK(outline_length(h) == Approx(2 * (w + ch)).margin(0.1));
    }
    SECTION("lane:5: CDNA3 32x32 D, lane l holds column l%32, rows 8*(r/4) + 4*(l/32) + r%4") {
        const Highlight h = svg_highlight(figure_svg(mfma + " --highlight lane:5"));
        std::vector<std::tuple<int, int>> cells;
        for (int r = 0; r < 16; ++r) cells.emplace_back(8 * (r / 4) + 4 * (5 / 32) + r % 4, 5 % 32);
        CHECK(keys(h.cells) == names(cells));
        CHECK(h.segments.size() == 4 * 4);  // four runs of 4 rows: four rectangles
    }
    SECTION("reg:2 of mma.m16n8k16 f32 D: c2 is row groupID + 8, column 2*threadID_in_group") {
        const Highlight h = svg_highlight(figure_svg("-a sm_80 -i mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 --operand D --highlight reg:2"));
        std::vector<std::tuple<int, int>> cells;
        for (int lane = 0; lane < 32; ++lane) cells.emplace_back(lane / 4 + 8, 2 * (lane % 4));
        CHECK(keys(h.cells) == names(cells));
    }
    SECTION("several items: the union") {
        const Highlight h = svg_highlight(figure_svg(mfma + " --highlight 'D[0][0], D[31][31]'"));
        CHECK(keys(h.cells) == names({{0, 0}, {31, 31}}));
    }
}

TEST_CASE("figure --highlight of a tcgen05 read-back: the pair's lane, and labels in the pair's terms", "[figures][highlight]") {
    // tcgen05.ld 16x256b (PTX's fragment): thread t of a warp holds lanes base + t/4 and base + 8 + t/4
    // of each 16-lane block, columns 8j + 2(t%4) and +1; warp w of a CTA reads that CTA's lanes 32(w%4)..+31.
    // Thread 85 of CTA 1 is warp 2, t = 21: rows 128 + 64 + {5, 13, 21, 29}, columns 8j + {2, 3}.
    const std::string svg = figure_svg(std::string("-a sm_100a -i ") + kPair +
                                       " --operand D --tmem-load 16x256b --crop 16x8@200,0 --highlight lane:85@cta1");
    CHECK(keys(svg_highlight(svg).cells) == names({{205, 2}, {205, 3}, {213, 2}, {213, 3}}));
    // D[205][3]: lane 13 of its 16-lane block is the second half (r2, r3), column 3 = 2*1 + 1: r3 of
    // the first load (256 registers a thread, at most 128 in one tcgen05.ld: two loads).
    bool seen = false;
    for (const SvgTile& t : svg_tiles(svg))
        if (t.id == "D.0.205.3.0") {
            seen = true;
            CHECK(t.lines == std::vector<std::string>{"d3, load 0 r3", "CTA1 T85"});
        }
    CHECK(seen);
    // The legend: a warp per 32 threads of each CTA (PTX: warp w of a CTA reads its lanes 32(w%4)..),
    // named within its CTA, eight in all (4 warps per CTA, --num-warps 4).
    for (int cta = 0; cta < 2; ++cta)
        for (int w = 0; w < 4; ++w)
            CHECK(svg.find(">CTA" + std::to_string(cta) + " warp " + std::to_string(w) + " (T" + std::to_string(32 * w) + "\u2013" +
                           std::to_string(32 * w + 31) + ")<") != std::string::npos);
}

TEST_CASE("figure --highlight dims the rest in every format", "[figures][highlight]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    fig::FigureSpec spec;
    spec.ins = &ins, spec.target = &t, spec.mods = ls::resolve_modifiers(ins, t, ls::Modifiers{}), spec.operands = {ls::Operand::D};
    const fig::Figure plain = fig::build_figure(spec);
    spec.highlight = "D[3][4]";
    const fig::Figure lit = fig::build_figure(spec);
    REQUIRE(plain.tiles.size() == lit.tiles.size());
    size_t highlighted = 0;
    for (size_t n = 0; n < lit.tiles.size(); ++n) {
        if (lit.tiles[n].highlighted) {
            ++highlighted;
            CHECK(lit.tiles[n].fill == plain.tiles[n].fill);
        } else {
            CHECK_FALSE(lit.tiles[n].fill == plain.tiles[n].fill);  // dimmed
        }
    }
    CHECK(highlighted == 1);
    CHECK(lit.highlight.size() == 4);
    // TikZ draws the outline, PNG paints it (the highlight colour appears only with it).
    const std::string tikz = fig::to_tikz(lit);
    CHECK(tikz.find("% highlight:") != std::string::npos);
    CHECK(tikz.find("% note: highlighted: D[3][4]") != std::string::npos);
}

TEST_CASE("figure --crop draws exactly the window, with the operand's own indices", "[figures][crop]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_100a");
    const ls::Instruction& ins = cat.find_instruction(t, kPair);
    fig::FigureSpec spec;
    spec.ins = &ins, spec.target = &t, spec.mods = ls::resolve_modifiers(ins, t, ls::Modifiers{}), spec.operands = {ls::Operand::D};
    spec.crop = "16x8@64,128";
    const fig::Figure f = fig::build_figure(spec);
    std::set<std::string> refs, want;
    for (const fig::Tile& tile : f.tiles) refs.insert(tile.ref);
    for (int r = 64; r < 80; ++r)
        for (int c = 128; c < 136; ++c) want.insert("D.0." + std::to_string(r) + "." + std::to_string(c) + ".0");
    CHECK(f.tiles.size() == 16 * 8);  // one TMEM cell per element
    CHECK(refs == want);
    // Every column index 128..135 above its column, every row index 64..79 left of its row.
    for (int c = 128; c < 136; ++c) {
        double x = -1;
        for (const fig::Tile& tile : f.tiles)
            if (tile.ref == "D.0.64." + std::to_string(c) + ".0") x = tile.x + tile.w / 2;
        bool found = false;
        for (const fig::Text& text : f.texts) found = found || (text.text == std::to_string(c) && std::abs(text.x - x) < 0.01);
        CHECK(found);
    }
    for (int r = 64; r < 80; ++r) {
        bool found = false;
        for (const fig::Text& text : f.texts) found = found || (text.text == std::to_string(r) && text.anchor == fig::Anchor::End);
        CHECK(found);
    }
    // No index of the rest of D is written (0, 63, 80, 255 are no labels of the window).
    for (const char* other : {"0", "63", "80", "255"})
        for (const fig::Text& text : f.texts) CHECK(text.text != other);
    // The SVG says which window in the heading.
    CHECK(fig::to_svg(f).find("window: rows 64\u201379, columns 128\u2013135 of 256 x 256") != std::string::npos);
}

TEST_CASE("figure --crop of a tile of many waves keeps the tile's own indices and frames", "[figures][crop]") {
    const std::string svg = figure_svg("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C --waves 2x2 --shape 128x128 --crop 8x8@60,60");
    std::set<std::string> ids;
    for (const SvgTile& t : svg_tiles(svg)) ids.insert(t.id);
    CHECK(ids.size() == 64);
    CHECK(ids.count("C.0.60.60.0") == 1);
    CHECK(ids.count("C.0.67.67.0") == 1);
    CHECK(ids.count("C.0.68.60.0") == 0);
}

TEST_CASE("an all-operands TikZ column figure taller than a page is laid out to fit one, and says so", "[figures][page]") {
    // The largest y of the picture's coordinates, in points (TikZ: 0.5 pt per unit, y down).
    auto height_pt = [](const std::string& tikz) {
        double top = 0;
        const std::regex coord(R"re(\(([-0-9.]+),([-0-9.]+)\))re");
        for (auto it = std::sregex_iterator(tikz.begin(), tikz.end(), coord); it != std::sregex_iterator(); ++it)
            top = std::max(top, std::stod((*it)[2]) * 0.5);
        return top;
    };
    auto width_pt = [](const std::string& tikz) {
        double right = 0;
        const std::regex coord(R"re(\(([-0-9.]+),([-0-9.]+)\))re");
        for (auto it = std::sregex_iterator(tikz.begin(), tikz.end(), coord); it != std::sregex_iterator(); ++it)
            right = std::max(right, std::stod((*it)[1]) * 0.5);
        return right;
    };
    const std::string args = std::string("figure -a gfx950 -i ") + kScale + " --operand all -o - --format tikz";
    const Run tall = cli(args + " --height none");
    REQUIRE(tall.status == 0);
    CHECK(height_pt(tall.out) > 900);  // the case: 981 pt in a 240 pt column
    for (const std::string wide : {"", " --width page"}) {
        const Run r = cli(args + wide);
        INFO(wide << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(height_pt(r.out) <= 650);
        CHECK(width_pt(r.out) <= (wide == " --width page" ? 500 : 240));
        // It says so: on stderr and in the TikZ, and no font went under 5 pt.
        if (wide.empty()) {
            CHECK(r.err.find("note: taller than a page") != std::string::npos);
            CHECK(r.out.find("% note: taller than a page") != std::string::npos);
        }
        const std::regex font(R"re(\\fontsize\{([0-9.]+)\})re");
        for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), font); it != std::sregex_iterator(); ++it)
            CHECK(std::stod((*it)[1]) >= 5);
    }
    // A limit it cannot reach at its fonts: as close as it gets, and it says so.
    const Run under = cli(args + " --height 600pt");
    REQUIRE(under.status == 0);
    CHECK(height_pt(under.out) < height_pt(tall.out));
    CHECK(under.err.find("still over") != std::string::npos);
    // A tall, narrow one (wgmma m64n8: 64 rows of A and D) fits by being drawn narrower.
    const Run narrow = cli("figure -a sm_90 -i wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 --operand all -o - --format tikz");
    REQUIRE(narrow.status == 0);
    CHECK(height_pt(narrow.out) <= 650);
    CHECK(narrow.err.find("laid out narrower") != std::string::npos);
}

TEST_CASE("figure --highlight, --crop and --height refuse what they cannot draw, saying what is legal", "[figures][refusals]") {
    const std::string pair = std::string("figure -a sm_100a -i ") + kPair + " --operand D -o ";
    const std::string dir = temp_dir("marks");
    struct Case {
        std::string args, says;
    };
    const std::vector<Case> cases = {
        {"--highlight 'D[3,4]'", "bad --highlight item 'D[3,4]'; legal: comma-separated items"},
        {"--highlight 'D[3,4]'", "D is 256 x 256 (rows 0\u2013255, columns 0\u2013255)"},
        {"--highlight 'lane 5'", "lane:L@ctaC"},
        {"--highlight 'D[*][*]'", "bad --highlight item"},
        {"--highlight 'D[1][2],'", "bad --highlight item '' (empty)"},
        {"--highlight 'D[256][0]'", "--highlight D[256][0]: outside D: D is 256 x 256"},
        {"--highlight 'A[0][0]'", "A is not drawn"},
        {"--highlight lane:256", "outside the lanes of the drawn operands"},
        {"--highlight lane:128@cta1", "each with lanes 0\u2013127"},
        {"--crop 16x16@64,128 --highlight 'D[0][0]'", "outside the window drawn (--crop: rows 64\u201379, columns 128\u2013143 of 256 x 256)"},
        {"--crop 16x16@250,0", "--crop 16x16@250,0 leaves D, which is 256 x 256"},
        {"--crop 0x4@0,0", "leaves D, which is 256 x 256"},
        {"--crop 16x16", "bad --crop '16x16'; legal: ROWSxCOLS@R,C"},
        {"--crop 4x4@0,0 --view registers", "legal: --view matrix"},
        {"--height 3furlongs --width column", "bad height '3furlongs'; legal: page (650pt"},
        {"--height page", "--height page fits a figure laid out for a printed width"},
    };
    for (const Case& c : cases) {
        const std::string out = dir + "/x.svg";
        const Run r = cli(pair + out + " " + c.args);
        INFO(c.args << "\n" << r.err);
        CHECK(r.status == 1);
        CHECK(r.err.find(c.says) != std::string::npos);
        CHECK(read_file(out).empty());  // nothing written
    }
    const Run all = cli(std::string("figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --crop 4x4@0,0 -o ") + dir + "/y.svg");
    CHECK(all.status == 1);
    CHECK(all.err.find("a window of one operand's matrix") != std::string::npos);
    const Run cta = cli(std::string("figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D --highlight lane:5@cta1 -o ") + dir + "/z.svg");
    CHECK(cta.status == 1);
    CHECK(cta.err.find("no operand drawn is one") != std::string::npos);
    const Run tile = cli(std::string("figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C --waves 2x2 --highlight lane:5 -o ") + dir + "/w.svg");
    CHECK(tile.status == 1);
    CHECK(tile.err.find("legal with tile options: OP[R][C]") != std::string::npos);
    const Run blocks = cli(std::string("figure -a gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D --highlight 'D[1][2]' -o ") + dir + "/v.svg");
    CHECK(blocks.status == 1);
    CHECK(blocks.err.find("name the block, e.g. D[b0][1][2]") != std::string::npos);
}
