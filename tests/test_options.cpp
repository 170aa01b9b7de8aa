// Core's one table of modifier options (lanescope/options.hpp), which lanescope-cli
// and the app both add their flags from: names unique, every row a flag of
// lanescope-cli with the help it shows, ranges refused past their ends, named
// values read as LLVM's assembler and PTX spell them.
#include "lanescope/options.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

namespace ls = lanescope;

TEST_CASE("options: every row of the table is one flag, found by flag, short name and field") {
    std::set<std::string> flags, fields;
    for (const ls::ModifierOption& o : ls::modifier_options()) {
        INFO(o.names);
        CHECK(flags.insert(o.flag()).second);
        CHECK(fields.insert(std::string(o.field)).second);
        CHECK(ls::find_modifier_option(o.flag()) == &o);
        CHECK(ls::find_modifier_option(o.field) == &o);
        CHECK(o.flag().rfind("--", 0) == 0);
    }
    CHECK(ls::find_modifier_option("-w") == ls::find_modifier_option("--wave"));
    CHECK(ls::find_modifier_option("--no-such") == nullptr);
}

TEST_CASE("options: lanescope-cli's help shows each row with its own help text") {
    const std::string help = lstest::cli("where --help").out;
    for (const ls::ModifierOption& o : ls::modifier_options()) {
        INFO(o.names);
        CHECK(help.find(std::string(o.names) + " " + std::string(o.type)) != std::string::npos);
        CHECK(help.find(ls::option_help(o)) != std::string::npos);
    }
}

TEST_CASE("options: values are parsed and refused with what is legal") {
    for (const ls::ModifierOption& o : ls::modifier_options()) {
        INFO(o.names);
        if (o.value == ls::OptionValue::Integer) {
            CHECK(ls::parse_option_value(o, std::to_string(o.hi), o.flag()) == o.hi);
            const std::string past = std::to_string(o.hi + 1);
            CHECK_THROWS_WITH(ls::parse_option_value(o, past, o.flag()),
                              o.flag() + " '" + past + "' is not legal; legal: a whole number in " + std::to_string(o.lo) +
                                  ".." + std::to_string(o.hi));
        }
        CHECK_THROWS_AS(ls::parse_option_value(o, "", o.flag()), ls::Error);
        CHECK_THROWS_AS(ls::parse_option_value(o, "x1", o.flag()), ls::Error);
    }
    const auto& fmt = *ls::find_modifier_option("matrix_a_fmt");
    CHECK(ls::parse_option_value(fmt, "fp4", "--matrix-a-fmt") == 4);          // LLVM's MATRIX_FMT_FP4
    CHECK(ls::parse_option_value(fmt, "MATRIX_FMT_BF8", "--matrix-a-fmt") == 1);  // MATRIX_FMT_BF8
    CHECK_THROWS_WITH(ls::parse_option_value(fmt, "fp5", "--matrix-a-fmt"),
                      "--matrix-a-fmt 'fp5' is not a value, legal: fp8 bf8 fp6 bf6 fp4 (or 0..4)");
    CHECK(ls::parse_option_value(*ls::find_modifier_option("--tmem-load"), "16x256b", "--tmem-load") == 4);
    CHECK(ls::parse_option_value(*ls::find_modifier_option("--major"), "MN", "--major") == 1);
    CHECK_THROWS_WITH(ls::parse_option_value(*ls::find_modifier_option("--major"), "2", "--major"),
                      "--major '2' is not legal; legal: K, MN");
    CHECK(ls::parse_option_value(*ls::find_modifier_option("--lbo"), "0x100", "--lbo") == 256);
    CHECK_THROWS_AS(ls::parse_option_value(*ls::find_modifier_option("--lbo"), "0x40000", "--lbo"), ls::Error);  // 2^18
    CHECK(ls::parse_option_value(*ls::find_modifier_option("--descriptor"), "0xffffffffffffffff", "--descriptor") ==
          ~std::uint64_t{0});
}

TEST_CASE("options: a parsed value lands in the field the row names") {
    ls::Modifiers m;
    ls::apply_option_value(m, *ls::find_modifier_option("--wave"), 64);
    ls::apply_option_value(m, *ls::find_modifier_option("--lbo"), 128);
    ls::apply_option_value(m, *ls::find_modifier_option("--descriptor"), 0x4000);
    ls::apply_option_value(m, *ls::find_modifier_option("--sf-thread-b"), 3);
    CHECK(m.wave == 64);
    CHECK(m.lbo == 128);
    CHECK(m.descriptor == std::uint64_t{0x4000});
    CHECK(m.sf_thread_b == 3);
    CHECK(m.cbsz == -1);
}
