// The probe: tagged inputs placed by the claimed layouts, executed on a Device,
// D decoded through the claimed D layout and compared, element by element, with
// the product computed in element space. Shared by every device.
//
// Probe series (values are 0/1 in A and B so that every type holds them exactly):
//  C  A = B = 0, C(e) = e's number + 1: each D slot shows which C element it got.
//  A  B has one 1 per column (column j picks k = g*N + j); A holds one bit plane
//     of each element's number per run: the bits of a D slot, over the planes,
//     spell which A element the hardware multiplied there.
//  B  the same with the roles of A and B exchanged (A picks k = g*M + i).
//  K  (sparse) A = 1, index pairs vary by row and group, B picks one dense k per
//     column: D shows which dense k each row's index selected.
//  SA/SB (scaled) the scale of each element is 2^(number + 1); one selected
//     term per D element shows which scale was applied.
#include "lanescope/gpu.hpp"

#include "nvidia.hpp"
#include "values.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

namespace lanescope::gpu {

using detail::decode_value;
using detail::encode_value;

const RegisterFile& ProbeLaunch::input(Operand op) const {
    for (const auto& p : inputs)
        if (p.first == op) return p.second;
    throw Error("internal: probe has no operand " + std::string(operand_name(op)));
}

ClaimedLayout claimed_from_core(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods) {
    OperandLayout L = layout_of(ins, t, op, mods);
    ClaimedLayout c;
    c.operand = op;
    c.blocks = L.blocks();
    c.rows = L.rows();
    c.cols = L.cols();
    c.lanes = L.lanes();
    c.regs = L.regs();
    c.type = L.type();
    c.entries = L.entries();
    return c;
}

std::vector<Operand> probe_operands(const Instruction& ins) {
    std::vector<Operand> ops = operands_of(ins);
    const auto s = detail::nv_spelling(ins);
    if (s && s->cls == detail::NvClass::Wgmma && std::find(ops.begin(), ops.end(), Operand::B) == ops.end())
        ops.insert(std::find(ops.begin(), ops.end(), Operand::A) + 1, Operand::B);
    return ops;
}

ClaimedLayout probe_layout(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods) {
    const auto s = detail::nv_spelling(ins);
    if (s && s->cls == detail::NvClass::Wgmma && op == Operand::B) {
        const std::vector<Operand> core_ops = operands_of(ins);
        const bool in_core = std::find(core_ops.begin(), core_ops.end(), Operand::B) != core_ops.end();
        return detail::wgmma_b_shared_layout(s->n, s->k, in_core ? operand_type(ins, Operand::B, mods) : ins.b);
    }
    return claimed_from_core(ins, t, op, mods);
}

// Sparse A and K: core places them in dense coordinates (rows x K), all four k
// of a group sharing the slot that holds the group's two stored values (A) or
// their two 2-bit positions (K). The probe works with the stored values: element
// (i, c) is the (c % 2)-th stored value of group c / 2, at its part of the slot.
ClaimedLayout compressed(const Instruction& ins, ClaimedLayout dense) {
    if (!ins.sparse() || (dense.operand != Operand::A && dense.operand != Operand::K) || dense.cols != ins.k)
        return dense;
    const int width = dense.operand == Operand::K ? 2 : elem_bits(dense.type);
    ClaimedLayout c = dense;
    c.cols = dense.cols / 2;
    c.entries.clear();
    for (const Entry& e : dense.entries) {
        if (e.element.col % 4 != 0) continue;  // the group's first k names its slot
        for (int j = 0; j < 2; ++j) {
            Entry s = e;
            s.element.col = e.element.col / 2 + j;
            s.loc.bit_lo = e.loc.bit_lo + j * width;
            s.loc.bit_hi = s.loc.bit_lo + width - 1;
            c.entries.push_back(s);
        }
    }
    std::sort(c.entries.begin(), c.entries.end(), [](const Entry& a, const Entry& b) {
        return a.element < b.element || (a.element == b.element && a.loc < b.loc);
    });
    return c;
}

namespace {

// One operand's values in element space.
struct Matrix {
    int blocks = 0, rows = 0, cols = 0;
    std::vector<double> v;
    Matrix() = default;
    Matrix(int b, int r, int c, double fill = 0) : blocks(b), rows(r), cols(c), v(size_t(b) * r * c, fill) {}
    size_t index(int b, int r, int c) const { return (size_t(b) * rows + r) * cols + c; }
    double& at(int b, int r, int c) { return v[index(b, r, c)]; }
    double at(int b, int r, int c) const { return v[index(b, r, c)]; }
    double& at(const Element& e) { return at(e.block, e.row, e.col); }
    double at(const Element& e) const { return at(e.block, e.row, e.col); }
    bool empty() const { return v.empty(); }
};

struct Inputs {
    Matrix A, B, C, K, SA, SB;
    Matrix& of(Operand op) {
        switch (op) {
            case Operand::A: return A;
            case Operand::B: return B;
            case Operand::C: return C;
            case Operand::K: return K;
            case Operand::SA: return SA;
            case Operand::SB: return SB;
            default: break;
        }
        throw Error("internal: D is not an input");
    }
};

std::vector<Operand> input_operands(const Instruction& ins) {
    std::vector<Operand> ops;
    for (Operand op : probe_operands(ins))
        if (op != Operand::D) ops.push_back(op);
    return ops;
}

// Bits [bit_lo, bit_hi] of `reg` (continuing into the next registers).
uint64_t read_bits(const RegisterFile& rf, const Location& l) {
    if (l.bit_hi < 32) {  // the common case: inside one register
        if (l.reg >= rf.regs || l.lane >= rf.lanes) throw Error("internal: location outside the register file");
        const int w = l.bit_hi - l.bit_lo + 1;
        const uint32_t mask = w == 32 ? 0xFFFFFFFFu : ((1u << w) - 1);
        return (rf.at(l.reg, l.lane) >> l.bit_lo) & mask;
    }
    uint64_t out = 0;
    for (int b = l.bit_lo; b <= l.bit_hi; ++b) {
        const int reg = l.reg + b / 32;
        if (reg >= rf.regs || l.lane >= rf.lanes) throw Error("internal: location outside the register file");
        out |= uint64_t((rf.at(reg, l.lane) >> (b % 32)) & 1u) << (b - l.bit_lo);
    }
    return out;
}

void write_bits(RegisterFile& rf, const Location& l, uint64_t bits) {
    if (l.bit_hi < 32) {
        if (l.reg >= rf.regs || l.lane >= rf.lanes) throw Error("internal: location outside the register file");
        const int w = l.bit_hi - l.bit_lo + 1;
        const uint32_t mask = (w == 32 ? 0xFFFFFFFFu : ((1u << w) - 1)) << l.bit_lo;
        uint32_t& word = rf.at(l.reg, l.lane);
        word = (word & ~mask) | ((uint32_t(bits) << l.bit_lo) & mask);
        return;
    }
    for (int b = l.bit_lo; b <= l.bit_hi; ++b) {
        const int reg = l.reg + b / 32;
        if (reg >= rf.regs || l.lane >= rf.lanes) throw Error("internal: location outside the register file");
        uint32_t& w = rf.at(reg, l.lane);
        const uint32_t mask = 1u << (b % 32);
        w = ((bits >> (b - l.bit_lo)) & 1u) ? (w | mask) : (w & ~mask);
    }
}


// D = A x B (+ scales) + C in element space, with the instruction's semantics:
// sparse A picks its dense k through the index, f64 BLGP on CDNA3/4 negates.
Matrix compute_d(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, const Inputs& x,
                 const Matrix& shape_d) {
    Matrix d(shape_d.blocks, shape_d.rows, shape_d.cols);
    const bool negates = ins.a == ElemType::F64 && (t.family == Family::CDNA3 || t.family == Family::CDNA4);
    const double sa_sign = negates && (mods.blgp & 1) ? -1 : 1;
    const double sb_sign = negates && (mods.blgp & 2) ? -1 : 1;
    const double sc_sign = negates && (mods.blgp & 4) ? -1 : 1;
    const bool sparse = ins.sparse();
    const bool scaled = !x.SA.empty();
    for (int b = 0; b < d.blocks; ++b) {
        const int ab = x.A.blocks == 1 ? 0 : b, bb = x.B.blocks == 1 ? 0 : b, cb = x.C.blocks == 1 ? 0 : b;
        for (int i = 0; i < d.rows; ++i) {
            double* row = &d.at(b, i, 0);
            for (int c = 0; c < x.A.cols; ++c) {
                const double a = x.A.at(ab, i, c);
                if (a == 0) continue;
                const int k = sparse ? 4 * (c / 2) + int(x.K.at(ab, i, c)) : c;
                if (k >= x.B.rows) continue;
                const double* brow = &x.B.v[x.B.index(bb, k, 0)];
                for (int j = 0; j < d.cols; ++j) {
                    if (brow[j] == 0) continue;
                    double term = a * brow[j];
                    if (scaled) term *= x.SA.at(0, i, k / 32) * x.SB.at(0, k / 32, j);
                    row[j] += term;
                }
            }
            for (int j = 0; j < d.cols; ++j) row[j] = sa_sign * sb_sign * row[j] + sc_sign * x.C.at(cb, i, j);
        }
    }
    return d;
}

}  // namespace

struct SoftwareDevice::Cache {
    const Instruction* ins = nullptr;
    std::string key;
    std::vector<std::pair<Operand, ClaimedLayout>> layouts;
    const ClaimedLayout& of(Operand op) const {
        for (const auto& l : layouts)
            if (l.first == op) return l.second;
        throw Error("internal: no layout for " + std::string(operand_name(op)));
    }
};

RegisterFile SoftwareDevice::run(const ProbeLaunch& p) {
    const Instruction& ins = *p.ins;
    const Target& t = *p.target;
    const std::string key = t.gfx + "/" + std::to_string(p.mods.wave) + "/" + p.mods.describe();
    if (!cache_ || cache_->ins != &ins || cache_->key != key) {
        cache_ = std::make_shared<Cache>();
        cache_->ins = &ins;
        cache_->key = key;
        for (Operand op : probe_operands(ins))
            cache_->layouts.emplace_back(op, compressed(ins, probe_layout(ins, t, op, p.mods)));
    }
    const auto nv = detail::nv_spelling(ins);
    if (nv && (nv->cls == detail::NvClass::LdMatrix || nv->cls == detail::NvClass::StMatrix)) {
        // Row r of matrix m is the row whose address lane 8m + r supplies.
        const ClaimedLayout& LD = cache_->of(Operand::D);
        detail::RowImage rows;
        rows.words = p.shared_rows;
        auto slot = [&](const Element& e) { return int(p.lane_address.at(size_t(8 * e.block + e.row)) / 16); };
        if (nv->cls == detail::NvClass::LdMatrix) {
            RegisterFile out(LD.lanes, LD.regs);
            for (const Entry& e : LD.entries) write_bits(out, e.loc, rows.element(slot(e.element), e.element.col));
            return out;
        }
        const RegisterFile& in = p.input(Operand::D);
        for (const Entry& e : LD.entries) rows.set(slot(e.element), e.element.col, uint16_t(read_bits(in, e.loc)));
        RegisterFile out(1, int(rows.words.size()));
        out.words = rows.words;
        return out;
    }
    Inputs x;
    for (Operand op : input_operands(ins)) {
        const ClaimedLayout& L = cache_->of(op);
        const RegisterFile& rf = p.input(op);
        Matrix& m = x.of(op);
        m = Matrix(L.blocks, L.rows, L.cols);
        // The hardware reads each element from one slot; where the layout
        // replicates an element, the first slot stands for all.
        Element last{-1, -1, -1};
        for (const Entry& e : L.entries) {
            if (e.element == last) continue;
            last = e.element;
            m.at(e.element) = decode_value(L.type, t.family, read_bits(rf, e.loc));
        }
    }
    const ClaimedLayout& LD = cache_->of(Operand::D);
    Matrix d = compute_d(ins, t, p.mods, x, Matrix(LD.blocks, LD.rows, LD.cols));
    RegisterFile out(LD.lanes, LD.regs);
    for (const Entry& e : LD.entries) {
        double v = d.at(e.element);
        if (LD.type == ElemType::F32) v = double(float(v));
        write_bits(out, e.loc, encode_value(LD.type, t.family, v));
    }
    return out;
}

namespace {

std::string elem_text(Operand op, const Element& e, int blocks) {
    std::string s = std::string(operand_name(op)) + "(";
    if (blocks > 1) s += "block " + std::to_string(e.block) + ", ";
    return s + std::to_string(e.row) + "," + std::to_string(e.col) + ")";
}

std::string loc_text(const Location& l) {
    return "v" + std::to_string(l.reg) + " lane " + std::to_string(l.lane) + " [" + std::to_string(l.bit_lo) + ":" +
           std::to_string(l.bit_hi) + "]";
}

std::string num_text(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

// A claimed layout with its elements grouped into classes that share a slot
// (broadcast, replication): elements of one class must carry one value.
struct Claim {
    ClaimedLayout L;
    std::vector<int> rep;                          // per element: its class's smallest element
    std::vector<std::vector<Location>> locations;  // per element
    int count() const { return L.blocks * L.rows * L.cols; }
    int index(const Element& e) const { return (e.block * L.rows + e.row) * L.cols + e.col; }
    Element element(int n) const { return {n / (L.rows * L.cols), (n / L.cols) % L.rows, n % L.cols}; }

    explicit Claim(ClaimedLayout l) : L(std::move(l)) {
        rep.resize(count());
        locations.resize(count());
        std::iota(rep.begin(), rep.end(), 0);
        std::function<int(int)> find = [&](int n) { return rep[n] == n ? n : rep[n] = find(rep[n]); };
        std::vector<std::pair<long long, int>> slots;
        for (const Entry& e : L.entries) {
            if (e.element.block < 0 || e.element.block >= L.blocks || e.element.row < 0 || e.element.row >= L.rows ||
                e.element.col < 0 || e.element.col >= L.cols)
                throw Error("internal: claimed layout of " + std::string(operand_name(L.operand)) +
                            " names an element outside its shape");
            const int n = index(e.element);
            locations[n].push_back(e.loc);
            slots.push_back({(((long long)e.loc.reg * 4096 + e.loc.lane) * 64 + e.loc.bit_lo), n});
        }
        std::sort(slots.begin(), slots.end());
        for (size_t s = 1; s < slots.size(); ++s)
            if (slots[s].first == slots[s - 1].first) {
                int a = find(slots[s].second), b = find(slots[s - 1].second);
                if (a != b) rep[std::max(a, b)] = std::min(a, b);
            }
        for (int n = 0; n < count(); ++n) rep[n] = find(n);
    }
    Matrix matrix(double fill = 0) const { return Matrix(L.blocks, L.rows, L.cols, fill); }
    // Sets every element to f(its class representative's number).
    template <class F>
    Matrix fill(F f) const {
        Matrix m = matrix();
        for (int n = 0; n < count(); ++n) m.v[n] = f(element(rep[n]), rep[n]);
        return m;
    }
    std::string where(int n) const {
        std::string s;
        for (size_t i = 0; i < locations[n].size() && i < 2; ++i) s += (i ? ", " : "") + loc_text(locations[n][i]);
        if (locations[n].size() > 2) s += ", ...";
        return s.empty() ? "nowhere" : s;
    }
};

int bit_width(int v) {
    int b = 0;
    while ((1 << b) <= v) ++b;
    return b;
}

// Index pairs: positions of the two stored values inside a dense group of four.
const int kPairs[6][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}};

class Prober {
public:
    Prober(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, Device& dev, const VerifyOptions& o,
           Report& r)
        : ins_(ins), t_(t), mods_(mods), dev_(dev), opts_(o), r_(r) {
        auto claimed = [&](Operand op) {
            return opts_.claimed ? opts_.claimed(op) : probe_layout(ins, t, op, mods);
        };
        for (Operand op : probe_operands(ins)) claims_.emplace_back(op, Claim(compressed(ins, claimed(op))));
    }

