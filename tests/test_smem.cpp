// NVIDIA shared memory: descriptors, canonical layouts, swizzles,
// the base offset, TMA boxes and bank wavefronts. Expectations come from the
// PTX ISA descriptor tables (bit positions written out by hand here), CUTLASS's
// atoms and make_gmma_desc values (mma_traits_sm90_gmma.hpp), CuTe's
// Swizzle<B,M,S> definition (swizzle.hpp, re-implemented below) and the H200
// measurements of docs/memory.md (base offset subtracted, absolute anchoring,
// LBO ignored for swizzled K-major, bank costs counted by Nsight Compute).
#include "lanescope/lanescope.hpp"
#include "lanescope/smem.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace ls = lanescope;

namespace {

// CuTe's Swizzle<B,M,S>: the B bits at [M+S, M+S+B) XOR-ed into [M, M+B) (include/cute/swizzle.hpp).
std::uint32_t cute_swizzle(int B, int M, int S, std::uint32_t o) {
    const std::uint32_t mask = ((1u << B) - 1) << (M + S);
    return o ^ ((o & mask) >> S);
}

const ls::Target& h100() { return ls::Catalog::target("sm_90a"); }
const ls::Instruction& wgmma(int n, const char* types = "f32_f16") {
    return ls::Catalog::builtin(ls::Family::Hopper)
        .find_instruction(h100(), "wgmma_m64n" + std::to_string(n) + "k16_" + types);
}
const ls::Instruction& wgmma_tf32(int n) {
    return ls::Catalog::builtin(ls::Family::Hopper).find_instruction(h100(), "wgmma_m64n" + std::to_string(n) + "k8_f32_tf32");
}

ls::ResolvedModifiers mods(const ls::Instruction& ins, ls::Modifiers m) {
    return ls::resolve_modifiers(ins, h100(), m);
}

lstest::Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }

std::string addresses(const std::vector<std::uint32_t>& a) {
    std::string s;
    for (auto x : a) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

int wavefronts(const char* access, const std::vector<std::uint32_t>& a) {
    return ls::smem_bank_wavefronts(ls::parse_smem_access(access), a).wavefronts;
}

}  // namespace

TEST_CASE("wgmma descriptor: fields at the PTX bit positions, ignored bits read as nothing", "[smem]") {
    ls::SmemDescriptor d;
    d.start = 0;
    d.lbo = 16;     // CUTLASS's LBO field 1 for swizzled K-major
    d.sbo = 1024;   // 8 rows x 128 bytes
    d.swizzle = ls::SmemSwizzle::B128;
    // start bits 0-13, LBO 16-29, SBO 32-45, layout type 62-63 (1 = 128B), each in 16-byte units.
    const std::uint64_t expect = (std::uint64_t{1} << 16) | (std::uint64_t{64} << 32) | (std::uint64_t{1} << 62);
    CHECK(ls::encode_descriptor(d) == expect);
    CHECK(expect == 0x4000004000010000ull);
    // Bits 14-15, 30-31, 46 (tcgen05's version), 52 (LBO mode) and 61 (32B atomicity) are ignored on sm_90.
    const std::uint64_t junk = expect | 3ull << 14 | 3ull << 30 | 1ull << 46 | 1ull << 52 | 1ull << 61;
    const ls::SmemDescriptor back = ls::decode_descriptor(junk, ls::DescriptorFormat::Wgmma);
    CHECK(back.start == 0);
    CHECK(back.lbo == 16);
    CHECK(back.sbo == 1024);
    CHECK(back.swizzle == ls::SmemSwizzle::B128);
    int ignored_fields = 0;
    for (const auto& f : ls::descriptor_fields(junk, ls::DescriptorFormat::Wgmma))
        if (f.ignored) {
            ++ignored_fields;
            CHECK(f.bits != 0);
        }
    CHECK(ignored_fields == 4);  // 14-15, 30-31, 46-48, 52-61
    // Swizzle codes: 0 none, 1 128B, 2 64B, 3 32B.
    CHECK(ls::decode_descriptor(2ull << 62, ls::DescriptorFormat::Wgmma).swizzle == ls::SmemSwizzle::B64);
    CHECK(ls::decode_descriptor(3ull << 62, ls::DescriptorFormat::Wgmma).swizzle == ls::SmemSwizzle::B32);
    // Base offset bits 49-51, start address encoded as (x & 0x3FFFF) >> 4.
    CHECK(ls::decode_descriptor(5ull << 49 | 0x40, ls::DescriptorFormat::Wgmma).base_offset == 5);
    CHECK(ls::decode_descriptor(0x40, ls::DescriptorFormat::Wgmma).start == 0x400);
}

