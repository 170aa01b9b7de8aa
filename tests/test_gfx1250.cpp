// gfx1250/gfx1251 (CDNA5): the catalog rows against clang-22's builtin table
// (reference facts), the layouts against Triton 3.6's own gfx1250 layouts
// (tests/data/triton, dumped by scripts/triton-layouts.py) element by element,
// the packing rules as independent properties, and the evidence every layout carries.
#include "lanescope/lanescope.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <unistd.h>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "triton_dump.hpp"

namespace ls = lanescope;

namespace {
const ls::Catalog& cat() { return ls::Catalog::builtin(); }
const ls::Target& gfx1250() { return cat().find_target("gfx1250"); }

std::vector<const ls::Instruction*> rows() { return cat().on(ls::Family::CDNA5); }

ls::ResolvedModifiers mods_for(const ls::Instruction& ins, ls::Modifiers m = {}) {
    return ls::resolve_modifiers(ins, gfx1250(), m);
}

// Element index of a location: the lane's elements counted from bit 0 of its first VGPR.
int element_index(const ls::Location& loc, int bits) { return (loc.reg * 32 + loc.bit_lo) / bits; }
}  // namespace

TEST_CASE("gfx1250: the family, its targets and names", "[gfx1250]") {
    for (const char* name : {"gfx1250", "cdna5", "CDNA5", "mi450", "MI-450", "mi400", "gfx12.5"})
        CHECK(cat().find_target(name).gfx == "gfx1250");
    const ls::Target& t = cat().find_target("gfx1251");
    CHECK(t.family == ls::Family::CDNA5);
    CHECK(t.wave_sizes == std::vector<int>{32});
    CHECK_FALSE(ls::is_cdna(ls::Family::CDNA5));  // WMMA in wave32, not the MFMA families
    CHECK(ls::family_name(ls::Family::CDNA5) == "cdna5");
    // gfx1251 compiles the same builtins to the same encodings (clang-22): the same rows.
    CHECK(cat().on(t.family).size() == 43);
}