    const Claim& claim(Operand op) const {
        for (const auto& c : claims_)
            if (c.first == op) return c.second;
        throw Error("internal: no claim for operand " + std::string(operand_name(op)));
    }
    bool has(Operand op) const {
        for (const auto& c : claims_)
            if (c.first == op) return true;
        return false;
    }

    // Neutral inputs: zeros, index pattern `pattern` (sparse), unit scales.
    Inputs neutral(int pattern = 0) const {
        Inputs x;
        x.A = claim(Operand::A).matrix();
        x.B = claim(Operand::B).matrix();
        x.C = claim(Operand::C).matrix();
        if (has(Operand::K))
            x.K = claim(Operand::K).fill([&](const Element& e, int) { return double(kPairs[pattern][e.col % 2]); });
        if (has(Operand::SA)) x.SA = claim(Operand::SA).matrix(1.0);
        if (has(Operand::SB)) x.SB = claim(Operand::SB).matrix(1.0);
        return x;
    }

    // Dense k that compressed column c reaches under `x`'s index (row i, block b).
    int dense_k(const Inputs& x, int b, int i, int c) const {
        if (!ins_.sparse()) return c;
        return 4 * (c / 2) + int(x.K.at(x.K.blocks == 1 ? 0 : b, i, c));
    }

