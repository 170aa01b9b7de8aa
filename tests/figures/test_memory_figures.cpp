// Memory figures (figure --memory ...) checked from first principles:
// where each element lies follows from the address formula of docs/memory.md
// alone ((line*(ld+pad) + pos) elements from the start, line the row of a
// row-major tile), which lanes hold it from the layout engine's where(); the
// SVG's cells are parsed back and must put every element in exactly one cell,
// coloured by the lane group of the lanes holding it. The bank strip has one
// column per bank of the family and its caption repeats analyse_banks.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"
#include "lanescope/memory.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

namespace ls = lanescope;
namespace fig = lanescope::figures;
using namespace figtest;

namespace {

struct MemCase {
    const char* arch;
    const char* instruction;
    ls::Operand operand;
    ls::MemorySpace space;
    ls::MemoryOrder order;
    int ld, pad;  // ld 0: the contiguous extent
    bool transpose;
    int wave = -1;
    ls::XorSwizzle swizzle{};
};

const std::vector<MemCase>& cases() {
    static const std::vector<MemCase> c = {
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::B, ls::MemorySpace::Lds, ls::MemoryOrder::RowMajor, 64, 0, false},
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::B, ls::MemorySpace::Lds, ls::MemoryOrder::RowMajor, 64, 8, false},
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::A, ls::MemorySpace::Lds, ls::MemoryOrder::RowMajor, 0, 0, false},
        {"gfx942", "v_mfma_f32_16x16x16_f16", ls::Operand::A, ls::MemorySpace::Lds, ls::MemoryOrder::RowMajor, 64, 0, false, -1,
         ls::XorSwizzle{8, 1, 8}},
        {"gfx950", "v_mfma_f32_16x16x32_f16", ls::Operand::B, ls::MemorySpace::Lds, ls::MemoryOrder::RowMajor, 64, 0, true},
        {"gfx950", "v_mfma_f32_16x16x32_f16", ls::Operand::A, ls::MemorySpace::Lds, ls::MemoryOrder::ColMajor, 0, 4, false},
        {"gfx1200", "v_wmma_f32_16x16x16_f16", ls::Operand::B, ls::MemorySpace::Global, ls::MemoryOrder::RowMajor, 0, 0, true, 32},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", ls::Operand::A, ls::MemorySpace::Lds, ls::MemoryOrder::RowMajor, 0, 8, false, 32},
        {"gfx942", "v_mfma_f32_4x4x4_16b_f16", ls::Operand::D, ls::MemorySpace::Global, ls::MemoryOrder::ColMajor, 0, 0, false},
    };
    return c;
}

struct Built {
    fig::MemoryFigureSpec spec;
    ls::OperandLayout layout;
    int rows = 0, cols = 0;
};

Built make(const MemCase& c, int issue = 0, double fit_width = 0, double min_font = 0) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target(c.arch);
    const ls::Instruction& ins = cat.find_instruction(t, c.instruction);
    ls::Modifiers m;
    m.wave = c.wave;
    fig::MemoryFigureSpec s;
    s.query.ins = &ins, s.query.target = &t, s.query.mods = ls::resolve_modifiers(ins, t, m);
    const ls::OperandLayout L = ls::layout_of(ins, t, c.operand, s.query.mods);
    s.request.operand = c.operand;
    s.request.transpose = c.transpose;
    s.request.store = c.operand == ls::Operand::D;
    s.request.tile.space = c.space;
    s.request.tile.order = c.order;
    s.request.tile.element_bits = L.element_bits();
    const int rows = L.blocks() * L.rows(), cols = L.cols();
    s.request.tile.ld = c.ld > 0 ? c.ld : (c.order == ls::MemoryOrder::RowMajor ? cols : rows);
    s.request.tile.pad = c.pad;
    s.request.tile.swizzle = c.swizzle;
    s.issue = issue;
    s.fit_width = fit_width, s.min_font = min_font;
    return {s, L, rows, cols};
}

// Cell (line, position) of memory-matrix element (r, c), straight from the formula.
std::pair<int, int> cell_of(const ls::MemoryTile& t, int r, int c) {
    const bool row = t.order == ls::MemoryOrder::RowMajor;
    const int line = row ? r : c;
    int pos = row ? c : r;
    if (t.swizzle.vec > 0 && t.swizzle.max_phase > 1)
        pos ^= t.swizzle.vec * ((line / t.swizzle.per_phase) % t.swizzle.max_phase);
    return {line, pos};
}

