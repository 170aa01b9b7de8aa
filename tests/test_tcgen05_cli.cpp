// The Blackwell question asked as a user asks it: by short name, through the catalog
// (Catalog::builtin().find_instruction) and the JSON renderer the CLI prints, against every case
// of Triton 3.6's get_tmem_reg_layout dump (tests/data/triton, scripts/triton-tmem-layouts.py):
//   lanescope-cli layout -a sm_100a -i tcgen05_mma_m{M}n{N}k16_{f32|f16}_f16 --operand D
//                 --tmem-load V --num-warps W --format json   (and --format linear)
// Triton's records are (variant, block [M, N], dtype, num_warps) with the bases of its
// DistributedLinearLayout; a thread t holds, at register index e, the XOR of the bases of e's,
// (t % 32)'s and (t / 32)'s set bits.
#include <lanescope/lanescope.hpp>
#include <lanescope/linear.hpp>
#include <lanescope/render.hpp>

#include "shell_run.hpp"
#include "triton_dump.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ls = lanescope;

namespace {

using Bases = std::vector<std::pair<int, int>>;

Bases bases_of(const nlohmann::json& j) {
    Bases b;
    for (const auto& x : j) b.push_back({x[0].get<int>(), x[1].get<int>()});
    return b;
}

// docs/blackwell.md's short name of a cta_group::1 kind::f16 tcgen05.mma, f16 A and B, with D of `dtype`.
std::string short_name(int M, int N, bool f16_d) {
    return "tcgen05_mma_m" + std::to_string(M) + "n" + std::to_string(N) + "k16_" + (f16_d ? "f16" : "f32") + "_f16";
}

std::string cli_args(const std::string& name, const std::string& variant, int warps, const std::string& format) {
    return std::string(LANESCOPE_CLI) + " layout -a sm_100a -i " + name + " --operand D --tmem-load " + variant +
           " --num-warps " + std::to_string(warps) + " --format " + format;
}

}  // namespace

