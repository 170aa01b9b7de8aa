// NVIDIA Blackwell Tensor Memory (core/src/layouts/layouts_tcgen05.cpp): tcgen05.mma's D
// layouts A-G, A, scale factors and metadata in TMEM, the tcgen05.ld/st fragments against
// CUTLASS's 74 published TMEM load atoms (tests/data/cutlass, evaluated by a small CuTe
// evaluator here), and D read back with --tmem-load against Triton 3.6's own
// get_tmem_reg_layout (tests/data/triton, scripts/triton-tmem-layouts.py), element by element.
//
// The Instruction values are built here (the Blackwell catalog rows are another file's).
#include "lanescope/cute.hpp"
#include "lanescope/gluon.hpp"
#include "lanescope/lanescope.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/render.hpp"
#include "lanescope/tile.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "triton_dump.hpp"

namespace ls = lanescope;

namespace {

const ls::Target& sm100a() { return ls::Catalog::target("sm_100a"); }

// A Blackwell row of one tcgen05 family, shape M x N x K (the fields the catalog fills).
ls::Instruction row(ls::LayoutKind kind, const std::string& mnemonic, int m, int n, int k) {
    ls::Instruction ins;
    ins.families = {ls::Family::Blackwell};
    ins.kind = kind;
    ins.mnemonic = mnemonic;
    ins.short_name = "tcgen05_test";
    ins.m = m;
    ins.n = n;
    ins.k = k;
    return ins;
}

ls::Instruction mma(int M, int N, int cta, const std::string& kind = "f16", ls::ElemType d = ls::ElemType::F32) {
    ls::Instruction ins = row(ls::LayoutKind::Tcgen05Mma,
                              "tcgen05.mma.cta_group::" + std::to_string(cta) + ".kind::" + kind + " (test m" +
                                  std::to_string(M) + "n" + std::to_string(N) + ")",
                              M, N, kind == "tf32" ? 8 : kind == "f16" ? 16 : kind.rfind("mxf4", 0) == 0 ? 64 : 32);
    ins.mma_kind = kind;
    ins.cta_group = cta;
    ins.a = ins.b = kind == "tf32" ? ls::ElemType::TF32 : kind == "f16" ? ls::ElemType::F16 : ls::ElemType::E4M3;
    if (kind == "mxf4" || kind == "mxf4nvf4") ins.a = ins.b = ls::ElemType::FP4;
    ins.c = d;
    return ins;
}

ls::Instruction ldst(const std::string& shape, int num, bool pack16) {
    const int bits = shape == "32x32b" || shape == "16x32bx2" ? 32 : std::stoi(shape.substr(3));
    ls::Instruction ins = row(ls::LayoutKind::Tcgen05LdSt,
                              "tcgen05.ld.sync.aligned." + shape + ".x" + std::to_string(num) +
                                  (pack16 ? ".pack::16b" : "") + ".b32",
                              shape == "32x32b" ? 32 : 16, bits * num, 0);
    ins.tmem_shape = shape;
    ins.tmem_num = num;
    ins.pack16 = pack16;
    return ins;
}

ls::OperandLayout lay(const ls::Instruction& ins, ls::Operand op, ls::Modifiers m = {}) {
    return ls::layout_of(ins, sm100a(), op, m);
}

// --- a small CuTe evaluator: hierarchical shape:stride, colexicographic --------------
struct Node {
    long long leaf = -1;
    std::vector<Node> kids;
};
Node parse_node(const std::string& s, size_t& i) {
    Node n;
    if (s[i] == '(') {
        ++i;
        while (true) {
            n.kids.push_back(parse_node(s, i));
            if (s[i] == ',') ++i;
            else if (s[i] == ')') {
                ++i;
                break;
            } else FAIL("bad CuTe text " << s);
        }
        return n;
    }
    size_t j = i;
    while (j < s.size() && isdigit(static_cast<unsigned char>(s[j]))) ++j;
    n.leaf = std::stoll(s.substr(i, j - i));
    i = j;
    return n;
}
void leaves(const Node& n, std::vector<long long>& out) {
    if (n.leaf >= 0) out.push_back(n.leaf);
    for (const Node& k : n.kids) leaves(k, out);
}
struct CuteMode {
    std::vector<long long> shape, stride;
    long long size() const {
        long long p = 1;
        for (long long s : shape) p *= s;
        return p;
    }
    long long operator()(long long x) const {
        long long off = 0;
        for (size_t i = 0; i < shape.size(); ++i) off += (x % shape[i]) * stride[i], x /= shape[i];
        return off;
    }
};
// "S:D" -> its top-level modes (a single-leaf layout is one mode).
std::vector<CuteMode> parse_cute(const std::string& text) {
    const size_t colon = text.find(':');
    size_t i = 0, j = 0;
    const std::string st = text.substr(0, colon), dt = text.substr(colon + 1);
    const Node s = parse_node(st, i), d = parse_node(dt, j);
    std::vector<CuteMode> modes;
    const std::vector<Node> sk = s.leaf >= 0 ? std::vector<Node>{s} : s.kids;
    const std::vector<Node> dk = d.leaf >= 0 ? std::vector<Node>{d} : d.kids;
    REQUIRE(sk.size() == dk.size());
    for (size_t m = 0; m < sk.size(); ++m) {
        CuteMode mode;
        leaves(sk[m], mode.shape);
        leaves(dk[m], mode.stride);
        REQUIRE(mode.shape.size() == mode.stride.size());
        modes.push_back(mode);
    }
    return modes;
}
CuteMode flat(const std::vector<CuteMode>& modes) {
    CuteMode f;
    for (const CuteMode& m : modes) {
        f.shape.insert(f.shape.end(), m.shape.begin(), m.shape.end());
        f.stride.insert(f.stride.end(), m.stride.begin(), m.stride.end());
    }
    return f;
}

// The one element (row, col) register `reg` bits `bit` of `lane` hold, or (-1, -1).
std::pair<int, int> held(const ls::OperandLayout& L, int reg, int lane, int bit, int* elem_bit = nullptr) {
    for (const ls::SlotPart& p : L.which(reg, lane))
        if (p.bit_lo <= bit && bit <= p.bit_hi) {
            if (elem_bit) *elem_bit = p.elem_bit_lo + bit - p.bit_lo;
            return {p.element.row, p.element.col};
        }
    return {-1, -1};
}

}  // namespace

