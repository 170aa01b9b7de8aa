// NVIDIA layouts against an independent restatement of the closed forms of
// /work/shared/reference/nvidia-mma-fragments.md (checked on an H200). The
// expectations are written here from the sheet's *forward* maps -- (lane,
// element index) -> (row, col) -- and its packing rule; the engine implements
// the inverse maps, so the two are independent. Both directions are compared:
// every element's locations (where) and every slot's contents (which).
#include "helpers.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace {
namespace ls = lanescope;
using lstest::Run;
Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }

// (block, row, col) and (reg, lane, bit_lo, bit_hi) as plain tuples.
using Key = std::tuple<int, int, int, int, int, int, int>;

struct Expected {
    std::vector<Key> entries;  // sorted and unique once expected_for() returns
    void add(int block, int row, int col, int lane, int reg, int bit_lo, int bits) {
        entries.push_back({block, row, col, reg, lane, bit_lo, bit_lo + bits - 1});
    }
    Expected& done() {
        std::sort(entries.begin(), entries.end());
        entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
        return *this;
    }
};

// The sheet's packing (§1): element i of width w lives in 32-bit register
// floor(i/p), bits w*(i%p) up; f64 element i takes registers 2i, 2i+1.
void place(Expected& x, int block, int row, int col, int lane, int i, int w) {
    if (w == 64) {
        x.add(block, row, col, lane, 2 * i, 0, 64);
        return;
    }
    const int p = 32 / w;
    x.add(block, row, col, lane, i / p, w * (i % p), w);
}

int elems_per_reg(int w) { return w == 64 ? 1 : 32 / w; }

// §2: mma.sync A/B/C/D, forward maps.
Expected mma_sync(const ls::Instruction& ins, ls::Operand op) {
    Expected x;
    const int wa = ls::elem_bits(ins.a), wc = ls::elem_bits(ins.c);
    const int p = elems_per_reg(wa);
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        if (op == ls::Operand::A) {
            const int n_elems = ins.m * ins.k / 32;
            for (int i = 0; i < n_elems; ++i) {
                const int r = i / p, e = i % p;
                int row, col;
                if (ins.m == 16) {
                    row = g + 8 * (r % 2);
                    col = p * t + e + 4 * p * (r / 2);
                } else {
                    row = g;
                    col = p * t + i;
                }
                place(x, 0, row, col, lane, i, wa);
            }
        } else if (op == ls::Operand::B) {
            const int n_elems = ins.k * 8 / 32;
            for (int i = 0; i < n_elems; ++i) {
                const int r = i / p, e = i % p;
                place(x, 0, p * t + e + 4 * p * r, g, lane, i, wa);
            }
        } else {  // C, D
            const int n_elems = ins.m * 8 / 32;
            for (int i = 0; i < n_elems; ++i) {
                const int row = ins.m == 16 ? g + 8 * (i / 2) : g;
                const int col = ins.m == 16 ? 2 * t + i % 2 : 2 * t + i;
                place(x, 0, row, col, lane, i, wc);
            }
        }
    }
    return x;
}

// §3: mma.sp. A register r of a lane: row g + 8(r%2), chunk t + 4*floor(r/2),
// both halves; in dense coordinates all four k of the chunk name that register.
// Metadata: lane 4g + f (k16) / 4g + 2f + q (k32), nibble n -> row g + 8*floor(n/4),
// chunk (n%4) (+ 4q).
Expected mma_sp(const ls::Instruction& ins, ls::Operand op, int f) {
    if (op == ls::Operand::B || op == ls::Operand::C || op == ls::Operand::D) return mma_sync(ins, op);
    Expected x;
    const bool k32 = ins.k == 32;
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        if (op == ls::Operand::A) {
            for (int r = 0; r < (k32 ? 4 : 2); ++r) {
                const int row = g + 8 * (r % 2), chunk = t + 4 * (r / 2);
                for (int j = 0; j < 4; ++j) x.add(0, row, 4 * chunk + j, lane, r, 0, 32);
            }
        } else {  // K
            int q = 0;
            if (k32) {
                if (t != 2 * f && t != 2 * f + 1) continue;
                q = t - 2 * f;
            } else if (t != f) {
                continue;
            }
            for (int n = 0; n < 8; ++n) {
                const int row = g + 8 * (n / 4), chunk = n % 4 + 4 * q;
                for (int j = 0; j < 4; ++j) x.add(0, row, 4 * chunk + j, lane, 0, 4 * n, 4);
            }
        }
    }
    return x;
}

