// The app's Copy menu and lanescope-cli write the same bytes: for every catalog row and every
// export form (layout --format linear|cute|gluon, every operand), and for the modifiers that
// change an export (tcgen05's --tmem-load, a tile of many waves), the Copy text equals the
// CLI's standard output; where the CLI refuses, the app refuses with the CLI's message.
#include "model/copy_text.hpp"
#include "model/options.hpp"
#include "model/selection.hpp"
#include "parse_args.hpp"

#include "lanescope/lanescope.hpp"
#include "lanescope/search.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace lsapp;
using lsapp_test::parse;
namespace ls = lanescope;

namespace {

struct CliRun {
    std::string out;  // standard output
    int status = -1;  // exit status
};
// Standard error goes to a file of this process (CTest runs cases side by side), read for the message.
CliRun run(const std::string& command, std::string* err) {
    const std::string err_file =
        (std::filesystem::temp_directory_path() / ("lanescope-copy-parity-" + std::to_string(getpid()) + ".stderr")).string();
    CliRun r;
    if (FILE* p = popen((command + " 2>" + err_file).c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
        const int st = pclose(p);
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    err->clear();
    if (FILE* f = std::fopen(err_file.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0) err->append(buf, n);
        std::fclose(f);
    }
    std::filesystem::remove(err_file);
    return r;
}

struct Form {
    CopyKind kind;
    const char* format;
};
const Form kForms[] = {{CopyKind::Linear, "linear"}, {CopyKind::Cute, "cute"}, {CopyKind::Gluon, "gluon"}};

// One request both ways: `args` are the CLI's words after -a/-i (and AppArgs' for the app).
void same_text(const std::string& arch, const std::string& name, const std::vector<std::string>& args, const Form& form,
               int* compared, int* refused) {
    AppArgs a;
    REQUIRE(parse(a, args) == "");
    const LayoutSet set = resolve_selection(ls::Catalog::builtin(), Selection{arch, name, a.mods});
    const ls::TileParams tp = a.waves.empty() ? ls::TileParams{} : ls::parse_tile_params(a.waves, a.tiles_per_wave, a.shape);
    std::string words;
    for (const auto& w : args) words += " " + w;
    const std::string command = std::string(LANESCOPE_CLI_PATH) + " layout -a " + arch + " -i " + name + words +
                                " --operand all --format " + form.format;
    INFO(command);
    std::string app, app_error;
    try {
        app = copy_text(set, tp, std::nullopt, form.kind);
    } catch (const ls::Error& e) {
        app_error = e.what();
    }
    std::string err;
    const CliRun cli = run(command, &err);
    if (app_error.empty()) {
        CHECK(cli.status == 0);
        CHECK(app == cli.out);
        ++*compared;
    } else {
        CHECK(cli.status != 0);
        CHECK(cli.out.empty());
        CHECK(err.find(app_error) != std::string::npos);
        ++*refused;
    }
}

}  // namespace

TEST_CASE("copy parity: every catalog row's Copy text is lanescope-cli layout --format linear|cute|gluon's", "[slow]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    int compared = 0, refused = 0, rows = 0;
    std::set<const ls::Instruction*> seen;  // a row on the first target that lists it
    for (const ls::Target& t : cat.targets()) {
        for (const ls::Instruction* ins : ls::listed_on(cat, t)) {  // Blackwell's and sm_120's spellings too
            if (!seen.insert(ins).second) continue;
            ++rows;
            // NVIDIA rows share a mnemonic across shapes: the short name is the row's own.
            const std::string name = ins->short_name.empty() ? ins->mnemonic : ins->short_name;
            for (const Form& f : kForms) same_text(t.gfx, name, {}, f, &compared, &refused);
        }
    }
    // Every row, each in three forms; a multi-block row has none, and not every layout
    // is linear, a CuTe layout or a Gluon constructor: those are refused, by both, in the same words.
    CHECK(rows >= 600);
    CHECK(compared + refused == 3 * rows);
    CHECK(compared > rows / 2 * 3);
}

TEST_CASE("copy parity: tcgen05 D read back with --tmem-load, wgmma's every operand and a tile", "[slow]") {
    int compared = 0, refused = 0;
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {"tcgen05_mma_m128n256k16_f16_f16", {"--tmem-load", "32x32b"}},
        {"tcgen05_mma_m128n256k16_f16_f16", {"--tmem-load", "32x32b", "--num-warps", "8"}},
        {"tcgen05_mma_m256n256k16_f16_f16_2cta", {"--tmem-load", "32x32b"}},
        {"tcgen05_mma_m128n256k8_f32_tf32", {"--tmem-load", "16x256b"}},
    };
    for (const auto& [name, args] : cases)
        for (const Form& f : kForms) same_text("sm_100a", name, args, f, &compared, &refused);
    for (const Form& f : kForms) same_text("sm_90a", "wgmma_m64n64k16_f32_f16", {}, f, &compared, &refused);
    for (const Form& f : kForms)
        same_text("gfx942", "v_mfma_f32_16x16x16_f16", {"--waves", "2x2", "--tiles-per-wave", "2x1"}, f, &compared, &refused);
    CHECK(compared >= 12);
}
