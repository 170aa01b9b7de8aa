// The memory side: plain loads and stores checked against the
// layout engine itself, element by element, for every AMD instruction and
// operand; LDS bank conflicts and global coalescing on hand-computed cases.
#include "helpers.hpp"

#include "lanescope/memory.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

// A check in the hot loops: Catch's assertion bookkeeping only when it fails.
#define LS_EXPECT(cond)                      \
    do {                                     \
        if (!(cond)) FAIL("expected " #cond); \
    } while (0)

namespace {

namespace ls = lanescope;
using ls::MemoryOrder;
using ls::MemorySpace;

struct Part {
    long long lo, hi;  // register bits of one lane, [lo, hi)
    ls::Element element;
    long long mem_lo;  // memory bit of `lo`
};
using LaneId = std::pair<int, int>;  // wave, lane

// Expected pieces from the layout: every (element, slot), with the element's memory bits
// recomputed here from the address formula of the issue (independent of the planner).
long long mem_bit(const ls::MemoryTile& t, int row, int col) {
    const bool rm = t.order == MemoryOrder::RowMajor;
    long long line = rm ? row : col, pos = rm ? col : row;
    if (t.swizzle.vec > 0 && t.swizzle.max_phase > 1)
        pos ^= static_cast<long long>(t.swizzle.vec) * ((line / t.swizzle.per_phase) % t.swizzle.max_phase);
    return (line * (t.ld + t.pad) + pos) * t.element_bits;
}

struct Expected {
    std::map<LaneId, std::vector<Part>> parts;  // by lane, sorted by lo
};

Expected expected_of(const ls::OperandLayout& L, const ls::MemoryTile& t) {
    Expected e;
    for (const ls::Entry& en : L.entries()) {
        const long long lo = en.loc.reg * 32LL + en.loc.bit_lo;
        e.parts[{0, en.loc.lane}].push_back(
            {lo, lo + en.loc.bit_hi - en.loc.bit_lo + 1, en.element, mem_bit(t, en.element.block * L.rows() + en.element.row, en.element.col)});
    }
    for (auto& [k, v] : e.parts) std::sort(v.begin(), v.end(), [](const Part& a, const Part& b) { return a.lo < b.lo; });
    return e;
}

Expected expected_of(const ls::TileLayout& L, const ls::MemoryTile& t) {
    Expected e;
    for (const ls::TileEntry& en : L.entries()) {
        const long long lo = en.at.loc.reg * 32LL + en.at.loc.bit_lo;
        e.parts[{en.at.wave, en.at.loc.lane}].push_back(
            {lo, lo + en.at.loc.bit_hi - en.at.loc.bit_lo + 1, en.element, mem_bit(t, en.element.row, en.element.col)});
    }
    for (auto& [k, v] : e.parts) std::sort(v.begin(), v.end(), [](const Part& a, const Part& b) { return a.lo < b.lo; });
    return e;
}

// Checks one plan against the layout; returns the number of wave-level instructions of wave 0.
int check_plan(const std::vector<ls::MemoryOp>& ops, const Expected& exp, const ls::Target& t, const ls::MemoryTile& tile,
               const std::string& what) {
    INFO(what);
    std::map<LaneId, std::vector<Part>> got;
    std::map<std::pair<int, int>, const ls::MemoryOp*> first_of_issue;
    for (const ls::MemoryOp& op : ops) {
        LS_EXPECT(op.bytes > 0);
        LS_EXPECT(op.address >= 0);
        // Every lane of a wave-level instruction issues the same access into the same registers.
        auto [it, fresh] = first_of_issue.insert({{op.wave, op.issue}, &op});
        if (!fresh) {
            LS_EXPECT(it->second->mnemonic == op.mnemonic);
            LS_EXPECT(it->second->bytes == op.bytes);
            LS_EXPECT(it->second->via_temp == op.via_temp);
            if (!op.via_temp) {  // through a scratch VGPR each lane may move its own bits
                LS_EXPECT(it->second->reg == op.reg);
                LS_EXPECT(it->second->bit == op.bit);
            }
        }
        // Alignment: the rule for the plain access, or natural for a unit loaded through a scratch register.
        const int align = op.via_temp ? (op.bytes == 12 ? 16 : op.bytes) : ls::plain_access_alignment(t, tile.space, op.bytes);
        LS_EXPECT(op.address % align == 0);
        const long long base_reg = op.reg * 32LL + op.bit;
        const long long base_mem = 8 * op.address + op.unit_bit;
        long long delivered = 0;
        for (const ls::Delivery& d : op.delivers) {
            const long long lo = d.at.reg * 32LL + d.at.bit_lo, hi = d.at.reg * 32LL + d.at.bit_hi + 1;
            LS_EXPECT(lo >= base_reg);
            LS_EXPECT(hi <= base_reg + op.width_bits);
            LS_EXPECT(d.at.lane == op.lane);
            LS_EXPECT(d.wave == op.wave);
            // The element's memory bits, recomputed from the formula, sit where the op puts them.
            const auto& lane_parts = exp.parts.at({op.wave, op.lane});
            auto p = std::find_if(lane_parts.begin(), lane_parts.end(),
                                  [&](const Part& x) { return x.element == d.element && x.lo <= lo && hi <= x.hi; });
            LS_EXPECT(p != lane_parts.end());
            const long long m = p->mem_lo + (lo - p->lo);
            LS_EXPECT(m - base_mem == lo - base_reg);
            LS_EXPECT(m >= 8 * op.address);
            LS_EXPECT(m + (hi - lo) <= 8 * (op.address + op.bytes));
            delivered += hi - lo;
            got[{op.wave, op.lane}].push_back({lo, hi, d.element, m});
        }
        // The op moves exactly the elements it lists: no other bytes land in the fragment.
        LS_EXPECT(delivered == op.width_bits);
        if (!op.via_temp) LS_EXPECT(op.width_bits == 8 * op.bytes);
    }
    // Every slot of every element is filled exactly once, and nothing else is.
    for (auto& [lane, v] : got) std::sort(v.begin(), v.end(), [](const Part& a, const Part& b) { return a.lo < b.lo; });
    LS_EXPECT(got.size() == exp.parts.size());
    for (const auto& [lane, want] : exp.parts) {
        INFO("wave " << lane.first << " lane " << lane.second);
        const auto& have = got.at(lane);
        size_t h = 0;
        for (const Part& w : want) {
            long long at = w.lo;
            while (at < w.hi) {
                LS_EXPECT(h < have.size());
                LS_EXPECT(have[h].lo == at);
                LS_EXPECT(have[h].element == w.element);
                at = have[h].hi;
                ++h;
            }
            LS_EXPECT(at == w.hi);
        }
        LS_EXPECT(h == have.size());
    }
    return ls::wave_instruction_count(ops, 0);
}

struct TileCase {
    MemoryOrder order;
    int ld_extra, pad;  // ld = extent + ld_extra
    ls::XorSwizzle swizzle;
};

std::vector<ls::MemoryTile> tiles_for(int rows, int cols, int bits, MemorySpace space) {
    std::vector<ls::MemoryTile> out;
    for (MemoryOrder o : {MemoryOrder::RowMajor, MemoryOrder::ColMajor}) {
        const int extent = ls::contiguous_extent(o, rows, cols);
        // Global memory differs from LDS only in the alignment of wide accesses: one padded tile suffices there.
        const std::vector<std::pair<int, int>> lds = {{0, 0}, {extent, 0}, {0, 2}, {3, 1}}, global = {{3, 1}};
        for (auto [extra, pad] : space == MemorySpace::Lds ? lds : global) {
            ls::MemoryTile t;
            t.space = space;
            t.order = o;
            t.ld = extent + extra;
            t.pad = pad;
            t.element_bits = bits;
            out.push_back(t);
        }
        // A swizzled tile: vec * max_phase fits the (power-of-two) extent.
        if (space == MemorySpace::Lds && extent >= 4 && (extent & (extent - 1)) == 0) {
            ls::MemoryTile t;
            t.space = space;
            t.order = o;
            t.ld = extent;
            t.element_bits = bits;
            t.swizzle = {std::max(1, extent / 4), 1, 4};
            out.push_back(t);
        }
    }
    return out;
}

bool sparse_operand(const ls::Instruction& ins, ls::Operand op) {
    return ins.sparse() && (op == ls::Operand::A || op == ls::Operand::K);
}

}  // namespace

TEST_CASE("plain loads put every element of every AMD operand where the layout says (both orders, several ld, pad, swizzle)") {
    int plans = 0, operands = 0, seen = 0;
    std::set<std::string> instructions;
    lstest::for_each_default([&](const lstest::Case& c) {
#if defined(__SANITIZE_ADDRESS__)
        if (seen++ % 4 != 0) return;  // the sanitizer run looks for memory errors: every fourth case is plenty
#endif
        for (ls::Operand op : ls::operands_of(*c.ins)) {
            if (sparse_operand(*c.ins, op)) continue;  // compressed in memory: refused, checked below
            const ls::OperandLayout L = ls::layout_of(*c.ins, *c.target, op, c.mods);
            ++operands;
            instructions.insert(c.target->gfx + c.ins->mnemonic);
            for (MemorySpace space : {MemorySpace::Lds, MemorySpace::Global})
                for (const ls::MemoryTile& tile : tiles_for(L.blocks() * L.rows(), L.cols(), L.element_bits(), space)) {
                    const auto ops = ls::plan_plain_loads(*c.ins, *c.target, op, c.mods, tile);
                    check_plan(ops, expected_of(L, tile), *c.target, tile,
                               c.name() + " " + std::string(ls::operand_name(op)) + " " +
                                   std::string(ls::memory_order_name(tile.order)) + " ld " + std::to_string(tile.ld) +
                                   " pad " + std::to_string(tile.pad) + " swizzle " + std::to_string(tile.swizzle.vec));
                    ++plans;
                    if (op == ls::Operand::C || op == ls::Operand::D) {
                        const auto st = ls::plan_stores(*c.ins, *c.target, op, c.mods, tile);
                        check_plan(st, expected_of(L, tile), *c.target, tile, c.name() + " store");
                        ++plans;
                    }
                }
        }
    });
    (void)seen;
#if !defined(__SANITIZE_ADDRESS__)
    CHECK(instructions.size() > 100);
    CHECK(plans > 5000);
#endif
    WARN("plain loads/stores: " << instructions.size() << " instructions x families, " << operands << " operands, "
                                << plans << " plans checked");
}

TEST_CASE("sparse A and its index are refused with what is legal; NVIDIA targets too") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& gfx942 = cat.find_target("gfx942");
    for (const ls::Instruction* ins : cat.on(ls::Family::CDNA3)) {
        if (!ins->sparse()) continue;
        const ls::ResolvedModifiers m = ls::resolve_modifiers(*ins, gfx942, ls::Modifiers{});
        ls::MemoryTile t;
        t.element_bits = ls::layout_of(*ins, gfx942, ls::Operand::A, m).element_bits();
        t.ld = 1024;
        CHECK_THROWS_WITH(ls::plan_plain_loads(*ins, gfx942, ls::Operand::A, m, t), Catch::Contains("legal"));
        break;
    }
    const ls::Instruction& mma = cat.find_instruction(cat.find_target("sm_80"), "mma_m16n8k16_f32_bf16");
    const ls::Target& sm80 = cat.find_target("sm_80");
    ls::MemoryTile t;
    t.ld = 64;
    // NVIDIA: ld.shared plans from shared memory; global memory is refused with what is legal.
    CHECK_FALSE(ls::plan_plain_loads(mma, sm80, ls::Operand::A, ls::resolve_modifiers(mma, sm80, ls::Modifiers{}), t).empty());
    t.space = ls::MemorySpace::Global;
    CHECK_THROWS_WITH(ls::plan_plain_loads(mma, sm80, ls::Operand::A, ls::resolve_modifiers(mma, sm80, ls::Modifiers{}), t),
                      Catch::Contains("--memory smem"));
}

