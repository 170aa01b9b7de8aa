// `lanescope-cli load`: the JSON contract (layout's fields plus
// "memory", an "address" in every entry, "loads", "banks"), and the generated
// HIP code: compiled for gfx942 and gfx1200 with clang-19 -x hip, and run on the
// host (the same source as host C++) against the address formula.
#include "shell_run.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace {
using lstest::Run;
using nlohmann::json;
Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }

std::set<std::string> keys(const json& j) {
    std::set<std::string> s;
    for (auto it = j.begin(); it != j.end(); ++it) s.insert(it.key());
    return s;
}

// Byte address of (row, col) by the issue's formula (no swizzle here).
long long address(bool row_major, int ld, int pad, int bits, int row, int col) {
    return (row_major ? (1LL * row * (ld + pad) + col) : (1LL * col * (ld + pad) + row)) * bits / 8;
}

bool have_clang() { return lstest::run_command("command -v clang++-19 >/dev/null").status == 0; }
// LLVM 22: the HIP compile witness for every AMD target it knows (gfx950 included).
bool have_clang22() { return lstest::run_command("command -v clang++-22 >/dev/null").status == 0; }
}  // namespace

TEST_CASE("load --format json: layout's fields, memory, entries with their address, loads, banks") {
    const std::string ins = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B ";
    Run lay = cli("layout " + ins + "--format json");
    Run r = cli("load " + ins + "--order row --ld 40 --pad 8 --format json");
    REQUIRE(lay.status == 0);
    REQUIRE(r.status == 0);
    const json L = json::parse(lay.out), j = json::parse(r.out);
    // The same top-level fields as layout's JSON, plus the memory side.
    for (const auto& k : keys(L)) CHECK(j.contains(k));
    for (const char* k : {"memory", "loads", "banks"}) CHECK(j.contains(k));
    for (const char* k : {"space", "order", "ld", "pad", "swizzle", "element_bits"}) CHECK(j["memory"].contains(k));
    CHECK(j["memory"]["space"] == "lds");
    CHECK(j["memory"]["order"] == "row");
    CHECK(j["memory"]["ld"] == 40);
    CHECK(j["memory"]["pad"] == 8);
    CHECK(j["memory"]["element_bits"] == 16);
    // Entries: layout's entries, each with the address of the formula.
    REQUIRE(j["entries"].size() == L["entries"].size());
    for (size_t n = 0; n < L["entries"].size(); ++n) {
        json e = j["entries"][n];
        CHECK(e["address"] == address(true, 40, 8, 16, e["row"], e["col"]));
        e.erase("address");
        CHECK(e == L["entries"][n]);
    }
    // Loads: per lane in issue order, with the contract's fields.
    REQUIRE(!j["loads"].empty());
    int prev_lane = -1, prev_issue = -1;
    for (const auto& l : j["loads"]) {
        for (const char* k : {"lane", "mnemonic", "address", "bytes", "reg"}) CHECK(l.contains(k));
        const int lane = l["lane"], issue = l["issue"];
        if (lane == prev_lane) CHECK(issue > prev_issue);
        else CHECK(lane > prev_lane);
        prev_lane = lane;
        prev_issue = issue;
    }
    // B of 32x32x8 f16 row-major: each lane's 4 k are ld+pad apart -> 4 sub-dword loads per lane.
    CHECK(j["instructions_per_wave"] == 4);
    CHECK(j["loads"].size() == 64 * 4);
    // Banks: per LDS instruction, passes, cycles, the minimum, the grouping with source and confidence.
    REQUIRE(j["banks"].size() == 4);
    for (const auto& b : j["banks"]) {
        CHECK(b["cycles"].get<int>() >= b["minimum_cycles"].get<int>());
        CHECK(!b["passes"].empty());
        for (const char* k : {"name", "source", "confidence"}) CHECK(b["grouping"].contains(k));
    }
    // Column-major, global, tile mode: entries carry the wave and the address of the formula.
    r = cli("load " + ins + "--order col --memory global --waves 2x2 --shape 64x64x16 --format json");
    REQUIRE(r.status == 0);
    const json t = json::parse(r.out);
    CHECK(t["memory"]["space"] == "global");
    CHECK(t["memory"]["ld"] == 16);  // default: the contiguous extent (K of the B tile)
    CHECK(t["banks"].empty());
    CHECK(!t["coalescing"].empty());
    for (const auto& e : t["entries"]) {
        CHECK(e.contains("wave"));
        CHECK(e["address"] == address(false, 16, 0, 16, e["row"], e["col"]));
    }
}

