// The layout readers (linear.hpp, check.hpp, files.hpp's read_file): Triton's
// own forms read back equal to Triton's own layouts (tests/data/triton, dumped
// from Triton 3.6.0), bounded work on hostile input with the limit named, and
// check's explanations of a difference.
#include "shell_run.hpp"
#include "triton_dump.hpp"

#include "lanescope/check.hpp"
#include "lanescope/files.hpp"
#include "lanescope/gluon.hpp"
#include "lanescope/linear.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <fstream>
#include <regex>
#include <sstream>
#include <sys/stat.h>

namespace {
namespace ls = lanescope;
using lstest::Run;
using lstest::cli;
std::string write(const std::string& name, const std::string& text) { return lstest::write_temp(name, text); }

using lstest::triton_records;

// Triton's LinearLayout::toString() (lib/Tools/LinearLayout.cpp), written here from its format:
// " - in=1 -> (a, b)\n   in=2 -> ...\n", " - in is a size 1 dimension\n", then the out dims.
std::string to_string_form(const nlohmann::json& rec, bool dim1_first) {
    std::string s = "\n";
    const std::pair<const char*, const char*> dims[] = {
        {"register", "reg_bases"}, {"lane", "lane_bases"}, {"warp", "warp_bases"}, {"block", "block_bases"}};
    for (const auto& [name, key] : dims) {
        const auto& b = rec[key];
        if (b.empty()) {
            s += std::string(" - ") + name + " is a size 1 dimension\n";
            continue;
        }
        for (size_t i = 0; i < b.size(); ++i) {
            int x = b[i][0], y = b[i][1];
            if (dim1_first) std::swap(x, y);
            s += std::string(i ? "   " : " - ") + name + "=" + std::to_string(1 << i) + " -> (" + std::to_string(x) + ", " +
                 std::to_string(y) + ")\n";
        }
    }
    const std::string d0 = "dim0 (size " + std::to_string(rec["shape"][0].get<int>()) + ")";
    const std::string d1 = "dim1 (size " + std::to_string(rec["shape"][1].get<int>()) + ")";
    return s + "where out dims are: [" + (dim1_first ? d1 + ", " + d0 : d0 + ", " + d1) + "]";
}

std::vector<std::pair<int, int>> bases_of(const nlohmann::json& b) {
    std::vector<std::pair<int, int>> v;
    for (const auto& x : b) v.push_back({x[0], x[1]});
    return v;
}

// key=value pairs of a Python call, as JSON (lists, ints, True/False).
nlohmann::json python_kwargs(const std::string& text) {
    nlohmann::json out = nlohmann::json::object();
    std::regex kv(R"((\w+)=(\[[^\]]*\]|True|False|-?\d+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kv); it != std::sregex_iterator(); ++it) {
        std::string v = (*it)[2];
        out[(*it)[1].str()] = v == "True" ? nlohmann::json(true) : v == "False" ? nlohmann::json(false) : nlohmann::json::parse(v);
    }
    return out;
}

}  // namespace

TEST_CASE("Triton's forms: every record of Triton 3.6's dump reads back with its own bases, as JSON and as toString() text") {
    const auto& recs = triton_records();
    REQUIRE(recs.size() > 10000);
    size_t read = 0;
    for (const auto& rec : recs) {
        if (rec.contains("error")) {
            CHECK_THROWS_WITH(ls::parse_linear(rec.dump(), "rec"), Catch::Contains("Triton's refusal"));
            continue;
        }
        INFO(rec.dump());
        const ls::LinearLayout J = ls::parse_linear(rec.dump(), "rec");
        CHECK(J.reg == bases_of(rec["reg_bases"]));
        CHECK(J.lane == bases_of(rec["lane_bases"]));
        CHECK(J.warp == bases_of(rec["warp_bases"]));
        CHECK(J.rows == rec["shape"][0]);
        CHECK(J.cols == rec["shape"][1]);
        CHECK(ls::parse_linear(to_string_form(rec, false), "text") == J);
        CHECK(ls::parse_linear(to_string_form(rec, true), "text reversed") == J);
        // Gluon's constructor, as printed for the layout, reads back the same.
        CHECK(ls::parse_linear("gl." + ls::render_distributed_linear(J, 64), "gluon") == J);
        ++read;
    }
    CHECK(read > 8000);  // 1,920 records are Triton's refusals
}