    struct Outcome {
        std::vector<double> found, expected;  // per claimed D entry
    };

    Outcome execute(const Inputs& x) {
        ProbeLaunch p;
        p.ins = &ins_;
        p.target = &t_;
        p.mods = mods_;
        const Claim& D = claim(Operand::D);
        p.lanes = D.L.lanes;
        p.d_regs = D.L.regs;
        Inputs& xi = const_cast<Inputs&>(x);
        for (const auto& c : claims_) {
            if (c.first == Operand::D) continue;
            const ClaimedLayout& L = c.second.L;
            RegisterFile rf(L.lanes, L.regs);
            // NVIDIA metadata: lanes and nibbles the claim does not use hold a
            // valid index pair (2,3) that the probe's own patterns vary from,
            // so a device reading metadata from other lanes than claimed shows.
            if (c.first == Operand::K && detail::nv_spelling(ins_)) std::fill(rf.words.begin(), rf.words.end(), 0xEEEEEEEEu);
            const Matrix& m = xi.of(c.first);
            // A probe uses few distinct values: encode each once.
            std::vector<std::pair<double, uint64_t>> seen;
            for (const Entry& e : L.entries) {
                const double v = m.at(e.element);
                auto it = std::find_if(seen.begin(), seen.end(), [v](const auto& p) { return p.first == v; });
                if (it != seen.end()) {
                    write_bits(rf, e.loc, it->second);
                    continue;
                }
                const uint64_t bits = encode_value(L.type, t_.family, v);
                if (seen.size() < 16) seen.emplace_back(v, bits);
                write_bits(rf, e.loc, bits);
            }
            p.inputs.emplace_back(c.first, std::move(rf));
        }
        RegisterFile out = dev_.run(p);
        if (out.lanes != D.L.lanes || out.regs != D.L.regs)
            throw Error("device returned " + std::to_string(out.regs) + " registers x " + std::to_string(out.lanes) +
                        " lanes for D; expected " + std::to_string(D.L.regs) + " x " + std::to_string(D.L.lanes));
        Matrix ref = compute_d(ins_, t_, mods_, x, D.matrix());
        Outcome o;
        for (const Entry& e : D.L.entries) {
            o.found.push_back(decode_value(D.L.type, t_.family, read_bits(out, e.loc)));
            o.expected.push_back(ref.at(e.element));
        }
        ++r_.probes;
        r_.slots_checked += long(D.L.entries.size());
        return o;
    }

