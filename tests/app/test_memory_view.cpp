// The Memory tab's model: memory cells from the documented address formula,
// colours by the reading lane, links between memory and fragment cells, the
// bank breakdown of a pass. Expectations come from the formula in memory.hpp
// (the `load` contract), the engine's where(), and hand-counted bank words.
#include "model/arrange.hpp"
#include "model/links.hpp"
#include "model/memory_view.hpp"
#include "model/tile_view.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include <map>
#include <set>

namespace ls = lanescope;
using namespace lsapp;

namespace {

LayoutSet make(const char* arch, const char* ins, ls::Modifiers m = {}) {
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, m});
}

ls::MemoryTile tile_of(ls::MemoryOrder order, int ld, int pad, ls::XorSwizzle sw = {}, int bits = 16) {
    ls::MemoryTile t;
    t.order = order;
    t.ld = ld;
    t.pad = pad;
    t.swizzle = sw;
    t.element_bits = bits;
    return t;
}

// Independent of the planners: every lane reads each element it holds (its
// first location) with one element-wide load, in register order.
std::vector<ls::MemoryOp> one_load_per_element(const ls::OperandLayout& l, const ls::MemoryTile& t) {
    std::vector<ls::MemoryOp> ops;
    std::map<int, int> issued;
    for (int b = 0; b < l.blocks(); ++b)
        for (int r = 0; r < l.rows(); ++r)
            for (int c = 0; c < l.cols(); ++c) {
                const ls::Element e{b, r, c};
                const ls::Location loc = l.where(e).front();
                ls::MemoryOp o;
                o.lane = loc.lane;
                o.issue = issued[loc.lane]++;
                o.mnemonic = "ds_read_u16";
                o.address = ls::element_address(t, r, c);
                o.bytes = std::max(1, l.element_bits() / 8);
                o.reg = loc.reg;
                o.delivers.push_back({e, 0, loc});
                ops.push_back(o);
            }
    return ops;
}

IssueRow row_of(const std::vector<ls::MemoryOp>& ops) {
    IssueRow r;
    for (size_t i = 0; i < ops.size(); ++i) r.ops.push_back(static_cast<int>(i));
    return r;
}

ls::MemoryOp read(int lane, long long address, int bytes) {
    ls::MemoryOp o;
    o.lane = lane;
    o.address = address;
    o.bytes = bytes;
    o.mnemonic = "ds_read_b64";
    return o;
}

}  // namespace

TEST_CASE("memory view: every element's cell is its address in the load contract, pad and swizzle included") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const ls::OperandLayout& B = *set.find(ls::Operand::B);  // 8 x 32, 16-bit
    for (const ls::MemoryTile& t :
         {tile_of(ls::MemoryOrder::RowMajor, 32, 0), tile_of(ls::MemoryOrder::RowMajor, 64, 8),
          tile_of(ls::MemoryOrder::ColMajor, 8, 0), tile_of(ls::MemoryOrder::ColMajor, 16, 4),
          tile_of(ls::MemoryOrder::RowMajor, 64, 0, ls::XorSwizzle{8, 2, 4})}) {
        const MemoryGrid g = build_memory_grid(B, t, {});
        CHECK(g.lines == (t.order == ls::MemoryOrder::RowMajor ? 8 : 32));
        CHECK(g.positions == t.ld + t.pad);
        CHECK(g.cells.size() == static_cast<size_t>(g.lines) * (t.ld + t.pad));
        for (int r = 0; r < B.rows(); ++r)
            for (int c = 0; c < B.cols(); ++c) {
                const int cell = g.cell_of(B, {0, r, c});
                REQUIRE(cell >= 0);
                // A byte address is the cell index times the element size.
                CHECK(static_cast<long long>(cell) * 2 == ls::element_address(t, r, c));
                CHECK(g.cells[static_cast<size_t>(cell)].kind == MemoryCell::Kind::Element);
                CHECK(g.cells[static_cast<size_t>(cell)].element == ls::Element{0, r, c});
                if (!t.swizzle.active()) {
                    // First principles: row-major (r, c) sits at line r, position c; column-major at line c, position r.
                    const int want = t.order == ls::MemoryOrder::RowMajor ? r * (t.ld + t.pad) + c : c * (t.ld + t.pad) + r;
                    CHECK(cell == want);
                }
            }
        int elements = 0, padding = 0, unused = 0;
        for (const MemoryCell& m : g.cells) {
            elements += m.kind == MemoryCell::Kind::Element;
            padding += m.kind == MemoryCell::Kind::Padding;
            unused += m.kind == MemoryCell::Kind::Unused;
        }
        CHECK(elements == B.rows() * B.cols());
        CHECK(padding == g.lines * t.pad);
        CHECK(unused == g.lines * (t.ld - memory_extent(B, t.order)));
    }
}

