// The app's command-line refusals, each for its whole class: --operand lists, --compare-arch's
// choice of instruction, the messages of modifiers that do not apply (gfx1250), --pin outside what
// is shown, and the window placement the settings file keeps.
#include "model/goto.hpp"
#include "model/options.hpp"
#include "model/selection.hpp"
#include "model/settings.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ls = lanescope;
using namespace lsapp;

namespace {

const ls::Instruction& find(const char* arch, const char* name) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    return cat.find_instruction(cat.find_target(arch), name);
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ls::Error& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("option --operand: empty items and repeated names are refused, naming the legal operands") {
    const ls::Instruction& ins = find("gfx1250", "v_wmma_f32_16x16x4_f32");
    for (const char* text : {"A,", ",B", "A,,B", ","}) {
        INFO(text);
        const std::string e = error_of([&] { parse_operand_list(text, ins); });
        CHECK(has(e, "empty item"));
        CHECK(has(e, "A, B"));
    }
    for (const char* text : {"A,A", "A,A,A", "D,B,D"}) {
        INFO(text);
        const std::string e = error_of([&] { parse_operand_list(text, ins); });
        CHECK(has(e, "twice"));
    }
    CHECK(parse_operand_list("A,B", ins) == std::vector<ls::Operand>{ls::Operand::A, ls::Operand::B});
    CHECK(parse_operand_list("all", ins).empty());
    CHECK(has(error_of([&] { parse_operand_list("A,all", ins); }), "alone"));
    CHECK(has(error_of([&] { parse_operand_list("Q", ins); }), "legal: A, B"));
}

TEST_CASE("option --compare-arch: the same instruction, else one of the same shape and types, else a refusal naming them") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    // gfx942 (CDNA3) has no 16x16x32 f16 MFMA (CDNA3 ISA: v_mfma_f32_16x16x16_f16 is its 16x16 f16 one);
    // the old answer was gfx942's first catalog row, a 32x32x1 f32 MFMA.
    const std::string e = error_of([&] { compare_instruction(cat, find("gfx1250", "v_wmma_f32_16x16x32_f16"), cat.find_target("gfx942")); });
    CHECK(has(e, "--compare-instruction"));
    CHECK(has(e, "v_mfma_f32_16x16x16_f16"));
    CHECK_FALSE(has(e, "v_mfma_f32_32x32x1_2b_f32"));
    // The same builtin on another RDNA generation.
    CHECK(compare_instruction(cat, find("gfx1100", "v_wmma_f32_16x16x16_f16"), cat.find_target("gfx1200")) ==
          "v_wmma_f32_16x16x16_f16");
    // The class: for every AMD instruction against every other AMD family, either a refusal or an
    // instruction with the same name, or the same shape, blocks, sparsity and types.
    for (const ls::Target& from : cat.targets()) {
        if (from.vendor() != ls::Vendor::AMD) continue;
        for (const ls::Target& to : cat.targets()) {
            if (to.vendor() != ls::Vendor::AMD || to.family == from.family) continue;
            for (const ls::Instruction* ins : cat.on(from.family)) {
                std::string name;
                try {
                    name = compare_instruction(cat, *ins, to);
                } catch (const ls::Error& err) {
                    CHECK(has(err.what(), "legal: "));
                    continue;
                }
                const ls::Instruction& got = cat.find_instruction(to, name);
                INFO(ins->mnemonic << " on " << from.gfx << " -> " << got.mnemonic << " on " << to.gfx);
                const bool same_name = got.mnemonic == ins->mnemonic || got.builtin_pattern == ins->builtin_pattern;
                const bool alike = got.m == ins->m && got.n == ins->n && got.k == ins->k && got.blocks == ins->blocks &&
                                   got.a == ins->a && got.b == ins->b && got.c == ins->c && got.sparse() == ins->sparse();
                CHECK((same_name || alike));
            }
            break;  // one other target per family is enough
        }
    }
}