    void mismatch(const std::string& probe, size_t entry, double expected, double found, std::string why) {
        ++r_.mismatch_count;
        // The first mismatches of each probe series: a wrong B also shows in
        // the A probe, and the report should show both.
        if (++mismatches_per_series_[probe.substr(0, probe.find(' '))] > opts_.max_mismatches) return;
        const Entry& e = claim(Operand::D).L.entries[entry];
        r_.mismatches.push_back({probe, e.element, e.loc, expected, found, std::move(why)});
    }
    // Cells as core names them: sparse A and K in dense coordinates (the
    // group's four k share the slot).
    void issue(Operand op, const Element& e, std::string note) {
        if (++issues_per_operand_[int(op)] > 4096) return;  // enough to colour every cell of any operand
        if (ins_.sparse() && (op == Operand::A || op == Operand::K) && claim(op).L.cols * 2 == ins_.k) {
            for (int k = 4 * (e.col / 2); k < 4 * (e.col / 2) + 4; ++k) r_.issues.push_back({op, {e.block, e.row, k}, note});
            return;
        }
        r_.issues.push_back({op, e, std::move(note)});
    }

    bool exact_tags(const Claim& X) const {
        // Integers 1..n are all exact in a float type when n and n - 1 are
        // (the first inexact one is odd).
        try {
            encode_value(X.L.type, t_.family, double(X.count()));
            if (X.count() > 1) encode_value(X.L.type, t_.family, double(X.count() - 1));
            return true;
        } catch (const Error&) {
            return false;
        }
    }

