// Name lookup, modifier legality and catalog parsing errors.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <tuple>

using namespace lstest;

namespace {
const ls::Catalog& cat() { return ls::Catalog::builtin(); }

std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const ls::Error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("builtin counts per family match the reference sheet (§2.1)") {
    // The reference's counts: CDNA1 20, CDNA2 27, CDNA3 46, CDNA4 66 builtins,
    // RDNA3 16 (8 x w32/w64), RDNA4 44 (22 x w32/w64).
    // Distinct builtin names: the unscaled f8f6f4 rows share the scaled rows' builtins.
    auto builtins = [](ls::Family f) {
        std::set<std::string> names;
        for (const auto* r : cat().on(f))
            for (int w : {32, 64}) names.insert(r->builtin(w));
        return names.size();
    };
    CHECK(builtins(ls::Family::CDNA1) == 20);
    CHECK(builtins(ls::Family::CDNA2) == 27);
    CHECK(builtins(ls::Family::CDNA3) == 46);
    CHECK(builtins(ls::Family::CDNA4) == 66);
    CHECK(builtins(ls::Family::RDNA3) == 16);
    CHECK(builtins(ls::Family::RDNA4) == 44);
}

TEST_CASE("architectures by family, gfx id and product") {
    CHECK(cat().find_target("cdna3").gfx == "gfx942");
    CHECK(cat().find_target("GFX942").family == ls::Family::CDNA3);
    CHECK(cat().find_target("MI300X").family == ls::Family::CDNA3);
    CHECK(cat().find_target("mi355x").family == ls::Family::CDNA4);
    CHECK(cat().find_target("rdna3.5").gfx == "gfx1150");
    CHECK(cat().find_target("gfx1201").family == ls::Family::RDNA4);
    std::string e = error_of([] { cat().find_target("gfx943"); });
    CHECK(e.find("unknown architecture 'gfx943'") != std::string::npos);
    CHECK(e.find("did you mean") != std::string::npos);
    CHECK(e.find("legal:") != std::string::npos);
}

TEST_CASE("instructions by mnemonic, LLVM's other spelling and builtin name") {
    const auto& g942 = cat().find_target("gfx942");
    const auto& g908 = cat().find_target("gfx908");
    CHECK(cat().find_instruction(g942, "v_mfma_f32_32x32x1_2b_f32").mnemonic == "v_mfma_f32_32x32x1_2b_f32");
    CHECK(cat().find_instruction(g942, "V_MFMA_F32_32X32X1F32").mnemonic == "v_mfma_f32_32x32x1_2b_f32");
    CHECK(cat().find_instruction(g908, "v_mfma_f32_32x32x8f16").mnemonic == "v_mfma_f32_32x32x8f16");
    CHECK(cat().find_instruction(g908, "v_mfma_f32_32x32x8_f16").mnemonic == "v_mfma_f32_32x32x8f16");
    CHECK(cat().find_instruction(g942, "__builtin_amdgcn_mfma_f32_32x32x8f16").mnemonic == "v_mfma_f32_32x32x8_f16");
    CHECK(cat().find_instruction(g942, "mfma_f64_4x4x4f64").mnemonic == "v_mfma_f64_4x4x4_4b_f64");
    const auto& g1100 = cat().find_target("gfx1100");
    int wave = 0;
    const auto& w = cat().find_instruction(g1100, "__builtin_amdgcn_wmma_f16_16x16x16_f16_tied_w64", &wave);
    CHECK(w.tied);
    CHECK(wave == 64);
    CHECK_FALSE(cat().find_instruction(g1100, "v_wmma_f16_16x16x16_f16").tied);  // the mnemonic names the untied builtin

    std::string e = error_of([&] { cat().find_instruction(g942, "v_mfma_f32_32x32x8_f61"); });
    CHECK(e.find("did you mean 'v_mfma_f32_32x32x8_f16'") != std::string::npos);
    e = error_of([&] { cat().find_instruction(g942, "v_mfma_f32_16x16x32_f16"); });
    CHECK(e.find("exists on cdna4") != std::string::npos);
}

TEST_CASE("illegal modifiers are rejected with the legal values") {
    const auto& t = cat().find_target("gfx942");
    auto resolve = [&](const char* name, ls::Modifiers m) {
        return ls::resolve_modifiers(cat().find_instruction(t, name), t, m);
    };
    ls::Modifiers m;
    m.cbsz = 2;
    std::string e = error_of([&] { resolve("v_mfma_f32_32x32x1_2b_f32", m); });
    CHECK(e.find("legal: 0..1") != std::string::npos);
    m = {};
    m.cbsz = 1;
    m.abid = 2;
    e = error_of([&] { resolve("v_mfma_f32_16x16x1_4b_f32", m); });
    CHECK(e.find("legal: 0..1") != std::string::npos);
    m = {};
    m.blgp = 3;
    e = error_of([&] { resolve("v_mfma_f32_32x32x8_f16", m); });
    CHECK(e.find("does not apply") != std::string::npos);
    CHECK_NOTHROW(resolve("v_mfma_f32_32x32x2_f32", m));  // single-block f32 keeps BLGP on CDNA3
    m = {};
    m.wave = 32;
    CHECK_THROWS_AS(resolve("v_mfma_f32_32x32x2_f32", m), ls::Error);
    // RDNA3 opsel: 0 or 4 (op_sel:[0,0,1]); only on 16-bit outputs.
    const auto& r = cat().find_target("gfx1100");
    m = {};
    m.opsel = 4;
    CHECK_NOTHROW(ls::resolve_modifiers(cat().find_instruction(r, "v_wmma_f16_16x16x16_f16"), r, m));
    m.opsel = 1;
    e = error_of([&] { ls::resolve_modifiers(cat().find_instruction(r, "v_wmma_f16_16x16x16_f16"), r, m); });
    CHECK(e.find("legal: 0, 4") != std::string::npos);
    m.opsel = 4;
    CHECK_THROWS_AS(ls::resolve_modifiers(cat().find_instruction(r, "v_wmma_f32_16x16x16_f16"), r, m), ls::Error);
    // mfma_scale: formats 0..4.
    const auto& g950 = cat().find_target("gfx950");
    m = {};
    m.cbsz = 5;
    CHECK_THROWS_AS(ls::resolve_modifiers(cat().find_instruction(g950, "v_mfma_scale_f32_16x16x128_f8f6f4"), g950, m),
                    ls::Error);
}

TEST_CASE("operands that do not exist are rejected") {
    const auto& t = cat().find_target("gfx942");
    const auto& ins = cat().find_instruction(t, "v_mfma_f32_32x32x8_f16");
    std::string e = error_of([&] { ls::layout_of(ins, t, ls::Operand::K, ls::Modifiers{}); });
    CHECK(e.find("legal: A, B, C, D") != std::string::npos);
    auto D = ls::layout_of(ins, t, ls::Operand::D, ls::Modifiers{});
    CHECK_THROWS_AS(D.where({0, 32, 0}), ls::Error);
    CHECK_THROWS_AS(D.which(16, 0), ls::Error);
}

TEST_CASE("a broken catalog names the file, the line and what is legal") {
    const std::string good =
        "cdna3 | mfma_f32_32x32x2f32 | v_mfma_f32_32x32x2_f32 | - | mfma | 32x32x2 | 1 | f32,f32,f32 | 44 | 64 | "
        "f32,f32,v16f32>v16f32 | - | mai-insts | test\n";
    CHECK(ls::Catalog::parse(good, "t.txt").instructions().size() == 1);
    std::string e = error_of([] { ls::Catalog::parse("# header\ncdna3 | too | few\n", "t.txt"); });
    CHECK(e.find("t.txt:2:") != std::string::npos);
    CHECK(e.find("14") != std::string::npos);
    std::string bad = good;
    bad.replace(bad.find("mfma |"), 4, "mfmx");
    e = error_of([&] { ls::Catalog::parse(bad, "t.txt"); });
    CHECK(e.find("unknown layout 'mfmx'") != std::string::npos);
    CHECK(e.find("legal:") != std::string::npos);
    e = error_of([&] { ls::Catalog::parse(good + good, "t.txt"); });
    CHECK(e.find("already defined") != std::string::npos);
    e = error_of([] { ls::Catalog::parse("", "empty.txt"); });
    CHECK(e.find("no instruction rows") != std::string::npos);
    e = error_of([] { ls::Catalog::load_file("/nonexistent/catalog.txt"); });
    CHECK(e.find("cannot read") != std::string::npos);
}

TEST_CASE("facts: ops, mnemonic spellings, opcodes from the reference table") {
    const auto& t = cat().find_target("gfx942");
    const auto& i1 = cat().find_instruction(t, "v_mfma_i32_16x16x32_i8");
    CHECK(i1.opcode == 0x57);  // LLVM/I4, not CALC's 0x54 typo
    CHECK(i1.ops() == 16384);
    const auto& s = cat().find_instruction(t, "v_smfmac_f32_32x32x32_fp8_fp8");
    CHECK(s.ops() == 65536);  // dense-equivalent K
    const auto& g950 = cat().find_target("gfx950");
    const auto& sc = cat().find_instruction(g950, "v_mfma_f32_16x16x128_f8f6f4");  // unscaled spelling
    ls::Modifiers fp4;
    fp4.cbsz = 4;
    fp4.blgp = 4;
    CHECK(ls::effective_cycles(sc, ls::resolve_modifiers(sc, g950, fp4)) == 16);
    CHECK(ls::effective_cycles(sc, ls::resolve_modifiers(sc, g950, ls::Modifiers{})) == 32);
    CHECK(sc.ops() == 65536);
}

TEST_CASE("family rules accept only rows the formulas lay out, and refuse with what is legal", "[slow]") {
    // Every built-in row, its shape and blocks halved or doubled one field at a time:
    // a variant the rules accept must lay out every operand (all slots inside the
    // wave and the registers); one they refuse says what is legal.
    const auto& cat = lanescope::Catalog::builtin();
    size_t accepted = 0, refused = 0;
    for (const lanescope::Instruction& base : cat.instructions()) {
        REQUIRE_NOTHROW(lanescope::validate_instruction(base));
        for (int field = 0; field < 4; ++field)
            for (int factor : {0, 1, 2, 3}) {  // halve, double, zero, huge
                lanescope::Instruction v = base;
                int* f = field == 0 ? &v.m : field == 1 ? &v.n : field == 2 ? &v.k : &v.blocks;
                *f = factor == 0 ? *f / 2 : factor == 1 ? *f * 2 : factor == 2 ? 0 : 1 << 20;
                try {
                    lanescope::validate_instruction(v);
                } catch (const lanescope::Error& e) {
                    ++refused;
                    CHECK(std::string(e.what()).find("legal") != std::string::npos);
                    // A shape the formulas cannot lay out: the engine refuses it too, with an
                    // Error (never a crash). (A register-count mismatch with the builtin's
                    // vector types is a catalog error only; the engine can still lay it out.)
                    if (std::string(e.what()).find("VGPR(s) per lane") != std::string::npos) continue;
                    const lanescope::Target& t = *[&] {
                        for (const auto& x : cat.targets())
                            if (v.on(x.family)) return &x;
                        return &cat.targets().front();
                    }();
                    lanescope::ResolvedModifiers mods;
                    mods.wave = t.default_wave;
                    CHECK_THROWS_AS(lanescope::layout_of(v, t, lanescope::Operand::C, mods), lanescope::Error);
                    continue;
                }
                ++accepted;
                for (const auto& t : cat.targets()) {
                    if (!v.on(t.family)) continue;
                    for (int wave : lanescope::wave_sizes(v, t)) {
                        lanescope::Modifiers m;
                        m.wave = wave;
                        for (lanescope::Operand op : lanescope::operands_of(v))
                            CHECK_NOTHROW(lanescope::layout_of(v, t, op, m));
                    }
                    break;
                }
            }
    }
    CHECK(refused > accepted);
}

TEST_CASE("compiler witness per target: clang-22 (LLVM 22) everywhere but gfx940/gfx941 (clang-19)") {
    // LLVM 22 removed gfx940/gfx941 ("invalid target ID"); it compiles gfx950 and
    // gfx1153, which clang-19 did not know; PTX targets have no builtins.
    for (const ls::Target& t : cat().targets()) {
        INFO(t.gfx);
        if (t.vendor() == ls::Vendor::NVIDIA) {
            CHECK(t.compiler.empty());
            CHECK_FALSE(t.has_compiler());
        } else if (t.gfx == "gfx940" || t.gfx == "gfx941") {
            CHECK(t.compiler == "clang-19");
        } else {
            CHECK(t.compiler == "clang-22");
        }
    }
    CHECK(cat().find_target("gfx950").compiler == "clang-22");
    CHECK(cat().find_target("gfx1153").compiler == "clang-22");
}

TEST_CASE("the unscaled f8f6f4 MFMA is its own row: own mnemonic, no SA/SB, same A/B/C/D layouts") {
    // clang-22 emits v_mfma_f32_16x16x128_f8f6f4 (D3AD0000 alone) for
    // mfma_scale_f32_16x16x128_f8f6f4 with both scales a literal 0, and the
    // ld_scale prefix (D3AC....) plus the same MFMA word otherwise.
    const auto& g950 = cat().find_target("gfx950");
    for (const auto& [scaled_name, plain_name, opcode] :
         std::vector<std::tuple<std::string, std::string, unsigned>>{
             {"v_mfma_scale_f32_16x16x128_f8f6f4", "v_mfma_f32_16x16x128_f8f6f4", 0x2d},
             {"v_mfma_scale_f32_32x32x64_f8f6f4", "v_mfma_f32_32x32x64_f8f6f4", 0x2e}}) {
        INFO(plain_name);
        const auto& scaled = cat().find_instruction(g950, scaled_name);
        const auto& plain = cat().find_instruction(g950, plain_name);
        CHECK(&scaled != &plain);
        CHECK(plain.mnemonic == plain_name);
        CHECK(plain.opcode == opcode);
        CHECK(scaled.opcode == opcode);
        CHECK(plain.builtin(64) == scaled.builtin(64));  // the same builtin selects either
        CHECK(plain.key(64) != scaled.key(64));          // file names and ids stay unique
        CHECK(std::find(scaled.aliases.begin(), scaled.aliases.end(), plain_name) == scaled.aliases.end());
        // The builtin's name finds the scaled (general) form.
        CHECK(&cat().find_instruction(g950, scaled.builtin(64)) == &scaled);
        const auto ops = ls::operands_of(plain);
        CHECK(ops == std::vector<ls::Operand>{ls::Operand::A, ls::Operand::B, ls::Operand::C, ls::Operand::D});
        CHECK(ls::operands_of(scaled).size() == 6);
        CHECK_THROWS_AS(ls::layout_of(plain, g950, ls::Operand::SA, ls::Modifiers{}), ls::Error);
        ls::Modifiers sel;
        sel.opsel_a = 1;
        CHECK_THROWS_AS(ls::resolve_modifiers(plain, g950, sel), ls::Error);
        for (int fmt : {0, 2, 4})
            for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C, ls::Operand::D}) {
                ls::Modifiers m;
                m.cbsz = fmt;
                m.blgp = fmt;
                const auto x = ls::layout_of(plain, g950, op, m).entries(), y = ls::layout_of(scaled, g950, op, m).entries();
                REQUIRE(x.size() == y.size());
                bool same = true;
                for (size_t n = 0; n < x.size(); ++n) same = same && x[n].element == y[n].element && x[n].loc == y[n].loc;
                CHECK(same);
            }
        CHECK_FALSE(ls::compiler_selection(plain).empty());
        CHECK(ls::compiler_selection(plain).find("literal 0") != std::string::npos);
    }
}