namespace {
struct Fixture {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& target;
    const ls::Instruction& ins;
    ls::ResolvedModifiers mods;
    Fixture(const char* arch, const char* name, int wave = -1)
        : target(cat.find_target(arch)), ins(cat.find_instruction(target, name)) {
        ls::Modifiers m;
        m.wave = wave;
        mods = ls::resolve_modifiers(ins, target, m);
    }
    ls::MemoryTile tile(MemoryOrder o, int ld, int pad = 0, MemorySpace s = MemorySpace::Lds, ls::XorSwizzle sw = {}) const {
        ls::MemoryTile t;
        t.space = s;
        t.order = o;
        t.ld = ld;
        t.pad = pad;
        t.swizzle = sw;
        t.element_bits = 16;
        return t;
    }
};
std::set<std::string> mnemonics(const std::vector<ls::MemoryOp>& ops) {
    std::set<std::string> s;
    for (const auto& op : ops) s.insert(op.mnemonic);
    return s;
}
}  // namespace

TEST_CASE("widest loads: K-contiguous f16 operands take one b64 (gfx942) or b128 (gfx950, RDNA) per lane") {
    // gfx942 32x32x8 f16: each lane holds 4 consecutive k of one row of A (amd-matrix-builtins.md §4.1).
    Fixture f("gfx942", "v_mfma_f32_32x32x8_f16");
    auto ops = ls::plan_plain_loads(f.ins, f.target, ls::Operand::A, f.mods, f.tile(MemoryOrder::RowMajor, 8));
    CHECK(ls::wave_instruction_count(ops) == 1);
    CHECK(mnemonics(ops) == std::set<std::string>{"ds_read_b64"});
    // Column-major A: the 4 k of a lane are ld apart: four 16-bit loads, low then high halves.
    ops = ls::plan_plain_loads(f.ins, f.target, ls::Operand::A, f.mods, f.tile(MemoryOrder::ColMajor, 32));
    CHECK(ls::wave_instruction_count(ops) == 4);
    CHECK(mnemonics(ops) == std::set<std::string>{"ds_read_u16", "ds_read_u16_d16_hi"});
    // Global memory spells them differently.
    ops = ls::plan_plain_loads(f.ins, f.target, ls::Operand::A, f.mods,
                               f.tile(MemoryOrder::ColMajor, 32, 0, MemorySpace::Global));
    CHECK(mnemonics(ops) == std::set<std::string>{"global_load_ushort", "global_load_short_d16_hi"});

    // gfx950 16x16x32 f16: 8 consecutive k per lane -> one ds_read_b128.
    Fixture g("gfx950", "v_mfma_f32_16x16x32_f16");
    ops = ls::plan_plain_loads(g.ins, g.target, ls::Operand::B, g.mods, g.tile(MemoryOrder::ColMajor, 32));
    CHECK(ls::wave_instruction_count(ops) == 1);
    CHECK(mnemonics(ops) == std::set<std::string>{"ds_read_b128"});
    // A pad of 4 f16 (8 bytes) breaks 16-byte alignment of every other column: two ds_read_b64.
    ops = ls::plan_plain_loads(g.ins, g.target, ls::Operand::B, g.mods, g.tile(MemoryOrder::ColMajor, 32, 4));
    CHECK(ls::wave_instruction_count(ops) == 2);
    CHECK(mnemonics(ops) == std::set<std::string>{"ds_read_b64"});
    // In global memory dword alignment suffices: still one global_load_dwordx4.
    ops = ls::plan_plain_loads(g.ins, g.target, ls::Operand::B, g.mods,
                               g.tile(MemoryOrder::ColMajor, 32, 4, MemorySpace::Global));
    CHECK(mnemonics(ops) == std::set<std::string>{"global_load_dwordx4"});

    // RDNA3 wave32 16x16x16 f16 A: 16 consecutive k per lane -> two ds_load_b128; global_load_b128 in global.
    Fixture r("gfx1100", "v_wmma_f32_16x16x16_f16", 32);
    ops = ls::plan_plain_loads(r.ins, r.target, ls::Operand::A, r.mods, r.tile(MemoryOrder::RowMajor, 16));
    CHECK(ls::wave_instruction_count(ops) == 2);
    CHECK(mnemonics(ops) == std::set<std::string>{"ds_load_b128"});
    ops = ls::plan_plain_loads(r.ins, r.target, ls::Operand::A, r.mods,
                               r.tile(MemoryOrder::RowMajor, 16, 0, MemorySpace::Global));
    CHECK(mnemonics(ops) == std::set<std::string>{"global_load_b128"});
}

