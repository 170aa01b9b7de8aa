// Transpose loads (ds_read_*_tr_*, global_load_tr_*): the catalog rows against
// the reference sheet's tables, the planner's deliveries against the layout
// engine, the sheet's worked examples, Triton's linear-layout bases, and the
// builtin spellings against clang-19.
//
// Expectations come from shared/reference/amd-operand-loads.md (OPL) and
// amd-matrix-builtins.md, written out here by hand, never from the program.
#include "lanescope/transpose.hpp"

#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace ls = lanescope;

namespace {

const ls::Target& target(const char* gfx) { return ls::Catalog::builtin().find_target(gfx); }

ls::ResolvedModifiers mods_for(const ls::Instruction& ins, const ls::Target& t, int wave, int cbsz = -1, int blgp = -1) {
    ls::Modifiers m;
    m.wave = wave;
    m.cbsz = cbsz;
    m.blgp = blgp;
    return ls::resolve_modifiers(ins, t, m);
}

ls::MemoryTile tile_for(ls::Operand op, ls::MemorySpace space, int bits, int ld, int pad = 0) {
    ls::MemoryTile t;
    t.space = space;
    t.order = op == ls::Operand::A ? ls::MemoryOrder::ColMajor : ls::MemoryOrder::RowMajor;
    t.ld = ld;
    t.pad = pad;
    t.element_bits = bits;
    return t;
}

// (element, location) pairs of a plan, sorted, for comparison with layout_of.
struct Delivered {
    ls::Element element;
    int wave;
    ls::Location loc;
    bool operator<(const Delivered& o) const {
        if (!(element == o.element)) return element < o.element;
        if (wave != o.wave) return wave < o.wave;
        return loc < o.loc;
    }
    bool operator==(const Delivered& o) const { return element == o.element && wave == o.wave && loc == o.loc; }
};

std::vector<Delivered> deliveries(const std::vector<ls::MemoryOp>& ops) {
    std::vector<Delivered> out;
    for (const auto& op : ops)
        for (const auto& d : op.delivers) out.push_back({d.element, d.wave, d.at});
    std::sort(out.begin(), out.end());
    return out;
}

// Every AMD (instruction, operand, modifiers) on the transpose-load targets, with
// the f8f6f4 formats for A (cbsz) and B (blgp).
struct Case {
    const ls::Instruction* ins;
    const ls::Target* t;
    ls::Operand op;
    ls::ResolvedModifiers mods;
};
std::vector<Case> all_cases() {
    std::vector<Case> out;
    for (const char* gfx : {"gfx950", "gfx1200"}) {
        const ls::Target& t = target(gfx);
        for (const ls::Instruction* ins : ls::Catalog::builtin().on(t.family))
            for (int wave : t.wave_sizes)
                for (ls::Operand op : {ls::Operand::A, ls::Operand::B}) {
                    const int formats = ins->kind == ls::LayoutKind::MfmaScaled ? 5 : 1;
                    for (int f = 0; f < formats; ++f) {
                        const bool scaled = formats > 1;
                        out.push_back({ins, &t, op,
                                       mods_for(*ins, t, wave, scaled && op == ls::Operand::A ? f : -1,
                                                scaled && op == ls::Operand::B ? f : -1)});
                    }
                }
    }
    return out;
}

std::string name_of(const Case& c) {
    return c.t->gfx + " " + c.ins->mnemonic + " " + std::string(ls::operand_name(c.op)) + " wave" +
           std::to_string(c.mods.wave) + " " + c.mods.describe();
}

}  // namespace

// ------------------------------------------------------------- catalog ----

TEST_CASE("transpose-load catalog: the rows carry the reference sheet's §2 facts") {
    const auto& cat = ls::TransposeCatalog::builtin();
    REQUIRE(cat.rows().size() == 16);  // 8 gfx950/RDNA4 rows, 8 gfx1250 rows (12 builtins)
    // OPL §2 table and encodings table, written out by hand: mnemonic, wave, builtins, features, opcode, VGPRs.
    struct Want {
        const char* mnemonic;
        int wave;
        std::vector<std::string> builtins;
        const char* features;
        int opcode, vgprs, group, align;
        const char* family;
    };
    const std::vector<Want> want = {
        {"ds_read_b64_tr_b16", 64, {"ds_read_tr16_b64_v4i16", "ds_read_tr16_b64_v4f16", "ds_read_tr16_b64_v4bf16"}, "gfx950-insts", 227, 2, 16, 8, "gfx950"},
        {"ds_read_b64_tr_b8", 64, {"ds_read_tr8_b64_v2i32"}, "gfx950-insts", 226, 2, 16, 8, "gfx950"},
        {"ds_read_b64_tr_b4", 64, {"ds_read_tr4_b64_v2i32"}, "gfx950-insts", 224, 2, 16, 8, "gfx950"},
        {"ds_read_b96_tr_b6", 64, {"ds_read_tr6_b96_v3i32"}, "gfx950-insts", 225, 3, 16, 16, "gfx950"},
        {"global_load_tr_b128", 32, {"global_load_tr_b128_v8i16", "global_load_tr_b128_v8f16", "global_load_tr_b128_v8bf16"}, "gfx12-insts,wavefrontsize32", 87, 4, 8, 16, "gfx1200"},
        {"global_load_tr_b64", 32, {"global_load_tr_b64_v2i32"}, "gfx12-insts,wavefrontsize32", 88, 2, 8, 8, "gfx1200"},
        {"global_load_tr_b128", 64, {"global_load_tr_b128_v4i16", "global_load_tr_b128_v4f16", "global_load_tr_b128_v4bf16"}, "gfx12-insts,wavefrontsize64", 87, 2, 8, 16, "gfx1200"},
        {"global_load_tr_b64", 64, {"global_load_tr_b64_i32"}, "gfx12-insts,wavefrontsize64", 88, 1, 8, 8, "gfx1200"},
        // gfx1250 (clang-22 / llvm-mc-22; reference sheet §4).
        {"global_load_tr16_b128", 32, {"global_load_tr16_b128_v8i16", "global_load_tr16_b128_v8f16", "global_load_tr16_b128_v8bf16"}, "gfx1250-insts,wavefrontsize32", 87, 4, 16, 16, "gfx1250"},
        {"global_load_tr8_b64", 32, {"global_load_tr8_b64_v2i32"}, "gfx1250-insts,wavefrontsize32", 88, 2, 16, 8, "gfx1250"},
        {"global_load_tr4_b64", 32, {"global_load_tr4_b64_v2i32"}, "transpose-load-f4f6-insts,wavefrontsize32", 115, 2, 16, 8, "gfx1250"},
        {"global_load_tr6_b96", 32, {"global_load_tr6_b96_v3i32"}, "transpose-load-f4f6-insts,wavefrontsize32", 116, 3, 16, 16, "gfx1250"},
        {"ds_load_tr16_b128", 32, {"ds_load_tr16_b128_v8i16", "ds_load_tr16_b128_v8f16", "ds_load_tr16_b128_v8bf16"}, "gfx1250-insts,wavefrontsize32", 252, 4, 16, 16, "gfx1251"},
        {"ds_load_tr8_b64", 32, {"ds_load_tr8_b64_v2i32"}, "gfx1250-insts,wavefrontsize32", 253, 2, 16, 8, "gfx1251"},
        {"ds_load_tr4_b64", 32, {"ds_load_tr4_b64_v2i32"}, "transpose-load-f4f6-insts,wavefrontsize32", 250, 2, 16, 8, "gfx1250"},
        {"ds_load_tr6_b96", 32, {"ds_load_tr6_b96_v3i32"}, "transpose-load-f4f6-insts,wavefrontsize32", 251, 3, 16, 16, "gfx1250"},
    };
    for (const auto& w : want) {
        INFO(w.mnemonic << " wave" << w.wave);
        const ls::TransposeLoad* r = cat.find(target(w.family), w.mnemonic, w.wave);
        REQUIRE(r != nullptr);
        CHECK(r->wave == w.wave);
        CHECK(r->builtins == w.builtins);
        CHECK(r->features == w.features);
        CHECK(r->opcode == w.opcode);
        CHECK(r->vgprs == w.vgprs);
        CHECK(r->group == w.group);
        CHECK(r->address_align == w.align);
        CHECK(!r->source.empty());
        // A builtin name finds its row and fixes the wave size.
        CHECK(cat.find(target(w.family), "__builtin_amdgcn_" + w.builtins.back()) == r);
    }
    // Only gfx950 and RDNA4 have them (OPL §2 targets).
    CHECK(cat.on(ls::Family::CDNA3).empty());
    CHECK(cat.on(ls::Family::RDNA3).empty());
    CHECK(cat.find(target("gfx942"), "ds_read_b64_tr_b16") == nullptr);
    CHECK(cat.find(target("gfx1201"), "global_load_tr_b128")->wave == 32);  // the target's default wave
    // Even alignment only for the gfx950 b64 forms (OPL §3.4; gfx12 accepts v[1:4], llvm-mc-19).
    CHECK(cat.find(target("gfx950"), "ds_read_b64_tr_b16")->vgpr_even);
    CHECK(!cat.find(target("gfx950"), "ds_read_b96_tr_b6")->vgpr_even);
    CHECK(!cat.find(target("gfx1200"), "global_load_tr_b128")->vgpr_even);
}