TEST_CASE("encoding words: gfx950's scaled MFMA is an ld_scale prefix then the MFMA word") {
    const auto& g950 = cat().find_target("gfx950");
    // llvm-objdump-22: "D3AC0000 00021B0C D3AD0804 04122D0E" (fixed bits D3AC0000, D3AD0000).
    const auto words = ls::encoding_words(cat().find_instruction(g950, "v_mfma_scale_f32_16x16x128_f8f6f4"));
    REQUIRE(words.size() == 2);
    CHECK(words[0].role == "prefix");
    CHECK(words[0].mnemonic == "v_mfma_ld_scale_b32");
    CHECK(words[0].opcode == 0x2c);
    CHECK(words[0].word == 0xD3AC0000u);
    CHECK(words[1].role == "matrix");
    CHECK(words[1].dword == 2);
    CHECK(words[1].word == 0xD3AD0000u);
    const auto plain = ls::encoding_words(cat().find_instruction(g950, "v_mfma_f32_32x32x64_f8f6f4"));
    REQUIRE(plain.size() == 1);
    CHECK(plain[0].word == 0xD3AE0000u);
    // RDNA4 VOP3P: llvm-mc-22 -mcpu=gfx1200 "v_wmma_f32_16x16x16_f16 ..." encodes as CC404000 (op 0x40).
    const auto& g1200 = cat().find_target("gfx1200");
    const auto rdna = ls::encoding_words(cat().find_instruction(g1200, "v_wmma_f32_16x16x16_f16"));
    REQUIRE(rdna.size() == 1);
    CHECK(rdna[0].word == 0xCC400000u);
}

