// `lanescope-cli load --sweep`: the ranking of paddings, XOR
// swizzles and transpose loads. Expectations come from bank arithmetic worked
// by hand (below), from plain `load` runs of each row's own command, and from
// properties any ranking must have (monotone, never below the bound).
#include "shell_run.hpp"

#include "lanescope/memory.hpp"
#include "lanescope/render.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace {
using lstest::cli;
using lstest::Run;
using nlohmann::json;

json sweep(const std::string& args) {
    Run r = cli("load " + args + " --sweep --top 0 --format json");
    INFO(args << "\n" << r.err);
    REQUIRE(r.status == 0);
    return json::parse(r.out);
}

// The row's own command, as a user would paste it, run with --format json.
json reproduce(const json& row) {
    std::string cmd = row["command"];
    const std::string prefix = "lanescope-cli ";
    REQUIRE(cmd.rfind(prefix, 0) == 0);
    Run r = cli(cmd.substr(prefix.size()) + " --format json");
    INFO(cmd << "\n" << r.err);
    REQUIRE(r.status == 0);
    return json::parse(r.out);
}

// What `load` reports for one layout: per wave, the sum of its LDS instructions' bank cycles (or of its
// global instructions' cache lines); the worst wave.
long long worst_wave_cost(const json& load) {
    std::map<int, long long> of_wave;
    if (!load["banks"].empty())
        for (const auto& b : load["banks"]) of_wave[b["wave"].get<int>()] += b["cycles"].get<long long>();
    else
        for (const auto& c : load["coalescing"]) of_wave[c["wave"].get<int>()] += c["cache_lines"].get<long long>();
    long long worst = 0;
    for (const auto& [w, c] : of_wave) worst = std::max(worst, c);
    return worst;
}

const json* row_with(const json& s, const std::string& options) {
    for (const auto& r : s["rows"])
        if (r["options"] == options) return &r;
    return nullptr;
}

// Ranks: best first by cost, then instructions per wave, then padding bytes; never below the bound.
void check_ranking(const json& s) {
    REQUIRE(!s["rows"].empty());
    const long long minimum = s["sweep"]["minimum"];
    std::tuple<long long, int, long long> prev{-1, -1, -1};
    int rank = 0;
    for (const auto& r : s["rows"]) {
        CHECK(r["rank"] == ++rank);
        CHECK(r["cost"].get<long long>() >= minimum);
        CHECK(r["cost"].get<long long>() >= r["instruction_minimum"].get<long long>());
        const std::tuple<long long, int, long long> key{r["cost"], r["instructions_per_wave"], r["pad_bytes"]};
        CHECK(prev <= key);
        prev = key;
    }
    // "best": the first row of each kind of choice (none, pad only, swizzle only, with --transpose).
    auto kind = [](const json& r) -> std::string {
        if (r["transpose"] == true) return "transpose";
        if (r["swizzle"]["vec"].get<int>() > 0 && r["swizzle"]["max_phase"].get<int>() > 1) return "swizzle";
        return r["pad"].get<int>() > 0 ? "pad" : "none";
    };
    for (const char* k : {"none", "pad", "swizzle", "transpose"}) {
        INFO(k);
        size_t first = 0;
        for (size_t n = 0; n < s["rows"].size() && !first; ++n)
            if (kind(s["rows"][n]) == k) first = n + 1;
        if (first) CHECK(s["sweep"]["best"][k] == first);
        else CHECK(s["sweep"]["best"][k].is_null());
    }
}
}  // namespace

