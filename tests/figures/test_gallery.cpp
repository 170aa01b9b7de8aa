// The gallery: files that exist, no external reference, and (when Debian's
// chromium is installed) a headless browser that runs the filter.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace ls = lanescope;
namespace fs = std::filesystem;
using namespace figtest;

namespace {

// Values of `attr="..."` in `html`, in order.
std::vector<std::string> attr_values(const std::string& html, const std::string& attr) {
    std::vector<std::string> out;
    const std::string key = attr + "=\"";
    for (size_t p = html.find(key); p != std::string::npos; p = html.find(key, p + 1)) {
        if (p > 0 && html[p - 1] != ' ') continue;
        const size_t a = p + key.size();
        out.push_back(html.substr(a, html.find('"', a) - a));
    }
    return out;
}

// Rows the gallery must hold: instructions matching `needle` on one target per
// family, once per wave size.
size_t expected_rows(const std::string& needle) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    size_t n = 0;
    std::set<ls::Family> done;
    for (const ls::Target& t : cat.targets()) {
        if (!done.insert(t.family).second) continue;
        for (const ls::Instruction* ins : cat.on(t.family))
            for (int wave : t.wave_sizes)
                if (ins->mnemonic.find(needle) != std::string::npos || ins->builtin(wave).find(needle) != std::string::npos)
                    ++n;
    }
    return n;
}

std::string chromium_path() {
    for (const char* c : {"chromium", "chromium-browser"}) {
        const std::string cmd = std::string("command -v ") + c + " >/dev/null 2>&1";
        if (std::system(cmd.c_str()) == 0) return c;
    }
    return "";
}

std::string chromium_flags(const std::string& profile) {
    // No network at all: every host resolves nowhere, background services off.
    return " --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking"
           " --disable-component-update --disable-sync --disable-dev-shm-usage"
           " --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir=" + profile;
}

}  // namespace