TEST_CASE("gfx1250: 43 rows, as clang-22 compiles them", "[gfx1250]") {
    // Builtin -> (VOP3P opcode, A/B/C/D VGPRs) as compiled with clang-22 and
    // disassembled with llvm-objdump-22 (reference sheet §3), written out here
    // independently of the catalog file.
    struct Want {
        unsigned op, prefix;
        int d, a, b, c;
    };
    std::map<std::string, Want> want = {
        {"wmma_f32_16x16x4_f32", {0x5d, 0, 8, 2, 2, 8}},
        {"wmma_f32_16x16x32_f16", {0x60, 0, 8, 8, 8, 8}},
        {"wmma_f16_16x16x32_f16", {0x61, 0, 4, 8, 8, 4}},
        {"wmma_f32_16x16x32_bf16", {0x62, 0, 8, 8, 8, 8}},
        {"wmma_bf16_16x16x32_bf16", {0x63, 0, 4, 8, 8, 4}},
        {"wmma_bf16f32_16x16x32_bf16", {0x64, 0, 4, 8, 8, 8}},
        {"wmma_i32_16x16x64_iu8", {0x72, 0, 8, 8, 8, 8}},
        {"wmma_f32_16x16x128_f8f6f4", {0x33, 0, 8, 16, 16, 8}},
        {"wmma_scale_f32_16x16x128_f8f6f4", {0x33, 0x35, 8, 16, 16, 8}},
        {"wmma_scale16_f32_16x16x128_f8f6f4", {0x33, 0x3a, 8, 16, 16, 8}},
        {"wmma_f32_32x16x128_f4", {0x88, 0, 16, 16, 8, 16}},
        {"wmma_scale_f32_32x16x128_f4", {0x88, 0x35, 16, 16, 8, 16}},
        {"wmma_scale16_f32_32x16x128_f4", {0x88, 0x3a, 16, 16, 8, 16}},
        {"swmmac_f32_16x16x64_f16", {0x65, 0, 8, 8, 16, 8}},
        {"swmmac_f32_16x16x64_bf16", {0x66, 0, 8, 8, 16, 8}},
        {"swmmac_f16_16x16x64_f16", {0x67, 0, 4, 8, 16, 4}},
        {"swmmac_bf16_16x16x64_bf16", {0x68, 0, 4, 8, 16, 4}},
        {"swmmac_bf16f32_16x16x64_bf16", {0x69, 0, 8, 8, 16, 8}},  // D is C's 8 VGPRs (v8f32 builtin)
        {"swmmac_i32_16x16x128_iu8", {0x7b, 0, 8, 8, 16, 8}},
    };
    const char* pairs[] = {"fp8_fp8", "fp8_bf8", "bf8_fp8", "bf8_bf8"};
    for (unsigned n = 0; n < 4; ++n) {
        want[std::string("wmma_f32_16x16x64_") + pairs[n]] = {0x6a + n, 0, 8, 8, 8, 8};
        want[std::string("wmma_f16_16x16x64_") + pairs[n]] = {0x6e + n, 0, 4, 8, 8, 4};
        want[std::string("wmma_f32_16x16x128_") + pairs[n]] = {0x80 + n, 0, 8, 16, 16, 8};
        want[std::string("wmma_f16_16x16x128_") + pairs[n]] = {0x84 + n, 0, 4, 16, 16, 4};
        want[std::string("swmmac_f32_16x16x128_") + pairs[n]] = {0x73 + n, 0, 8, 8, 16, 8};
        want[std::string("swmmac_f16_16x16x128_") + pairs[n]] = {0x77 + n, 0, 4, 8, 16, 4};
    }
    REQUIRE(want.size() == 43);
    std::set<std::string> seen;
    for (const ls::Instruction* r : rows()) {
        INFO(r->builtin_pattern);
        auto it = want.find(r->builtin_pattern);
        REQUIRE(it != want.end());
        seen.insert(r->builtin_pattern);
        CHECK(r->mnemonic == "v_" + r->builtin_pattern);  // mnemonic = v_ + builtin name
        CHECK(r->opcode == it->second.op);
        CHECK(r->prefix_opcode == it->second.prefix);
        CHECK(r->features == "gfx1250-insts,wavefrontsize32");
        const ls::ResolvedModifiers m = mods_for(*r);
        CHECK(m.wave == 32);
        CHECK(ls::operand_regs(*r, ls::Operand::D, m) == it->second.d);
        CHECK(ls::operand_regs(*r, ls::Operand::A, m) == it->second.a);
        CHECK(ls::operand_regs(*r, ls::Operand::B, m) == it->second.b);
        CHECK(ls::operand_regs(*r, ls::Operand::C, m) == it->second.c);
    }
    CHECK(seen.size() == 43);
}

TEST_CASE("gfx1250: registers per format and per extra operand", "[gfx1250]") {
    // f8f6f4: A/B use 16/12/8 VGPRs for 8/6/4-bit data (llvm-mc-22 refuses other tuple sizes).
    const ls::Instruction& f = cat().find_instruction(gfx1250(), "v_wmma_f32_16x16x128_f8f6f4");
    const int want[] = {16, 16, 12, 12, 8};
    for (int fmt = 0; fmt <= 4; ++fmt) {
        ls::Modifiers m;
        m.matrix_a_fmt = fmt;
        m.matrix_b_fmt = 4 - fmt;
        const ls::ResolvedModifiers r = mods_for(f, m);
        CHECK(ls::operand_regs(f, ls::Operand::A, r) == want[fmt]);
        CHECK(ls::operand_regs(f, ls::Operand::B, r) == want[4 - fmt]);
    }
    // Scales: one VGPR (scale), two (scale16); the 8-bit SWMMAC index is 64 bits.
    auto regs = [](const char* name, ls::Operand op) {
        const ls::Instruction& i = cat().find_instruction(gfx1250(), name);
        return ls::operand_regs(i, op, mods_for(i));
    };
    CHECK(regs("v_wmma_scale_f32_16x16x128_f8f6f4", ls::Operand::SA) == 1);
    CHECK(regs("v_wmma_scale16_f32_16x16x128_f8f6f4", ls::Operand::SB) == 2);
    CHECK(regs("v_wmma_scale16_f32_32x16x128_f4", ls::Operand::SA) == 2);
    CHECK(regs("v_swmmac_f32_16x16x64_f16", ls::Operand::K) == 1);
    CHECK(regs("v_swmmac_f32_16x16x128_fp8_fp8", ls::Operand::K) == 2);
    CHECK(regs("v_swmmac_i32_16x16x128_iu8", ls::Operand::K) == 2);
}

