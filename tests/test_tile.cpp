// Tiles of many waves (tile.hpp), from first principles and against an
// independent implementation of Triton's AMD layout composition.
#include "helpers.hpp"

#include "lanescope/linear.hpp"
#include "lanescope/tile.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace {
namespace ls = lanescope;

struct Config {
    int wm, wn, rm, rn, mult_m, mult_n, k_steps;
};
const Config kConfigs[] = {
    {1, 1, 1, 1, 1, 1, 1}, {2, 2, 1, 1, 1, 1, 1}, {2, 2, 2, 1, 2, 1, 2}, {1, 4, 1, 2, 1, 2, 4},
    {4, 1, 2, 2, 2, 2, 1}, {2, 1, 1, 2, 2, 1, 2},
};

ls::TileParams params_for(const ls::Instruction& ins, const Config& c) {
    ls::TileParams p;
    p.waves_m = c.wm;
    p.waves_n = c.wn;
    p.tiles_m = c.rm;
    p.tiles_n = c.rn;
    p.m = ins.m * c.rm * c.wm * c.mult_m;
    p.n = ins.n * c.rn * c.wn * c.mult_n;
    p.k = ins.k * c.k_steps;
    return p;
}

struct Named {
    const char* gfx;
    const char* mnemonic;
};
const Named kInstructions[] = {
    {"gfx908", "v_mfma_f32_32x32x8f16"},  {"gfx90a", "v_mfma_f64_16x16x4f64"},
    {"gfx942", "v_mfma_f32_16x16x16_f16"}, {"gfx942", "v_mfma_f32_32x32x8_f16"},
    {"gfx942", "v_mfma_f32_16x16x32_fp8_fp8"}, {"gfx950", "v_mfma_f32_16x16x32_f16"},
    {"gfx950", "v_mfma_f32_32x32x16_bf16"}, {"gfx1100", "v_wmma_f32_16x16x16_f16"},
    {"gfx1100", "v_wmma_f16_16x16x16_f16"}, {"gfx1200", "v_wmma_f32_16x16x16_f16"},
    {"gfx1201", "v_wmma_i32_16x16x16_iu8"},
};

// The elements (wave, lane) holds in register-and-bit order, as the engine says.

// ---------------------------------------------------------------------------
// An independent model of Triton's LinearLayout products: each in-dimension
// (register, lane, warp) gets bases; identity1D(n, in, dim) appends log2(n)
// bases along dim starting at that dim's current extent, zeros1D(n, in)
// appends log2(n) zero bases (broadcast).
struct Linear {
    std::vector<std::pair<int, int>> reg, lane, warp;  // (row, col)
    int extent[2] = {1, 1};
    std::vector<std::pair<int, int>>& in(char c) { return c == 'r' ? reg : c == 'l' ? lane : warp; }
    void identity(int n, char in_dim, int dim) {
        for (int v = 1; v < n; v *= 2) {
            in(in_dim).push_back(dim == 0 ? std::make_pair(extent[0], 0) : std::make_pair(0, extent[1]));
            extent[dim] *= 2;
        }
    }
    void zeros(int n, char in_dim) {
        for (int v = 1; v < n; v *= 2) in(in_dim).push_back({0, 0});
    }
    std::pair<int, int> apply(int r, int l, int w) const {
        int row = 0, col = 0;
        auto fold = [&](const std::vector<std::pair<int, int>>& b, int x) {
            for (size_t i = 0; i < b.size(); ++i)
                if (x >> i & 1) {
                    row ^= b[i].first;
                    col ^= b[i].second;
                }
        };
        fold(reg, r);
        fold(lane, l);
        fold(warp, w);
        return {row, col};
    }
};

int log2i(int v) {
    int n = 0;
    while ((1 << n) < v) ++n;
    return n;
}