TEST_CASE("memory view: a cell is coloured by the lane that reads it, with the Layout view's colour") {
    for (const char* ins : {"v_mfma_f32_32x32x8_f16", "v_mfma_f32_16x16x16_f16"}) {
        const LayoutSet set = make("gfx942", ins);
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B}) {
            const ls::OperandLayout& l = *set.find(op);
            const ls::MemoryTile t = tile_of(ls::MemoryOrder::RowMajor, memory_extent(l, ls::MemoryOrder::RowMajor) + 8, 4);
            const auto ops = one_load_per_element(l, t);
            const MemoryGrid g = build_memory_grid(l, t, ops);
            GridStyle st;
            st.labels = false;
            st.copy = 0;
            const TileGrid mem = memory_tiles(*set.ins, g, ops, st);
            const TileGrid frag = build_matrix_grid(*set.ins, l, st);
            REQUIRE(mem.tiles.size() == g.cells.size());
            for (int r = 0; r < l.rows(); ++r)
                for (int c = 0; c < l.cols(); ++c) {
                    const int cell = g.cell_of(l, {0, r, c});
                    const Tile& mt = mem.tiles[static_cast<size_t>(cell)];
                    const Tile& ft = frag.tiles[static_cast<size_t>(r * l.cols() + c)];
                    CHECK(mt.loc.lane == l.where({0, r, c}).front().lane);
                    CHECK(mt.fill == ft.fill);
                    CHECK(mt.key == ft.key);
                }
            // Padding is greyed: one colour, not a lane's.
            const Tile& pad = mem.tiles[static_cast<size_t>(g.cell(0, g.positions - 1))];
            CHECK(pad.key == -1);
            CHECK(mem.hit(pad.x0 + 1, pad.y0 + 1) == g.cell(0, g.positions - 1));
        }
    }
}

TEST_CASE("memory view links: a memory cell, its fragment cell and the reading lane light up together") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const ls::OperandLayout& B = *set.find(ls::Operand::B);
    const ls::MemoryTile t = tile_of(ls::MemoryOrder::RowMajor, 64, 8);
    const auto ops = one_load_per_element(B, t);
    const MemoryGrid g = build_memory_grid(B, t, ops);
    const ls::Element e{0, 5, 17};
    Hover h;
    h.kind = Hover::Kind::Element;
    h.operand = ls::Operand::B;
    h.element = e;
    const Links links = compute_links(set, h);
    // The fragment cell the Layout view marks: element (5, 17) and the slots where() names.
    const OperandHighlight& hb = *links.find(ls::Operand::B);
    CHECK(hb.elements[static_cast<size_t>(element_index(B, e))] == 2);
    const ls::Location at = B.where(e).front();
    CHECK(hb.slots[static_cast<size_t>(at.lane) * B.regs() + at.reg] == 2);
    const MemoryHighlight mh = memory_links(links, B, g, ops, h);
    std::map<int, int> level;
    for (const auto& [cell, v] : mh.cells) level[cell] = v;
    // The memory cell of B[5][17], row-major ld 64 + pad 8: 5 * 72 + 17.
    CHECK(level[5 * 72 + 17] == 2);
    // The reading lane: its other elements at level 1, its loads outlined.
    std::set<int> lane_cells;
    for (const auto& en : B.entries())
        if (en.loc.lane == at.lane) lane_cells.insert(g.cell_of(B, en.element));
    for (const auto& [cell, v] : level) CHECK(lane_cells.count(cell) == 1);
    CHECK(level.size() == lane_cells.size());
    REQUIRE(mh.op >= 0);
    CHECK(ops[static_cast<size_t>(mh.op)].delivers.front().element == e);
    for (int i : mh.ops) CHECK(ops[static_cast<size_t>(i)].lane == at.lane);
    CHECK(mh.ops.size() == lane_cells.size());  // one load per element here
}