// §4: ldmatrix/stmatrix register j of lane 4g + t: M_j[g][2t], M_j[g][2t+1]
// (.trans: M_j[2t][g], M_j[2t+1][g]), low half first.
Expected ldst(const ls::Instruction& ins) {
    Expected x;
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int j = 0; j < ins.blocks; ++j)
            for (int h = 0; h < 2; ++h) {
                if (ins.transposed) x.add(j, 2 * t + h, g, lane, j, 16 * h, 16);
                else x.add(j, g, 2 * t + h, lane, j, 16 * h, 16);
            }
    }
    return x;
}

// §5: wgmma A and D, T = 32w + lane.
Expected wgmma(const ls::Instruction& ins, ls::Operand op) {
    Expected x;
    const int wa = ls::elem_bits(ins.a), wc = ls::elem_bits(ins.c);
    const int p = elems_per_reg(wa);
    for (int T = 0; T < 128; ++T) {
        const int w = T / 32, g = (T % 32) / 4, t = T % 4;
        if (op == ls::Operand::A) {
            for (int i = 0; i < 4 * p; ++i) {
                const int r = i / p, e = i % p;
                place(x, 0, 16 * w + g + 8 * (r % 2), p * t + e + 4 * p * (r / 2), T, i, wa);
            }
        } else {
            for (int i = 0; i < ins.n / 2; ++i)
                place(x, 0, 16 * w + g + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * t + i % 2, T, i, wc);
        }
    }
    return x;
}

Expected expected_for(const ls::Instruction& ins, ls::Operand op, int selector) {
    switch (ins.kind) {
        case ls::LayoutKind::MmaSync: return mma_sync(ins, op).done();
        case ls::LayoutKind::MmaSparse: return mma_sp(ins, op, selector).done();
        case ls::LayoutKind::LdStMatrix: return ldst(ins).done();
        case ls::LayoutKind::Wgmma: return wgmma(ins, op).done();
        default: FAIL("not an NVIDIA family");
    }
    return {};
}

std::vector<const ls::Instruction*> nvidia_rows() {
    std::vector<const ls::Instruction*> out;
    for (const auto& r : ls::Catalog::builtin().instructions())
        if (r.vendor() == ls::Vendor::NVIDIA) out.push_back(&r);
    return out;
}

const ls::Target& hopper() { return ls::Catalog::builtin().find_target("sm_90"); }