TEST_CASE("tcgen05 descriptor: version bits, swizzle codes, LBO mode", "[smem]") {
    ls::SmemDescriptor d;
    d.format = ls::DescriptorFormat::Tcgen05;
    d.lbo = 16;
    d.sbo = 1024;
    d.swizzle = ls::SmemSwizzle::B128;  // code 2 at bits 61-63
    CHECK(ls::encode_descriptor(d) == ((1ull << 16) | (64ull << 32) | (1ull << 46) | (2ull << 61)));
    d.swizzle = ls::SmemSwizzle::B128Base32;  // code 1
    CHECK((ls::encode_descriptor(d) >> 61) == 1);
    d.swizzle = ls::SmemSwizzle::B32;  // code 6: the same bits 62-63 as Hopper's 3
    CHECK((ls::encode_descriptor(d) >> 62) == 3);
    const std::uint64_t v = 1ull << 46;
    CHECK(ls::decode_descriptor(v | 4ull << 61, ls::DescriptorFormat::Tcgen05).swizzle == ls::SmemSwizzle::B64);
    CHECK_THROWS_WITH(ls::decode_descriptor(v | 3ull << 61, ls::DescriptorFormat::Tcgen05), Catch::Contains("not defined"));
    CHECK_THROWS_WITH(ls::decode_descriptor(0, ls::DescriptorFormat::Tcgen05), Catch::Contains("0b001"));
    CHECK(ls::decode_descriptor(v | 1ull << 52, ls::DescriptorFormat::Tcgen05).lbo_mode == 1);
}

TEST_CASE("swizzles: CuTe's Swizzle<B,4,3> on the absolute address; the base offset is subtracted", "[smem]") {
    for (std::uint32_t a = 0; a < 4096; a += 2) {
        CHECK(ls::smem_swizzle(a, ls::SmemSwizzle::B128) == cute_swizzle(3, 4, 3, a));
        CHECK(ls::smem_swizzle(a, ls::SmemSwizzle::B64) == cute_swizzle(2, 4, 3, a));
        CHECK(ls::smem_swizzle(a, ls::SmemSwizzle::B32) == cute_swizzle(1, 4, 3, a));
        CHECK(ls::smem_swizzle(a, ls::SmemSwizzle::B128Base32) == cute_swizzle(2, 5, 2, a));
        CHECK(ls::smem_swizzle(a, ls::SmemSwizzle::None, 5) == a);  // no effect without a swizzle
        // Taken mod the pattern height: 64B with 5 behaves as 1, 32B with 3 as 1.
        CHECK(ls::smem_swizzle(a, ls::SmemSwizzle::B64, 5) == ls::smem_swizzle(a, ls::SmemSwizzle::B64, 1));
        CHECK(ls::smem_swizzle(a, ls::SmemSwizzle::B32, 3) == ls::smem_swizzle(a, ls::SmemSwizzle::B32, 1));
    }
    // base_offset k: the pattern's row 0 is the 128-byte row with (a >> 7) % 8 == k (subtracted, not added).
    for (int k = 0; k < 8; ++k) {
        const std::uint32_t row_start = 128u * static_cast<std::uint32_t>(k);
        for (std::uint32_t c = 0; c < 128; c += 16) CHECK(ls::smem_swizzle(row_start + c, ls::SmemSwizzle::B128, k) == row_start + c);
    }
    // Added would give row (1 + 1) = 2 at row 1; subtracted gives row 0.
    CHECK(ls::smem_swizzle(128, ls::SmemSwizzle::B128, 1) == 128);
    CHECK(ls::smem_swizzle(0, ls::SmemSwizzle::B128, 1) == 0x70);  // row (0 - 1) mod 8 = 7
}