TEST_CASE("load --sweep: gfx942 A of v_mfma_f32_32x32x8_f16 reaches the conflict-free minimum by hand arithmetic",
          "[sweep]") {
    // A is 32 rows x 8 k of f16, row-major with ld 8: a line is 16 bytes. Lane l holds row l%32, k 4*(l/32)..+3:
    // one 8-byte ds_read_b64 per lane, served in passes of 16 consecutive lanes (docs/memory.md, measured on
    // MI300). gfx942 LDS: 32 banks x 4 bytes = 128 bytes per cycle; a wave needs 32*8*2 = 512 bytes, so the
    // minimum is 512/128 = 4 cycles.
    //  - no padding: lanes 0..15 read dwords 4l, 4l+1; lanes l and l+8 are 32 dwords apart, on the same two
    //    banks: 2-way, 2 cycles per pass, 4 passes = 8 cycles.
    //  - --pad 4 (8 bytes): a 24-byte pitch, lane l at dwords 6l, 6l+1; 6l mod 32 over l = 0..15 is 16
    //    distinct even banks, +1 the 16 odd ones: conflict-free, 4 passes of 1 cycle = 4.
    //  - --pad 2 (4 bytes): a 20-byte pitch puts odd rows at 4 mod 8, so no lane can use an 8-byte read:
    //    2 instructions.
    //  - --swizzle 4,8,2: rows 8..15 swap their two 4-element halves (+2 dwords); lanes 0..7 hit banks
    //    {4l, 4l+1}, lanes 8..15 banks {4(l-8)+2, 4(l-8)+3}: disjoint, conflict-free at no extra bytes.
    const json s = sweep("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row");
    CHECK(s["sweep"]["bytes_per_wave"] == 512);
    CHECK(s["sweep"]["bytes_per_cycle"] == 128);
    CHECK(s["sweep"]["minimum"] == 4);
    CHECK(s["sweep"]["transpose"] == false);  // gfx942 has no transpose load
    const json* none = row_with(s, "");
    const json* pad4 = row_with(s, "--pad 4");
    const json* pad2 = row_with(s, "--pad 2");
    const json* swz = row_with(s, "--swizzle 4,8,2");
    REQUIRE(none);
    REQUIRE(pad4);
    REQUIRE(pad2);
    REQUIRE(swz);
    CHECK((*none)["cost"] == 8);
    CHECK((*none)["instructions"] == json::parse(R"([{"mnemonic": "ds_read_b64", "count": 1}])"));
    CHECK((*pad4)["cost"] == 4);
    CHECK((*pad4)["pad_bytes"] == 32 * 8);  // 32 lines x 4 f16
    CHECK((*pad2)["instructions_per_wave"].get<int>() >= 2);
    CHECK((*swz)["cost"] == 4);
    // The top row reaches the minimum with one instruction and, as a zero-byte conflict-free layout exists,
    // costs no LDS bytes.
    const json& top = s["rows"][0];
    CHECK(top["cost"] == 4);
    CHECK(top["ratio"] == 1.0);
    CHECK(top["instructions_per_wave"] == 1);
    CHECK(top["pad_bytes"] == 0);
    check_ranking(s);
    // Candidates: paddings 0..2 x 128 bytes = 128 f16 in dword steps (2 f16), swizzles, nothing over the cap.
    CHECK(s["sweep"]["pads"]["to"] == 128);
    CHECK(s["sweep"]["pads"]["step"] == 2);
    CHECK(s["sweep"]["candidates"].get<int>() <= s["sweep"]["cap"].get<int>());
    CHECK(s["rows"].size() + s["sweep"]["skipped"].size() == s["sweep"]["planned"].get<size_t>());
}

TEST_CASE("load --sweep: every row's command reproduces its numbers through plain load", "[sweep]") {
    for (const std::string args : {
             "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row",
             "-a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --order row --ld 64",  // with --transpose rows
             "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --order row --ld 64 --memory global",
             "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 2x2 --shape 64x64x16",
             "-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand A --order col",
         }) {
        INFO(args);
        const json s = sweep(args);
        check_ranking(s);
        // The bound from independent facts: the layout's elements per wave (layout --format json) and the bank
        // model load reports.
        Run lay = cli("layout " + args.substr(0, args.find(" --order")) + " --format json");
        REQUIRE(lay.status == 0);
        const json L = json::parse(lay.out);
        std::map<int, std::set<std::tuple<int, int, int>>> of_wave;
        for (const auto& e : L["entries"])
            of_wave[e.value("wave", 0)].insert({e.value("block", 0), e["row"].get<int>(), e["col"].get<int>()});
        size_t most = 0;
        for (const auto& [w, el] : of_wave) most = std::max(most, el.size());
        const long long bytes = static_cast<long long>(most) * L["element_bits"].get<int>() / 8;
        CHECK(s["sweep"]["bytes_per_wave"] == bytes);
        // Rows checked: the first 12 and every 7th after (each a process run).
        const auto& rows = s["rows"];
        for (size_t n = 0; n < rows.size(); n += n < 12 ? 1 : 7) {
            const json& row = rows[n];
            INFO(row["command"]);
            const json load = reproduce(row);
            CHECK(worst_wave_cost(load) == row["cost"]);
            CHECK(load["instructions_per_wave"] == row["instructions_per_wave"]);
            CHECK(load["transpose"] == row["transpose"]);
            CHECK(load["memory"]["pad"] == row["pad"]);
            CHECK(load["memory"]["swizzle"] == row["swizzle"]);
            const json& m = load["memory"];
            CHECK(m["order"] == row["order"]);
            CHECK(m["ld"] == row["ld"]);
            // Padding bytes: the row's lines x (pad + ld beyond the request's, or beyond the other order's
            // extent) x bits / 8.
            const long long R = L["rows"].get<long long>() * L.value("blocks", 1), C = L["cols"].get<long long>();
            const bool row_major = m["order"] == "row";
            const long long base_ld = m["order"] == s["memory"]["order"] ? s["memory"]["ld"].get<long long>()
                                                                         : (row_major ? C : R);
            CHECK(row["pad_bytes"] == (row_major ? R : C) *
                                          (m["pad"].get<long long>() + m["ld"].get<long long>() - base_ld) *
                                          m["element_bits"].get<long long>() / 8);
            if (!load["banks"].empty()) {
                const json& bm = load["banks"][0]["bank_model"];
                CHECK(s["sweep"]["bytes_per_cycle"] == bm["banks"].get<int>() * bm["bank_bytes"].get<int>());
            }
            std::set<std::string> mnemonics;
            for (const auto& i : row["instructions"]) mnemonics.insert(i["mnemonic"].get<std::string>());
            for (const auto& l : load["loads"]) CHECK(mnemonics.count(l["mnemonic"].get<std::string>()) == 1);
        }
    }
}

