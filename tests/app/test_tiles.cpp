#include <map>
#include <set>
#include "model/tiles.hpp"
#include "model/selection.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

namespace ls = lanescope;
using namespace lsapp;

namespace {
LayoutSet make(const char* arch, const char* ins, int wave = -1) {
    ls::Modifiers m;
    m.wave = wave;
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, m});
}
std::set<std::string> fills(const TileGrid& g) {
    std::set<std::string> s;
    for (const auto& t : g.tiles) s.insert(t.fill.hex());
    return s;
}
}  // namespace

TEST_CASE("matrix grid: one tile per element, at a location the engine gives, in the palette's colour") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    for (const ls::OperandLayout& l : set.layouts) {
        GridStyle st;
        const TileGrid g = build_matrix_grid(*set.ins, l, st);
        REQUIRE(g.tiles.size() == static_cast<size_t>(l.elements()));
        for (const Tile& t : g.tiles) {
            const auto locs = l.where(t.element);
            CHECK(std::find(locs.begin(), locs.end(), t.loc) != locs.end());
            // The lane group's hue, shaded by the lane within the group (its first lane: the hue itself).
            const int group = ls::lane_group(*set.ins, t.loc.lane);
            if (t.loc.lane % ls::lane_group_size(*set.ins) == 0) CHECK(t.fill == ls::categorical(group, ls::Theme::Light));
            CHECK(t.copies == static_cast<int>(locs.size()));
        }
    }
}

TEST_CASE("matrix grid: D of a 16-block 4x4 shows 16 lane-group hues, a 32x32 shows 2, RDNA wave64 4; a shade per lane") {
    struct Case { const char* arch; const char* ins; int wave; };
    for (const Case c : {Case{"gfx942", "v_mfma_f32_4x4x4_16b_f16", -1}, Case{"gfx942", "v_mfma_f32_32x32x8_f16", -1},
                         Case{"gfx1100", "v_wmma_f32_16x16x16_f16", 64}, Case{"gfx1200", "v_wmma_f32_16x16x16_f16", 32}}) {
        const LayoutSet set = make(c.arch, c.ins, c.wave);
        const TileGrid g = build_matrix_grid(*set.ins, *set.find(ls::Operand::D), GridStyle{});
        std::set<int> groups, lanes;
        std::map<int, std::set<std::string>> fills_of_lane;
        for (const Tile& t : g.tiles) {
            groups.insert(ls::lane_group(*set.ins, t.loc.lane));
            lanes.insert(t.loc.lane);
            fills_of_lane[t.loc.lane].insert(t.fill.hex());
        }
        CHECK(static_cast<int>(groups.size()) == ls::lane_groups(*set.ins, set.mods.wave));
        // Lane order reads without text: every lane one colour, no two lanes alike.
        CHECK(fills(g).size() == lanes.size());
        for (const auto& [lane, f] : fills_of_lane) CHECK(f.size() == 1u);
    }
}

TEST_CASE("lane shades: lighter with the lane within its group (light theme), darker (dark theme)") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    auto sum = [](ls::Rgb c) { return c.r + c.g + c.b; };
    for (int lane = 1; lane < 32; ++lane) {
        CHECK(sum(ls::lane_color(*set.ins, lane, ls::Theme::Light)) >= sum(ls::lane_color(*set.ins, lane - 1, ls::Theme::Light)));
        CHECK(sum(ls::lane_color(*set.ins, lane, ls::Theme::Dark)) <= sum(ls::lane_color(*set.ins, lane - 1, ls::Theme::Dark)));
    }
    CHECK(ls::lane_color(*set.ins, 32, ls::Theme::Light) == ls::categorical(1, ls::Theme::Light));
    CHECK(!(ls::lane_color(*set.ins, 0, ls::Theme::Light) == ls::lane_color(*set.ins, 31, ls::Theme::Light)));
}

