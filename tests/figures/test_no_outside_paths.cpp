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
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace fig = lanescope::figures;
using figtest::read_file;
using figtest::temp_dir;

namespace {

// What a citation outside the repository looks like.
const std::regex& outside() {
    static const std::regex re(R"((\.\./)+[A-Za-z]|/work/|/home/|/tmp/|\bshared/|reference sheet|reference §|)"
                               R"(amd-operand-loads|nvidia-mma-fragments|amd-matrix-builtins|\b(REF|OPL|AMB) §)");
    return re;
}

// Every "something.md" must be a Markdown file of the repository (README.md,
// docs/*.md, or a path below the root).
void check_md_names(const std::string& what, const std::string& text) {
    static const std::regex md(R"(([A-Za-z0-9_./-]+)\.md\b)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), md); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1].str() + ".md";
        const fs::path root(LANESCOPE_SOURCE_DIR);
        const bool ok = fs::exists(root / name) || fs::exists(root / "docs" / name) ||
                        fs::exists(root / "docs" / fs::path(name).filename());
        if (!ok) FAIL_CHECK(what << " names " << name << ", which is not a file of the repository");
    }
}

void check_text(const std::string& what, const std::string& text) {
    std::smatch m;
    if (std::regex_search(text, m, outside())) {
        const size_t at = static_cast<size_t>(m.position(0));
        FAIL_CHECK(what << " cites something outside the repository: ..."
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
            const std::string q = "-a " + t->gfx + " -i '" + ins->mnemonic + "'";
            script += "echo '=== " + t->gfx + " " + ins->mnemonic + "'\n";
            script += "\"$cli\" info " + q + " 2>&1\n\"$cli\" layout " + q + " --operand all 2>&1\n";
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
    CHECK(n > 300);
    REQUIRE(r.out.size() > 1000000);
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
    // The whole gallery: every SVG, facts page and the index.
    const std::string dir = temp_dir("outside_gallery");
    fig::write_gallery(cat, dir + "/g");
    size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir + "/g")) {
        if (!e.is_regular_file()) continue;
        const std::string ext = e.path().extension().string();
        if (ext != ".svg" && ext != ".html") continue;
        check_text(e.path().filename().string(), read_file(e.path().string()));
        ++files;
    }
    CHECK(files > 1000);
    fs::remove_all(dir);
}
