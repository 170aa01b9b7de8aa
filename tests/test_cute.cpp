// CuTe layouts (cute.hpp): the printed shape:stride, parsed here on its own and
// evaluated with CuTe's colexicographic rule, gives every (thread, value) the
// element the engine's entries say.
#include "helpers.hpp"
#include "shell_run.hpp"

#include "lanescope/cute.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <tuple>

namespace {
namespace ls = lanescope;

// A CuTe tuple: an integer or a list of tuples.
struct Tup {
    long long value = 0;
    std::vector<Tup> items;
    bool leaf = true;
};
Tup parse_tup(const std::string& s, size_t& p) {
    Tup t;
    if (s[p] == '(') {
        t.leaf = false;
        ++p;
        while (true) {
            t.items.push_back(parse_tup(s, p));
            if (s[p] == ',') {
                ++p;
                continue;
            }
            REQUIRE(s[p] == ')');
            ++p;
            return t;
        }
    }
    size_t start = p;
    while (p < s.size() && (isdigit(static_cast<unsigned char>(s[p])) || s[p] == '-')) ++p;
    REQUIRE(p > start);
    t.value = std::stoll(s.substr(start, p - start));
    return t;
}
long long size_of(const Tup& shape) {
    if (shape.leaf) return shape.value;
    long long n = 1;
    for (const auto& i : shape.items) n *= size_of(i);
    return n;
}
// CuTe: a coordinate x in a mode of shape (s0, s1, ...) splits as x0 = x % size(s0), x / size(s0) -> the rest.
long long eval(const Tup& shape, const Tup& stride, long long x) {
    if (shape.leaf) return (x % shape.value) * stride.value;
    REQUIRE(shape.items.size() == stride.items.size());
    long long off = 0;
    for (size_t i = 0; i < shape.items.size(); ++i) {
        long long n = size_of(shape.items[i]);
        off += eval(shape.items[i], stride.items[i], x % n);
        x /= n;
    }
    return off;
}

}  // namespace

TEST_CASE("cute format: evaluates back to the engine over every (thread, value)") {
    int expressible = 0, not_expressible = 0;
    auto check = [&](const lstest::Case& c, ls::Operand op, const ls::TileParams& p) {
        ls::TileLayout t(*c.ins, *c.target, op, c.mods, p);
        INFO(c.name() << " " << ls::operand_name(op) << " " << t.params().describe());
        ls::CuteResult r = ls::to_cute(t);
        if (!r.layout) {
            ++not_expressible;
            CHECK_FALSE(r.why_not.empty());
            return;
        }
        ++expressible;
        const std::string text = r.layout->text();
        INFO(text);
        size_t pos = 0;
        Tup shape = parse_tup(text, pos);
        REQUIRE(text[pos] == ':');
        ++pos;
        Tup stride = parse_tup(text, pos);
        REQUIRE(pos == text.size());
        REQUIRE(shape.items.size() == 2);
        // The engine's entries, by (wave, lane) then (reg, bit_lo).
        std::map<std::tuple<int, int, int, int>, ls::Element> slots;
        for (const auto& e : t.entries()) slots[{e.at.wave, e.at.loc.lane, e.at.loc.reg, e.at.loc.bit_lo}] = e.element;
        std::map<int, std::vector<ls::Element>> per_thread;
        for (const auto& [k, e] : slots) per_thread[std::get<0>(k) * t.lanes() + std::get<1>(k)].push_back(e);
        REQUIRE(size_of(shape.items[0]) == t.waves() * t.lanes());
        for (const auto& [thread, list] : per_thread) {
            REQUIRE(size_of(shape.items[1]) == static_cast<long long>(list.size()));
            for (size_t v = 0; v < list.size(); ++v)
                REQUIRE(eval(shape.items[0], stride.items[0], thread) + eval(shape.items[1], stride.items[1], v) ==
                        list[v].row + static_cast<long long>(list[v].col) * t.rows());
        }
    };
    lstest::for_each_default([&](const lstest::Case& c) {
        if (c.ins->blocks != 1) return;
        for (ls::Operand op : ls::operands_of(*c.ins)) {
            check(c, op, {});
            if (op == ls::Operand::A || op == ls::Operand::C) check(c, op, {2, 2, 2, 1, 0, 0, c.ins->k * 2});
        }
    });
    WARN("layouts expressible in CuTe: " << expressible << ", not: " << not_expressible);
    CHECK(expressible > 300);
}

TEST_CASE("cute format: known layouts and a refusal") {
    auto run = [](const std::string& q) { return lstest::run_command(std::string(LANESCOPE_CLI) + " layout " + q + " -f cute"); };
    // 32x32x8 f16 C: lane%32 is the column (stride 32 in a column-major 32x32), lane/32 four rows;
    // values: four consecutive rows, then 8 rows on.
    auto r = run("-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C");
    REQUIRE(r.status == 0);
    CHECK(r.out == "((32,2),(4,4)):((32,4),(1,8))\n");
    // RDNA3 A: lanes 16-31 repeat lanes 0-15 (stride 0).
    r = run("-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand A");
    REQUIRE(r.status == 0);
    CHECK(r.out == "((16,2),16):((1,0),16)\n");
    r = run("-a gfx942 -i v_smfmac_f32_16x16x32_f16 --operand A");
    CHECK(r.status == 1);
    CHECK(r.err.find("not expressible as a CuTe layout") != std::string::npos);
    CHECK(r.out.empty());
}