TEST_CASE("stores of C: f32 32x32x8 D row-major to global, one dword per lane per register, 4 x 128-byte lines each") {
    Fixture f("gfx942", "v_mfma_f32_32x32x8_f16");
    ls::MemoryTile t = f.tile(MemoryOrder::RowMajor, 32, 0, MemorySpace::Global);
    t.element_bits = 32;
    const auto ops = ls::plan_stores(f.ins, f.target, ls::Operand::D, f.mods, t);
    // D of 32x32: lane l holds column l%32, rows 8*(r/4) + 4*(l/32) + r%4 in register r (16 registers).
    CHECK(ls::wave_instruction_count(ops) == 16);
    CHECK(mnemonics(ops) == std::set<std::string>{"global_store_dword"});
    const auto co = ls::analyse_coalescing(ops);
    REQUIRE(co.size() == 16);
    for (const auto& c : co) {
        // Two rows of 32 f32 = two 128-byte lines, 4 segments of 64 bytes: already the minimum.
        CHECK(c.bytes == 256);
        CHECK(c.cache_lines == 2);
        CHECK(c.segments_64b == 4);
        CHECK(c.minimum_lines == 2);
    }
    // Column-major D: a lane's 4 consecutive rows are contiguous -> dwordx4; each instruction covers
    // 32 columns x (2 lane halves x 16 bytes): 64 distinct 16-byte pieces in 32 columns of 128 bytes.
    t.order = MemoryOrder::ColMajor;
    const auto cm = ls::plan_stores(f.ins, f.target, ls::Operand::D, f.mods, t);
    CHECK(ls::wave_instruction_count(cm) == 4);
    CHECK(mnemonics(cm) == std::set<std::string>{"global_store_dwordx4"});
    for (const auto& c : ls::analyse_coalescing(cm)) {
        CHECK(c.bytes == 1024);
        CHECK(c.cache_lines == 32);   // column j: rows 8i..8i+7 lie in one 128-byte line
        CHECK(c.segments_64b == 32);  // and in one 64-byte segment (32 bytes, aligned)
        CHECK(c.minimum_lines == 8);
    }
    // An ld of 33 f32 misaligns: rows no longer start on 16 bytes, but dword alignment is enough in global.
    t.ld = 33;
    CHECK(mnemonics(ls::plan_stores(f.ins, f.target, ls::Operand::D, f.mods, t)) ==
          std::set<std::string>{"global_store_dwordx4"});
    t.space = MemorySpace::Lds;  // LDS needs 16 bytes for b128: dwords only
    CHECK(mnemonics(ls::plan_stores(f.ins, f.target, ls::Operand::D, f.mods, t)) == std::set<std::string>{"ds_write_b32"});
}

