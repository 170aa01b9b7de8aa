// CSV and Markdown outputs are one table each, checked by their consumers'
// grammars, written here from the specifications: RFC 4180 (records of
// fields separated by commas, a field with a comma, quote or line break
// quoted, quotes doubled, every record as many fields as the header) and the
// table extension of GitHub Flavored Markdown (a header row, a delimiter row of
// ---, rows of as many cells, | escaped as \| inside a cell, no other lines).
// Every subcommand whose --help offers csv or markdown is run here.
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {
using lstest::cli;
using lstest::Run;

// RFC 4180, strictly: "" when `text` is one table of at least a header, else what breaks it.
std::string csv_problem(const std::string& text) {
    if (text.empty()) return "empty";
    if (text.back() != '\n') return "no line break after the last record";
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false, was_quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false, was_quoted = true;
            else field += c;
            continue;
        }
        if (c == '"') {
            if (!field.empty() || was_quoted) return "a quote inside an unquoted field at byte " + std::to_string(i);
            quoted = true;
        } else if (c == ',') {
            record.push_back(field), field.clear(), was_quoted = false;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')) return "a bare CR";
            if (c == '\r') ++i;
            record.push_back(field), field.clear(), was_quoted = false;
            if (record.size() == 1 && record[0].empty()) return "an empty line (record " + std::to_string(records.size() + 1) + ")";
            records.push_back(record), record.clear();
        } else {
            if (was_quoted) return "text after a closing quote at byte " + std::to_string(i);
            field += c;
        }
    }
    if (quoted) return "an unterminated quoted field";
    for (size_t r = 1; r < records.size(); ++r)
        if (records[r].size() != records[0].size())
            return "record " + std::to_string(r + 1) + " has " + std::to_string(records[r].size()) + " fields, the header " +
                   std::to_string(records[0].size()) + ": " + records[r][0].substr(0, 60);
    return "";
}

// One row of a GFM table: the cells between unescaped pipes, or none when the line is no row.
bool gfm_row(const std::string& line, std::vector<std::string>& cells) {
    cells.clear();
    if (line.size() < 2 || line.front() != '|' || line.back() != '|') return false;
    std::string cell;
    for (size_t i = 1; i + 1 < line.size(); ++i) {
        if (line[i] == '\\' && i + 2 < line.size()) {
            cell += line.substr(i, 2), ++i;
        } else if (line[i] == '|') {
            cells.push_back(cell), cell.clear();
        } else {
            cell += line[i];
        }
    }
    cells.push_back(cell);
    return true;
}

std::string markdown_problem(const std::string& text) {
    if (text.empty() || text.back() != '\n') return "empty or no final line break";
    std::vector<std::string> lines;
    for (size_t start = 0; start < text.size();) {
        const size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    if (lines.size() < 2) return "fewer than a header and a delimiter row";
    std::vector<std::string> head, cells;
    if (!gfm_row(lines[0], head)) return "line 1 is not a table row: " + lines[0].substr(0, 80);
    if (!gfm_row(lines[1], cells) || cells.size() != head.size()) return "line 2 is not the delimiter row";
    for (const auto& c : cells)
        if (!std::regex_match(c, std::regex(" *:?-+:? *"))) return "line 2 is not the delimiter row: " + lines[1].substr(0, 80);
    for (size_t n = 2; n < lines.size(); ++n) {
        if (!gfm_row(lines[n], cells)) return "line " + std::to_string(n + 1) + " is not a table row: " + lines[n].substr(0, 80);
        if (cells.size() != head.size())
            return "line " + std::to_string(n + 1) + " has " + std::to_string(cells.size()) + " cells, the header " +
                   std::to_string(head.size());
    }
    return "";
}

}  // namespace

TEST_CASE("the strict checkers refuse what is not one table") {
    CHECK(csv_problem("a,b\n1,2\n").empty());
    CHECK(csv_problem("a,b\n\"x, \"\"y\"\"\n z\",2\n").empty());
    CHECK_FALSE(csv_problem("a,b\n1,2\n\nc\n").empty());
    CHECK_FALSE(csv_problem("title\na,b\n1,2\n").empty());
    CHECK_FALSE(csv_problem("a,b\n1,x\"y\n").empty());
    CHECK(markdown_problem("| a | b |\n|---|---|\n| 1 | x \\| y |\n").empty());
    CHECK_FALSE(markdown_problem("### title\n\n| a |\n|---|\n| 1 |\n").empty());
    CHECK_FALSE(markdown_problem("| a |\n|---|\n| 1 |\n\nnote: x\n").empty());
    CHECK_FALSE(markdown_problem("| a | b |\n|---|---|\n| 1 | x | y |\n").empty());
}

