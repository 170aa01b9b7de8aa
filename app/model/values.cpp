#include "model/values.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace lsapp {

namespace {

double clamp_int(double x, double lo, double hi) { return std::clamp(std::nearbyint(x), lo, hi); }

}  // namespace

double quantize(double x, ls::ElemType t, Fp8Flavor flavor) {
    if (const auto f = ls::minifloat_of(t, flavor)) return ls::round_minifloat(*f, x);
    switch (t) {
        case ls::ElemType::F64: return x;
        case ls::ElemType::F32: return static_cast<double>(static_cast<float>(x));
        case ls::ElemType::S32:
        case ls::ElemType::I32: return clamp_int(x, -2147483648.0, 2147483647.0);
        case ls::ElemType::S8:
        case ls::ElemType::I8:
        case ls::ElemType::IU8: return clamp_int(x, -128, 127);
        case ls::ElemType::U8: return clamp_int(x, 0, 255);
        case ls::ElemType::B16: return clamp_int(x, 0, 65535);
        case ls::ElemType::S4:
        case ls::ElemType::IU4: return clamp_int(x, -8, 7);
        case ls::ElemType::IDX: return clamp_int(x, 0, 3);
        case ls::ElemType::E8M0: return clamp_int(x, 0, 254);
        default: return x;
    }
}

std::uint64_t encode(double x, ls::ElemType t, Fp8Flavor flavor) {
    if (t == ls::ElemType::TF32 || t == ls::ElemType::XF32) {  // held as an f32 (low 13 bits zero)
        const float v = static_cast<float>(quantize(x, t, flavor));
        std::uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return bits;
    }
    if (const auto f = ls::minifloat_of(t, flavor)) return ls::encode_minifloat(*f, ls::round_minifloat(*f, x)).value_or(0);
    switch (t) {
        case ls::ElemType::F64: {
            std::uint64_t bits;
            std::memcpy(&bits, &x, 8);
            return bits;
        }
        case ls::ElemType::F32: {
            const float v = static_cast<float>(x);
            std::uint32_t bits;
            std::memcpy(&bits, &v, 4);
            return bits;
        }
        case ls::ElemType::S32:
        case ls::ElemType::I32: return static_cast<std::uint32_t>(static_cast<std::int32_t>(x));
        case ls::ElemType::S8:
        case ls::ElemType::I8:
        case ls::ElemType::IU8: return static_cast<std::uint8_t>(static_cast<std::int8_t>(x));
        case ls::ElemType::U8: return static_cast<std::uint8_t>(static_cast<int>(x));
        case ls::ElemType::B16: return static_cast<std::uint16_t>(static_cast<int>(x));
        case ls::ElemType::S4:
        case ls::ElemType::IU4: return static_cast<std::uint64_t>(static_cast<int>(x)) & 0xF;
        case ls::ElemType::IDX: return static_cast<std::uint64_t>(static_cast<int>(x)) & 0x3;
        case ls::ElemType::E8M0: return static_cast<std::uint64_t>(static_cast<int>(x)) & 0xFF;
        default: return 0;
    }
}

const char* generator_name(Generator g) {
    switch (g) {
        case Generator::Zeros: return "zeros";
        case Generator::Identity: return "identity";
        case Generator::Ramp: return "ramp";
        case Generator::Random: return "random";
        case Generator::OneHot: return "one-hot";
    }
    return "?";
}

namespace {
bool is_int(ls::ElemType t) {
    return t == ls::ElemType::I32 || t == ls::ElemType::I8 || t == ls::ElemType::IU8 || t == ls::ElemType::IU4 ||
           t == ls::ElemType::S32 || t == ls::ElemType::S8 || t == ls::ElemType::U8 || t == ls::ElemType::S4 ||
           t == ls::ElemType::B16;
}
}  // namespace