TEST_CASE("grids: hit-testing the centre of every tile finds that tile") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    GridStyle st;
    st.cell_w = 30;
    st.cell_h = 12;
    for (const ls::OperandLayout& l : set.layouts) {
        for (const TileGrid& g : {build_matrix_grid(*set.ins, l, st), build_register_grid(*set.ins, l, st)}) {
            for (size_t i = 0; i < g.tiles.size(); ++i) {
                const Tile& t = g.tiles[i];
                CHECK(g.hit((t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2) == static_cast<int>(i));
            }
            CHECK(g.hit(-1, 0) == -1);
            CHECK(g.hit(g.width + 1, 0) == -1);
        }
    }
    // In the gap between blocks nothing is hit.
    const TileGrid g = build_matrix_grid(*set.ins, *set.find(ls::Operand::D), st);
    CHECK(g.hit(g.cols * g.cell_w + g.block_gap / 2, 1) == -1);
}

TEST_CASE("register grid: each part is what which() says that lane's register holds") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x16_fp8_fp8");
    for (const ls::OperandLayout& l : set.layouts) {
        const TileGrid g = build_register_grid(*set.ins, l, GridStyle{});
        size_t parts = 0;
        for (int lane = 0; lane < l.lanes(); ++lane)
            for (int reg = 0; reg < l.regs(); ++reg) parts += l.which(reg, lane).size();
        CHECK(g.tiles.size() == parts);
        for (const Tile& t : g.tiles) {
            const auto locs = l.where(t.element);
            bool found = false;
            for (const auto& loc : locs) found |= loc.lane == t.loc.lane && loc.reg <= t.loc.reg;
            CHECK(found);
        }
    }
}

TEST_CASE("label forms: the richest form that fits every cell of the operand, in the documented order") {
    GridStyle st;  // 7 px per character, 14 px lines in tests
    const ls::Location loc{3, 17, 16, 31};
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const ls::Instruction& ins = *set.ins;
    const ls::Operand A = ls::Operand::A;
    CHECK(label_lines(ins, A, loc, 16, LabelForm::Full).first == "v3[31:16] \u00B7 L17");
    CHECK(label_lines(ins, A, loc, 16, LabelForm::TwoLines) == std::make_pair(std::string("v3[31:16]"), std::string("L17")));
    CHECK(label_lines(ins, A, loc, 16, LabelForm::Short) == std::make_pair(std::string("v3.hi"), std::string("L17")));
    CHECK(label_lines(ins, A, ls::Location{1, 2, 16, 23}, 8, LabelForm::Short).first == "v1.b2");
    CHECK(label_lines(ins, A, ls::Location{0, 2, 12, 15}, 4, LabelForm::Short).first == "v0.n3");
    CHECK(label_lines(ins, A, ls::Location{0, 2, 0, 31}, 32, LabelForm::Short).first == "v0");
    CHECK(label_lines(ins, A, loc, 16, LabelForm::OneLine).first == "v3 L17");
    CHECK(label_lines(ins, A, loc, 16, LabelForm::Lane).first == "L17");
    // 64-bit elements name their register pair in every form that shows a register.
    CHECK(label_lines(ins, A, ls::Location{2, 5, 0, 63}, 64, LabelForm::Short).first == "v[3:2]");
    const ls::OperandLayout& a = *set.find(ls::Operand::A);  // 16-bit elements, lanes up to 63
    CHECK(choose_label_form(ins, a, 200, 40, st) == LabelForm::Full);
    CHECK(choose_label_form(ins, a, 80, 40, st) == LabelForm::TwoLines);
    CHECK(choose_label_form(ins, a, 45, 40, st) == LabelForm::Short);
    CHECK(choose_label_form(ins, a, 60, 20, st) == LabelForm::OneLine);
    CHECK(choose_label_form(ins, a, 30, 20, st) == LabelForm::Lane);
    CHECK(choose_label_form(ins, a, 20, 20, st) == LabelForm::Number);
    CHECK(label_lines(ins, A, loc, 16, LabelForm::Number).first == "17");
    CHECK(choose_label_form(ins, a, 10, 20, st) == LabelForm::None);
    // Lane numbers in the small font reach cells too short for a line of the cell font: a 32x32 D at
    // 1100x720 has cells of about 16x12 px, and the learner reads the lanes there without zooming.
    CHECK(choose_label_form(ins, a, 16, 12, st) == LabelForm::Number);
    CHECK(choose_label_form(ins, a, 16, 9, st) == LabelForm::None);
    st.labels = false;
    CHECK(choose_label_form(ins, a, 200, 40, st) == LabelForm::None);
}