TEST_CASE("tcgen05: layout by short name --tmem-load equals Triton 3.6 for every dump case, as JSON and linear bases",
          "[tcgen05][triton][cli]") {
    const auto records = lstest::read_triton_dump(LANESCOPE_TRITON_TMEM_DUMP);
    REQUIRE(records.size() == 1800);
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& sm100a = ls::Catalog::target("sm_100a");
    int compared = 0, equal = 0, linear_equal = 0, refused = 0, refused_alike = 0;
    std::map<std::string, int> per_variant;
    for (const auto& r : records) {
        if (r["two_ctas"].get<bool>()) continue;  // cta_group::2 pairs: not the cta_group::1 short name
        const std::string v = r["variant"];
        const int M = r["block"][0], N = r["block"][1], W = r["num_warps"];
        const bool f16 = r["dtype"] == "float16";
        const std::string name = short_name(M, N, f16);
        INFO(name << " --tmem-load " << v << " --num-warps " << W << " (" << r["dtype"] << ", col_stride "
                  << r["col_stride"] << ")");
        // The CLI's own path: the short name through the catalog, the option through its value names.
        const std::optional<int> tl = ls::parse_modifier_value("tmem_load", v);
        REQUIRE(tl);
        ls::Modifiers m;
        m.tmem_load = *tl;
        m.num_warps = W;
        if (r.contains("error")) {
            ++refused;
            bool threw = false;
            try {
                const ls::Instruction& ins = cat.find_instruction(sm100a, name);
                ls::layout_of(ins, sm100a, ls::Operand::D, m);
            } catch (const ls::Error&) {
                threw = true;
            }
            CHECK(threw);
            refused_alike += threw;
            continue;
        }
        const ls::Instruction& ins = cat.find_instruction(sm100a, name);
        REQUIRE(ins.kind == ls::LayoutKind::Tcgen05Mma);
        REQUIRE(ins.m == M);
        REQUIRE(ins.n == N);
        REQUIRE(ins.d_type() == (f16 ? ls::ElemType::F16 : ls::ElemType::F32));
        const ls::Query q{&ins, &sm100a, ls::resolve_modifiers(ins, sm100a, m)};
        const ls::OperandLayout L = ls::layout_of(ins, sm100a, ls::Operand::D, q.mods);
        const nlohmann::json j = nlohmann::json::parse(ls::render_layout(q, L, ls::View::Matrix, ls::Format::Json));
        const int bits = f16 ? 16 : 32;
        const Bases rb = bases_of(r["reg_bases"]), lb = bases_of(r["lane_bases"]), wb = bases_of(r["warp_bases"]);
        const int elems = 1 << rb.size();
        CHECK(j["space"] == "registers");
        CHECK(j["lanes"] == 32 * W);
        // Every (thread, register index) once, in register order: register e*bits/32, bits (e*bits)%32.
        std::vector<std::pair<int, int>> got(static_cast<size_t>(32 * W * elems), {-1, -1});
        bool same = j["entries"].size() == got.size();
        for (const auto& e : j["entries"]) {
            const int t = e["lane"], slot = e["reg"].get<int>() * 32 + e["bit_lo"].get<int>();
            if (t < 0 || t >= 32 * W || slot % bits || slot / bits >= elems) {
                same = false;
                continue;
            }
            got[static_cast<size_t>(t * elems + slot / bits)] = {e["row"], e["col"]};
        }
        for (int t = 0; t < 32 * W && same; ++t)
            for (int e = 0; e < elems; ++e) {
                int row = 0, col = 0;
                auto add = [&](const Bases& b, int x) {
                    for (size_t i = 0; i < b.size(); ++i)
                        if ((x >> i) & 1) row ^= b[i].first, col ^= b[i].second;
                };
                add(rb, e);
                add(lb, t % 32);
                add(wb, t / 32);
                if (got[static_cast<size_t>(t * elems + e)] != std::make_pair(row, col)) same = false;
            }
        CHECK(same);
        // --format linear: Triton's own bases, threads split into 5 lane bits and warp bits.
        const ls::TileLayout tile(ins, sm100a, ls::Operand::D, q.mods, ls::TileParams{});
        const ls::LinearResult lin = ls::to_linear(tile);
        REQUIRE(lin.layout);
        const ls::LinearLayout split = ls::split_warp_lanes(*lin.layout, ls::linear_warp_lanes(ins, q.mods));
        const bool lin_same = split.reg == rb && split.lane == lb && split.warp == wb && split.rows == M && split.cols == N;
        CHECK(lin_same);
        ++compared;
        equal += same;
        linear_equal += lin_same;
        per_variant[v] += same;
    }
    CHECK(compared == 280);
    CHECK(equal == compared);
    CHECK(linear_equal == compared);
    CHECK(refused == 320);
    CHECK(refused_alike == refused);
    WARN("Triton 3.6 get_tmem_reg_layout, cta_group::1 by short name: " << equal << " / " << compared
         << " equal element by element, " << linear_equal << " / " << compared << " with Triton's bases; " << refused_alike
         << " / " << refused << " refused by both");
}