void generate(Matrix& m, Generator g, unsigned seed, int one_hot, Fp8Flavor flavor) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> small_int(-8, 7);
    std::uniform_real_distribution<double> unit(-2.0, 2.0);
    for (int b = 0; b < m.blocks; ++b) {
        for (int r = 0; r < m.rows; ++r) {
            for (int c = 0; c < m.cols; ++c) {
                const int linear = (b * m.rows + r) * m.cols + c;
                double v = 0;
                switch (g) {
                    case Generator::Zeros: v = 0; break;
                    case Generator::Identity: v = r == c ? 1 : 0; break;
                    case Generator::Ramp:
                        v = is_int(m.type) ? (3 * r + c) % 16 - 8 : ((3 * r + c) % 16) * 0.25 - 2.0;
                        break;
                    case Generator::Random: v = is_int(m.type) ? small_int(rng) : unit(rng); break;
                    case Generator::OneHot: v = linear == one_hot ? 1 : 0; break;
                }
                m.at(b, r, c) = quantize(v, m.type, flavor);
            }
        }
    }
}

namespace {
Matrix shaped(const ls::OperandLayout& l) {
    Matrix m;
    m.blocks = l.blocks();
    m.rows = l.rows();
    m.cols = l.cols();
    m.type = l.type();
    m.v.assign(static_cast<size_t>(l.elements()), 0.0);
    return m;
}
}  // namespace

Matrix shared_memory_b(const ls::Instruction& ins) {
    Matrix m;
    m.rows = ins.k;
    m.cols = ins.n;
    m.type = ins.b;
    m.v.assign(static_cast<size_t>(ins.k) * ins.n, 0.0);
    return m;
}

namespace {
// Each pair of stored values names two distinct positions of its group of four.
constexpr int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
}  // namespace

void impose_4_2(Matrix& a) {
    for (int b = 0; b < a.blocks; ++b)
        for (int r = 0; r < a.rows; ++r)
            for (int c = 0; c < a.cols; ++c) {
                const int g = c / 4, pos = c % 4;
                const int* keep = kPairs[(r + g) % 6];
                if (pos != keep[0] && pos != keep[1]) a.at(b, r, c) = 0;
            }
}

Inputs make_inputs(const LayoutSet& set) {
    Inputs in;
    in.flavor = fp8_flavor(set.target->family);
    if (auto* a = set.find(ls::Operand::A)) in.a = shaped(*a), generate(in.a, Generator::Ramp, 1, 0, in.flavor);
    if (auto* b = set.find(ls::Operand::B)) in.b = shaped(*b), generate(in.b, Generator::Identity, 1, 0, in.flavor);
    else if (set.ins->kind == ls::LayoutKind::Wgmma) in.b = shared_memory_b(*set.ins), generate(in.b, Generator::Identity, 1, 0, in.flavor);
    if (auto* c = set.find(ls::Operand::C)) in.c = shaped(*c);
    if (auto* k = set.find(ls::Operand::K)) {
        if (!in.a.empty() && in.a.cols * 2 == set.ins->k) {
            // Compressed A: the index is an input.
            in.k = shaped(*k);
            for (int b = 0; b < in.k.blocks; ++b)
                for (int r = 0; r < in.k.rows; ++r)
                    for (int c = 0; c < in.k.cols; ++c) in.k.at(b, r, c) = kPairs[(r + c / 2) % 6][c % 2];
        } else {
            // Dense A: the index follows from where A's non-zeros are.
            impose_4_2(in.a);
        }
    }
    if (auto* sa = set.find(ls::Operand::SA)) in.sa = shaped(*sa), std::fill(in.sa.v.begin(), in.sa.v.end(), 127.0);
    if (auto* sb = set.find(ls::Operand::SB)) in.sb = shaped(*sb), std::fill(in.sb.v.begin(), in.sb.v.end(), 127.0);
    return in;
}

bool inputs_match(const Inputs& in, const LayoutSet& set) {
    auto same = [](const Matrix& m, const ls::OperandLayout* l) {
        if (!l) return m.empty();
        return m.blocks == l->blocks() && m.rows == l->rows() && m.cols == l->cols() && m.type == l->type();
    };
    const bool b_ok = set.find(ls::Operand::B) || set.ins->kind != ls::LayoutKind::Wgmma
                          ? same(in.b, set.find(ls::Operand::B))
                          : in.b.rows == set.ins->k && in.b.cols == set.ins->n && in.b.type == set.ins->b && !in.b.empty();
    return same(in.a, set.find(ls::Operand::A)) && b_ok &&
           same(in.c, set.find(ls::Operand::C)) && same(in.k, set.find(ls::Operand::K)) &&
           same(in.sa, set.find(ls::Operand::SA)) && same(in.sb, set.find(ls::Operand::SB)) &&
           in.flavor == fp8_flavor(set.target->family);
}