TEST_CASE("transpose-load catalog: each rule carries the sheet's §10 confidence") {
    const auto& cat = ls::TransposeCatalog::builtin();
    auto conf = [&](const char* gfx, const char* m, int wave) { return cat.find(target(gfx), m, wave)->confidence; };
    CHECK(conf("gfx950", "ds_read_b64_tr_b16", 64) == "high");
    CHECK(conf("gfx950", "ds_read_b64_tr_b8", 64) == "high");
    CHECK(conf("gfx950", "ds_read_b64_tr_b4", 64) == "high-medium");
    CHECK(conf("gfx950", "ds_read_b96_tr_b6", 64) == "medium");
    CHECK(conf("gfx1200", "global_load_tr_b128", 32) == "high-medium");
    CHECK(conf("gfx1200", "global_load_tr_b64", 32) == "medium");
    CHECK(conf("gfx1200", "global_load_tr_b128", 64) == "unknown");
    // gfx1250: ds_load_tr8_b64 as gfx950's kind per rocjitsu alone; no source gives the others' rules.
    CHECK(conf("gfx1250", "ds_load_tr8_b64", 32) == "medium");
    CHECK(cat.find(target("gfx1250"), "ds_load_tr8_b64")->rule == ls::TransposeRule::Group16);
    for (const char* m : {"ds_load_tr16_b128", "ds_load_tr4_b64", "ds_load_tr6_b96", "global_load_tr16_b128",
                          "global_load_tr8_b64", "global_load_tr4_b64", "global_load_tr6_b96"}) {
        CHECK(conf("gfx1250", m, 32) == "unknown");
        CHECK(cat.find(target("gfx1250"), m)->rule == ls::TransposeRule::Unknown);
    }
    CHECK(conf("gfx1200", "global_load_tr_b64", 64) == "unknown");
    for (const auto& r : cat.rows()) {
        CHECK((r.rule == ls::TransposeRule::Unknown) == (r.confidence == "unknown"));
        CHECK(!r.confidence_basis.empty());
    }
}

TEST_CASE("transpose-load catalog: bad rows are refused with what is legal") {
    const std::string good =
        "cdna4 | ds_read_b64_tr_b16 | 64 | ds_read_tr16_b64_v4i16 | gfx950-insts | lds | DS 227 | a = 00 | 64 | 16 | 16 | "
        "2 even | 8 | all ones | group16 | high: derived | mfma:A,B | TD";
    REQUIRE_NOTHROW(ls::TransposeCatalog::parse(good, "t"));
    auto refused = [&](const std::string& from, const std::string& to, const std::string& says) {
        std::string row = good;
        const auto at = row.find(from);
        REQUIRE(at != std::string::npos);
        row.replace(at, from.size(), to);
        INFO(row);
        try {
            ls::TransposeCatalog::parse(row, "t.txt");
            FAIL("accepted: " << row);
        } catch (const ls::Error& e) {
            const std::string msg = e.what();
            CHECK(msg.find("t.txt:1:") == 0);
            CHECK(msg.find(says) != std::string::npos);
        }
    };
    refused("cdna4", "cdna3", "legal: cdna4, rdna4");
    refused("| 64 |", "| 48 |", "legal: 32, 64");
    refused("v4i16", "v9q16", "ending in a vector type");
    refused("ds_read_tr16_b64_v4i16", "__builtin_amdgcn_ds_read_tr16_b64_v4i16", "the name after __builtin_amdgcn_");
    refused("ds_read_tr16_b64_v4i16", "ds_read_tr16_b64_v2i32,ds_read_tr16_b64_v3i32", "returns 96 bits");
    refused("| lds |", "| vram |", "legal: lds, global");
    refused("DS 227", "MUBUF 3", "legal: 'DS <opcode>'");
    refused("DS 227", "DS 2270", "legal: a decimal opcode 0..255");
    refused("a = 00", "no bytes", "assembly = encoding bytes");
    refused("| 16 | 16 |", "| 12 | 16 |", "legal: 4, 6, 8, 16");
    refused("2 even", "2 odd", "legal: '<count> even'");
    refused("2 even", "3 even", "do not hold lane_bits");
    refused("group16", "swap8", "legal: group16, block8x8");
    refused("group16", "block8x8", "block8x8 needs group 8");
    refused("high: derived", "sure: derived", "legal: '<word>: <basis>'");
    refused("high: derived", "high", "legal: '<word>: <basis>'");
    refused("group16 | high: derived", "unknown: no source | high: derived", "contradicts rule");
    refused("mfma:A,B", "mfma:A,C", "legal: A, B");
    refused("mfma:A,B", "wmma_rdna3:A", "family:operands");
    refused("| TD", "| ", "source is empty");
    refused("| all ones |", "| all ones | extra |", "expected 18");
    CHECK_THROWS_WITH(ls::TransposeCatalog::parse(good + "\n" + good, "t"), Catch::Contains("already defined on line 1"));
    CHECK_THROWS_WITH(ls::TransposeCatalog::parse("# only a comment\n", "t"), Catch::Contains("no rows"));
    CHECK_THROWS_WITH(ls::TransposeCatalog::parse(std::string("cdna4 |\x01| x"), "t"), Catch::Contains("not text"));
}