TEST_CASE("tcgen05: lanescope-cli layout --tmem-load prints what the catalog path gives, refuses what Triton refuses",
          "[tcgen05][triton][cli]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& sm100a = ls::Catalog::target("sm_100a");
    // One case per variant, warp count, D type and layout (D: M = 128, F: M = 64), through the real CLI.
    for (const char* v : {"32x32b", "16x64b", "16x128b", "16x256b"})
        for (int W : {4, 8})
            for (bool f16 : {false, true})
                for (int M : {64, 128}) {
                    const std::string name = short_name(M, 64, f16);
                    INFO(name << " " << v << " " << W);
                    const lstest::Run run = lstest::run_command(cli_args(name, v, W, "json"));
                    REQUIRE(run.status == 0);
                    ls::Modifiers m;
                    m.tmem_load = *ls::parse_modifier_value("tmem_load", v);
                    m.num_warps = W;
                    const ls::Instruction& ins = cat.find_instruction(sm100a, name);
                    const ls::Query q{&ins, &sm100a, ls::resolve_modifiers(ins, sm100a, m)};
                    CHECK(run.out == ls::render_layout(q, ls::layout_of(ins, sm100a, ls::Operand::D, q.mods),
                                                       ls::View::Matrix, ls::Format::Json));
                }
    // Triton 3.6's worked example (get_tmem_reg_layout, fp32 [128, 64], 16x256b, 4 warps), as --format linear.
    lstest::Run run = lstest::run_command(cli_args(short_name(128, 64, false), "16x256b", 4, "linear"));
    REQUIRE(run.status == 0);
    const nlohmann::json lin = nlohmann::json::parse(run.out);
    CHECK(bases_of(lin["register"]) == Bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {16, 0}});
    CHECK(bases_of(lin["lane"]) == Bases{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}});
    CHECK(bases_of(lin["warp"]) == Bases{{32, 0}, {64, 0}});
    // Refusals Triton makes, with the rule: 16x32bx2 by name, 16x256b wider than a 16-bit N = 8, N not a power of 2.
    run = lstest::run_command(cli_args(short_name(64, 64, false), "16x32bx2", 4, "json"));
    CHECK(run.status == 1);
    CHECK(run.out.empty());
    CHECK(run.err.find("--tmem-load 32x32b") != std::string::npos);
    run = lstest::run_command(cli_args(short_name(128, 8, true), "16x256b", 4, "json"));
    CHECK(run.status == 1);
    CHECK(run.err.find("16x256b") != std::string::npos);
    run = lstest::run_command(cli_args(short_name(128, 24, false), "32x32b", 4, "json"));
    CHECK(run.status == 1);
    CHECK(run.err.find("power of 2") != std::string::npos);
    run = lstest::run_command(cli_args(short_name(128, 64, false), "32x32b", 6, "json"));
    CHECK(run.status == 1);
    CHECK(run.err.find("legal: 4, 8") != std::string::npos);
}

