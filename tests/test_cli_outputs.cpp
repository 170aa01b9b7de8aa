// lanescope-cli's outputs and refusals that hostile sweeps found wrong: directories written for
// '-' or through a symbolic link, a site's links followed, an empty --match, SIGXFSZ debris,
// bench options silently ignored, banks spellings that are not PTX, descriptor reserved bits,
// and messages naming an option the user did not type. Each runs the CLI as a user would.
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const std::string kCli = LANESCOPE_CLI;

lstest::Run cli(const std::string& args) { return lstest::run_command(kCli + " " + args); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A stand-in for the built web site: the four files find_site requires.
struct FakeSite {
    fs::path root = lstest::temp_path("lanescope_cli_outputs");
    fs::path site = root / "site";
    FakeSite() {
        fs::remove_all(root);
        fs::create_directories(site);
        for (const char* f : {"index.html", "gallery.html", "lanescope.js"}) std::ofstream(site / f) << "x\n";
        std::ofstream(site / "lanescope.wasm") << std::string(300000, 'w');  // more than ulimit -f 100 allows
    }
    ~FakeSite() { fs::remove_all(root); }
    // Nothing but `keep` beside the output (no building directory left behind).
    bool only(const std::vector<std::string>& keep) const {
        for (const auto& e : fs::directory_iterator(root)) {
            const std::string n = e.path().filename().string();
            if (std::find(keep.begin(), keep.end(), n) == keep.end()) return false;
        }
        return true;
    }
};

}  // namespace

TEST_CASE("gallery -o - refuses: '-' is standard output, which holds no directory (site, --svg and export alike)") {
    FakeSite s;
    for (const std::string& args : {"gallery --site " + s.site.string() + " -o -", std::string("gallery --svg -o -"),
                                    std::string("export -o -")}) {
        lstest::Run r = lstest::run_command("cd " + s.root.string() + " && " + kCli + " " + args);
        INFO(args << ": " << r.err);
        CHECK(r.status != 0);
        CHECK(contains(r.err, "standard output"));
        CHECK(!fs::exists(s.root / "-"));
        CHECK(s.only({"site"}));
    }
}

TEST_CASE("gallery -o LINK is refused before anything is built, naming the link") {
    FakeSite s;
    fs::create_directories(s.root / "real");
    fs::create_directory_symlink(s.root / "real", s.root / "link");
    lstest::Run r = cli("gallery --site " + s.site.string() + " -o " + (s.root / "link").string());
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(contains(r.err, "is a symbolic link"));
    CHECK(!contains(r.err, "Not a directory"));
    CHECK(fs::is_empty(s.root / "real"));
    CHECK(s.only({"site", "real", "link"}));
}

TEST_CASE("gallery --site never follows a symbolic link out of the site") {
    FakeSite s;
    std::ofstream(s.root / "outside.txt") << "secret\n";
    fs::create_symlink(s.root / "outside.txt", s.site / "notes.txt");
    lstest::Run r = cli("gallery --site " + s.site.string() + " -o " + (s.root / "out").string());
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(contains(r.err, "symbolic link, 'notes.txt'"));
    CHECK(!fs::exists(s.root / "out"));
    CHECK(s.only({"site", "outside.txt"}));
}

TEST_CASE("gallery --match that matches nothing is refused, the site as --svg") {
    FakeSite s;
    for (const std::string& kind : {"--site " + s.site.string(), std::string("--svg")}) {
        lstest::Run r = cli("gallery " + kind + " --match zzzzqq -o " + (s.root / "out").string());
        INFO(kind << ": " << r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "--match 'zzzzqq' matches no instruction"));
        CHECK(!fs::exists(s.root / "out"));
    }
    // A match that exists still writes the site.
    lstest::Run ok = cli("gallery --site " + s.site.string() + " --match 32x32x8 -o " + (s.root / "out").string());
    INFO(ok.err);
    CHECK(ok.status == 0);
    CHECK(fs::exists(s.root / "out" / "instructions.json"));
}

TEST_CASE("gallery ended by SIGXFSZ (ulimit -f) leaves no building directory") {
    FakeSite s;
    lstest::Run r = lstest::run_command("cd " + s.root.string() + " && (ulimit -f 100; " + kCli + " gallery --site " +
                                        s.site.string() + " -o " + (s.root / "out").string() + "; echo status=$?)");
    INFO(r.out << r.err);
    CHECK(!contains(r.out, "status=0"));
    CHECK(s.only({"site", "out"}));
}

TEST_CASE("bench --largest refuses the options it does not use") {
    for (const char* other : {"--runs 5", "--catalog-rows 10", "--instructions"}) {
        lstest::Run r = cli(std::string("bench --largest ") + other);
        INFO(other << ": " << r.err);
        CHECK(r.status == 2);
        CHECK(contains(r.err, std::string(other).substr(0, std::string(other).find(' ')) + " does not apply"));
    }
}