TEST_CASE("gfx1250: every element in exactly one slot, slots disjoint, registers filled", "[gfx1250]") {
    int layouts = 0;
    for (const ls::Instruction* r : rows()) {
        std::vector<ls::Modifiers> variants(1);
        if (r->a == ls::ElemType::F8F6F4)
            for (int a = 0; a <= 4; ++a)
                for (int b = 0; b <= 4; ++b) {
                    ls::Modifiers m;
                    m.matrix_a_fmt = a;
                    m.matrix_b_fmt = b;
                    variants.push_back(m);
                }
        if (r->kind == ls::LayoutKind::WmmaScaleGfx1250) {
            ls::Modifiers m;
            m.matrix_b_scale = 1;
            m.matrix_a_scale_fmt = 2;
            variants.push_back(m);
        }
        for (const ls::Modifiers& mv : variants) {
            const ls::ResolvedModifiers m = mods_for(*r, mv);
            for (ls::Operand op : ls::operands_of(*r)) {
                INFO(r->mnemonic << " " << ls::operand_name(op) << " " << m.describe());
                const ls::OperandLayout L = ls::layout_of(*r, gfx1250(), op, m);
                ++layouts;
                CHECK(L.lanes() == 32);
                // Every element once (sparse A and K: a 4:2 group's four k share one slot).
                std::map<std::tuple<int, int, int>, int> owners;
                for (int row = 0; row < L.rows(); ++row)
                    for (int col = 0; col < L.cols(); ++col) {
                        const auto locs = L.where({0, row, col});
                        REQUIRE(locs.size() == 1);
                        const auto key = std::make_tuple(locs[0].lane, locs[0].reg, locs[0].bit_lo);
                        owners[key]++;
                    }
                const int share = r->sparse() && (op == ls::Operand::A || op == ls::Operand::K) ? 4 : 1;
                for (const auto& [slot, n] : owners) CHECK(n == share);
                // The slots fill the operand's registers exactly: no bit held twice, none left over
                // (scales: in the 16 lanes the scale select names; 32-row A scales: all 32).
                const int slot_bits = L.element_bits();
                const bool scale = op == ls::Operand::SA || op == ls::Operand::SB;
                const int lanes_used = scale && L.rows() * L.cols() / (L.regs() * 32 / 8) == 16 ? 16 : L.lanes();
                CHECK(static_cast<long long>(owners.size()) * slot_bits == 32LL * lanes_used * L.regs());
            }
        }
    }
    CHECK(layouts > 43 * 4);
}