TEST_CASE("tcgen05: D in Tensor Memory, layouts A-G as CUTLASS's TMEM atoms place them", "[tcgen05]") {
    // CUTLASS mma_traits_sm100_frag.hpp: TMEM offset = lane + 128 * column; per CTA.
    struct Case {
        int M, N, cta;
        bool ws, sparse;
        const char* cute;  // (m, n) -> offset, one CTA's rows; "" where a formula is the only source
        int lanes_total;
    };
    const std::vector<Case> cases = {
        {128, 64, 1, false, false, "(128,64):(1,128)", 128},            // Layout D
        {64, 64, 1, false, false, "((16,4),64):((1,32),128)", 128},     // Layout F
        {128, 256, 1, true, false, "(128,256):(1,128)", 128},           // .ws M = 128: Layout D
        {256, 128, 2, false, false, "(128,128):(1,128)", 256},          // Layout A, per CTA
        {128, 64, 2, false, false, "(64,(32,2)):(1,(128,64))", 256},    // Layout B, per CTA
        {64, 128, 1, true, false, "(64,(64,2)):(1,(128,64))", 128},     // Layout E (tmem_frg_ws M = 64)
        {32, 128, 1, true, false, "(32,(32,4)):(1,(128,32))", 128},     // Layout G (tmem_frg_ws M = 32)
    };
    for (const Case& c : cases) {
        ls::Instruction ins = mma(c.M, c.N, c.cta);
        ins.ws = c.ws;
        INFO(ins.mnemonic << (c.ws ? " .ws" : ""));
        const ls::OperandLayout D = lay(ins, ls::Operand::D);
        CHECK(D.space() == ls::Space::TensorMemory);
        CHECK(D.lanes() == c.lanes_total);
        const auto modes = parse_cute(c.cute);
        const int rows_per_cta = c.M / c.cta;
        for (int m = 0; m < c.M; ++m)
            for (int n = 0; n < c.N; ++n) {
                const long long off = modes[0](m % rows_per_cta) + modes[1](n);
                const auto w = D.where({0, m, n});
                REQUIRE(w.size() == 1);
                CHECK(w[0].lane == 128 * (m / rows_per_cta) + off % 128);
                CHECK(w[0].reg == off / 128);
                CHECK(w[0].bit_lo == 0);
                CHECK(w[0].bit_hi == 31);
            }
        const ls::Evidence ev = ls::layout_evidence(ins, ls::Operand::D, ls::resolve_modifiers(ins, sm100a(), {}));
        CHECK(ev.why.find("not confirmed on hardware") != std::string::npos);
        CHECK(ev.confidence == (c.ws && c.M < 128 ? "medium" : "high"));
    }
    // Layout C (sparse, cta_group::2, M = 128): Layout F per CTA, single-source.
    ls::Instruction c = mma(128, 64, 2);
    c.tcgen05_sparse = true;
    c.k = 32;
    const ls::OperandLayout D = lay(c, ls::Operand::D);
    for (int m = 0; m < 128; ++m) {
        const int mp = m % 64;
        CHECK(D.where({0, m, 5})[0].lane == 128 * (m / 64) + mp % 16 + 32 * (mp / 16));
    }
    CHECK(ls::layout_evidence(c, ls::Operand::D, ls::resolve_modifiers(c, sm100a(), {})).confidence == "low");
    // A 16-bit D: the low half of each 32-bit column, not packed (PTX §9.7.16.10.4.1).
    const ls::OperandLayout H = lay(mma(128, 32, 1, "f16", ls::ElemType::F16), ls::Operand::D);
    const auto w = H.where({0, 3, 7});
    CHECK((w[0].lane == 3 && w[0].reg == 7 && w[0].bit_lo == 0 && w[0].bit_hi == 15));
}