TEST_CASE("banks --access takes PTX's grammar strictly: repeated, misplaced or conflicting qualifiers are refused") {
    std::string addrs = " --addresses 0";  // one 16-byte-aligned address per lane of the warp
    for (int l = 1; l < 32; ++l) addrs += "," + std::to_string(16 * l);
    // Not PTX (PTX ISA ld / ldmatrix: one .num, the state space before the type, one consistency qualifier).
    for (const char* bad : {"ldmatrix.x4.x2", "ld.u32.shared", "ld.shared.shared.u32", "ld.volatile.relaxed.shared.u32",
                            "ld.relaxed.shared.u32", "ldmatrix.trans.x4", "st.shared.u32.v2", "ldmatrix.sync.x4",
                            "ld.shared.v4.u64"}) {
        lstest::Run r = cli(std::string("banks -a sm_90a --access ") + bad + addrs);
        INFO(bad << ": " << r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "is not a shared-memory access"));
        CHECK(contains(r.err, "ldmatrix[.sync.aligned][.m8n8].x1|.x2|.x4"));
    }
    for (const char* good : {"ldmatrix.x4", "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16", "ld.shared.v4.u32",
                             "ld.volatile.shared.u32", "ld.relaxed.cta.shared.u32", "st.release.gpu.shared.b128",
                             "ld.weak.shared.v2.f64"}) {
        lstest::Run r = cli(std::string("banks -a sm_90a --access ") + good + addrs);
        INFO(good << ": " << r.err);
        CHECK(r.status == 0);
    }
}

TEST_CASE("a tcgen05 descriptor's reserved bits are called reserved and unmeasured, never ignored") {
    const std::string q = "load -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16 --operand B --memory smem --descriptor ";
    lstest::Run j = cli(q + "0x400040400001C000 --format json");  // bits 14-15 = 3
    INFO(j.err);
    REQUIRE(j.status == 0);
    CHECK(contains(j.out, "bits 14-15 are 3: reserved (must be 0 per PTX"));
    CHECK(contains(j.out, "effect not measured on hardware"));
    const size_t at = j.out.find("\"name\": \"reserved\"");
    REQUIRE(at != std::string::npos);
    const std::string field = j.out.substr(at, j.out.find('}', at) - at);
    CHECK(contains(field, "\"ignored\": false"));
    // With the bits clear there is nothing to say.
    lstest::Run clean = cli(q + "0x4000404000010000");
    CHECK(clean.status == 0);
    CHECK(!contains(clean.out, "bits 14-15 are"));
}

TEST_CASE("load --tma-box's refusals name --tma-box, the option typed, not tma's --box") {
    lstest::Run r = cli("load -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --memory smem --swizzle 64B --tma-box 256x64");
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(contains(r.err, "error: --tma-box 256x64"));
    CHECK(!contains(r.err, "--box "));
}

TEST_CASE("list's text fits 100 columns on every architecture, every instruction still named") {
    for (const char* arch : {"gfx942", "gfx950", "gfx1100", "gfx1250", "sm_80", "sm_90a", "sm_100a", "sm_120a", ""}) {
        lstest::Run r = cli(std::string("list") + (*arch ? std::string(" -a ") + arch : std::string()));
        INFO(arch << ": " << r.err);
        REQUIRE(r.status == 0);
        size_t widest = 0, at = 0;
        for (size_t nl; at < r.out.size(); at = nl + 1) {
            nl = r.out.find('\n', at);
            if (nl == std::string::npos) nl = r.out.size();
            widest = std::max(widest, nl - at);
        }
        CHECK(widest <= 100);
        // Every instruction the CSV lists appears in the text (its short name or builtin whole).
        lstest::Run csv = cli(std::string("list --format csv") + (*arch ? std::string(" -a ") + arch : std::string()));
        std::istringstream rows(csv.out);
        std::string line;
        std::getline(rows, line);  // header
        while (std::getline(rows, line)) {
            std::string cell;
            std::istringstream cells(line);
            for (int c = 0; c < 4; ++c) std::getline(cells, cell, ',');
            CHECK(contains(r.out, cell));
        }
    }
}

TEST_CASE("check's note about a file without a shape words --shape as the option works (a tile's M, N, K)") {
    const fs::path dir = lstest::temp_path("lanescope_check_note");
    fs::create_directories(dir);
    // lanescope's own linear JSON of A, its "shape" key removed.
    lstest::Run lin = cli("layout -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --format linear");
    REQUIRE(lin.status == 0);
    std::string text = lin.out;
    const size_t at = text.find("\"shape\"");
    REQUIRE(at != std::string::npos);
    const size_t comma = text.rfind(',', at);
    text.erase(comma, text.find(']', at) + 1 - comma);
    std::ofstream(dir / "a.json") << text;
    lstest::Run r = cli("check -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --layout " + (dir / "a.json").string());
    INFO(text.substr(0, 300) << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(contains(r.out, "the file gives no shape: lanescope's 32 x 8 (the instruction's own operand A"));
    CHECK(contains(r.out, "--shape TMxTN[xTK]"));
    CHECK(!contains(r.out, "(--shape sets it)"));
    fs::remove_all(dir);
}
