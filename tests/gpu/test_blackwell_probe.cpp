// The probes a Blackwell GPU would run (none was available): tcgen05.st/ld round trips of
// tagged values for every tcgen05.ld/st row, assembled by CUDA's ptxas for sm_100a here so
// they are known to build ("no compiler here" where ptxas is absent); and verify --device cuda
// says plainly that Blackwell entries need a Blackwell GPU.
#include "lanescope/blackwell.hpp"
#include "lanescope/gpu.hpp"
#include "shell_run.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>

namespace ls = lanescope;
namespace gpu = lanescope::gpu;

namespace {
const char* kPtxas = "/usr/local/cuda/bin/ptxas";

// Assembles each file for `arch`; how many built ("no compiler here", once, where ptxas is absent: -1).
int assemble(const std::vector<std::string>& files, const std::string& arch, const std::string& what) {
    if (!std::filesystem::exists(kPtxas)) {
        LANESCOPE_SKIP_PART("no compiler here: " << kPtxas << " is absent; the " << files.size() << " " << what << " were generated only");
        return -1;
    }
    int built = 0;
    for (const std::string& f : files) {
        const lstest::Run r = lstest::run_command(std::string(kPtxas) + " -arch=" + arch + " -o /dev/null " + f);
        INFO(f << "\n" << r.err);
        CHECK(r.status == 0);
        built += r.status == 0;
    }
    WARN(what << " assembled by ptxas for " << arch << ": " << built << " / " << files.size());
    return built;
}
}

TEST_CASE("Blackwell probes: a tcgen05.st/ld round trip for every tcgen05.ld/st row assembles with ptxas for sm_100a",
          "[blackwell][probe]") {
    const ls::Target& t = ls::Catalog::target("sm_100a");
    std::set<std::string> made;
    int rows = 0;
    std::vector<std::string> files;
    for (const ls::Instruction& ins : ls::blackwell_spellings()) {
        if (ins.kind != ls::LayoutKind::Tcgen05LdSt || ins.mnemonic.find(".red") != std::string::npos) continue;
        ++rows;
        const std::string src = gpu::tcgen05_ldst_probe_source(ins, t);
        // What the probe must contain: the row's shape and .num, stored and loaded, and the 32x32b witness.
        const std::string shape = "." + ins.tmem_shape + ".x" + std::to_string(ins.tmem_num);
        CHECK(src.find("tcgen05.st.sync.aligned" + shape) != std::string::npos);
        CHECK(src.find("tcgen05.ld.sync.aligned" + shape) != std::string::npos);
        CHECK(src.find("tcgen05.ld.sync.aligned.32x32b") != std::string::npos);
        CHECK(src.find("tcgen05.dealloc") != std::string::npos);
        const std::string key = ins.tmem_shape + shape + (ins.pack16 ? "p" : "");
        if (!made.insert(key).second) continue;  // tcgen05.ld and tcgen05.st rows share one probe
        files.push_back(lstest::write_temp("lanescope_bw_probe_" + std::to_string(files.size()) + ".ptx", src));
    }
    CHECK(rows == 2 * 74);  // 37 shape x .num, plain and packed, of tcgen05.ld and of tcgen05.st
    CHECK_THROWS_AS(gpu::tcgen05_ldst_probe_source(ls::Catalog::builtin().find_instruction(
                                                        ls::Catalog::target("sm_90a"), "wgmma_m64n16k16_f32_f16"),
                                                    t),
                    ls::Error);
    const int built = assemble(files, "sm_100a", "tcgen05.st/ld round-trip probes");
    CHECK((built < 0 || built == static_cast<int>(files.size())));
}

TEST_CASE("Blackwell probes: one-hot scale factors for every dense block-scaled mma.sync of sm_120a assemble with ptxas",
          "[blackwell][probe]") {
    const ls::Target& t = ls::Catalog::target("sm_120a");
    std::vector<std::string> files;
    for (const ls::Instruction& ins : ls::blackwell_spellings()) {
        if (ins.kind != ls::LayoutKind::MmaBlockScale || ins.mnemonic.rfind("mma.sync.", 0) != 0 ||
            ins.mnemonic.find(".block_scale") == std::string::npos || !ls::claimed_on(ins, t))
            continue;
        if (ls::ptx_only(ins)) {  // PTX 9.1's scale_vec::4X with ue8m0: CUDA 13.0 ptxas refuses it, so no probe
            CHECK_THROWS_WITH(gpu::mma_block_scale_probe_source(ins, t, ls::resolve_modifiers(ins, t, {})),
                              Catch::Contains("PTX-only"));
            continue;
        }
        ls::Modifiers m;
        const std::string src = gpu::mma_block_scale_probe_source(ins, t, ls::resolve_modifiers(ins, t, m));
        CHECK(src.find(ins.mnemonic + " {%d0") != std::string::npos);
        CHECK(src.find("%sfa0, {0, 0}, %sfb0, {0, 0}") != std::string::npos);
        files.push_back(lstest::write_temp("lanescope_bw_sf_probe_" + std::to_string(files.size()) + ".ptx", src));
    }
    CHECK(files.size() >= 10);
    const int built = assemble(files, "sm_120a", "sm_120 one-hot scale-factor probes");
    CHECK((built < 0 || built == static_cast<int>(files.size())));
}

