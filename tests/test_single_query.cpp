// Single queries' short paths (start-up): the one-element and one-slot
// layouts answer exactly as the whole layout does, builtin(Family) finds every N
// of a range without listing its rows, and the CLI's single-query answers equal
// the whole layout's; "did you mean" completes a truncated name; list --search.
#include "helpers.hpp"
#include "shell_run.hpp"

#include "lanescope/render.hpp"
#include "lanescope/search.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace lstest;

namespace {
const ls::Catalog& cat() { return ls::Catalog::builtin(); }

// Up to `count` instructions of the family spread over its rows, its largest D among them.
std::vector<const ls::Instruction*> spread(ls::Family f, size_t count) {
    const auto rows = cat().on(f);
    std::vector<const ls::Instruction*> out;
    if (rows.empty()) return out;  // a family whose rows are still to come
    const size_t step = std::max<size_t>(1, rows.size() / count);
    for (size_t i = 0; i < rows.size(); i += step) out.push_back(rows[i]);
    const ls::Instruction* big = rows.front();
    for (const ls::Instruction* r : rows)
        if (1LL * r->m * r->n * r->blocks > 1LL * big->m * big->n * big->blocks) big = r;
    out.push_back(big);
    return out;
}

// The modifier sets a test tries: the defaults of every wave size, and on MFMA a broadcast (cbsz/abid) and a B lane
// pattern (blgp), on mma.sp the second selector: they move elements, and replicate them (RDNA3 wave64, cbsz).
std::vector<ls::ResolvedModifiers> modifier_sets(const ls::Instruction& ins, const ls::Target& t) {
    std::vector<ls::ResolvedModifiers> out;
    for (int wave : ls::wave_sizes(ins, t)) {
        ls::Modifiers m;
        m.wave = wave;
        out.push_back(ls::resolve_modifiers(ins, t, m));
        for (const auto& [name, value] : {std::pair{"cbsz", 1}, std::pair{"blgp", 2}, std::pair{"selector", 1}}) {
            ls::Modifiers v = m;
            ls::set_modifier(v, name, value);
            if (std::string(name) == "cbsz") v.abid = 1;
            try {
                out.push_back(ls::resolve_modifiers(ins, t, v));
            } catch (const ls::Error&) {
            }
        }
    }
    return out;
}
}  // namespace

TEST_CASE("one element's layout (where) and one slot's (which) equal the whole layout's, on every family") {
    size_t elements = 0, slots = 0;
    for (ls::Family f : ls::all_families()) {
        const ls::Target* t = nullptr;
        for (const ls::Target& x : cat().targets())
            if (x.family == f && (!t || x.gfx.back() == 'a')) t = &x;  // sm_90a: wgmma's target
        REQUIRE(t);
        for (const ls::Instruction* ins : spread(f, 12))
            for (const ls::ResolvedModifiers& mods : modifier_sets(*ins, *t))
                for (ls::Operand op : ls::operands_of(*ins)) {
                    INFO(t->gfx << " " << ins->mnemonic << " " << ls::operand_name(op) << " " << mods.describe() << " wave"
                                << mods.wave);
                    const ls::OperandLayout whole = ls::layout_of(*ins, *t, op, mods);
                    // Elements: spread over the operand, the last one, and several at once (a row).
                    const int n = whole.elements();
                    std::vector<ls::Element> row;
                    for (int c = 0; c < whole.cols(); ++c) row.push_back({0, whole.rows() - 1, c});
                    const ls::OperandLayout of_row = ls::layout_of_elements(*ins, *t, op, mods, row);
                    for (const ls::Element& e : row) CHECK(of_row.where(e) == whole.where(e));
                    for (int i = 0; i < n; i += std::max(1, n / 24)) {
                        const ls::Element e{i / (whole.rows() * whole.cols()), (i / whole.cols()) % whole.rows(),
                                            i % whole.cols()};
                        const ls::OperandLayout one = ls::layout_of_elements(*ins, *t, op, mods, {e});
                        CHECK(one.where(e) == whole.where(e));
                        CHECK(one.regs() == whole.regs());
                        CHECK(one.lanes() == whole.lanes());
                        ++elements;
                    }
                    // Slots: spread over lanes and registers, with the last of each.
                    for (int k = 0; k < 6; ++k) {
                        const int reg = k == 5 ? whole.regs() - 1 : (k * 7) % whole.regs();
                        const int lane = k == 5 ? whole.lanes() - 1 : (k * 13 + 5) % whole.lanes();
                        const auto got = ls::layout_of_slot(*ins, *t, op, mods, reg, lane).which(reg, lane);
                        const auto want = whole.which(reg, lane);
                        REQUIRE(got.size() == want.size());
                        for (size_t p = 0; p < got.size(); ++p) {
                            CHECK(got[p].element == want[p].element);
                            CHECK(got[p].bit_lo == want[p].bit_lo);
                            CHECK(got[p].bit_hi == want[p].bit_hi);
                            CHECK(got[p].elem_bit_lo == want[p].elem_bit_lo);
                        }
                        ++slots;
                    }
                }
    }
    CHECK(elements > 5000);
    CHECK(slots > 1000);
}