namespace {
// Ops of one wave-level LDS read, built by hand: lane l reads `bytes` at addr(l).
template <typename F>
std::vector<ls::MemoryOp> lds_ops(const char* mnemonic, int bytes, int lanes, F addr) {
    std::vector<ls::MemoryOp> ops;
    for (int l = 0; l < lanes; ++l) {
        ls::MemoryOp op;
        op.lane = l;
        op.mnemonic = mnemonic;
        op.bytes = bytes;
        op.address = addr(l);
        ops.push_back(op);
    }
    return ops;
}
int worst_pass(const ls::BankReport& r) {
    int w = 0;
    for (const auto& p : r.passes) w = std::max(w, p.cycles);
    return w;
}
}  // namespace

TEST_CASE("gfx950 bank conflicts of the tr16 read of B: the reference's worked example (§6.4)") {
    // Call 0 of v_mfma_f32_16x16x32_f16 B from a row-major f16 tile: lane l (s = l%16, g = l/16)
    // reads 8 bytes at row 8g + s/4, column 4*(s%4) (reference §3.3). Worst distinct dwords per bank
    // in a 32-lane pass by row pitch (§6.4): 64 -> 4, 68 -> 2, 72 -> 2, 128 -> 8, 132 -> 4, 136 -> 2.
    const ls::Target& gfx950 = ls::Catalog::builtin().find_target("gfx950");
    for (auto [pitch, worst] : {std::pair{64, 4}, {68, 2}, {72, 2}, {128, 8}, {132, 4}, {136, 2}}) {
        auto ops = lds_ops("ds_read_b64_tr_b16", 8, 64, [pitch = pitch](int l) {
            const int s = l % 16, g = l / 16;
            return 2LL * ((8 * g + s / 4) * pitch + 4 * (s % 4));
        });
        const auto rep = ls::analyse_banks(ops, gfx950, 64);
        REQUIRE(rep.size() == 1);
        INFO("pitch " << pitch);
        CHECK(rep[0].grouping.name == "32 consecutive lanes");
        CHECK(rep[0].grouping.confidence == "inferred");  // tr loads: the plain b64 grouping, inferred
        CHECK(rep[0].passes.size() == 2);
        CHECK(worst_pass(rep[0]) == worst);
        CHECK(rep[0].minimum_cycles == 2);  // 32 lanes x 2 dwords = 64 dwords: one cycle per pass
    }
    // Triton's gfx950 swizzle for a 64-wide f16 tile (vec 8, perPhase 2, maxPhase 8) -> 2 (§6.4).
    ls::MemoryTile t;
    t.ld = 64;
    t.swizzle = {8, 2, 8};
    auto ops = lds_ops("ds_read_b64_tr_b16", 8, 64, [&](int l) {
        const int s = l % 16, g = l / 16;
        return ls::element_address(t, 8 * g + s / 4, 4 * (s % 4));
    });
    CHECK(worst_pass(ls::analyse_banks(ops, gfx950, 64)[0]) == 2);
}

