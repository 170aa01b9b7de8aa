// lanescope-cli as a user and a script see it: the JSON contract (docs/json.md),
// exit statuses, messages on stderr, nothing half-written.
#include "helpers.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace {
using lstest::Run;
using lstest::temp_path;
Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }
}  // namespace

TEST_CASE("layout --format json holds the documented contract") {
    Run r = cli("layout --arch cdna3 --instruction v_mfma_f32_32x32x8_f16 --operand C --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["arch"] == "cdna3");
    CHECK(j["instruction"] == "v_mfma_f32_32x32x8_f16");
    CHECK(j["operand"] == "C");
    CHECK(j["blocks"] == 1);
    REQUIRE(j["entries"].size() == 32 * 32);
    for (const auto& e : j["entries"])
        for (const char* key : {"block", "row", "col", "lane", "reg", "bit_lo", "bit_hi"}) REQUIRE(e[key].is_number_integer());
    // Spot-check against the seed's 32x32 table: rows 4-7 sit in lanes 32-63, VGPRs 0-3.
    bool found = false;
    for (const auto& e : j["entries"])
        if (e["row"] == 5 && e["col"] == 7) found = e["lane"] == 39 && e["reg"] == 1;
    CHECK(found);
}

TEST_CASE("every operand of a sparse and a scaled instruction renders as JSON") {
    for (const char* q : {"--arch gfx942 -i v_smfmac_f32_16x16x32_f16", "--arch gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --cbsz 2 --blgp 4",
                          "--arch gfx1201 -i swmmac_f32_16x16x32_bf16_w64"}) {
        Run r = cli(std::string("layout ") + q + " --operand all --format json");
        INFO(q << "\n" << r.err);
        REQUIRE(r.status == 0);
        auto j = nlohmann::json::parse(r.out);
        REQUIRE(j.is_array());
        CHECK(j.size() >= 5);
    }
    Run r = cli("layout --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand D --view registers --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["slots"].size() == 64 * 4);
}

TEST_CASE("info --format json gives the facts") {
    Run r = cli("info --arch gfx942 --instruction v_mfma_f32_16x16x8_xf32 --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["opcode"] == 62);
    CHECK(j["encoding"] == "0xD3BE0000");
    CHECK(j["m"] == 16);
    CHECK(j["k"] == 8);
    CHECK(j["registers"]["A"] == 2);
    CHECK(j["registers"]["C"] == 4);
    CHECK(j["ops"] == 4096);
}

TEST_CASE("bad input: clear message, non-zero exit, nothing on stdout") {
    Run r = cli("layout --arch cdna3 --instruction v_mfma_f32_32x32x8_f61");
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("did you mean 'v_mfma_f32_32x32x8_f16'") != std::string::npos);
    r = cli("layout --arch cdna9 --instruction v_mfma_f32_32x32x8_f16");
    CHECK(r.status == 1);
    CHECK(r.err.find("unknown architecture") != std::string::npos);
    r = cli("layout --arch cdna3 --instruction v_mfma_f32_32x32x1_2b_f32 --cbsz 3");
    CHECK(r.status == 1);
    CHECK(r.err.find("legal: 0..1") != std::string::npos);
    r = cli("where --arch cdna3 --instruction v_mfma_f32_32x32x8_f16 --operand A --row 40 --col 0");
    CHECK(r.status == 1);
    CHECK(r.err.find("legal: block 0..0, row 0..31") != std::string::npos);
    r = cli("layout --arch gfx1100 -i wmma_f32_16x16x16_f16_w32 --wave 64");
    CHECK(r.status == 1);
    CHECK(r.err.find("contradicts") != std::string::npos);
    r = cli("layout --operand Q --arch cdna3 --instruction v_mfma_f32_32x32x8_f16");
    CHECK(r.status == 1);
    CHECK(r.err.find("legal for") != std::string::npos);
    r = cli("layout --format yaml --arch cdna3 --instruction v_mfma_f32_32x32x8_f16");
    CHECK(r.status == 1);
    r = cli("frobnicate");
    CHECK(r.status == 2);
    r = cli("--catalog /nonexistent/catalog.txt list");
    CHECK(r.status == 1);
    CHECK(r.err.find("cannot read catalog") != std::string::npos);
}

TEST_CASE("an unwritable --out path fails cleanly and leaves nothing behind") {
    namespace fs = std::filesystem;
    fs::path dir = temp_path("lanescope_cli_out_test");
    fs::remove_all(dir);
    Run r = cli("layout --out " + (dir / "missing" / "x.json").string() + " --format json --arch cdna3 --instruction v_mfma_f32_32x32x8_f16");
    CHECK(r.status == 1);
    CHECK(r.err.find("cannot write") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "missing"));
    fs::create_directories(dir);
    r = cli("layout --out " + (dir / "ok.json").string() + " --format json --arch cdna3 --instruction v_mfma_f32_32x32x8_f16");
    CHECK(r.status == 0);
    CHECK(nlohmann::json::parse(std::ifstream(dir / "ok.json"))["operand"] == "A");
    size_t files = 0;
    for (auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
    CHECK(files == 1);  // no temporary left over
    fs::remove_all(dir);
}

TEST_CASE("a broken catalog file is reported with its line") {
    namespace fs = std::filesystem;
    fs::path f = temp_path("lanescope_broken_catalog") += ".txt";
    std::ofstream(f) << "# broken\ncdna3 | mfma_x | v_mfma_x | - | mfma | 32x32 | 1 | f32,f32,f32 | 40 | 64 | a,b,c>d | - | x | y\n";
    Run r = cli("--catalog " + f.string() + " list");
    CHECK(r.status == 1);
    CHECK(r.err.find(":2:") != std::string::npos);
    CHECK(r.err.find("MxNxK") != std::string::npos);
    fs::remove(f);
}

TEST_CASE("info JSON carries mnemonic, wave_size and gprs, where answers a whole row or column") {
    Run r = cli("info --arch gfx1100 --instruction v_wmma_f32_16x16x16_f16 --wave 64 --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["mnemonic"] == "v_wmma_f32_16x16x16_f16");
    CHECK(j["wave_size"] == 64);
    // RDNA3 wave64: A holds 16 f16 per lane (8 VGPRs, seed S1), C/D 8 rows over 4 lane groups (4 VGPRs).
    CHECK(j["gprs"]["A"] == 8);
    CHECK(j["gprs"]["D"] == 4);
    CHECK(j["gprs"] == j["registers"]);

    // Row 3 of D (16x16): 16 elements, one per column; column 5: 16, one per row.
    r = cli("where --arch gfx1100 --instruction v_wmma_f32_16x16x16_f16 --operand D --row 3 --format json");
    REQUIRE(r.status == 0);
    j = nlohmann::json::parse(r.out);
    REQUIRE(j.size() == 16);
    for (size_t c = 0; c < 16; ++c) {
        CHECK(j[c]["row"] == 3);
        CHECK(j[c]["col"] == c);
        CHECK(j[c]["locations"].size() == 1);
    }
    r = cli("where --arch gfx1100 --instruction v_wmma_f32_16x16x16_f16 --operand D --col 5 --format csv");
    REQUIRE(r.status == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 17);  // header + 16 rows
    // The single-element answer is unchanged.
    r = cli("where --arch gfx1100 --instruction v_wmma_f32_16x16x16_f16 --operand D --row 3 --col 5 --format json");
    REQUIRE(r.status == 0);
    CHECK(nlohmann::json::parse(r.out)["col"] == 5);
}

TEST_CASE("every subcommand takes -o as its output, and --color and --color-by are one option") {
    namespace fs = std::filesystem;
    const fs::path dir = temp_path("lanescope_cli_o");
    fs::create_directories(dir);
    for (const std::string sub : {"info", "layout --operand C", "where --row 0 --col 0", "which --reg 0 --lane 0",
                                  "trace --row 0 --col 0"}) {
        const fs::path f = dir / "out.txt";
        fs::remove(f);
        Run r = cli(sub + " --arch gfx942 --instruction v_mfma_f32_16x16x16_f16 -o " + f.string());
        CHECK(r.status == 0);
        CHECK(r.out.empty());
        CHECK(fs::file_size(f) > 0);
    }
    Run a = cli("figure --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand D --color register -o -");
    Run b = cli("figure --arch gfx942 -i v_mfma_f32_16x16x16_f16 --operand D --color-by register -o -");
    CHECK(a.status == 0);
    CHECK(a.out == b.out);
    fs::remove_all(dir);
}

TEST_CASE("info and list name the compiler witness and the whole encoding of multi-word instructions") {
    // gfx950's v_mfma_scale_*: llvm-objdump-22 shows D3AC.... (v_mfma_ld_scale_b32) then D3AE....
    Run r = cli("info -a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --format json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["compiler"] == "clang-22");
    CHECK(j["encoding"] == "0xD3AE0000");  // the MFMA word, as before
    REQUIRE(j["encoding_words"].size() == 2);
    CHECK(j["encoding_words"][0]["role"] == "prefix");
    CHECK(j["encoding_words"][0]["word"] == "0xD3AC0000");
    CHECK(j["encoding_words"][0]["mnemonic"] == "v_mfma_ld_scale_b32");
    CHECK(j["encoding_words"][1]["role"] == "matrix");
    CHECK(j["encoding_words"][1]["dword"] == 2);
    CHECK(j["scale_operands"] == true);
    CHECK(j["opcode_bits"] == 7);
    // The unscaled form: its own row, one word, no scales; says how the compiler picks it.
    Run u = cli("info -a gfx950 -i v_mfma_f32_32x32x64_f8f6f4 --format json");
    REQUIRE(u.status == 0);
    const auto ju = nlohmann::json::parse(u.out);
    CHECK(ju["instruction"] == "v_mfma_f32_32x32x64_f8f6f4");
    CHECK(ju["encoding_words"].size() == 1);
    CHECK(ju["scale_operands"] == false);
    CHECK(ju["registers"].count("SA") == 0);
    CHECK(ju["selected_by"].get<std::string>().find("literal 0") != std::string::npos);
    Run text = cli("info -a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4");
    CHECK(text.out.find("dwords 0-1: v_mfma_ld_scale_b32 0xD3AC0000") != std::string::npos);
    auto witness = [](const std::string& out) {  // the value of the "compiler witness" row
        const size_t at = out.find("compiler witness");
        if (at == std::string::npos) return std::string();
        const std::string line = out.substr(at, out.find('\n', at) - at);
        return line.substr(line.find_last_of(' ') + 1);
    };
    CHECK(witness(text.out) == "clang-22");
    // gfx1250: 8-bit opcode field; gfx940: clang-19 (LLVM 22 removed it).
    CHECK(nlohmann::json::parse(cli("info -a gfx1250 -i v_wmma_f16_16x16x128_fp8_fp8 --format json").out)["opcode_bits"] == 8);
    CHECK(witness(cli("info -a gfx940 -i v_mfma_f32_32x32x8_f16").out) == "clang-19");
    const auto list = nlohmann::json::parse(cli("list --format json").out);
    for (const auto& t : list["targets"]) {
        INFO(t["target"]);
        CHECK(t["compiler"] == (t["arch"].get<std::string>().rfind("sm_", 0) == 0 ? "" : "clang-22"));
    }
    CHECK(cli("list --arch gfx941").out.find("compiler witness: clang-19") != std::string::npos);
}

// Only the invoked subcommand's options are set up (start-up time); --help still
// lists every subcommand, and each subcommand's --help its own options.
TEST_CASE("top-level help lists every subcommand; SUB --help its options; a user catalog is still checked on a query") {
    Run top = cli("--help");
    REQUIRE(top.status == 0);
    for (const char* sub : {"list", "info", "layout", "where", "which", "trace", "header", "check", "export", "bench", "load"})
        CHECK(top.out.find(std::string("  ") + sub + " ") != std::string::npos);
    CHECK(top.out.find("where one element lives") != std::string::npos);
    CHECK(top.out.find("--cbsz") == std::string::npos);  // subcommands' options are theirs
    Run where = cli("where --help");
    REQUIRE(where.status == 0);
    for (const char* opt : {"--arch", "--instruction", "--operand", "--row", "--col", "--block", "--cbsz", "--waves", "--format"})
        CHECK(where.out.find(opt) != std::string::npos);
    Run which = cli("--catalog=/nonexistent which --help");
    REQUIRE(which.status == 0);
    for (const char* opt : {"--reg", "--lane", "--of-wave", "--wave-size", "--opsel"}) CHECK(which.out.find(opt) != std::string::npos);
    Run bench = cli("bench --help");
    CHECK(bench.out.find("--runs") != std::string::npos);
    // An option of another subcommand is refused, as before.
    Run wrong = cli("list --arch gfx942 --row 3");
    CHECK(wrong.status == 2);
    CHECK(wrong.err.find("--row") != std::string::npos);

    namespace fs = std::filesystem;
    fs::path f = temp_path("lanescope_startup_catalog") += ".txt";
    std::ofstream(f) << "cdna3 | mfma_f32_32x32x8f16 | v_mfma_f32_32x32x8_f16 | - | mfma | 32x32x8 | 2 | f16,f16,f32 | 54 | 64 | "
                        "v4h,v4h,v16f>v16f | - | - | src\n";
    Run bad = cli("--catalog " + f.string() + " where -a cdna3 -i v_mfma_f32_32x32x8_f16 --row 0 --col 0");
    CHECK(bad.status == 1);
    CHECK(bad.err.find(":1:") != std::string::npos);  // blocks 2 with 16 VGPRs of C: the formula check refuses it
    fs::remove(f);
}

TEST_CASE("sm80 and sm90a (no underscore) name sm_80 and sm_90a") {
    Run a = cli("where -a sm80 -i mma_m16n8k16_f32_f16 --operand A --row 3 --col 5");
    Run b = cli("where -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --row 3 --col 5");
    REQUIRE(a.status == 0);
    CHECK(a.out == b.out);
    Run c = cli("info -a sm90a -i wgmma_m64n64k16_f32_f16 --format json");
    REQUIRE(c.status == 0);
    CHECK(nlohmann::json::parse(c.out)["arch"] == "sm_90a");
}

// Audit A (helper h-cli): what the output says, checked against independent reasoning.
TEST_CASE("load, load --sweep and header name the tile's resolved shape, never 0x0x0") {
    // v_mfma_f32_32x32x8_f16 is 32x32x8; a 2x2 wave grid of one tile each covers 64x64, K one instruction's 8.
    const std::string base = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --waves 2x2";
    for (const std::string& cmd : {"load " + base, "load " + base + " --sweep", "header " + base + " -o -",
                                   "load " + base + " --tiles-per-wave 2x1"}) {
        Run r = cli(cmd);
        INFO(cmd << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(r.out.find("0x0x0") == std::string::npos);
        const bool rm2 = cmd.find("2x1") != std::string::npos;  // 32 x 2 tiles x 2 waves = 128 along M
        CHECK(r.out.find(rm2 ? "shape 128x64x8" : "shape 64x64x8") != std::string::npos);
    }
    Run j = cli("load " + base + " --sweep --format json");
    REQUIRE(j.status == 0);
    CHECK(j.out.find("\"tile\": \"waves 2x2, tiles per wave 1x1, shape 64x64x8\"") != std::string::npos);
    // A shape given is kept as given.
    Run g = cli("load " + base + " --shape 128x64x16");
    REQUIRE(g.status == 0);
    CHECK(g.out.find("shape 128x64x16") != std::string::npos);
}

TEST_CASE("trace and load say how sure a gfx1250 layout is, in the words layout and where use") {
    const std::string ins = "-a gfx1250 -i v_wmma_f32_16x16x128_fp8_fp8";
    for (const std::string& cmd : {"trace " + ins + " --row 1 --col 1", "trace " + ins + " --row 1 --col 1 --waves 2x2",
                                   "load " + ins + " --operand A", "load " + ins + " --operand A --sweep"}) {
        Run r = cli(cmd);
        INFO(cmd << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(r.out.find("Confidence: disputed") != std::string::npos);
        Run js = cli(cmd + " --format json");
        REQUIRE(js.status == 0);
        CHECK(js.out.find("\"confidence\": \"disputed\", \"confidence_why\"") != std::string::npos);
        CHECK(js.out.find("\"alternatives\": [{\"reading\"") != std::string::npos);
    }
    // A layout two sources agree on says high; an AMD layout with no such evidence says nothing.
    Run hi = cli("trace -a gfx1250 -i v_wmma_f32_16x16x4_f32 --row 0 --col 0");
    REQUIRE(hi.status == 0);
    CHECK(hi.out.find("Confidence: high") != std::string::npos);
    Run none = cli("trace -a gfx942 -i v_mfma_f32_32x32x8_f16 --row 0 --col 0");
    REQUIRE(none.status == 0);
    CHECK(none.out.find("Confidence") == std::string::npos);
}

TEST_CASE("header --help does not offer the --operand and --format it refuses, other subcommands keep them") {
    Run h = cli("header --help");
    REQUIRE(h.status == 0);
    CHECK(h.out.find("--operand") == std::string::npos);
    CHECK(h.out.find("--format") == std::string::npos);
    CHECK(h.out.find("--namespace") != std::string::npos);
    for (const char* sub : {"layout", "where", "load"}) {
        Run o = cli(std::string(sub) + " --help");
        INFO(sub);
        CHECK(o.out.find("--operand") != std::string::npos);
        CHECK(o.out.find("--format") != std::string::npos);
    }
    // Still refused with the reason, not as an unknown option.
    Run op = cli("header -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A -o -");
    CHECK(op.status == 2);
    CHECK(op.err.find("--operand does not apply to header") != std::string::npos);
    Run typo = cli("header -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --bogus -o -");
    CHECK(typo.status == 2);
    CHECK(typo.err.find("unknown option '--operand'") == std::string::npos);
    CHECK(typo.err.find("unknown option '--bogus'") != std::string::npos);
}

TEST_CASE("a check file's shape error echoes the number alone") {
    const std::string path = lstest::temp_path("lanescope_half_shape").string() + ".json";
    std::ofstream(path) << "{\"register\": [[0, 1]], \"lane\": [[1, 0]], \"shape\": [32, 8.5]}\n";
    Run r = cli("check -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --layout " + path);
    std::filesystem::remove(path);
    CHECK(r.status == 1);
    CHECK(r.err.find("must be a whole number, not 8.5\n") != std::string::npos);
}