// The sheet's §2.1 table: 32-bit registers per thread of A / B / C / D.
const std::map<std::string, std::array<int, 4>>& sheet_regs() {
    static const std::map<std::string, std::array<int, 4>> k = {
        {"mma_m16n8k16_f32_f16", {4, 2, 4, 4}},  {"mma_m16n8k16_f16_f16", {4, 2, 2, 2}},
        {"mma_m16n8k16_f32_bf16", {4, 2, 4, 4}}, {"mma_m16n8k8_f32_f16", {2, 1, 4, 4}},
        {"mma_m16n8k8_f16_f16", {2, 1, 2, 2}},   {"mma_m16n8k8_f32_bf16", {2, 1, 4, 4}},
        {"mma_m16n8k8_f32_tf32", {4, 2, 4, 4}},  {"mma_m16n8k4_f32_tf32", {2, 1, 4, 4}},
        {"mma_m16n8k32_s32_s8", {4, 2, 4, 4}},   {"mma_m16n8k32_s32_u8", {4, 2, 4, 4}},
        {"mma_m16n8k32_f32_e4m3", {4, 2, 4, 4}}, {"mma_m16n8k32_f32_e5m2", {4, 2, 4, 4}},
        {"mma_m16n8k32_f16_e4m3", {4, 2, 2, 2}}, {"mma_m16n8k32_f16_e5m2", {4, 2, 2, 2}},
        {"mma_m16n8k16_f32_e4m3", {2, 1, 4, 4}}, {"mma_m16n8k16_f32_e5m2", {2, 1, 4, 4}},
        {"mma_m16n8k16_f16_e4m3", {2, 1, 2, 2}}, {"mma_m16n8k16_f16_e5m2", {2, 1, 2, 2}},
        {"mma_m16n8k16_s32_s8", {2, 1, 4, 4}},   {"mma_m16n8k16_s32_u8", {2, 1, 4, 4}},
        {"mma_m8n8k16_s32_s8", {1, 1, 2, 2}},    {"mma_m16n8k64_s32_s4", {4, 2, 4, 4}},
        {"mma_m8n8k4_f64", {2, 2, 4, 4}},        {"mma_m16n8k4_f64", {4, 2, 8, 8}},
        {"mma_m16n8k8_f64", {8, 4, 8, 8}},       {"mma_m16n8k16_f64", {16, 8, 8, 8}},
        // §3: k16 A 2 / B as dense k16; k32 A 4 / B 4.
        {"mma_sp_m16n8k16_f32_f16", {2, 2, 4, 4}}, {"mma_sp_m16n8k16_f32_bf16", {2, 2, 4, 4}},
        {"mma_sp_m16n8k32_f32_f16", {4, 4, 4, 4}}, {"mma_sp_m16n8k32_f32_bf16", {4, 4, 4, 4}},
    };
    return k;
}

}  // namespace

TEST_CASE("NVIDIA catalog holds the issue's instruction set") {
    auto rows = nvidia_rows();
    std::map<ls::LayoutKind, int> count;
    for (auto* r : rows) ++count[r->kind];
    CHECK(count[ls::LayoutKind::MmaSync] == 26);
    CHECK(count[ls::LayoutKind::MmaSparse] == 4);
    CHECK(count[ls::LayoutKind::LdStMatrix] == 12);
    // 8 floating-point type combinations x 32 N, s8 with 18 N (8, 16, 24, 32..256 step 16).
    CHECK(count[ls::LayoutKind::Wgmma] == 8 * 32 + 18);
    for (const auto& [name, regs] : sheet_regs()) {
        INFO(name);
        const auto& ins = ls::Catalog::builtin().find_instruction(hopper(), name);
        CHECK(ins.short_name == name);
    }
}

TEST_CASE("every NVIDIA layout equals the reference sheet's closed forms, element by element") {
    const ls::Target& t = hopper();
    size_t compared = 0;
    for (const ls::Instruction* ins : nvidia_rows()) {
        std::vector<int> selectors = {0};
        if (ins->kind == ls::LayoutKind::MmaSparse) selectors = ins->k == 32 ? std::vector<int>{0, 1} : std::vector<int>{0, 1, 2, 3};
        for (int sel : selectors)
            for (ls::Operand op : ls::operands_of(*ins)) {
                if (sel > 0 && op != ls::Operand::K) continue;
                INFO(ins->mnemonic << " operand " << ls::operand_name(op) << " selector " << sel);
                ls::Modifiers m;
                if (ins->kind == ls::LayoutKind::MmaSparse) m.selector = sel;
                const ls::OperandLayout L = ls::layout_of(*ins, t, op, m);
                if (L.space() != ls::Space::Registers) continue;  // wgmma B: test_smem.cpp
                const Expected x = expected_for(*ins, op, sel);
                // element -> locations
                std::vector<Key> got;
                for (const ls::Entry& e : L.entries())
                    got.push_back({e.element.block, e.element.row, e.element.col, e.loc.reg, e.loc.lane, e.loc.bit_lo,
                                   e.loc.bit_hi});
                std::sort(got.begin(), got.end());
                REQUIRE(got == x.entries);  // the same set, and no element listed twice at one place
                // slot -> elements, through which()
                std::vector<Key> from_slots;
                for (int lane = 0; lane < L.lanes(); ++lane)
                    for (int reg = 0; reg < L.regs(); ++reg)
                        for (const ls::SlotPart& p : L.which(reg, lane))
                            if (p.elem_bit_lo == 0)  // the part where the element starts
                                from_slots.push_back({p.element.block, p.element.row, p.element.col, reg, lane, p.bit_lo,
                                                      p.bit_lo + L.element_bits() - 1});
                std::sort(from_slots.begin(), from_slots.end());
                REQUIRE(from_slots == x.entries);
                compared += x.entries.size();
            }
    }
    CHECK(compared > 1000000);  // wgmma N = 8..256 dominates
}

