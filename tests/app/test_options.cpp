// The app's command line against lanescope-cli's: every option the CLI takes for
// the same view (figure, layout, load and their tile options) is an option of the
// app (read from the CLI's own --help), with the same values: gfx1250's controls
// by LLVM's names (MATRIX_FMT_FP4 = 4, MATRIX_SCALE_ROW1 = 1, MATRIX_SCALE_FMT_E4M3 = 2
// in LLVM's SIDefines.h), as lanescope-cli's --matrix-a-fmt fp4 takes them.
#include "model/copy_text.hpp"
#include "model/options.hpp"
#include "model/selection.hpp"
#include "parse_args.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <set>
#include <sstream>

namespace ls = lanescope;
using lsapp_test::parse;
using namespace lsapp;

namespace {

std::string run_output(const std::string& command) {
    std::string out;
    if (FILE* p = popen(command.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        pclose(p);
    }
    return out;
}

// The long names of the options in a CLI11 help text: the first field of each option line.
std::set<std::string> help_options(const std::string& help) {
    std::set<std::string> names;
    std::istringstream in(help);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first;
        if (!(words >> first) || first[0] != '-') continue;
        std::istringstream parts(first);
        std::string name;
        while (std::getline(parts, name, ','))
            if (name.rfind("--", 0) == 0) names.insert(name);
    }
    return names;
}

}  // namespace

TEST_CASE("options: every option lanescope-cli takes for figure, layout and load is an option of the app") {
    // What only writes a file (the CLI's output) is not a view of the app.
    // --hover-titles writes titles into an SVG file; the app names the cell under the pointer anyway.
    const std::set<std::string> output_only = {"--help", "--out", "--format", "--width", "--min-font", "--scale", "--hover-titles",
                                               "--linear", "--namespace", "--tables", "--sweep", "--top",
                                               // load --memory smem's printed path of one scale factor (SFA/SFB in shared
                                               // memory, text only): the app's Memory tab names every scale factor's path in its tooltip instead.
                                               "--row", "--col",
                                               // figure's --highlight, --crop and --height shape a written figure for a
                                               // slide or a page; the app zooms, pans and pins cells instead.
                                               "--highlight", "--crop", "--height"};
    CLI::App app{"app"};
    AppArgs a;
    add_app_options(app, a);
    for (const char* sub : {"figure", "layout", "load"}) {
        const std::set<std::string> names = help_options(run_output(std::string(LANESCOPE_CLI_PATH) + " " + sub + " --help"));
        INFO("lanescope-cli " << sub << " --help lists " << names.size() << " options");
        REQUIRE(names.count("--matrix-a-fmt") == 1);  // the help was read
        for (const std::string& n : names) {
            if (output_only.count(n)) continue;
            INFO(n);
            CHECK(app.get_option_no_throw(n) != nullptr);
        }
    }
}

TEST_CASE("options: gfx1250's controls take LLVM's names and numbers, as lanescope-cli does") {
    AppArgs a;
    REQUIRE(parse(a, {"--matrix-a-fmt", "fp4", "--matrix-b-fmt", "BF8", "--matrix-a-scale", "ROW1", "--matrix-b-scale-fmt", "E4M3",
                      "--matrix-a-scale-fmt", "MATRIX_SCALE_FMT_E5M3", "--index-key", "1"}) == "");
    CHECK(a.mods.matrix_a_fmt == 4);        // MATRIX_FMT_FP4
    CHECK(a.mods.matrix_b_fmt == 1);        // MATRIX_FMT_BF8
    CHECK(a.mods.matrix_a_scale == 1);      // MATRIX_SCALE_ROW1
    CHECK(a.mods.matrix_b_scale_fmt == 2);  // MATRIX_SCALE_FMT_E4M3
    CHECK(a.mods.matrix_a_scale_fmt == 1);  // MATRIX_SCALE_FMT_E5M3
    CHECK(a.mods.index_key == 1);
    AppArgs b;
    CHECK(parse(b, {"--matrix-a-fmt", "2"}) == "");
    CHECK(b.mods.matrix_a_fmt == 2);
    AppArgs c;
    const std::string bad = parse(c, {"--matrix-a-fmt", "fp5"});
    CHECK(bad.find("fp4") != std::string::npos);  // the message lists what is legal
    AppArgs d;
    CHECK(parse(d, {"--view", "matrix"}) == "");  // lanescope-cli figure --view matrix
    CHECK(parse(d, {"--ld", "100000"}) == "");    // the CLI's range (core checks the tile)
}

TEST_CASE("options: every modifier field is read by name from what the command line chose") {
    ls::Modifiers m;
    for (std::string_view f : ls::modifier_field_names()) CHECK(modifier_field(m, f) == -1);
    int v = 1;
    for (std::string_view f : ls::modifier_field_names()) set_modifier(m, f, v++);
    v = 1;
    for (std::string_view f : ls::modifier_field_names()) CHECK(modifier_field(m, f) == v++);
    CHECK(ls::modifier_field_names().size() == 31);  // AMD's 15, Blackwell's 9, the shared-memory descriptor's 7
}

