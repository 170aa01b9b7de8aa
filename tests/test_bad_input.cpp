// The bad-input suite: lanescope-cli and the app run on a table of bad inputs
// (per flag, per file argument, per subcommand). Each must end with the
// documented exit status (1 bad query or failed write, 2 usage error), one
// clear message on stderr that names what was wrong and what is legal, nothing
// on stdout, and no file created or changed (a sandbox directory is compared
// before and after; /dev/null must stay a character device).
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <signal.h>
#include <sys/stat.h>
#include <thread>
#include <vector>

using namespace lstest;
namespace fs = std::filesystem;

namespace {

const std::string kCli = LANESCOPE_CLI;
const std::string kOk = " --arch gfx942 --instruction v_mfma_f32_32x32x8_f16";

struct BadCase {
    std::string args;                // after the program name; may use {dir} for the sandbox
    int status;                      // 1 or 2
    std::vector<std::string> says;   // stderr must contain each of these
};

// Every file under `dir` with its size and modification time.
std::map<std::string, std::pair<uintmax_t, long long>> snapshot(const fs::path& dir) {
    std::map<std::string, std::pair<uintmax_t, long long>> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        struct stat st {};
        ::lstat(e.path().c_str(), &st);
        out[e.path().string()] = {e.is_regular_file() ? e.file_size() : 0,
                                  static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
    }
    return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    return s;
}

// A sandbox with a previous export, a foreign directory, a file, a hostile catalog per row kind.
struct Sandbox {
    fs::path dir = temp_path("lanescope_bad_input");
    Sandbox() {
        fs::remove_all(dir);
        fs::create_directories(dir / "foreign");
        fs::create_directories(dir / "cfg");
        std::ofstream(dir / "foreign" / "mine.txt") << "not lanescope's\n";
        std::ofstream(dir / "existing.json") << "{}\n";
        const std::string ok_row =
            "cdna3 | mfma_x | v_mfma_x | - | mfma | SHAPE | BLOCKS | TYPES | 40 | CYC | VEC | - | mai-insts | x\n";
        auto row = [&](const char* shape, const char* blocks, const char* types, const char* cyc, const char* vec) {
            std::string r = ok_row;
            r = replace_all(r, "SHAPE", shape);
            r = replace_all(r, "BLOCKS", blocks);
            r = replace_all(r, "TYPES", types);
            r = replace_all(r, "CYC", cyc);
            return replace_all(r, "VEC", vec);
        };
        const char* v16 = "f32,f32,v16f32>v16f32";
        std::ofstream(dir / "zero_k.txt") << row("128x128x1", "1", "f32,f32,f32", "64", v16);
        std::ofstream(dir / "few_lanes.txt") << row("4x4x4", "1", "f16,f16,f32", "64", "v4f16,v4f16,v4f32>v4f32");
        std::ofstream(dir / "huge_k.txt") << row("32x32x1048576", "1", "f32,f32,f32", "64", v16);
        std::ofstream(dir / "huge_m.txt") << row("2147483648x32x2", "1", "f32,f32,f32", "64", v16);
        std::ofstream(dir / "zero_cycles.txt") << row("32x32x2", "1", "f32,f32,f32", "0", v16);
        std::ofstream(dir / "wrong_regs.txt") << row("32x32x2", "1", "f32,f32,f32", "64", "f32,f32,v4f32>v4f32");
        std::ofstream(dir / "bad_type.txt") << row("32x32x2", "1", "e8m0,e8m0,f32", "64", v16);
        std::ofstream(dir / "negative.txt") << row("32x32x-2", "1", "f32,f32,f32", "64", v16);
        std::ofstream(dir / "dup.txt") << row("32x32x2", "1", "f32,f32,f32", "64", v16) << row("32x32x2", "1", "f32,f32,f32", "64", v16);
        std::ofstream(dir / "inject.txt") << replace_all(row("32x32x2", "1", "f32,f32,f32", "64", v16), "mfma_x |", "mfma_x\"); system(\"x |");
        std::ofstream(dir / "binary.txt") << std::string("cdna3 | \0\1\2 | x\n", 17);
        // check's inputs: a linear layout, a contract whose operand is a number, a row past the range.
        std::ofstream(dir / "lin.json") << "{\"register\": [[0, 1]], \"lane\": [[1, 0]], \"warp\": [], \"shape\": [2, 2]}\n";
        std::ofstream(dir / "bigrow.csv") << "row,col,lane,reg,bit_lo,bit_hi\n2147483648,0,0,0,0,15\n";
        std::ofstream(dir / "operand5.json") << "{\"operand\": 5, \"entries\": []}\n";
        std::ofstream(dir / "deep.json") << std::string(100000, '[');
        std::ofstream(dir / "halfshape.json") << "{\"register\": [[0, 1]], \"lane\": [[1, 0]], \"shape\": [32, 8.5]}\n";
        std::ofstream(dir / "bigrow.json") << "{\"operand\": \"A\", \"entries\": [{\"row\": 2147483648, \"col\": 0, "
                                              "\"lane\": 0, \"reg\": 0, \"bit_lo\": 0, \"bit_hi\": 15}]}\n";
        // gfx1250 rows checked as every other: registers per operand (and per format), prefix words, D's type.
        const std::string g = "cdna5 | wmma_x | v_wmma_x | - | KIND | 16x16x128 | 1 | TYPES | OP | - | VEC | - | gfx1250-insts | x\n";
        auto grow = [&](const char* kind, const char* types, const char* op, const char* vec) {
            return replace_all(replace_all(replace_all(replace_all(g, "KIND", kind), "TYPES", types), "OP", op), "VEC", vec);
        };
        std::ofstream(dir / "g_regs.txt") << grow("wmma_gfx1250", "fp8,fp8,f32", "80", "v8i32,v8i32,v8f32>v8f32");
        std::ofstream(dir / "g_prefix.txt") << grow("wmma_gfx1250", "fp8,fp8,f32", "35+80", "v16i32,v16i32,v8f32>v8f32");
        std::ofstream(dir / "g_noprefix.txt") << grow("wmma_scale_gfx1250", "f8f6f4,f8f6f4,f32", "33", "v16i32,v16i32,v8f32>v8f32");
        std::ofstream(dir / "g_badprefix.txt") << grow("wmma_scale_gfx1250", "f8f6f4,f8f6f4,f32", "36+33", "v16i32,v16i32,v8f32>v8f32");
        std::ofstream(dir / "g_dtype.txt") << grow("wmma_gfx1250", "fp8,fp8,f32,f16", "80", "v16i32,v16i32,v8f32>v8f16");
        std::ofstream(dir / "g_dvec.txt") << grow("wmma_gfx1250", "fp8,fp8,f32", "80", "v16i32,v16i32,v8f32>v4f32");
    }
    ~Sandbox() { fs::remove_all(dir); }
};

// Per flag: malformed numbers, and numbers or choices outside what the instruction or subcommand allows.
std::vector<BadCase> flag_number_cases() {
    std::vector<BadCase> c;
    // Per flag: numbers are strict (sign, empty, trailing text, overflow, range).
    for (const char* flag : {"--cbsz", "--abid", "--blgp", "--opsel", "--opsel-a", "--opsel-b"})
        for (const char* v : {"-7", "''", "1x", "99999999999999999999", "' 1'", "1.5"})
            c.push_back({std::string("layout") + kOk + " " + flag + " " + v, 2, {flag, "legal"}});
    for (const char* v : {"16", "''", "-64", "w32"}) c.push_back({"layout" + kOk + " --wave " + v, 2, {"--wave", "legal"}});
    c.push_back({"layout --arch gfx1100 -i wmma_f32_16x16x16_f16_w32 --wave 48", 1, {"--wave 48", "legal"}});
    c.push_back({"layout" + kOk + " --cbsz 1", 1, {"--cbsz", "legal"}});
    // gfx1250 controls: names as the assembler spells them or numbers; each instruction's legal values.
    {
        const std::string f = " --arch gfx1250 -i v_wmma_f32_16x16x128_f8f6f4";
        const std::string sc = " --arch gfx1250 -i v_wmma_scale_f32_16x16x128_f8f6f4";
        for (const char* flag : {"--matrix-a-fmt", "--matrix-b-fmt", "--matrix-a-scale", "--matrix-b-scale",
                                 "--matrix-a-scale-fmt", "--matrix-b-scale-fmt"})
            for (const char* v : {"-1", "''", "fp5", "1x", "99999999999999999999"})
                c.push_back({std::string("layout") + sc + " " + flag + " " + v, 2, {flag, "legal"}});
        for (const char* v : {"-1", "''", "x"}) c.push_back({"layout" + sc + " --index-key " + std::string(v), 2, {"--index-key", "legal"}});
        // A number past the names is no value of the field at all (usage, as --tmem-load 7): the names are listed.
        c.push_back({"layout" + f + " --matrix-a-fmt 5", 2, {"--matrix-a-fmt '5'", "(or 0..4)", "fp4"}});
        c.push_back({"layout" + f + " --matrix-a-scale row1", 1, {"--matrix-a-scale", "wmma_scale"}});
        c.push_back({"layout" + f + " --cbsz 2", 1, {"--cbsz", "--matrix-a-fmt"}});
        c.push_back({"layout" + f + " --wave 64", 1, {"--wave 64", "wave32 only"}});
        c.push_back({"layout" + sc + " --matrix-b-scale-fmt 3", 2, {"--matrix-b-scale-fmt '3'", "(or 0..2)", "e4m3"}});
        c.push_back({"layout --arch gfx1250 -i v_wmma_scale_f32_32x16x128_f4 --matrix-a-scale row1", 1,
                     {"--matrix-a-scale 1", "no source says"}});
        c.push_back({"layout --arch gfx1250 -i v_swmmac_f32_16x16x128_fp8_fp8 --index-key 1", 1,
                     {"--index-key 1", "index_key 0 only"}});
        c.push_back({"layout" + kOk + " --matrix-a-fmt fp6", 1, {"--matrix-a-fmt", "only the gfx1250 f8f6f4"}});
        c.push_back({"layout --arch gfx1250 -i v_mfma_f32_32x32x8_f16", 1, {"v_mfma_f32_32x32x8_f16", "exists on cdna"}});
        // gfx1250 transpose loads whose lane rule no source gives: a plain refusal naming what is unknown.
        c.push_back({"load --arch gfx1250 -i v_wmma_f32_16x16x32_f16 --operand B --transpose", 1,
                     {"global_load_tr16_b128", "unknown", "legal: plain loads"}});
    }
    for (const char* v : {"-1", "''", "x", "4294967296"}) {
        c.push_back({"where" + kOk + " --row " + v + " --col 0", 2, {"--row", "legal"}});
        c.push_back({"where" + kOk + " --row 0 --col " + v, 2, {"--col", "legal"}});
        c.push_back({"where" + kOk + " --row 0 --col 0 --block " + v, 2, {"--block", "legal"}});
        c.push_back({"which" + kOk + " --reg " + v + " --lane 0", 2, {"--reg", "legal"}});
        c.push_back({"which" + kOk + " --reg 0 --lane " + v, 2, {"--lane", "legal"}});
        c.push_back({"trace" + kOk + " --row " + v + " --col 0", 2, {"--row", "legal"}});
        c.push_back({"bench --runs " + std::string(v), 2, {"--runs", "legal"}});
    }
    c.push_back({"where" + kOk + " --operand A --row 40 --col 0", 1, {"row 40", "legal: block 0..0, row 0..31"}});
    c.push_back({"where" + kOk + " --operand A --row 40", 1, {"row 40", "legal"}});
    c.push_back({"which" + kOk + " --operand A --reg 9 --lane 0", 1, {"reg 9", "legal"}});
    c.push_back({"which" + kOk + " --operand A --reg 0 --lane 64", 1, {"lane 64", "legal"}});
    c.push_back({"trace" + kOk + " --row 0 --col 0 --block 3", 1, {"block 3", "legal"}});
    c.push_back({"bench --runs 0", 2, {"--runs", "legal"}});
    c.push_back({"bench --catalog-rows -5", 2, {"--catalog-rows", "legal"}});
    c.push_back({"figure" + kOk + " -o {dir}/f.png --scale nan", 2, {"--scale", "legal"}});
    c.push_back({"figure" + kOk + " -o {dir}/f.png --scale 0", 2, {"--scale", "legal"}});
    c.push_back({"figure" + kOk + " -o {dir}/f.svg --color purple", 1, {"purple", "legal"}});
    c.push_back({"figure" + kOk + " -o {dir}/f.svg --color-by purple", 1, {"purple", "legal"}});
    c.push_back({"figure" + kOk + " -o {dir}/f.svg --theme neon", 1, {"neon", "legal"}});
    c.push_back({"verify --device software" + kOk + " --max-mismatches -1", 2, {"--max-mismatches", "legal"}});
    c.push_back({"conformance --jobs 0", 2, {"--jobs", "legal"}});
    return c;
}

// Unknown names and choices, a query missing what it needs, unknown subcommands, bad verify --device and --corrupt.
std::vector<BadCase> name_and_subcommand_cases() {
    std::vector<BadCase> c;
    // Names and choices.
    c.push_back({"layout --arch cdna9 --instruction v_mfma_f32_32x32x8_f16", 1, {"cdna9", "legal"}});
    c.push_back({"layout --arch cdna3 --instruction v_mfma_f32_32x32x8_f61", 1, {"v_mfma_f32_32x32x8_f61", "did you mean"}});
    c.push_back({"layout" + kOk + " --operand Q", 1, {"'Q'", "legal"}});
    c.push_back({"layout" + kOk + " --format yaml", 1, {"yaml", "legal"}});
    c.push_back({"layout" + kOk + " --view sideways", 1, {"sideways", "legal"}});
    c.push_back({"list --arch gfx9999", 1, {"gfx9999", "legal"}});
    // A query of one instruction needs it named: no silent default.
    for (const char* sub : {"info", "layout", "where --row 0 --col 0", "which --reg 0 --lane 0", "trace --row 0 --col 0"}) {
        c.push_back({std::string(sub), 2, {"--arch and --instruction", "list"}});
        c.push_back({std::string(sub) + " --arch gfx942", 2, {"--instruction", "list"}});
        c.push_back({std::string(sub) + " --instruction v_mfma_f32_32x32x8_f16", 2, {"--arch", "list"}});
    }
    c.push_back({"figure -o {dir}/f.svg", 2, {"--arch and --instruction"}});
    c.push_back({"where" + kOk, 2, {"--row", "--col"}});
    c.push_back({"which" + kOk + " --reg 0", 2, {"--lane"}});
    c.push_back({"trace" + kOk + " --row 0", 2, {"--col"}});
    // Subcommands.
    c.push_back({"frobnicate", 2, {"unknown subcommand 'frobnicate'", "legal subcommands: list info layout"}});
    c.push_back({"lsit", 2, {"'lsit'", "did you mean 'list'"}});
    c.push_back({"", 2, {"subcommand"}});
    c.push_back({"gallery --bench --match zzz_no_such_instruction", 1, {"zzz_no_such_instruction", "matches no"}});
    c.push_back({"gallery --svg -o {dir}/g --match zzz_no_such_instruction", 1, {"zzz_no_such_instruction", "legal"}});
    c.push_back({"verify --device tpu" + kOk, 1, {"tpu", "legal"}});
    c.push_back({"verify --device software" + kOk + " --corrupt K:swap-lanes:1:2", 1, {"no operand K", "legal"}});
    c.push_back({"verify --device software" + kOk + " --corrupt A:swap-lanes:1:1", 1, {"same", "legal"}});
    c.push_back({"verify --device software" + kOk + " --corrupt A:swap-lanes:1:99", 1, {"99", "legal"}});
    c.push_back({"verify --device software" + kOk + " --corrupt A:swap-lanes:1:2x", 1, {"'2x'", "legal"}});
    c.push_back({"verify --device software" + kOk + " --corrupt A:twist", 1, {"A:twist", "legal"}});
    c.push_back({"verify --device software --all --arch gfx942 --corrupt K:swap-lanes:1:70", 1, {"K:swap-lanes:1:70", "legal"}});
    c.push_back({"verify --device software --arch gfx1100 -i wmma_f32_16x16x16_f16_w32 --corrupt A:swap-lanes:1:40", 1,
                 {"outside wave32", "legal: 0..31"}});
    return c;
}

// Hostile catalog files, and load (and load --sweep) asked for what it cannot plan.
std::vector<BadCase> catalog_and_load_cases() {
    std::vector<BadCase> c;
    // File arguments: catalogs.
    c.push_back({"--catalog /dev/zero list", 1, {"/dev/zero", "NUL", "legal"}});
    c.push_back({"--catalog {dir} list", 1, {"is a directory", "legal"}});
    c.push_back({"--catalog {dir}/missing.txt list", 1, {"missing.txt", "No such file"}});
    for (const char* f : {"zero_k", "few_lanes", "huge_k", "huge_m", "zero_cycles", "wrong_regs", "bad_type", "negative",
                          "inject", "binary"})
        c.push_back({std::string("--catalog {dir}/") + f + ".txt info --arch gfx942 -i v_mfma_x", 1,
                     {std::string(f) + ".txt:1:", "legal"}});
    c.push_back({"--catalog {dir}/dup.txt list", 1, {"dup.txt:2:", "already defined", "legal"}});
    for (const char* f : {"g_regs", "g_prefix", "g_noprefix", "g_badprefix", "g_dtype", "g_dvec"})
        c.push_back({std::string("--catalog {dir}/") + f + ".txt info --arch gfx1250 -i v_wmma_x", 1,
                     {std::string(f) + ".txt:1:", "legal"}});
    // load: memory flags, strict numbers, what the plan cannot do; nothing written.
    const std::string load = "load" + kOk;
    c.push_back({load + " --memory shared -o {dir}/l.txt", 1, {"shared", "legal: lds, global"}});
    c.push_back({load + " --order diagonal -o {dir}/l.txt", 1, {"diagonal", "legal"}});
    c.push_back({load + " --ld 4 -o {dir}/l.txt", 1, {"ld 4", "legal: ld >= 8"}});
    for (const char* v : {"-1", "''", "8x", "99999999999"}) c.push_back({load + " --ld " + v, 2, {"--ld", "legal"}});
    c.push_back({load + " --pad -2", 2, {"--pad", "legal"}});
    c.push_back({load + " --swizzle 8,0,8 -o {dir}/l.txt", 1, {"--swizzle", "legal"}});
    c.push_back({load + " --swizzle 8,1 -o {dir}/l.txt", 1, {"--swizzle", "VEC,PER_PHASE,MAX_PHASE"}});
    c.push_back({load + " --order col --swizzle 64,1,4 -o {dir}/l.txt", 1, {"swizzle", "beyond ld", "legal"}});
    c.push_back({load + " --format yaml -o {dir}/l.txt", 1, {"yaml", "legal"}});
    c.push_back({load + " --operand all -o {dir}/l.txt", 1, {"one operand"}});
    c.push_back({load + " --operand A --store -o {dir}/l.txt", 1, {"legal operands C, D"}});
    c.push_back({load + " --transpose --store -o {dir}/l.txt", 1, {"--transpose"}});
    c.push_back({load + " --grouping nonsense -o {dir}/l.txt", 1, {"nonsense", "legal"}});
    c.push_back({load + " --memory global --grouping '16 consecutive lanes' -o {dir}/l.txt", 1, {"--grouping", "LDS"}});
    c.push_back({load + " --format hip --namespace 9x -o {dir}/l.hpp", 1, {"9x", "legal"}});
    c.push_back({"load --arch sm_80 -i mma_m16n8k16_f32_bf16 --memory global -o {dir}/l.txt", 1, {"legal: smem"}});
    // load --sweep: the options it chooses itself, formats it cannot write, --top alone, work beyond its bound.
    c.push_back({load + " --sweep --pad 4 -o {dir}/l.txt", 2, {"--pad", "--sweep", "legal"}});
    c.push_back({load + " --sweep --swizzle 4,1,2 -o {dir}/l.txt", 2, {"--swizzle", "--sweep", "legal"}});
    c.push_back({load + " --sweep --format hip -o {dir}/l.txt", 2, {"hip", "--sweep", "legal: table"}});
    c.push_back({load + " --top 3 -o {dir}/l.txt", 2, {"--top", "--sweep"}});
    c.push_back({load + " --sweep --top x", 2, {"--top", "legal"}});
    c.push_back({load + " --sweep --memory global --grouping '16 consecutive lanes' -o {dir}/l.txt", 1, {"--grouping", "LDS"}});
    c.push_back({load + " --sweep --waves 4x4 --shape 1024x1024x64 -o {dir}/l.txt", 1, {"placements", "legal"}});
    return c;
}

// Outputs, unknown options and formats, too big requests, options that do not apply, empty values, namespaces, tiles.
std::vector<BadCase> output_and_value_cases() {
    std::vector<BadCase> c;
    // File arguments: outputs.
    c.push_back({"layout" + kOk + " -o {dir}", 1, {"is a directory", "legal"}});
    c.push_back({"layout" + kOk + " --out {dir}/missing/x.txt", 1, {"missing", "does not exist"}});
    c.push_back({"list -o {dir}/foreign", 1, {"is a directory"}});
    c.push_back({"figure" + kOk + " -o {dir}/foreign", 1, {"is a directory"}});
    c.push_back({"export -o {dir}/existing.json", 1, {"not a directory"}});
    c.push_back({"export -o {dir}/foreign", 1, {"refusing", "legal"}});
    c.push_back({"gallery --svg -o {dir}/foreign --match 32x32x8", 1, {"refusing", "legal"}});
    c.push_back({"export", 2, {"--out"}});
    // Per subcommand: an unknown option, an unknown format.
    for (const std::string& sub : {std::string("list"), "info" + kOk, "layout" + kOk, "where --row 0" + kOk,
                                   "which --reg 0 --lane 0" + kOk, "trace --row 0 --col 0" + kOk, std::string("export -o x"),
                                   std::string("bench"), "figure -o x.svg" + kOk, std::string("gallery --bench"),
                                   "verify" + kOk, std::string("conformance"), "load" + kOk})
        c.push_back({sub + " --frob", 2, {"--frob"}});
    for (const char* sub : {"list", "info" , "layout", "where --row 0 --col 0", "which --reg 0 --lane 0",
                            "trace --row 0 --col 0"})
        c.push_back({std::string(sub) + (std::string(sub) == "list" ? "" : kOk) + " --format yaml", 1, {"yaml", "legal"}});
    // Big legal requests: refused up front, naming the limit and what is legal.
    c.push_back({"layout" + kOk + " --operand A --waves 1x1024 --shape 512x32768x512 --format json", 1,
                 {"placements", "at most"}});
    c.push_back({"layout" + kOk + " --operand C --waves 4x4 --shape 4096x4096 --view registers --format json", 1, {"at most 8,388,608", "legal"}});
    c.push_back({"layout" + kOk + " --operand all --waves 1x1024 --shape 512x32768x512", 1, {"placements", "at most"}});
    c.push_back({"load" + kOk + " --operand A --waves 4x4 --shape 2048x2048x2048", 1, {"planning loads", "at most 1,048,576", "legal"}});
    c.push_back({"load" + kOk + " --operand D --store --waves 4x4 --shape 4096x4096", 1, {"planning stores", "legal"}});
    c.push_back({"header" + kOk + " --waves 4x4 --shape 2048x2048x2048 -o {dir}/h.hpp", 1, {"header handles at most 1,048,576", "legal"}});
    c.push_back({"check" + kOk + " --operand C --waves 4x4 --shape 4096x4096 --layout {dir}/lin.json", 1, {"check handles at most", "legal"}});
    c.push_back({"figure" + kOk + " --operand C --shape 2048x2048 -o {dir}/f.svg", 1, {"figure draws at most 2097152", "legal"}});
    c.push_back({"figure" + kOk + " --operand all --shape 1024x1024x1024 -o {dir}/f.png", 1, {"figure draws at most", "legal"}});
    // Silent acceptance: with --linear only --format and -o apply; every other given option is named.
    c.push_back({"layout --linear {dir}/lin.json -i nonexistent --operand Z --waves 0x0 --view bogus", 2, {"--waves", "legal"}});
    c.push_back({"layout --linear {dir}/lin.json --arch gfx942 --operand A --view registers", 2,
                 {"--arch, --operand, --view do not apply", "legal with --linear"}});
    c.push_back({"layout --linear {dir}/lin.json --cbsz 1", 2, {"--cbsz does not apply", "legal with --linear"}});
    c.push_back({"layout --linear {dir}/lin.json --shape 64x64", 2, {"--shape does not apply"}});
    c.push_back({"layout --linear {dir}/lin.json --format cute", 1, {"cute", "legal"}});
    c.push_back({"check" + kOk + " --layout {dir}/lin.json --format xml", 1, {"xml", "legal: table, json"}});
    c.push_back({"check" + kOk + " --layout {dir}/lin.json --format csv", 1, {"csv", "legal: table, json"}});
    c.push_back({"header" + kOk + " --format json -o {dir}/h.hpp", 2, {"--format does not apply"}});
    c.push_back({"load" + kOk + " --namespace x", 2, {"--namespace", "--format hip"}});
    // Empty values are usage errors everywhere (as --reg '' always was).
    for (const char* opt : {"--waves", "--tiles-per-wave", "--shape", "--operand", "--format", "--view", "-o"})
        c.push_back({"layout" + kOk + " " + opt + " ''", 2, {"''", "empty", "legal"}});
    c.push_back({"layout --arch '' -i v_mfma_f32_32x32x8_f16", 2, {"--arch", "empty", "legal"}});
    // The option named as typed: -i as -i, --instruction as --instruction.
    c.push_back({"layout --arch gfx942 -i ''", 2, {"-i ''", "empty", "legal"}});
    c.push_back({"layout --arch gfx942 --instruction ''", 2, {"--instruction ''", "empty", "legal"}});
    for (const char* opt : {"--swizzle", "--grouping", "--memory", "--order", "--namespace"})
        c.push_back({"load" + kOk + " " + opt + " ''", 2, {opt, "empty", "legal"}});
    c.push_back({"header" + kOk + " --namespace '' -o {dir}/h.hpp", 2, {"--namespace", "empty"}});
    c.push_back({"check" + kOk + " --layout ''", 2, {"--layout", "empty"}});
    c.push_back({"--catalog '' list", 2, {"--catalog", "empty"}});
    c.push_back({"list --arch ''", 2, {"--arch", "empty"}});
    c.push_back({"figure" + kOk + " -o {dir}/f.svg --theme ''", 2, {"--theme", "empty"}});
    // Namespaces of generated code: C++ keywords, alternative tokens, reserved names, the code's own macros.
    for (const char* ns : {"int", "class", "and", "namespace", "__x", "_Reserved", "std", "LANESCOPE_HD", "9x"}) {
        c.push_back({"header" + kOk + " --namespace " + ns + " -o {dir}/h.hpp", 1, {"--namespace", "legal"}});
        c.push_back({"load" + kOk + " --format hip --namespace " + ns, 1, {"--namespace", "legal"}});
    }
    // check: wrong JSON types are refused, numbers name their range.
    c.push_back({"check" + kOk + " --layout {dir}/operand5.json", 1, {"\"operand\" must be a string", "A, B"}});
    c.push_back({"check" + kOk + " --layout {dir}/bigrow.json", 1, {"row", "2147483648", "from 0 to"}});
    c.push_back({"check" + kOk + " --layout {dir}/bigrow.csv", 1, {"row", "2147483648", "from 0 to"}});
    // Messages that mislead: the option at fault is named, with a legal alternative.
    c.push_back({"where" + kOk + " --waves 2x2 --block 1 --row 0 --col 0", 1, {"--block 1", "legal: --block 0"}});
    c.push_back({"load --arch gfx942 -i v_mfma_f32_32x32x1_2b_f32 --operand A --cbsz 1 --abid 1", 1, {"legal: --cbsz 0 --abid 0"}});
    // Tile options: malformed text is a usage error (2); a tile the instruction cannot make a bad query (1).
    for (const char* v : {"0x2", "2", "2x2x2", "-1x2", "2xx2", "1x99999999999", "2x2 "})
        c.push_back({"layout" + kOk + " --waves '" + std::string(v) + "'", 2, {"--waves", "legal"}});
    for (const char* sub : {"where --row 0 --col 0", "which --reg 0 --lane 0", "check --layout {dir}/lin.json", "load"})
        c.push_back({std::string(sub) + kOk + " --shape 64x64x", 2, {"--shape", "legal"}});
    c.push_back({"layout" + kOk + " --waves 2x2 --shape 100x64", 1, {"not a multiple"}});
    return c;
}

// Options where they do not apply (operands, formats, file names), overlapping descriptors, no-op corruptions.
std::vector<BadCase> operand_option_cases() {
    std::vector<BadCase> c;
    // Options that do not apply are refused, naming the option as typed.
    c.push_back({"trace" + kOk + " --row 0 --col 0 --operand Z", 2, {"trace --operand Z", "does not apply", "leave it out"}});
    c.push_back({"trace" + kOk + " --row 0 --col 0 --operand A", 2, {"--operand", "does not apply"}});
    // --k-width: FP4/FP6 operands and the index/scales (docs/tiles.md says refused).
    const std::string g1250 = " --arch gfx1250 -i v_wmma_f32_16x16x128_f8f6f4";
    for (const char* fmt : {"fp4", "fp6", "bf6"}) {
        c.push_back({"layout" + g1250 + " --matrix-a-fmt " + fmt + " --operand A --k-width 8", 1,
                     {"--k-width", "not Triton's dot operands", "legal: leave --k-width out"}});
        c.push_back({"layout" + g1250 + " --matrix-b-fmt " + fmt + " --operand B --k-width 16", 1, {"--k-width", "legal"}});
    }
    for (const char* op : {"SA", "SB"}) {
        c.push_back({std::string("layout --arch gfx1250 -i v_wmma_scale_f32_16x16x128_f8f6f4 --operand ") + op + " --k-width 8",
                     1, {"--k-width applies to A and B", "a block scale", "legal: --operand A, B, C or D"}});
        c.push_back({std::string("where --arch gfx1250 -i v_wmma_scale_f32_16x16x128_f8f6f4 --operand ") + op +
                         " --transposed --row 0 --col 0",
                     1, {"--transposed applies to C and D", "legal: --operand A, B, C or D"}});
    }
    c.push_back({"layout --arch gfx942 -i v_smfmac_f32_16x16x32_f16 --operand K --k-width 8", 1, {"the sparse index", "legal"}});
    c.push_back({"layout --arch gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 4 --operand A --k-width 16", 1,
                 {"--k-width", "fp4", "legal"}});
    // kWidth of C/D and transposed of A/B would change nothing (--operand all sends each where it applies).
    for (const char* op : {"C", "D"})
        c.push_back({std::string("layout --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand ") + op + " --k-width 8", 1,
                     {"--k-width applies to A and B", "legal: --operand A or B"}});
    for (const char* op : {"A", "B"})
        c.push_back({std::string("layout --arch gfx942 -i v_mfma_f32_32x32x8_f16 --operand ") + op + " --transposed", 1,
                     {"--transposed applies to C and D", "legal: --operand C or D"}});
    // Shared-memory descriptor fields and the tcgen05.ld read-back asked of an operand that lives elsewhere.
    c.push_back({"layout -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand A --descriptor 0x4000004000010000", 2,
                 {"--descriptor describes an operand in shared memory", "A of wgmma", "lives in registers", "legal: --operand B",
                  "load --memory smem --operand A"}});
    c.push_back({"layout -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand D --lbo 128", 2, {"--lbo describes", "D of wgmma"}});
    c.push_back({"figure -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand D --descriptor 0x4000004000010000 -o never.svg", 2,
                 {"--descriptor describes"}});
    c.push_back({"layout -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16 --operand D --smem-address 0x400", 2,
                 {"--smem-address describes", "lives in Tensor Memory", "legal: --operand B or A"}});
    c.push_back({"layout -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16_ts --operand A --major MN", 2,
                 {"--major describes", "A of tcgen05", "lives in Tensor Memory", "legal: --operand B,"}});
    c.push_back({"layout -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16 --operand A --tmem-load 32x32b", 2,
                 {"--tmem-load chooses how D is read back", "legal: --operand D (or C)"}});
    // The one-matrix exports of a multi-block instruction: why, not the tile rule.
    for (const char* f : {"linear", "cute", "gluon"})
        c.push_back({std::string("layout -a gfx942 -i v_mfma_f32_32x32x1_2b_f32 --operand A --format ") + f, 1,
                     {"writes one layout over one matrix", "has 2 blocks", "legal: --format json"}});
    // A figure name whose extension is no figure format (it was given SVG).
    c.push_back({"figure -a gfx942 -i v_mfma_f32_32x32x8_f16 -o never.pdf", 2, {"-o never.pdf", "'.pdf' names another format", "legal: a name ending .svg, .png or .tex"}});
    // Without a swizzle, LBO/SBO that stack core matrices on the same bytes (128 of 256 elements shared at LBO 0).
    c.push_back({"layout -a sm_90a -i wgmma_m64n16k16_f32_f16 --operand B --swizzle none --lbo 0", 1,
                 {"--lbo 0 with --sbo 128", "B[0][0] (byte 0) and B[8][0] (byte 0) overlap", "legal"}});
    c.push_back({"layout -a sm_90a -i wgmma_m64n16k16_f32_f16 --operand B --swizzle none --major MN --sbo 16", 1, {"overlap", "legal"}});
    c.push_back({"layout -a sm_90a -i wgmma_m64n16k16_f32_f16 --operand B --lbo 7", 1, {"--lbo 7", "a multiple of 16"}});
    // A and B take the same descriptor fields: the refusal names the operand asked about.
    c.push_back({"layout -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16 --operand B --sbo 16", 1, {"tcgen05 operand B", "legal: SBO >= 1024"}});
    // verify --corrupt that moves nothing: refused with one that does.
    c.push_back({"verify --device software -a gfx942 -i v_mfma_f32_32x32x2f32 --corrupt A:shift-regs", 1,
                 {"moves nothing", "one register per lane", "legal: a corruption that moves an element, e.g. A:swap-lanes:0:1"}});
    c.push_back({"verify --device software -a gfx1100 -i v_wmma_f32_16x16x16_f16 --corrupt A:swap-lanes:0:16", 1,
                 {"moves nothing", "lanes 0 and 16 hold the same elements of A", "legal"}});
    return c;
}

// Audit A's rows: each one defect's root, where the option is parsed or the rule lives.
std::vector<BadCase> audit_cases() {
    std::vector<BadCase> c;
    // Audit A (helper h-cli): each row is one defect's root, where the option is parsed or the rule lives.
    // B6: B of wgmma lives in shared memory: no register lanes to swap (not "replicated"); lanes checked first.
    const std::string wg = " -a sm_90a -i wgmma_m64n64k16_f32_f16";
    c.push_back({"verify --device software" + wg + " --corrupt B:swap-lanes:0:5", 1,
                 {"B of wgmma", "lives in shared memory", "no register lanes", "legal: B:shift-regs"}});
    // B11: only the lane outside the wave is named.
    c.push_back({"verify --device software" + kOk + " --corrupt D:swap-lanes:0:64", 1, {"lane 64 is outside wave64", "legal: 0..63"}});
    c.push_back({"verify --device software" + kOk + " --corrupt D:swap-lanes:70:64", 1, {"lanes 70 and 64 are outside wave64"}});
    // B7: a Tensor Memory operand is read by tcgen05.ld, not loaded by threads (and not "AMD only").
    const std::string tc = " -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16";
    c.push_back({"load" + tc + " --operand D", 1, {"lives in Tensor Memory", "tcgen05.ld reads it", "--tmem-load"}});
    c.push_back({"load -a sm_100a -i tcgen05_ld_32x32b_x4 --operand D", 1, {"is itself the load", "from Tensor Memory"}});
    // B8 / C12: a named field's number is the index of a name (0..5 for --tmem-load), written exactly.
    for (const char* v : {"7", "6", "99", "07", "' 3'", "'3 '"})
        c.push_back({"layout" + tc + " --operand D --tmem-load " + v, 2, {"--tmem-load", "legal: none 32x32b", "(or 0..5)"}});
    // C12: --swizzle takes the names only (the descriptors number them differently), no surrounding space.
    for (const char* v : {"1", "3", "0", "128", "'128B '"}) {
        c.push_back({"layout" + wg + " --operand B --swizzle " + v, 2, {"--swizzle", "none, 32B, 64B, 128B, 128B_base32B"}});
        c.push_back({std::string("tma --box 64x8 --swizzle ") + v, 2, {"--swizzle", "none, 32B, 64B, 128B"}});
    }
    // C12: no '+' and no space around any number, whichever parser reads it.
    for (const char* opt : {"--base-offset +3", "--lbo +16", "--base-offset ' 3'", "--lbo '16 '"})
        c.push_back({"layout" + wg + " --operand B " + opt, 2, {"is not legal", "legal: a whole number"}});
    c.push_back({"layout" + kOk + " --cbsz +0", 2, {"--cbsz '+0' is not legal"}});
    c.push_back({"layout" + kOk + " --cbsz -0", 2, {"--cbsz '-0' is not legal"}});
    c.push_back({"layout" + kOk + " --waves +2x2", 2, {"--waves", "legal"}});
    c.push_back({"layout -a sm_120a -i mma_m16n8k32_f32_e2m1_mxf4 --sf-byte-a +1", 2, {"--sf-byte-a '+1' is not legal"}});
    // B9: the legal hint does not name what the parser refuses, nor "leave it out" for a required option.
    c.push_back({"layout" + kOk + " --num-warps 4", 1, {"--num-warps does not apply", "legal: leave the option out"}});
    c.push_back({"banks -a sm_90a --access ldmatrix.x4 --addresses ''", 2, {"--addresses '' is empty", "(required)"}});
    c.push_back({"tma --box ''", 2, {"--box '' is empty", "the option is required"}});
    c.push_back({"layout --arch '' -i v_mfma_f32_32x32x8_f16", 2, {"--arch '' is empty", "(required)"}});
    // B10: x4 takes all 32 row addresses; x1/x2 a prefix.
    c.push_back({"banks -a sm_90a --access ldmatrix.x4 --addresses 0,16", 1, {"lanes 0..31 (32 addresses, one per lane); 2 given"}});
    c.push_back({"banks -a sm_90a --access ldmatrix.x2 --addresses 0,16", 1,
                 {"lanes 0..15 (16 to 32 addresses; those of lanes 16-31 are ignored); 2 given"}});
    // C13: a malformed number of banks --addresses or tma --box/--smem-address is a usage error.
    for (const char* v : {"1x", "' 0'", "+0", "0,,16", "-16"})
        c.push_back({std::string("banks -a sm_90a --access ld.shared.u32 --addresses ") + v, 2, {"--addresses", "legal"}});
    for (const char* v : {"8", "-8x8", "8x", "x8", "+8x8", "0x8", "8x300"})
        c.push_back({std::string("tma --box ") + v, 2, {"--box", "legal"}});
    c.push_back({"tma --box 64x8 --smem-address 1x", 2, {"--smem-address '1x' is not legal"}});
    // B11: a check file's real fault is named: nesting too deep; a shape's number echoed alone.
    c.push_back({"check" + kOk + " --layout {dir}/deep.json", 1, {"nested more than 64 levels deep"}});
    c.push_back({"check" + kOk + " --layout {dir}/halfshape.json", 1, {"must be a whole number, not 8.5"}});
    // E16: header refuses --operand and --format (and its --help does not offer them: test_cli).
    c.push_back({"header" + kOk + " --format json -o {dir}/h.hpp", 2, {"--format does not apply"}});
    // conformance: a time limit that is no number of seconds.
    for (const char* v : {"0", "-5", "1e9", "soon"})
        c.push_back({std::string("conformance --target gfx908 --tool-timeout ") + v, 2, {"--tool-timeout"}});
    return c;
}

// The whole table, in the order the groups run.
std::vector<BadCase> cli_cases() {
    std::vector<BadCase> c;
    for (auto group : {flag_number_cases, name_and_subcommand_cases, catalog_and_load_cases, output_and_value_cases,
                       operand_option_cases, audit_cases}) {
        const std::vector<BadCase> part = group();
        c.insert(c.end(), part.begin(), part.end());
    }
    return c;
}

}  // namespace