TEST_CASE("NVIDIA layouts are bijections onto their registers, with the sheet's register counts") {
    const ls::Target& t = hopper();
    for (const ls::Instruction* ins : nvidia_rows()) {
        const int lanes = ins->kind == ls::LayoutKind::Wgmma ? 128 : 32;
        for (ls::Operand op : ls::operands_of(*ins)) {
            INFO(ins->mnemonic << " operand " << ls::operand_name(op));
            const ls::OperandLayout L = ls::layout_of(*ins, t, op, ls::Modifiers{});
            if (L.space() != ls::Space::Registers) continue;  // wgmma B in shared memory: test_smem.cpp
            CHECK(L.lanes() == lanes);
            // Every bit of every register of every lane holds exactly one element's bit: the
            // parts of a register (sorted by bit) tile bits 0..31 without overlap.
            const bool metadata = op == ls::Operand::K;  // only the selected lanes carry metadata
            int holes = 0, doubles = 0;
            for (int lane = 0; lane < L.lanes(); ++lane)
                for (int reg = 0; reg < L.regs(); ++reg) {
                    int next = 0;  // first bit not yet covered
                    for (const ls::SlotPart& p : L.which(reg, lane)) {
                        // Sparse A and K: the four k of a chunk share their slot; count it once.
                        if (ins->sparse() && (op == ls::Operand::A || op == ls::Operand::K) && p.element.col % 4 != 0)
                            continue;
                        if (p.bit_lo < next) doubles += next - p.bit_lo;
                        else holes += p.bit_lo - next;
                        next = std::max(next, p.bit_hi + 1);
                    }
                    holes += 32 - next;
                }
            CHECK(doubles == 0);
            if (!metadata) CHECK(holes == 0);
            else CHECK(holes == L.lanes() * 32 * (ins->k == 32 ? 2 : 3) / 4);
            // Dense operands: one location per element.
            if (!ins->sparse() || (op != ls::Operand::A && op != ls::Operand::K))
                CHECK(L.entries().size() == static_cast<size_t>(L.elements()));
        }
        // Register counts, from the sheet.
        auto regs = [&](ls::Operand op) { return ls::operand_regs(*ins, op, ls::resolve_modifiers(*ins, t, {})); };
        auto it = sheet_regs().find(ins->short_name);
        if (it != sheet_regs().end()) {
            INFO(ins->short_name);
            CHECK(regs(ls::Operand::A) == it->second[0]);
            CHECK(regs(ls::Operand::B) == it->second[1]);
            CHECK(regs(ls::Operand::C) == it->second[2]);
            CHECK(regs(ls::Operand::D) == it->second[3]);
        } else if (ins->kind == ls::LayoutKind::Wgmma) {
            INFO(ins->short_name);
            CHECK(regs(ls::Operand::A) == 4);  // §5: every type
            CHECK(regs(ls::Operand::D) == (ins->c == ls::ElemType::F16 ? ins->n / 4 : ins->n / 2));
        } else if (ins->kind == ls::LayoutKind::LdStMatrix) {
            CHECK(regs(ls::Operand::D) == ins->blocks);  // §4: one register per matrix
        } else {
            FAIL("no sheet register counts for " << ins->short_name);
        }
    }
}

