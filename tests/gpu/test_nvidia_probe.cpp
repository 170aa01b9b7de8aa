// The NVIDIA path of the GPU backend without an NVIDIA GPU: the probe on the
// software device for every NVIDIA catalog entry, corrupted NVIDIA layouts
// caught with the slot named, the PTX probe kernels' form (the exact spelling,
// the catalog's register counts, the target), the shared-memory facts the
// probes rely on, and the CUDA device's answer on a machine without one.
#include "lanescope/gpu.hpp"
#include "nvidia.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

using namespace lanescope;

namespace {

lstest::Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }

struct Job {
    const Instruction* ins;
    const Target* t;
    ResolvedModifiers mods;
};

// Every NVIDIA row once, on the oldest target that accepts it (as `verify --all` does).
std::vector<Job> nvidia_jobs() {
    const Catalog& cat = Catalog::builtin();
    std::vector<Job> jobs;
    for (const Instruction& ins : cat.instructions()) {
        if (ins.vendor() != Vendor::NVIDIA) continue;
        const Target* t = nullptr;
        for (const Target& x : cat.targets())
            if (x.gfx == ins.min_target) t = &x;
        if (!t)
            for (const Target& x : cat.targets())
                if (!t && ins.on(x.family)) t = &x;
        REQUIRE(t);
        for (int wave : wave_sizes(ins, *t)) {
            Modifiers m;
            m.wave = wave;
            jobs.push_back({&ins, t, resolve_modifiers(ins, *t, m)});
        }
    }
    return jobs;
}

const Instruction& row(const std::string& short_name) {
    for (const Instruction& ins : Catalog::builtin().instructions())
        if (ins.short_name == short_name) return ins;
    FAIL("no catalog row " << short_name);
    throw;
}

// The brace lists of the instruction's line in the PTX, as register counts.
std::vector<int> brace_counts(const std::string& ptx, const std::string& mnemonic) {
    std::istringstream in(ptx);
    for (std::string line; std::getline(in, line);) {
        const size_t at = line.find(mnemonic + " ");
        if (at == std::string::npos || line.find("//") != std::string::npos) continue;
        std::vector<int> counts;
        for (size_t open = line.find('{'); open != std::string::npos; open = line.find('{', open + 1)) {
            const size_t close = line.find('}', open);
            const std::string list = line.substr(open + 1, close - open - 1);
            counts.push_back(int(std::count(list.begin(), list.end(), ',')) + 1);
        }
        return counts;
    }
    return {};
}

}  // namespace

// Every NVIDIA entry of one kind passes the probe on the software device.
// Under the sanitizers (a Debug build some 20x slower) wgmma keeps the N that
// cover every register-count pattern (8, 16, 24, 32, 64, 128, 136, 256); the
// Release suite checks every N.
void software_device_passes(bool wgmma, std::set<std::string>& kinds, int& entries) {
    gpu::SoftwareDevice dev;
    for (const Job& j : nvidia_jobs()) {
        const auto s = gpu::detail::nv_spelling(*j.ins);
        REQUIRE(s);
        if ((s->cls == gpu::detail::NvClass::Wgmma) != wgmma) continue;
#ifdef LANESCOPE_TEST_SANITIZED
        if (wgmma && s->n > 32 && s->n != 64 && s->n != 128 && s->n != 136 && s->n != 256) continue;
#endif
        const gpu::Report r = gpu::verify(*j.ins, *j.t, j.mods, dev);
        INFO(r.summary() << (r.mismatches.empty() ? "" : "\n" + r.mismatches[0].text()));
        CHECK(r.passed);
        CHECK(r.slots_checked > 0);
        kinds.insert(j.ins->mnemonic.substr(0, j.ins->mnemonic.find('.')) + (j.ins->sparse() ? ".sp" : ""));
        ++entries;
    }
}

TEST_CASE("the software device verifies every NVIDIA mma.sync, mma.sp, ldmatrix and stmatrix entry") {
    std::set<std::string> kinds;
    int entries = 0;
    software_device_passes(false, kinds, entries);
    CHECK(kinds == std::set<std::string>{"mma", "mma.sp", "ldmatrix", "stmatrix"});
    CHECK(entries == 42);  // 26 mma.sync, 4 mma.sp, 6 ldmatrix, 6 stmatrix
}

TEST_CASE("the software device verifies every NVIDIA wgmma entry") {
    std::set<std::string> kinds;
    int entries = 0;
    software_device_passes(true, kinds, entries);
    CHECK(kinds == std::set<std::string>{"wgmma"});
#ifdef LANESCOPE_TEST_SANITIZED
    CHECK(entries == 8 * 8 + 7);  // s8 has no N = 136
#else
    CHECK(entries == 274);  // 8 types x 32 N, s8 x 18 N
#endif
}