TEST_CASE("memory view links: hovering D[i][j] marks B's column j in memory, hovering a lane what it holds") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_16x16x16_f16");
    const ls::OperandLayout& B = *set.find(ls::Operand::B);  // 16 x 16
    const ls::MemoryTile t = tile_of(ls::MemoryOrder::RowMajor, 32, 0);
    const auto ops = one_load_per_element(B, t);
    const MemoryGrid g = build_memory_grid(B, t, ops);
    Hover h;
    h.kind = Hover::Kind::Element;
    h.operand = ls::Operand::D;
    h.element = {0, 3, 9};
    const MemoryHighlight mh = memory_links(compute_links(set, h), B, g, ops, h);
    std::set<int> want;
    for (int k = 0; k < 16; ++k) want.insert(k * 32 + 9);
    std::set<int> got;
    for (const auto& [cell, v] : mh.cells) {
        CHECK(v == 1);
        got.insert(cell);
    }
    CHECK(got == want);
    CHECK(mh.ops.empty());

    Hover lane;
    lane.kind = Hover::Kind::Lane;
    lane.lane = 21;
    const MemoryHighlight ml = memory_links(compute_links(set, lane), B, g, ops, lane);
    std::set<int> held;
    for (const auto& en : B.entries())
        if (en.loc.lane == 21) held.insert(g.cell_of(B, en.element));
    std::set<int> marked;
    for (const auto& [cell, v] : ml.cells) {
        CHECK(v == 2);
        marked.insert(cell);
    }
    CHECK(marked == held);
    CHECK(ml.ops.size() == held.size());
}

TEST_CASE("memory view banks: distinct dwords per bank and pass, counted by hand (32 banks of 4 bytes)") {
    ls::BankModel model;
    model.banks = 32;
    model.bank_bytes = 4;
    std::vector<int> lanes16;
    for (int l = 0; l < 16; ++l) lanes16.push_back(l);
    SECTION("16 lanes, 8 bytes each, 128 bytes apart: banks 0 and 1 supply 16 dwords each") {
        std::vector<ls::MemoryOp> ops;
        for (int l = 0; l < 16; ++l) ops.push_back(read(l, l * 128, 8));
        const BankStrip s = bank_strip(ops, row_of(ops), model, {lanes16});
        CHECK(s.pass_cycles == std::vector<int>{16});
        CHECK(s.distinct[0][0] == 16);
        CHECK(s.distinct[0][1] == 16);
        CHECK(s.distinct[0][2] == 0);
    }
    SECTION("136 bytes apart (pad 4 halves): every bank at most once") {
        std::vector<ls::MemoryOp> ops;
        for (int l = 0; l < 16; ++l) ops.push_back(read(l, l * 136, 8));
        const BankStrip s = bank_strip(ops, row_of(ops), model, {lanes16});
        CHECK(s.cycles == 1);
        int used = 0;
        for (int n : s.distinct[0]) used += n;
        CHECK(used == 32);
    }
    SECTION("the same address for every lane: one broadcast") {
        std::vector<ls::MemoryOp> ops;
        for (int l = 0; l < 16; ++l) ops.push_back(read(l, 64, 8));
        CHECK(bank_strip(ops, row_of(ops), model, {lanes16}).cycles == 1);
    }
    SECTION("two passes are counted apart") {
        std::vector<ls::MemoryOp> ops;
        for (int l = 0; l < 16; ++l) ops.push_back(read(l, l * 128, 8));
        std::vector<int> a(lanes16.begin(), lanes16.begin() + 8), b(lanes16.begin() + 8, lanes16.end());
        const BankStrip s = bank_strip(ops, row_of(ops), model, {a, b});
        CHECK(s.pass_cycles == std::vector<int>{8, 8});
        CHECK(s.cycles == 16);
    }
}

