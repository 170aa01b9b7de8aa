// Every symbol a layout formula uses is defined beside it: scan the
// formula text of every instruction under every legal modifier combination for
// single-letter symbols and require a definition from formula_symbols().
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <string>

namespace {

namespace ls = lanescope;

bool letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// Single-letter symbols of `s`, scanned independently of the engine: a letter
// with no letter, '_' or apostrophe before it and no letter, digit or '_'
// after it ("2q" is q; "E4M3", "k's" and "set(s)" hold no new symbol). A prime that is
// not a possessive stays on ("b'").
std::set<std::string> single_letters(const std::string& s) {
    std::set<std::string> out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (!std::isalpha(static_cast<unsigned char>(s[i]))) continue;
        if (i > 0 && (letter(s[i - 1]) || s[i - 1] == '\'')) continue;
        if (i > 1 && s[i - 1] == '(' && letter(s[i - 2]) && s.compare(i, 2, "s)") == 0) continue;  // "set(s)"
        if (i + 1 < s.size() && (letter(s[i + 1]) || std::isdigit(static_cast<unsigned char>(s[i + 1])))) continue;
        std::string sym(1, s[i]);
        if (i + 1 < s.size() && s[i + 1] == '\'' && !(i + 2 < s.size() && letter(s[i + 2]))) sym += '\'';
        out.insert(sym);
    }
    return out;
}

// A definition covers `sym` when it is the symbol itself or starts with it
// followed by no letter: "p(l)" covers p, "v[h:l]" covers v.
bool defined(const std::vector<ls::FormulaSymbol>& defs, const std::string& sym) {
    for (const ls::FormulaSymbol& d : defs)
        if (d.symbol == sym ||
            (d.symbol.size() > sym.size() && d.symbol.compare(0, sym.size(), sym) == 0 && !letter(d.symbol[sym.size()]) &&
             d.symbol[sym.size()] != '\''))
            return !d.meaning.empty();
    return false;
}

}  // namespace

TEST_CASE("the symbol scanner sees symbols and skips words, format names and possessives") {
    CHECK(single_letters("lane = i + 16*floor(k/8), pair q, items 2q, 2q+1") == std::set<std::string>{"i", "k", "q"});
    CHECK(single_letters("FP8 E4M3: k's group, B's lane, 2 set(s)") == std::set<std::string>{"k", "B"});
    CHECK(single_letters("block b reads block b' = 2*floor(b/2)") == std::set<std::string>{"b", "b'"});
    CHECK(single_letters("VGPR pair floor(i/4) (v[2p+1:2p])") == std::set<std::string>{"i", "v", "p"});
}

TEST_CASE("every single-letter symbol of every family's formulas is defined", "[slow]") {
    // Operand names head the lines ("A: ...", "C/D: ...") and are named in words
    // ("lane as A"); they are the operands themselves, not formula symbols.
    const std::set<std::string> operands{"A", "B", "C", "D", "K"};
    std::set<std::string> seen;
    size_t cases = 0;
    lstest::for_each_combination([&](const lstest::Case& c) {
        std::string text = ls::family_formulas(*c.ins, c.mods);
        for (ls::Operand op : ls::operands_of(*c.ins)) text += ls::layout_of(*c.ins, *c.target, op, c.mods).formula() + "\n";
        const std::vector<ls::FormulaSymbol> defs = ls::formula_symbols(*c.ins, text);
        for (const std::string& sym : single_letters(text)) {
            if (operands.count(sym)) continue;
            seen.insert(sym);
            INFO(c.name() << ": symbol " << sym << "\n" << text);
            CHECK(defined(defs, sym));
        }
        // No index or quantity is defined that the text does not use.
        for (const ls::FormulaSymbol& d : defs) {
            if (d.symbol.find_first_of("([%/{") != std::string::npos) continue;  // functions and notations
            INFO(c.name() << ": " << d.symbol);
            CHECK(text.find(d.symbol) != std::string::npos);
        }
        ++cases;
    });
    CHECK(cases > 1000);
    // The scan met the symbols the issue names and the families are known to use.
    for (const char* s : {"i", "j", "k", "b", "b'", "G", "g", "e", "q", "r", "p", "l", "v"}) {
        INFO(s);
        CHECK(seen.count(s) == 1);
    }
}

TEST_CASE("formula symbols carry the instruction's ranges") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Instruction* ins = &cat.find_instruction(cat.find_target("gfx942"), "v_mfma_f32_32x32x8_f16");
    const auto defs = ls::formula_symbols(*ins, "lane = j + 32*(floor(i/4)%2), VGPR = i%4 + 4*floor(i/8).  G%4");
    REQUIRE(defs.size() >= 3);
    CHECK(defs[0].symbol == "i");
    CHECK(defs[0].meaning.find("0..31") != std::string::npos);
    CHECK(ls::formula_symbols_text(*ins, "i").find("i: row of A") != std::string::npos);
}

TEST_CASE("every single-letter symbol of the NVIDIA formulas is defined, in PTX's terms", "[slow]") {
    const auto& cat = ls::Catalog::builtin();
    const std::set<std::string> operands{"A", "B", "C", "D", "K"};
    size_t cases = 0;
    for (ls::Family fam : {ls::Family::Ampere, ls::Family::Ada, ls::Family::Hopper}) {
        const ls::Target* t = nullptr;
        for (const auto& x : cat.targets())
            if (x.family == fam) t = &x;
        REQUIRE(t);
        for (const ls::Instruction* ins : cat.on(fam)) {
            const ls::ResolvedModifiers mods = ls::resolve_modifiers(*ins, *t, ls::Modifiers{});
            std::string text = ls::family_formulas(*ins, mods);
            for (ls::Operand op : ls::operands_of(*ins)) text += ls::layout_of(*ins, *t, op, mods).formula() + "\n";
            const std::vector<ls::FormulaSymbol> defs = ls::formula_symbols(*ins, text);
            for (const std::string& sym : single_letters(text)) {
                if (operands.count(sym)) continue;
                INFO(ins->mnemonic << ": symbol " << sym << "\n" << text);
                CHECK(defined(defs, sym));
            }
            ++cases;
        }
    }
    CHECK(cases > 300);
    // PTX's meanings, not AMD's: g is a quad, i an element index (reference nvidia-mma-fragments.md §1).
    const ls::Target& h = cat.find_target("sm_90");
    const ls::Instruction& mma = cat.find_instruction(h, "mma_m16n8k16_f32_f16");
    for (const ls::FormulaSymbol& d : ls::formula_symbols(mma, "g = lane/4, t = lane%4, i, r")) {
        if (d.symbol == "g") CHECK(d.meaning.find("floor(lane/4)") != std::string::npos);
        if (d.symbol == "i") CHECK(d.meaning.find("element index") != std::string::npos);
    }
}