TEST_CASE("load --sweep: table, csv and --top; refusals exit 2 (usage) or 1 (bad query) and write nothing", "[sweep]") {
    const std::string base = "load -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --sweep";
    Run t = cli(base + " --top 3");
    REQUIRE(t.status == 0);
    CHECK(t.out.find("minimum: 4 cycles = ceil(512 bytes per wave / 128 bytes per cycle") != std::string::npos);
    CHECK(t.out.find("reproduce a row: lanescope-cli load --arch gfx942") != std::string::npos);
    CHECK(t.out.find("(measured)") != std::string::npos);  // the grouping's confidence word
    Run c = cli(base + " --top 5 --format csv");
    REQUIRE(c.status == 0);
    CHECK(c.out.rfind("rank,cycles,minimum,ratio,instruction_minimum,instructions_per_wave,instructions,pad_bytes,", 0) == 0);
    CHECK(std::count(c.out.begin(), c.out.end(), '\n') == 6);
    const json j = json::parse(cli(base + " --top 2 --format json").out);
    CHECK(j["rows"].size() == 2);
    CHECK(j["sweep"]["ranked"].get<int>() > 2);

    const auto out = lstest::temp_path("lanescope_sweep.txt");
    for (const auto& [extra, status] : std::vector<std::pair<std::string, int>>{
             {" --pad 4", 2},
             {" --swizzle 4,1,2", 2},
             {" --transpose", 2},
             {" --format hip", 2},
             {" --format yaml", 1},  // no format at all, as plain load says
             {" --namespace x", 2},
             {" --top -1", 2},
             {" --top many", 2},
             {" --ld 4", 1},          // below the tile's 8 columns
             {" --store", 1},         // A is never stored
             {" --grouping nope", 1},
         }) {
        INFO(extra);
        std::filesystem::remove(out);
        Run r = cli(base + extra + " -o " + out.string());
        CHECK(r.status == status);
        CHECK(!r.err.empty());
        CHECK(r.out.empty());
        CHECK(!std::filesystem::exists(out));
    }
    Run r = cli("load -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --top 3");
    CHECK(r.status == 2);
    CHECK(r.err.find("--sweep") != std::string::npos);
    // A tile too large to sweep is refused up front, naming the limit.
    r = cli("load -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 4x4 --shape 1024x1024x64 --sweep");
    CHECK(r.status == 1);
    CHECK(r.err.find("placements") != std::string::npos);
}