Outputs compute_d(const LayoutSet& set, const Inputs& in) {
    Outputs out;
    const ls::OperandLayout* D = set.find(ls::Operand::D);
    if (!D) return out;
    out.d = shaped(*D);
    // D = A x B (+ C) only where the operands as laid out span D's rows and columns: an operand
    // the layout gives for one CTA of a cta_group::2 pair (half of M or N) computes no D here.
    const bool spans = !in.a.empty() && !in.b.empty() && in.a.rows >= out.d.rows && in.b.cols >= out.d.cols &&
                       (in.c.empty() || (in.c.rows >= out.d.rows && in.c.cols >= out.d.cols)) &&
                       (in.k.empty() || (in.k.rows >= out.d.rows && in.k.cols >= in.a.cols));
    if (!spans) return Outputs{};
    const ls::Instruction& ins = *set.ins;
    const bool integer = is_int(out.d.type);
    const bool sparse = !in.k.empty();
    const bool dense_sparse = ins.sparse() && in.k.empty();
    const bool scaled = !in.sa.empty() && !in.sb.empty();
    // Elements per scale factor along K (32 for MX formats, 16 for NVFP4's 4X): from the scales' own extent.
    const int sa_block = scaled && in.sa.cols > 0 ? std::max(1, ins.k / in.sa.cols) : 32;
    const int sb_block = scaled && in.sb.rows > 0 ? std::max(1, ins.k / in.sb.rows) : 32;
    if (scaled && (in.sa.rows < out.d.rows || in.sb.cols < out.d.cols)) return Outputs{};
    for (int b = 0; b < out.d.blocks; ++b) {
        int ab = std::min(b, in.a.blocks - 1);
        if (ins.kind == ls::LayoutKind::Mfma && set.mods.cbsz > 0)
            ab = std::min(in.a.blocks - 1, (b >> set.mods.cbsz << set.mods.cbsz) + set.mods.abid);
        const int bb = std::min(b, in.b.blocks - 1);
        for (int i = 0; i < out.d.rows; ++i) {
            for (int j = 0; j < out.d.cols; ++j) {
                double acc = in.c.empty() ? 0 : in.c.at(std::min(b, in.c.blocks - 1), i, j);
                long long iacc = static_cast<long long>(acc);
                int stored_in_group = 0;
                for (int c = 0; c < in.a.cols; ++c) {
                    int k = c;
                    if (dense_sparse) {
                        if (c % 4 == 0) stored_in_group = 0;
                        if (in.a.at(ab, i, c) == 0) continue;
                        if (++stored_in_group > 2) continue;  // cannot be encoded: the hardware sees two per group
                    }
                    if (sparse) k = 4 * (c / 2) + static_cast<int>(in.k.at(0, i, c));
                    if (k >= in.b.rows) continue;
                    const double x = in.a.at(ab, i, c), y = in.b.at(bb, k, j);
                    if (integer) {
                        iacc += static_cast<long long>(x) * static_cast<long long>(y);
                    } else {
                        double p = x * y;
                        if (scaled) p *= std::ldexp(1.0, static_cast<int>(in.sa.at(0, i, std::min(k / sa_block, in.sa.cols - 1))) - 127) *
                                         std::ldexp(1.0, static_cast<int>(in.sb.at(0, std::min(k / sb_block, in.sb.rows - 1), j)) - 127);
                        acc += p;
                    }
                }
                // Integer accumulators wrap like the 32-bit register they live in.
                out.d.at(b, i, j) =
                    integer ? static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(iacc)))
                            : quantize(acc, out.d.type, in.flavor);
            }
        }
    }
    out.d_words = register_words(*D, out.d, in.flavor);
    return out;
}