TEST_CASE("memory view banks: conflicting cells of a tile, unpadded, padded and swizzled") {
    // Lane l reads row l, columns 0..3 of a row-major f16 tile (8 bytes) in one pass of 16 lanes.
    const LayoutSet set = make("gfx942", "v_mfma_f32_16x16x16_f16");
    const ls::OperandLayout& B = *set.find(ls::Operand::B);  // 16 x 16
    ls::BankModel model;
    model.banks = 32;
    std::vector<int> lanes16;
    for (int l = 0; l < 16; ++l) lanes16.push_back(l);
    struct Case { ls::MemoryTile tile; int cycles; };
    // ld 64 (128 bytes a row): all rows start in bank 0 -> 16 distinct dwords in banks 0, 1.
    // pad 4 (136 bytes): row l starts at dword 34 l, bank 2 l mod 32 -> no conflict.
    // swizzle vec 4 per_phase 1 max_phase 16: row l's columns 0..3 move to 4 l..4 l+3 -> dword 32 l + 2 l -> bank 2 l.
    for (const Case& k : {Case{tile_of(ls::MemoryOrder::RowMajor, 64, 0), 16}, Case{tile_of(ls::MemoryOrder::RowMajor, 64, 4), 1},
                          Case{tile_of(ls::MemoryOrder::RowMajor, 64, 0, ls::XorSwizzle{4, 1, 16}), 1}}) {
        std::vector<ls::MemoryOp> ops;
        for (int l = 0; l < 16; ++l) {
            ls::MemoryOp o = read(l, ls::element_address(k.tile, l, 0), 8);
            for (int c = 0; c < 4; ++c) o.delivers.push_back({{0, l, c}, 0, {0, l, 16 * c, 16 * c + 15}});
            ops.push_back(o);
        }
        const MemoryGrid g = build_memory_grid(B, k.tile, ops);
        const BankStrip s = bank_strip(ops, row_of(ops), model, {lanes16});
        CHECK(s.cycles == k.cycles);
        const auto bad = conflict_cells(g, ops, row_of(ops), s);
        CHECK(bad.size() == (k.cycles > 1 ? 64u : 0u));
        for (int c : bad) CHECK(g.cells[static_cast<size_t>(c)].kind == MemoryCell::Kind::Element);
        // Each op covers exactly its four cells.
        for (const auto& o : ops) {
            const auto [first, last] = g.op_cells(o);
            CHECK(last - first == 4);
            for (int c = first; c < last; ++c) CHECK(g.cells[static_cast<size_t>(c)].element.row == o.lane);
        }
    }
}

TEST_CASE("memory view: the planners' failures are messages, never exceptions") {
    for (const char* ins : {"v_mfma_f32_32x32x8_f16", "v_mfma_f32_4x4x4_16b_f16", "v_smfmac_f32_16x16x32_f16"}) {
        const LayoutSet set = make("gfx942", ins);
        for (const ls::OperandLayout& l : set.layouts)
            for (auto kind : {MemoryPlan::Kind::Plain, MemoryPlan::Kind::Transposed, MemoryPlan::Kind::Store}) {
                MemorySettings s;
                s.operand = l.operand();
                MemoryPlan p;
                REQUIRE_NOTHROW(p = make_plan(set, s, kind));
                CHECK((p.ok() ? !p.ops.empty() : !p.error.empty()));
                CHECK((p.ok() || p.issues.empty()));
            }
    }
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    MemorySettings s;
    s.operand = ls::Operand::A;
    const MemoryPlan st = make_plan(set, s, MemoryPlan::Kind::Store);
    CHECK_FALSE(st.ok());
    CHECK(st.error.find("C/D") != std::string::npos);
    // CDNA3 has no transpose loads (they are CDNA4's and RDNA4's).
    s.operand = ls::Operand::B;
    CHECK_FALSE(make_plan(set, s, MemoryPlan::Kind::Transposed).ok());
}