TEST_CASE("load --sweep: transpose rows where a padding aligns them; a fixed --grouping holds in every row", "[sweep]") {
    // FP6 A (cbsz 2) of the gfx950 f8f6f4 MFMA, column-major with ld 16: ds_read_b96_tr_b6 reads 12 bytes per
    // lane and, as every b96 LDS access, needs 16-byte alignment (LLVM DSInstructions.td, docs/memory.md). A
    // line is (16 + pad) * 6 / 8 bytes; in the sweep's 16-element pad steps (96 bits, whole dwords) the first
    // multiple of 16 bytes is pad 48 (64 * 6 / 8 = 48 bytes): 0, 16, 32 give 12, 24, 36 bytes.
    const json s = sweep("-a gfx950 -i v_mfma_f32_16x16x128_f8f6f4 --operand A --order col --cbsz 2");
    CHECK(s["sweep"]["transpose"] == true);
    CHECK(s["sweep"]["pads"]["step"] == 16);
    const json* tr48 = row_with(s, "--pad 48 --transpose");
    REQUIRE(tr48);
    CHECK((*tr48)["instructions"][0]["mnemonic"] == "ds_read_b96_tr_b6");
    for (const char* o : {"--transpose", "--pad 16 --transpose", "--pad 32 --transpose"}) CHECK(!row_with(s, o));
    bool listed = false;
    for (const auto& k : s["sweep"]["skipped"]) listed = listed || k.get<std::string>().rfind("--pad 16 --transpose:", 0) == 0;
    CHECK(listed);
    check_ranking(s);

    // --grouping is fixed: every ranked row uses it; candidates whose instructions do not offer it are refused.
    const json g = sweep("-a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --order col --grouping 'gfx942 b128 groups'");
    REQUIRE(!g["rows"].empty());
    CHECK(!g["sweep"]["skipped"].empty());
    for (const auto& r : g["rows"]) {
        for (const auto& x : r["groupings"]) CHECK(x.get<std::string>().find(": gfx942 b128 groups (") != std::string::npos);
        CHECK(r["command"].get<std::string>().find("--grouping 'gfx942 b128 groups'") != std::string::npos);
    }
    CHECK(worst_wave_cost(reproduce(g["rows"][0])) == g["rows"][0]["cost"]);
    // Offered by none of the candidates' instructions: a bad query, nothing ranked.
    Run r = cli("load -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --sweep --grouping 'gfx942 b128 groups'");
    CHECK(r.status == 1);
    CHECK(r.err.find("gfx942 b128 groups") != std::string::npos);
}

TEST_CASE("load --sweep: gfx950 A of v_mfma_f32_16x16x32_f16 with 256-byte rows, by hand arithmetic", "[sweep]") {
    // A is 16 rows x 32 k of f16 (CDNA4 ISA: lane l holds row l%16, k 8*(l/16)..+7): one 16-byte ds_read_b128
    // per lane at row*(ld+pad)*2 + 16*(l/16) bytes. gfx950: 64 banks x 4 bytes (256 bytes per cycle), passes
    // {0-3,12-15,20-27} and {4-11,16-19,28-31} and the same +32 (measured). 64 lanes x 16 bytes = 1024 bytes:
    // minimum 4 cycles.
    //  - ld 128, no padding: a 256-byte pitch puts every row on banks 0-3 (k 0-7) or 4-7 (k 8-15); the first
    //    pass has 8 lanes on banks 0-3 (rows 0-3, 12-15) and 8 on banks 4-7: 8 cycles; 4 passes = 32.
    //  - --pad 8 (16 bytes, pitch 68 dwords): row r starts at bank 4r mod 64; in the first pass row 12 (k 0)
    //    and row 11 (k 8, 4*11+4 = 48) both start at bank 48: 2-way, 4 passes = 8.
    //  - --pad 16 (32 bytes, pitch 72 dwords): row r at bank 8r mod 64, k 8 at 8r+4: the first pass covers
    //    {0,8,..,56} and {4,12,..,60} (+0..3) once each, so does the second: conflict-free, 4 = the minimum.
    const json s = sweep("-a gfx950 -i v_mfma_f32_16x16x32_f16 --operand A --order row --ld 128");
    CHECK(s["sweep"]["bytes_per_cycle"] == 256);
    CHECK(s["sweep"]["minimum"] == 4);
    const json* none = row_with(s, "");
    const json* pad8 = row_with(s, "--pad 8");
    const json* pad16 = row_with(s, "--pad 16");
    REQUIRE(none);
    REQUIRE(pad8);
    REQUIRE(pad16);
    for (const json* r : {none, pad8, pad16})
        CHECK((*r)["instructions"] == json::parse(R"([{"mnemonic": "ds_read_b128", "count": 1}])"));
    CHECK((*none)["cost"] == 32);
    CHECK((*pad8)["cost"] == 8);
    CHECK((*pad16)["cost"] == 4);
    CHECK((*pad16)["pad_bytes"] == 16 * 16 * 2);
    CHECK(s["rows"][0]["cost"] == 4);
    CHECK(s["rows"][0]["pad_bytes"].get<long long>() <= (*pad16)["pad_bytes"].get<long long>());
    check_ranking(s);
}