TEST_CASE("encoding formats: the opcode width is the format's, and a 7-bit mask misreads an 8-bit field") {
    CHECK(ls::encoding_format(ls::Family::CDNA4).opcode_bits == 7);
    CHECK(ls::encoding_format(ls::Family::CDNA4).opcode_of(0xD3AD0804u) == 0x2d);
    CHECK(ls::encoding_format(ls::Family::RDNA4).opcode_of(0xCC400000u) == 0x40);
    // llvm-mc-22 -mcpu=gfx1250: v_wmma_f16_16x16x128_fp8_fp8 is [0x00,0x00,0x84,0xcc,...]
    // (dword 0 0xCC840000, opcode 0x84). gfx1250's 8-bit field reads 0x84; a 7-bit mask 0x04.
    const ls::EncodingFormat gfx1250 = ls::encoding_format(ls::Family::CDNA5);
    CHECK(gfx1250.opcode_bits == 8);
    CHECK(gfx1250.opcode_of(0xCC840000u) == 0x84);
    CHECK(ls::encoding_format(ls::Family::RDNA4).opcode_of(0xCC840000u) == 0x04);
    const auto& g1250 = cat().find_target("gfx1250");
    CHECK(cat().find_instruction(g1250, "v_wmma_f16_16x16x128_fp8_fp8").opcode == 0x84);
    CHECK(ls::encoding_words(cat().find_instruction(g1250, "v_wmma_f16_16x16x128_fp8_fp8")).back().word == 0xCC840000u);
    // llvm-mc-22: v_wmma_scale_f32_16x16x128_f8f6f4 = CC350000 04025328 CC330000 04023108;
    // v_wmma_scale16_... starts with CC3A0000.
    const auto scaled = ls::encoding_words(cat().find_instruction(g1250, "v_wmma_scale_f32_16x16x128_f8f6f4"));
    REQUIRE(scaled.size() == 2);
    CHECK(scaled[0].word == 0xCC350000u);
    CHECK(scaled[0].mnemonic == "v_wmma_ld_scale_paired_b32");
    CHECK(scaled[1].word == 0xCC330000u);
    CHECK(scaled[1].dword == 2);
    const auto s16 = ls::encoding_words(cat().find_instruction(g1250, "v_wmma_scale16_f32_16x16x128_f8f6f4"));
    REQUIRE(s16.size() == 2);
    CHECK(s16[0].word == 0xCC3A0000u);
}