TEST_CASE("every selector of mma.sp passes, and selects other lanes' metadata") {
    gpu::SoftwareDevice dev;
    for (const char* name : {"mma_sp_m16n8k16_f32_f16", "mma_sp_m16n8k32_f32_bf16"}) {
        const Instruction& ins = row(name);
        const Target& t = Catalog::builtin().find_target("sm_80");
        std::set<int> lanes_seen;
        ResolvedModifiers base = resolve_modifiers(ins, t, Modifiers{});
        std::vector<int> selectors;
        for (const ModifierRange& r : modifier_ranges(ins, t, base))
            if (r.name == "selector") selectors = r.values;
        REQUIRE(selectors.size() >= 2);
        for (int s : selectors) {
            Modifiers m;
            m.selector = s;
            const ResolvedModifiers mods = resolve_modifiers(ins, t, m);
            const gpu::Report r = gpu::verify(ins, t, mods, dev);
            INFO(name << " selector " << s << ": " << r.summary());
            CHECK(r.passed);
            for (const Entry& e : layout_of(ins, t, Operand::K, mods).entries()) lanes_seen.insert(e.loc.lane);
        }
        // Each selector names other lanes of the quad.
        CHECK(int(lanes_seen.size()) == 8 * int(selectors.size()) * (ins.k == 32 ? 2 : 1));
    }
}

TEST_CASE("a corrupted NVIDIA layout fails on the software device, naming the slot") {
    gpu::SoftwareDevice dev;
    const Catalog& cat = Catalog::builtin();
    struct Case {
        const char* row;
        const char* spec;
    };
    const Case cases[] = {
        {"mma_m16n8k16_f32_f16", "A:swap-lanes:0:1"},   {"mma_m16n8k16_f32_f16", "B:swap-lanes:4:9"},
        {"mma_m16n8k8_f32_tf32", "C:swap-lanes:2:6"},   {"mma_m8n8k4_f64", "D:swap-lanes:4:5"},
        {"mma_m16n8k64_s32_s4", "A:shift-regs"},       {"mma_sp_m16n8k16_f32_f16", "K:swap-lanes:0:1"},
        {"mma_sp_m16n8k32_f32_bf16", "A:swap-lanes:1:2"}, {"wgmma_m64n128k16_f32_f16", "A:swap-lanes:0:64"},
        {"wgmma_m64n64k16_f32_f16", "B:shift-regs"},  {"wgmma_m64n256k16_f16_f16", "D:swap-lanes:3:100"},
        {"ldmatrix_x4_trans", "D:swap-lanes:0:1"},     {"ldmatrix_x2", "D:shift-regs"},
        {"stmatrix_x2", "D:swap-lanes:8:31"},          {"stmatrix_x4_trans", "D:shift-regs"},
    };
    for (const Case& c : cases) {
        const Instruction& ins = row(c.row);
        const Target& t = cat.find_target("sm_90");
        Modifiers m;
        m.wave = wave_sizes(ins, t).front();
        const ResolvedModifiers mods = resolve_modifiers(ins, t, m);
        const gpu::Corruption k = gpu::parse_corruption(c.spec);
        gpu::VerifyOptions o;
        o.claimed = gpu::corrupted_layouts(ins, t, mods, k);
        o.max_mismatches = 64;
        const gpu::Report r = gpu::verify(ins, t, mods, dev, o);
        INFO(c.row << " " << c.spec << ": " << r.summary());
        REQUIRE_FALSE(r.passed);
        REQUIRE_FALSE(r.mismatches.empty());
        bool names_slot = false;
        for (const gpu::Mismatch& mm : r.mismatches) {
            const std::string text = mm.text();
            if (k.kind == gpu::Corruption::SwapLanes) {
                for (int lane : {k.lane_a, k.lane_b})
                    names_slot = names_slot || text.find("lane " + std::to_string(lane) + " ") != std::string::npos;
            } else {
                // Shifted registers: some register of the operand is named with its lane.
                names_slot = names_slot || std::regex_search(text, std::regex("v[0-9]+ lane [0-9]+ \\["));
            }
        }
        CHECK(names_slot);
    }
}

