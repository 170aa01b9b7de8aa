// Layouts in CuTe's notation (CUTLASS): a (thread, value) -> element map as a
// layout shape:stride, each mode hierarchical, e.g.
//   ((32,2),(4,4)):((32,4),(1,8))
// The thread mode counts wave * lanes + lane; the value mode numbers the
// elements one lane holds in register-and-bit order (as linear.hpp does); the
// codomain follows CuTe's MMA_Traits: A as (M, K), B as (N, K) (lanescope's
// K x N transposed), C and D as (M, N), each column-major (m + k * M, n + k * N,
// m + n * M), so an SM80/SM90 atom prints as CUTLASS's ALayout/BLayout/CLayout.
#pragma once

#include "lanescope/tile.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanescope {

struct CuteMode {
    std::vector<int> shape, stride;  // one level of hierarchy: (s0,s1,...):(d0,d1,...)
    long long apply(int x) const;    // colexicographic: x = x0 + s0 * (x1 + s1 * ...)
    int size() const;
};
struct CuteLayout {
    CuteMode thread, value;
    int rows = 0, cols = 0;  // CuTe's shape: (M, K), (N, K) or (M, N)
    long long apply(int thread_index, int value_index) const { return thread.apply(thread_index) + value.apply(value_index); }
    std::string text() const;  // "((32,2),(4,4)):((32,4),(1,8))"
};
struct CuteResult {
    std::optional<CuteLayout> layout;
    std::string why_not;
};
// Found by reading each mode's strides off its indices, then checked by
// evaluating it back over every (thread, value); otherwise why not.
CuteResult to_cute(const TileLayout& t);
// The CUTLASS TMEM copy atom a tcgen05.ld/st row is, or that reads a tcgen05.mma D back
// under --tmem-load (copy_traits_sm100.hpp, e.g. "SM100_TMEM_LOAD_16dp256b8x"), with the
// message it issues and how make_tmem_copy tiles the warps; "" for other instructions.
std::string cute_tmem_atom(const Instruction& ins, const ResolvedModifiers& mods);

}  // namespace lanescope
