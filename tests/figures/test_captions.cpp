// Figure text checked letter by letter: captions and headings name every
// operand's format as `info` names it (with the modifier that chose it, and
// only modifiers `info` lists for the instruction), legends name the lanes as
// PTX and the AMD ISA guides count them, TikZ writes every character the SVG
// writes (no '?'), PNG has a glyph for each, and register axes read at a
// regular step, each name the register of the row or column it stands by.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb/stb_truetype.h>

namespace ls = lanescope;
namespace fig = lanescope::figures;
using namespace figtest;

namespace {

struct Query {
    const ls::Instruction* ins;
    const ls::Target* target;
    ls::ResolvedModifiers mods;
};

Query query(const char* arch, const char* instruction, const ls::Modifiers& m = {}) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target(arch);
    const ls::Instruction& ins = cat.find_instruction(t, instruction);
    return {&ins, &t, ls::resolve_modifiers(ins, t, m)};
}

fig::Figure figure(const Query& q, std::vector<ls::Operand> ops, double fit_width = 0, double min_font = 0) {
    fig::FigureSpec spec;
    spec.ins = q.ins, spec.target = q.target, spec.mods = q.mods, spec.operands = std::move(ops);
    spec.fit_width = fit_width, spec.min_font = min_font;
    return fig::build_figure(spec);
}

// info's text for the query (what a user reads beside the figure).
std::string info_text(const Query& q) {
    ls::Query lq;
    lq.ins = q.ins, lq.target = q.target, lq.mods = q.mods;
    return ls::render_info(lq, ls::Format::Table);
}

// The element type info's "types" row gives `op` ("A fp4, B fp8, C f32, D f32" -> "fp4").
std::string info_type(const std::string& info, const std::string& op) {
    std::smatch m;
    const std::regex row(R"(\ntypes +([^\n]*))");
    REQUIRE(std::regex_search(info, m, row));
    const std::string types = ", " + m[1].str();
    const size_t at = types.find(", " + op + " ");
    REQUIRE(at != std::string::npos);
    const size_t from = at + op.size() + 3;
    return types.substr(from, types.find_first_of(", (", from) - from);
}

// The names of the OCP Microscaling Formats (MX) v1.0 spec, §5.3 (the formats
// mfma_scale's cbsz/blgp and gfx1250's matrix_a_fmt/matrix_b_fmt select: FP8
// E4M3 / E5M2, FP6 E2M3 / E3M2, FP4 E2M1); other types keep info's name.
std::string format_title(const std::string& info_name) {
    static const std::map<std::string, std::string> mx = {
        {"fp8", "FP8 E4M3"}, {"bf8", "BF8 E5M2"}, {"fp6", "FP6 E2M3"}, {"bf6", "BF6 E3M2"}, {"fp4", "FP4 E2M1"}};
    const auto it = mx.find(info_name);
    return it == mx.end() ? info_name : it->second;
}

std::string all_text(const fig::Figure& f) {
    std::string s;
    for (const fig::Text& t : f.texts) s += t.text + "\n";
    for (const fig::LegendEntry& e : f.legend) s += e.label + "\n";
    return s + f.legend_title + "\n" + f.title + "\n" + f.subtitle + "\n";
}

std::string xml_escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else out += c;
    }
    return out;
}

// What the TikZ of a plain text must read: TeX's specials escaped, an en dash as TeX's "--".
std::string tex_of(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '_') out += "\\_";
        else if (s.compare(i, 3, "\u2013") == 0) out += "--", i += 2;
        else out += s[i];
    }
    return out;
}

// Every code point of UTF-8 text.
std::vector<std::uint32_t> code_points(const std::string& s) {
    std::vector<std::uint32_t> out;
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        std::uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
        for (int k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(cp);
        i += n;
    }
    return out;
}