TEST_CASE("gfx1250: every layout says how sure it is, and an alternative is a whole description", "[gfx1250]") {
    for (const ls::Instruction* r : rows())
        for (ls::Operand op : ls::operands_of(*r)) {
            const ls::Evidence e = ls::layout_evidence(*r, op, mods_for(*r));
            INFO(r->mnemonic << " " << ls::operand_name(op));
            CHECK_FALSE(e.confidence.empty());
            CHECK_FALSE(e.sources.empty());
            CHECK_FALSE(e.why.empty());
            for (const auto& a : e.alternatives) {
                CHECK_FALSE(a.reading.empty());
                CHECK_FALSE(a.source.empty());
                CHECK_FALSE(a.differs.empty());
            }
        }
    auto conf = [](const char* name, ls::Operand op, ls::Modifiers m = {}) {
        const ls::Instruction& i = cat().find_instruction(gfx1250(), name);
        return ls::layout_evidence(i, op, mods_for(i, m));
    };
    // Two sources agree: high.
    CHECK(conf("v_wmma_f32_16x16x4_f32", ls::Operand::A).confidence == "high");
    CHECK(conf("v_wmma_f32_16x16x32_bf16", ls::Operand::B).confidence == "high");
    CHECK(conf("v_wmma_i32_16x16x64_iu8", ls::Operand::A).confidence == "high");
    CHECK(conf("v_wmma_f16_16x16x128_fp8_fp8", ls::Operand::D).confidence == "high");
    // Disputed: 8-bit 16x16x128 and f8f6f4 with FP8/BF8, with the w = 8 reading named.
    const ls::Evidence d = conf("v_wmma_f32_16x16x128_fp8_bf8", ls::Operand::A);
    CHECK(d.confidence == "disputed");
    REQUIRE(d.alternatives.size() == 1);
    CHECK(d.alternatives[0].reading.rfind("w = 8", 0) == 0);
    CHECK(d.alternatives[0].differs.find("64 of every 128 k") != std::string::npos);
    ls::Modifiers bf8;
    bf8.matrix_a_fmt = 1;
    CHECK(conf("v_wmma_f32_16x16x128_f8f6f4", ls::Operand::A, bf8).confidence == "disputed");
    // One source (or a source that disagrees with itself): low.
    ls::Modifiers fp4;
    fp4.matrix_a_fmt = 4;
    CHECK(conf("v_wmma_f32_16x16x128_f8f6f4", ls::Operand::A, fp4).confidence.rfind("low", 0) == 0);
    CHECK(conf("v_wmma_f32_32x16x128_f4", ls::Operand::A).confidence == "low, one source");
    CHECK(conf("v_wmma_f32_32x16x128_f4", ls::Operand::D).confidence == "low, one source");
    CHECK(conf("v_wmma_scale_f32_16x16x128_f8f6f4", ls::Operand::SA).confidence == "low, one source");
    CHECK(conf("v_swmmac_f32_16x16x64_f16", ls::Operand::A).confidence == "low, one source");
    CHECK(conf("v_swmmac_f32_16x16x128_fp8_fp8", ls::Operand::K).confidence == "low, one source");
    // Other families state theirs elsewhere: empty here.
    const ls::Target& g942 = cat().find_target("gfx942");
    const ls::Instruction& m = cat().find_instruction(g942, "v_mfma_f32_32x32x8_f16");
    CHECK(ls::layout_evidence(m, ls::Operand::A, ls::resolve_modifiers(m, g942, ls::Modifiers{})).confidence.empty());
}