TEST_CASE("wgmma B defaults are CUTLASS's make_gmma_desc values", "[smem]") {
    struct Case {
        int n;
        int major, swizzle;
        unsigned lbo, sbo;
    } cases[] = {
        {64, 0, 0, 1024, 128},   // K-major none: SBO 128, LBO = MN*16
        {64, 0, 1, 16, 256},     // K-major 32B: SBO 8W, LBO field 1
        {64, 0, 2, 16, 512},
        {64, 0, 3, 16, 1024},
        {64, 1, 0, 1024, 128},   // MN-major none: SBO 128, LBO = MN*e*8
        {64, 1, 1, 256, 1024},   // MN-major 32B N=64: LBO 256, SBO 1024
        {64, 1, 2, 512, 1024},   // 64B: LBO 512, SBO 1024
        {128, 1, 3, 1024, 2048}, // 128B N=128: LBO 1024, SBO 2048
    };
    for (const Case& c : cases) {
        ls::Modifiers m;
        m.smem_major = c.major;
        m.swizzle = c.swizzle;
        const auto& ins = wgmma(c.n);
        const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::B, mods(ins, m));
        INFO("N " << c.n << " major " << c.major << " swizzle " << c.swizzle);
        CHECK(so.desc.lbo == c.lbo);
        CHECK(so.desc.sbo == c.sbo);
        CHECK(so.desc.start == 0);
        CHECK(so.desc.base_offset == 0);
    }
}

TEST_CASE("wgmma B layouts equal CuTe's canonical atoms tiled MN-first", "[smem]") {
    // K-major 128B, N = 64 f16: Sw<3,4,3> o (8, 64):(64, 1) elements, atoms along N 512 elements apart.
    {
        const auto& ins = wgmma(64);
        const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::B, mods(ins, {}));
        for (int n = 0; n < 64; ++n)
            for (int k = 0; k < 16; ++k) {
                const std::uint32_t elem = static_cast<std::uint32_t>((n % 8) * 64 + (n / 8) * 512 + k);
                CHECK(so.address(n, k) == cute_swizzle(3, 4, 3, 2 * elem));
            }
    }
    // MN-major 128B, N = 128 f16: Sw<3,4,3> o (64, 8):(1, 64), atoms along N then K.
    {
        ls::Modifiers m;
        m.smem_major = 1;
        const auto& ins = wgmma(128);
        const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::B, mods(ins, m));
        for (int n = 0; n < 128; ++n)
            for (int k = 0; k < 16; ++k) {
                const std::uint32_t elem = static_cast<std::uint32_t>(n % 64 + (n / 64) * 512 + (k % 8) * 64 + (k / 8) * 1024);
                CHECK(so.address(n, k) == cute_swizzle(3, 4, 3, 2 * elem));
            }
    }
    // K-major none, N = 16: core matrices of 8 rows x 16 bytes (PTX's 8x2 tile).
    {
        ls::Modifiers m;
        m.swizzle = 0;
        const auto& ins = wgmma(16);
        const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::B, mods(ins, m));
        CHECK(so.address(0, 8) == 256);   // second core matrix along K: LBO = 16 * 16
        CHECK(so.address(8, 0) == 128);   // second 8-row group: SBO = 128
        CHECK(so.address(3, 5) == 3 * 16 + 5 * 2);
        CHECK(so.core_matrix(0, 8) == 2);
        CHECK(so.core_matrix(8, 0) == 1);
    }
}