    // ldmatrix / stmatrix: every element of every 8x8 matrix carries its own
    // tag; its row sits where the lane that PTX names (8m + r) points, rows
    // scattered over shared memory, decoy rows behind the unused lanes.
    void probe_rows(bool store) {
        const Claim& D = claim(Operand::D);
        detail::RowImage img = detail::scattered_rows(D.L.blocks);
        ProbeLaunch p;
        p.ins = &ins_;
        p.target = &t_;
        p.mods = mods_;
        p.lanes = D.L.lanes;
        p.d_regs = D.L.regs;
        if (store) {
            RegisterFile rf(D.L.lanes, D.L.regs);
            for (const Entry& e : D.L.entries)
                write_bits(rf, e.loc, detail::row_tag(e.element.block, e.element.row, e.element.col));
            p.inputs.emplace_back(Operand::D, std::move(rf));
        } else {
            for (int m = 0; m < D.L.blocks; ++m)
                for (int r = 0; r < 8; ++r)
                    for (int c = 0; c < 8; ++c) img.set(img.row_of(m, r), c, detail::row_tag(m, r, c));
        }
        p.shared_rows = img.words;
        p.lane_address = img.lane_address;
        const RegisterFile out = dev_.run(p);
        ++r_.probes;
        r_.slots_checked += long(D.L.entries.size());
        const size_t want_words = store ? img.words.size() : size_t(D.L.lanes) * D.L.regs;
        if (out.words.size() != want_words)
            throw Error("device returned " + std::to_string(out.words.size()) + " words; expected " +
                        std::to_string(want_words));
        auto what = [&](uint32_t v) -> std::string {
            if (v >= 1 && v <= uint32_t(64 * D.L.blocks)) {
                const Element e{int(v - 1) / 64, int(v - 1) / 8 % 8, int(v - 1) % 8};
                return elem_text(Operand::D, e, D.L.blocks) + " (row " + std::to_string(e.row) + " of matrix " +
                       std::to_string(e.block) + ", addressed by lane " + std::to_string(8 * e.block + e.row) +
                       "; claimed at " + D.where(D.index(e)) + ")";
            }
            if (v >= detail::kDecoy && v < detail::kDecoy + 8u * unsigned(img.rows))
                return "a decoy row's value (an address from a lane >= " + std::to_string(8 * D.L.blocks) +
                       ", which must be ignored)";
            if (v == detail::kUnwritten) return "nothing (that memory was never written)";
            std::ostringstream h;
            h << "the value 0x" << std::hex << v;
            return h.str();
        };
        detail::RowImage got = img;
        if (store) got.words = out.words;
        for (size_t n = 0; n < D.L.entries.size(); ++n) {
            const Entry& e = D.L.entries[n];
            const uint32_t tag = detail::row_tag(e.element.block, e.element.row, e.element.col);
            const uint32_t found = store ? got.element(img.row_of(e.element.block, e.element.row), e.element.col)
                                         : uint32_t(read_bits(out, e.loc));
            if (found == tag) continue;
            const std::string why =
                store ? "memory at row " + std::to_string(e.element.row) + " of matrix " + std::to_string(e.element.block) +
                            " (addressed by lane " + std::to_string(8 * e.element.block + e.element.row) + "), column " +
                            std::to_string(e.element.col) + " holds " + what(found)
                      : "the slot holds " + what(found);
            issue(Operand::D, e.element, "hardware: " + why);
            // Name the slot: the claimed one, and the one the value came from.
            mismatch(store ? "rows (stmatrix)" : "rows (ldmatrix)", n, tag, found, why);
        }
        if (store)
            for (int slot = 0; slot < img.rows; ++slot)
                for (int c = 0; c < 8; ++c) {
                    const uint16_t before = img.element(slot, c), after = got.element(slot, c);
                    if (before == after || before == detail::kUnwritten) continue;
                    ++r_.mismatch_count;
                    if (++mismatches_per_series_["decoy"] > opts_.max_mismatches) continue;
                    Mismatch m;
                    m.probe = "decoy rows (stmatrix)";
                    m.expected = before;
                    m.found = after;
                    m.explanation = "a decoy row (address from a lane >= " + std::to_string(8 * D.L.blocks) +
                                    ") was written with " + what(after);
                    if (after >= 1 && after <= uint32_t(64 * D.L.blocks)) {
                        m.d = {int(after - 1) / 64, int(after - 1) / 8 % 8, int(after - 1) % 8};
                        m.at = D.locations[D.index(m.d)].empty() ? Location{} : D.locations[D.index(m.d)].front();
                    }
                    r_.mismatches.push_back(m);
                }
    }

