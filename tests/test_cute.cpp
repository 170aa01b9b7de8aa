// CuTe layouts (cute.hpp): the printed shape:stride, parsed here on its own and
// evaluated with CuTe's colexicographic rule, gives every (thread, value) the
// element the engine's entries say.
#include "helpers.hpp"
#include "shell_run.hpp"

#include "lanescope/cute.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <tuple>

namespace {
namespace ls = lanescope;

// A CuTe tuple: an integer or a list of tuples.
struct Tup {
    long long value = 0;
    std::vector<Tup> items;
    bool leaf = true;
};
Tup parse_tup(const std::string& s, size_t& p) {
    Tup t;
    if (s[p] == '(') {
        t.leaf = false;
        ++p;
        while (true) {
            t.items.push_back(parse_tup(s, p));
            if (s[p] == ',') {
                ++p;
                continue;
            }
            REQUIRE(s[p] == ')');
            ++p;
            return t;
        }
    }
    size_t start = p;
    while (p < s.size() && (isdigit(static_cast<unsigned char>(s[p])) || s[p] == '-')) ++p;
    REQUIRE(p > start);
    t.value = std::stoll(s.substr(start, p - start));
    return t;
}
long long size_of(const Tup& shape) {
    if (shape.leaf) return shape.value;
    long long n = 1;
    for (const auto& i : shape.items) n *= size_of(i);
    return n;
}
// CuTe: a coordinate x in a mode of shape (s0, s1, ...) splits as x0 = x % size(s0), x / size(s0) -> the rest.
long long eval(const Tup& shape, const Tup& stride, long long x) {
    if (shape.leaf) return (x % shape.value) * stride.value;
    REQUIRE(shape.items.size() == stride.items.size());
    long long off = 0;
    for (size_t i = 0; i < shape.items.size(); ++i) {
        long long n = size_of(shape.items[i]);
        off += eval(shape.items[i], stride.items[i], x % n);
        x /= n;
    }
    return off;
}

}  // namespace

TEST_CASE("cute format: evaluates back to the engine over every (thread, value)") {
    int expressible = 0, not_expressible = 0;
    auto check = [&](const lstest::Case& c, ls::Operand op, const ls::TileParams& p) {
        ls::TileLayout t(*c.ins, *c.target, op, c.mods, p);
        INFO(c.name() << " " << ls::operand_name(op) << " " << t.params().describe());
        ls::CuteResult r = ls::to_cute(t);
        if (!r.layout) {
            ++not_expressible;
            CHECK_FALSE(r.why_not.empty());
            return;
        }
        ++expressible;
        const std::string text = r.layout->text();
        INFO(text);
        size_t pos = 0;
        Tup shape = parse_tup(text, pos);
        REQUIRE(text[pos] == ':');
        ++pos;
        Tup stride = parse_tup(text, pos);
        REQUIRE(pos == text.size());
        REQUIRE(shape.items.size() == 2);
        // The engine's entries, by (wave, lane) then (reg, bit_lo).
        std::map<std::tuple<int, int, int, int>, ls::Element> slots;
        for (const auto& e : t.entries()) slots[{e.at.wave, e.at.loc.lane, e.at.loc.reg, e.at.loc.bit_lo}] = e.element;
        std::map<int, std::vector<ls::Element>> per_thread;
        for (const auto& [k, e] : slots) per_thread[std::get<0>(k) * t.lanes() + std::get<1>(k)].push_back(e);
        REQUIRE(size_of(shape.items[0]) == t.waves() * t.lanes());
        for (const auto& [thread, list] : per_thread) {
            REQUIRE(size_of(shape.items[1]) == static_cast<long long>(list.size()));
            // CuTe's MMA_Traits coordinates: A (M, K), C/D (M, N) column-major; B (N, K), i.e. lanescope's
            // K x N transposed; B's scales SB alike, (N, K/32) (docs/tiles.md).
            for (size_t v = 0; v < list.size(); ++v) {
                const long long want = op == ls::Operand::B || op == ls::Operand::SB ? list[v].col + static_cast<long long>(list[v].row) * t.cols()
                                                            : list[v].row + static_cast<long long>(list[v].col) * t.rows();
                REQUIRE(eval(shape.items[0], stride.items[0], thread) + eval(shape.items[1], stride.items[1], v) == want);
            }
        }
    };
    lstest::for_each_default([&](const lstest::Case& c) {
        if (c.ins->blocks != 1) return;
        for (ls::Operand op : ls::operands_of(*c.ins)) {
            check(c, op, {});
            if (op == ls::Operand::A || op == ls::Operand::C) check(c, op, {2, 2, 2, 1, 0, 0, c.ins->k * 2});
        }
    });
    WARN("layouts expressible in CuTe: " << expressible << ", not: " << not_expressible);
    CHECK(expressible > 300);
}

