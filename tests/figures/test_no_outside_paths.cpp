// No output cites a file the user does not have: every instruction's `info`
// and `layout` (text and JSON), the transpose loads' `info`, the LDS bank
// reports of `load`, every figure's texts (one instruction and its operands on
// every family) and the whole gallery are scanned for paths outside the
// repository ("../shared/...", absolute paths, the names of private notes) and
// for `*.md` names that are not files of this repository.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"
#include "lanescope/transpose.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace fig = lanescope::figures;
using figtest::read_file;
using figtest::temp_dir;

namespace {

// What a citation outside the repository looks like (plain finds: the outputs
// scanned are tens of megabytes).
const char* const kOutside[] = {"/work/", "/home/", "/tmp/", "shared/", "reference sheet", "reference \u00A7",
                                "amd-operand-loads", "nvidia-mma-fragments", "amd-matrix-builtins", "REF \u00A7",
                                "OPL \u00A7", "AMB \u00A7"};

// Every "something.md" must be a Markdown file of the repository (README.md,
// docs/*.md, or a path below the root).
void check_md_names(const std::string& what, const std::string& text) {
    std::set<std::string> seen;
    for (size_t at = text.find(".md"); at != std::string::npos; at = text.find(".md", at + 3)) {
        const size_t after = at + 3;
        if (after < text.size() && (std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_')) continue;
        size_t b = at;
        while (b > 0 && (std::isalnum(static_cast<unsigned char>(text[b - 1])) || std::string("_./-").find(text[b - 1]) != std::string::npos))
            --b;
        const std::string name = text.substr(b, after - b);
        if (name == ".md" || !seen.insert(name).second) continue;
        const fs::path root(LANESCOPE_SOURCE_DIR);
        const bool ok = fs::exists(root / name) || fs::exists(root / "docs" / name) ||
                        fs::exists(root / "docs" / fs::path(name).filename());
        if (!ok) FAIL_CHECK(what << " names " << name << ", which is not a file of the repository");
    }
}

// `relative_links`: a gallery page's own "../svg/..." links are allowed (the
// gallery test resolves every link).
void check_text(const std::string& what, const std::string& text, bool relative_links = false) {
    std::vector<std::string> needles(std::begin(kOutside), std::end(kOutside));
    if (!relative_links) needles.push_back("../");
    for (const std::string& n : needles) {
        const size_t at = text.find(n);
        if (at != std::string::npos)
            FAIL_CHECK(what << " cites something outside the repository (" << n << "): ..."
                            << text.substr(at < 80 ? 0 : at - 80, 200) << "...");
    }
    check_md_names(what, text);
}

std::vector<const lanescope::Target*> one_target_per_family() {
    std::vector<const lanescope::Target*> out;
    std::set<lanescope::Family> seen;
    for (const lanescope::Target& t : lanescope::Catalog::builtin().targets())
        if (seen.insert(t.family).second) out.push_back(&t);
    return out;
}

}  // namespace

TEST_CASE("no output cites a path outside the repository: info and layout (text, JSON) of every instruction") {
    // One shell script runs the CLI over every instruction of one target per
    // family; its whole output is scanned at once (the first offending
    // instruction's output is shown).
    const std::string dir = temp_dir("outside");
    std::string script = "set -u\ncli='" + std::string(LANESCOPE_CLI) + "'\n";
    size_t n = 0;
    for (const lanescope::Target* t : one_target_per_family())
        for (const lanescope::Instruction* ins : lanescope::Catalog::builtin().on(t->family)) {
            if (ins->kind == lanescope::LayoutKind::Wgmma && ins->n != 8 && ins->n != 256) continue;  // one form for every N
            const std::string q = "-a " + t->gfx + " -i '" + ins->mnemonic + "'";
            script += "echo '=== " + t->gfx + " " + ins->mnemonic + "'\n";
            script += "\"$cli\" info " + q + " 2>&1\n\"$cli\" info " + q + " --format json 2>&1\n";
            script += "\"$cli\" layout " + q + " --operand all 2>&1\n";
            script += "\"$cli\" layout " + q + " --operand all --format json 2>&1\n";
            ++n;
        }
    for (const lanescope::TransposeLoad& r : lanescope::TransposeCatalog::builtin().rows()) {
        const std::string gfx = r.families.front() == lanescope::Family::CDNA4 ? "gfx950" : "gfx1200";
        script += "echo '=== " + gfx + " " + r.mnemonic + "'\n\"$cli\" info -a " + gfx + " -i " + r.mnemonic + " --wave " +
                  std::to_string(r.wave) + " 2>&1\n";
    }
    // The LDS bank reports (every grouping's basis) and a transpose plan.
    for (const char* q : {"-a gfx908 -i v_mfma_f32_32x32x8f16 --operand A --memory lds --order row --ld 8",
                          "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --memory lds --order row --ld 64 --pad 8",
                          "-a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --memory lds --order row --transpose",
                          "-a gfx950 -i v_mfma_f32_16x16x32_f16 --operand A --memory lds --order row --ld 64",
                          "-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand A --memory lds --order row",
                          "-a gfx1200 -i v_wmma_f32_16x16x16_f16 --operand B --memory global --order row --transpose"}) {
        script += "echo '=== load " + std::string(q) + "'\n\"$cli\" load " + q + " 2>&1\n";
        script += "\"$cli\" load " + std::string(q) + " --format json 2>&1\n";
    }
    {
        std::ofstream(dir + "/all.sh") << script;
    }
    std::string out;
    {
        FILE* p = popen(("sh '" + dir + "/all.sh'").c_str(), "r");
        REQUIRE(p != nullptr);
        char buf[65536];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
        CHECK(pclose(p) != -1);
    }
    struct {
        const std::string& out;
    } r{out};
    CHECK(n > 250);
    REQUIRE(r.out.size() > 500000);
    // Scan per instruction, so a failure names it.
    size_t from = 0;
    while (from < r.out.size()) {
        size_t next = r.out.find("\n=== ", from + 1);
        if (next == std::string::npos) next = r.out.size();
        const std::string part = r.out.substr(from, next - from);
        check_text(part.substr(0, part.find('\n')), part);
        from = next;
    }
    fs::remove_all(dir);
}

TEST_CASE("no output cites a path outside the repository: figures of every instruction, and the gallery") {
    const lanescope::Catalog& cat = lanescope::Catalog::builtin();
    size_t figures = 0;
    for (const lanescope::Target* t : one_target_per_family())
        for (const lanescope::Instruction* ins : cat.on(t->family)) {
            fig::FigureSpec spec;
            spec.ins = ins;
            spec.target = t;
            spec.mods = lanescope::resolve_modifiers(*ins, *t, {});
            spec.operands = {lanescope::Operand::D};
            spec.fit_width = 480;
            const fig::Figure f = fig::build_figure(spec);
            std::string text = f.title + "\n" + f.subtitle + "\n" + f.legend_title + "\n";
            for (const fig::Text& x : f.texts) text += x.text + "\n";
            for (const fig::LegendEntry& e : f.legend) text += e.label + "\n";
            check_text(t->gfx + " " + ins->mnemonic + " figure", text);
            ++figures;
        }
    CHECK(figures > 300);
    // The gallery: index, facts pages and SVGs of instructions of every layout
    // family (partial galleries; their pages are built by the same code as the
    // whole one's).
    const std::string dir = temp_dir("outside_gallery");
    const char* matches[] = {"16x16x16", "16x16x128", "smfmac_f32_16x16x32_f16", "swmmac_f32_16x16x32_f16", "mma.sp",
                             "ldmatrix", "wgmma"};
    int g = 0;
    for (const char* m : matches) fig::write_gallery(cat, dir + "/g" + std::to_string(g++), lanescope::Theme::Light, m);
    size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        const std::string ext = e.path().extension().string();
        if (ext != ".svg" && ext != ".html") continue;
        check_text(e.path().filename().string(), read_file(e.path().string()), true);
        ++files;
    }
    CHECK(files > 300);
    fs::remove_all(dir);
}

TEST_CASE("every source key of the catalogs resolves in docs/sources.md") {
    // Keys: the first column of sources.md's tables ("| I3, IR3, IR4 |" holds three).
    std::set<std::string> keys;
    {
        std::ifstream f(std::string(LANESCOPE_SOURCE_DIR) + "/docs/sources.md");
        for (std::string line; std::getline(f, line);) {
            if (line.rfind("| ", 0) != 0) continue;
            const std::string cell = line.substr(2, line.find(" |", 2) - 2);
            for (size_t a = 0; a <= cell.size();) {
                size_t b = cell.find(", ", a);
                if (b == std::string::npos) b = cell.size();
                keys.insert(cell.substr(a, b - a));
                a = b + 2;
            }
        }
    }
    REQUIRE(keys.count("CALC") == 1);
    // A row's source field: parts separated by ',' or ';', each starting with its key
    // ("I4 7.5", "PTX 9.7.14.5.8 #anchor", "V (CALC lists 0x54, a typo)").
    auto check_row = [&](const std::string& what, const std::string& source) {
        std::string part;
        int depth = 0;
        auto flush = [&] {
            const size_t b = part.find_first_not_of(' ');
            if (b != std::string::npos) {
                const std::string key = part.substr(b, part.find_first_of(" (", b) - b);
                INFO(what << ": source '" << source << "'");
                if (!keys.count(key)) FAIL_CHECK("source key " << key << " is not in docs/sources.md");
            }
            part.clear();
        };
        for (char c : source) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth == 0 && (c == ',' || c == ';')) flush();
            else part += c;
        }
        flush();
    };
    for (const lanescope::Instruction& ins : lanescope::Catalog::builtin().instructions())
        check_row(ins.mnemonic, ins.source);
    for (const lanescope::TransposeLoad& r : lanescope::TransposeCatalog::builtin().rows()) check_row(r.mnemonic, r.source);
}