TEST_CASE("Triton's forms: toString() text with labels, comments, size-1 dims and the empty layout") {
    const std::string text = "finalLinearLayout: \n"
                             "// - register=1 -> (1, 0)\n"
                             "//   register=2 -> (2, 0)\n"
                             "// - lane=1 -> (0, 1)\n"
                             "// - warp is a size 1 dimension\n"
                             "// - block is a size 1 dimension\n"
                             "// where out dims are: [dim0 (size 4), dim1 (size 2)]\n";
    const ls::LinearLayout L = ls::parse_linear(text, "t");
    CHECK(L.reg == std::vector<std::pair<int, int>>{{1, 0}, {2, 0}});
    CHECK(L.lane == std::vector<std::pair<int, int>>{{0, 1}});
    CHECK(L.rows == 4);
    CHECK(L.cols == 2);
    const ls::LinearLayout E = ls::parse_linear("\n(empty layout with out-dims [dim0 (size 1), dim1 (size 1)])", "e");
    CHECK(E.places() == 1);
    CHECK(E.rows == 1);
    for (const char* bad : {"\n(empty layout)", " - register=1 -> (1, 0)\n   register=4 -> (2, 0)\nwhere out dims are: [dim0 (size 4), dim1 (size 1)]",
                            " - offset=1 -> (1, 0)\nwhere out dims are: [dim0 (size 4), dim1 (size 1)]",
                            " - register=1 -> (1, 0)\nwhere out dims are: [dim0 (size 4)]",
                            " - register=1 -> (1, 0, 0)\nwhere out dims are: [dim0 (size 4), dim1 (size 1), dim2 (size 1)]",
                            " - register=1 -> (1, 0)\n - register=1 -> (1, 0)\nwhere out dims are: [dim0 (size 4), dim1 (size 1)]",
                            " - register=1 -> (1, 0)\n"})
        CHECK_THROWS_AS(ls::parse_linear(bad, "bad"), ls::Error);
}

TEST_CASE("Triton's forms: lanescope's tiles equal Triton's own layouts, and --format gluon names Triton's parameters") {
    const auto& cat = ls::Catalog::builtin();
    const auto& recs = triton_records();
    size_t compared = 0, named = 0;
    for (const auto& rec : recs) {
        if (rec.contains("error")) continue;
        const auto& p = rec["params"];
        const std::string kind = rec["layout"];
        const bool mfma = kind.rfind("mfma", 0) == 0, dot = kind.size() > 4 && kind.substr(kind.size() - 4) == "_dot";
        const int version = p["version"];
        const char* arch = mfma ? (version == 3 ? "gfx942" : version == 4 ? "gfx950" : nullptr)
                                : (version == 1 ? "gfx1100" : version == 2 ? "gfx1200" : nullptr);
        if (!arch) continue;
        const ls::Target& t = cat.find_target(arch);
        // Triton's MFMA instr_shape K grows with kWidth (32x32x16 at kWidth 8 is two 32x32x8 issues on gfx942):
        // the instruction is the one of that K, else of K/2, K/4.
        const ls::Instruction* ins = nullptr;
        for (int div : {1, 2, 4}) {
            const std::string name = std::string(mfma ? "v_mfma_f32_" : "v_wmma_f32_") +
                                     std::to_string(p["instr_shape"][0].get<int>()) + "x" +
                                     std::to_string(p["instr_shape"][1].get<int>()) + "x" +
                                     std::to_string(p["instr_shape"][2].get<int>() / div) + "_f16";
            try {
                ins = &cat.find_instruction(t, name);
                break;
            } catch (const ls::Error&) {
            }
            if (!mfma) break;
        }
        if (!ins) continue;
        const ls::Operand op = !dot ? ls::Operand::C : p["operand_index"] == 0 ? ls::Operand::A : ls::Operand::B;
        const auto mods = ls::resolve_modifiers(*ins, t, ls::Modifiers{});
        ls::TileParams tp;
        tp.waves_m = p["warps_per_cta"][0];
        tp.waves_n = p["warps_per_cta"][1];
        tp.tiles_m = p["tiles_per_warp"][0];
        tp.tiles_n = p["tiles_per_warp"][1];
        tp.transposed = p["transposed"];
        if (dot) tp.k_width = p["k_width"];
        const int rows = rec["shape"][0], cols = rec["shape"][1];
        const int cta_m = ins->m * tp.tiles_m * tp.waves_m, cta_n = ins->n * tp.tiles_n * tp.waves_n;
        if (op == ls::Operand::C) tp.m = rows, tp.n = cols;
        else if (op == ls::Operand::A) tp.m = rows, tp.n = cta_n, tp.k = cols;
        else tp.m = cta_m, tp.n = cols, tp.k = rows;
        std::unique_ptr<ls::TileLayout> made;
        try {
            made = std::make_unique<ls::TileLayout>(*ins, t, op, mods, tp);
        } catch (const ls::Error&) {
            continue;  // a kWidth this instruction does not take
        }
        const ls::TileLayout& tile = *made;
        const ls::GluonForm g = ls::gluon_of(tile, *ins, t);
        INFO(rec.dump() << "\n" << g.named);
        const ls::CheckResult r = ls::check_layout(tile, ls::parse_layout_text(rec.dump(), "triton"));
        ++compared;
        if (!r.equal) continue;  // the tile model's business (tests of tiles); here: the named form of equal layouts
        ++named;
        // The named constructor's parameters are the dump's: Triton built these bases from them.
        const nlohmann::json kw = python_kwargs(g.named);
        for (const auto& [key, value] : p.items()) CHECK(kw[key] == value);
        CHECK(g.named.find(mfma ? "AMDMFMALayout(" : "AMDWMMALayout(") != std::string::npos);
        CHECK((g.named.find("DotOperandLayout(") != std::string::npos) == dot);
        // ... and the DistributedLinearLayout printed reads back equal to lanescope's and to Triton's bases.
        CHECK(ls::check_layout(tile, ls::parse_layout_text(ls::render_gluon(g, "t"), "gluon")).equal);
        CHECK(ls::parse_linear(g.linear, "gluon") == ls::parse_linear(rec.dump(), "triton"));
    }
    WARN("records compared: " << compared << ", equal with the named form checked: " << named);
    CHECK(named > 200);
}