TEST_CASE("gfx942 ds_read_b128 bank groups: hand-computed conflicts, unpadded, padded, swizzled") {
    const ls::Target& gfx942 = ls::Catalog::builtin().find_target("gfx942");
    // Lane l reads 16 bytes of row l of a row-major tile with a row pitch of P bytes.
    // Pitch 128 B (32 dwords): every row starts at bank 0; a group of 8 lanes touches banks 0-3
    // eight times -> 8 cycles per pass, 8 passes -> 64 cycles; the minimum is 8 (one per pass).
    auto rows = [](long long pitch) { return lds_ops("ds_read_b128", 16, 64, [pitch](int l) { return l * pitch; }); };
    auto r = ls::analyse_banks(rows(128), gfx942, 64);
    REQUIRE(r.size() == 1);
    CHECK(r[0].grouping.name == "gfx942 b128 groups");
    CHECK(r[0].grouping.confidence == "documented");
    CHECK(r[0].passes.size() == 8);
    CHECK(r[0].cycles == 64);
    CHECK(r[0].minimum_cycles == 8);
    // Pitch 144 B (pad 16 bytes = 4 dwords): row l starts at bank 4l mod 32. Group {0-3, 20-23}:
    // banks 0,4,8,12 and 80,84,88,92 mod 32 = 16,20,24,28: all 32 banks once -> conflict-free.
    r = ls::analyse_banks(rows(144), gfx942, 64);
    CHECK(r[0].cycles == 8);
    // Pitch 136 B (pad 8 bytes = 2 dwords): row l starts at bank 2l. Group {0-3,20-23}: starts 0,2,4,6
    // and 40,42,44,46 -> 8,10,12,14: dwords cover banks 0-9 and 8-17 -> banks 8,9 twice -> 2 cycles.
    r = ls::analyse_banks(rows(136), gfx942, 64);
    CHECK(worst_pass(r[0]) == 2);
    // The same groups with the rows of 16 consecutive lanes instead ("16 consecutive lanes" alternative):
    // pitch 144: lanes 0-15 start at banks 0,4,...,60 mod 32 -> each bank twice -> 2 cycles per pass.
    r = ls::analyse_banks(rows(144), gfx942, 64, "16 consecutive lanes");
    CHECK(r[0].passes.size() == 4);
    CHECK(worst_pass(r[0]) == 2);
    // Swizzle: 8 lanes of a group read rows 0-3 and 20-23 of a 64-wide f16 tile (pitch 128 B), column 0,
    // swizzled with vec 8, per_phase 1, max_phase 8: row l's column 0 moves to 8*(l%8) -> 16 bytes * (l%8),
    // i.e. banks 4*(l%8): rows 0-3 -> banks 0,4,8,12; rows 20-23 -> 16,20,24,28: conflict-free.
    ls::MemoryTile t;
    t.ld = 64;
    t.swizzle = {8, 1, 8};
    auto sw = lds_ops("ds_read_b128", 16, 64, [&](int l) { return ls::element_address(t, l, 0); });
    r = ls::analyse_banks(sw, gfx942, 64);
    CHECK(r[0].cycles == 8);
    // Broadcast: every lane reads the same 16 bytes -> one cycle per pass.
    r = ls::analyse_banks(lds_ops("ds_read_b128", 16, 64, [](int) { return 0LL; }), gfx942, 64);
    CHECK(r[0].cycles == 8);
    CHECK(worst_pass(r[0]) == 1);
}