TEST_CASE("bad input table: lanescope-cli refuses clearly and touches nothing") {
    Sandbox box;
    const auto before = snapshot(box.dir);
    struct stat null_before {};
    ::stat("/dev/null", &null_before);
    const auto cases = cli_cases();
    for (const BadCase& bc : cases) {
        const std::string args = replace_all(bc.args, "{dir}", box.dir.string());
        INFO("lanescope-cli " << args);
        const Run r = run_command("cd " + box.dir.string() + " && " + kCli + " " + args);
        INFO("stderr: " << r.err);
        CHECK(r.status == bc.status);
        CHECK(r.out.empty());
        CHECK_FALSE(r.err.empty());
        for (const std::string& s : bc.says) CHECK(r.err.find(s) != std::string::npos);
        CHECK(snapshot(box.dir) == before);
    }
    struct stat null_after {};
    ::stat("/dev/null", &null_after);
    CHECK(S_ISCHR(null_after.st_mode));
    CHECK(null_after.st_ino == null_before.st_ino);
    CHECK(cases.size() >= 150);
}

TEST_CASE("a full disk is a failed write: exit 1 and a message, for every subcommand that prints") {
    Sandbox box;
    for (const std::string& args : std::vector<std::string>{"list", "list --format json", "info" + kOk, "info --format json" + kOk,
                                   "layout --operand all" + kOk, "where --row 1" + kOk, "which --reg 0 --lane 0" + kOk,
                                   "trace --row 0 --col 0" + kOk, "figure -o -" + kOk, "layout -o -" + kOk,
                                   "verify --device software" + kOk}) {
        INFO("lanescope-cli " << args << " > /dev/full");
        const Run r = run_command(kCli + " " + args + " > /dev/full");
        CHECK(r.status == 1);
        CHECK(r.err.find("No space left on device") != std::string::npos);
    }
    // export writes its directory, then cannot report it: still exit 1.
    const Run r = run_command(kCli + " export -o " + (box.dir / "e").string() + " > /dev/full");
    CHECK(r.status == 1);
    CHECK(r.err.find("standard output") != std::string::npos);
}