TEST_CASE("layout --format gluon: the DistributedLinearLayout printed reads back equal to lanescope's layout") {
    for (const std::string q : {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 2x2 --tiles-per-wave 2x1 --shape 128x64x32",
                                "-a gfx942 -i v_mfma_f32_16x16x16_f16 --operand C --waves 2x2",
                                "-a gfx1200 -i v_wmma_f32_16x16x16_f16 --operand B --waves 1x2 --shape 32x64x32",
                                "-a sm_90 -i wgmma_m64n64k16_f32_f16 --operand D --waves 2x1",
                                "-a sm_90 -i mma_m16n8k16_f32_f16 --operand A --waves 2x2",
                                "-a gfx950 -i v_mfma_f32_16x16x32_bf16 --operand B"}) {
        INFO(q);
        Run g = cli("layout " + q + " -f gluon");
        REQUIRE(g.status == 0);
        CHECK(g.out.find("from triton.experimental.gluon import language as gl") != std::string::npos);
        CHECK(g.out.find("linear = gl.DistributedLinearLayout(reg_bases=") != std::string::npos);
        std::string file = write("lanescope_gluon.py", g.out);
        Run c = cli("check " + q + " --layout " + file);
        CHECK(c.status == 0);
        CHECK(c.out.rfind("equal:", 0) == 0);
        std::filesystem::remove(file);
    }
    // Measured in Triton 3.6 (docs/verification/2026-12-01-h200-gluon.md): NVMMADistributedLayout(version=[3, 0],
    // warps_per_cta=[8, 2], instr_shape=[16, 8, 16]) at 128x16 has warp bases [16,0] [32,0] [64,0] [0,8] (warpgroups
    // along M first); lanescope numbers waves wm * WN + wn: [16,0] [32,0] [0,8] [64,0]. No named form may be printed.
    Run wg = cli("layout -a sm_90 -i wgmma_m64n8k16_f32_f16 --operand C --waves 2x2 --shape 128x16x16 -f gluon");
    REQUIRE(wg.status == 0);
    CHECK(wg.out.find("\nlayout = ") == std::string::npos);
    CHECK(wg.out.find("warp_bases=[[16, 0], [32, 0], [0, 8], [64, 0]]") != std::string::npos);
    CHECK(wg.out.find("along M first") != std::string::npos);
    // With warpgroups along M only, Triton 3.6 gives the same bases: the named form is printed.
    Run wg_m = cli("layout -a sm_90 -i wgmma_m64n8k16_f32_f16 --operand C --waves 2x1 --shape 128x8x16 -f gluon");
    CHECK(wg_m.out.find("layout = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1]") != std::string::npos);
    // A layout with no named form still gets its DistributedLinearLayout; a non-linear one says why.
    Run k = cli("layout -a gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand C -f gluon");
    CHECK(k.status != 0);
    Run blgp = cli("layout -a gfx908 -i v_mfma_f32_32x32x2f32 --operand B --blgp 3 -f gluon");
    CHECK(blgp.status == 1);
    CHECK(blgp.err.find("not linear") != std::string::npos);
}

