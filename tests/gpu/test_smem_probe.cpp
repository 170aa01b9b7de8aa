// verify --device cuda --smem without a GPU: the probe kernels (wgmma B, SS A, TMA) assemble with
// CUDA's ptxas for sm_90a ("no compiler here" where ptxas is absent), every configuration has a
// claim inside the probe's tagged window with no byte claimed twice, and every corruption moves
// elements somewhere in the set (a corruption that moves nothing would be no test).
#include "lanescope/gpu.hpp"
#include "lanescope/smem.hpp"
#include "shell_run.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

namespace ls = lanescope;
namespace gpu = lanescope::gpu;

TEST_CASE("smem probes: the wgmma B, SS A and TMA kernels assemble with ptxas for sm_90a", "[smem][probe]") {
    const ls::Instruction& ins =
        ls::Catalog::builtin().find_instruction(ls::Catalog::target("sm_90a"), "wgmma_m64n64k16_f32_f16");
    const char* ptxas = "/usr/local/cuda/bin/ptxas";
    for (auto kind : {gpu::SmemCase::WgmmaB, gpu::SmemCase::WgmmaA, gpu::SmemCase::Tma}) {
        const std::string src = gpu::smem_probe_ptx(kind, ins);
        CHECK(src.find(kind == gpu::SmemCase::Tma ? "cp.async.bulk.tensor.2d" : "wgmma.mma_async") != std::string::npos);
        if (!std::filesystem::exists(ptxas)) {
            LANESCOPE_SKIP_PART("no compiler here: " << ptxas << " is absent; the probe was generated only");
            continue;
        }
        const std::string f = lstest::write_temp("lanescope_smem_probe_" + std::to_string(int(kind)) + ".ptx", src);
        const lstest::Run r = lstest::run_command(std::string(ptxas) + " -arch=sm_90a -o /dev/null " + f);
        INFO(src << "\n" << r.err);
        CHECK(r.status == 0);
    }
}

TEST_CASE("smem probes: every configuration's claim lies in the tagged window, no byte twice", "[smem][probe]") {
    const std::vector<gpu::SmemCase> cases = gpu::smem_cases();
    int b = 0, a = 0, tma = 0;
    std::set<int> swizzles_b, swizzles_a, swizzles_tma;
    for (const gpu::SmemCase& c : cases) {
        INFO(c.name);
        const gpu::SmemClaim claim = gpu::smem_claim(c, 1024);
        CHECK(claim.address.size() == size_t(claim.rows) * size_t(claim.cols));
        std::set<std::uint32_t> bytes(claim.address.begin(), claim.address.end());
        CHECK(bytes.size() == claim.address.size());
        CHECK(*bytes.begin() >= 1024u);
        CHECK(*bytes.rbegin() < 1024u + 32768u);
        if (c.kind == gpu::SmemCase::WgmmaB) ++b, swizzles_b.insert(c.mods.swizzle * 2 + c.mods.smem_major);
        if (c.kind == gpu::SmemCase::WgmmaA) ++a, swizzles_a.insert(c.mods.swizzle * 2 + c.mods.smem_major);
        if (c.kind == gpu::SmemCase::Tma) ++tma, swizzles_tma.insert(int(c.box.swizzle));
        if (c.raw_bits) CHECK((claim.descriptor & c.raw_bits) == c.raw_bits);
    }
    // Every swizzle x major-ness for B and A; every TMA swizzle.
    CHECK(swizzles_b.size() == 8);
    CHECK(swizzles_a.size() == 8);
    CHECK(swizzles_tma.size() == 5);
    CHECK(b >= 35);
    CHECK(a >= 15);
    CHECK(tma >= 12);
}

TEST_CASE("smem probes: each corruption moves elements in some configuration, and says where it moves none",
          "[smem][probe]") {
    const std::vector<gpu::SmemCase> cases = gpu::smem_cases();
    for (const char* name : {"no-swizzle", "base-offset-added", "start-anchored", "swap-lbo-sbo", "no-padding"}) {
        const gpu::SmemCorruption how = gpu::parse_smem_corruption(name);
        int moved = 0, unmoved = 0;
        for (const gpu::SmemCase& c : cases) {
            const gpu::SmemClaim bad = gpu::smem_claim(c, 1024, how);
            (bad.why_unmoved.empty() ? moved : unmoved)++;
            if (bad.why_unmoved.empty()) CHECK(bad.address != gpu::smem_claim(c, 1024).address);
        }
        INFO(name);
        CHECK(moved > 0);
    }
    CHECK_THROWS_WITH(gpu::parse_smem_corruption("A:swap-lanes:0:1"), Catch::Contains("legal with --smem: no-swizzle"));
}

TEST_CASE("smem probes: the base offset is subtracted, the swizzle anchored at the absolute address (PTX's formula read as the H200 does)",
          "[smem][probe]") {
    // K-major 128B B of wgmma m64n64k16 at 1024 + 512 with base offset 4: element (n, k) at
    // lin = (n % 8) * 128 + (n / 8) * 1024 + 2k; chunk ^= ((a >> 7) - 4) mod 8 on the absolute address a.
    gpu::SmemCase c;
    for (const gpu::SmemCase& x : gpu::smem_cases())
        if (x.name == "B K 128B, start 512 base offset 4") c = x;
    REQUIRE(c.name.size());
    const gpu::SmemClaim claim = gpu::smem_claim(c, 1024);
    for (int k = 0; k < 16; ++k)
        for (int n = 0; n < 64; ++n) {
            const std::uint32_t a = 1024 + 512 + (n % 8) * 128 + (n / 8) * 1024 + 2 * k;
            const std::uint32_t want = a ^ ((((a >> 7) - 4) & 7) << 4);
            CHECK(claim.address[size_t(k) * 64 + n] == want);
        }
}