TEST_CASE("load: table names the accesses and the bank summary; --transpose says what is legal when it cannot") {
    Run r = cli("load -a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --order col");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("ds_read_b128") != std::string::npos);
    CHECK(r.out.find("1 instructions per wave") != std::string::npos);
    CHECK(r.out.find("LDS banks: 64 x 4 bytes") != std::string::npos);
    CHECK(r.out.find("gfx950 b128 groups (measured)") != std::string::npos);
    Run c = cli("load -a gfx950 -i v_mfma_f32_16x16x32_f16 --operand B --order col --format csv");
    REQUIRE(c.status == 0);
    CHECK(c.out.rfind("wave,lane,issue,mnemonic,address,bytes,reg", 0) == 0);
    // A transpose load on a target without any: a clear message, non-zero status, nothing written.
    const auto out = lstest::temp_path("lanescope_load_tr.txt");
    std::filesystem::remove(out);
    Run t = cli("load -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --transpose -o " + out.string());
    CHECK(t.status != 0);
    CHECK(t.err.find("--transpose") != std::string::npos);
    CHECK(t.out.empty());
    CHECK(!std::filesystem::exists(out));
}

TEST_CASE("load --format hip compiles with clang-22 -x hip for gfx942, gfx950 and gfx1200 with the planned accesses") {
    if (!have_clang22()) {
        LANESCOPE_SKIP("clang++-22 not found: HIP compile check skipped");
    }
    const auto dir = lstest::temp_path("lanescope_load_hip");
    std::filesystem::create_directories(dir);
    struct Case {
        std::string args, gfx, ns, expect;
        int regs, lanes;
    };
    const std::vector<Case> cases = {
        {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row", "gfx942", "a942", "ds_read_b64", 2, 64},
        {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D --store --memory global", "gfx942", "d942", "global_store_dword", 16, 64},
        {"-a gfx950 -i v_mfma_f32_32x32x16_f16 --operand A --order row", "gfx950", "a950", "ds_read_b128", 4, 64},
        {"-a gfx1200 -i v_wmma_f32_16x16x16_f16 --operand B --order col --memory global", "gfx1200", "b1200",
         "global_load_b64", 4, 32},
        {"-a gfx1200 -i v_wmma_f32_16x16x16_f16 --operand C --order col", "gfx1200", "c1200", "ds_load_b128", 8, 32},
    };
    for (const Case& c : cases) {
        INFO(c.args);
        const auto hpp = dir / (c.ns + ".hpp");
        Run g = cli("load " + c.args + " --format hip --namespace " + c.ns + " -o " + hpp.string());
        REQUIRE(g.status == 0);
        const bool store = c.args.find("--store") != std::string::npos;
        const bool lds = c.args.find("global") == std::string::npos;
        const std::string as = lds ? "LS_LDS" : "LS_GLOBAL";
        std::ostringstream k;
        k << "#include \"" << hpp.string() << "\"\n"
          << "extern \"C\" __attribute__((global)) void k(unsigned char* mem, unsigned* out) {\n"
          << "    const int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));\n"
          << "    unsigned regs[" << c.ns << "::Plan::regs];\n";
        if (lds) k << "    static __attribute__((shared)) unsigned char tile[65536];\n"
                   << "    for (int i = lane; i < 65536; i += " << c.lanes << ") tile[i] = mem[i];\n"
                   << "    unsigned char* base = tile;\n";
        else k << "    unsigned char* base = mem;\n";
        if (store)
            k << "    for (int i = 0; i < " << c.ns << "::Plan::regs; ++i) regs[i] = out[lane * " << c.regs << " + i];\n"
              << "    " << c.ns << "::drain((" << as << " unsigned char*)base, lane, regs);\n";
        else
            k << "    " << c.ns << "::fill((const " << as << " unsigned char*)base, lane, regs);\n"
              << "    for (int i = 0; i < " << c.ns << "::Plan::regs; ++i) out[lane * " << c.regs << " + i] = regs[i];\n";
        k << "}\n";
        const auto src = dir / (c.ns + ".hip");
        std::ofstream(src) << k.str();
        const auto asm_file = dir / (c.ns + ".s");
        Run cc = lstest::run_command("clang++-22 -x hip --offload-arch=" + c.gfx +
                                     " -nogpulib -nogpuinc --offload-device-only -std=c++17 -O2 -Wall -Werror -S " +
                                     src.string() + " -o " + asm_file.string());
        INFO(cc.err);
        REQUIRE(cc.status == 0);
        std::ifstream in(asm_file);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        CHECK(text.find(c.expect) != std::string::npos);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("load --format hip runs on the host: every lane's registers hold the elements of the address formula") {
    if (!have_clang()) {
        LANESCOPE_SKIP("clang++-19 not found: host run skipped");
    }
    const auto dir = lstest::temp_path("lanescope_load_host");
    std::filesystem::create_directories(dir);
    struct Case {
        std::string args;
        bool row_major;
        int ld, pad;
    };
    // Wide loads, 16-bit halves, bytes through scratch registers (8-bit A column-major), FP4 nibbles,
    // a padded RDNA3 tile with 16-bit C in the low halves.
    const std::vector<Case> cases = {
        {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row --ld 8", true, 8, 0},
        {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --order row --ld 40 --pad 8", true, 40, 8},
        {"-a gfx942 -i v_mfma_i32_32x32x16_i8 --operand A --order col --ld 32 --pad 1", false, 32, 1},
        {"-a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --operand A --cbsz 4 --order col --ld 16 --pad 1", false, 16, 1},
        {"-a gfx1100 -i v_wmma_f16_16x16x16_f16 --operand C --order row --ld 16 --pad 2 --memory global", true, 16, 2},
        // FP6 rows one element off byte alignment: each lane shifts its bits out of the units it loaded.
        {"-a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --operand A --cbsz 2 --order row --ld 128 --pad 1", true, 128, 1},
    };
    int n = 0;
    for (const Case& c : cases) {
        INFO(c.args);
        const std::string ns = "h" + std::to_string(n++);
        const auto hpp = dir / (ns + ".hpp");
        Run g = cli("load " + c.args + " --format hip --namespace " + ns + " -o " + hpp.string());
        REQUIRE(g.status == 0);
        Run jr = cli("load " + c.args + " --format json");
        REQUIRE(jr.status == 0);
        const json j = json::parse(jr.out);
        const int lanes = j["lanes"], regs = j["regs"], bits = j["element_bits"];
        // Memory bytes: a pattern with no period short enough to hide a wrong address.
        std::ostringstream d;
        d << "#include \"" << hpp.string() << "\"\n#include <cstdio>\n"
          << "int main() {\n    static unsigned char mem[1 << 20];\n"
          << "    for (unsigned i = 0; i < sizeof mem; ++i) mem[i] = (unsigned char)((i * 2654435761u) >> 13);\n"
          << "    for (int lane = 0; lane < " << lanes << "; ++lane) {\n"
          << "        unsigned regs[" << ns << "::Plan::regs] = {};\n"
          << "        " << ns << "::fill(mem, lane, regs);\n"
          << "        for (int r = 0; r < " << ns << "::Plan::regs; ++r) std::printf(\"%u \", regs[r]);\n"
          << "        std::printf(\"\\n\");\n    }\n}\n";
        const auto src = dir / (ns + ".cpp");
        std::ofstream(src) << d.str();
        const auto exe = dir / ns;
        Run cc = lstest::run_command("clang++-19 -std=c++17 -O1 -o " + exe.string() + " " + src.string());
        INFO(cc.err);
        REQUIRE(cc.status == 0);
        Run run = lstest::run_command(exe.string());
        REQUIRE(run.status == 0);
        std::istringstream lines(run.out);
        std::vector<std::vector<unsigned long long>> got(lanes, std::vector<unsigned long long>(regs));
        for (int lane = 0; lane < lanes; ++lane)
            for (int r = 0; r < regs; ++r) REQUIRE(lines >> got[lane][r]);
        auto mem_bit = [](long long bit) {
            const unsigned long long i = static_cast<unsigned long long>(bit / 8);
            const unsigned byte = static_cast<unsigned char>((i * 2654435761u) >> 13);
            return (byte >> (bit % 8)) & 1u;
        };
        int checked = 0;
        for (const auto& e : j["entries"]) {
            const int lane = e["lane"], reg = e["reg"], lo = e["bit_lo"], hi = e["bit_hi"];
            const long long idx = c.row_major ? 1LL * e["row"].get<int>() * (c.ld + c.pad) + e["col"].get<int>()
                                              : 1LL * e["col"].get<int>() * (c.ld + c.pad) + e["row"].get<int>();
            for (int b = 0; b <= hi - lo; ++b) {
                const int at = lo + b;
                const unsigned have = (got[lane][reg + at / 32] >> (at % 32)) & 1u;
                if (have != mem_bit(idx * bits + b)) FAIL("lane " << lane << " v" << reg << " bit " << at);
            }
            ++checked;
        }
        CHECK(checked == static_cast<int>(j["entries"].size()));
    }
    std::filesystem::remove_all(dir);
}

#include "lanescope/memory.hpp"
#include "lanescope/render_memory.hpp"

TEST_CASE("HIP code of transpose loads calls the builtin with its vector type and address space (gfx1200 compiles)") {
    namespace ls = lanescope;
    const auto& cat = ls::Catalog::builtin();
    auto plan_for = [&](const char* arch, const char* name, int wave, const char* builtin, const char* mnemonic, int bytes,
                        ls::MemorySpace space) {
        const ls::Target& t = cat.find_target(arch);
        ls::Query q;
        q.target = &t;
        q.ins = &cat.find_instruction(t, name);
        ls::Modifiers m;
        m.wave = wave;
        q.mods = ls::resolve_modifiers(*q.ins, t, m);
        ls::MemoryRequest r;
        r.operand = ls::Operand::B;
        r.transpose = true;
        r.tile.space = space;
        r.tile.ld = 16;
        ls::MemoryPlan p;
        for (int lane = 0; lane < wave; ++lane) {
            ls::MemoryOp op;
            op.lane = lane;
            op.mnemonic = mnemonic;
            op.address = 32LL * (lane % 8) + 16 * ((lane / 8) % 2);
            op.bytes = bytes;
            op.width_bits = 8 * bytes;
            op.builtin = builtin;
            p.ops.push_back(op);
        }
        return ls::render_memory_hip(q, r, p, "tr");
    };
    const std::string g = plan_for("gfx1200", "v_wmma_f32_16x16x16_f16", 32, "__builtin_amdgcn_global_load_tr_b128_v8f16",
                                   "global_load_tr_b128", 16, ls::MemorySpace::Global);
    CHECK(g.find("typedef __fp16 ls_v8f16 __attribute__((ext_vector_type(8)));") != std::string::npos);
    CHECK(g.find("__builtin_amdgcn_global_load_tr_b128_v8f16((LS_GLOBAL ls_v8f16*)(base + addr))") !=
          std::string::npos);
    // gfx950: AS3 pointer to a 4 x __fp16 vector (compiled with clang-22 below).
    const std::string d = plan_for("gfx950", "v_mfma_f32_16x16x32_f16", 64, "__builtin_amdgcn_ds_read_tr16_b64_v4f16",
                                   "ds_read_b64_tr_b16", 8, ls::MemorySpace::Lds);
    CHECK(d.find("__builtin_amdgcn_ds_read_tr16_b64_v4f16((LS_LDS ls_v4f16*)(base + addr))") !=
          std::string::npos);
    if (!have_clang22()) return;
    const auto dir = lstest::temp_path("lanescope_load_tr_hip");
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "tr.hpp") << g;
    std::ofstream(dir / "k.hip") << "#include \"tr.hpp\"\n"
                                    "extern \"C\" __attribute__((global)) void k(unsigned char* mem, unsigned* out) {\n"
                                    "    const int lane = __builtin_amdgcn_mbcnt_lo(~0u, 0u);\n"
                                    "    unsigned regs[tr::Plan::regs];\n"
                                    "    tr::fill((const LS_GLOBAL unsigned char*)mem, lane, regs);\n"
                                    "    for (int i = 0; i < tr::Plan::regs; ++i) out[lane * tr::Plan::regs + i] = regs[i];\n"
                                    "}\n";
    Run cc = lstest::run_command("clang++-22 -x hip --offload-arch=gfx1200 -nogpulib -nogpuinc --offload-device-only "
                                 "-std=c++17 -O2 -Wall -Werror -S " + (dir / "k.hip").string() + " -o " +
                                 (dir / "k.s").string());
    INFO(cc.err);
    REQUIRE(cc.status == 0);
    std::ifstream in(dir / "k.s");
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(text.find("global_load_tr_b128") != std::string::npos);
    // gfx950's ds_read_tr16_b64, compiled (clang-19 did not know gfx950).
    std::ofstream(dir / "tr950.hpp") << d;
    std::ofstream(dir / "k950.hip") << "#include \"tr950.hpp\"\n"
                                       "extern \"C\" __attribute__((global)) void k(unsigned char* mem, unsigned* out) {\n"
                                       "    const int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));\n"
                                       "    static __attribute__((shared)) unsigned char tile[65536];\n"
                                       "    for (int i = lane; i < 65536; i += 64) tile[i] = mem[i];\n"
                                       "    unsigned regs[tr::Plan::regs];\n"
                                       "    tr::fill((const LS_LDS unsigned char*)tile, lane, regs);\n"
                                       "    for (int i = 0; i < tr::Plan::regs; ++i) out[lane * tr::Plan::regs + i] = regs[i];\n"
                                       "}\n";
    Run cc950 = lstest::run_command("clang++-22 -x hip --offload-arch=gfx950 -nogpulib -nogpuinc --offload-device-only "
                                    "-std=c++17 -O2 -Wall -Werror -S " + (dir / "k950.hip").string() + " -o " +
                                    (dir / "k950.s").string());
    INFO(cc950.err);
    REQUIRE(cc950.status == 0);
    std::ifstream in950(dir / "k950.s");
    const std::string text950((std::istreambuf_iterator<char>(in950)), {});
    CHECK(text950.find("ds_read_b64_tr_b16") != std::string::npos);
    std::filesystem::remove_all(dir);
}