TEST_CASE("gfx1250: the controls are validated with their legal values", "[gfx1250]") {
    const ls::Instruction& f = cat().find_instruction(gfx1250(), "v_wmma_f32_16x16x128_f8f6f4");
    const ls::Instruction& s = cat().find_instruction(gfx1250(), "v_wmma_scale_f32_32x16x128_f4");
    const ls::Instruction& sp = cat().find_instruction(gfx1250(), "v_swmmac_f32_16x16x128_fp8_fp8");
    auto refuses = [](const ls::Instruction& i, ls::Modifiers m, const char* needle) {
        try {
            ls::resolve_modifiers(i, gfx1250(), m);
        } catch (const ls::Error& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
            return;
        }
        FAIL("accepted");
    };
    ls::Modifiers m;
    m.matrix_a_fmt = 5;
    refuses(f, m, "legal: 0..4");
    m = {};
    m.wave = 64;
    refuses(f, m, "wave32 only");
    m = {};
    m.cbsz = 1;
    refuses(f, m, "--matrix-a-fmt");
    m = {};
    m.matrix_a_scale = 1;
    refuses(s, m, "no source says");  // 32 rows of A scales: ROW1 unknown
    m = {};
    m.matrix_b_scale_fmt = 3;
    refuses(s, m, "E4M3");
    m = {};
    m.index_key = 1;
    refuses(sp, m, "index_key 0 only");
    m = {};
    m.matrix_a_fmt = 2;
    refuses(sp, m, "f8f6f4");
    // Names as the assembler spells them.
    CHECK(ls::parse_modifier_value("matrix_a_fmt", "MATRIX_FMT_FP6") == 2);
    CHECK(ls::parse_modifier_value("matrix_b_fmt", "fp4") == 4);
    CHECK(ls::parse_modifier_value("matrix_a_scale", "ROW1") == 1);
    CHECK(ls::parse_modifier_value("matrix_b_scale_fmt", "MATRIX_SCALE_FMT_E5M3") == 1);
    CHECK_FALSE(ls::parse_modifier_value("matrix_a_fmt", "fp5"));
    CHECK_FALSE(ls::parse_modifier_value("matrix_a_fmt", "99999999999999999999"));  // no overflow
    CHECK(ls::modifier_value_name("matrix_a_fmt", 3) == "BF6");
    // scale_sel moves B's scales to lanes 16-31; scale_fmt changes their type only.
    ls::Modifiers row1;
    row1.matrix_b_scale = 1;
    row1.matrix_b_scale_fmt = 1;
    const ls::OperandLayout SB = ls::layout_of(s, gfx1250(), ls::Operand::SB, mods_for(s, row1));
    CHECK(SB.type() == ls::ElemType::E5M3);
    CHECK(SB.where({0, 3, 5})[0].lane == 21);
    CHECK(SB.where({0, 3, 5})[0].bit_lo == 24);
    CHECK(SB.where({0, 3, 5})[0].reg == 0);
}

TEST_CASE("gfx1250: the sheet's rules at chosen points", "[gfx1250]") {
    auto at = [](const char* name, ls::Operand op, ls::Element e, ls::Modifiers m = {}) {
        const ls::Instruction& i = cat().find_instruction(gfx1250(), name);
        const auto locs = ls::layout_of(i, gfx1250(), op, mods_for(i, m)).where(e);
        REQUIRE(locs.size() == 1);
        return locs[0];
    };
    // 16-bit: k 0-7 and 16-23 in lanes 0-15 (a Triton review).
    CHECK(at("v_wmma_f32_16x16x32_f16", ls::Operand::A, {0, 3, 17}).lane == 3);
    CHECK(at("v_wmma_f32_16x16x32_f16", ls::Operand::A, {0, 3, 9}).lane == 19);
    // 32x16 accumulator (rocjitsu): row 20 -> lane j + 16*floor(4/8) = j, VGPR 8 + 4.
    const ls::Location c = at("v_wmma_f32_32x16x128_f4", ls::Operand::D, {0, 20, 5});
    CHECK(c.lane == 5);
    CHECK(c.reg == 12);
    // 32-row FP4 A: rows 16-31 in VGPRs 8-15.
    CHECK(at("v_wmma_f32_32x16x128_f4", ls::Operand::A, {0, 17, 0}).reg == 8);
    // 8-bit SWMMAC B at K = 128: 32-element blocks, lane j + 16*(floor(k/32)%2), element k%32 + 32*floor(k/64).
    const ls::Location b = at("v_swmmac_f32_16x16x128_fp8_fp8", ls::Operand::B, {0, 100, 2});
    CHECK(b.lane == 2 + 16);
    CHECK(element_index(b, 8) == 100 % 32 + 32);
    // FP6 elements straddle VGPRs: element 5 of a lane is bits 35:30.
    ls::Modifiers fp6;
    fp6.matrix_a_fmt = 2;
    const ls::Location f6 = at("v_wmma_f32_16x16x128_f8f6f4", ls::Operand::A, {0, 0, 5}, fp6);
    CHECK(f6.reg == 0);
    CHECK(f6.bit_lo == 30);
    CHECK(f6.bit_hi == 35);
}