TEST_CASE("gfx950 ds_read_b128 (16-lane measured groups) and RDNA wave32 b128 (8 lanes, inferred)") {
    const ls::Target& gfx950 = ls::Catalog::builtin().find_target("gfx950");
    // Pitch 256 B (64 dwords): every row starts at bank 0 of 64. A 16-lane pass touches banks 0-3
    // 16 times -> 16 cycles; 4 passes -> 64. Pitch 272 B (4-dword pad): lanes of a pass
    // {0-3,12-15,20-27} start at banks 4l mod 64: 0..12, 48..60, 80..108 -> 16..44: all distinct -> 1.
    auto rows = [](long long pitch) { return lds_ops("ds_read_b128", 16, 64, [pitch](int l) { return l * pitch; }); };
    auto r = ls::analyse_banks(rows(256), gfx950, 64);
    CHECK(r[0].grouping.name == "gfx950 b128 groups");
    CHECK(r[0].grouping.confidence == "measured");
    CHECK(r[0].passes.size() == 4);
    CHECK(r[0].cycles == 64);
    CHECK(ls::analyse_banks(rows(272), gfx950, 64)[0].cycles == 4);
    CHECK(ls::bank_model(gfx950).banks == 64);

    const ls::Target& gfx1200 = ls::Catalog::builtin().find_target("gfx1200");
    CHECK(ls::bank_model(gfx1200).banks == 32);
    auto rd = lds_ops("ds_load_b128", 16, 32, [](int l) { return l * 128LL; });
    r = ls::analyse_banks(rd, gfx1200, 32);
    CHECK(r[0].grouping.confidence == "inferred");
    CHECK(r[0].passes.size() == 4);
    CHECK(r[0].cycles == 32);  // 8 lanes on banks 0-3 each pass
    // RDNA3 b64, 16 lanes per pass: pitch 8 bytes (consecutive) -> conflict-free, 2 passes.
    const ls::Target& gfx1100 = ls::Catalog::builtin().find_target("gfx1100");
    r = ls::analyse_banks(lds_ops("ds_load_b64", 8, 32, [](int l) { return l * 8LL; }), gfx1100, 32);
    CHECK(r[0].cycles == 2);
    CHECK(r[0].minimum_cycles == 2);
    // An unknown grouping name is refused with the legal names.
    CHECK_THROWS_WITH(ls::analyse_banks(rd, gfx1200, 32, "nonsense"), Catch::Contains("legal: '16 consecutive lanes'") ||
                                                                          Catch::Contains("legal: '8 consecutive lanes'"));
}

TEST_CASE("tiles: loads of a 2x2-wave tile deliver to every wave where the tile layout says") {
    Fixture f("gfx942", "v_mfma_f32_32x32x8_f16");
    ls::TileParams p;
    p.waves_m = 2;
    p.waves_n = 2;
    p.tiles_m = 2;
    p.k = 32;
    p.m = 128;
    p.n = 64;
    for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C}) {
        ls::TileLayout L(f.ins, f.target, op, f.mods, p);
        for (ls::MemoryTile t : tiles_for(L.rows(), L.cols(), L.instruction().element_bits(), MemorySpace::Lds)) {
            const auto ops = ls::plan_plain_loads(f.ins, f.target, op, f.mods, t, p);
            const int n = check_plan(ops, expected_of(L, t), f.target, t, "tile " + std::string(ls::operand_name(op)));
            // Every wave issues the same number of instructions.
            for (int w = 1; w < L.waves(); ++w) CHECK(ls::wave_instruction_count(ops, w) == n);
        }
    }
}