    // C: every D slot shows the C element it received.
    void probe_c() {
        const Claim& C = claim(Operand::C);
        if (!exact_tags(C)) {
            // More elements than the type holds exact integers (wgmma f16 D):
            // the number of each C element spelled in bit planes, as for A.
            probe_planes(Operand::C, 1, "C", [](Inputs&, int) {});
            return;
        }
        Inputs x = neutral();
        x.C = C.fill([](const Element&, int n) { return double(n + 1); });
        Outcome o = execute(x);
        const Claim& D = claim(Operand::D);
        for (size_t n = 0; n < o.found.size(); ++n) {
            if (o.found[n] == o.expected[n]) continue;
            const Element& de = D.L.entries[n].element;
            const double mag = std::fabs(o.found[n]);
            std::string why;
            if (mag >= 1 && mag <= C.count() && mag == std::floor(mag)) {
                const int got = int(mag) - 1;
                why = "the device put " + elem_text(Operand::C, C.element(got), C.L.blocks) + " (claimed at " +
                      C.where(got) + ") here, not " + elem_text(Operand::C, de, C.L.blocks);
            } else {
                why = "the value " + num_text(o.found[n]) + " matches no C element";
            }
            issue(Operand::D, de, "hardware: " + why);
            issue(Operand::C, de, "hardware: " + why);
            mismatch("C", n, o.expected[n], o.found[n], why);
        }
    }

    // A or B: bit planes of each element's number, one selected term per D slot.
    // `select(x, g)` sets the other operand so that D(i, j) = X(i, kx(g, i, j)).
    template <class Select>
    void probe_planes(Operand op, int groups, const std::string& label, Select select) {
        const Claim& X = claim(op);
        const Claim& D = claim(Operand::D);
        const int planes = bit_width(X.count());
        for (int g = 0; g < groups; ++g) {
            std::vector<int> found_code(D.L.entries.size(), 0), expected_code(D.L.entries.size(), 0);
            std::vector<bool> bad(D.L.entries.size(), false), odd(D.L.entries.size(), false);
            std::vector<double> first_found(D.L.entries.size()), first_expected(D.L.entries.size());
            for (int q = 0; q < planes; ++q) {
                Inputs x = neutral();
                select(x, g);
                x.of(op) = X.fill([&](const Element&, int n) { return double(((n + 1) >> q) & 1); });
                Outcome o = execute(x);
                for (size_t n = 0; n < o.found.size(); ++n) {
                    const double f = std::fabs(o.found[n]), e = std::fabs(o.expected[n]);
                    if (o.found[n] != o.expected[n] && !bad[n]) {
                        bad[n] = true;
                        first_found[n] = o.found[n];
                        first_expected[n] = o.expected[n];
                    }
                    if (f != 0 && f != 1) odd[n] = true;
                    if (f == 1) found_code[n] |= 1 << q;
                    if (e == 1) expected_code[n] |= 1 << q;
                }
            }
            for (size_t n = 0; n < D.L.entries.size(); ++n) {
                if (!bad[n]) continue;
                std::string why;
                // Codes decode to element numbers 0..count-1; a device that adds several elements' bits can
                // produce a code beyond them (element numbers are never trusted as indices unchecked).
                const int want = expected_code[n] - 1, got = found_code[n] - 1;
                if (want >= X.count()) {
                    why = "value " + num_text(first_found[n]) + " instead of " + num_text(first_expected[n]);
                } else if (odd[n]) {
                    why = "D got a sum of several " + std::string(operand_name(op)) +
                          " terms (the device combined other elements than claimed)";
                    if (want >= 0) issue(op, X.element(want), "hardware: " + why);
                } else if (got < 0) {
                    why = want >= 0 ? "no " + std::string(operand_name(op)) + " element reached D; expected " +
                                          elem_text(op, X.element(want), X.L.blocks)
                                    : "value differs";
                    if (want >= 0) issue(op, X.element(want), "hardware: " + why);
                } else if (got >= X.count()) {
                    why = "the device's value decodes to no " + std::string(operand_name(op)) + " element (code " +
                          std::to_string(got + 1) + " of 1.." + std::to_string(X.count()) +
                          "): it combined several elements' bits";
                    if (want >= 0) issue(op, X.element(want), "hardware: " + why);
                } else if (want >= 0 && got != want) {
                    why = "expected " + elem_text(op, X.element(want), X.L.blocks) + " (claimed at " + X.where(want) +
                          "), the device used the value claimed for " + elem_text(op, X.element(got), X.L.blocks) +
                          " at " + X.where(got);
                    issue(op, X.element(want),
                          "hardware reads this element from " + X.where(got) + " (claimed for " +
                              elem_text(op, X.element(got), X.L.blocks) + ")");
                } else {
                    why = "value " + num_text(first_found[n]) + " instead of " + num_text(first_expected[n]);
                }
                mismatch(label + " group " + std::to_string(g), n, first_expected[n], first_found[n], why);
            }
        }
    }