TEST_CASE("catalog prefixes are the family's: 2c on cdna4, 35/3a on cdna5; the unscaled form shares its builtin once") {
    const std::string scaled =
        "cdna4 | mfma_scale_f32_16x16x128_f8f6f4 | v_mfma_scale_f32_16x16x128_f8f6f4 | - | mfma_scaled | 16x16x128 | 1 | "
        "f8f6f4,f8f6f4,f32 | 2c+2d | 16/32 | v8i32,v8i32,v4f32>v4f32 | - | gfx950-insts | test\n";
    const std::string plain =
        "cdna4 | mfma_scale_f32_16x16x128_f8f6f4 | v_mfma_f32_16x16x128_f8f6f4 | - | mfma_f8f6f4 | 16x16x128 | 1 | "
        "f8f6f4,f8f6f4,f32 | 2d | 16/32 | v8i32,v8i32,v4f32>v4f32 | - | gfx950-insts | test\n";
    const ls::Catalog c = ls::Catalog::parse(scaled + plain, "t.txt");
    REQUIRE(c.instructions().size() == 2);
    CHECK(c.instructions()[0].prefix_mnemonic == "v_mfma_ld_scale_b32");
    CHECK(c.instructions()[0].scales);
    CHECK_FALSE(c.instructions()[1].scales);
    CHECK(c.instructions()[1].prefix_opcode == 0u);
    // gfx1250's prefix on a CDNA4 row is refused with the legal prefixes.
    std::string wrong = scaled;
    wrong.replace(wrong.find("2c+2d"), 5, "35+2d");
    const std::string e = error_of([&] { ls::Catalog::parse(wrong, "t.txt"); });
    CHECK(e.find("t.txt:1:") != std::string::npos);
    CHECK(e.find("2c (v_mfma_ld_scale_b32, cdna4)") != std::string::npos);
    // A second unscaled row for the same builtin is a duplicate.
    CHECK(error_of([&] { ls::Catalog::parse(scaled + plain + plain, "t.txt"); }).find("already defined") !=
          std::string::npos);
}