TEST_CASE("tcgen05: scale factors duplicated into the four lane partitions, SF_ID picks the byte", "[tcgen05]") {
    ls::Instruction ins = mma(128, 128, 1, "mxf8f6f4");
    ins.scale_vec = 1;
    for (int id = 0; id < 4; ++id) {
        ls::Modifiers m;
        m.sfa_id = id;
        const ls::OperandLayout SA = lay(ins, ls::Operand::SA, m);
        CHECK(SA.space() == ls::Space::TensorMemory);
        for (int row : {0, 5, 33, 127}) {
            const auto w = SA.where({0, row, 0});
            REQUIRE(w.size() == 4);
            std::set<int> lanes;
            for (const auto& l : w) {
                lanes.insert(l.lane);
                CHECK(l.reg == row / 32);
                CHECK(l.bit_lo == 8 * id);
            }
            CHECK(lanes == std::set<int>{row % 32, 32 + row % 32, 64 + row % 32, 96 + row % 32});
        }
    }
    ls::Modifiers bad;
    bad.sfa_id = 1;
    ins.scale_vec = 2;
    ins.mma_kind = "mxf4";
    CHECK_THROWS_WITH(lay(ins, ls::Operand::SA, bad), Catch::Contains("legal: 0, 2"));
    bad.sfa_id = 2;
    const auto w = lay(ins, ls::Operand::SA, bad).where({0, 7, 1});
    CHECK(w[0].bit_lo == 24);  // byte SF_ID + j = 2 + 1
    // SFB on the 2x2 data path (cta_group::2, M = 128; CUTLASS ScaleFactorDuplicated2by2 over MN = N
    // rounded up to 128): columns n < MN/2 (here 64) in lanes n%32, 32 + n%32 of both CTAs.
    ls::Instruction b2 = mma(128, 64, 2, "mxf8f6f4");
    b2.scale_vec = 1;
    std::set<int> lanes;
    for (const auto& l : lay(b2, ls::Operand::SB).where({0, 0, 40})) lanes.insert(l.lane);
    CHECK(lanes == std::set<int>{8, 32 + 8, 128 + 8, 128 + 32 + 8});
}

TEST_CASE("tcgen05: A and the sparse metadata in Tensor Memory", "[tcgen05]") {
    ls::Instruction ins = mma(128, 64, 1);
    ins.a_in_tmem = true;
    const ls::OperandLayout A = lay(ins, ls::Operand::A);
    // f16: two k per column, k even in the low half (CUTLASS tmem_frg, 16-bit containers).
    const auto w = A.where({0, 9, 5});
    CHECK((w[0].lane == 9 && w[0].reg == 2 && w[0].bit_lo == 16 && w[0].bit_hi == 31));
    ls::Instruction two = mma(128, 64, 2);
    two.a_in_tmem = true;
    std::set<int> lanes;
    for (const auto& l : lay(two, ls::Operand::A).where({0, 70, 0})) lanes.insert(l.lane);
    CHECK(lanes == std::set<int>{128 + 6, 128 + 70});  // CTA 1, lanes m' and m' + 64
    ls::Instruction sp = mma(128, 64, 1);
    sp.tcgen05_sparse = true;
    sp.k = 32;
    const ls::OperandLayout K = lay(sp, ls::Operand::K);
    // CUTLASS tmem_e_frg f16: lane m%8 + 16*(m/16) + 8*(k/16), bit k%16 + 16*((m/8)%2).
    for (int m : {0, 9, 77})
        for (int k : {0, 4, 20}) {
            const auto l = K.where({0, m, k});
            CHECK(l[0].lane == m % 8 + 16 * (m / 16) + 8 * (k / 16));
            CHECK(l[0].bit_lo == 4 * ((k % 16) / 4) + 16 * ((m / 8) % 2));
        }
    CHECK(ls::layout_evidence(sp, ls::Operand::K, ls::resolve_modifiers(sp, sm100a(), {})).confidence == "low");
}