TEST_CASE("every --format csv and --format markdown output is one table (RFC 4180, GitHub Flavored Markdown)") {
    const std::string mfma = "-a gfx942 -i v_mfma_f32_32x32x8_f16";
    const std::string tile = " --waves 2x2";
    const std::vector<std::string> queries = {
        "list -a gfx942",
        "list",
        "info " + mfma,
        "info -a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4",
        "info -a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4",
        "info -a sm_90 -i wgmma_m64n8k16_f32_f16",
        "layout " + mfma + " --operand A",
        "layout " + mfma + " --operand A --view registers",
        "layout -a gfx942 -i v_mfma_f32_32x32x1_2b_f32 --operand C",
        "layout -a gfx942 -i v_mfma_f32_32x32x1_2b_f32 --operand C --view registers",
        "layout -a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --operand A",
        "layout -a sm_80 -i mma_m16n8k16_f32_f16 --operand A",
        "layout " + mfma + " --operand C" + tile,
        "layout " + mfma + " --operand A" + tile + " --view registers",
        "where " + mfma + " --operand A --row 1 --col 2",
        "where " + mfma + " --operand A --row 1",
        "where " + mfma + " --operand A --row 1 --col 2" + tile,
        "where -a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --operand A --row 1 --col 2",
        "which " + mfma + " --operand A --reg 1 --lane 2",
        "which " + mfma + " --operand A --lane 2" + tile,
        "which -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --reg 1 --lane 2",
        "which -a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --operand A --reg 1 --lane 2",
        "trace " + mfma + " --row 1 --col 2",
        "trace -a gfx942 -i v_mfma_f32_32x32x1_2b_f32 --row 1 --col 2 --block 1",
        "trace " + mfma + " --row 1 --col 2" + tile,
        "load " + mfma + " --operand A",
        "load " + mfma + " --operand A --sweep",
        "load -a gfx1250 -i v_wmma_f32_16x16x32_f16 --operand A",
        "tma --box 64x8 --element-bits 16 --swizzle 128B",
        "tma --box 32x4 --element-bits 16 --swizzle 64B --smem-address 384",
    };
    std::set<std::string> covered;
    for (const std::string& q : queries) {
        covered.insert(q.substr(0, q.find(' ')));
        for (const char* format : {"csv", "markdown"}) {
            Run r = cli(q + " --format " + format);
            INFO(q << " --format " << format << "\n" << r.err << r.out.substr(0, 2000));
            REQUIRE(r.status == 0);
            CHECK((std::string(format) == "csv" ? csv_problem(r.out) : markdown_problem(r.out)) == "");
        }
    }
    // A linear layout's table too.
    Run lin = cli("layout " + mfma + " --operand C --format linear");
    const std::string file = lstest::write_temp("lanescope_one_table.json", lin.out);
    CHECK(csv_problem(cli("layout --linear " + file + " --format csv").out) == "");
    CHECK(cli("layout --linear " + file + " --format markdown").status == 1);  // offered as table, csv, json, linear
    // Several operands are several tables: refused for CSV and Markdown, with what is legal.
    for (const char* format : {"csv", "markdown"}) {
        Run all = cli("layout " + mfma + " --operand all --format " + format);
        CHECK(all.status == 1);
        CHECK(all.out.empty());
        CHECK(all.err.find("legal: one operand") != std::string::npos);
    }
    // Every subcommand that offers csv or markdown is among those run above.
    Run help = cli("--help");
    std::regex sub(R"(\n  ([a-z]+) {2,})");
    for (auto it = std::sregex_iterator(help.out.begin(), help.out.end(), sub); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1];
        const Run h = cli(name + " --help");
        const bool offers = h.out.find("csv") != std::string::npos || h.out.find("markdown") != std::string::npos;
        INFO(name);
        // check, header and verify share the option's help but take table/json (check, verify) or C++ (header).
        if (offers && name != "check" && name != "header" && name != "verify") CHECK(covered.count(name) == 1);
    }

    // check and header refuse both formats.
    CHECK(cli("check " + mfma + " --operand C --layout " + file + " --format csv").status == 1);
    CHECK(cli("header " + mfma + " --format markdown -o -").status == 2);
}