TEST_CASE("tcgen05: the gallery holds Blackwell's representatives on the targets where they are legal",
          "[tcgen05][cli][gallery]") {
    // tcgen05 is legal on sm_100a/103a/110a only, block-scaled mma.sync on sm_120a/121a only (CUDA 13.0
    // ptxas): the gallery's family targets (sm_100, sm_120) refuse both, so these rows name their own.
    const std::string dir = (std::filesystem::temp_directory_path() / "lanescope-gallery-tcgen05").string();
    std::filesystem::remove_all(dir);
    lstest::Run run = lstest::cli("gallery --svg --match tcgen05 -o " + dir);
    REQUIRE(run.status == 0);
    std::ifstream in(dir + "/index.html");
    const std::string index((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* name : {"tcgen05_mma_m128n64k16_f32_f16", "tcgen05_mma_m64n64k16_f32_f16", "tcgen05_mma_m256n64k16_f32_f16_2cta",
                             "tcgen05_ld_16x32bx2_x4"}) {
        INFO(name);
        CHECK(index.find(std::string("<code>") + name + "</code>") != std::string::npos);
        std::ifstream facts(dir + "/facts/blackwell_" + name + ".html");
        const std::string page((std::istreambuf_iterator<char>(facts)), std::istreambuf_iterator<char>());
        CHECK(page.find("not confirmed on hardware") != std::string::npos);
    }
    CHECK(index.find("data-arch=\"blackwell sm_100a") != std::string::npos);
    run = lstest::cli("gallery --svg --match mxf4nvf4_4x -o " + dir);
    REQUIRE(run.status == 0);
    std::ifstream in2(dir + "/index.html");
    const std::string index2((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
    CHECK(index2.find("<code>mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue4m3</code>") != std::string::npos);
    CHECK(index2.find("data-arch=\"blackwell-geforce sm_120a") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("tcgen05: --tmem-load on Layout A (cta_group::2, M = 256) is each CTA's Triton 3.6 two_ctas layout, CTA c on rows 128c..",
          "[tcgen05][triton][cli]") {
    // CUTLASS's 2-SM UMMA: CLayout (2,(M/2,N)):(M/2,(1,M)), CTA c holds D rows 128c..128c+127 as the
    // 128-row tmem_frg; its epilogue's warps read their own CTA's TMEM (PTX §9.7.16.8.1). Triton 3.6's
    // records with two_ctas = true and block [128, N] are that per-CTA layout. Thread 32W*c + t of
    // lanescope's pair is thread t of CTA c.
    const auto records = lstest::read_triton_dump(LANESCOPE_TRITON_TMEM_DUMP);
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& sm100a = ls::Catalog::target("sm_100a");
    int compared = 0;
    for (const auto& r : records) {
        if (!r["two_ctas"].get<bool>() || r.contains("error") || r["dtype"] != "float32") continue;
        const int M = r["block"][0], N = r["block"][1], W = r["num_warps"];
        if (M != 128 || r["shape"][0] != 128) continue;
        const std::string v = r["variant"];
        const std::string name = "tcgen05_mma_m256n" + std::to_string(N) + "k16_f32_f16_2cta";
        INFO(name << " --tmem-load " << v << " --num-warps " << W);
        if (N < 16) continue;  // cta_group::2 N starts at 16 (PTX ISA's shape table)
        ls::Modifiers m;
        m.tmem_load = *ls::parse_modifier_value("tmem_load", v);
        m.num_warps = W;
        const ls::Instruction& ins = cat.find_instruction(sm100a, name);
        const ls::OperandLayout L = ls::layout_of(ins, sm100a, ls::Operand::D, ls::resolve_modifiers(ins, sm100a, m));
        REQUIRE(L.lanes() == 2 * 32 * W);
        REQUIRE(L.rows() == 256);
        const Bases rb = bases_of(r["reg_bases"]), lb = bases_of(r["lane_bases"]), wb = bases_of(r["warp_bases"]);
        const int elems = 1 << rb.size();
        REQUIRE(L.regs() == elems);
        bool same = true;
        for (int c = 0; c < 2; ++c)
            for (int t = 0; t < 32 * W; ++t)
                for (int e = 0; e < elems; ++e) {
                    int row = 0, col = 0;
                    auto add = [&](const Bases& b, int x) {
                        for (size_t i = 0; i < b.size(); ++i)
                            if ((x >> i) & 1) row ^= b[i].first, col ^= b[i].second;
                    };
                    add(rb, e);
                    add(lb, t % 32);
                    add(wb, t / 32);
                    const auto at = L.where({0, 128 * c + row, col});
                    same &= at.size() == 1 && at[0].lane == 32 * W * c + t && at[0].reg == e;
                }
        CHECK(same);
        ++compared;
    }
    CHECK(compared > 0);
    WARN("Triton 3.6 two_ctas per-CTA layouts compared on Layout A: " << compared);
    // Layout B (cta_group::2, M = 128) is read back too, CTA c on rows 64c.. (the CTA base [64, 0]); the
    // sparse Layout C is refused with why and what to ask instead.
    const lstest::Run b = lstest::cli("layout -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16_2cta --operand D --tmem-load 32x32b --format linear");
    CHECK(b.status == 0);
    CHECK(b.out.find("\"warp\": [[32, 0], [0, 32], [64, 0]]") != std::string::npos);  // the CTA: the last warp basis
    const lstest::Run run = lstest::cli("layout -a sm_100a -i tcgen05_mma_sp_m128n64k32_f32_f16_2cta --operand D --tmem-load 32x32b");
    CHECK(run.status != 0);
    CHECK(run.err.find("Layout C") != std::string::npos);
    CHECK(run.err.find("ask the dense form") != std::string::npos);
    const lstest::Run g = lstest::cli("layout -a sm_100a -i tcgen05_mma_m256n64k16_f32_f16_2cta --operand D --tmem-load 32x32b --format gluon");
    // Gluon: each CTA's named layout (the two_ctas records above) and the pair's bases, the CTA a block basis.
    CHECK(g.status == 0);
    CHECK(g.out.find("TensorMemoryLayout(block=(128, 64), col_stride=1, two_ctas=True), num_warps=4, instr_variant=\"32x32b\")") !=
          std::string::npos);
    CHECK(g.out.find("warp_bases=[[32, 0], [64, 0]], block_bases=[[128, 0]], shape=[256, 64]") != std::string::npos);
    const lstest::Run gb = lstest::cli("layout -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16_2cta --operand D --tmem-load 32x32b --format gluon");
    CHECK(gb.status == 0);
    CHECK(gb.out.find("get_tmem_reg_layout(") == std::string::npos);  // Layout B: no Triton constructor
    CHECK(gb.out.find("block_bases=[[64, 0]]") != std::string::npos);
}

TEST_CASE("sm_120 sparse block-scaled mma.sp: the metadata is the sparse index operand K, the whole quad supplying it",
          "[blackwell][sm120][sparse]") {
    // PTX ISA §9.7.14.6: one 4-bit field (two 2-bit indices) per chunk of a row of A; a row of 16 x 4-bit
    // fields (m16n8k64 8-bit 2:4, m16n8k128 e2m1 pairwise 4:8) is 64 bits, held by the quad of groupID
    // row%8 together with row + 8: the 32 threads' 32-bit metadata registers hold 1024 bits, exactly
    // 16 rows x 64, so every thread supplies metadata and the sparsity selector is 0 (LLVM's NVVM
    // intrinsics: selector range [0, 1) for these types).
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = ls::Catalog::target("sm_120a");
    for (const char* name : {"mma_sp_m16n8k64_f32_e4m3_mxf8f6f4_ue8m0", "mma_sp_m16n8k64_f32_e2m1_f8f6f4",
                             "mma_sp_m16n8k128_f32_e2m1_mxf4nvf4_4x_ue4m3", "mma_sp_m16n8k128_f32_e2m1_mxf4_ue8m0"}) {
        INFO(name);
        const ls::Instruction& ins = cat.find_instruction(t, name);
        const auto ops = ls::operands_of(ins);
        REQUIRE(std::find(ops.begin(), ops.end(), ls::Operand::K) != ops.end());
        const ls::OperandLayout K = ls::layout_of(ins, t, ls::Operand::K, ls::resolve_modifiers(ins, t, ls::Modifiers{}));
        CHECK(K.rows() == 16);
        CHECK(K.cols() == ins.k);
        CHECK(K.regs() == 1);
        const int chunk = ins.k / 16;  // 4 (8-bit containers) or 8 (packed e2m1 pairs)
        std::set<std::pair<int, int>> fields;  // (thread, 4-bit field)
        bool in_quad = true, halves = true, chunk_shared = true;
        for (int r = 0; r < 16; ++r)
            for (int k = 0; k < ins.k; ++k) {
                const auto at = K.where({0, r, k});
                REQUIRE(at.size() == 1);
                in_quad &= at[0].lane / 4 == r % 8;
                halves &= at[0].bit_lo / 16 == r / 8 && at[0].bit_hi - at[0].bit_lo == 3;
                const auto first = K.where({0, r, k - k % chunk});
                chunk_shared &= first[0].lane == at[0].lane && first[0].bit_lo == at[0].bit_lo;
                if (k % chunk == 0) fields.insert({at[0].lane, at[0].bit_lo / 4});
            }
        CHECK(in_quad);
        CHECK(halves);
        CHECK(chunk_shared);
        CHECK(fields.size() == 32 * 8);  // every thread's 8 fields, each once
        // The kept values of a chunk sit in the same quad as its metadata (groupID = row % 8).
        const ls::OperandLayout A = ls::layout_of(ins, t, ls::Operand::A, ls::resolve_modifiers(ins, t, ls::Modifiers{}));
        CHECK(A.where({0, 11, 5})[0].lane / 4 == K.where({0, 11, 5})[0].lane / 4);
        CHECK(ls::layout_evidence(ins, ls::Operand::K, ls::resolve_modifiers(ins, t, ls::Modifiers{})).why.find(
                  "not confirmed on hardware") != std::string::npos);
    }
}

TEST_CASE("tcgen05: every --tmem-load export reads back equal with check, 8 warps and CTA pairs included", "[tcgen05][cli]") {
    // check reads Triton's 32-lane warps (and a pair's block basis, the CTA after the warps) into lanescope's one
    // list of threads: what layout --format linear / gluon writes must be what check compares equal.
    const std::string dir = (std::filesystem::temp_directory_path() / "lanescope-tmem-check").string();
    std::filesystem::create_directories(dir);
    const char* cases[] = {
        "-i tcgen05_mma_m128n64k16_f32_f16 --tmem-load 16x256b --num-warps 8",
        "-i tcgen05_mma_m64n64k16_f32_f16 --tmem-load 32x32b --num-warps 4",
        "-i tcgen05_mma_m256n64k16_f32_f16_2cta --tmem-load 32x32b --num-warps 4",
        "-i tcgen05_mma_m256n128k16_f32_f16_2cta --tmem-load 16x128b --num-warps 8",
        "-i tcgen05_mma_m128n64k16_f32_f16_2cta --tmem-load 32x32b --num-warps 4",
        "-i tcgen05_mma_ws_m64n128k16_f32_f16 --tmem-load 16x64b --num-warps 8",
        "-i tcgen05_mma_ws_m32n128k16_f32_f16 --tmem-load 32x32b --num-warps 4",
    };
    for (const char* c : cases)
        for (const char* format : {"linear", "gluon"}) {
            INFO(c << " --format " << format);
            const std::string args = std::string("-a sm_100a ") + c + " --operand D";
            const std::string file = dir + "/layout." + (std::string(format) == "gluon" ? "py" : "json");
            const lstest::Run out = lstest::cli("layout " + args + " --format " + format + " -o " + file);
            REQUIRE(out.status == 0);
            const lstest::Run chk = lstest::cli("check " + args + " --layout " + file);
            CHECK(chk.status == 0);
            CHECK(chk.out.rfind("equal:", 0) == 0);
        }
    std::filesystem::remove_all(dir);
}

TEST_CASE("JSON modifiers: sm_120's scale-factor selectors and the shared-memory descriptor options as given (docs/json.md)",
          "[tcgen05][json]") {
    // The values asked for come back under the CLI's names; those not given are null.
    const lstest::Run sf = lstest::cli("layout -a sm_120a -i mma_m16n8k64_f32_e2m1_mxf4_2x_ue8m0 --operand SB --sf-thread-b 3 "
                                       "--sf-byte-b 2 --format json");
    REQUIRE(sf.status == 0);
    const nlohmann::json m = nlohmann::json::parse(sf.out)["modifiers"];
    CHECK(m["sf_byte_b"] == 2);
    CHECK(m["sf_thread_b"] == 3);
    CHECK(m["sf_byte_a"] == 0);
    const lstest::Run wg = lstest::cli("layout -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --swizzle 64B --major MN --lbo 512 "
                                       "--format json");
    REQUIRE(wg.status == 0);
    const nlohmann::json w = nlohmann::json::parse(wg.out)["modifiers"];
    CHECK(w["swizzle"] == "64B");
    CHECK(w["major"] == "MN");
    CHECK(w["lbo"] == 512);
    CHECK(w["sbo"].is_null());
    CHECK(w["descriptor"].is_null());
    // A whole descriptor: its value, and the fields PTX's bit layout gives it (LBO bits 16-29, SBO 32-45, swizzle 62-63).
    const lstest::Run d = lstest::cli("layout -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --descriptor 0x4000004000010000 "
                                      "--format json");
    REQUIRE(d.status == 0);
    const nlohmann::json dm = nlohmann::json::parse(d.out)["modifiers"];
    CHECK(dm["descriptor"] == "0x4000004000010000");
    CHECK(dm["lbo"] == 16);     // field 1 << 4
    CHECK(dm["sbo"] == 1024);   // field 64 << 4
    CHECK(dm["swizzle"] == "128B");  // bits 62-63 = 1: wgmma's 128B
}