namespace {
struct TritonLayout {
    nlohmann::json j;
};

std::vector<nlohmann::json> triton_gfx1250_single() {
    std::vector<nlohmann::json> out;
    for (nlohmann::json j : lstest::triton_records()) {
        const auto& p = j["params"];
        const std::string kind = j["layout"];
        if ((kind != "wmma" && kind != "wmma_dot") || p.value("version", 0) != 3) continue;
        if (p["warps_per_cta"] != nlohmann::json::array({1, 1}) || p["tiles_per_warp"] != nlohmann::json::array({1, 1}))
            continue;
        if (j.contains("error")) continue;
        out.push_back(std::move(j));
    }
    return out;
}

// (lane, element index) -> (row, col) of a Triton layout: XOR of the bases of the set bits.
std::map<std::pair<int, int>, std::pair<int, int>> triton_map(const nlohmann::json& j) {
    std::map<std::pair<int, int>, std::pair<int, int>> m;
    const auto& rb = j["reg_bases"];
    const auto& lb = j["lane_bases"];
    for (int lane = 0; lane < (1 << lb.size()); ++lane)
        for (int r = 0; r < (1 << rb.size()); ++r) {
            int row = 0, col = 0;
            for (size_t b = 0; b < lb.size(); ++b)
                if (lane >> b & 1) row ^= lb[b][0].get<int>(), col ^= lb[b][1].get<int>();
            for (size_t b = 0; b < rb.size(); ++b)
                if (r >> b & 1) row ^= rb[b][0].get<int>(), col ^= rb[b][1].get<int>();
            m[{lane, r}] = {row, col};
        }
    return m;
}
}  // namespace

TEST_CASE("gfx1250: single-instruction A/B/C/D equal Triton 3.6's gfx1250 layouts element by element", "[gfx1250][triton]") {
    const std::vector<nlohmann::json> dump = triton_gfx1250_single();
    REQUIRE(dump.size() > 100);
    int compared = 0, layouts = 0;
    for (const ls::Instruction* r : rows()) {
        if (r->kind == ls::LayoutKind::SwmmacGfx1250 || r->m != 16) continue;  // Triton 3.6 has no SWMMAC or 32x16
        const int bits = ls::elem_bits(r->a);
        // Formats to compare: the row's own, or FP8 and BF8 of f8f6f4 (Triton's kWidth 16 8-bit layout).
        std::vector<int> fmts = {0};
        if (r->a == ls::ElemType::F8F6F4) fmts = {0, 1};
        for (int fmt : fmts) {
            ls::Modifiers mv;
            if (r->a == ls::ElemType::F8F6F4) mv.matrix_a_fmt = mv.matrix_b_fmt = fmt;
            const ls::ResolvedModifiers m = mods_for(*r, mv);
            const int kwidth = bits == 32 ? 2 : bits == 16 ? 8 : 16;
            for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C, ls::Operand::D}) {
                const ls::OperandLayout L = ls::layout_of(*r, gfx1250(), op, m);
                const bool acc = op == ls::Operand::C || op == ls::Operand::D;
                int matched = 0;
                for (const nlohmann::json& j : dump) {
                    const auto& p = j["params"];
                    if (p["instr_shape"][2].get<int>() != r->k) continue;
                    if (acc) {
                        // Triton's transposed accumulator is another layout (Triton swaps the operands).
                        if (j["layout"] != "wmma" || p["transposed"].get<bool>() ||
                            j["shape"] != nlohmann::json::array({16, 16}))
                            continue;
                    } else {
                        const int idx = op == ls::Operand::A ? 0 : 1;
                        if (j["layout"] != "wmma_dot" || p["operand_index"].get<int>() != idx ||
                            p["k_width"].get<int>() != kwidth)
                            continue;
                        const nlohmann::json shape = idx == 0 ? nlohmann::json::array({16, r->k})
                                                              : nlohmann::json::array({r->k, 16});
                        if (j["shape"] != shape) continue;
                    }
                    ++matched;
                    ++layouts;
                    const auto tm = triton_map(j);
                    INFO(r->mnemonic << " " << ls::operand_name(op) << " fmt " << fmt << " kWidth " << kwidth);
                    REQUIRE(static_cast<int>(tm.size()) == L.elements());
                    for (const auto& [slot, elem] : tm) {
                        const auto locs = L.where({0, elem.first, elem.second});
                        REQUIRE(locs.size() == 1);
                        CHECK(locs[0].lane == slot.first);
                        CHECK(element_index(locs[0], L.element_bits()) == slot.second);
                        ++compared;
                    }
                }
                INFO(r->mnemonic << " " << ls::operand_name(op));
                CHECK(matched >= 1);
            }
        }
    }
    // Report the counts (the issue asks for them).
    WARN("gfx1250 vs Triton 3.6: " << layouts << " layouts, " << compared << " elements compared");
    CHECK(layouts >= 100);
}