    void probe_a() {
        const Claim& A = claim(Operand::A);
        const int N = claim(Operand::D).L.cols;
        const int groups = (A.L.cols + N - 1) / N;
        probe_planes(Operand::A, groups, "A", [&](Inputs& x, int g) {
            x.B = claim(Operand::B).fill([&](const Element& e, int) {
                const int c = g * N + e.col;
                return c < A.L.cols && e.row == dense_k(x, 0, 0, c) ? 1.0 : 0.0;
            });
        });
    }

    void probe_b(int pattern) {
        const Claim& B = claim(Operand::B);
        const int M = claim(Operand::D).L.rows;
        const int groups = (B.L.rows + M - 1) / M;
        probe_planes(Operand::B, groups, ins_.sparse() ? "B (index pattern " + std::to_string(pattern) + ")" : "B",
                     [&](Inputs& x, int g) {
                         x = neutral(pattern);
                         x.A = claim(Operand::A).fill([&](const Element& e, int) {
                             return dense_k(x, e.block, e.row, e.col) == g * M + e.row ? 1.0 : 0.0;
                         });
                     });
    }

    // K: index pairs that vary by row and group; D shows which dense k was used.
    void probe_k() {
        const Claim& K = claim(Operand::K);
        const Claim& D = claim(Operand::D);
        const int N = D.L.cols;
        const int dense = claim(Operand::B).L.rows;
        for (int g = 0; g < (dense + N - 1) / N; ++g) {
            Inputs x = neutral();
            x.K = K.fill([](const Element& e, int) {
                const int pair = (e.block * 5 + e.row * 3 + e.col / 2) % 6;
                return double(kPairs[pair][e.col % 2]);
            });
            x.A = claim(Operand::A).matrix(1.0);
            x.B = claim(Operand::B).fill([&](const Element& e, int) { return e.row == g * N + e.col ? 1.0 : 0.0; });
            Outcome o = execute(x);
            for (size_t n = 0; n < o.found.size(); ++n) {
                if (o.found[n] == o.expected[n]) continue;
                const Element& de = D.L.entries[n].element;
                const int k = g * N + de.col;
                const Element ke{K.L.blocks == 1 ? 0 : de.block, de.row, 2 * (k / 4)};
                const Element ke2{ke.block, ke.row, ke.col + 1};
                std::string why = "row " + std::to_string(de.row) + " should " +
                                  (o.expected[n] != 0 ? "" : "not ") + "select dense k = " + std::to_string(k) +
                                  " through its index " + elem_text(Operand::K, ke, K.L.blocks) + "/" +
                                  std::to_string(ke2.col) + " (claimed at " + K.where(K.index(ke)) + ")";
                issue(Operand::K, ke, "hardware: " + why);
                mismatch("K group " + std::to_string(g), n, o.expected[n], o.found[n], why);
            }
        }
    }