// Triton's composition, written from LinearLayoutConversions.cpp's rules
// (dim 0 = rows, dim 1 = cols; C is M x N, A is M x K, B is K x N).
Linear triton_layout(const ls::Instruction& ins, const ls::Target& t, ls::Operand op, const Config& c) {
    Linear L;
    const int M = 0, N = 1;
    const bool mfma = ls::is_cdna(t.family);
    const int tm = ins.m * c.rm * c.wm * c.mult_m, tn = ins.n * c.rn * c.wn * c.mult_n, tk = ins.k * c.k_steps;
    const bool is_c = op == ls::Operand::C || op == ls::Operand::D;
    const bool is_a = op == ls::Operand::A;
    const int k_dim = is_a ? 1 : 0, nonk_dim = is_a ? 0 : 1;
    const int nonk = is_a ? ins.m : ins.n;
    if (mfma) {
        const int wave = 64;
        if (is_c) {
            // mfmaToLinearLayout: height registers along M, lanes along N then M, tiles along M.
            int height = ins.c == ls::ElemType::F64 ? 1 : 4;
            L.identity(height, 'r', M);
            L.identity(ins.n, 'l', N);
            L.identity(wave / ins.n, 'l', M);
            L.identity(ins.m * ins.n / (wave * height), 'r', M);
            L.identity(c.rn, 'r', N);
            L.identity(c.wn, 'w', N);
            L.identity(tn / (ins.n * c.wn * c.rn), 'r', N);
            L.identity(c.rm, 'r', M);
            L.identity(c.wm, 'w', M);
            L.identity(tm / L.extent[M], 'r', M);  // combineCtaCgaWithShape
        } else {
            // mfmaDotToLinearLayout: kWidth registers along K, lanes nonK then K, K repeats, tilesPerWarp nonK;
            // warps identity in (N fastest) order, and the K warps, exceeding the shape, broadcast.
            int k_width = ins.k * nonk / wave;
            L.identity(k_width, 'r', k_dim);
            L.identity(nonk, 'l', nonk_dim);
            L.identity(wave / nonk, 'l', k_dim);
            L.identity(tk / L.extent[k_dim], 'r', k_dim);
            L.identity(is_a ? c.rm : c.rn, 'r', nonk_dim);
            if (is_a) {
                L.zeros(c.wn, 'w');
                L.identity(c.wm, 'w', M);
                L.identity(tm / L.extent[M], 'r', M);
            } else {
                L.identity(c.wn, 'w', N);
                L.zeros(c.wm, 'w');
                L.identity(tn / L.extent[N], 'r', N);
            }
        }
    } else {
        const bool v1 = t.family == ls::Family::RDNA3;
        if (is_c) {
            // Version 1: registers M 2,4,8, lanes N 1..8, lane 16 -> M 1. Version 2: registers M 1,2,4, lane 16 -> M 8.
            if (v1) {
                L.reg = {{2, 0}, {4, 0}, {8, 0}};
                L.lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}};
            } else {
                L.reg = {{1, 0}, {2, 0}, {4, 0}};
                L.lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}};
            }
            L.extent[M] = 16;
            L.extent[N] = 16;
            // Triton 3.6 (as MFMA): N as tilesPerWarp, warps, the rest of N; then M likewise.
            L.identity(c.rn, 'r', N);
            L.identity(c.wn, 'w', N);
            L.identity(tn / L.extent[N], 'r', N);
            L.identity(c.rm, 'r', M);
            L.identity(c.wm, 'w', M);
            L.identity(tm / L.extent[M], 'r', M);
        } else {
            // wmmaDotOperandToLinearLayout (Triton 3.6): kWidth registers along K, 16 lanes nonK, 2 lanes K
            // (version 1: zeros, the upper lanes repeat), kSize / (2 kWidth) registers more along K; then the
            // CTA layout with the K direction projected away, then the rest of K and the nonK repeats. kWidth
            // here is the instruction's own: all of K on RDNA3, 64 bits of elements on RDNA4.
            int k_width = v1 ? ins.k : std::min(ins.k / 2, 64 / ls::elem_bits(is_a ? ins.a : ins.b));
            L.identity(k_width, 'r', k_dim);
            L.identity(16, 'l', nonk_dim);
            if (v1)
                L.zeros(2, 'l');
            else
                L.identity(2, 'l', k_dim);
            L.identity(std::max(1, tk / (k_width * 2)), 'r', k_dim);
            if (is_a) {
                L.zeros(c.wn, 'w');
                L.identity(c.rm, 'r', M);
                L.identity(c.wm, 'w', M);
            } else {
                L.identity(c.rn, 'r', N);
                L.identity(c.wn, 'w', N);
                L.zeros(c.wm, 'w');
            }
            L.identity(tk / L.extent[k_dim], 'r', k_dim);
            L.identity((is_a ? tm : tn) / L.extent[nonk_dim], 'r', nonk_dim);
        }
    }
    return L;
}

}  // namespace