TEST_CASE("memory tiles: bad ld, pad and swizzle are refused with what is legal") {
    ls::MemoryTile t;
    t.ld = 8;
    CHECK_THROWS_WITH(ls::check_memory_tile(t, 4, 16), Catch::Contains("legal: ld >= 16"));
    t.ld = 16;
    t.pad = -1;
    CHECK_THROWS_WITH(ls::check_memory_tile(t, 4, 16), Catch::Contains("pad >= 0"));
    t.pad = 0;
    t.swizzle = {8, 1, 4};  // moves column 0 of line 3 to 24 >= 16
    CHECK_THROWS_WITH(ls::check_memory_tile(t, 4, 16), Catch::Contains("beyond ld"));
    t.swizzle = {4, 0, 4};
    CHECK_THROWS_WITH(ls::check_memory_tile(t, 4, 16), Catch::Contains("PER_PHASE >= 1"));
    t.swizzle = {4, 1, 4};
    CHECK_NOTHROW(ls::check_memory_tile(t, 4, 16));
    CHECK(ls::element_address(t, 1, 0) == (16 + 4) * 2);
}

TEST_CASE("bank conflicts of planned loads, per family: unpadded, padded, swizzled (hand-computed)") {
    // gfx942 32x32x8 f16 A row-major, one ds_read_b64 per lane (row i = lane%32, k 4*(lane/32)..+3),
    // passes of 16 lanes. ld 8 (16-byte rows): rows 0-15 start at banks 4i mod 32, so rows i and i+8
    // share banks -> 2 cycles per pass, 8 in all against a minimum of 4. Pad 4 (24-byte rows): banks 6i
    // mod 32 for i = 0..15 give 16 disjoint pairs -> conflict-free, 4.
    Fixture f("gfx942", "v_mfma_f32_32x32x8_f16");
    auto cycles = [](const std::vector<ls::BankReport>& r) {
        int c = 0, m = 0;
        for (const auto& b : r) c += b.cycles, m += b.minimum_cycles;
        return std::pair{c, m};
    };
    auto a = ls::plan_plain_loads(f.ins, f.target, ls::Operand::A, f.mods, f.tile(MemoryOrder::RowMajor, 8));
    CHECK(cycles(ls::analyse_banks(a, f.target, 64)) == std::pair{8, 4});
    a = ls::plan_plain_loads(f.ins, f.target, ls::Operand::A, f.mods, f.tile(MemoryOrder::RowMajor, 8, 4));
    CHECK(mnemonics(a) == std::set<std::string>{"ds_read_b64"});
    CHECK(cycles(ls::analyse_banks(a, f.target, 64)) == std::pair{4, 4});

    // RDNA3 wave32 16x16x16 f16 A row-major: two ds_load_b128 per lane (row i = lane%16), passes of
    // 8 lanes (inferred). ld 16 (32-byte rows): banks 8i mod 32 repeat every 4 rows -> 2 cycles per
    // pass, 8 per instruction. Pad 8 (48-byte rows): banks 12i mod 32 for 8 rows are disjoint -> 4.
    Fixture r("gfx1100", "v_wmma_f32_16x16x16_f16", 32);
    auto ra = ls::plan_plain_loads(r.ins, r.target, ls::Operand::A, r.mods, r.tile(MemoryOrder::RowMajor, 16));
    CHECK(cycles(ls::analyse_banks(ra, r.target, 32)) == std::pair{16, 8});
    ra = ls::plan_plain_loads(r.ins, r.target, ls::Operand::A, r.mods, r.tile(MemoryOrder::RowMajor, 16, 8));
    CHECK(mnemonics(ra) == std::set<std::string>{"ds_load_b128"});
    CHECK(cycles(ls::analyse_banks(ra, r.target, 32)) == std::pair{8, 8});
    // The same on RDNA4 (gfx1200): its A holds k in two runs of 4 (two ds_load_b64). ld 16: lanes
    // i = 0..7 of a 16-lane pass at banks 8i mod 32 plus lanes 8..15 at the same banks -> 4 cycles per
    // pass; pad 8: 12i mod 32 over 16 rows: each bank pair at most twice -> 2 per pass.
    Fixture q("gfx1200", "v_wmma_f32_16x16x16_f16", 32);
    auto qa = ls::plan_plain_loads(q.ins, q.target, ls::Operand::A, q.mods, q.tile(MemoryOrder::RowMajor, 16));
    CHECK(mnemonics(qa) == std::set<std::string>{"ds_load_b64"});
    CHECK(cycles(ls::analyse_banks(qa, q.target, 32)) == std::pair{16, 4});
    qa = ls::plan_plain_loads(q.ins, q.target, ls::Operand::A, q.mods, q.tile(MemoryOrder::RowMajor, 16, 8));
    CHECK(cycles(ls::analyse_banks(qa, q.target, 32)) == std::pair{8, 4});
}