// Catalog::builtin() reads the built-in rows without parse()'s checks (start-up
// time): the build runs them (core/tools/check_catalog.cpp) and so does this test.
TEST_CASE("the built-in catalog passes every check of Catalog::parse, and reading it unchecked gives the same rows") {
    REQUIRE_NOTHROW(ls::Catalog::check_builtin());
    // The checked parse of the AMD text and the unchecked builtin(): row for row, field for field.
    const ls::Catalog checked = ls::Catalog::parse(ls::Catalog::builtin_text(), "core/catalog/instructions.txt");
    std::vector<const ls::Instruction*> amd;
    for (const ls::Instruction& r : cat().instructions())
        if (r.vendor() == ls::Vendor::AMD) amd.push_back(&r);
    REQUIRE(checked.instructions().size() == amd.size());
    auto facts = [](const ls::Instruction& r) {
        std::string s = r.mnemonic + "|" + r.builtin_pattern + "|" + r.vec_w32 + "|" + r.vec_w64 + "|" + r.features + "|" +
                        r.source + "|" + r.prefix_mnemonic + "|" + std::string(ls::layout_kind_name(r.kind));
        for (ls::Family f : r.families) s += "|" + std::string(ls::family_name(f));
        for (const std::string& a : r.aliases) s += "|" + a;
        for (int v : {r.m, r.n, r.k, r.blocks, r.cycles, r.cycles_fp8, r.catalog_line, int(r.opcode), int(r.prefix_opcode),
                      int(r.tied), int(r.scales), int(r.a), int(r.b), int(r.c), int(r.d_type())})
            s += "|" + std::to_string(v);
        return s;
    };
    for (size_t i = 0; i < amd.size(); ++i) CHECK(facts(checked.instructions()[i]) == facts(*amd[i]));
}