TEST_CASE("memory view: the grids of the largest operands fit a 1100x720 window's canvas") {
    // The tallest operand lines in the catalog (column-major 256-wide operands) and the widest rows.
    const ls::Catalog& cat = ls::Catalog::builtin();
    int most_lines = 0;
    for (const ls::Target& t : cat.targets())
        for (const ls::Instruction* ins : cat.on(t.family)) {
            LayoutSet set;
            try {
                set = resolve_selection(cat, Selection{t.gfx, ins->mnemonic, {}});
            } catch (const ls::Error&) {
                continue;
            }
            for (const ls::OperandLayout& l : set.layouts) {
                for (ls::MemoryOrder o : {ls::MemoryOrder::RowMajor, ls::MemoryOrder::ColMajor}) {
                    const int lines = memory_lines(l, o);
                    if (lines < most_lines) continue;
                    most_lines = lines;
                    const int positions = memory_extent(l, o) + 8;
                    std::vector<GridShape> shapes(3);
                    shapes[0].rows = shapes[1].rows = lines;
                    shapes[0].cols = shapes[1].cols = positions;
                    shapes[2].rows = l.rows(), shapes[2].cols = l.cols();
                    ArrangeParams p;
                    p.panel_w = 760, p.panel_h = 330;
                    p.gemm = false;
                    p.natural_w = 24, p.natural_h = 18;
                    const Arrangement a = arrange(shapes, p);
                    REQUIRE(a.grids.size() == 3);
                    for (size_t i = 0; i < a.grids.size(); ++i) {
                        CHECK(a.grids[i].grid.inside(a.panel, p.margin));
                        for (size_t j = i + 1; j < a.grids.size(); ++j) CHECK_FALSE(a.grids[i].grid.overlaps(a.grids[j].grid));
                    }
                    CHECK(a.cell_w > 0);
                    CHECK(a.cell_h > 0);
                }
            }
        }
    CHECK(most_lines >= 256);
}

TEST_CASE("memory view with core's plain loads: every element's cell shows a lane that holds it, where() says where") {
    struct Pick { const char* arch; const char* ins; };
    for (const Pick& k : {Pick{"gfx942", "v_mfma_f32_32x32x8_f16"}, Pick{"gfx942", "v_mfma_f32_4x4x4_16b_f16"},
                          Pick{"gfx950", "v_mfma_f32_16x16x32_f16"}, Pick{"gfx1200", "v_wmma_f32_16x16x16_f16"}}) {
        const LayoutSet set = make(k.arch, k.ins);
        for (const ls::OperandLayout& l : set.layouts) {
            if (l.operand() != ls::Operand::A && l.operand() != ls::Operand::B) continue;
            for (ls::MemoryOrder order : {ls::MemoryOrder::RowMajor, ls::MemoryOrder::ColMajor}) {
                INFO(k.arch << " " << k.ins << " " << ls::operand_name(l.operand()) << " " << ls::memory_order_name(order));
                MemorySettings s;
                s.operand = l.operand();
                s.tile.order = order;
                s.tile.pad = 4;
                const MemoryPlan p = make_plan(set, s, MemoryPlan::Kind::Plain);
                REQUIRE(p.ok());
                const MemoryGrid g = build_memory_grid(l, effective_tile(l, s), p.ops);
                for (int b = 0; b < l.blocks(); ++b)
                    for (int r = 0; r < l.rows(); ++r)
                        for (int c = 0; c < l.cols(); ++c) {
                            const int cell = g.cell_of(l, {b, r, c});
                            REQUIRE(cell >= 0);
                            const MemoryCell& m = g.cells[static_cast<size_t>(cell)];
                            REQUIRE(m.op >= 0);
                            const auto locs = l.where({b, r, c});
                            // A plain load lands in the reading lane's own registers, where the layout says.
                            CHECK(std::find(locs.begin(), locs.end(), m.to) != locs.end());
                            CHECK(p.ops[static_cast<size_t>(m.op)].lane == m.to.lane);
                            // The op's bytes cover the cell.
                            const auto [first, last] = g.op_cells(p.ops[static_cast<size_t>(m.op)]);
                            CHECK((first <= cell && cell < last));
                        }
                // The bank strip's own count of the documented rule agrees with core's report, pass by pass.
                REQUIRE(p.bank_model);
                for (const IssueRow& row : p.issues) {
                    REQUIRE(row.report >= 0);
                    const ls::BankReport& rep = p.banks[static_cast<size_t>(row.report)];
                    std::vector<std::vector<int>> passes;
                    for (const auto& bp : rep.passes) passes.push_back(bp.lanes);
                    const BankStrip strip = bank_strip(p.ops, row, *p.bank_model, passes);
                    CHECK(strip.cycles == rep.cycles);
                    for (size_t i = 0; i < rep.passes.size(); ++i) CHECK(strip.pass_cycles[i] == rep.passes[i].cycles);
                }
            }
        }
    }
}