TEST_CASE("readers: hostile input is refused up front, naming what is legal") {
    struct Case {
        std::string text, says;
    };
    auto bases = [](const char* key, int n, int r, int c) {
        std::string s = std::string("\"") + key + "\": [";
        for (int i = 0; i < n; ++i) s += (i ? ", [" : "[") + std::to_string(r) + ", " + std::to_string(c) + "]";
        return s + "]";
    };
    const std::vector<Case> cases = {
        {"{" + bases("register", 20, 0, 0) + ", " + bases("lane", 10, 0, 0) + ", \"shape\": [1024, 1024]}", "at most 7"},
        {"{" + bases("register", 64, 0, 1) + ", \"lane\": [], \"shape\": [2, 2]}", "too many bases in \"register\" (64); at most 24"},
        {"{" + bases("register", 17, 0, 0) + ", " + bases("lane", 6, 0, 0) + ", " + bases("warp", 2, 0, 0) + ", \"shape\": [2, 2]}",
         "too many bases (25"},
        {"{" + bases("reg_bases", 20, 0, 0) + ", " + bases("lane_bases", 6, 0, 0) + ", \"shape\": [2, 2]}", "at most 24 in all"},
        {"{\"register\": [[0, 1]], \"lane\": [[1, 0]], \"shape\": [16384, 16384]}", "at most 16777216"},
        {"{\"register\": [[0, 1]], \"lane\": [[1, 0]], \"shape\": [65536, 65536]}", "at most 16777216"},
        {"{\"register\": [[0, 1]], \"lane\": [[1, 0]], \"shape\": [99999999999999999999, 2]}", "out of range"},
        // One block basis is a tcgen05 CTA pair (the CTA after the warps); more are CTAs lanescope does not lay out.
        {"{\"register\": [[0, 1]], \"lane\": [[1, 0]], \"block\": [[0, 0], [1, 0]], \"shape\": [2, 2]}",
         "legal: none (one CTA) or one"},
        {"{\"register\": [[0, 1]], \"reg_bases\": [[1, 0]], \"shape\": [2, 2]}", "use one set"},
        {"{\"register\": [[0, 1]], \"lanes\": [[1, 0]], \"shape\": [2, 2]}", "unknown key \"lanes\""},
        {"{\"register\": [[0, 1, 0]], \"lane\": [], \"shape\": [2, 2]}", "two-dimensional"},
        {std::string(100, '[') + std::string(100, ']'), "nested more than 64"},  // not "a list of layouts": its fault is the nesting
        {"{\"x\": " + std::string(100, '[') + std::string(100, ']') + "}", "nested more than 64"},
        {"{\"entries\": [{\"row\": 2147483648, \"col\": 0, \"lane\": 0, \"reg\": 0, \"bit_lo\": 0, \"bit_hi\": 31}]}",
         "from 0 to 16777215"},
        {"{\"operand\": 5, \"entries\": []}", "\"operand\" must be a string"},
        {"row,col,lane,reg,bit_lo,bit_hi\n0,0,0,0,0,99\n", "from 0 to 63"},
        {"gl.DistributedLinearLayout(reg_bases=[[0, 1]], lanes=[], shape=[2, 2])", "unknown argument lanes"},
    };
    const std::string q = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C";
    for (const auto& c : cases) {
        std::string file = write("lanescope_hostile", c.text);
        for (const std::string cmd : {"check " + q + " --layout " + file, "layout --linear " + file}) {
            if (cmd[0] == 'l' && (c.text.find("entries") != std::string::npos || c.text.find("row,") == 0 ||
                                  c.text.find("[[[[") != std::string::npos))
                continue;  // check's forms only
            Run r = cli(cmd);
            INFO(cmd << "\n" << c.text.substr(0, 200) << "\n" << r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find(c.says) != std::string::npos);
            CHECK(r.err.find("internal error") == std::string::npos);
        }
        std::filesystem::remove(file);
    }
    // 8 MB of zeros: in "entries" refused at the first, elsewhere skipped without being kept.
    std::string zeros;
    for (int i = 0; i < 4000000; ++i) zeros += i ? ",0" : "0";
    std::string file = write("lanescope_zeros", "{\"entries\": [" + zeros + "]}");
    Run r = cli("check " + q + " --layout " + file);
    CHECK(r.status == 1);
    CHECK(r.err.find("entries[0] must be an object") != std::string::npos);
    file = write("lanescope_zeros", "{\"junk\": [" + zeros + "], \"entries\": []}");
    CHECK(cli("check " + q + " --layout " + file).status == 5);  // read; every element missing
    std::filesystem::remove(file);
}