TEST_CASE("tcgen05.ld: the fragments equal CUTLASS's 74 TMEM load atoms", "[tcgen05]") {
    std::ifstream f(LANESCOPE_CUTLASS_TMEM_ATOMS);
    REQUIRE(f);
    std::string line;
    int atoms = 0, equal = 0;
    const std::map<std::string, std::string> shapes = {
        {"32dp32b", "32x32b"}, {"16dp64b", "16x64b"}, {"16dp128b", "16x128b"}, {"16dp256b", "16x256b"}, {"16dp32b", "16x32bx2"}};
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> parts;
        std::stringstream ss(line);
        for (std::string p; std::getline(ss, p, '|');) parts.push_back(p.substr(p.find_first_not_of(' '), p.find_last_not_of(' ') - p.find_first_not_of(' ') + 1));
        REQUIRE(parts.size() == 3);
        const std::string name = parts[0].substr(std::string("SM100_TMEM_LOAD_").size());
        const std::string base = name.substr(0, name.find('b', name.find("dp")) + 1);  // "16dp256b"
        const int num = std::stoi(name.substr(base.size()));
        const bool pack = name.size() > 4 && name.substr(name.size() - 4) == "_16b";
        INFO(name);
        const ls::Instruction ins = ldst(shapes.at(base), num, pack);
        const ls::OperandLayout L = lay(ins, ls::Operand::D);
        const CuteMode val = flat(parse_cute(parts[1]));
        const auto dst = parse_cute(parts[2]);
        REQUIRE(dst.size() == 2);
        REQUIRE(dst[0].size() == 32);
        CHECK(dst[1].size() == 32LL * L.regs());
        bool same = true;
        for (int t = 0; t < 32; ++t)
            for (long long v = 0; v < dst[1].size(); ++v) {
                const long long addr = val(dst[0](t) + dst[1](v));
                const int lane = static_cast<int>(addr >> 21), col = static_cast<int>((addr % (1 << 21)) / 32),
                          bit = static_cast<int>(addr % 32);
                int ebit = -1;
                const auto e = held(L, static_cast<int>(v / 32), t, static_cast<int>(v % 32), &ebit);
                if (e != std::make_pair(lane, col) || ebit != bit) same = false;
            }
        CHECK(same);
        ++atoms;
        equal += same;
    }
    CHECK(atoms == 74);
    CHECK(equal == 74);
    WARN("CUTLASS TMEM load atoms equal: " << equal << " / " << atoms);
}

TEST_CASE("tcgen05.ld 16x32bx2: the second half at immHalfSplitoff", "[tcgen05]") {
    const ls::Instruction ins = ldst("16x32bx2", 4, false);
    ls::Modifiers m;
    m.half_split = 8;
    const ls::OperandLayout L = lay(ins, ls::Operand::D, m);
    CHECK(L.cols() == 12);
    CHECK(held(L, 2, 3, 0) == std::make_pair(3, 2));
    CHECK(held(L, 2, 19, 0) == std::make_pair(3, 10));
    m.half_split = 3;  // not a multiple of the half's columns
    CHECK_THROWS_WITH(lay(ins, ls::Operand::D, m), Catch::Contains("--half-split"));
}