TEST_CASE("memory view: the user's pass grouping replaces the default where core offers it") {
    const LayoutSet set = make("gfx950", "v_mfma_f32_16x16x32_f16");
    MemorySettings s;
    s.operand = ls::Operand::B;
    s.tile.ld = 64;
    const MemoryPlan first = make_plan(set, s, MemoryPlan::Kind::Transposed);
    REQUIRE(first.ok());
    REQUIRE_FALSE(first.banks.empty());
    const auto offered = groupings_for(set, first.banks.front().mnemonic);
    REQUIRE(offered.size() >= 2);
    CHECK(first.banks.front().grouping.name == offered.front().name);
    s.grouping = offered.back().name;
    const MemoryPlan chosen = make_plan(set, s, MemoryPlan::Kind::Transposed);
    REQUIRE(chosen.ok());
    for (const ls::BankReport& r : chosen.banks) {
        CHECK(r.grouping.name == offered.back().name);
        // The passes are the chosen grouping's.
        CHECK(r.passes.size() == offered.back().passes.size());
    }
    // A name no instruction offers changes nothing.
    s.grouping = "no such grouping";
    const MemoryPlan unknown = make_plan(set, s, MemoryPlan::Kind::Transposed);
    CHECK(unknown.cycles == first.cycles);
}

TEST_CASE("memory view: cell tooltips and lane labels") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const ls::OperandLayout& B = *set.find(ls::Operand::B);
    MemorySettings s;
    s.operand = ls::Operand::B;
    s.tile.ld = 40;
    s.tile.pad = 8;
    const MemoryPlan p = make_plan(set, s, MemoryPlan::Kind::Plain);
    REQUIRE(p.ok());
    const MemoryGrid g = build_memory_grid(B, effective_tile(B, s), p.ops);
    // B[3][7]: line 3, position 7, byte (3 * 48 + 7) * 2 = 302, bank 302 / 4 % 32 = 11 on gfx942.
    const std::string text = describe_memory_cell(set, g, p, g.cell_of(B, {0, 3, 7}));
    CHECK(text.find("byte 302") != std::string::npos);
    CHECK(text.find("bank 11") != std::string::npos);
    CHECK(text.find("B[3][7]") != std::string::npos);
    const ls::Location at = B.where({0, 3, 7}).front();
    CHECK(text.find("read by lane " + std::to_string(at.lane)) != std::string::npos);
    CHECK(describe_memory_cell(set, g, p, g.cell(0, 45)).find("padding") != std::string::npos);
    CHECK(describe_memory_cell(set, g, p, g.cell(0, 35)).find("outside B") != std::string::npos);
    CHECK(describe_memory_cell(set, g, p, -1).empty());
    // Lane numbers only when every one fits the cell.
    GridStyle st;
    st.text_width = [](const std::string& t) { return 7.0f * static_cast<float>(t.size()); };
    st.line_h = 14;
    st.cell_w = 24, st.cell_h = 18;
    const TileGrid big = memory_tiles(*set.ins, g, p.ops, st);
    CHECK(big.form == LabelForm::Number);
    const Tile& t = big.tiles[static_cast<size_t>(g.cell_of(B, {0, 3, 7}))];
    CHECK(t.label == std::to_string(at.lane));
    CHECK(big.tiles[static_cast<size_t>(g.cell(0, 45))].label.empty());
    st.cell_w = 10;
    const TileGrid small = memory_tiles(*set.ins, g, p.ops, st);
    CHECK(small.form == LabelForm::None);
    for (const Tile& x : small.tiles) CHECK(x.label.empty());
}