TEST_CASE("readers: what is not a regular file is named, and read only within the limit") {
    const std::string q = "check -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C --layout ";
    auto dir = lstest::temp_path("lanescope_dir_input");
    std::filesystem::create_directories(dir);
    Run d = cli(q + dir.string());
    CHECK(d.status == 1);
    CHECK(d.err.find("it is a directory") != std::string::npos);
    Run z = cli(q + "/dev/zero");
    CHECK(z.status == 1);
    CHECK(z.err.find("character device with more bytes than the input limit of 64 MiB") != std::string::npos);
    Run u = cli("layout --linear /dev/urandom");
    CHECK(u.status == 1);
    CHECK(u.err.find("64 MiB") != std::string::npos);
    Run m = cli(q + "/proc/self/mem");
    CHECK(m.status == 1);
    CHECK(m.err.find("internal error") == std::string::npos);
    CHECK(m.err.find("/proc/self/mem") != std::string::npos);
    auto fifo = lstest::temp_path("lanescope_fifo_input");
    std::filesystem::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    Run f = cli(q + fifo.string());  // no writer: never waits
    CHECK(f.status == 1);
    CHECK(f.err.find("FIFO and gave no bytes") != std::string::npos);
    // With a writer the FIFO is read to its end. The writer must hold the FIFO open first (a reader
    // that finds none gives up at once, as above): it is started a moment before, and asked again
    // where the reader still came first on a loaded machine; `timeout` ends a writer left waiting.
    Run fw;
    for (int attempt = 0; attempt < 5; ++attempt) {
        fw = lstest::run_command("(timeout 20 sh -c '" + std::string(LANESCOPE_CLI) +
                                 " layout -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C -f linear > " + fifo.string() +
                                 "' >/dev/null 2>&1 &); sleep 0.2; " + LANESCOPE_CLI + " " + q + fifo.string());
        if (fw.err.find("gave no bytes") == std::string::npos) break;
        lstest::run_command("timeout 5 cat " + fifo.string() + " > /dev/null");  // the writer left waiting: let it finish
    }
    INFO(fw.err);
    CHECK(fw.status == 0);
    std::filesystem::remove(fifo);
    Run n = cli(q + "/nonexistent/x.json");
    CHECK(n.err.find("no such file") != std::string::npos);
    CHECK_THROWS_WITH(ls::files::read_file("/dev/zero", 1000), Catch::Contains("more bytes than the input limit"));
}

TEST_CASE("readers: a UTF-8 byte-order mark is skipped in every form") {
    const std::string q = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C";
    for (const char* form : {"json", "csv", "linear", "gluon"}) {
        Run out = cli("layout " + q + " -f " + form);
        REQUIRE(out.status == 0);
        std::string file = write(std::string("lanescope_bom.") + form, "\xEF\xBB\xBF" + out.out);
        Run r = cli("check " + q + " --layout " + file);
        INFO(form << ": " << r.err);
        CHECK(r.status == 0);
        std::filesystem::remove(file);
    }
}