TEST_CASE("swizzles are anchored at the absolute address; the base offset shifts the rows", "[smem]") {
    // Start +32 (a K slice of a 128B atom): the XOR takes the row from the absolute address, not the start.
    ls::Modifiers m;
    m.smem_address = 1024 + 32;
    const auto& ins = wgmma(64);
    const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::B, mods(ins, m));
    int differ_from_start_anchored = 0;
    for (int n = 0; n < 64; ++n)
        for (int k = 0; k < 16; ++k) {
            const std::uint32_t lin = static_cast<std::uint32_t>((n % 8) * 128 + (n / 8) * 1024 + 2 * k);
            CHECK(so.address(n, k) == cute_swizzle(3, 4, 3, 1024 + 32 + lin));
            differ_from_start_anchored += so.address(n, k) != 1024 + 32 + cute_swizzle(3, 4, 3, lin);
        }
    CHECK(differ_from_start_anchored > 0);
    // base_offset 4 with a start at +512: row 4 of memory is the pattern's row 0.
    m.smem_address = 512;
    m.base_offset = 4;
    const ls::SmemOperand b = ls::smem_operand(ins, ls::Operand::B, mods(ins, m));
    CHECK(b.address(0, 0) == 512);
    CHECK(b.address(0, 8) == 512 + 16);     // chunk 1 of the pattern's row 0 stays
    CHECK(b.address(1, 0) == 640 + 16);     // row 1: chunk 0 -> 1
}

TEST_CASE("LBO is ignored for swizzled K-major; the refusals name the rule", "[smem]") {
    const auto& ins = wgmma(64);
    ls::Modifiers m;
    const ls::OperandLayout ref = ls::layout_of(ins, h100(), ls::Operand::B, mods(ins, m));
    for (int lbo : {16, 1040, 4096, 8192}) {
        m.lbo = lbo;
        const auto r = mods(ins, m);
        const ls::OperandLayout L = ls::layout_of(ins, h100(), ls::Operand::B, r);
        const auto a = L.entries(), b = ref.entries();
        REQUIRE(a.size() == b.size());
        for (size_t i = 0; i < a.size(); ++i) CHECK((a[i].element == b[i].element && a[i].loc == b[i].loc));
        const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::B, r);
        CHECK_FALSE(so.lbo_used);
        bool said = false;
        for (const auto& n : so.notes) said = said || n.find("LBO is ignored here") != std::string::npos;
        CHECK(said);
    }
    // The descriptor's rules are decided where B is laid out from it (smem_operand), in one place:
    // the modifiers resolve, the layout of B is refused with the rule.
    const auto lay_out_b = [](const ls::Instruction& i, const ls::Modifiers& given) {
        return ls::layout_of(i, h100(), ls::Operand::B, mods(i, given));
    };
    ls::Modifiers bad;
    bad.smem_major = 1;
    CHECK_NOTHROW(mods(wgmma_tf32(64), bad));
    CHECK_THROWS_WITH(lay_out_b(wgmma_tf32(64), bad), Catch::Contains("16-bit"));
    bad = {};
    bad.sbo = 512;  // K-major 128B: 8-row groups must be one period (1024 B) apart or more
    CHECK_THROWS_WITH(lay_out_b(ins, bad), Catch::Contains("swizzle period"));
    bad = {};
    bad.swizzle = 1;
    bad.smem_address = 16;  // a 32-byte K slice 16 bytes into a 32-byte swizzle row
    CHECK_THROWS_WITH(lay_out_b(ins, bad), Catch::Contains("misaligned swizzle atom"));
    bad = {};
    bad.swizzle = 4;
    CHECK_THROWS_WITH(lay_out_b(ins, bad), Catch::Contains("tcgen05"));
    bad = {};
    bad.lbo = 8;
    bad.swizzle = 0;
    CHECK_THROWS_WITH(lay_out_b(ins, bad), Catch::Contains("multiple of 16"));
    // A on AMD has no descriptor.
    const ls::Target& mi300 = ls::Catalog::target("gfx942");
    const auto& mfma = ls::Catalog::builtin(mi300.family).find_instruction(mi300, "v_mfma_f32_32x32x8_f16");
    ls::Modifiers amd;
    amd.sbo = 128;
    CHECK_THROWS_WITH(ls::resolve_modifiers(mfma, mi300, amd), Catch::Contains("does not apply"));
}