    // SA / SB: scale of element n is 2^(n+1); one selected term per D element.
    void probe_scale(Operand op) {
        const Claim& S = claim(op);
        const Claim& D = claim(Operand::D);
        const int blocks32 = claim(Operand::B).L.rows / 32;
        Inputs x = neutral();
        const bool is_a = op == Operand::SA;
        // The selected term of D(i, j): k = 32 * kb with kb = j % blocks32 (SA) or i % blocks32 (SB).
        x.A = claim(Operand::A).fill([&](const Element& e, int) {
            return (e.col % 32 == 0 && (is_a || e.col / 32 == e.row % blocks32)) ? 1.0 : 0.0;
        });
        x.B = claim(Operand::B).fill([&](const Element& e, int) {
            return (e.row % 32 == 0 && (!is_a || e.row / 32 == e.col % blocks32)) ? 1.0 : 0.0;
        });
        x.of(op) = S.fill([](const Element&, int n) { return std::ldexp(1.0, n + 1); });
        Outcome o = execute(x);
        for (size_t n = 0; n < o.found.size(); ++n) {
            if (o.found[n] == o.expected[n]) continue;
            const Element& de = D.L.entries[n].element;
            const Element want = is_a ? Element{0, de.row, de.col % blocks32} : Element{0, de.row % blocks32, de.col};
            int e2 = 0;
            const double m = std::frexp(std::fabs(o.found[n]), &e2);
            std::string why = "expected the scale " + elem_text(op, want, 1);
            if (m == 0.5 && e2 - 2 >= 0 && e2 - 2 < S.count())
                why += ", the device applied the one claimed for " + elem_text(op, S.element(e2 - 2), 1) + " at " +
                       S.where(e2 - 2);
            issue(op, want, "hardware: " + why);
            mismatch(std::string(operand_name(op)), n, o.expected[n], o.found[n], why);
        }
    }

private:
    const Instruction& ins_;
    const Target& t_;
    const ResolvedModifiers& mods_;
    Device& dev_;
    const VerifyOptions& opts_;
    Report& r_;
    std::vector<std::pair<Operand, Claim>> claims_;
    int issues_per_operand_[8] = {};
    std::map<std::string, size_t> mismatches_per_series_;
};

}  // namespace

Report verify(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, Device& dev,
              const VerifyOptions& opts) {
    const auto t0 = std::chrono::steady_clock::now();
    Report r;
    r.instruction = ins.mnemonic;
    r.target = t.gfx;
    r.modifiers = mods.describe();
    if (ins.families.front() == Family::RDNA3 || ins.families.front() == Family::RDNA4)
        r.modifiers = "wave" + std::to_string(mods.wave) + (r.modifiers.empty() ? "" : " " + r.modifiers);
    r.device = dev.name();
    std::string why;
    if (!dev.supports(ins, t, &why)) throw Error(ins.mnemonic + " on " + t.gfx + ": " + why);
    if (ins.kind == LayoutKind::Tcgen05LdSt)  // a Blackwell GPU's own probe (CudaDevice::supports let it through)
        if (auto* cuda = dynamic_cast<CudaDevice*>(&dev)) return verify_tcgen05_ldst(*cuda, ins, t);
    if (ins.kind == LayoutKind::Tcgen05Mma)
        if (auto* cuda = dynamic_cast<CudaDevice*>(&dev)) return verify_tcgen05_mma(*cuda, ins, t, mods);
    Prober p(ins, t, mods, dev, opts, r);
    std::vector<std::function<void()>> series = {[&] { p.probe_c(); }, [&] { p.probe_a(); }, [&] { p.probe_b(0); }};
    const auto nv = detail::nv_spelling(ins);
    if (nv && (nv->cls == detail::NvClass::LdMatrix || nv->cls == detail::NvClass::StMatrix))
        series = {[&, store = nv->cls == detail::NvClass::StMatrix] { p.probe_rows(store); }};
    else if (ins.sparse()) {
        series.push_back([&] { p.probe_b(1); });
        series.push_back([&] { p.probe_k(); });
    }
    if (ins.kind == LayoutKind::MfmaScaled && ins.scales) {
        series.push_back([&] { p.probe_scale(Operand::SA); });
        series.push_back([&] { p.probe_scale(Operand::SB); });
    }
    // C, A and B always run together: a misplaced B also disturbs the A probe
    // (and the other way round); only both together say which one is wrong.
    for (size_t n = 0; n < series.size(); ++n) {
        series[n]();
        if (opts.stop_at_first_failure && n >= 2 && r.mismatch_count > 0) break;
    }
    r.checked = operands_of(ins);
    r.passed = r.mismatch_count == 0;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

std::string Mismatch::text() const {
    // The A and B probes spread each value over bit planes: their explanation
    // names the elements, a single plane's value would only confuse.
    const bool planes = probe[0] == 'A' || probe[0] == 'B';
    return "probe " + probe + ": D(" + std::to_string(d.block) + "," + std::to_string(d.row) + "," +
           std::to_string(d.col) + ") at " + loc_text(at) + ": " +
           (planes ? "" : "expected " + num_text(expected) + ", found " + num_text(found) + " -- ") + explanation;
}

std::string Report::summary() const {
    std::string s = std::string(passed ? "PASS" : "FAIL") + " " + instruction + " on " + target;
    if (!modifiers.empty()) s += " (" + modifiers + ")";
    s += ": " + std::to_string(probes) + " probes, " + std::to_string(slots_checked) + " D slots";
    if (!passed) s += ", " + std::to_string(mismatch_count) + " mismatches";
    return s;
}

}  // namespace lanescope::gpu