#ifdef LANESCOPE_CLANG22
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

// Every row's C prototype (Instruction::signature) compiles with clang-22 for
// gfx1250 under -Werror, and the disassembly holds the row's mnemonic: one file,
// one function per builtin; vector arguments and the index/scales are
// parameters, the other (constant) arguments 0.
TEST_CASE("gfx1250: every signature compiles with clang-22 to its mnemonic", "[gfx1250][clang22]") {
    const std::map<std::string, std::string> scalar = {{"f32", "float"}, {"f16", "_Float16"}, {"bf16", "__bf16"}, {"i32", "int"}};
    std::set<std::string> typedefs;
    std::string body;
    int n = 0;
    for (const ls::Instruction* r : rows()) {
        const std::string sig = r->signature(32);
        std::smatch m;
        REQUIRE(std::regex_match(sig, m, std::regex(R"((\w+) (\w+)\((.*)\))")));
        const std::string args = m[3];
        static const std::regex kVector(R"(\bv(\d+)(f32|f16|bf16|i32)\b)");
        for (std::sregex_iterator it(sig.begin(), sig.end(), kVector), end; it != end; ++it)
            typedefs.insert("typedef " + scalar.at((*it)[2]) + " " + (*it)[0].str() + " __attribute__((ext_vector_type(" +
                            (*it)[1].str() + ")));\n");
        std::string params, call;
        std::stringstream ss(args);
        std::string arg;
        int k = 0;
        while (std::getline(ss, arg, ',')) {
            arg = std::regex_replace(arg, std::regex(R"(/\*.*\*/|^\s+|\s+$)"), "");
            const auto sp = arg.rfind(' ');
            const std::string type = arg.substr(0, sp), name = arg.substr(sp + 1);
            const bool param = type[0] == 'v' || name == "idx" || name == "scale_a" || name == "scale_b";
            if (param) params += (params.empty() ? "" : ", ") + type + " p" + std::to_string(k);
            call += (call.empty() ? "" : ", ") + (param ? "p" + std::to_string(k) : std::string("0"));
            ++k;
        }
        body += m[1].str() + " f" + std::to_string(n++) + "(" + params + ") { return " + m[2].str() + "(" + call + "); }\n";
    }
    // A scratch folder of this process's own (never the working directory: ctest's, or a checkout's).
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("lanescope-gfx1250-signatures-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
    {
        std::ofstream c(dir + "/all.c");
        for (const auto& t : typedefs) c << t;
        c << body;
    }
    const std::string cmd = std::string(LANESCOPE_CLANG22) + " -x c --target=amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 -Werror -c " +
                            dir + "/all.c -o " + dir + "/all.o 2>" + dir + "/err.txt && " + LANESCOPE_OBJDUMP22 +
                            " -d --mcpu=gfx1250 " + dir + "/all.o > " + dir + "/all.s";
    const int rc = std::system(cmd.c_str());
    std::ifstream err(dir + "/err.txt");
    std::string errors((std::istreambuf_iterator<char>(err)), {});
    INFO(errors);
    REQUIRE(rc == 0);
    std::ifstream dis(dir + "/all.s");
    const std::string text((std::istreambuf_iterator<char>(dis)), {});
    std::filesystem::remove_all(dir);
    for (const ls::Instruction* r : rows()) {
        INFO(r->mnemonic);
        CHECK(text.find(r->mnemonic + " ") != std::string::npos);
    }
    CHECK(n == 43);
}
#endif