TEST_CASE("sweep_memory (library): the options of a candidate, and the request's own pad, swizzle and transpose ignored",
          "[sweep]") {
    namespace ls = lanescope;
    CHECK(ls::SweepCandidate{}.options().empty());
    CHECK(ls::SweepCandidate{4, {}, false}.options() == "--pad 4");
    CHECK(ls::SweepCandidate{0, {4, 8, 2}, true}.options() == "--swizzle 4,8,2 --transpose");
    CHECK(ls::SweepCandidate{0, {8, 1, 1}, false}.options().empty());  // MAX_PHASE 1: no swizzle
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    const ls::Query q{&ins, &t, ls::resolve_modifiers(ins, t, ls::Modifiers{})};
    ls::MemoryRequest r;
    r.operand = ls::Operand::A;
    r.tile.ld = 8;
    r.tile.element_bits = 16;
    const ls::SweepReport a = ls::sweep_memory(q, r);
    r.tile.pad = 4;
    r.tile.swizzle = {4, 1, 2};
    const ls::SweepReport b = ls::sweep_memory(q, r);
    REQUIRE(a.rows.size() == b.rows.size());
    for (size_t n = 0; n < a.rows.size(); ++n) {
        CHECK(a.rows[n].candidate.options() == b.rows[n].candidate.options());
        CHECK(a.rows[n].cost == b.rows[n].cost);
    }
    CHECK(a.minimum == 4);
    CHECK(a.lines == 32);
    // Every row is one plan_memory of its candidate: the engine's own numbers.
    const auto [rows, cols] = ls::memory_extent(q, r);
    for (size_t n = 0; n < a.rows.size(); n += 9) {
        ls::MemoryRequest c = r;
        const ls::SweepCandidate& k = a.rows[n].candidate;
        c.tile.pad = k.pad;
        c.tile.swizzle = k.swizzle;
        c.tile.order = k.order;
        c.tile.ld = k.ld > 0 ? k.ld : k.reorder ? ls::contiguous_extent(k.order, rows, cols) : r.tile.ld;
        CHECK(a.rows[n].ld == c.tile.ld);
        const ls::MemoryPlan p = ls::plan_memory(q, c);
        long long cycles = 0;
        for (const auto& bank : p.banks) cycles += bank.cycles;
        CHECK(cycles == a.rows[n].cost);
        CHECK(p.instructions_per_wave == a.rows[n].instructions_per_wave);
    }
}

TEST_CASE("load --sweep: each row's worst conflict ways and the lanes that collide, by hand arithmetic", "[sweep]") {
    // gfx942 A of v_mfma_f32_32x32x8_f16 row-major, ld 8 (16-byte lines), as above: without padding lane l
    // reads row l (byte 16 l) with ds_read_b64 in passes of 16 lanes; lanes 0 and 8 are 128 bytes apart
    // (32 banks x 4 bytes), both in bank 0: a 2-way conflict. --pad 4 spreads them: 1 (none).
    const json s = sweep("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row");
    const json* none = row_with(s, "");
    const json* pad4 = row_with(s, "--pad 4");
    REQUIRE(none);
    REQUIRE(pad4);
    CHECK((*none)["conflict_ways"] == 2);
    CHECK((*pad4)["conflict_ways"] == 1);
    const json& w = (*none)["worst_pass"];
    CHECK(w["mnemonic"] == "ds_read_b64");
    CHECK(w["bank"] == 0);
    CHECK(w["words"] == json::parse(R"([{"address": 0, "lane": 0}, {"address": 128, "lane": 8}])"));
    CHECK((*none)["line_bytes"] == 16);
    // Every row: cycles >= its worst pass's ways (that pass alone takes them).
    for (const auto& r : s["rows"]) CHECK(r["cost"].get<int>() >= r["conflict_ways"].get<int>());
    CHECK(s["sweep"]["reaches_minimum"] == true);
    // The table names the colliding lanes of the unpadded row.
    Run t = cli("load -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row --sweep --top 0");
    REQUIRE(t.status == 0);
    CHECK(t.out.find("conflict ways") != std::string::npos);
    CHECK(t.out.find("2 (bank 0: lanes 0, 8)") != std::string::npos);
}