#ifdef LANESCOPE_SOURCES_MD
TEST_CASE("transpose-load catalog: every source key is explained in docs/sources.md") {
    std::ifstream f(LANESCOPE_SOURCES_MD);
    const std::string doc((std::istreambuf_iterator<char>(f)), {});
    REQUIRE(!doc.empty());
    for (const auto& r : ls::TransposeCatalog::builtin().rows()) {
        std::string keys = r.source + ",";
        for (size_t start = 0, end; (end = keys.find(',', start)) != std::string::npos; start = end + 1) {
            const std::string key = keys.substr(start, end - start);
            INFO(r.mnemonic << " source key " << key);
            CHECK(doc.find("| " + key + " |") != std::string::npos);
        }
    }
}
#endif

// OPL §2: clang's prototypes (TD). T is short / __fp16 / __bf16 for the 16-bit
// forms; int vectors otherwise. clang-19 does not know the gfx950 builtins, so
// their spelling is checked against the sheet's table here.
TEST_CASE("transpose-load builtins: prototypes as the sheet's §2 table spells them") {
    const auto& cat = ls::TransposeCatalog::builtin();
    const ls::TransposeLoad& tr16 = *cat.find(target("gfx950"), "ds_read_b64_tr_b16");
    auto p = ls::transpose_builtin_prototype(tr16, "ds_read_tr16_b64_v4f16");
    CHECK(p.prototype == "v4f16 __builtin_amdgcn_ds_read_tr16_b64_v4f16(v4f16 __attribute__((address_space(3)))*)");
    CHECK(p.vector_typedef == "typedef __fp16 v4f16 __attribute__((ext_vector_type(4)));");
    CHECK(ls::transpose_builtin_prototype(tr16, "ds_read_tr16_b64_v4bf16").scalar_type == "__bf16");
    CHECK(ls::transpose_builtin_prototype(tr16, "ds_read_tr16_b64_v4i16").scalar_type == "short");
    const auto p6 = ls::transpose_builtin_prototype(*cat.find(target("gfx950"), "ds_read_b96_tr_b6"),
                                                    "__builtin_amdgcn_ds_read_tr6_b96_v3i32");
    CHECK(p6.prototype == "v3i32 __builtin_amdgcn_ds_read_tr6_b96_v3i32(v3i32 __attribute__((address_space(3)))*)");
    CHECK(p6.lanes == 3);
    const auto p64 = ls::transpose_builtin_prototype(*cat.find(target("gfx1200"), "global_load_tr_b64", 64),
                                                     "global_load_tr_b64_i32");
    CHECK(p64.prototype == "int __builtin_amdgcn_global_load_tr_b64_i32(int __attribute__((address_space(1)))*)");
    CHECK(p64.vector_typedef.empty());
    CHECK_THROWS_WITH(ls::transpose_builtin_prototype(tr16, "ds_read_tr8_b64_v2i32"), Catch::Contains("legal: ds_read_tr16"));
    // The builtin chosen per operand type.
    CHECK(tr16.builtin_for(ls::ElemType::F16) == "__builtin_amdgcn_ds_read_tr16_b64_v4f16");
    CHECK(tr16.builtin_for(ls::ElemType::BF16) == "__builtin_amdgcn_ds_read_tr16_b64_v4bf16");
    CHECK(cat.find(target("gfx950"), "ds_read_b64_tr_b8")->builtin_for(ls::ElemType::FP8) ==
          "__builtin_amdgcn_ds_read_tr8_b64_v2i32");
}

// ------------------------------------------------------------ planning ----

// The judge of every plan: each delivered element lands exactly where the
// layout engine says, every element of the operand is delivered, and each
// lane's E elements are consecutive in memory at its address.
TEST_CASE("transpose loads: every delivered element lands where layout_of says, for every feedable operand") {
    long long checked = 0;
    int fed = 0;
    std::set<std::string> fed_names;
    for (const Case& c : all_cases()) {
        const auto feeds = ls::transpose_loads_for(*c.ins, *c.t, c.op, c.mods);
        if (feeds.empty()) {
            INFO(name_of(c));
            CHECK(!ls::transpose_refusal(*c.ins, *c.t, c.op, c.mods).empty());
            continue;
        }
        REQUIRE(feeds.size() == 1);
        ++fed;
        fed_names.insert(c.ins->mnemonic + " " + std::string(ls::operand_name(c.op)));
        const ls::OperandLayout layout = ls::layout_of(*c.ins, *c.t, c.op, c.mods);
        std::vector<Delivered> want;
        for (const auto& e : layout.entries()) want.push_back({e.element, 0, e.loc});
        std::sort(want.begin(), want.end());
        const int bits = layout.element_bits();
        const int extent = c.op == ls::Operand::A ? layout.rows() : layout.cols();
        // Several leading dimensions and paddings that keep the load's alignment.
        const int unit = feeds[0].load->address_align * 8 / std::gcd(feeds[0].load->address_align * 8, bits);  // elements per aligned unit
        for (auto [ld, pad] : std::vector<std::pair<int, int>>{{extent, 0}, {2 * extent, unit}, {extent + unit, 2 * unit}, {4 * extent, 0}}) {
            if (ld % unit != 0 || (ld + pad) % unit != 0) ld = (ld + unit - 1) / unit * unit;
            INFO(name_of(c) << " ld " << ld << " pad " << pad);
            const ls::MemoryTile tile = tile_for(c.op, feeds[0].load->space, bits, ld, pad);
            const auto ops = ls::plan_transposed_loads(*c.ins, *c.t, c.op, c.mods, tile);
            REQUIRE(ops.size() == static_cast<size_t>(feeds[0].calls * c.mods.wave));
            const auto got = deliveries(ops);
            REQUIRE(got.size() == want.size());
            CHECK(got == want);
            for (const auto& op : ops) {
                REQUIRE(op.delivers.size() == static_cast<size_t>(feeds[0].load->per_lane()));
                CHECK(op.address % feeds[0].load->address_align == 0);
                CHECK(op.bytes * 8 == feeds[0].load->lane_bits);
                CHECK(op.mnemonic == feeds[0].load->mnemonic);
                CHECK(op.builtin == feeds[0].builtin);
                // Element i of the lane's vector is the element at address + i*bits (element_address).
                for (size_t i = 0; i < op.delivers.size(); ++i) {
                    const auto& el = op.delivers[i].element;
                    const long long bit = ls::element_address(tile, el.row, el.col) * 8 +
                                          ((static_cast<long long>(c.op == ls::Operand::A ? el.col : el.row) * (ld + pad) +
                                            (c.op == ls::Operand::A ? el.row : el.col)) * bits) % 8;
                    CHECK(bit == op.address * 8 + static_cast<long long>(i) * bits);
                }
                // The first destination register is the one of the first item delivered to this lane... of the call.
                CHECK(op.reg == op.issue * feeds[0].load->per_lane() * bits / 32);
            }
            // OPL §3.3 note: the calls of one operand differ by one constant offset, the same in every
            // lane (so it fits the instruction's offset field).
            std::map<int, std::set<long long>> offsets;  // call -> address(call) - address(call 0)
            for (const auto& op : ops) offsets[op.issue].insert(op.address - ops[op.lane].address);
            for (const auto& [call, set] : offsets) CHECK(set.size() == 1);
            checked += static_cast<long long>(got.size());
        }
    }
    // Operands a transpose load feeds (OPL §3.3, §4 and the layouts they match), by instruction:
    // gfx950 16-bit MFMA A+B (f16/bf16 16x16x16, 32x32x8, 16x16x32, 32x32x16: 8 instructions),
    // 8-bit MFMA A+B (i8 16x16x32, 32x32x16, 16x16x64, 32x32x32; fp8/bf8 16x16x32, 32x32x16: 12),
    // f8f6f4 A+B (2 instructions, each scaled and unscaled: 4 rows), SMFMAC B (CDNA3-style 14, CDNA4 14); RDNA4 WMMA 16-bit and 8-bit A+B (8), SWMMAC B (8).
    for (const char* must : {"v_mfma_f32_16x16x32_f16 A", "v_mfma_f32_16x16x32_f16 B", "v_mfma_f32_32x32x16_bf16 B",
                             "v_mfma_f32_16x16x16_f16 B", "v_mfma_i32_16x16x64_i8 B", "v_mfma_i32_32x32x32_i8 A",
                             "v_mfma_scale_f32_16x16x128_f8f6f4 B", "v_mfma_scale_f32_32x32x64_f8f6f4 A",
                             "v_mfma_f32_16x16x128_f8f6f4 B", "v_mfma_f32_32x32x64_f8f6f4 A",
                             "v_wmma_f32_16x16x16_f16 A", "v_wmma_f32_16x16x16_f16 B", "v_wmma_i32_16x16x16_iu8 B",
                             "v_wmma_f32_16x16x16_fp8_bf8 A", "v_swmmac_f32_16x16x32_f16 B", "v_smfmac_f32_16x16x64_f16 B"})
        CHECK(fed_names.count(must) == 1);
    for (const char* never : {"v_mfma_f32_32x32x2_f32 A", "v_mfma_f32_32x32x4_2b_f16 B", "v_mfma_f64_16x16x4_f64 A",
                              "v_smfmac_f32_16x16x64_f16 A", "v_wmma_i32_16x16x16_iu4 A", "v_mfma_f32_4x4x4_16b_f16 A"})
        CHECK(fed_names.count(never) == 0);
    CHECK(fed_names.size() == 103);
    WARN("transpose loads: " << fed << " (instruction, operand, format) cases over " << fed_names.size()
                             << " instruction operands; " << checked << " delivered elements checked against layout_of");
    CHECK(checked > 100000);
}

