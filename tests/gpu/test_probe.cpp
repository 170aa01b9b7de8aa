// The probe on the software device: every layout of the catalog survives its
// own probe, and a deliberately corrupted layout (two lanes swapped, registers
// shifted) is caught, for every formula family, with a report that names the
// corrupted slots.
#include "lanescope/gpu.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

using namespace lanescope;
namespace gpu = lanescope::gpu;

namespace {

const Target& target(const char* name) { return Catalog::builtin().find_target(name); }

ResolvedModifiers mods_for(const Instruction& ins, const Target& t, Modifiers m = {}) {
    return resolve_modifiers(ins, t, m);
}

// Representative instructions: one per formula family (several for MFMA, whose
// shapes differ most), with the target that runs them.
struct Rep {
    const char* target;
    const char* instruction;
    int wave;
};
const Rep kReps[] = {
    {"gfx908", "v_mfma_f32_32x32x1f32", 64},          // Mfma, 2 blocks
    {"gfx90a", "v_mfma_f64_16x16x4f64", 64},          // Mfma, 64-bit elements
    {"gfx942", "v_mfma_f32_16x16x16_f16", 64},        // Mfma, packed 16-bit
    {"gfx942", "v_mfma_i32_4x4x4_16b_i8", 64},        // Mfma, 16 blocks
    {"gfx942", "v_mfma_f32_32x32x16_fp8_fp8", 64},    // Mfma, fp8 (FNUZ)
    {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", 64},  // MfmaScaled
    {"gfx942", "v_smfmac_f32_16x16x32_f16", 64},      // SmfmacCdna3
    {"gfx950", "v_smfmac_f32_32x32x64_fp8_fp8", 64},  // SmfmacCdna4
    {"gfx1100", "v_wmma_f32_16x16x16_f16", 32},       // WmmaRdna3
    {"gfx1100", "v_wmma_f16_16x16x16_f16", 64},       // WmmaRdna3, 16-bit D
    {"gfx1200", "v_wmma_i32_16x16x16_iu4", 32},       // WmmaRdna4
    {"gfx1200", "v_swmmac_f32_16x16x32_bf16", 64},    // SwmmacRdna4
};

std::set<LayoutKind> kinds_of_reps() {
    std::set<LayoutKind> k;
    for (const Rep& r : kReps) {
        const Target& t = target(r.target);
        k.insert(Catalog::builtin().find_instruction(t, r.instruction).kind);
    }
    return k;
}

// Two lanes whose slots hold different elements, so that swapping them is a
// real change of the layout.
bool find_swap(const gpu::ClaimedLayout& L, gpu::Corruption& c) {
    for (int a : {0, 1, 5}) {
        for (int b = a + 1; b < L.lanes; ++b) {
            c.lane_a = a;
            c.lane_b = b;
            if (gpu::changes_layout(L, c)) return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("the representatives cover every formula family") {
    CHECK(kinds_of_reps() == std::set<LayoutKind>{LayoutKind::Mfma, LayoutKind::MfmaScaled, LayoutKind::SmfmacCdna3,
                                                  LayoutKind::SmfmacCdna4, LayoutKind::WmmaRdna3, LayoutKind::WmmaRdna4,
                                                  LayoutKind::SwmmacRdna4});
}

TEST_CASE("core's own layouts pass the probe on the software device, on every family") {
    gpu::SoftwareDevice dev;
    int checked = 0;
    // Every fourth instruction of each family (the whole catalog is `verify --all`).
    for (const char* name : {"gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1200"}) {
        const Target& t = target(name);
        auto rows = Catalog::builtin().on(t.family);
        for (size_t n = 0; n < rows.size(); n += 4) {
            Modifiers m;
            m.wave = t.wave_sizes.back();
            gpu::Report r = gpu::verify(*rows[n], t, mods_for(*rows[n], t, m), dev);
            INFO(r.summary() << (r.mismatches.empty() ? "" : "\n" + r.mismatches[0].text()));
            CHECK(r.passed);
            CHECK(r.probes > 0);
            ++checked;
        }
    }
    CHECK(checked > 30);
}

TEST_CASE("modifiers that move data pass the probe through their effect on D") {
    gpu::SoftwareDevice dev;
    struct M {
        const char* target;
        const char* ins;
        Modifiers mods;
    };
    auto mk = [](int cbsz, int abid, int blgp, int opsel, int wave) {
        Modifiers m;
        m.cbsz = cbsz;
        m.abid = abid;
        m.blgp = blgp;
        m.opsel = opsel;
        m.wave = wave;
        return m;
    };
    const M cases[] = {
        {"gfx908", "v_mfma_f32_32x32x1f32", mk(1, 1, 3, -1, -1)},     // broadcast + B lane groups
        {"gfx942", "v_mfma_f32_4x4x1_16b_f32", mk(4, 15, 7, -1, -1)}, // broadcast from block 15
        {"gfx942", "v_mfma_f64_16x16x4_f64", mk(-1, -1, 5, -1, -1)},  // f64 negation of A and C
        {"gfx942", "v_smfmac_f32_16x16x32_f16", mk(-1, 3, -1, -1, -1)},  // index set 3
        {"gfx1100", "v_wmma_bf16_16x16x16_bf16", mk(-1, -1, -1, 4, 32)}, // high halves of C/D
        {"gfx1200", "v_swmmac_f16_16x16x32_f16", mk(-1, -1, -1, 1, 64)}, // index_key 1
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", mk(4, -1, 2, 1, -1)}, // FP4 A, FP6 B, scale byte 1
    };
    for (const M& c : cases) {
        const Target& t = target(c.target);
        const Instruction& ins = Catalog::builtin().find_instruction(t, c.ins);
        gpu::Report r = gpu::verify(ins, t, mods_for(ins, t, c.mods), dev);
        INFO(r.summary() << (r.mismatches.empty() ? "" : "\n" + r.mismatches[0].text()));
        CHECK(r.passed);
    }
}

TEST_CASE("a corrupted layout is caught and reported precisely, for every family and operand") {
    gpu::SoftwareDevice dev;
    int caught = 0;
    for (const Rep& rep : kReps) {
        const Target& t = target(rep.target);
        const Instruction& ins = Catalog::builtin().find_instruction(t, rep.instruction);
        Modifiers m;
        m.wave = rep.wave;
        const ResolvedModifiers mods = mods_for(ins, t, m);
        for (Operand op : operands_of(ins)) {
            const gpu::ClaimedLayout L = gpu::claimed_from_core(ins, t, op, mods);
            for (auto kind : {gpu::Corruption::SwapLanes, gpu::Corruption::ShiftRegisters}) {
                gpu::Corruption c;
                c.kind = kind;
                c.operand = op;
                if (kind == gpu::Corruption::SwapLanes ? !find_swap(L, c) : !gpu::changes_layout(L, c)) continue;
                gpu::VerifyOptions o;
                o.claimed = gpu::corrupted_layouts(ins, t, mods, c);
                o.max_mismatches = 64;
                o.stop_at_first_failure = true;
                gpu::Report r = gpu::verify(ins, t, mods, dev, o);
                INFO(t.gfx << " " << ins.mnemonic << ": " << gpu::describe(c));
                REQUIRE_FALSE(r.passed);
                REQUIRE(r.mismatch_count > 0);
                REQUIRE_FALSE(r.mismatches.empty());
                ++caught;
                // Precise: the report names a corrupted slot -- for D the slot
                // that was read, for the inputs the cell the hardware misread
                // or where its value came from.
                bool names_slot = false;
                for (const gpu::Mismatch& mm : r.mismatches) {
                    const std::string text = mm.text();
                    if (kind == gpu::Corruption::SwapLanes) {
                        for (int lane : {c.lane_a, c.lane_b}) {
                            if (op == Operand::D && (mm.at.lane == lane)) names_slot = true;
                            if (op != Operand::D && text.find("lane " + std::to_string(lane) + " ") != std::string::npos)
                                names_slot = true;
                        }
                    } else {
                        names_slot = names_slot || op == Operand::D ||
                                     text.find(std::string(operand_name(op)) + "(") != std::string::npos;
                    }
                }
                CHECK(names_slot);
                // The app's view: some cell of the corrupted operand (or D for C) is marked wrong.
                bool marked = false;
                for (const gpu::CellIssue& is : r.issues)
                    marked = marked || is.operand == op || (op == Operand::C && is.operand == Operand::D);
                CHECK(marked);
            }
        }
    }
    CHECK(caught >= 40);
}

TEST_CASE("a corruption that moves nothing is recognised as such") {
    const Target& t = target("gfx1100");
    const Instruction& ins = Catalog::builtin().find_instruction(t, "v_wmma_f32_16x16x16_f16");
    Modifiers m;
    m.wave = 32;
    // RDNA3 replicates A: lanes 0 and 16 hold the same elements.
    gpu::ClaimedLayout A = gpu::claimed_from_core(ins, t, Operand::A, mods_for(ins, t, m));
    gpu::Corruption c;
    c.operand = Operand::A;
    c.lane_a = 0;
    c.lane_b = 16;
    CHECK_FALSE(gpu::changes_layout(A, c));
    c.lane_b = 1;
    CHECK(gpu::changes_layout(A, c));
}

TEST_CASE("corruption specs are parsed or refused with the legal forms") {
    gpu::Corruption c = gpu::parse_corruption("B:swap-lanes:3:7");
    CHECK(c.operand == Operand::B);
    CHECK(c.kind == gpu::Corruption::SwapLanes);
    CHECK(c.lane_a == 3);
    CHECK(c.lane_b == 7);
    CHECK(gpu::parse_corruption("D:shift-regs").kind == gpu::Corruption::ShiftRegisters);
    CHECK_THROWS_WITH(gpu::parse_corruption("X:shift-regs"), Catch::Contains("legal"));
    CHECK_THROWS_WITH(gpu::parse_corruption("A:swap-lanes:1"), Catch::Contains("swap-lanes:L1:L2"));
    // 0..127: a wgmma warpgroup has 128 lanes.
    CHECK_THROWS_WITH(gpu::parse_corruption("A:swap-lanes:1:200"), Catch::Contains("0..127"));
}

TEST_CASE("without an AMD GPU the HIP device says so plainly") {
    std::string why;
    auto dev = gpu::HipDevice::open(&why);
    if (dev) {
        LANESCOPE_SKIP("an AMD GPU is present (" << dev->name() << "); the no-GPU path is not exercised");
    }
    CHECK(why.rfind("no AMD GPU found: ", 0) == 0);
    CHECK(why.find('\n') == std::string::npos);
    std::string why2;
    // auto also looks for an NVIDIA GPU: the AMD reason comes first, unchanged.
    if (gpu::CudaDevice::open(nullptr)) return;
    CHECK(gpu::make_device("auto", &why2) == nullptr);
    CHECK(why2.rfind(why + "; no NVIDIA GPU found: ", 0) == 0);
    CHECK(gpu::make_device("software", &why2) != nullptr);
    CHECK(gpu::make_device("tpu", &why2) == nullptr);
    CHECK(why2.find("legal: auto") != std::string::npos);
}

TEST_CASE("the probe kernel declares the catalog's operand sizes and the chosen immediates") {
    const Target& t = target("gfx942");
    const Instruction& ins = Catalog::builtin().find_instruction(t, "v_mfma_f32_32x32x1_2b_f32");
    Modifiers m;
    m.cbsz = 1;
    m.abid = 1;
    m.blgp = 2;
    const std::string src = gpu::probe_source(ins, t, mods_for(ins, t, m));
    CHECK(src.find("__builtin_amdgcn_mfma_f32_32x32x1f32(a, b, c, 1, 1, 2)") != std::string::npos);
    CHECK(src.find("sizeof(d) == 128") != std::string::npos);  // 32 registers of D
    CHECK(src.find("__global__") == std::string::npos);       // plain attribute, no HIP headers needed
    CHECK(src.find("LANESCOPE_PROBE void lanescope_probe") != std::string::npos);
}