std::vector<std::uint32_t> register_words(const ls::OperandLayout& l, const Matrix& m, Fp8Flavor flavor) {
    std::vector<std::uint32_t> words(static_cast<size_t>(l.lanes()) * l.regs(), 0);
    if (m.empty()) return words;
    for (int lane = 0; lane < l.lanes(); ++lane) {
        for (int reg = 0; reg < l.regs(); ++reg) {
            std::uint32_t w = 0;
            for (const ls::SlotPart& p : l.which(reg, lane)) {
                const std::uint64_t bits = encode(m.at(p.element.block, p.element.row, p.element.col), m.type, flavor);
                const int width = std::min(p.bit_hi, 31) - p.bit_lo + 1;
                const std::uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
                w |= static_cast<std::uint32_t>(((bits >> p.elem_bit_lo) & mask) << p.bit_lo);
            }
            words[static_cast<size_t>(lane) * l.regs() + reg] = w;
        }
    }
    return words;
}

const char* change_name(Change c) {
    switch (c) {
        case Change::Same: return "same place";
        case Change::OtherRegister: return "same lane, other register";
        case Change::OtherLane: return "other lane, same register";
        case Change::Both: return "other lane and register";
        case Change::BitsOnly: return "same lane and register, other bits";
        case Change::Copies: return "other number of copies";
    }
    return "?";
}

Change classify_change(std::vector<ls::Location> a, std::vector<ls::Location> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a == b) return Change::Same;
    if (a.size() != b.size()) return Change::Copies;
    std::vector<std::pair<int, int>> ra, rb;  // (reg, lane) pairs
    std::vector<int> la, lb, ga, gb;           // lanes, registers
    for (const auto& l : a) ra.emplace_back(l.reg, l.lane), la.push_back(l.lane), ga.push_back(l.reg);
    for (const auto& l : b) rb.emplace_back(l.reg, l.lane), lb.push_back(l.lane), gb.push_back(l.reg);
    for (auto* v : {&la, &lb, &ga, &gb}) std::sort(v->begin(), v->end());
    std::sort(ra.begin(), ra.end());
    std::sort(rb.begin(), rb.end());
    if (ra == rb) return Change::BitsOnly;
    if (la == lb) return Change::OtherRegister;
    if (ga == gb) return Change::OtherLane;
    return Change::Both;
}

LayoutDiff diff_layouts(const ls::OperandLayout& a, const ls::OperandLayout& b) {
    LayoutDiff d;
    d.operand = a.operand();
    if (a.blocks() != b.blocks() || a.rows() != b.rows() || a.cols() != b.cols()) {
        d.note = "shapes differ: " + std::to_string(a.blocks()) + "x" + std::to_string(a.rows()) + "x" +
                 std::to_string(a.cols()) + " vs " + std::to_string(b.blocks()) + "x" + std::to_string(b.rows()) +
                 "x" + std::to_string(b.cols()) + " (blocks x rows x cols)";
        return d;
    }
    if (a.space() != b.space()) {
        // wgmma's D in registers vs tcgen05's in Tensor Memory: places of different kinds, side by side.
        d.note = "in " + std::string(ls::space_title(a.space())) + " vs in " + std::string(ls::space_title(b.space())) +
                 " (not compared cell by cell)";
        return d;
    }
    d.comparable = true;
    d.differs.assign(static_cast<size_t>(a.elements()), 0);
    for (int blk = 0; blk < a.blocks(); ++blk)
        for (int r = 0; r < a.rows(); ++r)
            for (int c = 0; c < a.cols(); ++c) {
                const Change ch = classify_change(a.where({blk, r, c}), b.where({blk, r, c}));
                ++d.per_change[static_cast<int>(ch)];
                if (ch != Change::Same) {
                    d.differs[static_cast<size_t>((blk * a.rows() + r) * a.cols() + c)] = static_cast<std::uint8_t>(ch);
                    ++d.count;
                }
            }
    d.note = d.count == 0 ? "identical placement"
                          : std::to_string(d.count) + " of " + std::to_string(a.elements()) + " elements placed differently";
    for (int k = 1; k < kChangeKinds; ++k)
        if (d.per_change[k]) d.note += std::string(";  ") + change_name(static_cast<Change>(k)) + ": " + std::to_string(d.per_change[k]);
    return d;
}

}  // namespace lsapp