TEST_CASE("gallery: index page and facts pages and SVGs all local and filtered in headless chromium") {
    const std::string dir = temp_dir("gallery");
    const std::string out = dir + "/g";
    const std::string needle = "f32_16x16x16";  // every family has one; small enough for ASan runs
    Run r = cli("gallery --svg -o " + out + " --match " + needle);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string index = read_file(out + "/index.html");
    REQUIRE_FALSE(index.empty());
    // No request can leave the page: no absolute or protocol-relative URL at all.
    CHECK(index.find("http:") == std::string::npos);
    CHECK(index.find("https:") == std::string::npos);
    CHECK(index.find("//") == std::string::npos);
    CHECK(index.find("<script src") == std::string::npos);
    CHECK(index.find("<link") == std::string::npos);
    // And the browser enforces it: the page's policy allows no fetch of any kind.
    CHECK(index.find("Content-Security-Policy\" content=\"default-src 'none';") != std::string::npos);

    const std::vector<std::string> arch = attr_values(index, "data-arch");
    CHECK(arch.size() == expected_rows(needle));
    std::set<std::string> families;
    for (const std::string& a : arch) families.insert(a.substr(0, a.find(' ')));
    CHECK(families.size() == 6);

    // Every link points at a file of the gallery.
    size_t svgs = 0, facts = 0;
    for (const std::string& href : attr_values(index, "href")) {
        INFO(href);
        CHECK(href.find(':') == std::string::npos);
        const std::string path = out + "/" + href.substr(0, href.find('#'));
        CHECK(fs::exists(path));
        svgs += href.rfind("svg/", 0) == 0;
        facts += href.rfind("facts/", 0) == 0;
    }
    CHECK(svgs >= 4 * arch.size());
    CHECK(facts >= arch.size());

    // A facts page holds the instruction's facts and shows its figures.
    const std::string page = read_file(out + "/facts/cdna3_mfma_f32_16x16x16f16.html");
    CHECK(page.find("v_mfma_f32_16x16x16_f16") != std::string::npos);
    CHECK(page.find("VGPRs per lane") != std::string::npos);
    for (const std::string& src : attr_values(page, "src")) CHECK(fs::exists(out + "/facts/" + src));
    CHECK(page.find("http:") == std::string::npos);
    CHECK(page.find("https:") == std::string::npos);

    // Facts pages wrap: the facts are a table and code lines that the page's
    // style lets break anywhere (no <pre> block to overflow), and every formula
    // symbol is defined (the C/D inverse uses G).
    CHECK(page.find("<pre>") == std::string::npos);
    CHECK(page.find("<table class=\"facts\">") != std::string::npos);
    CHECK(page.find(".facts td,dd,.line code{overflow-wrap:anywhere}") != std::string::npos);
    for (const char* sym : {"i", "j", "k", "G"}) {
        INFO(sym);
        CHECK(page.find(std::string("<dt><code>") + sym + "</code></dt><dd>") != std::string::npos);
    }

    // The tiles of many waves whose instruction matches: the gfx942 16x16x16 MFMA
    // (sharing, with A, B and D labelled) and the RDNA3 wave32 WMMA.
    const std::vector<std::string> tile_rows = attr_values(index, "data-tile");
    CHECK(tile_rows.size() == 2);
    CHECK(index.find("<h2 id=\"tiles\">Tiles of many waves</h2>") != std::string::npos);
    CHECK(index.find("waves 2x2, tiles per wave 1x1, shape 32x32x16") != std::string::npos);
    size_t tile_svgs = 0;
    for (const std::string& key : tile_rows) {
        INFO(key);
        CHECK(key.rfind("tile_", 0) == 0);
        CHECK(fs::exists(out + "/preview/" + key + ".svg"));
        const std::string gemm = read_file(out + "/svg/" + key + "_ABD.svg");
        CHECK(xml_problem(gemm).empty());
        CHECK(gemm.find("waves 2x2, tiles per wave 1x1") != std::string::npos);
        for (const auto& e : fs::directory_iterator(out + "/svg")) tile_svgs += e.path().filename().string().rfind(key, 0) == 0;
    }
    CHECK(tile_svgs == 1 + 3 + 1);  // the sharing tile adds A, B and D each, labelled

    // Every row shows a preview: a small local SVG, lazily loaded, with its size
    // given so the page lays out before any picture arrives.
    const std::vector<std::string> srcs = attr_values(index, "src");
    CHECK(srcs.size() == arch.size() + tile_rows.size());
    CHECK(attr_values(index, "loading").size() == arch.size() + tile_rows.size());
    CHECK(attr_values(index, "width").size() == arch.size() + tile_rows.size());
    CHECK(index.find("img-src 'self' file:") != std::string::npos);
    for (const std::string& src : srcs) {
        INFO(src);
        CHECK(src.rfind("preview/", 0) == 0);
        const std::string svg = read_file(out + "/" + src);
        CHECK(xml_problem(svg).empty());
        CHECK(svg.find("http:") == svg.find("http://www.w3.org/2000/svg"));  // only the namespace name
        CHECK(svg.size() < 8000);  // a few runs of colour per row of A, B and D
        CHECK(svg.size() > 200);
    }

    // The SVGs are well-formed and compact. Each tile needs its id (~20 bytes),
    // its x (~10), two short label lines (~10) and their tags (~40); fills and
    // grid lines are shared paths. Before the compact form a tile cost 235-250
    // bytes (a <g>, a <rect> with four numbers and a fill, a <text> with its own
    // x, y, fill and stroke); the bound leaves room for each figure's heading,
    // axes and legend.
    size_t checked = 0, svg_bytes = 0, svg_tiles_seen = 0;
    for (const auto& e : fs::directory_iterator(out + "/svg")) {
        const std::string svg = read_file(e.path().string());
        if (checked++ < 12) CHECK(xml_problem(svg).empty());
        svg_bytes += svg.size();
        for (size_t p = svg.find("<tspan id="); p != std::string::npos; p = svg.find("<tspan id=", p + 1)) ++svg_tiles_seen;
    }
    REQUIRE(svg_tiles_seen > 0);
    CHECK(static_cast<double>(svg_bytes) / static_cast<double>(svg_tiles_seen) < 130.0);

    // Running again replaces the previous gallery; a foreign directory is refused.
    r = cli("gallery --svg -o " + out + " --match 16x16x16f16");
    CHECK(r.status == 0);
    CHECK(fs::exists(out + "/facts/cdna3_mfma_f32_16x16x16f16.html"));
    CHECK_FALSE(fs::exists(out + "/facts/rdna3_wmma_f32_16x16x16_f16_w32.html"));
    fs::create_directories(dir + "/mine");
    { std::ofstream(dir + "/mine/keep.txt") << "mine"; }
    r = cli("gallery --svg -o " + dir + "/mine --match " + needle);
    CHECK(r.status == 1);
    CHECK(r.err.find("refusing") != std::string::npos);
    CHECK(read_file(dir + "/mine/keep.txt") == "mine");
    r = cli("gallery --svg -o /proc/lanescope-gallery --match " + needle);
    CHECK(r.status == 1);
    size_t entries = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        (void)e;
        ++entries;
    }
    CHECK(entries == 2);  // g and mine: no partial gallery left behind

    // Headless Chromium opens it from the file system, filtered by the fragment.
    const std::string chromium = chromium_path();
    if (chromium.empty()) {
        LANESCOPE_SKIP_PART("chromium is not installed: the headless browser part of the gallery test is skipped");
    } else {
        const std::string url = "'file://" + out + "/index.html#arch=gfx942'";
        const std::string dom_file = dir + "/dom.html", shot = dir + "/shot.png";
        const std::string cmd = "timeout 60 " + chromium + chromium_flags(dir + "/profile1") + " --dump-dom " + url +
                                " >" + dom_file + " 2>/dev/null";
        REQUIRE(std::system(cmd.c_str()) == 0);
        const std::string dom = read_file(dom_file);
        size_t shown = 0, hidden = 0, wrong = 0;
        for (size_t p = dom.find("<tr data-arch=\""); p != std::string::npos; p = dom.find("<tr data-arch=\"", p + 1)) {
            const std::string tag = dom.substr(p, dom.find('>', p) - p);
            const bool is_hidden = tag.find(" hidden") != std::string::npos;
            const bool is_gfx942 = tag.find("gfx942") != std::string::npos;
            if (is_hidden != !is_gfx942) ++wrong;
            (is_hidden ? hidden : shown)++;
        }
        CHECK(wrong == 0);
        CHECK(shown > 0);
        CHECK(hidden > 0);
        CHECK(dom.find(std::to_string(shown) + " of " + std::to_string(shown + hidden) + " shown") != std::string::npos);

        const std::string shot_cmd = "timeout 60 " + chromium + chromium_flags(dir + "/profile2") +
                                     " --window-size=1200,900 --screenshot=" + shot + " " + url + " >/dev/null 2>&1";
        CHECK(std::system(shot_cmd.c_str()) == 0);
        const std::string png = read_file(shot);
        CHECK(png.size() > 1000);
        CHECK(png.substr(1, 3) == "PNG");

        // No sideways scrolling at 1400 px: a copy of the index records the
        // page's scroll width once laid out (inline scripts are what its CSP allows).
        std::string page = read_file(out + "/index.html");
        const size_t body_end = page.rfind("</body>");
        REQUIRE(body_end != std::string::npos);
        page.insert(body_end, "<script>document.body.setAttribute('data-scroll-width',"
                              "String(document.documentElement.scrollWidth));</script>");
        {
            std::ofstream(out + "/width.html") << page;
        }
        const std::string wcmd = "timeout 60 " + chromium + chromium_flags(dir + "/profile3") +
                                 " --window-size=1400,900 --dump-dom 'file://" + out + "/width.html' >" + dir + "/w.html 2>/dev/null";
        REQUIRE(std::system(wcmd.c_str()) == 0);
        const std::string wdom = read_file(dir + "/w.html");
        const size_t at = wdom.find("data-scroll-width=\"");
        REQUIRE(at != std::string::npos);
        const int scroll_width = std::atoi(wdom.c_str() + at + 19);
        INFO("index.html is " << scroll_width << " px wide in a 1400 px window");
        CHECK(scroll_width > 600);
        CHECK(scroll_width <= 1400);
        fs::remove(out + "/width.html");
    }
    fs::remove_all(dir);
}

TEST_CASE("the whole gallery renders: every instruction of every vendor, previews included") {
    // ldmatrix has only D and wgmma no B in registers: previews draw what exists.
    Run r = cli("gallery --bench");
    INFO(r.err);
    CHECK(r.status == 0);
}