std::vector<int> parse_id(const std::string& id, const std::string& prefix) {
    std::vector<int> v;
    size_t at = prefix.size();
    while (at <= id.size()) {
        const size_t dot = id.find('.', at);
        v.push_back(std::atoi(id.substr(at, dot == std::string::npos ? std::string::npos : dot - at).c_str()));
        if (dot == std::string::npos) break;
        at = dot + 1;
    }
    return v;
}

bool xmllint_accepts(const std::string& svg) {
    if (std::system("command -v xmllint >/dev/null 2>&1") != 0) return true;
    const std::string dir = temp_dir("memxml");
    const std::string path = dir + "/f.svg";
    fig::write_file_atomic(path, svg);
    const int rc = std::system(("xmllint --noout " + path + " 2>/dev/null").c_str());
    std::filesystem::remove_all(dir);
    return rc == 0;
}

// Every font-size of an SVG written by lanescope (the style sheet's classes).
std::vector<double> svg_font_sizes(const std::string& svg) {
    std::vector<double> out;
    const std::regex re("font-size:([0-9.]+)px");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back(std::atof((*it)[1].str().c_str()));
    return out;
}

}  // namespace

TEST_CASE("memory figure: every element in exactly one cell per holding lane and coloured by that lane's group and padding greyed") {
    for (const MemCase& c : cases()) {
        const Built b = make(c);
        const ls::Instruction& ins = *b.spec.query.ins;
        const ls::MemoryTile& tile = b.spec.request.tile;
        INFO(c.arch << " " << c.instruction << " " << ls::operand_name(c.operand) << " ld " << tile.ld << " pad " << c.pad
                    << (c.transpose ? " transposed" : ""));
        const fig::Figure f = fig::build_memory_figure(b.spec);
        const std::string svg = fig::to_svg(f);
        REQUIRE(xml_problem(svg).empty());
        CHECK(xmllint_accepts(svg));
        CHECK(svg.find(c.instruction) != std::string::npos);

        // Expected: per memory cell, the multiset of fills of the lanes holding its element (where()).
        std::map<std::pair<int, int>, std::multiset<std::string>> expected;
        for (const ls::Entry& e : b.layout.entries()) {
            const auto cell = cell_of(tile, e.element.block * b.layout.rows() + e.element.row, e.element.col);
            expected[cell].insert(ls::categorical(ls::lane_group(ins, e.loc.lane), ls::Theme::Light).hex());
        }
        const int panels = c.transpose ? 2 : 1;
        const bool row = tile.order == ls::MemoryOrder::RowMajor;
        const int lines = row ? b.rows : b.cols;
        for (int p = 0; p < panels; ++p) {
            std::map<std::pair<int, int>, std::multiset<std::string>> seen;
            std::map<std::string, int> fills_per_color;
            int pads = 0;
            for (const SvgTile& t : svg_tiles(svg)) {
                if (t.id.rfind("pad" + std::to_string(p) + ".", 0) == 0) {
                    const std::vector<int> v = parse_id(t.id, "pad");
                    CHECK(v[2] >= tile.ld);
                    CHECK(v[2] < tile.ld + tile.pad);
                    ++pads;
                }
                if (t.id.rfind("mem" + std::to_string(p) + ".", 0) != 0) continue;
                const std::vector<int> v = parse_id(t.id, "mem");
                REQUIRE(v.size() == 4);
                seen[{v[1], v[2]}].insert(t.fill);
                ++fills_per_color[t.fill];
                if (c.transpose && p == 1) {
                    // Transposed: the label names the reading lane and the receiving lane, which holds the element.
                    REQUIRE(t.lines.size() == 2);
                    const size_t arrow = t.lines[1].find("\u2192L");
                    REQUIRE(arrow != std::string::npos);
                    const int receiver = std::atoi(t.lines[1].c_str() + arrow + 4);
                    bool holds = false;
                    for (const ls::Entry& e : b.layout.entries())
                        if (cell_of(tile, e.element.block * b.layout.rows() + e.element.row, e.element.col) ==
                                std::make_pair(v[1], v[2]) &&
                            e.loc.lane == receiver)
                            holds = true;
                    CHECK(holds);
                }
            }
            CHECK(pads == lines * tile.pad);
            if (!(c.transpose && p == 1)) {
                // Plain loads and stores: each cell's slices are exactly the holding lanes' colours.
                CHECK(seen == expected);
            } else {
                // Transposed: each element once, coloured by the lane whose access reads it; the fills per
                // colour count the elements the lanes of that group read.
                std::set<std::pair<int, int>> cells, want;
                for (const auto& [cell, fills] : seen) {
                    CHECK(fills.size() == 1);
                    cells.insert(cell);
                }
                for (const auto& [cell, fills] : expected) want.insert(cell);
                CHECK(cells == want);
                const std::vector<ls::MemoryOp> ops = ls::plan_transposed_loads(ins, *b.spec.query.target, c.operand,
                                                                                b.spec.query.mods, tile);
                std::map<std::string, int> read_per_color;
                for (const ls::MemoryOp& op : ops)
                    read_per_color[ls::categorical(ls::lane_group(ins, op.lane), ls::Theme::Light).hex()] +=
                        static_cast<int>(op.delivers.size());
                CHECK(fills_per_color == read_per_color);
            }
        }
        if (c.transpose) CHECK(svg.find("confidence") != std::string::npos);
    }
}