TEST_CASE("gfx1250: a field the instruction lacks names only the controls it has, and no name's number as legal") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx1250");
    const char* fields[] = {"cbsz", "abid", "blgp", "opsel"};
    const char* controls[] = {"matrix_a_fmt", "matrix_b_fmt", "matrix_a_scale", "matrix_b_scale", "matrix_a_scale_fmt",
                              "matrix_b_scale_fmt", "index_key"};
    for (const ls::Instruction* ins : cat.on(t.family)) {
        // A control the instruction has: any value of it is judged by its range, not refused as absent.
        auto applies = [&](const std::string& f) {
            ls::Modifiers m;
            ls::set_modifier(m, f, 1);
            return !has(error_of([&] { ls::resolve_modifiers(*ins, t, m); }), "does not apply");
        };
        for (const char* f : fields) {
            ls::Modifiers m;
            ls::set_modifier(m, f, 1);
            const std::string e = error_of([&] { ls::resolve_modifiers(*ins, t, m); });
            INFO(ins->mnemonic << " --" << f << " 1: " << e);
            REQUIRE(has(e, "does not apply"));
            for (const char* c : controls) {
                std::string flag = std::string("--") + c;
                for (char& ch : flag)
                    if (ch == '_') ch = '-';
                // "--matrix-a-scale" is a prefix of "--matrix-a-scale-fmt": look for it followed by a separator.
                const bool named = has(e, flag + ",") || has(e, flag + ")");
                CHECK(named == applies(c));
            }
        }
        // A named control that does not apply: its 0 is a name (fp8, ROW0, E8M0), never "legal: 0".
        if (!applies("matrix_a_fmt")) {
            ls::Modifiers m;
            m.matrix_a_fmt = 4;
            const std::string e = error_of([&] { ls::resolve_modifiers(*ins, t, m); });
            INFO(ins->mnemonic << ": " << e);
            CHECK(has(e, "legal: leave the option out"));
        }
    }
}

TEST_CASE("option --pin outside what is shown: the message names the operands and lanes that are") {
    const LayoutSet set = resolve_selection(ls::Catalog::builtin(), Selection{"gfx942", "v_mfma_f32_32x32x8_f16", {}});
    const std::string wave = error_of([&] { parse_place("lane,5,0", set, nullptr); });
    CHECK(has(wave, "tile mode"));
    CHECK(has(wave, "A, B, C, D"));
    CHECK(has(wave, "lanes 0..63"));
    const std::string k = error_of([&] { parse_place("K,1,1", set, nullptr); });
    CHECK(has(k, "A, B, C, D"));
}

TEST_CASE("window placement: fitted to the monitor, and saved only as the reader takes it back") {
    const std::vector<ScreenArea> one = {{0, 0, 1280, 800}};
    const WindowSettings big = fit_window({-1, -1, 16384, 16384}, one);
    CHECK(big.width == 1280);
    CHECK(big.height == 800);
    const WindowSettings far = fit_window({40000, 40000, 1000, 700}, one);
    CHECK(far.x + far.width <= 1280);
    CHECK(far.y + far.height <= 800);
    CHECK(far.x >= 0);
    // A second monitor to the right: a window on it stays there, inside it.
    const std::vector<ScreenArea> two = {{0, 0, 1280, 800}, {1280, 0, 1920, 1080}};
    const WindowSettings right = fit_window({1500, 100, 4000, 4000}, two);
    CHECK(right.x == 1280);
    CHECK(right.width == 1920);
    CHECK(right.height == 1080);
    // Whatever the window system reports, what is written is read back without a warning: positions that went
    // negative (X11 wraps at 16 bits: 40000 -> -25536), beyond the reader's range, sizes below or above it.
    for (const WindowSettings w : {WindowSettings{-25536, -5, 1400, 900}, WindowSettings{200000, 7, 100, 50},
                                   WindowSettings{10, 20, 40000, 30000}}) {
        Settings s;
        s.window = w;
        std::vector<std::string> warnings;
        const Settings back = from_text(to_text(s), &warnings);
        INFO(to_text(s));
        CHECK(warnings.empty());
        CHECK(back.window.x == legal_window(w).x);
        CHECK(back.window.width == legal_window(w).width);
    }
}