TEST_CASE("cute format: known layouts and a refusal") {
    auto run = [](const std::string& q) { return lstest::run_command(std::string(LANESCOPE_CLI) + " layout " + q + " -f cute"); };
    // 32x32x8 f16 C: lane%32 is the column (stride 32 in a column-major 32x32), lane/32 four rows;
    // values: four consecutive rows, then 8 rows on.
    auto r = run("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C");
    REQUIRE(r.status == 0);
    CHECK(r.out == "((32,2),(4,4)):((32,4),(1,8))\n");
    // RDNA3 A: lanes 16-31 repeat lanes 0-15 (stride 0).
    r = run("-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand A");
    REQUIRE(r.status == 0);
    CHECK(r.out == "((16,2),16):((1,0),16)\n");
    r = run("-a gfx942 -i v_smfmac_f32_16x16x32_f16 --operand A");
    CHECK(r.status == 1);
    CHECK(r.err.find("not expressible as a CuTe layout") != std::string::npos);
    CHECK(r.out.empty());
}

// CUTLASS's published MMA atoms (include/cute/atom/mma_traits_sm80.hpp, mma_traits_sm89.hpp,
// mma_traits_sm90.hpp, mma_traits_sm90_gmma.hpp): ALayout (T, V) -> (M, K), BLayout -> (N, K),
// CLayout -> (M, N), each written out here as CuTe prints a layout without its static underscores.
// The strings are CUTLASS's shape:stride facts, typed from those files; lanescope's text must equal
// them character for character.
TEST_CASE("cute format: every SM80/SM89/SM90 atom lanescope covers equals CUTLASS's ALayout/BLayout/CLayout") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_90");
    // SM80_16x8_Row, SM80_8x8_Row, SM80_8x16_Row, SM80_8x4 (mma_traits_sm80.hpp).
    const std::string c16x8 = "((4,8),(2,2)):((32,1),(16,8))", c8x8 = "((4,8),2):((16,1),8)";
    const std::string r8x16 = "((4,8),4):((32,1),8)", r8x8 = "((4,8),2):((16,1),8)", x8x4 = "((4,8),1):((8,1),0)";
    struct Atom {
        std::string ins, a, b, c;  // b empty: B lives in shared memory (wgmma)
    };
    std::vector<Atom> atoms = {
        // SM80_16x8x16_F16F16F16F16_TN and its F32F16F16F32 / F32BF16BF16F32 children.
        {"mma_m16n8k16_f16_f16", "((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))", c16x8},
        {"mma_m16n8k16_f32_f16", "((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))", c16x8},
        {"mma_m16n8k16_f32_bf16", "((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))", c16x8},
        // SM80_16x8x8_F16F16F16F16_TN: A SM80_16x8_Row, B SM80_8x8_Row.
        {"mma_m16n8k8_f16_f16", c16x8, r8x8, c16x8},
        {"mma_m16n8k8_f32_f16", c16x8, r8x8, c16x8},
        {"mma_m16n8k8_f32_bf16", c16x8, r8x8, c16x8},
        // SM80_16x8x8_F32TF32TF32F32_TN, SM80_16x8x4_F32TF32TF32F32_TN.
        {"mma_m16n8k8_f32_tf32", "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", c16x8},
        {"mma_m16n8k4_f32_tf32", "((4,8),2):((16,1),8)", x8x4, c16x8},
        // SM80_16x8x32_S32S8S8S32_TN (and U8), SM89_16x8x32_F32E4M3E4M3F32_TN (and E5M2, F16 accumulators).
        {"mma_m16n8k32_s32_s8", "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", c16x8},
        {"mma_m16n8k32_s32_u8", "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", c16x8},
        {"mma_m16n8k32_f32_e4m3", "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", c16x8},
        {"mma_m16n8k32_f32_e5m2", "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", c16x8},
        {"mma_m16n8k32_f16_e4m3", "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", c16x8},
        {"mma_m16n8k32_f16_e5m2", "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", c16x8},
        // SM80_16x8x16_S32S8S8S32_TN (and U8): A ((4,8),(4,2)), B SM80_8x16_Row.
        {"mma_m16n8k16_s32_s8", "((4,8),(4,2)):((64,1),(16,8))", r8x16, c16x8},
        {"mma_m16n8k16_s32_u8", "((4,8),(4,2)):((64,1),(16,8))", r8x16, c16x8},
        // SM80_8x8x16_S32S8S8S32_TN: A and B SM80_8x16_Row, C SM80_8x8_Row.
        {"mma_m8n8k16_s32_s8", r8x16, r8x16, c8x8},
        // SM80_16x8x64_S32S4S4S32_TN.
        {"mma_m16n8k64_s32_s4", "((4,8),(8,2,2)):((128,1),(16,8,512))", "((4,8),(8,2)):((64,1),(8,256))", c16x8},
        // SM80_8x8x4_F64F64F64F64_TN: A and B SM80_8x4, C SM80_8x8_Row.
        {"mma_m8n8k4_f64", x8x4, x8x4, c8x8},
        // SM90_16x8x4/8/16_F64F64F64F64_TN (mma_traits_sm90.hpp).
        {"mma_m16n8k4_f64", "((4,8),2):((16,1),8)", x8x4, c16x8},
        {"mma_m16n8k8_f64", "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", c16x8},
        {"mma_m16n8k16_f64", "((4,8),(2,4)):((16,1),(8,64))", "((4,8),4):((8,1),32)", c16x8},
    };
    // SM90 GMMA RS atoms: ALayout_64x16 (16-bit A), ALayout_64x8 (tf32), ALayout_64x32 (8-bit), and
    // CLayout_64xN = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)) for every N the catalog holds.
    int wgmma_rows = 0;
    for (const auto& r : cat.instructions()) {
        if (r.kind != ls::LayoutKind::Wgmma) continue;
        ++wgmma_rows;
        const int bits = ls::elem_bits(r.a);
        const std::string a = bits == 16   ? "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"
                              : bits == 32 ? "((4,8,4),(2,2)):((64,1,16),(8,256))"
                                           : "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))";
        atoms.push_back({r.short_name, a, "", "((4,8,4),(2,2," + std::to_string(r.n / 8) + ")):((128,1,16),(64,8,512))"});
    }
    CHECK(wgmma_rows == 8 * 32 + 18);
    int checked = 0;
    for (const Atom& atom : atoms) {
        const ls::Instruction& ins = cat.find_instruction(t, atom.ins);
        const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, t, {});
        for (ls::Operand op : ls::operands_of(ins)) {
            if (ls::layout_of(ins, t, op, mods).space() != ls::Space::Registers) continue;  // wgmma B: a descriptor
            const std::string& want = op == ls::Operand::A ? atom.a : op == ls::Operand::B ? atom.b : atom.c;
            INFO(atom.ins << " " << ls::operand_name(op));
            REQUIRE_FALSE(want.empty());
            ls::TileLayout tile(ins, t, op, mods, {});
            ls::CuteResult r = ls::to_cute(tile);
            REQUIRE(r.layout);
            CHECK(r.layout->text() == want);
            ++checked;
        }
    }
    // 22 mma.sync atoms x 4 operands, 274 wgmma atoms x 3 (A, C, D).
    CHECK(checked == 22 * 4 + (8 * 32 + 18) * 3);
    WARN("CUTLASS atom layouts compared: " << checked << " (" << atoms.size() << " atoms)");
}