TEST_CASE("wgmma B is drawn from its descriptor: layout_of in Space::SharedMemory", "[smem]") {
    const auto& ins = wgmma(128);
    const auto ops = ls::operands_of(ins);
    CHECK(std::find(ops.begin(), ops.end(), ls::Operand::B) != ops.end());
    const auto r = mods(ins, {});
    const ls::OperandLayout L = ls::layout_of(ins, h100(), ls::Operand::B, r);
    CHECK(L.space() == ls::Space::SharedMemory);
    CHECK(L.rows() == 16);
    CHECK(L.cols() == 128);
    const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::B, r);
    std::set<std::uint32_t> seen;
    for (const ls::Entry& e : L.entries()) {
        const std::uint32_t a = static_cast<std::uint32_t>(128 * e.loc.lane + 4 * e.loc.reg + e.loc.bit_lo / 8);
        CHECK(a == so.address(e.element.col, e.element.row));
        seen.insert(a);
    }
    CHECK(seen.size() == 16u * 128u);  // no two elements share a byte
    // The SS form: A from shared memory.
    ls::Modifiers ss;
    ss.smem_a = 1;
    const ls::OperandLayout A = ls::layout_of(ins, h100(), ls::Operand::A, mods(ins, ss));
    CHECK(A.space() == ls::Space::SharedMemory);
    CHECK(ls::layout_of(ins, h100(), ls::Operand::A, r).space() == ls::Space::Registers);
}

TEST_CASE("TMA boxes: narrow rows padded to the swizzle span, the inner-box limit, absolute anchoring", "[smem]") {
    ls::TmaBox b;
    b.inner = 32;  // 64-byte rows under 128B: pitch 128
    b.outer = 8;
    b.swizzle = ls::SmemSwizzle::B128;
    CHECK(ls::tma_pitch(b) == 128);
    b.swizzle = ls::SmemSwizzle::None;
    b.inner = 24;  // 48-byte rows, no swizzle: dense
    CHECK(ls::tma_pitch(b) == 48);
    b.inner = 128;  // 256 bytes > the 128-byte span
    b.swizzle = ls::SmemSwizzle::B128;
    CHECK_THROWS_WITH(ls::check_tma_box(b), Catch::Contains("span"));
    b.inner = 64;
    b.smem_address = 64;  // not 128-byte aligned
    CHECK_THROWS_WITH(ls::check_tma_box(b), Catch::Contains("128-byte aligned"));
    // Off the period: smem[y][x] <-> smem[y][((y + offset) % 8) ^ x] (CUDA C++ Programming Guide, TMA swizzle).
    b.smem_address = 3 * 128;
    for (const ls::TmaEntry& e : ls::tma_entries(b)) {
        const std::uint32_t chunk = static_cast<std::uint32_t>(e.col * 2 / 16), in = static_cast<std::uint32_t>(e.col * 2 % 16);
        const std::uint32_t expect = 384 + static_cast<std::uint32_t>(e.row) * 128 + ((((static_cast<std::uint32_t>(e.row) + 3) % 8) ^ chunk) * 16) + in;
        CHECK(e.address == expect);
    }
}

