// Figures checked against the layout engine: well-formed XML, one tile per
// (element, location), labels and colours from where()/which(), the legend,
// the GEMM arrangement, TikZ nodes and PNG pixels.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STB_IMAGE_STATIC
#include <stb/stb_image.h>

namespace ls = lanescope;
namespace fig = lanescope::figures;
using namespace figtest;

namespace {

struct Sample {
    const char* arch;
    const char* instruction;
    ls::Operand operand;
    ls::Modifiers mods;
};

ls::Modifiers mods(int cbsz = -1, int abid = -1, int wave = -1) {
    ls::Modifiers m;
    m.cbsz = cbsz, m.abid = abid, m.wave = wave;
    return m;
}

// The sample the issue names: a 4x4 16-block, a 32x32, a sparse one (A and
// its index K), an RDNA wave64 and a scaled FP6 one.
const std::vector<Sample>& samples() {
    static const std::vector<Sample> s = {
        {"gfx942", "v_mfma_f32_4x4x4_16b_f16", ls::Operand::D, mods()},
        {"gfx942", "v_mfma_f32_4x4x4_16b_f16", ls::Operand::A, mods(2, 1)},
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::A, mods()},
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::D, mods()},
        {"gfx942", "v_smfmac_f32_16x16x32_f16", ls::Operand::A, mods()},
        {"gfx942", "v_smfmac_f32_16x16x32_f16", ls::Operand::K, mods()},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", ls::Operand::A, mods(-1, -1, 64)},
        {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", ls::Operand::A, mods(2)},
        {"gfx90a", "v_mfma_f64_16x16x4f64", ls::Operand::D, mods()},
    };
    return s;
}

struct Built {
    const ls::Instruction* ins;
    const ls::Target* target;
    ls::ResolvedModifiers mods;
    ls::OperandLayout layout;
    fig::Figure figure;
};

Built build(const Sample& s, ls::View view = ls::View::Matrix, ls::ColorBy by = ls::ColorBy::Lane,
            ls::Theme theme = ls::Theme::Light) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target(s.arch);
    const ls::Instruction& ins = cat.find_instruction(t, s.instruction);
    const ls::ResolvedModifiers m = ls::resolve_modifiers(ins, t, s.mods);
    fig::FigureSpec spec;
    spec.ins = &ins, spec.target = &t, spec.mods = m, spec.operands = {s.operand};
    spec.view = view, spec.color = by, spec.theme = theme;
    return {&ins, &t, m, ls::layout_of(ins, t, s.operand, m), fig::build_figure(spec)};
}

std::vector<int> split_ints(const std::string& s, char sep) {
    std::vector<int> out;
    size_t a = 0;
    while (a <= s.size()) {
        size_t b = s.find(sep, a);
        if (b == std::string::npos) b = s.size();
        out.push_back(std::atoi(s.c_str() + a));
        a = b + 1;
    }
    return out;
}

// The hardware's lane group (the colouring rule): M lanes on CDNA, 16 on RDNA.
int group_size(const ls::Instruction& ins) { return ls::is_cdna(ins.families.front()) ? ins.m : 16; }

bool xmllint_accepts(const std::string& svg) {
    if (std::system("command -v xmllint >/dev/null 2>&1") != 0) return true;  // checked by xml_problem only
    const std::string dir = temp_dir("xml");
    const std::string path = dir + "/f.svg";
    fig::write_file_atomic(path, svg);
    const int rc = std::system(("xmllint --noout " + path + " 2>/dev/null").c_str());
    std::filesystem::remove_all(dir);
    return rc == 0;
}

}  // namespace

TEST_CASE("the XML checker rejects what is not well-formed") {
    CHECK(xml_problem("<a><b x=\"1\"/>t &amp; u</a>").empty());
    CHECK_FALSE(xml_problem("<a><b></a></b>").empty());
    CHECK_FALSE(xml_problem("<a x=1></a>").empty());
    CHECK_FALSE(xml_problem("<a>&nbsp;</a>").empty());
    CHECK_FALSE(xml_problem("<a></a><b></b>").empty());
    CHECK_FALSE(xml_problem("<a>x < y</a>").empty());
}