TEST_CASE("PTX probe kernels: the catalog's spelling, register counts and target") {
    int checked = 0;
    for (const Job& j : nvidia_jobs()) {
        const Instruction& ins = *j.ins;
        const std::string ptx = gpu::ptx_probe_source(ins, *j.t, j.mods);
        INFO(ins.mnemonic << " on " << j.t->gfx << "\n" << ptx);
        const auto s = gpu::detail::nv_spelling(ins);
        REQUIRE(s);
        // The target the row claims (wgmma: sm_90a, the only one that has it).
        const std::string target = s->cls == gpu::detail::NvClass::Wgmma ? "sm_90a" : j.t->gfx;
        CHECK(ptx.find("\n.target " + target + "\n") != std::string::npos);
        CHECK(ptx.find(".version 8.7\n") != std::string::npos);
        CHECK(ptx.find(".visible .entry lanescope_probe(") != std::string::npos);
        CHECK(ptx.substr(ptx.size() - 7) == "ret;\n}\n");
        CHECK(std::count(ptx.begin(), ptx.end(), '{') == std::count(ptx.begin(), ptx.end(), '}'));
        // The instruction exactly as the catalog spells it, with the register
        // counts the catalog's source states (64-bit registers for f64).
        const std::vector<int> got = brace_counts(ptx, ins.mnemonic);
        auto stated = [&](Operand op) {
            for (const auto& p : ins.stated_regs)
                if (p.first == op) return p.second;
            return operand_regs(ins, op, j.mods);
        };
        const int wide = s->d == "f64" ? 2 : 1;
        switch (s->cls) {
            case gpu::detail::NvClass::MmaSync:
            case gpu::detail::NvClass::MmaSparse:
                CHECK(got == std::vector<int>{stated(Operand::D) / wide, stated(Operand::A) / wide,
                                              stated(Operand::B) / wide, stated(Operand::C) / wide});
                if (s->cls == gpu::detail::NvClass::MmaSparse)
                    CHECK(ptx.find(", %e0, " + std::to_string(j.mods.selector) + ";") != std::string::npos);
                break;
            case gpu::detail::NvClass::Wgmma:
                CHECK(got == std::vector<int>{stated(Operand::D), stated(Operand::A)});
                CHECK(ptx.find("wgmma.fence.sync.aligned;") != std::string::npos);
                CHECK(ptx.find("wgmma.wait_group.sync.aligned 0;") != std::string::npos);
                CHECK(ptx.find("fence.proxy.async.shared::cta;") != std::string::npos);
                break;
            case gpu::detail::NvClass::LdMatrix:
                CHECK(got == std::vector<int>{stated(Operand::D)});
                CHECK(ptx.find(ins.mnemonic + " {") != std::string::npos);
                break;
            case gpu::detail::NvClass::StMatrix:
                CHECK(got == std::vector<int>{stated(Operand::D)});
                CHECK(ptx.find(ins.mnemonic + " [%row], {") != std::string::npos);
                break;
        }
        ++checked;
    }
    CHECK(checked >= 300);
}

TEST_CASE("shared-memory facts the NVIDIA probes rely on") {
    // wgmma B, K-major without swizzle: 8 n of 16 bytes per core matrix, the
    // second 16 bytes of K one LBO (128 bytes) on, the next 8 n one SBO (256) on.
    const gpu::ClaimedLayout b = gpu::detail::wgmma_b_shared_layout(16, 16, ElemType::F16);
    auto byte_of = [&](int k, int n) {
        for (const Entry& e : b.entries)
            if (e.element == Element{0, k, n}) return e.loc.reg * 4 + e.loc.bit_lo / 8;
        return -1;
    };
    CHECK(byte_of(0, 0) == 0);
    CHECK(byte_of(1, 0) == 2);
    CHECK(byte_of(0, 1) == 16);
    CHECK(byte_of(8, 0) == 128);
    CHECK(byte_of(0, 8) == 256);
    CHECK(b.regs == 2 * 256 / 4);
    std::set<int> bytes;
    for (const Entry& e : b.entries) bytes.insert(e.loc.reg * 4 + e.loc.bit_lo / 8);
    CHECK(bytes.size() == b.entries.size());
    // ldmatrix rows: every (matrix, row) its own 16-byte row, lanes past 8 x N on decoys.
    for (int n : {1, 2, 4}) {
        const gpu::detail::RowImage img = gpu::detail::scattered_rows(n);
        std::set<uint32_t> rows;
        for (int lane = 0; lane < 8 * n; ++lane) rows.insert(img.lane_address[lane]);
        CHECK(int(rows.size()) == 8 * n);
        for (int lane = 8 * n; lane < 32; ++lane) {
            CHECK(rows.count(img.lane_address[lane]) == 0);
            CHECK(img.element(int(img.lane_address[lane] / 16), 0) >= gpu::detail::kDecoy);
        }
        // Neighbouring rows are never neighbours in memory.
        for (int lane = 1; lane < 8 * n; ++lane)
            CHECK(img.lane_address[lane] != img.lane_address[lane - 1] + 16);
    }
}

TEST_CASE("verify --device cuda without an NVIDIA GPU: one line, documented status 4") {
    std::string why;
    if (gpu::CudaDevice::open(&why)) return;  // a machine with an NVIDIA GPU: nothing to check here
    CHECK(why.rfind("no NVIDIA GPU found: ", 0) == 0);
    const lstest::Run r = cli("verify --device cuda --all");
    CHECK(r.status == 4);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("lanescope-cli: no NVIDIA GPU found: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("verify --device software covers the NVIDIA catalog from the command line") {
    const lstest::Run r = cli("verify --device software --arch sm_90 -i mma_sp_m16n8k16_f32_f16 --selector 1");
    CHECK(r.status == 0);
    CHECK(r.out.rfind("PASS mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 on sm_90", 0) == 0);
    const lstest::Run bad = cli("verify --device software --arch sm_90 -i ldmatrix_x2_trans --corrupt D:swap-lanes:0:1");
    CHECK(bad.status == 5);
    CHECK(bad.out.find("lane 0 ") != std::string::npos);
}