TEST_CASE("a tile of one wave and one sub-tile is the instruction") {
    lstest::for_each_default([](const lstest::Case& c) {
        if (c.ins->blocks != 1) return;
        for (ls::Operand op : ls::operands_of(*c.ins)) {
            ls::TileLayout t(*c.ins, *c.target, op, c.mods, {});
            ls::OperandLayout L = ls::layout_of(*c.ins, *c.target, op, c.mods);
            auto te = t.entries();
            const auto& le = L.entries();
            INFO(c.name() << " " << ls::operand_name(op));
            REQUIRE(te.size() == le.size());
            for (size_t i = 0; i < te.size(); ++i) {
                REQUIRE(te[i].element == le[i].element);
                REQUIRE(te[i].at.wave == 0);
                REQUIRE(te[i].at.loc == le[i].loc);
            }
        }
    });
}

TEST_CASE("a tile is a bijection onto each wave's slots; A is shared along N, B along M", "[slow]") {
    const auto& cat = ls::Catalog::builtin();
    for (const Named& n : kInstructions) {
        const ls::Target& tg = cat.find_target(n.gfx);
        const ls::Instruction& ins = cat.find_instruction(tg, n.mnemonic);
        ls::Modifiers m;
        auto mods = ls::resolve_modifiers(ins, tg, m);
        for (const Config& c : kConfigs)
            for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C}) {
                ls::TileLayout t(ins, tg, op, mods, params_for(ins, c));
                ls::OperandLayout L = ls::layout_of(ins, tg, op, mods);
                INFO(n.gfx << " " << n.mnemonic << " " << ls::operand_name(op) << " " << t.params().describe());
                REQUIRE(t.regs() == L.regs() * t.steps());
                // No slot of a wave holds two elements, and every element sits where the instruction puts its
                // inner element, once per sharing wave.
                std::set<std::tuple<int, int, int, int>> slots;
                const int sharing = op == ls::Operand::A ? c.wn : op == ls::Operand::B ? c.wm : 1;
                for (int row = 0; row < t.rows(); ++row)
                    for (int col = 0; col < t.cols(); ++col) {
                        auto locs = t.where({0, row, col});
                        auto inner = L.where({0, row % L.rows(), col % L.cols()});
                        REQUIRE(locs.size() == inner.size() * sharing);
                        std::set<int> waves;
                        for (const auto& x : locs) {
                            REQUIRE(slots.insert({x.wave, x.loc.lane, x.loc.reg, x.loc.bit_lo}).second);
                            waves.insert(x.wave);
                            bool same_slot = false;
                            for (const auto& in : inner)
                                same_slot |= in.reg == x.loc.reg % L.regs() && in.lane == x.loc.lane && in.bit_lo == x.loc.bit_lo &&
                                             in.bit_hi == x.loc.bit_hi;
                            REQUIRE(same_slot);
                            // and which() answers the same element at that slot
                            bool found = false;
                            for (const auto& p : t.which(x.wave, x.loc.reg, x.loc.lane))
                                found |= p.bit_lo == x.loc.bit_lo && p.element == ls::Element{0, row, col};
                            REQUIRE(found);
                        }
                        REQUIRE(static_cast<int>(waves.size()) == sharing);
                    }
                REQUIRE(slots.size() == static_cast<size_t>(t.elements()) * (L.entries().size() / L.elements()) * sharing);
            }
    }
}

TEST_CASE("repetition shifts rows and cols by the wave grid's tile") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& tg = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(tg, "v_mfma_f32_32x32x8_f16");
    auto mods = ls::resolve_modifiers(ins, tg, {});
    ls::TileParams p{2, 2, 2, 1, 0, 0, 0};
    ls::TileParams big = p;
    big.m = 2 * 32 * 2 * 2;
    big.n = 3 * 32 * 1 * 2;
    ls::TileLayout one(ins, tg, ls::Operand::C, mods, p), many(ins, tg, ls::Operand::C, mods, big);
    REQUIRE(one.rows() == 128);
    REQUIRE(one.cols() == 64);
    for (int rm = 0; rm < 2; ++rm)
        for (int rn = 0; rn < 3; ++rn)
            for (int row = 0; row < 128; row += 7)
                for (int col = 0; col < 64; col += 5) {
                    auto a = one.where({0, row, col});
                    auto b = many.where({0, row + 128 * rm, col + 64 * rn});
                    REQUIRE(a.size() == 1);
                    REQUIRE(b.size() == 1);
                    CHECK(a[0].wave == b[0].wave);
                    CHECK(a[0].loc.lane == b[0].loc.lane);
                    CHECK(a[0].loc.reg % 16 == b[0].loc.reg % 16);
                    // the step of the repetition is a different one
                    if (rm || rn) CHECK(a[0].loc.reg != b[0].loc.reg);
                }
}