TEST_CASE("one label form per operand: every tile of a view uses it, and every label fits its cell") {
    GridStyle st;
    for (float w : {14.0f, 30.0f, 45.0f, 70.0f, 120.0f}) {
        for (float h : {12.0f, 20.0f, 34.0f}) {
            st.cell_w = w, st.cell_h = h;
            for (const auto& [arch, name] : {std::pair{"gfx942", "v_mfma_f32_32x32x8_f16"}, std::pair{"gfx90a", "v_mfma_f64_4x4x4f64"},
                                             std::pair{"gfx942", "v_smfmac_f32_16x16x32_f16"}}) {
                const LayoutSet set = make(arch, name);
                for (const ls::OperandLayout& l : set.layouts) {
                    const TileGrid g = build_matrix_grid(*set.ins, l, st);
                    for (const Tile& t : g.tiles) {
                        const auto lines = label_lines(*set.ins, l.operand(), t.loc, l.element_bits(), g.form);
                        CHECK(t.label == lines.first);
                        CHECK(t.label2 == lines.second);
                        if (g.form == LabelForm::Number) {
                            // Lane numbers use the small font (tests: 3/4 of the cell font's width, 10 px lines).
                            CHECK(0.75f * 7.0f * t.label.size() + 2 <= w);
                            CHECK(st.small_line_h <= h);
                        } else {
                            CHECK(7.0f * std::max(t.label.size(), t.label2.size()) <= w);
                            if (!t.label.empty()) CHECK((t.label2.empty() ? 1 : 2) * st.line_h <= h);
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("tiles: a grid resized for a zoom is the grid built at that size (places, form, labels)") {
    const auto& cat = ls::Catalog::builtin();
    for (auto [arch, name] : {std::pair<const char*, const char*>{"gfx942", "v_mfma_f32_4x4x4_16b_f16"},
                              {"gfx950", "v_smfmac_i32_32x32x64_i8"},
                              {"gfx1100", "v_wmma_f32_16x16x16_f16"},
                              {"sm_90", "wgmma_m64n64k16_f32_f16"}}) {
        const LayoutSet set = resolve_selection(cat, Selection{arch, name, {}});
        for (const ls::OperandLayout& l : set.layouts) {
            GridStyle from;
            from.cell_w = 6, from.cell_h = 4, from.blocks_per_row = 4;
            TileGrid g = build_matrix_grid(*set.ins, l, from);
            // Through every label form, small to large and back.
            for (float w : {20.0f, 45.0f, 90.0f, 130.0f, 12.0f}) {
                GridStyle to = from;
                to.cell_w = w, to.cell_h = w < 40 ? 14 : 34, to.blocks_per_row = w < 40 ? 2 : 4;
                resize_matrix_grid(g, *set.ins, l, to);
                const TileGrid want = build_matrix_grid(*set.ins, l, to);
                INFO(name << " " << ls::operand_name(l.operand()) << " at " << w << "x" << to.cell_h);
                REQUIRE(g.tiles.size() == want.tiles.size());
                CHECK(g.form == want.form);
                CHECK(g.width == want.width);
                CHECK(g.height == want.height);
                CHECK(g.blocks_per_row == want.blocks_per_row);
                for (size_t i = 0; i < g.tiles.size(); i += 7) {
                    CHECK(g.tiles[i].x0 == want.tiles[i].x0);
                    CHECK(g.tiles[i].y1 == want.tiles[i].y1);
                    CHECK(g.labels(g.tiles[i]) == want.labels(want.tiles[i]));
                }
            }
        }
    }
}