TEST_CASE("tcgen05.mma D read back with --tmem-load equals Triton 3.6's get_tmem_reg_layout", "[tcgen05][triton]") {
    const auto records = lstest::read_triton_dump(LANESCOPE_TRITON_TMEM_DUMP);
    REQUIRE(records.size() == 1800);
    const std::map<std::string, int> variants = {{"32x32b", 1}, {"16x64b", 2}, {"16x128b", 3}, {"16x256b", 4}};
    int compared = 0, equal = 0, refused_alike = 0;
    for (const auto& r : records) {
        const std::string v = r["variant"];
        if (!variants.count(v) || r["two_ctas"].get<bool>()) continue;
        const int M = r["block"][0], N = r["block"][1], W = r["num_warps"];
        const bool f16 = r["dtype"] == "float16";
        if (f16 && r["col_stride"] != 2) continue;  // a tcgen05.mma 16-bit D is unpacked (one per column)
        ls::Instruction ins = mma(M, N, 1, "f16", f16 ? ls::ElemType::F16 : ls::ElemType::F32);
        ls::Modifiers m;
        m.tmem_load = variants.at(v);
        m.num_warps = W;
        INFO(v << " M=" << M << " N=" << N << " warps=" << W << " " << r["dtype"]);
        if (r.contains("error")) {
            CHECK_THROWS_AS(lay(ins, ls::Operand::D, m), ls::Error);
            ++refused_alike;
            continue;
        }
        const ls::OperandLayout L = lay(ins, ls::Operand::D, m);
        CHECK(L.space() == ls::Space::Registers);
        CHECK(L.lanes() == 32 * W);
        const int bits = f16 ? 16 : 32;
        const auto& rb = r["reg_bases"];
        const int elems = 1 << rb.size();
        CHECK(L.regs() == elems * bits / 32);
        bool same = true;
        for (int t = 0; t < 32 * W; ++t)
            for (int e = 0; e < elems; ++e) {
                int row = 0, col = 0;
                auto add = [&](const nlohmann::json& bases, int x) {
                    for (size_t i = 0; i < bases.size(); ++i)
                        if ((x >> i) & 1) row ^= bases[i][0].get<int>(), col ^= bases[i][1].get<int>();
                };
                add(rb, e);
                add(r["lane_bases"], t % 32);
                add(r["warp_bases"], t / 32);
                if (held(L, e * bits / 32, t, (e * bits) % 32) != std::make_pair(row, col)) same = false;
            }
        CHECK(same);
        ++compared;
        equal += same;
    }
    CHECK(compared == 188);  // 192 power-of-two cases less the 4 Triton refuses (16-bit, 16x256b, N = 8)
    CHECK(equal == compared);
    CHECK(refused_alike > 0);
    WARN("Triton 3.6 get_tmem_reg_layout cases equal: " << equal << " / " << compared << " (and " << refused_alike
                                                       << " refused by both)");
}

TEST_CASE("tcgen05: --tmem-load refuses what Triton and PTX refuse, with the rule", "[tcgen05]") {
    ls::Modifiers m;
    m.tmem_load = 4;
    CHECK_THROWS_WITH(lay(mma(128, 8, 1, "f16", ls::ElemType::F16), ls::Operand::D, m), Catch::Contains("16x256b"));
    CHECK_NOTHROW(lay(mma(128, 8, 1), ls::Operand::D, m));  // an f32 D of 8 columns is one message
    m.tmem_load = 1;
    m.num_warps = 6;
    CHECK_THROWS_WITH(lay(mma(128, 64, 1), ls::Operand::D, m), Catch::Contains("legal: 4, 8"));
    ls::Modifiers w;
    w.num_warps = 4;
    CHECK_THROWS_WITH(lay(mma(128, 64, 1), ls::Operand::D, w), Catch::Contains("--tmem-load"));
    m.num_warps = 4;
    CHECK_THROWS_WITH(lay(mma(128, 24, 1), ls::Operand::D, m), Catch::Contains("power of 2"));
    ls::Instruction c = mma(128, 128, 2);
    c.tcgen05_sparse = true;  // Layout C: PTX's table alone places it (low); not read back
    CHECK_THROWS_WITH(lay(c, ls::Operand::D, m), Catch::Contains("Layout C"));
    m.tmem_load = 5;  // 16x32bx2: Triton infers it from 32x32b on Layout F and refuses it by name
    CHECK_THROWS_WITH(lay(mma(128, 64, 1), ls::Operand::D, m), Catch::Contains("16x32bx2"));
    // Triton 3.6 refuses it by name on Layout F too: there 32x32b is the 16x32bx2 load.
    ls::Modifiers a, b;
    a.tmem_load = 5;
    b.tmem_load = 1;
    CHECK_THROWS_WITH(lay(mma(64, 64, 1), ls::Operand::D, a), Catch::Contains("--tmem-load 32x32b"));
    CHECK_NOTHROW(lay(mma(64, 64, 1), ls::Operand::D, b));
    // Every warp stays in its lane quarter: warp w holds rows of TMEM lanes 32*(w%4) .. +31.
    b.num_warps = 8;
    const ls::OperandLayout L = lay(mma(128, 64, 1), ls::Operand::D, b);
    for (const ls::Entry& en : L.entries()) CHECK(en.element.row / 32 == (en.loc.lane / 32) % 4);
}