TEST_CASE("bad tile parameters are refused with what is legal") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& tg = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(tg, "v_mfma_f32_32x32x8_f16");
    auto mods = ls::resolve_modifiers(ins, tg, {});
    CHECK_THROWS_WITH(ls::TileLayout(ins, tg, ls::Operand::C, mods, {2, 2, 1, 1, 96, 0, 0}),
                      Catch::Contains("not a multiple of the wave grid's M tile 64"));
    CHECK_THROWS_WITH(ls::TileLayout(ins, tg, ls::Operand::A, mods, {1, 1, 1, 1, 0, 0, 12}),
                      Catch::Contains("multiple of the instruction's K 8"));
    CHECK_THROWS_AS(ls::TileLayout(ins, tg, ls::Operand::C, mods, {0, 1, 1, 1, 0, 0, 0}), ls::Error);
    const ls::Instruction& multi = cat.find_instruction(tg, "v_mfma_f32_32x32x1_2b_f32");
    CHECK_THROWS_WITH(ls::TileLayout(multi, tg, ls::Operand::C, mods, {}), Catch::Contains("single-block"));
    ls::TileLayout t(ins, tg, ls::Operand::C, mods, {2, 2, 1, 1, 0, 0, 0});
    CHECK_THROWS_AS(t.which(4, 0, 0), ls::Error);
    CHECK_THROWS_AS(t.where({0, 64, 0}), ls::Error);
}

TEST_CASE("tiles equal an independent implementation of Triton's AMD composition") {
    const auto& cat = ls::Catalog::builtin();
    int compared = 0;
    for (const Named& n : kInstructions) {
        const ls::Target& tg = cat.find_target(n.gfx);
        const ls::Instruction& ins = cat.find_instruction(tg, n.mnemonic);
        auto mods = ls::resolve_modifiers(ins, tg, {});
        for (const Config& c : kConfigs)
            for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C}) {
                ls::TileLayout t(ins, tg, op, mods, params_for(ins, c));
                Linear L = triton_layout(ins, tg, op, c);
                INFO(n.gfx << " " << n.mnemonic << " " << ls::operand_name(op) << " " << t.params().describe());
                REQUIRE(L.extent[0] == t.rows());
                REQUIRE(L.extent[1] == t.cols());
                REQUIRE(static_cast<int>(L.lane.size()) == log2i(t.lanes()));
                REQUIRE(static_cast<int>(L.warp.size()) == log2i(t.waves()));
                for (int w = 0; w < t.waves(); ++w)
                    for (int lane = 0; lane < t.lanes(); ++lane) {
                        auto elems = lstest::lane_elements(t, w, lane);
                        REQUIRE(elems.size() == (size_t{1} << L.reg.size()));
                        for (size_t i = 0; i < elems.size(); ++i) {
                            auto rc = L.apply(static_cast<int>(i), lane, w);
                            REQUIRE(elems[i].row == rc.first);
                            REQUIRE(elems[i].col == rc.second);
                        }
                    }
                ++compared;
            }
    }
    CHECK(compared == 11 * 6 * 3);
}