TEST_CASE("transpose loads: a tile is the instruction plan repeated, landing where TileLayout says") {
    struct T {
        const char* gfx;
        const char* ins;
        ls::Operand op;
        ls::TileParams p;
    };
    const std::vector<T> cases = {
        {"gfx950", "v_mfma_f32_16x16x32_f16", ls::Operand::B, {2, 4, 1, 1, 128, 128, 128}},
        {"gfx950", "v_mfma_f32_16x16x32_f16", ls::Operand::A, {2, 4, 1, 1, 128, 128, 128}},
        {"gfx950", "v_mfma_f32_32x32x16_bf16", ls::Operand::A, {2, 2, 2, 1, 128, 64, 32}},
        {"gfx950", "v_mfma_i32_16x16x64_i8", ls::Operand::B, {1, 2, 1, 2, 32, 128, 128}},
        {"gfx1200", "v_wmma_f32_16x16x16_f16", ls::Operand::B, {2, 2, 1, 2, 64, 64, 32}},
        {"gfx1200", "v_wmma_f32_16x16x16_fp8_fp8", ls::Operand::A, {2, 1, 2, 1, 64, 32, 32}},
    };
    for (const auto& c : cases) {
        const ls::Target& t = target(c.gfx);
        const ls::Instruction& ins = ls::Catalog::builtin().find_instruction(t, c.ins);
        const auto mods = mods_for(ins, t, t.default_wave);
        const ls::TileLayout tl(ins, t, c.op, mods, c.p);
        const auto feed = ls::transpose_loads_for(ins, t, c.op, mods).at(0);
        const int bits = tl.instruction().element_bits();
        const ls::MemoryTile tile = tile_for(c.op, feed.load->space, bits,
                                             c.op == ls::Operand::A ? tl.rows() : tl.cols(), 128 / bits);
        INFO(c.gfx << " " << c.ins << " " << ls::operand_name(c.op) << " " << c.p.describe());
        const auto ops = ls::plan_transposed_loads(ins, t, c.op, mods, tile, c.p);
        std::vector<Delivered> want;
        for (const auto& e : tl.entries()) want.push_back({e.element, e.at.wave, e.at.loc});
        std::sort(want.begin(), want.end());
        CHECK(deliveries(ops) == want);
        CHECK(ops.size() == static_cast<size_t>(tl.waves() * tl.steps() * feed.calls * tl.lanes()));
        // Issue order: per wave 0, 1, ... without gaps, every lane once per issue.
        std::map<std::pair<int, int>, int> lanes_per_issue;
        for (const auto& op : ops) ++lanes_per_issue[{op.wave, op.issue}];
        for (const auto& [key, n] : lanes_per_issue) CHECK(n == tl.lanes());
        CHECK(lanes_per_issue.size() == static_cast<size_t>(tl.waves() * tl.steps() * feed.calls));
    }
}

// Triton's gfx950 swizzle for transposed 16-bit tiles (OPL §6.4: vec 8, perPhase 2,
// maxPhase 8 on a 64-wide f16 tile) keeps each lane's 4 elements together.
TEST_CASE("transpose loads: an XOR swizzle moves the addresses, not the deliveries") {
    const ls::Target& t = target("gfx950");
    for (auto [name, bits, vec] : std::vector<std::tuple<const char*, int, int>>{
             {"v_mfma_f32_16x16x32_f16", 16, 8}, {"v_mfma_i32_16x16x64_i8", 8, 16}, {"v_mfma_f32_32x32x16_bf16", 16, 4}}) {
        const ls::Instruction& ins = ls::Catalog::builtin().find_instruction(t, name);
        const auto mods = mods_for(ins, t, 64);
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B}) {
            INFO(name << " " << ls::operand_name(op));
            ls::MemoryTile tile = tile_for(op, ls::MemorySpace::Lds, bits, 64);
            tile.swizzle = {vec, 2, std::min(16 / 2, 64 / vec)};  // Triton: maxPhase = min(16/perPhase, innerDim/vec)
            const auto ops = ls::plan_transposed_loads(ins, t, op, mods, tile);
            ls::MemoryTile plain = tile;
            plain.swizzle = {};
            const auto unswizzled = ls::plan_transposed_loads(ins, t, op, mods, plain);
            CHECK(deliveries(ops) == deliveries(unswizzled));
            int moved = 0;
            for (size_t n = 0; n < ops.size(); ++n) {
                const auto& o = ops[n];
                for (size_t i = 0; i < o.delivers.size(); ++i)
                    CHECK(ls::element_address(tile, o.delivers[i].element.row, o.delivers[i].element.col) ==
                          o.address + static_cast<long long>(i) * bits / 8);
                moved += o.address != unswizzled[n].address;
            }
            CHECK(moved > 0);
        }
    }
}