TEST_CASE("check explains a difference in the user's terms: registers, lanes, transposed, K permuted, alternatives") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    const auto mods = ls::resolve_modifiers(ins, t, ls::Modifiers{});
    ls::TileLayout a(ins, t, ls::Operand::A, mods, ls::TileParams{2, 2, 1, 1, 0, 0, 16});
    const ls::LinearLayout L = *ls::to_linear(a).layout;
    auto given = [](const ls::LinearLayout& x) {
        ls::GivenLayout g;
        g.linear = true;
        g.linear_layout = x;
        return g;
    };
    // Two register bits swapped: your register i is lanescope's with those bits swapped.
    ls::LinearLayout regs = L;
    std::swap(regs.reg[0], regs.reg[1]);
    auto r1 = ls::check_layout(a, given(regs));
    CHECK_FALSE(r1.equal);
    CHECK(r1.explanation.rfind("registers permuted", 0) == 0);
    CHECK(r1.explanation.find("i1 -> i2") != std::string::npos);  // index 1 (bit 0) holds what lanescope's index 2 holds
    ls::LinearLayout lanes = L;
    std::swap(lanes.lane[0], lanes.lane[3]);
    auto r2 = ls::check_layout(a, given(lanes));
    CHECK(r2.explanation.rfind("lanes permuted", 0) == 0);
    CHECK(r2.explanation.find("L1 -> L8") != std::string::npos);
    // K bits 1 and 2 swapped everywhere: a K permutation (k 2 <-> 4, 3 <-> 5, ...), rows unchanged.
    ls::LinearLayout kperm = L;
    for (auto* v : {&kperm.reg, &kperm.lane, &kperm.warp})
        for (auto& b : *v) {
            const int c = b.second, b1 = c >> 1 & 1, b2 = c >> 2 & 1;
            b.second = (c & ~6) | b1 << 2 | b2 << 1;
        }
    auto r3 = ls::check_layout(a, given(kperm));
    CHECK(r3.explanation.find("K permuted") != std::string::npos);
    CHECK(r3.explanation.find("D = A x B is unchanged") != std::string::npos);
    CHECK(r3.explanation.find("k2 -> k4") != std::string::npos);
    // Transposed: C of a square tile with every basis' (row, col) swapped.
    ls::TileLayout c(ins, t, ls::Operand::C, mods, ls::TileParams{});
    ls::LinearLayout T = *ls::to_linear(c).layout;
    for (auto* v : {&T.reg, &T.lane, &T.warp})
        for (auto& b : *v) std::swap(b.first, b.second);
    auto r4 = ls::check_layout(c, given(T));
    CHECK(r4.explanation.rfind("your layout is lanescope's transposed", 0) == 0);
    // An alternative lanescope layout that matches is named first.
    ls::TileLayout other(ins, t, ls::Operand::C, mods, ls::TileParams{2, 1, 1, 1, 128, 32, 0});
    ls::TileLayout wider(ins, t, ls::Operand::C, mods, ls::TileParams{2, 1, 2, 1, 128, 32, 0});
    auto r5 = ls::check_layout(other, given(*ls::to_linear(wider).layout), {{"tiles per wave 2x1", &wider}});
    CHECK_FALSE(r5.equal);
    CHECK(r5.explanation == "your layout equals lanescope's with tiles per wave 2x1");
    // In the CLI: the explanation comes before the element list.
    std::string file = write("lanescope_explain.json", ls::render_linear(regs));
    Run r = cli("check -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 2x2 --shape 64x64x16 --layout " + file);
    CHECK(r.status == 5);
    const size_t ex = r.out.find("explanation: registers permuted"), list = r.out.find("\nelement");
    CHECK(ex != std::string::npos);
    CHECK(list != std::string::npos);
    CHECK(ex < list);
    std::filesystem::remove(file);
}

TEST_CASE("readers: block bases are read in every form (Triton's toString() too) and counted apart") {
    // One CTA of a pair is one more wave after the warps, in Triton's JSON, Gluon's constructor and
    // LinearLayout::toString() ("block=1 -> (2, 0)") alike; block_bases says how many there are.
    const char* forms[] = {
        R"({"reg_bases": [[0, 1]], "lane_bases": [[1, 0]], "warp_bases": [[0, 0]], "block_bases": [[2, 0]], "shape": [4, 2]})",
        "DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0]], warp_bases=[[0, 0]], block_bases=[[2, 0]], "
        "shape=[4, 2])",
        " - register=1 -> (0, 1)\n - lane=1 -> (1, 0)\n - warp=1 -> (0, 0)\n - block=1 -> (2, 0)\n"
        "where out dims are: [dim0 (size 4), dim1 (size 2)]"};
    for (const char* text : forms) {
        INFO(text);
        const lanescope::LinearLayout L = lanescope::parse_linear(text, "test");
        CHECK(L.warp == std::vector<std::pair<int, int>>{{0, 0}, {2, 0}});
        CHECK(L.block_bases == 1);
    }
}