TEST_CASE("NVIDIA targets are found by family, sm id and product") {
    const auto& cat = ls::Catalog::builtin();
    CHECK(cat.find_target("a100").gfx == "sm_80");
    CHECK(cat.find_target("ampere").gfx == "sm_80");
    CHECK(cat.find_target("SM_86").gfx == "sm_86");
    CHECK(cat.find_target("l40s").gfx == "sm_89");
    CHECK(cat.find_target("RTX4090").gfx == "sm_89");
    CHECK(cat.find_target("ada").gfx == "sm_89");
    CHECK(cat.find_target("h100").gfx == "sm_90");
    CHECK(cat.find_target("H200").gfx == "sm_90");
    CHECK(cat.find_target("hopper").family == ls::Family::Hopper);
    CHECK(cat.find_target("sm_90a").family == ls::Family::Hopper);
    CHECK(cat.find_target("sm_90").arch_name() == "sm_90");
    CHECK(cat.find_target("gfx942").arch_name() == "cdna3");  // AMD unchanged
    CHECK_THROWS_WITH(cat.find_target("sm_91"), Catch::Contains("did you mean"));
}

TEST_CASE("NVIDIA instructions are found by PTX spelling and short name, case-insensitively") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& h = hopper();
    const auto& a = cat.find_instruction(h, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    CHECK(a.short_name == "mma_m16n8k16_f32_f16");
    CHECK(&cat.find_instruction(h, "MMA_M16N8K16_F32_F16") == &a);
    CHECK(&cat.find_instruction(h, "  MMA.SYNC.ALIGNED.M16N8K16.ROW.COL.F32.F16.F16.F32 ") == &a);
    const auto& w = cat.find_instruction(h, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16");
    CHECK(w.n == 128);
    CHECK(&cat.find_instruction(h, "wgmma_m64n128k16_f32_f16") == &w);
    const auto& l = cat.find_instruction(h, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
    CHECK(l.blocks == 4);
    CHECK(l.transposed);
    CHECK(&cat.find_instruction(h, "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16") == &l);
    CHECK(&cat.find_instruction(h, "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") ==
          &cat.find_instruction(h, "mma_sp_m16n8k16_f32_f16"));
    // Did you mean, and where else it exists.
    CHECK_THROWS_WITH(cat.find_instruction(h, "mma_m16n8k16_f32_f61"), Catch::Contains("did you mean 'mma_m16n8k16_f32_f16'"));
    CHECK_THROWS_WITH(cat.find_instruction(cat.find_target("sm_80"), "mma_m16n8k32_f32_e4m3"),
                      Catch::Contains("it exists on ada, hopper"));
    CHECK_THROWS_WITH(cat.find_instruction(cat.find_target("sm_80"), "stmatrix_x4"), Catch::Contains("hopper"));
    // The vendors stay apart.
    CHECK_THROWS(cat.find_instruction(h, "v_mfma_f32_32x32x8_f16"));
    CHECK_THROWS(cat.find_instruction(cat.find_target("gfx942"), "mma_m16n8k16_f32_f16"));
}

TEST_CASE("NVIDIA modifiers: lanes and the sparsity selector") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& h = hopper();
    const auto& sp16 = cat.find_instruction(h, "mma_sp_m16n8k16_f32_f16");
    const auto& sp32 = cat.find_instruction(h, "mma_sp_m16n8k32_f32_f16");
    const auto& w = cat.find_instruction(h, "wgmma_m64n64k16_f32_f16");
    ls::Modifiers m;
    CHECK(ls::resolve_modifiers(w, h, m).wave == 128);
    CHECK(ls::resolve_modifiers(sp16, h, m).wave == 32);
    m.selector = 3;
    CHECK(ls::resolve_modifiers(sp16, h, m).selector == 3);
    CHECK_THROWS_WITH(ls::resolve_modifiers(sp32, h, m), Catch::Contains("legal: 0..1"));
    CHECK_THROWS_WITH(ls::resolve_modifiers(w, h, m), Catch::Contains("--selector does not apply"));
    ls::Modifiers cb;
    cb.cbsz = 1;
    CHECK_THROWS_WITH(ls::resolve_modifiers(sp16, h, cb), Catch::Contains("no CBSZ"));
    ls::Modifiers wave;
    wave.wave = 64;
    CHECK_THROWS_WITH(ls::resolve_modifiers(w, h, wave), Catch::Contains("legal: 128"));
    // AMD instructions refuse the selector.
    ls::Modifiers amd;
    amd.selector = 1;
    const ls::Target& g = cat.find_target("gfx942");
    CHECK_THROWS(ls::resolve_modifiers(cat.find_instruction(g, "v_smfmac_f32_16x16x32_f16"), g, amd));
    // Operands: wgmma's B is in shared memory (laid out from its descriptor), ldmatrix only D; trace says so.
    CHECK(ls::operands_of(w) == std::vector<ls::Operand>{ls::Operand::A, ls::Operand::B, ls::Operand::C, ls::Operand::D});
    CHECK(ls::layout_of(w, h, ls::Operand::B, ls::Modifiers{}).space() == ls::Space::SharedMemory);
    const auto& ld = cat.find_instruction(h, "ldmatrix_x2");
    CHECK(ls::operands_of(ld) == std::vector<ls::Operand>{ls::Operand::D});
    CHECK_THROWS_WITH(ls::trace(ld, h, ls::resolve_modifiers(ld, h, {}), {0, 0, 0}), Catch::Contains("computes no product"));
    ls::Trace tr = ls::trace(w, h, ls::resolve_modifiers(w, h, {}), {0, 5, 9});
    CHECK(tr.note.find("shared memory") != std::string::npos);
}

TEST_CASE("layout --format json on NVIDIA entries keeps the contract") {
    Run r = cli("layout --arch sm_90 --instruction mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 --operand A --format json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["arch"] == "sm_90");
    CHECK(j["instruction"] == "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
    CHECK(j["operand"] == "A");
    CHECK(j["blocks"] == 1);
    CHECK(j["lanes"] == 32);
    REQUIRE(j["entries"].size() == 16 * 16);
    for (const auto& e : j["entries"])
        for (const char* key : {"block", "row", "col", "lane", "reg", "bit_lo", "bit_hi"}) REQUIRE(e[key].is_number_integer());
    // §2.2: A[g+8][2t+9] is register 3, bits 31:16 of lane 4g + t (g = 2, t = 1 -> lane 9).
    bool found = false;
    for (const auto& e : j["entries"])
        if (e["row"] == 10 && e["col"] == 11) found = e["lane"] == 9 && e["reg"] == 3 && e["bit_lo"] == 16;
    CHECK(found);

    // f64: one entry per element with bit_hi 63.
    r = cli("layout -a h100 -i mma_m16n8k4_f64 --operand D --format json");
    REQUIRE(r.status == 0);
    j = nlohmann::json::parse(r.out);
    for (const auto& e : j["entries"]) REQUIRE(e["bit_hi"] == 63);

    // ldmatrix: operand D, blocks = number of matrices.
    r = cli("layout -a sm_80 -i ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 --operand D --format json");
    REQUIRE(r.status == 0);
    j = nlohmann::json::parse(r.out);
    CHECK(j["blocks"] == 4);
    CHECK(j["entries"].size() == 4 * 64);

    // wgmma: 128 lanes, the accumulator of N = 256.
    r = cli("layout -a sm_90a -i wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 --operand D --format json");
    REQUIRE(r.status == 0);
    j = nlohmann::json::parse(r.out);
    CHECK(j["lanes"] == 128);
    CHECK(j["regs"] == 128);
    CHECK(j["arch"] == "sm_90a");

    // Sparse metadata with a selector, every operand.
    r = cli("layout -a sm_90 -i mma_sp_m16n8k32_f32_bf16 --selector 1 --operand all --format json");
    REQUIRE(r.status == 0);
    j = nlohmann::json::parse(r.out);
    REQUIRE(j.size() == 5);
    CHECK(j[4]["operand"] == "K");
    CHECK(j[4]["modifiers"]["selector"] == 1);
}

TEST_CASE("info on NVIDIA entries states PTX facts and no AMD-only ones") {
    Run r = cli("info -a sm_90 -i ldmatrix_x2_trans --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["ptx"] == "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16");
    CHECK(j["min_target"] == "sm_75");
    CHECK(j["registers"]["D"] == 2);
    CHECK(j.contains("addresses"));
    CHECK_FALSE(j.contains("opcode"));
    CHECK_FALSE(j.contains("gpr_alignment_bytes"));
    r = cli("info -a h200 -i wgmma_m64n96k32_s32_s8");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("sm_90a") != std::string::npos);
    CHECK(r.out.find("confidence") != std::string::npos);
    CHECK(r.out.find("opcode") == std::string::npos);
    CHECK(r.out.find("VGPR") == std::string::npos);
    // trace: wgmma's B terms have no register slots; ldmatrix computes nothing.
    r = cli("trace -a sm_90 -i wgmma_m64n8k8_f32_tf32 --row 17 --col 3 --format json");
    REQUIRE(r.status == 0);
    j = nlohmann::json::parse(r.out);
    CHECK(j["terms"].size() == 8 + 8 + 1);
    CHECK(j["d"]["locations"][0]["lane"] == 37);  // REF §5: T = 32*1 + 4*1 + 1
    r = cli("trace -a sm_90 -i ldmatrix_x4 --row 1 --col 1");
    CHECK(r.status == 1);
    CHECK(r.err.find("computes no product") != std::string::npos);
    // Bad names and modifiers: a message, status 1.
    r = cli("layout -a sm_90 -i wgmma_m64n40k32_s32_s8");  // integer wgmma has no N = 40
    CHECK(r.status == 1);
    CHECK(r.err.find("did you mean") != std::string::npos);
    r = cli("layout -a sm_90 -i mma_sp_m16n8k16_f32_f16 --operand K --selector 4");
    CHECK(r.status == 1);
    CHECK(r.err.find("legal: 0..3") != std::string::npos);
}

// PTX ISA §9.7.14.5.8 (mma.m16n8k16, .f16 A): groupID = laneid >> 2, threadID_in_group = laneid % 4;
// a_i lies at row groupID (+8 for i = 2, 3, 6, 7), col 2*threadID_in_group + (i & 1) (+8 for i >= 4).
// A (3, 2): groupID 3, threadID_in_group 1, i = 0: a0 of thread 13. C/D: c_i at row groupID (+8 for
// i >= 2), col 2*threadID_in_group + (i & 1): D (9, 5) is d3 of thread 4*1 + 2 = 6.
TEST_CASE("CLI text names NVIDIA registers as PTX does (a0, d3) and keeps AMD's v0; JSON adds ptx, keeps reg") {
    Run r = cli("where -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --row 3 --col 2");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("A[3][2]  a0   13    [15:0]  a0:T13") != std::string::npos);
    CHECK(r.out.find(" v0 ") == std::string::npos);
    r = cli("where -a sm_80 -i mma_m16n8k16_f32_f16 --operand D --row 9 --col 5 --format csv");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("D[9][5],d3,6,") != std::string::npos);
    // which: register 1 of thread 13 holds a2 (low half) and a3: rows groupID + 8 = 11, cols 2, 3.
    r = cli("which -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --reg 1 --lane 13");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("ptx") != std::string::npos);
    CHECK(r.out.find("A[11][2]  0      11   2    a2") != std::string::npos);
    CHECK(r.out.find("A[11][3]  0      11   3    a3") != std::string::npos);
    // The registers view: a column per register, headed by its PTX elements.
    r = cli("layout -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --view registers --format markdown");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("| lane | a0/a1 ") != std::string::npos);
    CHECK(r.out.find("| a6/a7 ") != std::string::npos);
    // JSON: the promised fields unchanged, "ptx" added.
    r = cli("where -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --row 3 --col 2 --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["locations"].size() == 1);
    CHECK(j["locations"][0]["reg"] == 0);
    CHECK(j["locations"][0]["lane"] == 13);
    CHECK(j["locations"][0]["ptx"] == "a0");
    // AMD keeps its VGPR names and has no "ptx" field.
    r = cli("where -a gfx942 -i v_mfma_f32_16x16x16_f16 --operand A --row 3 --col 2");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("A[3][2]  v1   3     [15:0]  v1[15:0]:L3") != std::string::npos);
    r = cli("where -a gfx942 -i v_mfma_f32_16x16x16_f16 --operand A --row 3 --col 2 --format json");
    CHECK(r.out.find("\"ptx\"") == std::string::npos);
}