TEST_CASE("transpose loads: refusals say what is legal") {
    const ls::Target& g950 = target("gfx950");
    const ls::Target& g1200 = target("gfx1200");
    const ls::Target& g942 = target("gfx942");
    const auto& cat = ls::Catalog::builtin();
    const ls::Instruction& f16 = cat.find_instruction(g950, "v_mfma_f32_16x16x32_f16");
    const auto m950 = mods_for(f16, g950, 64);
    auto throws = [](auto fn, const std::string& says) {
        try {
            fn();
            FAIL("no error");
        } catch (const ls::Error& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(says) != std::string::npos);
        }
    };
    // Wrong orientation: K-contiguous storage.
    ls::MemoryTile rowA = tile_for(ls::Operand::B, ls::MemorySpace::Lds, 16, 32);
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::A, m950, rowA); },
           "a row-major B/column-major A is needed; K-contiguous storage is read with plain loads");
    ls::MemoryTile colB = tile_for(ls::Operand::A, ls::MemorySpace::Lds, 16, 32);
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::B, m950, colB); }, "row-major B/column-major A");
    // Misaligned rows: f16, ld 18 -> 36-byte rows, not 8-aligned.
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::B, m950, tile_for(ls::Operand::B, ls::MemorySpace::Lds, 16, 18)); },
           "not aligned to 8 bytes");
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::B, m950, tile_for(ls::Operand::B, ls::MemorySpace::Lds, 16, 8)); },
           "legal: ld >= 16");
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::B, m950, tile_for(ls::Operand::B, ls::MemorySpace::Global, 16, 16)); },
           "legal: --memory lds");
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::B, m950, tile_for(ls::Operand::B, ls::MemorySpace::Lds, 8, 16)); },
           "legal: element_bits 16");
    ls::MemoryTile swz = tile_for(ls::Operand::B, ls::MemorySpace::Lds, 16, 64);
    swz.swizzle = {2, 1, 8};
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::B, m950, swz); }, "legal: vec a multiple of 4");
    // Operands and targets without a transpose load.
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::C, m950, rowA); }, "fill A (column-major) or B (row-major) only");
    const ls::Instruction& f32 = cat.find_instruction(g950, "v_mfma_f32_32x32x2_f32");
    throws([&] { ls::plan_transposed_loads(f32, g950, ls::Operand::A, mods_for(f32, g950, 64), colB); },
           "transpose loads on gfx950 at wave64 move 16-bit");
    const ls::Instruction& old = cat.find_instruction(g942, "v_mfma_f32_16x16x16_f16");
    throws([&] { ls::plan_transposed_loads(old, g942, ls::Operand::B, mods_for(old, g942, 64), rowA); },
           "they exist on gfx950 (CDNA4");
    const ls::Instruction& sm = cat.find_instruction(g950, "v_smfmac_f32_16x16x64_f16");
    throws([&] { ls::plan_transposed_loads(sm, g950, ls::Operand::A, mods_for(sm, g950, 64), colB); }, "sparse A");
    const ls::Instruction& wm = cat.find_instruction(g1200, "v_wmma_f32_16x16x16_f16");
    throws([&] { ls::plan_transposed_loads(wm, g1200, ls::Operand::B, mods_for(wm, g1200, 64),
                                           tile_for(ls::Operand::B, ls::MemorySpace::Global, 16, 16)); },
           "wave64");
    CHECK(ls::transpose_refusal(wm, g1200, ls::Operand::B, mods_for(wm, g1200, 64))
              .find("global_load_tr_b128 wave64 is unknown: no source gives the wave64 lane rule") != std::string::npos);
    const ls::Instruction& wm8 = cat.find_instruction(g1200, "v_wmma_i32_16x16x16_iu8");
    CHECK(ls::transpose_refusal(wm8, g1200, ls::Operand::A, mods_for(wm8, g1200, 64)).find("global_load_tr_b64 wave64 is unknown") !=
          std::string::npos);
    CHECK(ls::transpose_loads_for(wm8, g1200, ls::Operand::A, mods_for(wm8, g1200, 32)).at(0).confidence == "medium");
    const ls::Instruction& blk = cat.find_instruction(g950, "v_mfma_f32_32x32x4_2b_f16");
    throws([&] { ls::plan_transposed_loads(blk, g950, ls::Operand::B, mods_for(blk, g950, 64), rowA); }, "blocks");
    // Bad tile parameters come from TileLayout.
    ls::TileParams bad{1, 1, 1, 1, 16, 24, 32};
    throws([&] { ls::plan_transposed_loads(f16, g950, ls::Operand::B, m950, tile_for(ls::Operand::B, ls::MemorySpace::Lds, 16, 64), bad); },
           "24");
}

// ------------------------------------------------- the sheet's examples ----