TEST_CASE("a single-query layout refuses what it was not made for, and refuses out-of-range input as the whole does") {
    const ls::Target& t = cat().find_target("gfx942");
    const ls::Instruction& ins = cat().find_instruction(t, "v_mfma_f32_32x32x8_f16");
    const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, t, ls::Modifiers{});
    const ls::OperandLayout whole = ls::layout_of(ins, t, ls::Operand::A, mods);
    const ls::OperandLayout one = ls::layout_of_elements(ins, t, ls::Operand::A, mods, {{0, 3, 2}});
    CHECK_THROWS_WITH(one.where({0, 4, 2}), Catch::Contains("internal"));
    CHECK_THROWS_WITH(one.which(0, 0), Catch::Contains("internal"));
    auto message = [](auto&& fn) {
        try {
            fn();
        } catch (const ls::Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string outside = message([&] { whole.where({0, 32, 0}); });
    CHECK(!outside.empty());
    CHECK(message([&] { ls::layout_of_elements(ins, t, ls::Operand::A, mods, {{0, 32, 0}}).where({0, 32, 0}); }) == outside);
    const ls::OperandLayout slot = ls::layout_of_slot(ins, t, ls::Operand::A, mods, 1, 7);
    CHECK_THROWS_WITH(slot.which(0, 7), Catch::Contains("internal"));
    CHECK_THROWS_WITH(slot.where({0, 0, 0}), Catch::Contains("internal"));
    const std::string bad_slot = message([&] { whole.which(9, 5); });
    CHECK(!bad_slot.empty());
    CHECK(message([&] { ls::layout_of_slot(ins, t, ls::Operand::A, mods, 9, 5).which(9, 5); }) == bad_slot);
}

TEST_CASE("builtin(family) finds every N of a wgmma range by each of its names, equal to the listed rows") {
    // Run as its own process (ctest), builtin(Hopper) is not listed before the finds below: each
    // N is made from its row when asked for.
    const ls::Target& t = cat().find_target("sm_90a");
    const ls::Catalog& part = ls::Catalog::builtin(ls::Family::Hopper);
    size_t found = 0;
    for (const ls::Instruction* r : cat().on(ls::Family::Hopper)) {
        if (r->kind != ls::LayoutKind::Wgmma) continue;
        std::vector<std::string> names = r->aliases;
        names.push_back(r->mnemonic);
        const ls::Instruction& a = part.find_instruction(t, names.back());
        for (const std::string& name : names) CHECK(&part.find_instruction(t, name) == &a);  // made once
        CHECK(a.mnemonic == r->mnemonic);
        CHECK(a.short_name == r->short_name);
        CHECK(a.aliases == r->aliases);
        CHECK(a.n == r->n);
        CHECK(a.m == r->m);
        CHECK(a.k == r->k);
        CHECK(a.stated_regs == r->stated_regs);
        CHECK(a.confidence == r->confidence);
        CHECK(a.catalog_line == r->catalog_line);
        CHECK(a.source == r->source);
        CHECK(a.min_target == r->min_target);
        ++found;
    }
    CHECK(found >= 9 * 24);  // nine type rows, 24..32 N each
    // Names near an N that is not legal are refused as the whole catalog refuses them.
    for (const char* bad : {"wgmma_m64n12k16_f32_f16", "wgmma_m64n0128k16_f32_f16", "wgmma_m64n264k16_f32_f16",
                            "wgmma_m64n40k32_s32_s8", "wgmma_m64nk16_f32_f16"}) {
        std::string whole, lazy;
        try {
            cat().find_instruction(t, bad);
        } catch (const ls::Error& e) {
            whole = e.what();
        }
        try {
            part.find_instruction(t, bad);
        } catch (const ls::Error& e) {
            lazy = e.what();
        }
        INFO(bad);
        CHECK(!whole.empty());
        CHECK(lazy == whole);
    }
}

TEST_CASE("builtin(family) finds every AMD row by each of its names before its rows are listed, as builtin() does") {
    // Run as its own process (ctest), these families' rows are not listed before the finds: each
    // name is matched against the unparsed lines and only the row it names is parsed.
    for (const char* gfx : {"gfx942", "gfx1201", "gfx1100", "gfx1250"}) {
        const ls::Target& t = cat().find_target(gfx);
        const ls::Catalog& part = ls::Catalog::builtin(t.family);
        for (const ls::Instruction* r : cat().on(t.family)) {
            std::vector<std::string> names = r->aliases;
            names.push_back(r->mnemonic);
            for (int w : t.wave_sizes) names.push_back(r->key(w));
            for (const std::string& name : names) {
                int w1 = -1, w2 = -1;
                const ls::Instruction& a = part.find_instruction(t, name, &w1);
                const ls::Instruction& b = cat().find_instruction(t, name, &w2);
                INFO(gfx << " " << name);
                CHECK(a.mnemonic == b.mnemonic);
                CHECK(a.builtin_pattern == b.builtin_pattern);
                CHECK(a.catalog_line == b.catalog_line);
                CHECK(a.vec_w32 == b.vec_w32);
                CHECK(a.aliases == b.aliases);
                CHECK(w1 == w2);
            }
        }
    }
}

TEST_CASE("did you mean completes a truncated name first") {
    const ls::Target& t = cat().find_target("gfx942");
    std::string e;
    try {
        ls::Catalog::builtin(t.family).find_instruction(t, "v_mfma_f32_32x32x16_fp8");
    } catch (const ls::Error& x) {
        e = x.what();
    }
    // CDNA3 has v_mfma_f32_32x32x16_fp8_fp8 (and _fp8_bf8): completions of the typed name come first.
    CHECK(e.find("did you mean 'v_mfma_f32_32x32x16_fp8_fp8'") != std::string::npos);
    const auto near = ls::closest("--instr", {"--arch", "--instruction", "--operand", "--inst"});
    REQUIRE(!near.empty());
    CHECK(near.front() == "--instruction");
    // A completion does not hide an exact-length near miss further down; edit distance still orders the rest.
    CHECK(ls::closest("v_mfma_f32_32x32x8_f61", {"v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8_bf16"}).front() ==
          "v_mfma_f32_32x32x8_f16");
}

TEST_CASE("the CLI: which --lane alone, list --search, options named as typed, unknown options") {
    // which --lane L without --reg: what each register of the lane holds, as --reg asks it one by one.
    const Run lane = cli("which -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --lane 37 --format csv");
    REQUIRE(lane.status == 0);
    const std::string q = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --lane 37 --format json";
    const Run r0 = cli("which " + q + " --reg 0"), r1 = cli("which " + q + " --reg 1");
    REQUIRE(r0.status == 0);
    REQUIRE(r1.status == 0);
    const Run all = cli("which " + q);
    REQUIRE(all.status == 0);
    // A of 32x32x8 f16: lane 37 holds row 5, k 4..7 (v0: k 4, 5; v1: k 6, 7), CDNA3 ISA guide's MFMA A layout.
    for (const char* k : {"\"row\": 5, \"col\": 4", "\"row\": 5, \"col\": 5"}) {
        CHECK(r0.out.find(k) != std::string::npos);
        CHECK(all.out.find(k) != std::string::npos);
    }
    for (const char* k : {"\"row\": 5, \"col\": 6", "\"row\": 5, \"col\": 7"}) {
        CHECK(r1.out.find(k) != std::string::npos);
        CHECK(all.out.find(k) != std::string::npos);
    }
    CHECK(cli("which -a sm_90a -i wgmma_m64n8k16_f32_f16 --operand D --lane 127").status == 0);
    CHECK(cli("which -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --lane 64").status == 1);

    // list --search: the app's search, on the CLI.
    const Run found = cli("list -a gfx942 --search '32x32 bf16' --format csv");
    REQUIRE(found.status == 0);
    const ls::Target& t = cat().find_target("gfx942");
    const auto hits = ls::search(cat(), t, "32x32 bf16");
    REQUIRE(!hits.empty());
    for (const ls::SearchHit& h : hits) {
        CHECK(h.ins->m == 32);
        CHECK(h.ins->n == 32);
        CHECK((h.ins->a == ls::ElemType::BF16 || h.ins->c == ls::ElemType::BF16));
        CHECK(found.out.find(h.ins->mnemonic + ",") != std::string::npos);
    }
    CHECK(found.out.find("v_mfma_f32_32x32x8_f16,") == std::string::npos);
    const Run none = cli("list -a gfx942 --search 'no_such_word'");
    CHECK(none.status == 1);
    CHECK(none.err.find("no instruction on gfx942 matches 'no_such_word'") != std::string::npos);

    // Options named as the command line typed them.
    const std::string where = "where -a gfx942 --row 1 --col 1 ";
    const Run short_empty = cli(where + "-i ''");
    CHECK(short_empty.status == 2);
    CHECK(short_empty.err.find("-i '' is empty") != std::string::npos);
    const Run long_empty = cli(where + "--instruction ''");
    CHECK(long_empty.err.find("--instruction '' is empty") != std::string::npos);
    const Run missing = cli("where -a gfx942 -i");
    CHECK(missing.status == 2);
    CHECK(missing.err.rfind("-i needs a value", 0) == 0);
    const Run wave = cli(where + "-i v_mfma_f32_32x32x8_f16 -w 48");
    CHECK(wave.status == 1);
    CHECK(wave.err.find("error: -w 48 is not legal") != std::string::npos);
    const Run wave_long = cli(where + "-i v_mfma_f32_32x32x8_f16 --wave 48");
    CHECK(wave_long.err.find("error: --wave 48 is not legal") != std::string::npos);
    const Run bad_int = cli(where + "-i v_mfma_f32_32x32x8_f16 -w x");
    CHECK(bad_int.status == 2);
    CHECK(bad_int.err.rfind("-w 'x'", 0) == 0);
    const Run unknown = cli(where + "--instr v_mfma_f32_32x32x8_f16");
    CHECK(unknown.status == 2);
    CHECK(unknown.err.find("unknown option '--instr' for where; did you mean '--instruction'?") != std::string::npos);
    CHECK(unknown.err.find("legal options of where:") != std::string::npos);
}