TEST_CASE("tcgen05: --tmem-load on Layouts B, E and G is the PTX load over CUTLASS's placement of D", "[tcgen05]") {
    // PTX ISA §9.7.16.10.5 with CUTLASS's tmem_frg_ws / 2-SM atoms (the reference's table): D(m, n) sits at
    //   E (.ws, M = 64):  lane m + 64*floor(n/(N/2)), column n%(N/2)
    //   G (.ws, M = 32):  lane m + 32*floor(n/(N/4)), column n%(N/4)
    //   B (cta_group::2, M = 128): CTA floor(m/64), lane m%64 + 64*floor(n/(N/2)), column n%(N/2)
    // A warp w of a warpgroup reads TMEM lanes 32*(w%4) .. +31 (§9.7.16.8.1), its own CTA's; a
    // 32x32b message gives thread i of the warp TMEM lane 32*(w%4) + i (§9.7.16.8.4, the 32x32b figure).
    struct Case { int M, N, cta; bool ws; char layout; };
    int checked = 0;
    for (const Case& c : {Case{64, 128, 1, true, 'E'}, Case{64, 256, 1, true, 'E'}, Case{32, 128, 1, true, 'G'},
                          Case{32, 256, 1, true, 'G'}, Case{128, 128, 2, false, 'B'}, Case{128, 256, 2, false, 'B'}}) {
        ls::Instruction ins = mma(c.M, c.N, c.cta);
        ins.ws = c.ws;
        for (int v = 1; v <= 4; ++v)
            for (int W : {4, 8}) {
                ls::Modifiers m;
                m.tmem_load = v, m.num_warps = W;
                INFO("Layout " << c.layout << " M=" << c.M << " N=" << c.N << " variant " << v << " warps " << W);
                const ls::OperandLayout L = lay(ins, ls::Operand::D, m);
                REQUIRE(L.rows() == c.M);
                REQUIRE(L.cols() == c.N);
                REQUIRE(L.lanes() == 32 * W * c.cta);
                std::set<std::pair<int, int>> slots;
                for (int r = 0; r < c.M; ++r)
                    for (int n = 0; n < c.N; ++n) {
                        const auto at = L.where({0, r, n});
                        REQUIRE(at.size() == 1);  // every element read by exactly one thread, once
                        CHECK(slots.insert({at[0].lane, at[0].reg}).second);
                        int lane = 0, cta = 0;
                        if (c.layout == 'E') lane = r + 64 * (n / (c.N / 2));
                        if (c.layout == 'G') lane = r + 32 * (n / (c.N / 4));
                        if (c.layout == 'B') cta = r / 64, lane = r % 64 + 64 * (n / (c.N / 2));
                        const int thread = at[0].lane % (32 * W), warp = thread / 32;
                        CHECK(at[0].lane / (32 * W) == cta);  // its own CTA's TMEM
                        CHECK(lane / 32 == warp % 4);         // the warp's lane quarter
                        if (v == 1) CHECK(lane % 32 == thread % 32);
                    }
                ++checked;
            }
    }
    CHECK(checked == 6 * 4 * 2);
    // Exports: no Triton constructor names these layouts; the bases stay exact.
    ls::Instruction e = mma(64, 128, 1);
    e.ws = true;
    ls::Modifiers m;
    m.tmem_load = 1;
    const ls::ResolvedModifiers rm = ls::resolve_modifiers(e, sm100a(), m);
    const std::string g = ls::render_gluon(ls::gluon_of(ls::TileLayout(e, sm100a(), ls::Operand::D, rm, ls::TileParams{}), e, sm100a(), rm), "E");
    CHECK(g.find("get_tmem_reg_layout(") == std::string::npos);
    CHECK(g.find("no named form") != std::string::npos);
    CHECK(ls::layout_evidence(e, ls::Operand::D, rm).confidence == "medium");
}

TEST_CASE("tcgen05: every layout carries evidence and says it is not confirmed on hardware", "[tcgen05]") {
    std::vector<ls::Instruction> all = {mma(128, 64, 1), mma(64, 64, 1), mma(256, 128, 2), mma(128, 64, 2)};
    ls::Instruction s = mma(128, 64, 1, "mxf4nvf4");
    s.scale_vec = 4;
    s.scale_type = ls::ElemType::E4M3;
    all.push_back(s);
    ls::Instruction k96 = mma(256, 128, 2, "mxf4");
    k96.scale_vec = 3;
    k96.k = 96;
    all.push_back(k96);
    all.push_back(ldst("16x256b", 8, false));
    for (const auto& ins : all) {
        const auto mods = ls::resolve_modifiers(ins, sm100a(), {});
        for (ls::Operand op : ls::operands_of(ins)) {
            const ls::Evidence ev = ls::layout_evidence(ins, op, mods);
            INFO(ins.mnemonic << " " << ls::operand_name(op));
            CHECK_FALSE(ev.confidence.empty());
            CHECK_FALSE(ev.sources.empty());
            CHECK(ev.why.find("not confirmed on hardware") != std::string::npos);
        }
    }
    CHECK(ls::layout_evidence(k96, ls::Operand::SA, ls::resolve_modifiers(k96, sm100a(), {})).confidence == "low");
}