TEST_CASE("bank wavefronts: the measured costs", "[smem]") {
    std::vector<std::uint32_t> same(32, 0);
    CHECK(wavefronts("ldmatrix.x4", same) == 4);        // all 32 row addresses equal: one per matrix
    CHECK(wavefronts("ld.shared.v4.u32", same) == 2);   // 128-bit broadcast: 2, not 1 or 4
    CHECK(wavefronts("ld.shared.u32", same) == 1);
    std::vector<std::uint32_t> seq(32), stride(32), x(32), x64(32), x128(32), pairs128(32), pairs64(32), quarters(32);
    for (std::uint32_t l = 0; l < 32; ++l) {
        seq[l] = 4 * l;
        stride[l] = 128 * l;                                     // every lane on bank 0
        x[l] = (l % 4) * 16 + ((l % 8) / 4) * 128 + ((l / 8) % 2) * 64 + (l / 16) * 1024;  // ldmatrix X
        x64[l] = (l % 8) * 8 + ((l % 16) / 8) * 128 + (l / 16) * 64;       // half-warp X of 64-bit
        x128[l] = (l % 4) * 16 + ((l % 8) / 4) * 128 + ((l / 8) % 2) * 64 + (l / 16) * 256;
        pairs128[l] = (l / 2) * 16;
        pairs64[l] = (l / 2) * 8;
        quarters[l] = (l % 8) * 16;
    }
    CHECK(wavefronts("ld.shared.u32", seq) == 1);
    CHECK(wavefronts("ld.shared.u32", stride) == 32);
    CHECK(wavefronts("ldmatrix.x4", x) == 8);          // 2-way per matrix, no merging across matrices
    CHECK(wavefronts("ldmatrix.x4.trans", x) == 8);
    CHECK(wavefronts("stmatrix.x4", x) == 8);
    CHECK(wavefronts("ld.shared.v2.u32", x64) == 4);    // fixed half-warp phases: 4, not 2
    CHECK(wavefronts("ld.shared.v4.u32", x128) == 8);   // fixed quarter-warp phases: 8, not 4
    CHECK(wavefronts("st.shared.v4.u32", x128) == 8);
    CHECK(wavefronts("ld.shared.v4.u32", pairs128) == 2);  // n^1 pairs: half-warp phases
    CHECK(wavefronts("ld.shared.v2.u32", pairs64) == 1);   // n^1 pairs: one phase of 32
    CHECK(wavefronts("ld.shared.v4.u32", quarters) == 4);  // i and i+8 sharing do not merge
    CHECK(wavefronts("ldmatrix.x1", std::vector<std::uint32_t>(8, 0)) == 1);
    CHECK_THROWS_WITH(wavefronts("ld.shared.v4.u32", std::vector<std::uint32_t>(32, 8)), Catch::Contains("aligned"));
    CHECK_THROWS_WITH(ls::parse_smem_access("ld.global.u32"), Catch::Contains("legal"));
}

TEST_CASE("CLI: load --memory smem, --descriptor, --tma-box, tma, banks", "[smem][cli]") {
    using nlohmann::json;
    auto r = cli("load -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --format json");
    REQUIRE(r.status == 0);
    json j = json::parse(r.out);
    CHECK(j["space"] == "smem");
    CHECK(j["descriptor"]["value"] == "0x4000004000010000");
    CHECK(j["entries"].size() == 16u * 64u);
    CHECK(j["instructions_per_wave"] == 1);
    for (const auto& e : j["entries"]) {
        const unsigned n = e["col"], k = e["row"];
        CHECK(e["address"] == cute_swizzle(3, 4, 3, 2 * ((n % 8) * 64 + (n / 8) * 512 + k)));
        CHECK(e["bank"] == (e["address"].get<unsigned>() / 4) % 32);
    }
    // A raw descriptor with ignored bits set reads as its fields.
    r = cli("load -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --descriptor 0x4010404000010000 --format json");
    REQUIRE(r.status == 0);
    j = json::parse(r.out);
    CHECK(j["memory"]["sbo"] == 1024);
    int ignored_set = 0;
    for (const auto& f : j["descriptor"]["fields"]) ignored_set += f["ignored"].get<bool>() && f["value"] != 0;
    CHECK(ignored_set == 2);  // bit 46 and bit 52
    // TMA tile at a 128-byte-aligned, off-period address: read back with base offset 0, not (dst >> 7) & 7.
    r = cli("load -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --smem-address 1664 --tma-box 64x64 --format json");
    REQUIRE(r.status == 0);
    CHECK(json::parse(r.out)["tma"]["reads_back"] == true);
    r = cli("load -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --smem-address 1664 --base-offset 5 --tma-box 64x64 --format json");
    REQUIRE(r.status == 0);
    j = json::parse(r.out);
    CHECK(j["tma"]["reads_back"] == false);
    CHECK(j["tma"]["why"].get<std::string>().find("base offset must be 0") != std::string::npos);
    r = cli("tma --box 32x2 --element-bits 16 --swizzle 128B --smem-address 0 --format json");
    REQUIRE(r.status == 0);
    j = json::parse(r.out);
    CHECK(j["pitch"] == 128);
    CHECK(j["entries"].size() == 64u);
    CHECK(j["entries"][32]["address"] == 128 + 16);  // row 1, col 0: chunk 0 ^ 1
    std::vector<std::uint32_t> same(32, 0);
    r = cli("banks -a sm_90a --access ld.shared.v4.u32 --addresses " + addresses(same) + " --format json");
    REQUIRE(r.status == 0);
    CHECK(json::parse(r.out)["wavefronts"] == 2);
    r = cli("banks -a gfx942 --access ds_read_b32 --addresses " + addresses(std::vector<std::uint32_t>(64, 0)) + " --format json");
    REQUIRE(r.status == 0);
    CHECK(json::parse(r.out).contains("wavefronts"));
    CHECK(cli("load -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --swizzle 96B").status == 2);  // no such word: usage
    CHECK(cli("load -a sm_90a -i wgmma_m64n64k16_f32_f16 --operand B --pad 8").status == 2);
}