TEST_CASE("builtin(family) holds exactly builtin()'s rows on that family, in order, and refuses as builtin() does") {
    for (ls::Family f : ls::all_families()) {
        std::vector<const ls::Instruction*> whole = cat().on(f);
        const auto& part = ls::Catalog::builtin(f).instructions();
        REQUIRE(part.size() == whole.size());
        CHECK(!part.empty());
        for (size_t i = 0; i < part.size(); ++i) {
            CHECK(part[i].mnemonic == whole[i]->mnemonic);
            CHECK(part[i].key(32) == whole[i]->key(32));
            CHECK(part[i].catalog_line == whole[i]->catalog_line);
        }
    }
    // The same instruction found through either, for every name of every row of a few targets.
    for (const char* gfx : {"gfx942", "gfx1201", "gfx1250", "sm_80", "sm_90a"}) {
        const ls::Target& t = cat().find_target(gfx);
        for (const ls::Instruction* r : cat().on(t.family)) {
            std::vector<std::string> names = r->aliases;
            names.push_back(r->mnemonic);
            for (int w : t.wave_sizes) names.push_back(r->key(w));
            for (const std::string& name : names) {
                int w1 = -1, w2 = -1;
                CHECK(ls::Catalog::builtin(t.family).find_instruction(t, name, &w1).mnemonic ==
                      cat().find_instruction(t, name, &w2).mnemonic);
                CHECK(w1 == w2);
            }
        }
    }
    // Refusals name the other families and the near names, as the whole catalog's do.
    for (auto [gfx, name] : {std::pair{"gfx1100", "v_mfma_f32_32x32x8_f16"}, std::pair{"gfx942", "v_mfma_f32_32x32x8_f17"},
                             std::pair{"sm_80", "wgmma_m64n64k16_f32_f16"}, std::pair{"gfx950", "ds_read_b64_tr_b16x"}}) {
        const ls::Target& t = cat().find_target(gfx);
        const std::string whole = error_of([&] { cat().find_instruction(t, name); });
        const std::string part = error_of([&] { ls::Catalog::builtin(t.family).find_instruction(t, name); });
        CHECK(!whole.empty());
        CHECK(part == whole);
    }
    CHECK(error_of([] { cat().find_instruction(cat().find_target("gfx1100"), "v_mfma_f32_32x32x8_f16"); })
              .find("it exists on cdna") != std::string::npos);
}

TEST_CASE("sm ids without the underscore (sm80, sm90a) name the sm_ targets; the refusal lists the sm_ spelling only") {
    CHECK(cat().find_target("sm80").gfx == "sm_80");
    CHECK(cat().find_target("SM86").gfx == "sm_86");
    CHECK(cat().find_target("sm89").gfx == "sm_89");
    CHECK(cat().find_target("sm90").gfx == "sm_90");
    CHECK(cat().find_target("sm90a").gfx == "sm_90a");
    CHECK(ls::Catalog::target("sm90a").gfx == "sm_90a");
    const std::string e = error_of([] { cat().find_target("sm99"); });
    CHECK(e.find("unknown architecture 'sm99'") != std::string::npos);
    CHECK(e.find(" sm_80 ") != std::string::npos);
    CHECK(e.find("sm80") == std::string::npos);
    CHECK(error_of([] { cat().find_target("sm"); }).find("unknown architecture 'sm'") != std::string::npos);
}