TEST_CASE("memory figure: the bank strip has one column per bank and its caption and passes repeat analyse_banks") {
    for (const MemCase& c : cases()) {
        if (c.space != ls::MemorySpace::Lds) continue;
        const Built b0 = make(c);
        const ls::Target& t = *b0.spec.query.target;
        const ls::BankModel model = ls::bank_model(t);
        ls::MemoryPlan plan = ls::plan_memory(b0.spec.query, b0.spec.request);
        const int issues = ls::wave_instruction_count(plan.ops, 0);
        for (int issue = 0; issue < std::min(issues, 3); ++issue) {
            INFO(c.arch << " " << c.instruction << " " << ls::operand_name(c.operand) << " issue " << issue);
            const Built b = make(c, issue);
            const fig::Figure f = fig::build_memory_figure(b.spec);
            const int panel = c.transpose ? 1 : 0;
            const ls::BankReport* rep = nullptr;
            for (const ls::BankReport& r : plan.banks)
                if (r.wave == 0 && r.issue == issue) rep = &r;
            REQUIRE(rep);
            // Columns: every pass has one cell (lane slices, or one idle cell) for each bank 0..banks-1.
            const std::string prefix = "bank" + std::to_string(panel) + ".";
            std::map<int, std::set<int>> banks_of_pass;
            std::map<int, std::set<int>> lanes_of_pass;
            for (const fig::Tile& tl : f.tiles) {
                if (tl.id.rfind(prefix, 0) != 0) continue;
                const std::vector<int> v = parse_id(tl.id, "bank");
                REQUIRE(v.size() == 4);
                banks_of_pass[v[1]].insert(v[2]);
                if (tl.id.find("idle") == std::string::npos) {
                    REQUIRE(!tl.lines.empty());
                    lanes_of_pass[v[1]].insert(std::atoi(tl.lines.front().c_str() + 1));
                }
            }
            REQUIRE(banks_of_pass.size() == rep->passes.size());
            std::set<int> all_banks;
            for (int k = 0; k < model.banks; ++k) all_banks.insert(k);
            for (const auto& [pass, banks] : banks_of_pass) CHECK(banks == all_banks);
            // Per pass: the lanes drawn are the pass's lanes.
            for (size_t p = 0; p < rep->passes.size(); ++p)
                CHECK(lanes_of_pass[static_cast<int>(p)] ==
                      std::set<int>(rep->passes[p].lanes.begin(), rep->passes[p].lanes.end()));
            // Caption: the report's passes, cycles and minimum, and the grouping's name and confidence.
            std::string caption;
            for (const fig::Text& tx : f.texts) caption += tx.text + "\n";
            CHECK(caption.find(std::to_string(rep->passes.size()) + (rep->passes.size() == 1 ? " pass," : " passes,")) !=
                  std::string::npos);
            CHECK(caption.find(std::to_string(rep->cycles) + " cycles vs conflict-free minimum " +
                               std::to_string(rep->minimum_cycles)) != std::string::npos);
            CHECK(caption.find("'" + rep->grouping.name + "', " + rep->grouping.confidence) != std::string::npos);
            // The cycles written per pass add up to the report's (one strip per figure without --transpose).
            int cycles = 0;
            const std::regex re("^([0-9]+) cycles?$");
            for (const fig::Text& tx : f.texts) {
                std::smatch mt;
                if (std::regex_match(tx.text, mt, re)) cycles += std::atoi(mt[1].str().c_str());
            }
            if (!c.transpose) CHECK(cycles == rep->cycles);
        }
    }
}