// OPL §3.3 table: B stored row-major; lane l, call c, s = l % 16; "row" = K, col0 = first column read.
TEST_CASE("transpose loads: the addresses of the sheet's §3.3 table (gfx950 MFMA feeding)") {
    const ls::Target& t = target("gfx950");
    struct Row {
        const char* ins;
        int cbsz_blgp;  // B format for f8f6f4 (-1 otherwise)
        int calls;
        std::function<std::pair<int, int>(int l, int c)> rc;  // (row, col0)
        std::function<int(int l, int c, int e)> k;             // k delivered to lane l, item c*E + e
    };
    auto g16 = [](int l) { return l / 16; };
    auto g32 = [](int l) { return l / 32; };
    const std::vector<Row> rows = {
        {"v_mfma_f32_16x16x32_f16", -1, 2,
         [&](int l, int c) { int s = l % 16; return std::make_pair(8 * g16(l) + 4 * c + s / 4, 4 * (s % 4)); },
         [&](int l, int c, int e) { return 8 * g16(l) + 4 * c + e; }},
        {"v_mfma_f32_32x32x16_bf16", -1, 2,
         [&](int l, int c) { int s = l % 16; return std::make_pair(8 * g32(l) + 4 * c + s / 4, 16 * ((l / 16) % 2) + 4 * (s % 4)); },
         [&](int l, int c, int e) { return 8 * g32(l) + 4 * c + e; }},
        {"v_mfma_f32_16x16x16_f16", -1, 1,
         [&](int l, int) { int s = l % 16; return std::make_pair(4 * g16(l) + s / 4, 4 * (s % 4)); },
         [&](int l, int, int e) { return 4 * g16(l) + e; }},
        {"v_mfma_i32_16x16x64_i8", -1, 2,
         [&](int l, int c) { int s = l % 16; return std::make_pair(16 * g16(l) + 8 * c + s / 2, 8 * (s % 2)); },
         [&](int l, int c, int e) { return 16 * g16(l) + 8 * c + e; }},
        {"v_mfma_i32_32x32x32_i8", -1, 2,
         [&](int l, int c) { int s = l % 16; return std::make_pair(16 * g32(l) + 8 * c + s / 2, 16 * ((l / 16) % 2) + 8 * (s % 2)); },
         [&](int l, int c, int e) { return 16 * g32(l) + 8 * c + e; }},
        {"v_mfma_scale_f32_16x16x128_f8f6f4", 0, 4,
         [&](int l, int c) { int s = l % 16; return std::make_pair(64 * (c / 2) + 16 * g16(l) + 8 * (c % 2) + s / 2, 8 * (s % 2)); },
         [&](int l, int c, int e) { return 64 * (c / 2) + 16 * g16(l) + 8 * (c % 2) + e; }},
        {"v_mfma_scale_f32_32x32x64_f8f6f4", 1, 4,
         [&](int l, int c) { int s = l % 16; return std::make_pair(32 * (c / 2) + 16 * g32(l) + 8 * (c % 2) + s / 2, 16 * ((l / 16) % 2) + 8 * (s % 2)); },
         [&](int l, int c, int e) { return 32 * (c / 2) + 16 * g32(l) + 8 * (c % 2) + e; }},
        {"v_mfma_scale_f32_16x16x128_f8f6f4", 4, 2,
         [&](int l, int c) { return std::make_pair(32 * g16(l) + 16 * c + l % 16, 0); },
         [&](int l, int c, int e) { return 32 * g16(l) + 16 * c + e; }},
        {"v_mfma_scale_f32_32x32x64_f8f6f4", 4, 2,
         [&](int l, int c) { return std::make_pair(32 * g32(l) + 16 * c + l % 16, 16 * ((l / 16) % 2)); },
         [&](int l, int c, int e) { return 32 * g32(l) + 16 * c + e; }},
        {"v_mfma_scale_f32_16x16x128_f8f6f4", 2, 2,
         [&](int l, int c) { return std::make_pair(32 * g16(l) + 16 * c + l % 16, 0); },
         [&](int l, int c, int e) { return 32 * g16(l) + 16 * c + e; }},
    };
    int examples = 0;
    for (const Row& r : rows) {
        const ls::Instruction& ins = ls::Catalog::builtin().find_instruction(t, r.ins);
        const auto mods = mods_for(ins, t, 64, -1, r.cbsz_blgp);
        const ls::OperandLayout B = ls::layout_of(ins, t, ls::Operand::B, mods);
        const int bits = B.element_bits();
        const int ldb = B.cols() * 4;  // any pitch: the table gives (row, col0)
        const ls::MemoryTile tile = tile_for(ls::Operand::B, ls::MemorySpace::Lds, bits, ldb);
        const auto ops = ls::plan_transposed_loads(ins, t, ls::Operand::B, mods, tile);
        const auto feed = ls::transpose_loads_for(ins, t, ls::Operand::B, mods).at(0);
        INFO(r.ins << " format " << r.cbsz_blgp);
        REQUIRE(feed.calls == r.calls);
        const int E = feed.load->per_lane();
        for (const auto& op : ops) {
            const int c = op.issue;
            const auto [row, col0] = r.rc(op.lane, c);
            CHECK(op.address == (static_cast<long long>(row) * ldb + col0) * bits / 8);
            ++examples;
        }
        // Lane l receives items E*c .. E*c+E-1 <- k, column j = l % N.
        std::map<std::pair<int, int>, ls::Element> got;  // (lane, item) -> element
        for (const auto& op : ops)
            for (const auto& d : op.delivers) got[{d.at.lane, (d.at.reg * 32 + d.at.bit_lo) / bits}] = d.element;
        for (int l = 0; l < 64; ++l)
            for (int c = 0; c < r.calls; ++c)
                for (int e = 0; e < E; ++e) {
                    const ls::Element el = got.at({l, c * E + e});
                    CHECK(el.row == r.k(l, c, e));
                    CHECK(el.col == l % B.cols());
                }
    }
    CHECK(examples == (2 + 2 + 1 + 2 + 2 + 4 + 4 + 2 + 2 + 2) * 64);
}

// OPL §4: RDNA4 wave32 WMMA fed from row-major B in global memory.
TEST_CASE("transpose loads: the sheet's §4 WMMA feeding formulas (gfx1200 wave32)") {
    const ls::Target& t = target("gfx1200");
    for (const char* name : {"v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16", "v_wmma_i32_16x16x16_iu8",
                             "v_wmma_f32_16x16x16_bf8_fp8"}) {
        const ls::Instruction& ins = ls::Catalog::builtin().find_instruction(t, name);
        const auto mods = mods_for(ins, t, 32);
        const int bits = ls::layout_of(ins, t, ls::Operand::B, mods).element_bits();
        const int ldb = 40;
        const auto ops = ls::plan_transposed_loads(ins, t, ls::Operand::B, mods,
                                                   tile_for(ls::Operand::B, ls::MemorySpace::Global, bits, ldb));
        INFO(name);
        REQUIRE(ops.size() == 32);
        for (const auto& op : ops) {
            const int l = op.lane, tt = l % 8, h = l / 16;
            const int row = bits == 16 ? (tt % 4) + 4 * h + 8 * (tt / 4) : 8 * (l / 16) + l % 8;
            const int col0 = 8 * ((l / 8) % 2);
            CHECK(op.mnemonic == (bits == 16 ? "global_load_tr_b128" : "global_load_tr_b64"));
            CHECK(op.address == (row * ldb + col0) * bits / 8);
            // Result: lane l, item e <- k = 4h + e%4 + 8*floor(e/4) (16-bit) or 8*floor(l/16) + e (8-bit), j = l%16.
            for (const auto& d : op.delivers) {
                const int L = d.at.lane, e = (d.at.reg * 32 + d.at.bit_lo) / bits;
                CHECK(d.element.col == L % 16);
                CHECK(d.element.row == (bits == 16 ? 4 * (L / 16) + e % 4 + 8 * (e / 4) : 8 * (L / 16) + e));
            }
        }
    }
}

// DOC-RDNA4TR (OPL §4): lane tx reads row floor(tx/4), columns 8*(tx%4)..+7 of an
// 8x32 16-bit sub-tile; element e of lane tx is then row 2*floor(tx/8) + floor(e/4), column 8*(e%4) + tx%8.
TEST_CASE("transpose loads: the AMD docs page's RDNA4 example follows the 8x8 rule") {
    for (int s = 0; s < 32; ++s)
        for (int i = 0; i < 8; ++i) {
            const int read_row = s / 4, read_col = 8 * (s % 4) + i;
            const ls::TransposeSlot d = ls::transpose_destination(ls::TransposeRule::Block8x8, 8, s % 8, i);
            const int tx = 8 * (s / 8) + d.lane, e = d.element;
            CHECK(read_row == 2 * (tx / 8) + e / 4);
            CHECK(read_col == 8 * (e % 4) + tx % 8);
            const ls::TransposeSlot back = ls::transpose_source(ls::TransposeRule::Block8x8, 8, d.lane, d.element);
            CHECK(back.lane == s % 8);
            CHECK(back.element == i);
        }
    // gfx950 (OPL §3.2): dst[L][e] = src[C*e + floor(L/E)][L % E], written out for each E.
    for (int E : {4, 8, 16}) {
        const int C = 16 / E;
        for (int L = 0; L < 16; ++L)
            for (int e = 0; e < E; ++e) {
                const ls::TransposeSlot src = ls::transpose_source(ls::TransposeRule::Group16, E, L, e);
                CHECK(src.lane == C * e + L / E);
                CHECK(src.element == L % E);
                const ls::TransposeSlot dst = ls::transpose_destination(ls::TransposeRule::Group16, E, src.lane, src.element);
                CHECK(dst.lane == L);
                CHECK(dst.element == e);
            }
    }
}