TEST_CASE("ldmatrix/stmatrix .x1 (no K) lay out as one instruction and refuse tiles of many waves") {
    // Regression: every tile path divided by the instruction's K, which is 0 for
    // the matrix loads and stores (a SIGFPE on legal input).
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_90");
    int seen = 0;
    for (const char* name : {"ldmatrix_x1", "ldmatrix_x1_trans", "stmatrix_x1", "stmatrix_x1_trans"}) {
        const ls::Instruction& ins = cat.find_instruction(t, name);
        REQUIRE(ins.k == 0);
        const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, t, ls::Modifiers{});
        ls::TileLayout tile(ins, t, ls::Operand::D, mods, {});
        const ls::OperandLayout L = ls::layout_of(ins, t, ls::Operand::D, mods);
        REQUIRE(tile.rows() == 8);
        REQUIRE(tile.cols() == 8);
        REQUIRE(tile.entries().size() == L.entries().size());
        // The linear form evaluates back to where() for every element (PTX: 64 b16 elements, 2 per lane).
        const ls::LinearResult lin = ls::to_linear(tile);
        REQUIRE(lin.layout.has_value());
        ls::TileParams waves;
        waves.waves_m = 2;
        waves.waves_n = 2;
        REQUIRE_THROWS_WITH(ls::TileLayout(ins, t, ls::Operand::D, mods, waves), Catch::Contains("no K"));
        ls::TileParams shaped;
        shaped.m = 16;
        shaped.n = 8;
        REQUIRE_THROWS_AS(ls::TileLayout(ins, t, ls::Operand::D, mods, shaped), ls::Error);
        ++seen;
    }
    REQUIRE(seen == 4);
}

TEST_CASE("tile arithmetic is checked in 64 bits: legal counts whose products pass int are refused, naming the limit") {
    // Each value alone passes the option parser (1..65536) or the C++ API (any int); their products did not fit
    // in int (SIGFPE, negative shapes, bad_alloc; UBSan: signed overflow in the tile code).
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& tg = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(tg, "v_mfma_f32_32x32x8_f16");
    auto mods = ls::resolve_modifiers(ins, tg, {});
    const int big = std::numeric_limits<int>::max();
    struct Case {
        ls::TileParams p;
        const char* says;
    };
    for (const Case& c : {Case{{65536, 65536, 65536, 65536, 0, 0, 0}, "at most 1024 waves"},
                          Case{{big, big, 1, 1, 0, 0, 0}, "at most 1024 waves"},
                          Case{{1024, 1, 65536, 65536, 0, 0, 0}, "RM x RN at most 4096"},
                          Case{{1, 1, big, 2, 0, 0, 0}, "RM x RN at most 4096"},
                          Case{{1024, 1, 4096, 1, 0, 0, 0}, "elements per operand"},
                          Case{{1, 1, 1, 1, 1 << 30, 1 << 30, 0}, "elements per operand"},
                          Case{{1, 1, 1, 1, 32, 32, 1 << 30}, "elements per operand"},
                          Case{{1, 1024, 1, 1, 512, 32768, 512}, "placements"},
                          Case{{1, 1, 1, 1, 4096, 4096, 0}, "registers per lane"}})
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C}) {
            INFO(c.p.describe() << " " << ls::operand_name(op));
            if (op != ls::Operand::C && std::string(c.says) == "registers per lane") continue;  // C's limit
            if (op != ls::Operand::A && std::string(c.says) == "placements") continue;  // A: 1024 copies
            REQUIRE_THROWS_WITH(ls::TileLayout(ins, tg, op, mods, c.p), Catch::Contains(c.says));
        }
    // At the limits themselves: accepted.
    ls::TileLayout at(ins, tg, ls::Operand::C, mods, {1024, 1, 1, 1, 0, 0, 0});
    CHECK(at.waves() == 1024);
    CHECK(at.rows() == 32 * 1024);
}

TEST_CASE("with_shape fills in the shape TileLayout resolves, without laying it out") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Target& r = cat.find_target("gfx1100");
    size_t checked = 0;
    for (const ls::Target* tg : {&t, &r})
        for (const ls::Instruction* ins : cat.on(tg->family)) {
            if (ins->blocks != 1) continue;
            ls::Modifiers m;
            const ls::ResolvedModifiers mods = ls::resolve_modifiers(*ins, *tg, m);
            for (const ls::TileParams& p : {ls::parse_tile_params("2x2", "", ""), ls::parse_tile_params("1x4", "2x1", ""),
                                            ls::parse_tile_params("2x1", "", "")}) {
                const ls::TileParams w = ls::with_shape(p, *ins);
                for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D}) {
                    const ls::TileLayout L(*ins, *tg, op, mods, p);
                    INFO(tg->gfx << " " << ins->mnemonic << " " << p.describe());
                    CHECK(w.m == L.params().m);
                    CHECK(w.n == L.params().n);
                    CHECK(w.k == L.params().k);
                    ++checked;
                }
            }
        }
    CHECK(checked > 100);
}