TEST_CASE("special files are written through, never replaced") {
    Sandbox box;
    const Run r = run_command(kCli + " layout" + kOk + " --out /dev/null");
    CHECK(r.status == 0);
    struct stat st {};
    REQUIRE(::stat("/dev/null", &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    // A FIFO: the reader gets the whole answer and the FIFO stays a FIFO.
    const fs::path fifo = box.dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const Run w = run_command("(cat " + fifo.string() + " > " + (box.dir / "got.txt").string() + " &) ; " + kCli +
                              " layout" + kOk + " --operand C --out " + fifo.string() + " ; sleep 0.2");
    CHECK(w.status == 0);
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    std::ifstream got(box.dir / "got.txt");
    const std::string text((std::istreambuf_iterator<char>(got)), {});
    CHECK(text.find("v_mfma_f32_32x32x8_f16") != std::string::npos);
}

TEST_CASE("export: concurrent and killed writers leave the old or the new directory, never a mix") {
    Sandbox box;
    const fs::path out = box.dir / "layouts";
    // The AMD catalog alone (48 MB of JSON instead of 487 MB with NVIDIA's wgmma):
    // the same writer, affordable nine times over under the sanitizers.
    const std::string export_cmd = kCli + " --catalog " + LANESCOPE_AMD_CATALOG + " export -o " + out.string();
    auto complete = [&](const fs::path& d) {
        size_t files = 0;
        for (const auto& e : fs::directory_iterator(d)) {
            if (e.path().filename() == ".lanescope-export") continue;
            ++files;
            std::ifstream f(e.path());
            const std::string text((std::istreambuf_iterator<char>(f)), {});
            if (text.size() < 2 || text.front() != '{' || text.find("\"entries\"") == std::string::npos) return size_t(0);
        }
        return files;
    };
    REQUIRE(run_command(export_cmd).status == 0);
    const size_t expected = complete(out);
    REQUIRE(expected > 100);
    // Three writers at once, twice.
    for (int round = 0; round < 2; ++round) {
        const Run r = run_command("for n in 1 2 3; do " + export_cmd + " >/dev/null & done; wait");
        CHECK(r.status == 0);
        CHECK(complete(out) == expected);
    }
    // A writer killed part-way: the previous export stays whole.
    for (int delay_ms : {5, 30, 80}) {
        run_command("( " + export_cmd + " >/dev/null & pid=$!; sleep " +
                    std::to_string(delay_ms / 1000.0) + "; kill -9 $pid; wait $pid ) 2>/dev/null");
        CHECK(complete(out) == expected);
    }
    // Nothing beside it but its leftovers from killed writers (hidden temporaries), never a second visible copy.
    for (const auto& e : fs::directory_iterator(box.dir)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(".layouts.tmp-", 0) == 0) continue;
        CHECK(name != "layouts.old");
    }
}

#ifdef LANESCOPE_APP
TEST_CASE("bad input table: the app refuses clearly before opening anything and touches nothing") {
    Sandbox box;
    const std::string app = LANESCOPE_APP;
    // No display and a private config directory: a case that were not refused would
    // render headless and write shot.png, which the snapshot would catch.
    const std::string env = "env -u DISPLAY -u WAYLAND_DISPLAY HOME=" + box.dir.string() +
                            " XDG_CONFIG_HOME=" + (box.dir / "cfg").string() + " ";
    const std::string shot = " --screenshot " + (box.dir / "shot.png").string();
    std::vector<BadCase> cases;
    for (const char* flag : {"--cbsz", "--abid", "--blgp", "--opsel", "--opsel-a", "--opsel-b"})
        for (const char* v : {"-7", "''", "1x", "99999999999999999999"})
            cases.push_back({kOk + " " + flag + " " + v, 2, {flag, "legal"}});
    for (const char* v : {"nan", "inf", "5", "0", "''", "1e0", "-1"}) cases.push_back({kOk + " --zoom " + v, 2, {"--zoom", "legal"}});
    for (const char* v : {"16", "''", "x"}) cases.push_back({kOk + " --wave " + v, 2, {"--wave", "legal"}});
    for (const char* v : {"999", "1", "-2", "x"}) cases.push_back({kOk + " --block " + v, 2, {"--block", "legal"}});
    for (const char* v : {"lane,999", "lane,64", "lane,-1", "lane,", "D,40,1", "D,3,5,x", "D,3", "Q,1,1", "K,0,0", "D,1,1,1,1"})
        cases.push_back({kOk + " --pin " + v, 2, {"--pin", "legal"}});
    for (const char* v : {"0", "-5", "x"}) cases.push_back({kOk + " --bench-frames " + v, 2, {"--bench-frames", "legal"}});
    // Tile mode (--waves, --tiles-per-wave, --shape): the form, core's refusal, --pin inside the tile.
    for (const char* v : {"0x2", "2", "2x2x2", "-1x2", "2xx2"}) cases.push_back({kOk + " --waves " + v, 2, {"--waves", "legal"}});
    cases.push_back({kOk + " --tiles-per-wave 1x0", 2, {"--tiles-per-wave", "legal"}});
    cases.push_back({kOk + " --shape 64", 2, {"--shape", "TMxTN"}});
    cases.push_back({kOk + " --waves 2x2 --shape 100x64", 2, {"tile", "not a multiple"}});
    cases.push_back({kOk + " --shape 64x64x12", 2, {"tile", "instruction's K"}});
    cases.push_back({kOk + " --waves 2x2 --shape 4096x1024", 2, {"tile", "at most"}});
    for (const char* v : {"D,64,0", "lane,3,4", "lane,64", "A,1", "wave,1,1"})
        cases.push_back({kOk + " --waves 2x2 --pin " + v, 2, {"--pin", "legal in tile mode"}});
    // Empty values are usage errors. tile options are legal with the memory view, but each
    // side is still checked: a tile core refuses, or a memory option the operand cannot take, is refused.
    for (const char* opt : {"--pin", "--waves", "--shape", "--tiles-per-wave", "--swizzle", "--grouping", "--operand", "--size"})
        cases.push_back({kOk + " " + opt + " ''", 2, {"''", "empty", "legal"}});
    cases.push_back({kOk + " --view memory --waves 2x2 --shape 100x64", 2, {"tile", "not a multiple"}});
    cases.push_back({kOk + " --operand B --ld 32 --shape 64x64x16", 2, {"--ld 32", "legal: 64"}});  // the tile's B: 16x64
    cases.push_back({kOk + " --view memory --waves 2x2 --grouping nope", 2, {"--grouping", "legal"}});
    cases.push_back({kOk + " --compare-wave 48", 2, {"compare"}});
    cases.push_back({kOk + " --compare-wave x", 2, {"--compare-wave", "legal"}});
    cases.push_back({kOk + " --size 10x10", 2, {"--size", "320"}});
    cases.push_back({kOk + " --size big", 2, {"--size"}});
    cases.push_back({kOk + " --size 1400x900junk", 2, {"--size", "320"}});
    cases.push_back({kOk + " --size=-1400x900", 2, {"--size", "320"}});
    cases.push_back({kOk + " --theme neon", 2, {"--theme", "neon"}});
    cases.push_back({kOk + " --color purple", 2, {"--color", "purple"}});
    cases.push_back({kOk + " --color-by purple", 2, {"--color", "purple"}});
    cases.push_back({kOk + " --tab nope", 2, {"--tab", "nope"}});
    cases.push_back({kOk + " --operand Q", 2, {"'Q'", "legal"}});
    cases.push_back({" --arch cdna9 --instruction v_mfma_f32_32x32x8_f16", 2, {"cdna9", "legal"}});
    cases.push_back({" --arch gfx942 --instruction v_mfma_f32_32x32x8_f61", 2, {"f61", "did you mean"}});
    cases.push_back({kOk + " --verify tpu", 2, {"--verify", "software"}});
    cases.push_back({kOk + " --corrupt A:twist", 2, {"--corrupt", "--verify"}});
    cases.push_back({kOk + " --verify software --corrupt K:swap-lanes:1:2", 2, {"no operand K"}});
    cases.push_back({kOk + " --frob", 2, {"--frob"}});
    // The Memory tab's options.
    cases.push_back({kOk + " --memory shared", 2, {"--memory", "shared"}});
    cases.push_back({kOk + " --order diagonal", 2, {"--order", "diagonal"}});
    cases.push_back({kOk + " --operand B --ld 8", 2, {"--ld 8", "legal: 32"}});
    for (const char* v : {"0", "-4", "x"}) cases.push_back({kOk + " --ld " + std::string(v), 2, {"--ld", "legal"}});
    for (const char* v : {"8,2", "8,0,8", "a,b,c", "8,2,8,1"})
        cases.push_back({kOk + " --swizzle " + std::string(v), 2, {"--swizzle", "legal"}});
    cases.push_back({kOk + " --operand B --store", 2, {"--store", "D"}});
    cases.push_back({kOk + " --operand B --ld 64 --swizzle 64,1,8", 2, {"memory tile", "swizzle"}});
    cases.push_back({kOk + " --view memory --grouping nope", 2, {"--grouping", "legal"}});
    cases.push_back({kOk + " --operand D --store --transpose", 2, {"--store", "--transpose"}});
    cases.push_back({kOk + " --screenshot " + box.dir.string() + "/foreign", 2, {"is a directory"}});
    cases.push_back({kOk + " --screenshot " + box.dir.string() + "/missing/x.png", 2, {"does not exist"}});
    for (const BadCase& bc : cases) {
        const auto before = snapshot(box.dir);
        const bool own_shot = bc.args.find("--screenshot") != std::string::npos;
        INFO("lanescope" << bc.args);
        const Run r = run_command(env + app + bc.args + (own_shot ? "" : shot));
        INFO("stderr: " << r.err);
        CHECK(r.status == bc.status);
        CHECK(r.out.empty());
        CHECK_FALSE(r.err.empty());
        for (const std::string& s : bc.says) CHECK(r.err.find(s) != std::string::npos);
        CHECK(snapshot(box.dir) == before);
    }
    CHECK(cases.size() >= 60);
}

TEST_CASE("the app starts from any settings file: stale and illegal values are dropped with a warning") {
    Sandbox box;
    const std::string app = LANESCOPE_APP;
    fs::create_directories(box.dir / "cfg" / "lanescope");
    const fs::path ini = box.dir / "cfg" / "lanescope" / "settings.ini";
    const std::string env = "env -u DISPLAY -u WAYLAND_DISPLAY HOME=" + box.dir.string() +
                            " XDG_CONFIG_HOME=" + (box.dir / "cfg").string() + " ";
    const std::vector<std::pair<std::string, std::string>> files = {
        {"arch = gfx942\ninstruction = v_mfma_f32_32x32x8_f16\ncbsz = 1\nwave = 32\n", "cbsz = 1"},
        {"arch = gfx1100\ninstruction = v_wmma_f32_16x16x16_f16\nopsel = 9\nblock = 999\n", "block"},
        {"arch = cdna9\ninstruction = nothing\n", "cdna9"},
        {"zoom_percent = nan\ntheme = neon\nwindow_width = -5\n", "zoom_percent"},
        {std::string("arch = gfx942\n\0\1\2garbage", 20), "not text"},
    };
    for (const auto& [text, warned] : files) {
        std::ofstream(ini, std::ios::binary) << text;
        // --no-settings is not given: the app reads the file, then (no display) exits 1 saying so.
        const Run r = run_command(env + app);
        INFO(text << "\nstderr: " << r.err);
        CHECK(r.err.find("settings") != std::string::npos);
        CHECK(r.err.find(warned) != std::string::npos);
        CHECK(r.err.find("no display") != std::string::npos);  // it got past the settings to the window
        CHECK(r.status == 1);
    }
}
#endif