TEST_CASE("tcgen05.mma A/B in shared memory: the same canonical layouts, tcgen05 descriptors", "[smem]") {
    // A synthetic row (the Blackwell catalog rows land separately): kind::f16, M = 128, N = 256, K = 16.
    ls::Instruction ins;
    ins.mnemonic = "tcgen05.mma.cta_group::1.kind::f16";
    ins.kind = ls::LayoutKind::Tcgen05Mma;
    ins.mma_kind = "f16";
    ins.cta_group = 1;
    ins.m = 128;
    ins.n = 256;
    ins.k = 16;
    ins.a = ins.b = ls::ElemType::F16;
    ins.c = ls::ElemType::F32;
    ls::ResolvedModifiers r;
    const ls::SmemOperand a = ls::smem_operand(ins, ls::Operand::A, r), b = ls::smem_operand(ins, ls::Operand::B, r);
    CHECK(a.rows == 128);
    CHECK(a.cols == 16);
    CHECK(b.rows == 16);
    CHECK(b.cols == 256);
    CHECK(((b.value >> 46) & 7) == 1);  // the fixed version
    CHECK((b.value >> 61) == 2);        // 128B
    CHECK(b.address(9, 3) == cute_swizzle(3, 4, 3, static_cast<std::uint32_t>((9 % 8) * 128 + (9 / 8) * 1024 + 3 * 2)));
    // cta_group::2: each CTA holds half of M (A) and of N (B).
    ins.cta_group = 2;
    ins.m = 256;
    CHECK(ls::smem_operand(ins, ls::Operand::A, r).rows == 128);
    CHECK(ls::smem_operand(ins, ls::Operand::B, r).cols == 128);
    // MN-major tf32 takes only 128B_base32B (the default there); 128B is refused with the rule.
    ins.cta_group = 1;
    ins.m = 128;
    ins.k = 8;
    ins.a = ins.b = ls::ElemType::TF32;
    r.smem_major = 1;
    const ls::SmemOperand t = ls::smem_operand(ins, ls::Operand::B, r);
    CHECK(t.desc.swizzle == ls::SmemSwizzle::B128Base32);
    CHECK((t.value >> 61) == 1);
    r.swizzle = 3;
    CHECK_THROWS_WITH(ls::smem_operand(ins, ls::Operand::B, r), Catch::Contains("128B_base32B"));
    // The OperandSpec tmem's Tcgen05Mma dispatch calls: Space::SharedMemory.
    r.swizzle = -1;
    r.smem_major = -1;
    ins.a_in_tmem = true;
    CHECK_FALSE(ls::in_shared_memory(ins, ls::Operand::A, r));
    CHECK(ls::in_shared_memory(ins, ls::Operand::B, r));
}
