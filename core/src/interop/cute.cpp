// CuTe layouts (cute.hpp): a mode of size N is split greedily into sub-modes
// (s0, s1, ...) where index k * P (P = s0 * ... * s(i-1)) moves by k * d_i for
// k < s_i; the whole layout is then evaluated back, so a layout that is not of
// this form is refused, never printed wrong. Coordinates follow CuTe's
// MMA_Traits (include/cute/atom/mma_traits.hpp and the per-architecture
// traits): A as (M, K), B as (N, K), C and D as (M, N), column-major; the scales SA
// as (M, K/32) and SB as (N, K/32), their operand's convention.
#include "lanescope/cute.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/numbers.hpp"
#include "layouts/layout_spec.hpp"

#include <functional>

namespace lanescope {

namespace {


// Sub-modes of a mode of `n` indices whose offsets f(x) are given; f(0) must be 0.
CuteMode split_mode(int n, const std::function<long long(int)>& f) {
    CuteMode m;
    int p = 1;
    while (p < n) {
        const long long d = f(p);
        // The longest run k = 1.. with f(k * p) == k * d that stays inside n.
        int run = 1;
        while (static_cast<long long>(run) * p < n && f(run * p) == run * d) ++run;
        // run is the first k that breaks (or reaches n / p); the sub-mode size must divide n / p.
        int s = run;
        while (s > 1 && (n / p) % s != 0) --s;
        if (s < 2) s = 2 <= n / p && (n / p) % 2 == 0 ? 2 : n / p;  // no run: take the smallest factor
        m.shape.push_back(s);
        m.stride.push_back(static_cast<int>(d));
        p *= s;
    }
    if (m.shape.empty()) {
        m.shape.push_back(1);
        m.stride.push_back(0);
    }
    return m;
}

std::string mode_text(const std::vector<int>& v) {
    if (v.size() == 1) return num(v[0]);
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + num(v[i]);
    return s + ")";
}

}  // namespace

long long CuteMode::apply(int x) const {
    long long off = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
        off += static_cast<long long>(x % shape[i]) * stride[i];
        x /= shape[i];
    }
    return off;
}

int CuteMode::size() const {
    int n = 1;
    for (int s : shape) n *= s;
    return n;
}

std::string CuteLayout::text() const {
    return "(" + mode_text(thread.shape) + "," + mode_text(value.shape) + "):(" + mode_text(thread.stride) + "," +
           mode_text(value.stride) + ")";
}

CuteResult to_cute(const TileLayout& t) {
    CuteResult res;
    std::vector<std::vector<Element>> held;
    res.why_not = uniform_held_elements(t, held);
    if (!res.why_not.empty()) return res;
    const size_t n = held[0].size();
    const int threads = static_cast<int>(held.size()), values = static_cast<int>(n);
    // B is K x N in lanescope and (N, K) in CuTe: its codomain is transposed. B's scales SB
    // ((K/32) x N) follow B's convention, as (N, K/32).
    const bool nk = t.operand() == Operand::B || t.operand() == Operand::SB;
    const long long rows = nk ? t.cols() : t.rows();
    auto idx = [&](int th, int v) {
        const Element& e = held[static_cast<size_t>(th)][static_cast<size_t>(v)];
        return nk ? e.col + e.row * rows : e.row + e.col * rows;
    };
    if (idx(0, 0) != 0) {
        res.why_not = "value 0 of thread 0 holds element (" + num(held[0][0].row) + ", " + num(held[0][0].col) +
                      "), but a CuTe layout sends (0, 0) to offset 0";
        return res;
    }
    CuteLayout L;
    L.rows = nk ? t.cols() : t.rows();
    L.cols = nk ? t.rows() : t.cols();
    L.thread = split_mode(threads, [&](int x) { return idx(x, 0); });
    L.value = split_mode(values, [&](int x) { return idx(0, x); });
    // CuTe's wgmma accumulator (CLayout_64xN in mma_traits_sm90_gmma.hpp) keeps its N/8 mode even at
    // N = 8: values (2,2,N/8):(64,8,512). A one-instruction accumulator of 64 x 8 (128 threads: a
    // warpgroup, which only wgmma has) gets that size-1 mode too.
    const Operand op = t.operand();
    if (t.lanes() * t.waves() == 128 && t.rows() == 64 && (op == Operand::C || op == Operand::D) && t.steps() == 1 &&
        L.value.shape.size() == 2 && L.value.shape[0] == 2 && L.value.shape[1] == 2 && L.cols == 8) {
        L.value.shape.push_back(1);
        L.value.stride.push_back(512);
    }
    for (int th = 0; th < threads; ++th)
        for (int v = 0; v < values; ++v)
            if (L.apply(th, v) != idx(th, v)) {
                const Element& e = held[static_cast<size_t>(th)][static_cast<size_t>(v)];
                res.why_not = "thread " + num(th) + " value " + num(v) + " holds element (" + num(e.row) + ", " + num(e.col) +
                              ") at offset " + num(idx(th, v)) + ", but the strides read off single indices give offset " +
                              num(L.apply(th, v)) + ": the map is not a sum of per-mode strides";
                return res;
            }
    res.layout = L;
    return res;
}

}  // namespace lanescope

namespace lanescope {

std::string cute_tmem_atom(const Instruction& ins, const ResolvedModifiers& mods) {
    if (ins.kind == LayoutKind::Tcgen05LdSt) {
        static const std::pair<const char*, const char*> kNames[] = {
            {"32x32b", "32dp32b"}, {"16x64b", "16dp64b"}, {"16x128b", "16dp128b"}, {"16x256b", "16dp256b"}, {"16x32bx2", "16dp32b"}};
        for (const auto& [ptx, cute] : kNames)
            if (ins.tmem_shape == ptx)
                return std::string("SM100_TMEM_") + (ins.store ? "STORE_" : "LOAD_") + cute + std::to_string(ins.tmem_num) + "x" +
                       (ins.pack16 ? "_16b" : "") + " (CUTLASS copy_traits_sm100.hpp; one warp, ThrID = Layout<_32>)";
        return "";
    }
    if (ins.kind != LayoutKind::Tcgen05Mma || mods.tmem_load <= 0) return "";
    const detail::TmemRegBases b = detail::tcgen05_tmem_reg_bases(ins, mods);
    return b.cute_atom + " (CUTLASS copy_traits_sm100.hpp): " + b.message + " per warp; make_tmem_copy tiles 4 warps at " +
           "32 TMEM lanes each" + (b.num_warps == 8 ? ", the second warpgroup the other columns or rows as Triton 3.6 splits them" : "") +
           (b.cta.empty() ? "" : "; cta_group::2: in each CTA of the pair, over its own 128 rows of D");
}

}  // namespace lanescope