TEST_CASE("Blackwell probes: one-hot tcgen05.mma kind::f16 for the D layouts D and F assemble with ptxas for sm_100a",
          "[blackwell][probe]") {
    const ls::Target& t = ls::Catalog::target("sm_100a");
    const ls::Catalog& cat = ls::Catalog::builtin();
    std::vector<std::string> files;
    for (int M : {64, 128})
        for (int N : {8, 16, 64, 256})
            for (const char* d : {"f32", "f16"}) {
                const std::string name = "tcgen05_mma_m" + std::to_string(M) + "n" + std::to_string(N) + "k16_" + d + "_f16";
                const ls::Instruction& ins = cat.find_instruction(t, name);
                const std::string src = gpu::tcgen05_mma_probe_source(ins, t, ls::resolve_modifiers(ins, t, {}));
                CHECK(src.find("tcgen05.mma.cta_group::1.kind::f16 [%base], %adesc, %bdesc, %idesc") != std::string::npos);
                // The idesc's N >> 3 (bits 17-22) and M >> 4 (bits 24-28), as CUTLASS's UMMA::InstrDescriptor packs them.
                const unsigned idesc = (d[1] == '3' ? 1u << 4 : 0u) | unsigned(N >> 3) << 17 | unsigned(M >> 4) << 24;
                CHECK(src.find("mov.b32 %idesc, " + std::to_string(idesc) + ";") != std::string::npos);
                files.push_back(lstest::write_temp("lanescope_bw_mma_probe_" + std::to_string(files.size()) + ".ptx", src));
            }
    const ls::Instruction& ws = cat.find_instruction(t, "tcgen05_mma_ws_m64n128k16_f32_f16");
    CHECK_THROWS_WITH(gpu::tcgen05_mma_probe_source(ws, t, ls::resolve_modifiers(ws, t, {})), Catch::Contains("legal"));
    const int built = assemble(files, "sm_100a", "one-hot tcgen05.mma probes");
    CHECK((built < 0 || built == static_cast<int>(files.size())));
}

TEST_CASE("Blackwell entries need a Blackwell GPU, said plainly", "[blackwell][probe]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& sm100a = ls::Catalog::target("sm_100a");
    const ls::Target& sm120a = ls::Catalog::target("sm_120a");
    const ls::Instruction& mma = cat.find_instruction(sm100a, "tcgen05_mma_m128n256k16_f32_f16");
    const std::string on_h200 = gpu::blackwell_need(mma, sm100a, 90);
    CHECK(on_h200.rfind("Blackwell entries need a Blackwell GPU", 0) == 0);
    CHECK(on_h200.find("B200") != std::string::npos);
    CHECK(on_h200.find("sm_90") != std::string::npos);
    CHECK(gpu::blackwell_need(mma, sm100a, 100).empty());
    // Ampere's mma.sync on a Blackwell GeForce target: code for sm_120a runs on an RTX 50.
    const ls::Instruction& hmma = cat.find_instruction(sm120a, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    CHECK(gpu::blackwell_need(hmma, sm120a, 90).find("RTX 50") != std::string::npos);
    CHECK(gpu::blackwell_need(hmma, ls::Catalog::target("sm_80"), 90).empty());
    // From the command line, without any NVIDIA GPU here: the documented status 4, and the reason.
    const lstest::Run r = lstest::cli("verify --device cuda -a sm_100a -i tcgen05_mma_m128n256k16_f32_f16");
    if (r.status == 4) CHECK(r.err.find("Blackwell entries need a Blackwell GPU") != std::string::npos);
    else CHECK(r.err.find("Blackwell") != std::string::npos);  // a non-Blackwell NVIDIA GPU refuses it too
    CHECK(r.status != 0);
}
