// lanescope-cli verify / conformance as a user runs them, and the HIP form of
// the probe kernel compiled by the real compiler.
#include "lanescope/gpu.hpp"
#include "shell_run.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace fs = std::filesystem;
using namespace lanescope;

namespace {

using lstest::Run;
Run sh(const std::string& cmd_line) { return lstest::run_command(cmd_line); }

Run cli(const std::string& args) { return sh(std::string(LANESCOPE_CLI) + " " + args); }

bool have_gpu() {
    std::string why;
    return gpu::HipDevice::open(&why) != nullptr || gpu::CudaDevice::open(&why) != nullptr;
}

}  // namespace

TEST_CASE("verify --all without an AMD GPU: one line, documented status 4") {
    if (have_gpu()) return;
    Run r = cli("verify --all");
    CHECK(r.status == 4);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("lanescope-cli: no AMD GPU found: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    Run one = cli("verify --arch gfx942 -i v_mfma_f32_16x16x16_f16");
    CHECK(one.status == 4);
}

// Debian's libamdhip64-5 (scripts/packages/gpu.txt) is a real HIP runtime: without an AMD GPU it
// loads and answers hipGetDeviceCount with its own error. The glue (dlopen, the bound functions,
// the message) is proven against it: the message names the error as the runtime itself spells it.
TEST_CASE("the real HIP runtime, installed without an AMD GPU: the message names the runtime's own error") {
    void* lib = nullptr;
    for (const char* name : {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"})
        if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) {
        LANESCOPE_SKIP("no HIP runtime is installed (scripts/packages/gpu.txt installs libamdhip64-5): the path is not exercised");
    }
    auto count_fn = reinterpret_cast<int (*)(int*)>(dlsym(lib, "hipGetDeviceCount"));
    auto text_fn = reinterpret_cast<const char* (*)(int)>(dlsym(lib, "hipGetErrorString"));
    REQUIRE(count_fn);
    REQUIRE(text_fn);
    int count = 0;
    const int rc = count_fn(&count);
    if (rc == 0 && count > 0) {
        LANESCOPE_SKIP("an AMD GPU is present: the runtime's no-device path is not exercised");
    }
    std::string why;
    CHECK(gpu::HipDevice::open(&why) == nullptr);
    INFO(why);
    if (rc != 0) {
        const std::string own = text_fn(rc);  // "hipErrorNoDevice" from Debian's 5.2 runtime
        CHECK(!own.empty());
        CHECK(why == "no AMD GPU found: the HIP runtime reports " + own + " (hipGetDeviceCount error " +
                         std::to_string(rc) + ")");
        // The CLI says the same on one line, with verify's status for "no GPU" (4).
        Run r = cli("verify --device hip --arch gfx942 -i v_mfma_f32_16x16x16_f16");
        CHECK(r.status == 4);
        CHECK(r.err == "lanescope-cli: " + why + "\n");
    } else {
        CHECK(why == "no AMD GPU found: the HIP runtime sees no device");
    }
}

TEST_CASE("verify on the software device: PASS, and FAIL with the first mismatches for a corrupted layout") {
    Run ok = cli("verify --device software --arch gfx1100 -i wmma_f32_16x16x16_f16_w32");
    CHECK(ok.status == 0);
    CHECK(ok.out.rfind("PASS v_wmma_f32_16x16x16_f16 on gfx1100", 0) == 0);

    Run bad = cli("verify --device software --arch cdna3 -i v_mfma_f32_16x16x16_f16 --corrupt D:swap-lanes:0:1 "
                  "--max-mismatches 2");
    CHECK(bad.status == 5);
    CHECK(bad.out.rfind("FAIL v_mfma_f32_16x16x16_f16 on gfx942", 0) == 0);
    CHECK(bad.out.find("lane 0 ") != std::string::npos);
    CHECK(bad.out.find("more") != std::string::npos);
    CHECK(bad.out.find("0 passed, 1 failed") != std::string::npos);

    // wgmma's B lives in shared memory, not in registers, yet the probe checks its
    // claimed placement: corrupting it must fail the check (status 5), not be refused.
    Run smem = cli("verify --device software -a sm_90 -i wgmma_m64n64k16_f32_f16 --corrupt B:shift-regs --max-mismatches 1");
    CHECK(smem.status == 5);
    CHECK(smem.out.find("0 passed, 1 failed") != std::string::npos);
}

TEST_CASE("verify --every-modifier runs every legal cbsz/abid/blgp combination") {
    // 2 blocks: cbsz 0 (abid 0) or 1 (abid 0, 1) = 3 broadcast settings, times
    // the 8 BLGP lane-group patterns.
    Run r = cli("verify --device software --arch gfx908 -i v_mfma_f32_32x32x1f32 --every-modifier");
    CHECK(r.status == 0);
    CHECK(r.out.find("24 passed, 0 failed") != std::string::npos);
    CHECK(r.out.find("(cbsz=1 abid=1 blgp=7)") != std::string::npos);
}

TEST_CASE("verify refuses bad input with what is legal") {
    Run dev = cli("verify --device tpu");
    CHECK(dev.status == 1);
    CHECK(dev.err.find("legal: auto") != std::string::npos);
    Run mod = cli("verify --device software --arch gfx942 -i v_mfma_f32_16x16x16_f16 --cbsz 1");
    CHECK(mod.status == 1);
    CHECK(mod.err.find("cbsz") != std::string::npos);
    Run corrupt = cli("verify --device software --arch gfx942 -i v_mfma_f32_16x16x16_f16 --corrupt A:twist");
    CHECK(corrupt.status == 1);
    CHECK(corrupt.err.find("legal") != std::string::npos);
    Run target = cli("conformance --target gfx999");
    CHECK(target.status == 1);
    Run unwritable = cli("verify --device software --arch gfx942 -i v_mfma_f32_16x16x16_f16 --out /nonexistent-dir/x.txt");
    CHECK(unwritable.status == 1);
    CHECK_FALSE(fs::exists("/nonexistent-dir/x.txt"));
}

TEST_CASE("verify --format json is an array of reports") {
    Run r = cli("verify --device software --arch rdna4 -i v_swmmac_f32_16x16x32_f16 --opsel 1 --format json");
    CHECK(r.status == 0);
    CHECK(r.out.find("\"passed\": true") != std::string::npos);
    CHECK(r.out.find("\"target\": \"gfx120") != std::string::npos);
    CHECK(r.out.front() == '[');
}

#ifdef LANESCOPE_HAVE_CLANG22
TEST_CASE("the probe kernel compiles as HIP with clang-22 into a loadable code object for each family") {
    const char* targets[][2] = {{"gfx90a", "v_mfma_f32_32x32x8f16"},
                                {"gfx942", "v_smfmac_f32_32x32x16_bf16"},
                                {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4"},
                                {"gfx950", "v_mfma_f32_16x16x128_f8f6f4"},
                                {"gfx1100", "v_wmma_f16_16x16x16_f16"},
                                {"gfx1153", "v_wmma_f32_16x16x16_bf16"},
                                {"gfx1200", "v_swmmac_i32_16x16x32_iu8"},
                                {"gfx1250", "v_wmma_scale16_f32_16x16x128_f8f6f4"},
                                {"gfx1250", "v_swmmac_i32_16x16x128_iu8"},
                                {"gfx1251", "v_wmma_f32_32x16x128_f4"}};
    const fs::path dir = fs::temp_directory_path() / ("lanescope_hip_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (auto& tc : targets) {
        const Target& t = Catalog::builtin().find_target(tc[0]);
        const Instruction& ins = Catalog::builtin().find_instruction(t, tc[1]);
        const std::string src = gpu::probe_source(ins, t, resolve_modifiers(ins, t, Modifiers{}));
        const fs::path hip = dir / (ins.mnemonic + ".hip"), co = dir / (ins.mnemonic + ".co");
        std::ofstream(hip) << src;
        Run r = sh("clang++-22 -x hip --offload-arch=" + t.gfx +
                   " --offload-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O2 -c " + hip.string() + " -o " +
                   co.string() + " && llvm-objdump-22 -d --mcpu=" + t.gfx + " " + co.string());
        INFO(t.gfx << " " << ins.mnemonic << "\n" << r.err);
        CHECK(r.status == 0);
        CHECK(r.out.find("<lanescope_probe>:") != std::string::npos);
        CHECK(r.out.find(ins.mnemonic + " ") != std::string::npos);
    }
    fs::remove_all(dir);
}
#endif

#ifdef LANESCOPE_HAVE_CLANG19
TEST_CASE("the probe kernel compiles as HIP with clang-19 for gfx940, which LLVM 22 removed") {
    const Target& t = Catalog::builtin().find_target("gfx940");
    CHECK(t.compiler == "clang-19");
    const Instruction& ins = Catalog::builtin().find_instruction(t, "v_mfma_f32_32x32x4_xf32");
    const fs::path dir = fs::temp_directory_path() / ("lanescope_hip19_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "p.hip") << gpu::probe_source(ins, t, resolve_modifiers(ins, t, Modifiers{}));
    Run r = sh("clang++-19 -x hip --offload-arch=gfx940 --offload-device-only --no-gpu-bundle-output -nogpulib "
               "-nogpuinc -O2 -c " + (dir / "p.hip").string() + " -o " + (dir / "p.co").string() +
               " && llvm-objdump-19 -d --mcpu=gfx940 " + (dir / "p.co").string());
    fs::remove_all(dir);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(ins.mnemonic + " ") != std::string::npos);
}

TEST_CASE("conformance fails, naming the builtin, when the catalog is wrong") {
    // Two rows of the catalog: v_mfma_f32_16x16x8_xf32 with a wrong opcode
    // (0x3e -> 0x3f), and its CDNA3-only sibling claimed on CDNA2 as well.
    std::ifstream in(LANESCOPE_CATALOG_FILE);
    std::string text, line;
    while (std::getline(in, line)) {
        if (line.find("| mfma_f32_16x16x8_xf32 ") != std::string::npos) {
            auto at = line.find("| 3e |");
            REQUIRE(at != std::string::npos);
            text += line.replace(at, 6, "| 3f |") + "\n";
        }
        if (line.find("| mfma_f32_32x32x4_xf32 ") != std::string::npos) {
            REQUIRE(line.rfind("cdna3       |", 0) == 0);
            text += "cdna2,cdna3 |" + line.substr(13) + "\n";
        }
    }
    const fs::path bad = fs::temp_directory_path() / ("lanescope_bad_catalog_" + std::to_string(::getpid()) + ".txt");
    std::ofstream(bad) << text;
    Run r = cli("--catalog " + bad.string() + " conformance --target gfx90a --target gfx942");
    fs::remove(bad);
    INFO(r.out << r.err);
    CHECK(r.status == 5);
    CHECK(r.out.find("FAIL gfx942 __builtin_amdgcn_mfma_f32_16x16x8_xf32: opcode 0x3e, catalog says 0x3f") !=
          std::string::npos);
    CHECK(r.out.find("FAIL gfx90a __builtin_amdgcn_mfma_f32_32x32x4_xf32: does not compile for gfx90a") !=
          std::string::npos);
    CHECK(r.out.find("gfx942 (CDNA3): 1/2 builtins passed") != std::string::npos);
    CHECK(r.out.find("gfx90a (CDNA2): 0/1 builtins passed") != std::string::npos);
}
#endif

TEST_CASE("conformance judges multi-word encodings by their MFMA word and f8f6f4 registers per format") {
    const Target& g950 = Catalog::builtin().find_target("gfx950");
    const Instruction& scaled = Catalog::builtin().find_instruction(g950, "v_mfma_scale_f32_16x16x128_f8f6f4");
    const Instruction& plain = Catalog::builtin().find_instruction(g950, "v_mfma_f32_16x16x128_f8f6f4");
    // Lines as llvm-objdump-22 printed them for clang-22's code (gfx950).
    const std::string scaled_line = "v_mfma_scale_f32_16x16x128_f8f6f4 v[4:7], v[14:21], v[22:29], v[4:7], v12, v13 "
                                    "op_sel_hi:[0,0,0]// 0000000000AC: D3AC0000 00021B0C D3AD0804 04122D0E";
    const std::string fp6_fp4_line = "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[0:5], v[8:11], v[16:19] cbsz:2 blgp:4// "
                                     "000000000014: D3AD0200 84421100";
    auto judge = [&](const Instruction& ins, int cbsz, int blgp, const std::string& line) {
        Modifiers m;
        m.cbsz = cbsz;
        m.blgp = blgp;
        std::string all;
        for (const std::string& p : gpu::judge_disassembly(ins, g950, resolve_modifiers(ins, g950, m), line))
            all += p + "; ";
        return all;
    };
    CHECK(judge(scaled, 0, 0, scaled_line).empty());     // opcode 0x2d from the MFMA word, not 0x2c from ld_scale
    CHECK(judge(plain, 2, 4, fp6_fp4_line).empty());     // FP6 A: 6 registers, FP4 B: 4
    CHECK(judge(plain, 0, 0, fp6_fp4_line).find("operand A uses 6 registers") != std::string::npos);
    const std::string wrong = judge(plain, 0, 0, scaled_line);
    CHECK(wrong.find("emitted v_mfma_scale_f32_16x16x128_f8f6f4") != std::string::npos);
    CHECK(wrong.find("4 dwords, catalog says 2") != std::string::npos);
    // A prefix that is not the ld_scale is named.
    std::string bad_prefix = scaled_line;
    bad_prefix.replace(bad_prefix.find("D3AC0000"), 8, "D3AB0000");
    CHECK(judge(scaled, 0, 0, bad_prefix).find("prefix word 0 opcode 0x2b, catalog says 0x2c") != std::string::npos);
}

TEST_CASE("conformance reads gfx1250's 8-bit opcode from the WMMA word after the scale prefix") {
    const Target& g = Catalog::builtin().find_target("gfx1250");
    const Instruction& scaled = Catalog::builtin().find_instruction(g, "v_wmma_scale_f32_16x16x128_f8f6f4");
    const Instruction& f16 = Catalog::builtin().find_instruction(g, "v_wmma_f16_16x16x128_fp8_fp8");
    // Lines as llvm-objdump-22 printed them for clang-22's code (gfx1250).
    const std::string scaled_line =
        "v_wmma_scale_f32_16x16x128_f8f6f4 v[24:31], v[0:11], v[16:23], v[24:31], v13, v12 "
        "matrix_a_fmt:MATRIX_FMT_FP6 matrix_b_fmt:MATRIX_FMT_FP4 matrix_a_scale:MATRIX_SCALE_ROW1 "
        "matrix_a_scale_fmt:MATRIX_SCALE_FMT_E5M3 matrix_b_scale_fmt:MATRIX_SCALE_FMT_E4M3// 00000000026C: CC350A00 "
        "2402190D CC335018 04622100";
    Modifiers m;
    m.matrix_a_fmt = 2;
    m.matrix_b_fmt = 4;
    m.matrix_a_scale = 1;
    m.matrix_a_scale_fmt = 1;
    m.matrix_b_scale_fmt = 2;
    auto problems = gpu::judge_disassembly(scaled, g, resolve_modifiers(scaled, g, m), scaled_line);
    std::string all;
    for (const std::string& p : problems) all += p + "; ";
    CHECK(all.empty());
    // An 8-bit opcode (0x84) that a 7-bit mask would read as 0x04 (the words are llvm-mc-22's
    // -mcpu=gfx1250 encoding of this line: [0x00,0x00,0x84,0xcc,0x04,0x29,0x02,0x1c]).
    const std::string f16_line = "v_wmma_f16_16x16x128_fp8_fp8 v[0:3], v[4:19], v[20:35], v[0:3]// 000000000000: CC840000 "
                                 "1C022904";
    CHECK(gpu::judge_disassembly(f16, g, resolve_modifiers(f16, g, Modifiers{}), f16_line).empty());
}

TEST_CASE("verify --corrupt: a swap whose D values decode to no element is reported, not a crash") {
    // v_mfma_f32_32x32x2f32 (2 blocks, B of 2 x 2 x 32): swapping lanes 0 and 1 of A or B makes D add the
    // bits of several probe elements, whose code names no element (it used to index past the claim).
    for (const char* c : {"A:swap-lanes:0:1", "B:swap-lanes:0:1"}) {
        Run r = cli(std::string("verify --device software -a gfx942 -i v_mfma_f32_32x32x2f32 --max-mismatches 2 --corrupt ") + c);
        INFO(c << ": " << r.err);
        CHECK(r.status == 5);
        CHECK(r.out.find("0 passed, 1 failed") != std::string::npos);
    }
    // A corruption that moves nothing is refused with one that does (it would PASS while "corrupted").
    Run same = cli("verify --device software -a gfx942 -i v_mfma_f32_32x32x2f32 --corrupt A:shift-regs");
    CHECK(same.status == 1);
    CHECK(same.err.find("moves nothing") != std::string::npos);
    CHECK(same.out.empty());
    // Many instructions: those it moves nothing in are counted apart, never as passed.
    Run all = cli("verify --device software -a gfx908 --all --corrupt A:shift-regs");
    INFO(all.out.substr(all.out.size() > 600 ? all.out.size() - 600 : 0));
    CHECK(all.status == 5);
    CHECK(all.out.find("moves no element here") != std::string::npos);
    CHECK(all.out.find("\n0 passed, ") != std::string::npos);
    CHECK(all.out.find("not run (the corruption moves nothing there)") != std::string::npos);
}

TEST_CASE("verify --smem: options it does not take are refused by name; without a GPU, status 4") {
    for (const char* bad : {"-a sm_90a", "-i wgmma_m64n64k16_f32_f16", "--swizzle 128B", "--all"}) {
        INFO(bad);
        Run r = cli(std::string("verify --smem ") + bad);
        CHECK(r.status == 1);
        CHECK(r.err.find("does not go with") != std::string::npos);
    }
    Run soft = cli("verify --smem --device software");
    CHECK(soft.status == 1);
    CHECK(soft.err.find("--device cuda") != std::string::npos);
    Run corrupt = cli("verify --smem --corrupt A:swap-lanes:0:1");
    CHECK(corrupt.status == 1);
    CHECK(corrupt.err.find("legal with --smem: no-swizzle, base-offset-added") != std::string::npos);
    if (!lanescope::gpu::CudaDevice::open(nullptr)) {
        Run none = cli("verify --smem --device cuda");
        CHECK(none.status == 4);
        CHECK(none.err.find("no NVIDIA GPU found") != std::string::npos);
    }
}