TEST_CASE("tcgen05: --tmem-load exports: linear bases, Gluon constructors, the CUTLASS copy atom", "[tcgen05]") {
    const ls::Instruction ins = mma(128, 64, 1);
    ls::Modifiers m;
    m.tmem_load = 4;  // 16x256b, 4 warps: the worked example Triton 3.6 gives (get_tmem_reg_layout, fp32 [128, 64])
    const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, sm100a(), m);
    CHECK(mods.num_warps == 4);
    CHECK(mods.describe() == "tmem_load=16x256b num_warps=4");
    const ls::TileLayout t(ins, sm100a(), ls::Operand::D, mods, ls::TileParams{});
    const ls::LinearResult lin = ls::to_linear(t);
    REQUIRE(lin.layout);
    using P = std::vector<std::pair<int, int>>;
    CHECK(lin.layout->reg == P{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {16, 0}});
    CHECK(lin.layout->lane == P{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}, {32, 0}, {64, 0}});  // lanes 32.. are the warps
    const ls::GluonForm g = ls::gluon_of(t, ins, sm100a(), mods);
    CHECK(g.named == "get_tmem_reg_layout(gl.float32, [128, 64], TensorMemoryLayout(block=(128, 64), col_stride=1), "
                     "num_warps=4, instr_variant=\"16x256b\")");
    CHECK(g.linear.find("lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[32, 0], [64, 0]]") !=
          std::string::npos);
    CHECK(ls::render_gluon(g, "t").find("import TensorMemoryLayout, get_tmem_reg_layout") != std::string::npos);
    CHECK(ls::cute_tmem_atom(ins, mods).rfind("SM100_TMEM_LOAD_16dp256b8x ", 0) == 0);
    // Layout F read with 32x32b is Triton's 16x32bx2 lowering; a 16-bit D packs (_16b).
    m.tmem_load = 1;
    CHECK(ls::cute_tmem_atom(mma(64, 64, 1), ls::resolve_modifiers(mma(64, 64, 1), sm100a(), m))
              .rfind("SM100_TMEM_LOAD_16dp32b32x ", 0) == 0);
    const ls::Instruction h = mma(128, 64, 1, "f16", ls::ElemType::F16);
    CHECK(ls::cute_tmem_atom(h, ls::resolve_modifiers(h, sm100a(), m)).rfind("SM100_TMEM_LOAD_32dp32b32x_16b ", 0) == 0);
    CHECK(ls::cute_tmem_atom(ldst("16x64b", 4, true), {}).rfind("SM100_TMEM_LOAD_16dp64b4x_16b", 0) == 0);
    // Two warpgroups: 256 threads, the eighth lane basis and beyond are warps (Gluon: warp_bases).
    m.tmem_load = 2;
    m.num_warps = 8;
    const ls::ResolvedModifiers m8 = ls::resolve_modifiers(ins, sm100a(), m);
    const ls::TileLayout t8(ins, sm100a(), ls::Operand::D, m8, ls::TileParams{});
    const ls::LinearResult l8 = ls::to_linear(t8);
    REQUIRE(l8.layout);
    CHECK(l8.layout->lane.size() == 8);
    CHECK(ls::gluon_of(t8, ins, sm100a(), m8).linear.find("warp_bases=[[32, 0], [64, 0], [16, 0]]") != std::string::npos);
}

TEST_CASE("tcgen05.cp: shared-memory rows land in TMEM lanes as CUTLASS's UTCCP ValIDs say", "[tcgen05]") {
    auto cp = [](const std::string& shape, int rows, int bits) {
        ls::Instruction ins = row(ls::LayoutKind::Tcgen05Cp, "tcgen05.cp.cta_group::1." + shape, rows, bits, 0);
        ins.tmem_shape = shape;
        ins.cta_group = 1;
        return ins;
    };
    auto lanes_of = [](const ls::OperandLayout& L, int row, int word) {
        std::set<int> out;
        for (const auto& l : L.where({0, row, word})) {
            CHECK(l.reg == word);
            out.insert(l.lane);
        }
        return out;
    };
    // ValIDs (32,128,4):(DP,1,32DP), (64,128,2):(DP,1,64DP), (32,128,2,2):(DP,1,64DP,32DP): row r's copies.
    CHECK(lanes_of(lay(cp("32x128b.warpx4", 32, 128), ls::Operand::D), 5, 2) == std::set<int>{5, 37, 69, 101});
    CHECK(lanes_of(lay(cp("64x128b.warpx2::02_13", 64, 128), ls::Operand::D), 40, 1) == std::set<int>{40, 104});
    CHECK(lanes_of(lay(cp("64x128b.warpx2::01_23", 64, 128), ls::Operand::D), 40, 3) == std::set<int>{72, 104});
    CHECK(lanes_of(lay(cp("128x256b", 128, 256), ls::Operand::D), 99, 7) == std::set<int>{99});
    const ls::Instruction four = cp("4x256b", 4, 256);
    CHECK(ls::layout_evidence(four, ls::Operand::D, ls::resolve_modifiers(four, sm100a(), {})).confidence == "low");
}