TEST_CASE("memory figure: hand-computed bank conflicts show in the caption (gfx950 b128 rows of 256 and 272 bytes)") {
    // A of v_mfma_f32_16x16x32_f16 row-major: lane l reads 8 f16 (one ds_read_b128) of row l%16 from k = 8*(l/16),
    // at (l%16)*row_bytes + 16*(l/16). gfx950: 64 banks of 4 bytes, passes {0-3,12-15,20-27}, {4-11,16-19,28-31}
    // and the same +32 (docs/memory.md).
    // ld 128 (256-byte rows): bank (l%16)*64 + 4*(l/16) mod 64 = 4*(l/16): the 8 lanes of a pass with the same l/16
    // read 8 distinct dwords of the same 4 banks: 8 cycles per pass, 32 in all; minimum 64 dwords / 64 banks = 1 per pass.
    MemCase c{"gfx950", "v_mfma_f32_16x16x32_f16", ls::Operand::A, ls::MemorySpace::Lds, ls::MemoryOrder::RowMajor, 128, 0, false};
    auto caption = [](const Built& b) {
        std::string text;
        for (const fig::Text& t : fig::build_memory_figure(b.spec).texts) text += t.text + "\n";
        return text;
    };
    CHECK(caption(make(c)).find("(ds_read_b128): 4 passes, 32 cycles vs conflict-free minimum 4") != std::string::npos);
    // pad 8 (272-byte rows, 68 dwords): bank base 4*(row + l/16) mod 64; in pass {0-3,12-15,20-27} the bases are
    // 0..12, 48..60 and 20..48: 48 twice, so 2 cycles; likewise in every pass: 8 in all.
    c.pad = 8;
    CHECK(caption(make(c)).find("(ds_read_b128): 4 passes, 8 cycles vs conflict-free minimum 4") != std::string::npos);
}

TEST_CASE("memory figure fitted to a width: no text below --min-font and labels dropped before they shrink") {
    for (const MemCase& c : cases())
        for (double width_pt : {240.0, 500.0})
            for (double min_pt : {5.0, 7.0}) {
                INFO(c.arch << " " << c.instruction << " width " << width_pt << " min " << min_pt);
                const Built b = make(c, 0, width_pt / 0.75, min_pt / 0.75);
                const fig::Figure f = fig::build_memory_figure(b.spec);
                CHECK(f.width <= width_pt / 0.75 + 1);
                for (const fig::Text& t : f.texts) CHECK(t.size >= min_pt / 0.75 - 1e-9);
                CHECK(f.tile_font >= min_pt / 0.75 - 1e-9);
                const std::string svg = fig::to_svg(f);
                REQUIRE(xml_problem(svg).empty());
                for (double s : svg_font_sizes(svg)) CHECK(s >= min_pt / 0.75 - 0.01);
            }
}

TEST_CASE("figure --memory writes SVG and PNG and TikZ and bad input says what is legal and writes nothing") {
    const std::string dir = temp_dir("memfig");
    const std::string base = "figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --memory lds --order row --ld 64 --pad 8 ";
    Run r = cli(base + "-o " + dir + "/b.svg");
    REQUIRE(r.status == 0);
    const std::string svg = read_file(dir + "/b.svg");
    CHECK(xml_problem(svg).empty());
    CHECK(svg.find("ds_read") != std::string::npos);
    r = cli(base + "-o " + dir + "/b.png --scale 1");
    REQUIRE(r.status == 0);
    const std::string png = read_file(dir + "/b.png");
    REQUIRE(png.size() > 8);
    CHECK(png.compare(1, 3, "PNG") == 0);
    r = cli(base + "-o " + dir + "/b.tex");
    REQUIRE(r.status == 0);
    CHECK(read_file(dir + "/b.tex").find("\\begin{tikzpicture}") != std::string::npos);
    // The transposed pair and an RDNA4 global transpose load.
    r = cli("figure -a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --transpose -o " + dir + "/tr.svg");
    REQUIRE(r.status == 0);
    CHECK(read_file(dir + "/tr.svg").find("ds_read_b64_tr_b16") != std::string::npos);
    r = cli("figure -a gfx1200 -i v_wmma_f32_16x16x16_f16 --operand B --memory global --transpose -o " + dir + "/g.svg");
    REQUIRE(r.status == 0);
    CHECK(read_file(dir + "/g.svg").find("global_load_tr_b128") != std::string::npos);

    const std::pair<std::string, std::string> bad[] = {
        {base + "--issue 999", "--issue 999 is not legal"},
        {"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --ld 3", "ld"},
        {"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --memory lds", "one operand"},
        {"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --memory disk", "legal: lds, global"},
        {"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --transpose", "no transpose load on gfx942"},
        {"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --memory lds --view registers", "--view"},
        {"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --grouping nonsense", "legal"},
        {"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --memory lds --waves 2x2", "tile options"},
    };
    for (const auto& [args, words] : bad) {
        INFO(args);
        r = cli(args + " -o " + dir + "/bad.svg");
        CHECK(r.status != 0);
        CHECK(r.err.find(words) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir + "/bad.svg"));
    }
    std::filesystem::remove_all(dir);
}