TEST_CASE("load --sweep: says plainly why nothing reaches the minimum (RDNA3 lanes load copies)", "[sweep]") {
    // RDNA3 wave32 WMMA: lanes 16-31 hold a copy of lanes 0-15's A (RDNA3 ISA guide, WMMA operand layout),
    // so a wave loads 2 x 512 bytes of the 16x16 f16 A: 1024 / 128 bytes per cycle = 8 cycles at least,
    // twice the 4-cycle bound of its 512 distinct bytes. No padding or swizzle can change that.
    const json s = sweep("-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand A");
    CHECK(s["sweep"]["minimum"] == 4);
    CHECK(s["sweep"]["reaches_minimum"] == false);
    for (const auto& r : s["rows"]) CHECK(r["cost"].get<int>() >= 8);
    const std::string why = s["sweep"]["why"];
    CHECK(why.find("no candidate reaches the minimum of 4 cycles") != std::string::npos);
    CHECK(why.find("load 1024 B, 2 times the operand's 512 B") != std::string::npos);
    Run t = cli("load -a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand A --sweep");
    REQUIRE(t.status == 0);
    CHECK(t.out.find("verdict: NOT at the minimum: ") != std::string::npos);
}

TEST_CASE("load --sweep: an inferred pass grouping is ranked under every offered grouping", "[sweep]") {
    // gfx908 A of v_mfma_f32_32x32x1f32: 64 lanes, one dword each, 64 consecutive dwords (ds_read_b32; its
    // 32-lane grouping is inferred). Passes of n consecutive lanes read n consecutive dwords: 64/n passes of
    // ceil(n/32) cycles: n = 8: 8, 16: 4, 32: 2, 64: 2.
    const json s = sweep("-a gfx908 -i v_mfma_f32_32x32x1f32 --operand A");
    std::map<std::string, int> expect = {{"8 consecutive lanes", 8}, {"16 consecutive lanes", 4},
                                         {"32 consecutive lanes", 2}, {"64 consecutive lanes", 2}};
    const json* none = row_with(s, "");
    REQUIRE(none);
    for (const auto& [g, cycles] : expect) {
        INFO(g);
        CHECK((*none)["cost_by_grouping"][g] == cycles);
    }
    // Under each grouping its best row is the cheapest there; the answer depends on the grouping iff
    // some grouping's best options differ from row 1's.
    bool differs = false;
    for (const auto& g : s["sweep"]["groupings"]) {
        const std::string name = g["grouping"];
        int least = 1 << 30;
        for (const auto& r : s["rows"]) least = std::min(least, r["cost_by_grouping"][name].get<int>());
        CHECK(g["cost"] == least);
        CHECK(s["rows"][g["best_rank"].get<int>() - 1]["cost_by_grouping"][name] == least);
        differs = differs || g["options"] != s["rows"][0]["options"];
    }
    CHECK(s["sweep"]["depends_on_grouping"] == differs);
}

TEST_CASE("load --sweep: LDS searches both orders, a power-of-two ld and paddings with swizzles", "[sweep]") {
    const json s = sweep("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row");
    CHECK(s["sweep"]["orders"] == json::parse(R"(["row", "col"])"));
    CHECK(s["sweep"]["combined"].get<int>() > 0);
    const json* combo = nullptr;
    const json* col = nullptr;
    for (const auto& r : s["rows"]) {
        if (!combo && r["pad"].get<int>() > 0 && r["swizzle"]["max_phase"].get<int>() > 1) combo = &r;
        if (!col && r["order"] == "col") col = &r;
    }
    REQUIRE(combo);
    REQUIRE(col);
    CHECK(std::string((*col)["options"]).find("--order col") != std::string::npos);
    for (const json* r : {combo, col}) {
        const json load = reproduce(*r);
        CHECK(worst_wave_cost(load) == (*r)["cost"].get<long long>());
    }
    // A non-power-of-two ld (24) is also tried at 32 with swizzles.
    const json wide = sweep("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row --ld 24");
    CHECK(wide["sweep"]["lds"] == json::parse("[24, 32]"));
    for (const auto& r : wide["rows"])
        if (r["ld"] == 32 && r["order"] == "row") {
            CHECK(std::string(r["options"]).find("--ld 32") != std::string::npos);
            CHECK(r["pad_bytes"].get<int>() >= 32 * 8 * 2);  // 8 more f16 per line than the given ld
            break;
        }
    // Global memory: the tensor's order and ld are given, not chosen.
    const json g = sweep("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --memory global");
    CHECK(g["sweep"]["orders"] == json::parse(R"(["row"])"));
    CHECK(g["sweep"]["combined"] == 0);
    check_ranking(s);
    check_ranking(wide);
}
