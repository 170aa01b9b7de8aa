// Input matrices, their generators, and D = A*B + C in the instruction's
// types; plus how values sit in registers (hex words per lane) and the
// cell-by-cell comparison of two layouts.
#pragma once

#include "model/selection.hpp"

#include "lanescope/elements.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace lsapp {

// FP8/BF8's two encodings, and which a family means: core's element table.
using lanescope::Fp8Flavor;
using lanescope::fp8_flavor;

// Rounds x to the nearest value of type t (ties to even; the float types below f32 saturate at
// their largest finite value, infinities included; integers are clamped).
double quantize(double x, ls::ElemType t, Fp8Flavor flavor = Fp8Flavor::Ocp);
// The bit pattern of an already quantized value (low bits of the result).
std::uint64_t encode(double x, ls::ElemType t, Fp8Flavor flavor = Fp8Flavor::Ocp);

struct Matrix {
    int blocks = 1, rows = 0, cols = 0;
    ls::ElemType type = ls::ElemType::F32;
    std::vector<double> v;
    double& at(int b, int r, int c) { return v[(static_cast<size_t>(b) * rows + r) * cols + c]; }
    double at(int b, int r, int c) const { return v[(static_cast<size_t>(b) * rows + r) * cols + c]; }
    bool empty() const { return v.empty(); }
};

// wgmma's B (K x N, in shared memory: no register layout), as an input of D = A*B + C.
Matrix shared_memory_b(const ls::Instruction& ins);

enum class Generator { Zeros, Identity, Ramp, Random, OneHot };
const char* generator_name(Generator g);

// Fills m (values quantized to m.type). one_hot: linear element index set to 1.
void generate(Matrix& m, Generator g, unsigned seed = 1, int one_hot = 0, Fp8Flavor flavor = Fp8Flavor::Ocp);

// 4:2 sparsity on a dense A (M x K): in each row's group of four k, keeps two
// positions (a pattern that varies by row and group) and zeroes the others.
void impose_4_2(Matrix& a);

struct Inputs {
    Matrix a, b, c;
    Matrix k;       // sparse index for a compressed A (M x K/2) only; empty otherwise
    Matrix sa, sb;  // E8M0 scale codes (127 = 1.0), empty unless scaled
    Fp8Flavor flavor = Fp8Flavor::Ocp;
};
// Shapes and types from the layouts; A and B ramps, C zeros, a valid 4:2
// index pattern, unit scales.
Inputs make_inputs(const LayoutSet& set);
bool inputs_match(const Inputs& in, const LayoutSet& set);  // same shapes and types

struct Outputs {
    Matrix d;
    std::vector<std::uint32_t> d_words;  // per lane * regs + reg: D's registers as 32-bit words
};
// D = A*B + C per block: products and sums exact (in double; integer types in
// 64-bit integers), rounded once to D's type. Sparse with a dense A (the
// engine's convention): only the first two non-zero values of each group of
// four k are stored, so only those count. With a compressed A (K/2 columns):
// column c multiplies B's row 4*(c/2) + K[i][c]. Scaled: each product times
// 2^(SA-127) * 2^(SB-127). cbsz/abid: block b uses A of block
// (b >> cbsz << cbsz) + abid.
Outputs compute_d(const LayoutSet& set, const Inputs& in);

// The 32-bit register words of one operand holding matrix m, per lane * regs + reg.
std::vector<std::uint32_t> register_words(const ls::OperandLayout& l, const Matrix& m, Fp8Flavor flavor);

// Compare mode: which elements are placed differently (different set of
// locations) in two layouts of the same shape, and how.
enum class Change : std::uint8_t {
    Same = 0,
    OtherRegister,  // the same lanes, other registers
    OtherLane,      // the same registers, other lanes
    Both,           // other lanes and other registers
    BitsOnly,       // the same lanes and registers, other bits
    Copies,         // held in a different number of places (replicated vs single, 2 vs 4 copies)
};
constexpr int kChangeKinds = 6;
const char* change_name(Change c);

struct LayoutDiff {
    ls::Operand operand = ls::Operand::A;
    bool comparable = false;
    std::string note;                   // why not comparable, or a summary
    std::vector<std::uint8_t> differs;  // per element index of the first layout: a Change (0: same)
    int count = 0;
    int per_change[kChangeKinds] = {};  // elements of each kind
};
// How one element's places changed between two layouts.
Change classify_change(std::vector<ls::Location> a, std::vector<ls::Location> b);
LayoutDiff diff_layouts(const ls::OperandLayout& a, const ls::OperandLayout& b);

}  // namespace lsapp