TEST_CASE("SVG matrix view: one tile per element and location labelled and coloured from where()") {
    for (const Sample& s : samples()) {
        const Built b = build(s);
        const std::string svg = fig::to_svg(b.figure);
        INFO(s.arch << " " << s.instruction << " operand " << ls::operand_name(s.operand) << " " << b.mods.describe());
        REQUIRE(xml_problem(svg).empty());
        CHECK(xmllint_accepts(svg));
        CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"") != std::string::npos);
        CHECK(svg.find(s.instruction) != std::string::npos);
        CHECK(svg.find(b.target->gfx) != std::string::npos);
        if (!b.mods.describe().empty()) CHECK(svg.find(b.mods.describe()) != std::string::npos);

        const ls::OperandLayout& L = b.layout;
        size_t expected = 0;
        for (int blk = 0; blk < L.blocks(); ++blk)
            for (int r = 0; r < L.rows(); ++r)
                for (int c = 0; c < L.cols(); ++c) expected += L.where({blk, r, c}).size();
        const std::vector<SvgTile> tiles = svg_tiles(svg);
        CHECK(tiles.size() == expected);
        CHECK(tiles.size() == L.entries().size());

        std::set<std::string> ids;
        const int gs = group_size(*b.ins);
        for (const SvgTile& t : tiles) {
            INFO("tile " << t.id);
            REQUIRE(ids.insert(t.id).second);
            REQUIRE(t.id.rfind(std::string(ls::operand_name(s.operand)) + ".", 0) == 0);
            const std::vector<int> v = split_ints(t.id.substr(t.id.find('.') + 1), '.');
            REQUIRE(v.size() == 4);
            const std::vector<ls::Location> locs = L.where({v[0], v[1], v[2]});
            REQUIRE(v[3] < static_cast<int>(locs.size()));
            const ls::Location& loc = locs[v[3]];
            REQUIRE(t.lines.size() == 2);
            // Register first, lane second, in the shared scheme.
            CHECK(t.lines[1] == "L" + std::to_string(loc.lane));
            const std::string reg = "v" + std::to_string(loc.reg);
            const std::string pair = "v[" + std::to_string(loc.reg + 1) + ":" + std::to_string(loc.reg) + "]";
            CHECK((t.lines[0].rfind(reg, 0) == 0 || t.lines[0] == pair));
            if (L.element_bits() < 32 && loc.bit_hi <= 31)
                CHECK(t.lines[0] == reg + "[" + std::to_string(loc.bit_hi) + ":" + std::to_string(loc.bit_lo) + "]");
            CHECK(t.lines[0] + " \u00B7 " + t.lines[1] == ls::tile_label(loc, L.element_bits()));
            // The group's hue, shaded per lane (core's lane_color, as the app): the
            // group's first lane has the hue itself, no two lanes of a group alike.
            CHECK(t.fill == ls::lane_color(*b.ins, loc.lane, ls::Theme::Light).hex());
            if (loc.lane % gs == 0) CHECK(t.fill == ls::categorical(loc.lane / gs, ls::Theme::Light).hex());
            if (loc.lane % gs != 0) CHECK(t.fill != ls::categorical(loc.lane / gs, ls::Theme::Light).hex());
        }
        // The legend lists every lane group of the wave.
        for (int g = 0; g < b.mods.wave / gs; ++g) {
            const std::string entry = ">lanes " + std::to_string(g * gs) + "\u2013" + std::to_string(g * gs + gs - 1) + "<";
            INFO(entry);
            CHECK(svg.find(entry) != std::string::npos);
        }
    }
}

TEST_CASE("SVG registers view: one tile per part of each lane register labelled from which()") {
    for (const Sample& s : {samples()[1], samples()[6], samples()[7]}) {
        const Built b = build(s, ls::View::Registers, ls::ColorBy::Register);
        const std::string svg = fig::to_svg(b.figure);
        INFO(s.instruction);
        REQUIRE(xml_problem(svg).empty());
        const ls::OperandLayout& L = b.layout;
        size_t expected = 0;
        for (int lane = 0; lane < L.lanes(); ++lane)
            for (int reg = 0; reg < L.regs(); ++reg) expected += L.which(reg, lane).size();
        const std::vector<SvgTile> tiles = svg_tiles(svg);
        CHECK(tiles.size() == expected);
        for (const SvgTile& t : tiles) {
            INFO(t.id);
            const size_t v = t.id.find(".v"), l = t.id.find(".l"), n = t.id.rfind('.');
            const int reg = std::atoi(t.id.c_str() + v + 2), lane = std::atoi(t.id.c_str() + l + 2),
                      part = std::atoi(t.id.c_str() + n + 1);
            const std::vector<ls::SlotPart> parts = L.which(reg, lane);
            REQUIRE(part < static_cast<int>(parts.size()));
            CHECK(t.lines[0] == ls::element_label(s.operand, parts[part].element, L.blocks()));
            CHECK(t.fill == ls::categorical(reg, ls::Theme::Light).hex());
        }
    }
}