TEST_CASE("options: Blackwell's --tmem-load and --num-warps reach the selection") {
    AppArgs a;
    CHECK(parse(a, {"--tmem-load", "16x256b", "--num-warps", "8"}) == "");
    CHECK(modifier_field(a.mods, "tmem_load") == 4);  // PTX's order: none, 32x32b, 16x64b, 16x128b, 16x256b
    CHECK(modifier_field(a.mods, "num_warps") == 8);
}

TEST_CASE("options: the modifier menus show named values with their numbers") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx1250");
    const ls::Instruction& ins = cat.find_instruction(t, "v_wmma_f32_16x16x128_f8f6f4");
    CHECK(modifier_menu_text(ins, "matrix_a_fmt", 4) == "FP4 (4)");
    CHECK(modifier_menu_text(ins, "matrix_a_fmt", 0) == "FP8 (0)");
    const ls::Instruction& scaled = cat.find_instruction(cat.find_target("gfx950"), "v_mfma_scale_f32_32x32x64_f8f6f4");
    CHECK(modifier_menu_text(scaled, "cbsz", 4) == "FP4 E2M1 (4)");  // cbsz is A's format on mfma_scale
    const ls::Instruction& plain = cat.find_instruction(cat.find_target("gfx942"), "v_mfma_f32_4x4x4_16b_f16");
    CHECK(modifier_menu_text(plain, "cbsz", 2) == "2");  // a plain number stays a number
}

TEST_CASE("copy: the Copy menu's text is what lanescope-cli layout --format linear|cute and header write") {
    const auto& cat = ls::Catalog::builtin();
    const std::string cli = LANESCOPE_CLI_PATH;
    for (auto [arch, name] : {std::pair<const char*, const char*>{"gfx942", "v_mfma_f32_32x32x8_f16"}, {"sm_90", "mma_m16n8k16_f32_f16"}}) {
        const LayoutSet set = resolve_selection(cat, Selection{arch, name, {}});
        const std::string q = std::string(" -a ") + arch + " -i " + name;
        INFO(name);
        CHECK(copy_text(set, {}, ls::Operand::A, CopyKind::Linear) == run_output(cli + " layout" + q + " --operand A --format linear"));
        CHECK(copy_text(set, {}, std::nullopt, CopyKind::Linear) == run_output(cli + " layout" + q + " --operand all --format linear"));
        CHECK(copy_text(set, {}, std::nullopt, CopyKind::Cute) == run_output(cli + " layout" + q + " --operand all --format cute"));
        CHECK(copy_text(set, {}, std::nullopt, CopyKind::Header) == run_output(cli + " header" + q + " -o -"));
        const std::string gluon = copy_text(set, {}, ls::Operand::B, CopyKind::Gluon);
        CHECK(gluon.find("gl.") != std::string::npos);
    }
    // A tile, as --waves/--tiles-per-wave/--shape give it.
    const LayoutSet set = resolve_selection(cat, Selection{"gfx942", "v_mfma_f32_16x16x16_f16", {}});
    const ls::TileParams tp = ls::parse_tile_params("2x2", "1x1", "");
    CHECK(copy_text(set, tp, ls::Operand::D, CopyKind::Linear) ==
          run_output(cli + " layout -a gfx942 -i v_mfma_f32_16x16x16_f16 --waves 2x2 --tiles-per-wave 1x1 --operand D --format linear"));
}

TEST_CASE("options: --swizzle takes a descriptor's mode word (lanescope-cli's) or the memory view's XOR triple") {
    {
        AppArgs a;
        CHECK(parse(a, {"--swizzle", "128B"}) == "");
        CHECK(modifier_field(a.mods, "swizzle") == 3);  // lanescope's SmemSwizzle numbers: none 0, 32B 1, 64B 2, 128B 3
        CHECK(a.swizzle.empty());
        CHECK_FALSE(a.memory_given());  // a modifier: the Layout tab's B follows it too
    }
    {
        AppArgs a;
        CHECK(parse(a, {"--swizzle", "128b_base32b"}) == "");
        CHECK(modifier_field(a.mods, "swizzle") == 4);
    }
    {
        AppArgs a;
        CHECK(parse(a, {"--swizzle", "8,2,8"}) == "");
        CHECK(a.swizzle == "8,2,8");
        CHECK(modifier_field(a.mods, "swizzle") == -1);
    }
    AppArgs a;
    const std::string bad = parse(a, {"--swizzle", "96B"});
    CHECK(bad.find("legal: none, 32B, 64B, 128B") != std::string::npos);
    CHECK(bad.find("VEC,PER_PHASE,MAX_PHASE") != std::string::npos);
}

TEST_CASE("options: --memory smem and --descriptor, as lanescope-cli load takes them") {
    AppArgs a;
    CHECK(parse(a, {"--memory", "smem", "--descriptor", "0x4000004000010040", "--lbo", "16", "--major", "MN"}) == "");
    CHECK(a.memory == "smem");
    REQUIRE(a.mods.descriptor.has_value());
    CHECK(*a.mods.descriptor == 0x4000004000010040ull);
    CHECK(modifier_field(a.mods, "lbo") == 16);
    CHECK(modifier_field(a.mods, "smem_major") == 1);
    AppArgs b;
    CHECK(parse(b, {"--memory", "tmem"}).find("smem") != std::string::npos);  // CLI11 names the legal words
}