TEST_CASE("swizzled rows per family: 16-byte reads of column 0 of each row (hand-computed)") {
    // Lane l reads 16 bytes at row l, column 0 of a 64- (gfx942, RDNA) or 128-wide (gfx950) f16 tile.
    // Unswizzled every row starts at bank 0; with vec 8, per_phase 1, max_phase P row l's column 0
    // moves to 8*(l%P) elements = 16*(l%P) bytes = banks 4*(l%P): conflict-free within a pass.
    const auto& cat = ls::Catalog::builtin();
    struct Case {
        const char* arch;
        const char* mnemonic;
        int lanes, ld, phases, unswizzled, swizzled;
    };
    for (const Case& c : {Case{"gfx942", "ds_read_b128", 64, 64, 8, 64, 8},   // 8 passes of 8: 8-way -> 64; 1 each -> 8
                          Case{"gfx950", "ds_read_b128", 64, 128, 16, 64, 4},  // 4 passes of 16: 16-way -> 64; 1 -> 4
                          Case{"gfx1100", "ds_load_b128", 32, 64, 8, 32, 4},   // 4 passes of 8 (inferred)
                          Case{"gfx1200", "ds_load_b128", 32, 64, 8, 32, 4}}) {
        INFO(c.arch);
        const ls::Target& t = cat.find_target(c.arch);
        ls::MemoryTile plain, sw;
        plain.ld = sw.ld = c.ld;
        sw.swizzle = {8, 1, c.phases};
        auto at = [&](const ls::MemoryTile& m) {
            return lds_ops(c.mnemonic, 16, c.lanes, [&](int l) { return ls::element_address(m, l, 0); });
        };
        CHECK(ls::analyse_banks(at(plain), t, c.lanes)[0].cycles == c.unswizzled);
        CHECK(ls::analyse_banks(at(sw), t, c.lanes)[0].cycles == c.swizzled);
        CHECK_NOTHROW(ls::check_memory_tile(sw, c.lanes, c.ld));
    }
}

TEST_CASE("plain loads of every f8f6f4 format (FP8, FP6, FP4 through cbsz/blgp) land where the layout says") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx950");
    int plans = 0;
    for (const ls::Instruction* ins : cat.on(ls::Family::CDNA4)) {
        if (ins->kind != ls::LayoutKind::MfmaScaled) continue;
        const ls::ResolvedModifiers base = ls::resolve_modifiers(*ins, t, ls::Modifiers{});
        for (const auto& range : ls::modifier_ranges(*ins, t, base)) {
            if (range.name != "cbsz" && range.name != "blgp") continue;
            const ls::Operand op = range.name == "cbsz" ? ls::Operand::A : ls::Operand::B;
            for (int v : range.values) {
                ls::ResolvedModifiers m = base;
                (range.name == "cbsz" ? m.cbsz : m.blgp) = v;
                const ls::OperandLayout L = ls::layout_of(*ins, t, op, m);
                for (const ls::MemoryTile& tile : tiles_for(L.rows(), L.cols(), L.element_bits(), MemorySpace::Lds)) {
                    check_plan(ls::plan_plain_loads(*ins, t, op, m, tile), expected_of(L, tile), t, tile,
                               ins->mnemonic + " " + range.name + "=" + std::to_string(v) + " ld " + std::to_string(tile.ld) +
                                   " pad " + std::to_string(tile.pad));
                    ++plans;
                }
            }
        }
    }
    CHECK(plans >= 2 * 5 * 2 * 9);
}

TEST_CASE("transposed loads meet the memory side: bytes read are the elements delivered; §6.4 bank numbers") {
    Fixture g("gfx950", "v_mfma_f32_16x16x32_f16");
    const std::vector<ls::MemoryOp> ops =
        ls::plan_transposed_loads(g.ins, g.target, ls::Operand::B, g.mods, g.tile(MemoryOrder::RowMajor, 64));
    const ls::OperandLayout L = ls::layout_of(g.ins, g.target, ls::Operand::B, g.mods);
    const ls::MemoryTile t = g.tile(MemoryOrder::RowMajor, 64);
    std::map<std::tuple<int, int, int, int>, int> filled;  // (lane, reg, bit_lo, bit_hi) -> times
    for (const ls::MemoryOp& op : ops) {
        // The bytes a lane reads are exactly the elements its op delivers (to whichever lanes).
        std::set<long long> bytes;
        for (const ls::Delivery& d : op.delivers) {
            const long long a = ls::element_address(t, d.element.row, d.element.col);
            CHECK(a >= op.address);
            CHECK(a + 2 <= op.address + op.bytes);
            bytes.insert(a);
            const auto where = L.where(d.element);
            CHECK(std::find(where.begin(), where.end(), d.at) != where.end());
            ++filled[{d.at.lane, d.at.reg, d.at.bit_lo, d.at.bit_hi}];
        }
        CHECK(static_cast<int>(bytes.size()) * 2 == op.bytes);
    }
    // Every slot of B filled exactly once.
    CHECK(filled.size() == L.entries().size());
    for (const auto& [slot, n] : filled) CHECK(n == 1);
    // Row pitch 64 f16: 4 distinct dwords on one bank in a 32-lane pass (reference §6.4), grouping inferred.
    for (const ls::BankReport& b : ls::analyse_banks(ops, g.target, 64)) {
        int worst = 0;
        for (const auto& p : b.passes) worst = std::max(worst, p.cycles);
        CHECK(worst == 4);
        CHECK(b.grouping.confidence == "inferred");
    }
}