TEST_CASE("figure size is proportional to the matrix") {
    auto extent = [](const fig::Figure& f) {
        double x0 = 1e9, y0 = 1e9, x1 = 0, y1 = 0;
        for (const fig::Tile& t : f.tiles) {
            x0 = std::min(x0, t.x), y0 = std::min(y0, t.y);
            x1 = std::max(x1, t.x + t.w), y1 = std::max(y1, t.y + t.h);
        }
        return std::make_pair(x1 - x0, y1 - y0);
    };
    const auto small = extent(build({"gfx942", "v_mfma_f32_16x16x16_f16", ls::Operand::D, mods()}).figure);
    const auto large = extent(build({"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::D, mods()}).figure);
    CHECK(large.first == Approx(2 * small.first));
    CHECK(large.second == Approx(2 * small.second));
}

TEST_CASE("GEMM arrangement (operand all): A left and B above D with rows and columns aligned") {
    const std::string dir = temp_dir("gemm");
    Run r = cli("figure --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand all -o " + dir + "/all.svg");
    REQUIRE(r.status == 0);
    const std::string svg = read_file(dir + "/all.svg");
    REQUIRE(xml_problem(svg).empty());
    std::map<std::string, SvgTile> by_id;
    std::map<char, size_t> count;
    for (const SvgTile& t : svg_tiles(svg)) {
        by_id[t.id] = t;
        ++count[t.id[0]];
    }
    CHECK(count['A'] == 32 * 8);
    CHECK(count['B'] == 8 * 32);
    CHECK(count['D'] == 32 * 32);
    for (int i = 0; i < 32; ++i) {
        const SvgTile& a = by_id["A.0." + std::to_string(i) + ".0.0"];
        const SvgTile& d = by_id["D.0." + std::to_string(i) + ".0.0"];
        CHECK(a.y == d.y);
        CHECK(a.x < d.x);
    }
    for (int j = 0; j < 32; ++j) {
        const SvgTile& b = by_id["B.0.0." + std::to_string(j) + ".0"];
        const SvgTile& d = by_id["D.0.0." + std::to_string(j) + ".0"];
        CHECK(b.x == d.x);
        CHECK(b.y < d.y);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("TikZ: a standalone document with one node per tile") {
    for (const Sample& s : {samples()[0], samples()[4], samples()[7]}) {
        const Built b = build(s);
        const std::string tex = fig::to_tikz(b.figure);
        INFO(s.instruction);
        CHECK(tex.find("\\documentclass[tikz,border=2pt]{standalone}") != std::string::npos);
        CHECK(tex.find("\\begin{tikzpicture}") != std::string::npos);
        CHECK(tex.find("\\end{document}") != std::string::npos);
        size_t nodes = 0;
        for (size_t p = tex.find("\\node[tile,"); p != std::string::npos; p = tex.find("\\node[tile,", p + 1)) ++nodes;
        CHECK(nodes == b.layout.entries().size());
        // Braces balance (ignoring escaped ones) and the text is plain ASCII for pdflatex.
        int depth = 0, min_depth = 0;
        for (size_t i = 0; i < tex.size(); ++i) {
            if (tex[i] == '\\' && i + 1 < tex.size() && (tex[i + 1] == '{' || tex[i + 1] == '}')) {
                ++i;
                continue;
            }
            depth += tex[i] == '{' ? 1 : tex[i] == '}' ? -1 : 0;
            min_depth = std::min(min_depth, depth);
        }
        CHECK(depth == 0);
        CHECK(min_depth == 0);
        bool ascii = true;
        for (unsigned char c : tex) ascii = ascii && c < 0x80;
        CHECK(ascii);
    }
}

TEST_CASE("PNG: right signature and size and the palette lane-group colours in its pixels") {
    if (fig::find_font().empty()) {
        LANESCOPE_SKIP("no TrueType font (fonts-dejavu-core): PNG test skipped");
    }
    for (const Sample& s : {samples()[0], samples()[6]}) {
        const Built b = build(s);
        const std::vector<std::uint8_t> png = fig::to_png(b.figure, 1.0);
        INFO(s.instruction);
        REQUIRE(png.size() > 33);
        const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
        CHECK(std::equal(sig, sig + 8, png.begin()));
        auto be32 = [&](size_t at) { return (png[at] << 24) | (png[at + 1] << 16) | (png[at + 2] << 8) | png[at + 3]; };
        CHECK(be32(16) == static_cast<int>(std::ceil(b.figure.width)));
        CHECK(be32(20) == static_cast<int>(std::ceil(b.figure.height)));
        int w = 0, h = 0, ch = 0;
        unsigned char* px = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &ch, 3);
        REQUIRE(px != nullptr);
        auto key = [](unsigned r, unsigned g, unsigned b) { return (r << 16) | (g << 8) | b; };
        std::set<unsigned> seen;
        for (int i = 0; i < w * h; ++i) seen.insert(key(px[3 * i], px[3 * i + 1], px[3 * i + 2]));
        stbi_image_free(px);
        auto has = [&](const ls::Rgb& c) { return seen.count(key(c.r, c.g, c.b)) == 1; };
        const int gs = group_size(*b.ins);
        for (int g = 0; g < b.mods.wave / gs; ++g) CHECK(has(ls::categorical(g, ls::Theme::Light)));
        CHECK(has(ls::theme_colors(ls::Theme::Light).background));
    }
}

TEST_CASE("dark theme and colour by block use the shared palette") {
    const Built b = build(samples()[0], ls::View::Matrix, ls::ColorBy::Block, ls::Theme::Dark);
    const std::string svg = fig::to_svg(b.figure);
    CHECK(svg.find("fill=\"" + ls::theme_colors(ls::Theme::Dark).background.hex() + "\"") != std::string::npos);
    for (const SvgTile& t : svg_tiles(svg)) {
        const int block = std::atoi(t.id.c_str() + 2);
        CHECK(t.fill == ls::categorical(block, ls::Theme::Dark).hex());
    }
    CHECK(svg.find(">block 15<") != std::string::npos);
}

TEST_CASE("figure command: format from the file name and clear errors and nothing half-written") {
    const std::string dir = temp_dir("figcli");
    const std::string base = "figure --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D ";
    Run r = cli(base + "-o " + dir + "/d.tex");
    CHECK(r.status == 0);
    CHECK(read_file(dir + "/d.tex").find("\\begin{tikzpicture}") != std::string::npos);
    if (!fig::find_font().empty()) {
        r = cli(base + "-o " + dir + "/d.png");
        CHECK(r.status == 0);
        CHECK(read_file(dir + "/d.png").substr(1, 3) == "PNG");
    }
    r = cli(base + "--format svg -o " + dir + "/d.svg");
    CHECK(r.status == 0);
    CHECK(xml_problem(read_file(dir + "/d.svg")).empty());
    size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        ++files;
        CHECK(e.path().string().find(".tmp") == std::string::npos);
    }
    CHECK(files == (fig::find_font().empty() ? 2u : 3u));

    r = cli(base + "-o /nonexistent-lanescope-dir/d.svg");
    CHECK(r.status == 1);
    CHECK(r.err.find("cannot write '/nonexistent-lanescope-dir/d.svg'") != std::string::npos);
    r = cli("figure --arch gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand K -o " + dir + "/k.svg");
    CHECK(r.status == 1);
    CHECK(r.err.find("error") != std::string::npos);
    r = cli(base + "--format gif -o " + dir + "/x.gif");
    CHECK(r.status == 1);
    CHECK(r.err.find("legal: svg, tikz, png") != std::string::npos);
    r = cli(base + "--color hue -o " + dir + "/x.svg");
    CHECK(r.status == 1);
    CHECK(r.err.find("legal: lane, register, block") != std::string::npos);
    r = cli(base + "--cbsz 9 -o " + dir + "/x.svg");
    CHECK(r.status == 1);
    r = cli(base);
    CHECK(r.status == 2);  // -o is required
    CHECK_FALSE(std::filesystem::exists(dir + "/x.svg"));
    CHECK_FALSE(std::filesystem::exists(dir + "/k.svg"));
    CHECK_FALSE(std::filesystem::exists(dir + "/x.gif"));
    std::filesystem::remove_all(dir);
}

// Every kind of TikZ file the project writes, the largest of each, compiles
// with pdflatex at TeX Live's default memory (the package lists install it),
// and pdftoppm renders it to a page of the figure's aspect. The PNGs stay in
// $LANESCOPE_TIKZ_OUT when that is set, to be looked at.
TEST_CASE("TikZ: the largest figures compile with pdflatex at default settings and render") {
    REQUIRE(std::system("command -v pdflatex >/dev/null 2>&1 && kpsewhich standalone.cls >/dev/null 2>&1 && "
                        "kpsewhich tikz.sty >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1") == 0);
    const std::string dir = temp_dir("tikz");
    const char* keep = std::getenv("LANESCOPE_TIKZ_OUT");
    const std::pair<const char*, const char*> figures[] = {
        {"scale16_all_page", "-a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --operand all --width page"},
        {"scale32_fp4_fp6_all_page", "-a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --cbsz 4 --blgp 2 --operand all --width page"},
        {"scale32_sa_column", "-a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --operand SA"},
        {"mfma32_all_natural", "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --width natural"},
        {"mfma32_2b_all_page", "-a gfx942 -i v_mfma_f32_32x32x1_2b_f32 --operand all --width page"},
        {"mfma4_16b_d_natural", "-a gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D --width natural"},
        {"smfmac_a_registers", "-a gfx950 -i v_smfmac_f32_32x32x32_f16 --operand A --view registers --width page"},
        {"wgmma_n256_d_page", "-a sm_90 -i wgmma_m64n256k16_f32_f16 --operand D --width page"},
        {"tile256_all_page", "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --waves 2x2 --tiles-per-wave 2x1 --shape 256x256x64 --width page"},
        {"memory_b_transpose", "-a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --memory lds --order row --transpose"},
    };
    for (const auto& [name, args] : figures) {
        INFO(name << ": figure " << args);
        const std::string tex = dir + "/" + name + ".tex";
        Run r = cli(std::string("figure ") + args + " --format tikz -o " + tex);
        REQUIRE(r.status == 0);
        const int rc = std::system(("cd " + dir + " && timeout 300 pdflatex -interaction=nonstopmode -halt-on-error " + name +
                                    ".tex >/dev/null 2>&1").c_str());
        const std::string log = read_file(dir + "/" + name + ".log");
        INFO(log.substr(log.size() > 3000 ? log.size() - 3000 : 0));
        CHECK(rc == 0);
        CHECK(log.find("TeX capacity exceeded") == std::string::npos);
        REQUIRE(read_file(dir + "/" + name + ".pdf").rfind("%PDF", 0) == 0);
        CHECK(std::system(("cd " + dir + " && pdftoppm -png -r 72 -singlefile " + name + ".pdf " + name).c_str()) == 0);
        const std::string png = read_file(dir + "/" + name + ".png");
        CHECK(png.size() > 2000);  // a drawn page, not an empty one
        if (keep) std::filesystem::copy_file(dir + "/" + name + ".png", std::string(keep) + "/" + name + ".png",
                                             std::filesystem::copy_options::overwrite_existing);
    }
    std::filesystem::remove_all(dir);
}

namespace {

// Upper bound of a DejaVu Sans advance width, per character, in em: letters,
// digits and '+' at most 0.64 (digits are 0.636), brackets, colons and dots
// 0.4. An estimate independent of the layout's own text_width().
double label_em(const std::string& s) {
    double em = 0;
    for (char c : s) em += std::string("[]():.,").find(c) != std::string::npos ? 0.4 : 0.64;
    return em;
}

// All numbers of a TikZ option like "minimum width=12.5pt" in `node`.
double tikz_option_pt(const std::string& node, const std::string& key) {
    const size_t p = node.find(key + "=");
    return p == std::string::npos ? -1 : std::atof(node.c_str() + p + key.size() + 1);
}

}  // namespace

TEST_CASE("TikZ fitted to a column or a page: every font at least 5 pt, every label inside its cell, the width kept") {
    struct Case {
        const char* args;
        bool labels_at_column;  // register and lane fit at 5 pt: 16 cells across 240 pt leave 13 pt a cell for "v3"/"L63"
    };
    const Case cases[] = {
        {"-a gfx942 -i v_mfma_f32_16x16x16_f16 --operand D", true},
        {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all", false},
        {"-a gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D", false},
        {"-a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 2 --operand A", false},
        {"-a gfx950 -i v_smfmac_f32_32x32x32_f16 --operand K", false},
        // 4 copies a cell, 16 cells across: "v0"/"L17" without the bits fits.
        {"-a gfx1100 -i v_wmma_f32_16x16x16_f16 --wave 64 --operand A", true},
        {"-a gfx90a -i v_mfma_f64_16x16x4f64 --operand D", false},
        // 2 VGPRs of two halves each: 4 labels a row, ~50 pt each at a column's width.
        {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --view registers", true},
    };
    for (const Case& c : cases)
        for (const std::pair<const char*, double>& width : {std::pair<const char*, double>{"", 240}, {"--width column", 240},
                                                           {"--width page", 500}, {"--width 8.5cm", 241.85}}) {
            INFO(c.args << " " << width.first);
            Run r = cli(std::string("figure ") + c.args + " --format tikz " + width.first + " -o -");
            REQUIRE(r.status == 0);
            const std::string& tex = r.out;
            // The picture's background rectangle spans the figure: x=0.5pt per unit.
            const size_t bg = tex.find("] (0,0) rectangle (");
            REQUIRE(bg != std::string::npos);
            const double w_units = std::atof(tex.c_str() + bg + 19);
            CHECK(w_units * 0.5 <= width.second + 0.5);
            CHECK(w_units * 0.5 >= 0.6 * width.second);
            // Every font of the document.
            size_t fonts = 0;
            for (size_t p = tex.find("\\fontsize{"); p != std::string::npos; p = tex.find("\\fontsize{", p + 1)) {
                CHECK(std::atof(tex.c_str() + p + 10) >= 5.0);
                ++fonts;
            }
            CHECK(fonts > 3);
            // Tile labels: the tile font from the tile style, each line inside the node's width.
            const size_t style = tex.find("tile/.style={");
            REQUIRE(style != std::string::npos);
            const double tile_pt = std::atof(tex.c_str() + tex.find("\\fontsize{", style) + 10);
            size_t labelled = 0, tiles = 0, with_register = 0;
            for (size_t p = tex.find("\\node[tile,"); p != std::string::npos; p = tex.find("\\node[tile,", p + 1)) {
                ++tiles;
                const std::string node = tex.substr(p, tex.find(";\n", p) - p);
                const double w = tikz_option_pt(node, "minimum width");
                const std::string text = node.substr(node.rfind('{') + 1, node.rfind('}') - node.rfind('{') - 1);
                if (text.empty()) continue;
                ++labelled;
                if (text.find('v') != std::string::npos) ++with_register;
                for (size_t a = 0;;) {
                    const size_t b = text.find("\\\\", a);
                    const std::string line = text.substr(a, b == std::string::npos ? std::string::npos : b - a);
                    if (label_em(line) * tile_pt > w) FAIL_CHECK("label '" << line << "' is wider than its " << w << " pt cell");
                    if (b == std::string::npos) break;
                    a = b + 2;
                }
            }
            // Only labelled tiles are nodes (colours-only tiles are fills), and every
            // node has its label: one label form per figure.
            CHECK(labelled == tiles);
            // The registers view names elements ("A[3][5]"), the matrix view registers ("v3").
            const bool registers_view = std::string(c.args).find("--view registers") != std::string::npos;
            if (registers_view) with_register = labelled;
            if (width.second == 240 && c.labels_at_column) CHECK((tiles > 0 && with_register == tiles));
            // Too narrow for register and lane: at most the lane number.
            if (width.second == 240 && !c.labels_at_column) CHECK(with_register == 0);
        }
}

TEST_CASE("figure --width: SVG fitted keeps one id per tile, bad widths are refused") {
    Run r = cli("figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D --width column -o -");
    REQUIRE(r.status == 0);
    CHECK(svg_tiles(r.out).size() == 32 * 32);
    CHECK(xml_problem(r.out).empty());
    CHECK(r.out.find("width=\"320\"") != std::string::npos);  // 240 pt at 0.75 pt per CSS px
    for (const char* bad : {"--width wide", "--width 10pt", "--width 12", "--width column --min-font 1pt"}) {
        INFO(bad);
        r = cli(std::string("figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D -o - ") + bad);
        CHECK(r.status == 1);
        CHECK(r.err.find("legal") != std::string::npos);
    }
}

// PTX ISA §9.7.14.5.8 (mma.m16n8k16 with .f16 A/B, .f32 C/D), fragment figures:
// groupID = laneid >> 2, threadID_in_group = laneid % 4;
//   A: a_i at row groupID (+8 for i = 2, 3, 6, 7), col 2*threadID_in_group + (i & 1) (+8 for i >= 4);
//   B: b_i at row 2*threadID_in_group + (i & 1) (+8 for i >= 2), col groupID;
//   C/D: c_i at row groupID (+8 for i >= 2), col 2*threadID_in_group + (i & 1).
// Inverted here: the PTX name and thread of element (row, col) of each operand.
namespace {
std::pair<std::string, int> ptx_m16n8k16(char op, int row, int col) {
    int i = 0, group = 0, tig = 0;
    if (op == 'a') {
        group = row % 8, tig = (col % 8) / 2;
        i = (col & 1) + (row >= 8 ? 2 : 0) + (col >= 8 ? 4 : 0);
    } else if (op == 'b') {
        group = col, tig = (row % 8) / 2;
        i = (row & 1) + (row >= 8 ? 2 : 0);
    } else {
        group = row % 8, tig = col / 2;
        i = (col & 1) + (row >= 8 ? 2 : 0);
    }
    return {std::string(1, op) + std::to_string(i), group * 4 + tig};
}
}  // namespace

TEST_CASE("NVIDIA figures in PTX's terms: a0..a7, b0..b3, d0..d3 and T<lane> from the PTX fragment tables, legend by groupID") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_80");
    const ls::Instruction& ins = cat.find_instruction(t, "mma_m16n8k16_f32_f16");
    fig::FigureSpec spec;
    spec.ins = &ins, spec.target = &t, spec.mods = ls::resolve_modifiers(ins, t, {});
    spec.operands = {ls::Operand::A, ls::Operand::B, ls::Operand::D};
    for (double width : {0.0, 500 / 0.75}) {
        INFO("fit width " << width);
        spec.fit_width = width, spec.min_font = width > 0 ? 5 / 0.75 : 0;
        const std::string svg = fig::to_svg(fig::build_figure(spec));
        REQUIRE(xml_problem(svg).empty());
        const std::vector<SvgTile> tiles = svg_tiles(svg);
        CHECK(tiles.size() == 16 * 16 + 16 * 8 + 16 * 8);
        for (const SvgTile& tile : tiles) {
            INFO(tile.id);
            const std::vector<int> v = split_ints(tile.id.substr(2), '.');
            REQUIRE(v.size() == 4);
            const char op = tile.id[0] == 'A' ? 'a' : tile.id[0] == 'B' ? 'b' : 'd';
            const auto [name, thread] = ptx_m16n8k16(op, v[1], v[2]);
            REQUIRE(tile.lines.size() == 2);
            CHECK(tile.lines[0] == name);
            CHECK(tile.lines[1] == "T" + std::to_string(thread));
            // Colour: a hue per groupID, shaded by threadID_in_group (thread 4g has the hue).
            if (thread % 4 == 0) CHECK(tile.fill == ls::categorical(thread / 4, ls::Theme::Light).hex());
        }
        // The brief's example: A (row 3, col 2) is a0 of thread 13 (groupID 3, threadID_in_group 1).
        CHECK(svg.find("id=\"A.0.3.2.0\" x=") != std::string::npos);
        CHECK(ptx_m16n8k16('a', 3, 2) == std::make_pair(std::string("a0"), 13));
        for (int g = 0; g < 8; ++g) {
            const std::string entry = ">groupID " + std::to_string(g) + " (T" + std::to_string(4 * g) + "\u2013" +
                                      std::to_string(4 * g + 3) + ")<";
            INFO(entry);
            CHECK(svg.find(entry) != std::string::npos);
        }
        CHECK(svg.find("shade by threadID_in_group") != std::string::npos);
        CHECK(svg.find(">v0<") == std::string::npos);  // no AMD register names
        CHECK(svg.find(">L13<") == std::string::npos);
    }
    // TikZ: the same names in the nodes ("a0\\T13" over two lines).
    Run r = cli("figure -a sm_80 -i mma_m16n8k16_f32_f16 --operand all --format tikz --width natural -o -");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("(A-0-3-2-0) at") != std::string::npos);
    const size_t node = r.out.find("(A-0-3-2-0) at");
    CHECK(r.out.substr(node, r.out.find('\n', node) - node).find("{a0\\\\T13}") != std::string::npos);
    CHECK(r.out.find("{d3\\\\T31}") != std::string::npos);   // D (15, 7): d3 of groupID 7, threadID_in_group 3
    CHECK(r.out.find("{b3\\\\T31}") != std::string::npos);   // B (15, 7)
    CHECK(r.out.find("\\\\L") == std::string::npos);
}

TEST_CASE("wgmma figures: d names from PTX's wgmma D fragment, legend by warp of the warpgroup, B named as shared memory") {
    // PTX ISA §9.7.15.5.1.1 (wgmma .m64nNk16 accumulator D): thread T of the warpgroup,
    // warp = T / 32, groupID = (T % 32) / 4, threadID_in_group = T % 4; d_i at
    // row 16*warp + groupID (+8 for i % 4 >= 2), col 8*(i / 4) + 2*threadID_in_group + (i & 1).
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_90");
    const ls::Instruction& ins = cat.find_instruction(t, "wgmma_m64n64k16_f32_f16");
    fig::FigureSpec spec;
    spec.ins = &ins, spec.target = &t, spec.mods = ls::resolve_modifiers(ins, t, {});
    spec.operands = {ls::Operand::D};
    const std::string svg = fig::to_svg(fig::build_figure(spec));
    size_t checked = 0;
    for (const SvgTile& tile : svg_tiles(svg)) {
        const std::vector<int> v = split_ints(tile.id.substr(2), '.');
        REQUIRE(v.size() == 4);
        const int row = v[1], col = v[2];
        const int warp = row / 16, group = row % 8, tig = (col % 8) / 2;
        const int i = 4 * (col / 8) + (col & 1) + ((row % 16) >= 8 ? 2 : 0);
        INFO(tile.id);
        REQUIRE(tile.lines.size() == 2);
        CHECK(tile.lines[0] == "d" + std::to_string(i));
        CHECK(tile.lines[1] == "T" + std::to_string(32 * warp + 4 * group + tig));
        ++checked;
    }
    CHECK(checked == 64 * 64);
    for (int w = 0; w < 4; ++w)
        CHECK(svg.find(">warp " + std::to_string(w) + " (T" + std::to_string(32 * w) + "\u2013" + std::to_string(32 * w + 31) + ")<") !=
              std::string::npos);
}

// CDNA4 ISA guide §7.1.5–7.2.1 (scaled MFMA): one E8M0 scale per 32 k of each row of
// A (SA, M x K/32) and of each column of B (SB, K/32 x N), lane = row (column) + M * (k/32),
// in byte opsel_a (opsel_b) of the one scale VGPR: bits [8*opsel+7 : 8*opsel].
TEST_CASE("scaled MFMA --operand all: SA and SB in rows of their own, every cell whole, byte field and lane legible") {
    struct Case {
        const char* args;
        int m, n, kb, byte_a, byte_b;
    };
    const Case cases[] = {
        {"-a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 4 --blgp 4", 16, 16, 4, 0, 0},
        {"-a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 2 --opsel-a 1 --opsel-b 3", 16, 16, 4, 1, 3},
        {"-a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --cbsz 4 --blgp 2", 32, 32, 2, 0, 0},
    };
    for (const Case& c : cases)
        for (const char* width : {"--width natural", "--width page", "--width column"}) {
            INFO(c.args << " " << width);
            Run r = cli(std::string("figure ") + c.args + " --operand all " + width + " -o -");
            REQUIRE(r.status == 0);
            REQUIRE(xml_problem(r.out).empty());
            const auto bytes = [](int b) { return "[" + std::to_string(8 * b + 7) + ":" + std::to_string(8 * b) + "]"; };
            size_t sa = 0, sb = 0, two_lines = 0;
            for (const SvgTile& t : svg_tiles(r.out)) {
                const bool is_a = t.id.rfind("SA.", 0) == 0, is_b = t.id.rfind("SB.", 0) == 0;
                if (!is_a && !is_b) continue;
                const std::vector<int> v = split_ints(t.id.substr(3), '.');
                REQUIRE(v.size() == 4);
                const int lane = is_a ? v[1] + c.m * v[2] : v[2] + c.n * v[1];
                (is_a ? sa : sb) += 1;
                REQUIRE_FALSE(t.lines.empty());  // every scale cell names its lane
                CHECK(t.lines.back() == "L" + std::to_string(lane));
                if (t.lines.size() == 2) {
                    ++two_lines;
                    CHECK(t.lines[0] == "v0" + bytes(is_a ? c.byte_a : c.byte_b));
                }
            }
            CHECK(sa == static_cast<size_t>(c.m * c.kb));
            CHECK(sb == static_cast<size_t>(c.n * c.kb));
            // Register and byte field over the lane in every cell, at every width; the
            // headings name the byte field all cells share.
            CHECK(two_lines == sa + sb);
            CHECK(r.out.find("every scale in v0" + bytes(c.byte_a)) != std::string::npos);
            CHECK(r.out.find("every scale in v0" + bytes(c.byte_b)) != std::string::npos);
            // The fonts: the tile font at least the 5 pt minimum (SVG: 0.75 pt per unit).
            const size_t fs = r.out.find(".t text{font-size:");
            REQUIRE(fs != std::string::npos);
            if (std::string(width) != "--width natural") CHECK(std::atof(r.out.c_str() + fs + 18) * 0.75 >= 5 - 1e-6);
            // The formats by name in the headings.
            CHECK(r.out.find(c.byte_a == 1 ? "FP6 E2M3 (cbsz=2)" : "FP4 E2M1 (cbsz=4)") != std::string::npos);
        }
}

TEST_CASE("sparse index cells keep their nibble where bits do not fit; wgmma names B's place; narrow blocks keep their letter") {
    // K at a page's width: the bits do not fit 32 columns, so cells read "v0.n1" / "e.n1":
    // the 4-bit field where() gives (bits [4n+3:4n]), and the legend says what n means.
    for (const auto& [arch, name, reg] : {std::tuple<const char*, const char*, const char*>{"gfx942", "v_smfmac_f32_32x32x16_f16", "v"},
                                          {"sm_80", "mma_sp_m16n8k32_f32_f16", "e"}}) {
        INFO(arch << " " << name);
        const Built b = build({arch, name, ls::Operand::K, mods()});
        fig::FigureSpec spec;
        spec.ins = b.ins, spec.target = b.target, spec.mods = b.mods, spec.operands = {ls::Operand::K};
        spec.fit_width = 500 / 0.75, spec.min_font = 5 / 0.75;
        const std::string svg = fig::to_svg(fig::build_figure(spec));
        size_t checked = 0, nibbles = 0;
        for (const SvgTile& t : svg_tiles(svg)) {
            const std::vector<int> v = split_ints(t.id.substr(2), '.');
            REQUIRE(v.size() == 4);
            const ls::Location loc = b.layout.where({v[0], v[1], v[2]})[v[3]];
            REQUIRE(loc.bit_hi - loc.bit_lo == 3);  // a 4-bit field
            REQUIRE(t.lines.size() == 2);
            const std::string base = std::string(reg) == "v" ? "v" + std::to_string(loc.reg) : std::string("e");
            const std::string bits = "[" + std::to_string(loc.bit_hi) + ":" + std::to_string(loc.bit_lo) + "]";
            CHECK((t.lines[0] == base + ".n" + std::to_string(loc.bit_lo / 4) || t.lines[0] == base + bits));
            nibbles += t.lines[0].find(".n") != std::string::npos;
            ++checked;
        }
        CHECK(checked == b.layout.entries().size());
        // AMD 32x32x16: 16 columns at a page, the bits fit; mma.sp m16n8k32: 32 columns, the nibble does.
        if (std::string(reg) == "v") CHECK(nibbles == 0);
        if (std::string(reg) == "e") {
            CHECK(nibbles == checked);
            CHECK(svg.find("e.n5: the index field in bits [23:20]") != std::string::npos);
        }
        CHECK(svg.find("compressed") != std::string::npos);
    }
    // wgmma: B is drawn from its shared-memory descriptor's layout through the ordinary path, never an empty frame.
    Run r = cli("figure -a sm_90 -i wgmma_m64n256k16_f32_f16 --operand all --width page -o -");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("operands A, B, D") != std::string::npos);
    CHECK(r.out.find("not drawn") == std::string::npos);
    CHECK(r.out.find(">16 x 256 in shared memory<") == std::string::npos);
    // 32x32x1 with 2 blocks at a page: A's one-column blocks keep "b0" and "b1".
    r = cli("figure -a cdna3 -i v_mfma_f32_32x32x1_2b_f32 --operand all --width page -o -");
    REQUIRE(r.status == 0);
    for (const char* label : {">b0</text>", ">b1</text>", ">block 0</text>", ">block 1</text>"}) {
        INFO(label);
        CHECK(r.out.find(label) != std::string::npos);
    }
}

// A shared-memory B (wgmma) and a Tensor Memory D (tcgen05.mma) are coloured by where they live
// (palette.hpp's location_color), so their legends and subtitles must say so, not name warps: a
// learner reading "colour by warp of the warpgroup" over 16-byte chunks is told something false.
TEST_CASE("figures of shared-memory and Tensor Memory operands name their own colour classes") {
    {
        const Built b = build({"sm_90a", "wgmma_m64n64k16_f32_f16", ls::Operand::B, {}});
        REQUIRE(b.layout.space() == ls::Space::SharedMemory);
        const std::string svg = fig::to_svg(b.figure);
        CHECK(svg.find("Colour by 16-byte chunk of the 128-byte line") != std::string::npos);
        CHECK(svg.find("colour by 16-byte chunk of the 128-byte line") != std::string::npos);  // the subtitle
        CHECK(svg.find("warp of the warpgroup") == std::string::npos);
        // The colour is a function of the chunk (address bits 4-6) and the line within its period of 8
        // (bits 7-9) alone, and the chunks of a line that hold elements take different hues.
        std::map<std::pair<int, int>, std::string> fill_of;
        std::map<int, std::map<int, std::string>> chunks_of_line;
        for (const SvgTile& t : svg_tiles(svg)) {
            REQUIRE(t.lines.size() == 2);
            const int address = std::stoi(t.lines[0].substr(2), nullptr, 16);  // "0x0490"
            const auto key = std::make_pair((address >> 4) & 7, (address >> 7) & 7);
            INFO(t.id << " at " << t.lines[0]);
            if (!fill_of.count(key)) fill_of[key] = t.fill;
            CHECK(fill_of[key] == t.fill);
            chunks_of_line[address >> 7][(address >> 4) & 7] = t.fill;
        }
        for (const auto& [line, chunks] : chunks_of_line) {
            std::set<std::string> hues;
            for (const auto& [chunk, fill] : chunks) hues.insert(fill);
            CHECK(hues.size() == chunks.size());
        }
    }
    {
        const Built b = build({"sm_100a", "tcgen05_mma_m128n256k16_f32_f16", ls::Operand::D, {}});
        REQUIRE(b.layout.space() == ls::Space::TensorMemory);
        const std::string svg = fig::to_svg(b.figure);
        CHECK(svg.find("Colour by TMEM lane quarter") != std::string::npos);
        CHECK(svg.find("warp of the warpgroup") == std::string::npos);
    }
    {   // registers keep their words
        const Built b = build({"sm_90a", "wgmma_m64n64k16_f32_f16", ls::Operand::D, {}});
        CHECK(fig::to_svg(b.figure).find("Colour by warp of the warpgroup") != std::string::npos);
    }
}