// ---------------------------------------- Triton's linear layouts (§7.2) ----

namespace {
using Basis = std::array<int, 2>;
struct LL {
    std::vector<Basis> reg, lane, warp;
    Basis at(int r, int l, int w) const {
        Basis x{0, 0};
        auto add = [&](const std::vector<Basis>& bases, int v) {
            for (size_t b = 0; b < bases.size(); ++b)
                if (v >> b & 1) {
                    x[0] ^= bases[b][0];
                    x[1] ^= bases[b][1];
                }
        };
        add(reg, r);
        add(lane, l);
        add(warp, w);
        return x;
    }
};
}  // namespace

// Triton's source layout of a transposed load (TRI-TEST, copied as data in
// OPL §7.2): register bits below log2(E) walk the E elements one lane reads;
// the rest name the read. Each (wave, lane) reads the same runs of E elements
// under Triton and under the plan.
TEST_CASE("transpose loads: the plan reads what Triton's linear layouts read (TRI-TEST bases)") {
    struct T {
        const char* name;
        const char* ins;
        ls::Operand op;
        ls::TileParams p;
        LL ll;
    };
    const ls::TileParams grid{2, 4, 1, 1, 128, 128, 128};
    const std::vector<T> cases = {
        {"16-bit A mfma16 kWidth 8", "v_mfma_f32_16x16x32_f16", ls::Operand::A, grid,
         {{{1, 0}, {2, 0}, {0, 4}, {0, 32}, {0, 64}, {32, 0}, {64, 0}},
          {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 8}, {0, 16}},
          {{0, 0}, {0, 0}, {16, 0}}}},
        {"16-bit B mfma16 kWidth 8", "v_mfma_f32_16x16x32_f16", ls::Operand::B, grid,
         {{{0, 1}, {0, 2}, {4, 0}, {32, 0}, {64, 0}, {0, 64}},
          {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {8, 0}, {16, 0}},
          {{0, 16}, {0, 32}, {0, 0}}}},
        {"8-bit B mfma16 kWidth 16", "v_mfma_i32_16x16x64_i8", ls::Operand::B, grid,
         {{{0, 1}, {0, 2}, {0, 4}, {8, 0}, {64, 0}, {0, 64}},
          {{0, 8}, {1, 0}, {2, 0}, {4, 0}, {16, 0}, {32, 0}},
          {{0, 16}, {0, 32}, {0, 0}}}},
        {"16-bit A mfma32 kWidth 8", "v_mfma_f32_32x32x16_f16", ls::Operand::A, grid,
         {{{1, 0}, {2, 0}, {0, 4}, {0, 16}, {0, 32}, {0, 64}, {64, 0}},
          {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {16, 0}, {0, 8}},
          {{0, 0}, {0, 0}, {32, 0}}}},
        {"16-bit A mfma16 kWidth 4 [16,16]", "v_mfma_f32_16x16x16_f16", ls::Operand::A, {1, 1, 1, 1, 0, 0, 0},
         {{{1, 0}, {2, 0}}, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}, {0, 8}}, {}}},
    };
    const ls::Target& t = target("gfx950");
    long long runs = 0;
    for (const auto& c : cases) {
        INFO(c.name);
        const ls::Instruction& ins = ls::Catalog::builtin().find_instruction(t, c.ins);
        const auto mods = mods_for(ins, t, 64);
        const auto feed = ls::transpose_loads_for(ins, t, c.op, mods).at(0);
        const int E = feed.load->per_lane();
        int log2E = 0;
        while ((1 << log2E) < E) ++log2E;
        const ls::TileLayout tl(ins, t, c.op, mods, c.p);
        const int waves = tl.waves();
        const auto ops = ls::plan_transposed_loads(ins, t, c.op, mods,
                                                   tile_for(c.op, ls::MemorySpace::Lds, tl.instruction().element_bits(),
                                                            c.op == ls::Operand::A ? tl.rows() : tl.cols()),
                                                   c.p);
        using Run = std::vector<Basis>;
        std::map<std::pair<int, int>, std::multiset<Run>> triton, plan;  // (wave, lane) -> runs
        const int regs = 1 << c.ll.reg.size();
        for (int w = 0; w < waves; ++w)
            for (int l = 0; l < 64; ++l)
                for (int r0 = 0; r0 < regs; r0 += E) {
                    Run run;
                    for (int i = 0; i < E; ++i) run.push_back(c.ll.at(r0 + i, l, w));
                    triton[{w, l}].insert(run);
                }
        for (const auto& op : ops) {
            Run run;
            for (const auto& d : op.delivers) run.push_back({d.element.row, d.element.col});
            plan[{op.wave, op.lane}].insert(run);
            ++runs;
        }
        CHECK(triton == plan);
        CHECK(regs / E * waves * 64 == static_cast<int>(ops.size()));
        (void)log2E;
    }
    CHECK(runs > 0);
}

// The gfx1200 global_load_transpose case (TRI-G12, OPL §7.2): a 32x32 bf16 A
// read through the address layout must arrive in the data layout; the 8x8 rule
// applied instruction by instruction (8 elements per lane, 4 instructions) does it.
TEST_CASE("transpose loads: the 8x8 rule turns Triton's gfx1200 address layout into its data layout") {
    const LL address{{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}, {}};
    const LL data{{{0, 1}, {0, 2}, {0, 4}, {8, 0}, {16, 0}}, {{1, 0}, {2, 0}, {4, 0}, {0, 8}, {0, 16}}, {}};
    int checked = 0;
    for (int j = 0; j < 4; ++j)  // instruction j: address-layout registers 8j .. 8j+7
        for (int s = 0; s < 32; ++s)
            for (int i = 0; i < 8; ++i) {
                const Basis read = address.at(8 * j + i, s, 0);
                const ls::TransposeSlot d = ls::transpose_destination(ls::TransposeRule::Block8x8, 8, s % 8, i);
                const int lane = 8 * (s / 8) + d.lane;
                CHECK(data.at(8 * j + d.element, lane, 0) == read);
                ++checked;
            }
    CHECK(checked == 1024);
}

// -------------------------------------------------- clang-19 spellings ----