struct FormatCase {
    const char* arch;
    const char* instruction;
    ls::Modifiers mods;
    // The field that picks A's and B's format, as the ISA writes it ("" where the instruction fixes it).
    const char* a_field;
    const char* b_field;
    int a_code, b_code;
};

ls::Modifiers fmt(int a, int b) {
    ls::Modifiers m;
    m.matrix_a_fmt = a, m.matrix_b_fmt = b;
    return m;
}
ls::Modifiers cb(int cbsz, int blgp) {
    ls::Modifiers m;
    m.cbsz = cbsz, m.blgp = blgp;
    return m;
}

}  // namespace

TEST_CASE("captions and headings name each operand's format as info does, with the field that chose it, in SVG and TikZ") {
    const FormatCase cases[] = {
        // The issue's repro: gfx1250 has no cbsz; matrix_a_fmt 4 is FP4 (LLVM's MATRIX_FMT_FP4).
        {"gfx1250", "v_wmma_f32_16x16x128_f8f6f4", fmt(4, -1), "matrix_a_fmt", "matrix_b_fmt", 4, 0},
        {"gfx1250", "v_wmma_f32_16x16x128_f8f6f4", fmt(2, 3), "matrix_a_fmt", "matrix_b_fmt", 2, 3},
        {"gfx1250", "v_wmma_f32_16x16x128_f8f6f4", fmt(-1, 1), "matrix_a_fmt", "matrix_b_fmt", 0, 1},
        // CDNA4: cbsz picks A's format, blgp B's (CDNA4 ISA guide §7.1.5), scaled and unscaled.
        {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", cb(2, 4), "cbsz", "blgp", 2, 4},
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", cb(4, 2), "cbsz", "blgp", 4, 2},
        {"gfx950", "v_mfma_f32_16x16x128_f8f6f4", cb(1, 3), "cbsz", "blgp", 1, 3},
        // Types fixed by the instruction: no field named.
        {"sm_89", "mma_m16n8k32_f32_e4m3", {}, "", "", -1, -1},
        {"sm_90a", "wgmma_m64n64k16_f32_f16", {}, "", "", -1, -1},
        {"gfx942", "v_mfma_f32_32x32x8_f16", {}, "", "", -1, -1},
        {"gfx1200", "v_wmma_f32_16x16x16_fp8_fp8", {}, "", "", -1, -1},
    };
    size_t checked = 0;
    for (const FormatCase& c : cases) {
        const Query q = query(c.arch, c.instruction, c.mods);
        INFO(c.arch << " " << c.instruction << " [" << q.mods.describe() << "]");
        const std::string info = info_text(q);
        const std::vector<ls::Operand> gemm = q.ins->kind == ls::LayoutKind::Wgmma
                                                  ? std::vector<ls::Operand>{ls::Operand::A, ls::Operand::D}
                                                  : std::vector<ls::Operand>{ls::Operand::A, ls::Operand::B, ls::Operand::D};
        for (const double width : {0.0, 1000.0}) {  // natural, and a page's 500 pt in TikZ units
            const fig::Figure f = figure(q, gemm, width, width > 0 ? 10 : 0);
            const std::string text = all_text(f), svg = fig::to_svg(f), tex = fig::to_tikz(f);
            std::vector<std::string> parts;
            for (ls::Operand op : gemm) {
                if (op == ls::Operand::D) continue;
                const std::string name(ls::operand_name(op));
                const char* field = op == ls::Operand::A ? c.a_field : c.b_field;
                const int code = op == ls::Operand::A ? c.a_code : c.b_code;
                const std::string title = format_title(info_type(info, name));
                const std::string words = title + (*field ? " (" + std::string(field) + "=" + std::to_string(code) + ")" : "");
                // The heading: "A (M x K)  FP4 E2M1 (matrix_a_fmt=4), 8 VGPRs per lane".
                const std::string heading = name + " (" + (op == ls::Operand::A ? "M x K" : "K x N") + ")  " + words;
                INFO("heading " << heading << "\nfigure text:\n" << text);
                bool found = false;
                for (const fig::Text& t : f.texts) found = found || t.text.rfind(heading, 0) == 0;
                if (width == 0) CHECK(found);  // a fitted heading may wrap
                if (width == 0) CHECK(svg.find(">" + xml_escaped(heading)) != std::string::npos);
                if (width == 0) CHECK(tex.find("{" + tex_of(heading)) != std::string::npos);
                if (*field) {
                    parts.push_back(name + " " + words);
                    // info lists the field for this instruction.
                    CHECK(info.find("\n" + std::string(field) + ": ") != std::string::npos);
                }
            }
            if (!parts.empty()) {
                // The caption line: "A FP4 E2M1 (matrix_a_fmt=4), B FP8 E4M3 (matrix_b_fmt=0)".
                std::string caption;
                for (const std::string& p : parts) caption += (caption.empty() ? "" : ", ") + p;
                INFO("caption " << caption << "\nfigure text:\n" << text);
                CHECK(text.find(caption) != std::string::npos);
                CHECK(svg.find(xml_escaped(caption)) != std::string::npos);
                CHECK(tex.find(tex_of(caption)) != std::string::npos);
            }
            // Only fields info lists: gfx1250's controls never appear as CDNA's cbsz/blgp, nor the reverse.
            for (const char* other : {"cbsz", "blgp", "matrix_a_fmt", "matrix_b_fmt"}) {
                if (text.find(std::string(other) + "=") == std::string::npos) continue;
                INFO(other << " in the figure's text:\n" << text);
                CHECK(info.find("\n" + std::string(other) + ": ") != std::string::npos);
                CHECK(info.find("\n" + std::string(other) + ": not") == std::string::npos);
            }
            // The subtitle's modifiers are info's title's: "[matrix_a_fmt=4]" there, "matrix_a_fmt=4" here.
            const std::string described = q.mods.describe();
            if (!described.empty()) {
                CHECK(info.find("[" + described + "]") != std::string::npos);
                CHECK(text.find(described) != std::string::npos);
            }
            ++checked;
        }
    }
    CHECK(checked == 2 * std::size(cases));

    // The memory view names the tile's format with the same words.
    const std::string dir = temp_dir("memcap");
    const std::pair<const char*, const char*> memory[] = {
        {"-a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 4 --operand A --memory lds", " FP4 E2M1 (cbsz=4), ld "},
        {"-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --matrix-a-fmt fp6 --operand A --memory lds", " FP6 E2M3 (matrix_a_fmt=2), ld "},
    };
    for (const auto& [args, words] : memory) {
        INFO("figure " << args);
        REQUIRE(cli(std::string("figure ") + args + " -o " + dir + "/m.svg").status == 0);
        CHECK(read_file(dir + "/m.svg").find(words) != std::string::npos);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("legends name lane groups as PTX and the ISA guides count them: SVG with an en dash, TikZ with TeX's --") {
    // PTX ISA 9.7.14.5: groupID = %laneid >> 2, so groupID g is threads 4g..4g+3;
    // wgmma: warp w of the warpgroup is threads 32w..32w+31.
    {
        const Query q = query("sm_80", "mma_m16n8k16_f32_f16");
        const fig::Figure f = figure(q, {ls::Operand::A, ls::Operand::B, ls::Operand::D});
        const std::string svg = fig::to_svg(f), tex = fig::to_tikz(f);
        for (int g = 0; g < 8; ++g) {
            const std::string plain = "groupID " + std::to_string(g) + " (T" + std::to_string(4 * g) + "\u2013" + std::to_string(4 * g + 3) + ")";
            INFO(plain);
            CHECK(svg.find(">" + plain + "<") != std::string::npos);
            CHECK(tex.find("{groupID " + std::to_string(g) + " (T" + std::to_string(4 * g) + "--" + std::to_string(4 * g + 3) + ")}") !=
                  std::string::npos);
        }
        CHECK(tex.find("T0?3") == std::string::npos);
        CHECK(tex.find('?') == std::string::npos);
    }
    {
        const Query q = query("sm_90a", "wgmma_m64n64k16_f32_f16");
        const std::string tex = fig::to_tikz(figure(q, {ls::Operand::D}, 480, 10));
        for (int w = 0; w < 4; ++w)
            CHECK(tex.find("{warp " + std::to_string(w) + " (T" + std::to_string(32 * w) + "--" + std::to_string(32 * w + 31) + ")}") !=
                  std::string::npos);
    }
    // AMD: a lane group is M lanes on CDNA (32x32: lanes 0-31, 32-63), 16 on RDNA
    // (the CDNA3 ISA guide §7.1.4; RDNA3 ISA guide §7.9), written as core writes ranges.
    const std::pair<const char*, const char*> amd[] = {{"gfx942", "v_mfma_f32_32x32x8_f16"}, {"gfx1100", "v_wmma_f32_16x16x16_f16"}};
    for (const auto& [arch, name] : amd) {
        const Query q = query(arch, name);
        const int size = ls::is_cdna(q.target->family) ? q.ins->m : 16;
        const fig::Figure f = figure(q, {ls::Operand::D});
        const std::string svg = fig::to_svg(f), tex = fig::to_tikz(f);
        for (int g = 0; g * size < q.mods.wave; ++g) {
            const std::string lo = std::to_string(g * size), hi = std::to_string(g * size + size - 1);
            INFO(arch << " lanes " << lo << "-" << hi);
            CHECK(svg.find(">lanes " + lo + "\u2013" + hi + "<") != std::string::npos);
            CHECK(tex.find("{lanes " + lo + "--" + hi + "}") != std::string::npos);
        }
    }
}

TEST_CASE("TikZ writes every character the SVG writes: each non-ASCII one mapped, TeX's specials escaped, none a '?'") {
    // Figures whose text holds every non-ASCII character the figure model writes:
    // lane ranges (en dash), the separators (middle dot), transpose loads (arrow),
    // evidence (em dash), the ISA sections cited (section sign).
    const char* figures[] = {
        "-a sm_80 -i mma_m16n8k16_f32_f16 --operand all",
        "-a sm_90a -i wgmma_m64n64k16_f32_f16 --operand all",
        "-a sm_80 -i mma_sp_m16n8k32_f32_f16 --operand K",
        "-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --matrix-a-fmt fp4 --operand all",
        "-a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --cbsz 4 --blgp 2 --operand all",
        "-a gfx1100 -i v_wmma_f32_16x16x16_f16 --wave 64 --operand all",
        "-a gfx942 -i v_smfmac_f32_16x16x32_f16 --operand K",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --waves 2x2 --shape 64x64x16",
        "-a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --memory lds --transpose",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --memory lds --ld 64 --pad 4",
    };
    const std::string dir = temp_dir("chars");
    std::set<std::uint32_t> seen;
    for (const char* args : figures) {
        INFO("figure " << args);
        REQUIRE(cli(std::string("figure ") + args + " -f svg -o " + dir + "/f.svg").status == 0);
        REQUIRE(cli(std::string("figure ") + args + " -f tikz -o " + dir + "/f.tex").status == 0);
        const std::string svg = read_file(dir + "/f.svg"), tex = read_file(dir + "/f.tex");
        for (std::uint32_t cp : code_points(svg))
            if (cp >= 0x80) seen.insert(cp);
        bool ascii = true;
        for (char c : tex) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
        CHECK(ascii);
        CHECK(tex.find('?') == std::string::npos);        // nothing written as a '?'
        CHECK(tex.find("[U+") == std::string::npos);      // and nothing left unmapped
    }
    std::filesystem::remove_all(dir);
    // Not vacuous: the figures above do write the characters named.
    for (std::uint32_t cp : {0x2013u, 0xB7u, 0x2192u}) CHECK(seen.count(cp) == 1);

    // Each mapping as LaTeX spells it (OT1 prints '<' '>' '|' as other glyphs).
    fig::Figure f;
    f.width = 200, f.height = 100;
    const std::pair<const char*, const char*> expect[] = {
        {"T12\u201315", "T12--15"},         {"a \u2014 b", "a --- b"},    {"w0 \u00B7 L3", "\\ensuremath{\\cdot}"},
        {"4\u00D74", "\\ensuremath{\\times}"}, {"i0\u2192L3", "\\ensuremath{\\to}"}, {"\u00A77.1", "\\S{}7.1"},
        {"k \u2264 32", "\\ensuremath{\\leq}"}, {"k \u2265 1", "\\ensuremath{\\geq}"}, {"waves 3, \u2026", "\\ldots{}"},
        {"a<b>c|d", "a\\textless{}b\\textgreater{}c\\textbar{}d"}, {"--operand", "-{}-operand"},
        {"matrix_a_fmt=4 50% #1 $x &", "matrix\\_a\\_fmt=4 50\\% \\#1 \\$x \\&"},
        {"snow \u2603", "snow [U+2603]"},  // no entry: the code point, readable, never '?'
    };
    double y = 10;
    for (const auto& [text, _] : expect) f.texts.push_back({10, y += 6, text, 5, fig::Anchor::Start, false, {}});
    const std::string tex = fig::to_tikz(f);
    for (const auto& [text, latex] : expect) {
        INFO(text << " -> " << latex);
        CHECK(tex.find(latex) != std::string::npos);
    }
    CHECK(tex.find('?') == std::string::npos);
    // And it compiles: every mapping is LaTeX pdflatex takes.
    if (std::system("command -v pdflatex >/dev/null 2>&1 && kpsewhich standalone.cls >/dev/null 2>&1") == 0) {
        const std::string d = temp_dir("chars-tex");
        fig::write_file_atomic(d + "/c.tex", tex);
        CHECK(std::system(("cd " + d + " && timeout 120 pdflatex -interaction=nonstopmode -halt-on-error c.tex >/dev/null 2>&1").c_str()) == 0);
        std::filesystem::remove_all(d);
    } else {
        LANESCOPE_SKIP_PART("pdflatex or standalone.cls is not installed: the LaTeX was not compiled");
    }
}

TEST_CASE("PNG has a glyph for every character of the captions, headings and legends") {
    const std::string font_path = fig::find_font();
    REQUIRE(!font_path.empty());
    const std::string font = read_file(font_path);
    stbtt_fontinfo info{};
    REQUIRE(stbtt_InitFont(&info, reinterpret_cast<const unsigned char*>(font.data()),
                           stbtt_GetFontOffsetForIndex(reinterpret_cast<const unsigned char*>(font.data()), 0)));
    const std::pair<Query, std::vector<ls::Operand>> figs[] = {
        {query("sm_80", "mma_m16n8k16_f32_f16"), {ls::Operand::A, ls::Operand::B, ls::Operand::D}},
        {query("gfx1250", "v_wmma_f32_16x16x128_f8f6f4", fmt(4, -1)), {ls::Operand::A, ls::Operand::B, ls::Operand::D}},
        {query("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", cb(2, 0)), {ls::Operand::A, ls::Operand::B, ls::Operand::D}},
    };
    for (const auto& [q, ops] : figs) {
        INFO(q.ins->mnemonic);
        const fig::Figure f = figure(q, ops);
        for (std::uint32_t cp : code_points(all_text(f)))
            if (cp >= 0x20) {
                INFO("U+" << std::hex << cp);
                CHECK(stbtt_FindGlyphIndex(&info, static_cast<int>(cp)) != 0);
            }
        // The PNG draws this model: its size is the figure's at `scale` pixels a unit.
        const double scale = std::min(2.0, 16000 / std::max(f.width, f.height));
        const std::vector<std::uint8_t> png = fig::to_png(f, scale, font_path);
        REQUIRE(png.size() > 24);
        const auto be32 = [&](size_t at) { return (png[at] << 24) | (png[at + 1] << 16) | (png[at + 2] << 8) | png[at + 3]; };
        CHECK(std::abs(be32(16) - f.width * scale) <= 1);
        CHECK(std::abs(be32(20) - f.height * scale) <= 1);
    }
}

namespace {

// A register-axis name: "v3" (AMD) or PTX's fragment element "a1" (NVIDIA).
bool axis_name(const std::string& s) { return std::regex_match(s, std::regex(R"([vabcde]\d+)")); }

struct TileAt {
    std::string op;
    int block = 0, row = 0, col = 0;
};
TileAt parse_id(const std::string& id) {
    TileAt t;
    const size_t a = id.find('.');
    t.op = id.substr(0, a);
    std::sscanf(id.c_str() + a + 1, "%d.%d.%d", &t.block, &t.row, &t.col);
    return t;
}

}  // namespace

TEST_CASE("register axes read in order: every n-th run named (n a power of two), each name the register beside it") {
    struct Case {
        const char* arch;
        const char* instruction;
        ls::Modifiers mods;
    };
    ls::Modifiers w64;
    w64.wave = 64;
    const Case cases[] = {
        {"gfx1250", "v_wmma_f32_16x16x128_f8f6f4", fmt(4, -1)},  // the issue's "v0 v5 v2 v7"
        {"gfx1250", "v_wmma_f32_16x16x128_f8f6f4", {}},
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", cb(4, 0)},
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", cb(2, 3)},
        {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", {}},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", w64},
        {"gfx942", "v_smfmac_f32_16x16x32_f16", {}},
        {"gfx942", "v_mfma_f32_32x32x8_f16", {}},
        {"sm_80", "mma_m16n8k16_f32_f16", {}},
        {"sm_80", "mma_sp_m16n8k32_f32_f16", {}},
    };
    size_t axes = 0;
    for (const Case& c : cases)
        for (const double width : {480.0, 1000.0}) {  // TikZ at a column and a page
            const Query q = query(c.arch, c.instruction, c.mods);
            const std::vector<ls::Operand> ops{ls::Operand::A, ls::Operand::B, ls::Operand::D};
            const fig::Figure f = figure(q, ops, width, 10);
            std::map<std::string, ls::OperandLayout> layouts;
            for (ls::Operand op : ops) layouts.emplace(std::string(ls::operand_name(op)), ls::layout_of(*q.ins, *q.target, op, q.mods));
            // Each axis name: the tile beside it (rows axis: left of it, cols axis: above it).
            struct Named {
                double pos;
                int index;
                std::string name;
            };
            std::map<std::tuple<std::string, int, bool, double>, std::vector<Named>> groups;  // (op, block, rows?, line) -> names
            for (const fig::Text& t : f.texts) {
                if (!axis_name(t.text) || t.bold) continue;
                const bool rows = t.anchor == fig::Anchor::Start;
                const fig::Tile* near = nullptr;
                for (const fig::Tile& tile : f.tiles) {
                    if (tile.id.empty()) continue;
                    const bool beside = rows ? t.x - (tile.x + tile.w) >= 0 && t.x - (tile.x + tile.w) < t.size &&
                                                   t.y - 0.35 * t.size - 0.01 >= tile.y && t.y - 0.35 * t.size - 0.01 < tile.y + tile.h
                                             : t.y - (tile.y + tile.h) >= 0 && t.y - (tile.y + tile.h) < 1.5 * t.size &&
                                                   t.x - 0.01 >= tile.x && t.x - 0.01 < tile.x + tile.w;
                    if (beside) near = &tile;
                }
                INFO(c.arch << " " << c.instruction << " width " << width << ": axis name " << t.text << " at " << t.x << "," << t.y);
                REQUIRE(near);
                const TileAt at = parse_id(near->id);
                const ls::OperandLayout& L = layouts.at(at.op);
                const std::vector<ls::Location> locs = L.where({at.block, at.row, at.col});
                REQUIRE(!locs.empty());
                // Truthful: the register of that row (column) is the one named.
                CHECK(ls::cell_label(*q.ins, L.operand(), locs.front(), L.element_bits()).reg_bare == t.text);
                groups[{at.op, at.block, rows, rows ? t.x : t.y}].push_back({rows ? t.y : t.x, rows ? at.row : at.col, t.text});
            }
            // Regular: along each axis the named runs are runs 0, n, 2n, ... of its register runs.
            for (auto& [key, names] : groups) {
                const auto& [op, block, rows, line] = key;
                const ls::OperandLayout& L = layouts.at(op);
                const int count = rows ? L.rows() : L.cols();
                std::vector<int> run_of(count);
                std::string prev;
                int run = -1;
                for (int i = 0; i < count; ++i) {
                    const ls::Element e = rows ? ls::Element{block, i, 0} : ls::Element{block, 0, i};
                    const std::vector<ls::Location> locs = L.where(e);
                    const std::string name = locs.empty() ? "" : std::to_string(locs.front().reg) + ":" +
                                                                     ls::cell_label(*q.ins, L.operand(), locs.front(), L.element_bits()).reg_bare;
                    if (i == 0 || name != prev) ++run;
                    run_of[i] = run;
                    prev = name;
                }
                std::sort(names.begin(), names.end(), [](const Named& a, const Named& b) { return a.pos < b.pos; });
                std::string seq;
                for (const Named& n : names) seq += n.name + " ";
                INFO(c.arch << " " << c.instruction << " width " << width << " " << op << " block " << block
                            << (rows ? " rows" : " columns") << " axis: " << seq);
                CHECK(run_of[names.front().index] == 0);
                const int step = names.size() > 1 ? run_of[names[1].index] - run_of[names[0].index] : 1;
                CHECK((step > 0 && (step & (step - 1)) == 0));
                for (size_t n = 1; n < names.size(); ++n) CHECK(run_of[names[n].index] - run_of[names[n - 1].index] == step);
                ++axes;
            }
        }
    CHECK(axes >= 10);  // the cases do draw register axes

    // The issue's figure: D of gfx1250's f8f6f4 keeps row i in v(i % 8) (info: "C/D: ... e = i%8"),
    // so its rows axis reads v0 < v(n) < v(2n) ... within every 8 rows.
    const Query q = query("gfx1250", "v_wmma_f32_16x16x128_f8f6f4", fmt(4, -1));
    const fig::Figure f = figure(q, {ls::Operand::A, ls::Operand::B, ls::Operand::D}, 480, 10);
    std::vector<std::pair<double, int>> d;  // (y, register) of the names right of D
    double right = 0, top = 1e9, bottom = 0;
    for (const fig::Tile& t : f.tiles)
        if (t.id.rfind("D.", 0) == 0) right = std::max(right, t.x + t.w), top = std::min(top, t.y), bottom = std::max(bottom, t.y + t.h);
    for (const fig::Text& t : f.texts)
        if (axis_name(t.text) && t.anchor == fig::Anchor::Start && t.x > right && t.x < right + t.size && t.y > top && t.y < bottom + t.size)
            d.push_back({t.y, std::atoi(t.text.c_str() + 1)});
    std::sort(d.begin(), d.end());
    REQUIRE(d.size() >= 2);
    std::string seq;
    for (const auto& [y, r] : d) seq += "v" + std::to_string(r) + " ";
    INFO("D's rows axis: " << seq);
    for (size_t n = 1; n < d.size(); ++n)
        if (d[n].second != 0) CHECK(d[n].second > d[n - 1].second);  // ascending, restarting at v0 each 8 rows
}