TEST_CASE("tcgen05: the JSON carries Tensor Memory, the read-back registers and the evidence", "[tcgen05]") {
    const ls::Instruction ins = mma(64, 32, 1);
    ls::Query q{&ins, &sm100a(), ls::resolve_modifiers(ins, sm100a(), {})};
    auto json_of = [&](const ls::Query& query) {
        const ls::OperandLayout L = ls::layout_of(*query.ins, *query.target, ls::Operand::D, query.mods);
        return nlohmann::json::parse(ls::render_layout(query, L, ls::View::Matrix, ls::Format::Json));
    };
    const nlohmann::json t = json_of(q);
    CHECK(t["space"] == "tmem");
    CHECK(t["lanes"] == 128);
    CHECK(t["confidence"] == "high");
    CHECK(t["confidence_why"].get<std::string>().find("not confirmed on hardware") != std::string::npos);
    // Layout F: D[20][3] in TMEM lane 4 + 32 = 36, column 3.
    for (const auto& e : t["entries"])
        if (e["row"] == 20 && e["col"] == 3) CHECK((e["tmem_lane"] == 36 && e["column"] == 3 && e["cta"] == 0));
    ls::Modifiers m;
    m.tmem_load = 1;
    m.num_warps = 8;
    q.mods = ls::resolve_modifiers(ins, sm100a(), m);
    const nlohmann::json r = json_of(q);
    CHECK(r["space"] == "registers");
    CHECK(r["lanes"] == 256);
    CHECK(r["modifiers"]["tmem_load"] == "32x32b");
    CHECK(r["modifiers"]["num_warps"] == 8);
    // 8 warps, Layout F, 32x32b (Triton 3.6, [64, 32] fp32): warp 4 takes the columns 16..31, lane 16 the
    // columns 8..15 (16x32bx2's second half): D[m][n] for m = 16w + lane%16.
    for (const auto& e : r["entries"]) {
        const int lane = e["lane"], row = e["row"], col = e["col"];
        CHECK(row == 16 * ((lane / 32) % 4) + lane % 16);
        CHECK(col / 16 == lane / 128);
        CHECK((col % 16) / 8 == (lane % 32) / 16);
    }
}

TEST_CASE("tcgen05: info, formulas and trace answer for every kind of operand", "[tcgen05]") {
    ls::Instruction sp = mma(128, 64, 1, "mxf4nvf4");
    sp.scale_vec = 4;
    sp.tcgen05_sparse = true;
    sp.k = 128;
    sp.a_in_tmem = true;
    ls::Instruction ws = mma(32, 128, 1);
    ws.ws = true;
    for (const ls::Instruction& ins : {mma(64, 64, 1), mma(256, 256, 2), ws, sp}) {
        INFO(ins.mnemonic);
        const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, sm100a(), {});
        const std::string f = ls::family_formulas(ins, mods);
        CHECK(f.find("Layout") != std::string::npos);
        CHECK_FALSE(ls::modifier_notes(ins, sm100a()).empty());
        CHECK(ls::family_source(ins.kind).find("not confirmed on hardware") != std::string::npos);
        const ls::Trace tr = ls::trace(ins, sm100a(), mods, {0, 3, 5});
        CHECK(tr.d_locations.size() == 1);
        CHECK(tr.terms.size() >= static_cast<size_t>(2 * ins.k + 1));
    }
    // The block-scaled trace names the scale factors of each product.
    const ls::Trace tr = ls::trace(sp, sm100a(), ls::resolve_modifiers(sp, sm100a(), {}), {0, 3, 5});
    CHECK(tr.note.find("SFA") != std::string::npos);
    CHECK(ls::modifier_notes(mma(128, 64, 1), sm100a()).find("tmem_load: 32x32b 16x64b 16x128b 16x256b") != std::string::npos);
}