TEST_CASE("memory view in tile mode: the whole tile operand, every wave's loads, coloured by wave and lane") {
    // The judged tile: v_mfma_f32_32x32x8_f16, waves 2x2, tiles per wave 2x2, shape 256x256x64. B is K x N =
    // 64x256; each wave of the 2x2 grid needs K x (N / 2) = 64x128 of it, so every B element is read by the
    // 2 waves of its grid column (tile.hpp: warpsPerCTA), and where() of the tile names those 2 waves.
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const ls::TileParams tp = ls::parse_tile_params("2x2", "2x2", "256x256x64");
    const TileSet ts = resolve_tile(set, tp);
    MemorySettings s;
    s.operand = ls::Operand::B;
    s.tile = tile_of(ls::MemoryOrder::RowMajor, 0, 0);
    s.tiles = tp;
    const MemoryMatrix mm = memory_matrix(set, s);
    CHECK(mm.rows == 64);
    CHECK(mm.cols == 256);
    const MemoryPlan plan = make_plan(set, s, MemoryPlan::Kind::Plain);
    REQUIRE(plan.ok());
    // Each wave: 64 x 128 f16 elements over 64 lanes = 128 per lane. Row-major B puts a lane's K elements a
    // row (512 bytes) apart, so no two are adjacent: one 2-byte load each, 128 instructions per wave.
    const std::vector<WaveLoads> per = wave_loads(plan);
    REQUIRE(per.size() == 4);
    for (const WaveLoads& w : per) {
        CHECK(w.instructions == 128);
        // No LDS layout beats the banks' width: 16,384 bytes a wave / (32 banks x 4 bytes) = 128 cycles.
        CHECK(w.minimum_cycles >= 128);
        CHECK(w.cycles >= w.minimum_cycles);
    }
    const int worst = worst_wave(per, true);
    REQUIRE(worst >= 0);
    for (const WaveLoads& w : per) CHECK(w.cycles <= per[static_cast<size_t>(worst)].cycles);
    const MemoryGrid g = build_memory_grid(s.operand, mm, effective_tile(mm, s), plan.ops);
    REQUIRE(g.lines == 64);
    REQUIRE(g.positions == 256);
    const ls::TileLayout& tb = *ts.find(ls::Operand::B);
    GridStyle st;
    st.labels = false;
    const TileGrid mem = memory_tiles(*set.ins, g, plan.ops, st, &ts);
    REQUIRE(mem.tiles.size() == g.cells.size());
    std::set<int> waves_seen;
    for (int k = 0; k < 64; ++k)
        for (int n = 0; n < 256; n += 7) {
            const int cell = g.cell_of(ls::Element{0, k, n});
            REQUIRE(cell == k * 256 + n);  // row-major, ld 256: the element index
            const MemoryCell& c = g.cells[static_cast<size_t>(cell)];
            REQUIRE(c.kind == MemoryCell::Kind::Element);
            REQUIRE(c.op >= 0);
            CHECK(c.readers == 2);
            std::set<std::pair<int, int>> holders;
            for (const ls::TileLocation& at : tb.where(ls::Element{0, k, n})) holders.insert({at.wave, at.loc.lane});
            CHECK(holders.size() == 2);
            const ls::MemoryOp& o = plan.ops[static_cast<size_t>(c.op)];
            CHECK(holders.count({o.wave, o.lane}) == 1);
            const Tile& t = mem.tiles[static_cast<size_t>(cell)];
            CHECK(t.wave == o.wave);
            CHECK(t.fill == ls::wave_lane_color(*set.ins, o.wave, o.lane, ts.lane_groups, st.theme));
            // Both readers' colours, as the Layout tab's stripes of an element's copies.
            REQUIRE(t.copy_fills.size() == 2);
            for (const auto& [wave, lane] : holders) {
                const ls::Rgb want = ls::wave_lane_color(*set.ins, wave, lane, ts.lane_groups, st.theme);
                CHECK(std::count(t.copy_fills.begin(), t.copy_fills.end(), want) == 1);
                waves_seen.insert(wave);
            }
        }
    CHECK(waves_seen.size() == 4);
    // Without tile options the same settings plan one instruction's B (8x32), as before.
    MemorySettings one = s;
    one.tiles.reset();
    const MemoryMatrix m1 = memory_matrix(set, one);
    CHECK(m1.rows == 8);
    CHECK(m1.cols == 32);
    const MemoryPlan p1 = make_plan(set, one, MemoryPlan::Kind::Plain);
    REQUIRE(p1.ok());
    CHECK(wave_loads(p1).size() == 1);
    // A tile core refuses is the plan's message, never an exception.
    MemorySettings bad = s;
    bad.tiles->m = 100;
    CHECK_FALSE(make_plan(set, bad, MemoryPlan::Kind::Plain).ok());
}