#ifdef LANESCOPE_CLANG19
// OPL §8: the RDNA4 builtins compile for gfx1200 under the wave size their
// features name (HIP device compile without headers), and fail under the other.
TEST_CASE("transpose loads: the RDNA4 builtin prototypes compile with clang-19 for gfx1200 (wave32 and wave64)") {
    namespace fs = std::filesystem;
    const auto& cat = ls::TransposeCatalog::builtin();
    for (int wave : {32, 64}) {
        const ls::TransposeLoad* rows[] = {cat.find(target("gfx1200"), "global_load_tr_b128", wave),
                                           cat.find(target("gfx1200"), "global_load_tr_b64", wave)};
        std::string src = "#define __global__ __attribute__((global))\n";
        std::set<std::string> typedefs;
        int n = 0;
        for (const ls::TransposeLoad* r : rows)
            for (const auto& b : r->builtins) {
                const auto p = ls::transpose_builtin_prototype(*r, b);
                if (!p.vector_typedef.empty() && typedefs.insert(p.vector_typedef).second) src += p.vector_typedef + "\n";
                const std::string ptr = p.vector_type + " __attribute__((address_space(1)))*";
                src += "__global__ void k" + std::to_string(n) + "(" + ptr + " in, " + ptr + " out) { *out = __builtin_amdgcn_" +
                       b + "(in); }\n";
                ++n;
            }
        const fs::path file = lstest::temp_path("lanescope_tr_w" + std::to_string(wave) + ".hip");
        std::ofstream(file) << src;
        const std::string base = std::string(LANESCOPE_CLANG19) +
                                 " -x hip --offload-arch=gfx1200 -nogpulib -nogpuinc --offload-device-only -O2 -S -o - " +
                                 file.string();
        INFO(src);
        const auto ok = lstest::run_command(base + (wave == 64 ? " -mwavefrontsize64" : ""));
        INFO(ok.err);
        CHECK(ok.status == 0);
        CHECK(ok.out.find("global_load_tr_b128") != std::string::npos);
        CHECK(ok.out.find("global_load_tr_b64") != std::string::npos);
        // Under the other wave size the same builtins are refused (the feature names the wave).
        const auto bad = lstest::run_command(base + (wave == 32 ? " -mwavefrontsize64" : ""));
        CHECK(bad.status != 0);
        CHECK(bad.err.find(wave == 32 ? "wavefrontsize32" : "wavefrontsize64") != std::string::npos);
        fs::remove(file);
    }
}
#endif

#ifdef LANESCOPE_CLANG22
// LLVM 22 knows gfx950: every CDNA4 transpose-load builtin, with the prototype
// lanescope writes for it, compiles with clang-22 (HIP device, LDS pointers)
// into the row's mnemonic.
TEST_CASE("transpose loads: every gfx950 builtin prototype compiles with clang-22 into its mnemonic") {
    namespace fs = std::filesystem;
    std::string src = "#define __global__ __attribute__((global))\n";
    std::set<std::string> typedefs, mnemonics;
    int n = 0;
    for (const ls::TransposeLoad* r : ls::TransposeCatalog::builtin().on(ls::Family::CDNA4)) {
        mnemonics.insert(r->mnemonic);
        for (const auto& b : r->builtins) {
            const auto p = ls::transpose_builtin_prototype(*r, b);
            if (!p.vector_typedef.empty() && typedefs.insert(p.vector_typedef).second) src += p.vector_typedef + "\n";
            const std::string ptr = p.vector_type + " __attribute__((address_space(3)))*";
            src += "__global__ void k" + std::to_string(n++) + "(" + ptr + " in, " + p.vector_type +
                   "* out) { *out = __builtin_amdgcn_" + b + "(in); }\n";
        }
    }
    REQUIRE(mnemonics.size() == 4);  // tr16, tr8, tr4, tr6
    const fs::path file = lstest::temp_path("lanescope_tr_gfx950.hip");
    std::ofstream(file) << src;
    const auto r = lstest::run_command(std::string(LANESCOPE_CLANG22) +
                                       " -x hip --offload-arch=gfx950 -nogpulib -nogpuinc --offload-device-only -O2 -S -o - " +
                                       file.string());
    INFO(src << r.err);
    CHECK(r.status == 0);
    for (const std::string& m : mnemonics) CHECK(r.out.find(m) != std::string::npos);
    fs::remove(file);
}
#endif

// ------------------------------------------------------------------ info ----

TEST_CASE("transpose loads: info prints the facts, confidence and sources (text and JSON)") {
    auto run = [](const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); };
    const auto text = run("info --arch gfx950 -i ds_read_b64_tr_b16");
    REQUIRE(text.status == 0);
    for (const char* says : {"ds_read_b64_tr_b16 on gfx950", "__builtin_amdgcn_ds_read_tr16_b64_v4bf16", "gfx950-insts",
                             "DS, opcode 227", "even-aligned", "group16", "confidence", "high (derived",
                             "v_mfma_f32_16x16x32_f16 B (row-major), 2 calls", "v_mfma_f32_16x16x16_f16 A (column-major), 1 call",
                             "TRI-LL", "dst[L][e] = src[C*e + floor(L/E)][L % E]"})
        CHECK(text.out.find(says) != std::string::npos);
    const auto json = run("info --arch gfx950 -i ds_read_b96_tr_b6 --format json");
    REQUIRE(json.status == 0);
    for (const char* says : {"\"kind\": \"transpose_load\"", "\"confidence\": \"medium\"", "\"address_alignment_bytes\": 16",
                             "\"format\": \"FP6\"", "\"source\": \"TD,I4"})
        CHECK(json.out.find(says) != std::string::npos);
    const auto g12 = run("info --arch gfx1200 -i global_load_tr_b128 --format json");
    REQUIRE(g12.status == 0);
    CHECK(g12.out.find("\"wave_size\": 32") != std::string::npos);
    CHECK(g12.out.find("\"instruction\": \"v_wmma_f32_16x16x16_bf16\", \"operand\": \"A\", \"order\": \"col\", \"calls\": 1") !=
          std::string::npos);
    const auto w64 = run("info --arch gfx1200 -i __builtin_amdgcn_global_load_tr_b128_v4f16");
    REQUIRE(w64.status == 0);
    CHECK(w64.out.find("wave64") != std::string::npos);
    CHECK(w64.out.find("unknown") != std::string::npos);
    CHECK(run("info --arch gfx1200 -i global_load_tr_b64 --wave 64").out.find("global_load_tr_b64_i32") != std::string::npos);
    // Wrong wave for a gfx950 load; layout of a load; a near-miss name; a load on a target without it.
    const auto wave = run("info --arch gfx950 -i ds_read_b64_tr_b8 --wave 32");
    CHECK(wave.status == 1);
    CHECK(wave.err.find("legal: --wave 64") != std::string::npos);
    const auto layout = run("layout --arch gfx950 -i ds_read_b64_tr_b16 --operand B");
    CHECK(layout.status == 1);
    CHECK(layout.err.find("is a transpose load") != std::string::npos);
    const auto near = run("info --arch gfx950 -i ds_read_b64_tr_b61");
    CHECK(near.status == 1);
    CHECK(near.err.find("did you mean 'ds_read_b64_tr_b16'") != std::string::npos);
    const auto other = run("info --arch gfx942 -i ds_read_b64_tr_b16");
    CHECK(other.status == 1);
    CHECK(other.err.find("transpose load of cdna4") != std::string::npos);
}
