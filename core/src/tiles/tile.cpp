// Tiles of many waves (tile.hpp): Triton's AMD composition of one instruction
// over a wave grid, sub-tiles per wave and repetitions over the tensor shape.
//
// Source: triton-lang/triton lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp
// (AMDMfmaEncodingAttr::toLinearLayout, mfmaDotToLinearLayout,
// AMDWmmaEncodingAttr::toLinearLayout via chooseWmmaCTALinearLayout,
// wmmaDotOperandToLinearLayout; combineCtaCgaWithShape adds the repetitions
// left after the CTA tile). Register order (fastest first) per docs/tiles.md.
#include "lanescope/tile.hpp"

#include "lanescope/numbers.hpp"

#include <algorithm>

namespace lanescope {

namespace {

enum class Role { A, B, C };

Role role_of(Operand op) {
    switch (op) {
        case Operand::A:
        case Operand::K:
        case Operand::SA: return Role::A;
        case Operand::B:
        case Operand::SB: return Role::B;
        default: return Role::C;
    }
}


bool power_of_two(long long v) { return v > 0 && (v & (v - 1)) == 0; }

std::string join(const std::vector<int>& v, const char* sep) {
    std::string s;
    for (size_t n = 0; n < v.size(); ++n) s += (n ? sep : "") + num(v[n]);
    return s;
}

std::string_view triton_name(TritonLayout l) {
    switch (l) {
        case TritonLayout::Mfma: return "MFMA";
        case TritonLayout::Wmma1: return "WMMA version 1 (RDNA3)";
        case TritonLayout::Wmma2: return "WMMA version 2 (RDNA4)";
        case TritonLayout::Wmma3: return "WMMA version 3 (gfx1250)";
        case TritonLayout::None: break;
    }
    return "none";
}

// One element slot of a lane: the instruction element whose lowest bits a
// register holds, in register-and-bit order (what Triton's `register` counts).
struct Slot {
    Element element;
    int reg = 0, bit_lo = 0;
};

// The slots of one lane; false when two elements share bits (broadcast
// modifiers) and so the lane has no one element per slot.
bool lane_slots(const OperandLayout& L, int lane, std::vector<Slot>& out) {
    out.clear();
    for (int reg = 0; reg < L.regs(); ++reg) {
        std::vector<SlotPart> parts = L.which(reg, lane);
        std::sort(parts.begin(), parts.end(), [](const SlotPart& a, const SlotPart& b) {
            return a.bit_lo != b.bit_lo ? a.bit_lo < b.bit_lo : a.element < b.element;
        });
        for (size_t n = 0; n < parts.size(); ++n) {
            if (n > 0 && parts[n].bit_lo == parts[n - 1].bit_lo) return false;
            if (parts[n].elem_bit_lo == 0) out.push_back({parts[n].element, reg, parts[n].bit_lo});
        }
    }
    return true;
}

// Triton's C/D of one instruction (AMDMfmaEncodingAttr / AMDWmmaEncodingAttr
// toLinearLayout, not transposed): the element of register index r of `lane`.
Element triton_c(TritonLayout l, int m, int lane, int r) {
    switch (l) {
        case TritonLayout::Mfma:
            if (m == 32) return {0, (r & 3) + 8 * ((r >> 2) & 3) + 4 * (lane / 32), lane % 32};
            return {0, (r & 3) + 4 * (lane / 16), lane % 16};
        case TritonLayout::Wmma1: return {0, 2 * r + lane / 16, lane % 16};
        case TritonLayout::Wmma2:
        case TritonLayout::Wmma3: return {0, r + 8 * (lane / 16), lane % 16};
        case TritonLayout::None: break;
    }
    return {};
}

int triton_c_slots(TritonLayout l, int m) {
    if (l == TritonLayout::Mfma) return m == 32 ? 16 : 4;
    return 8;
}

}  // namespace

TritonLayout triton_layout_of(Family f) {
    switch (f) {
        case Family::CDNA1:
        case Family::CDNA2:
        case Family::CDNA3:
        case Family::CDNA4: return TritonLayout::Mfma;
        case Family::RDNA3: return TritonLayout::Wmma1;
        case Family::RDNA4: return TritonLayout::Wmma2;
        case Family::CDNA5: return TritonLayout::Wmma3;  // gfx1250/gfx1251: AMDWMMALayout(version=3)
        default: return TritonLayout::None;
    }
}

std::vector<int> triton_k_widths(TritonLayout l) {
    switch (l) {
        case TritonLayout::Wmma1: return {8, 16};
        case TritonLayout::Wmma2: return {4, 8, 16};
        case TritonLayout::Wmma3: return {2, 8, 16};
        case TritonLayout::Mfma: return {1, 2, 4, 8, 16, 32, 64};
        case TritonLayout::None: break;
    }
    return {};
}

std::string tile_limits_help() {
    return "limits: WMxWN at most " + num(TileLimits::waves) + " waves, RMxRN at most " + num(TileLimits::tiles_per_wave) +
           " tiles per wave, at most " + num(TileLimits::cells) + " elements per operand, " + num(TileLimits::registers) +
           " registers per lane and " + num(TileLimits::placements) + " (wave, lane, element) placements";
}

bool TileParams::single() const {
    return waves_m == 1 && waves_n == 1 && tiles_m == 1 && tiles_n == 1 && m == 0 && n == 0 && k == 0 && k_width == 0 &&
           !transposed;
}

std::string TileParams::describe() const {
    return "waves " + num(waves_m) + "x" + num(waves_n) + ", tiles per wave " + num(tiles_m) + "x" + num(tiles_n) +
           ", shape " + num(m) + "x" + num(n) + "x" + num(k) + (k_width ? ", kWidth " + num(k_width) : "") +
           (transposed ? ", transposed" : "");
}

std::string_view tile_digit_name(TileDigit d) {
    switch (d) {
        case TileDigit::KStep: return "k_step";
        case TileDigit::TileM: return "tile_m";
        case TileDigit::TileN: return "tile_n";
        case TileDigit::RepeatM: return "repeat_m";
        case TileDigit::RepeatN: return "repeat_n";
    }
    return "?";
}

bool TileLocation::operator<(const TileLocation& o) const {
    if (wave != o.wave) return wave < o.wave;
    return loc < o.loc;
}

bool TileLayout::a_like() const { return role_of(operand()) == Role::A; }
bool TileLayout::b_like() const { return role_of(operand()) == Role::B; }

TileParams TileParams::for_operand(Operand op) const {
    TileParams p = *this;
    if (op == Operand::K || op == Operand::SA || op == Operand::SB) {
        p.k_width = 0;
        p.transposed = false;
    }
    return p;
}

TileLayout::TileLayout(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                       const TileParams& p)
    : instr_(layout_of(ins, t, op, mods)), params_(p) {
    using LL = long long;
    const LL waves = static_cast<LL>(p.waves_m) * p.waves_n, tiles = static_cast<LL>(p.tiles_m) * p.tiles_n;
    if (p.waves_m < 1 || p.waves_n < 1 || waves > TileLimits::waves)
        throw Error("waves " + num(p.waves_m) + "x" + num(p.waves_n) + " is not legal: each count 1 or more and WM x WN at most " +
                    num(TileLimits::waves) + " waves (" + tile_limits_help() + ")");
    if (p.tiles_m < 1 || p.tiles_n < 1 || tiles > TileLimits::tiles_per_wave)
        throw Error("tiles per wave " + num(p.tiles_m) + "x" + num(p.tiles_n) +
                    " is not legal: each count 1 or more and RM x RN at most " + num(TileLimits::tiles_per_wave) + " (" +
                    tile_limits_help() + ")");
    if (p.m < 0 || p.n < 0 || p.k < 0)
        throw Error("a tile shape must not be negative (a positive count; the shape a multiple of the wave grid's tile)");
    if (instr_.space() != Space::Registers && !p.single())  // one descriptor per instruction, not per wave
        throw Error(std::string(operand_name(op)) + " of " + ins.mnemonic + " lives in " +
                    std::string(space_title(instr_.space())) +
                    (instr_.space() == Space::SharedMemory ? ", read through a matrix descriptor"
                                                           : ", at a Tensor Memory address, in no lane's registers") +
                    ": tiles compose the register layouts of many waves, so --waves, "
                    "--tiles-per-wave, --shape, --k-width and --transposed apply to its register operands");
    if (instr_.blocks() != 1)
        throw Error(ins.mnemonic + " has " + num(instr_.blocks()) +
                    " blocks; tiles are modelled for single-block instructions only (as Triton's MFMA layouts)");
    if (ins.k == 0 && !p.single())  // ldmatrix/stmatrix: a move between memory and registers, no K
        throw Error(ins.mnemonic +
                    " moves 8x8 matrices between shared memory and registers; it has no K and is not composed into "
                    "tiles: --waves, --tiles-per-wave, --shape, --k-width and --transposed apply to MMA instructions "
                    "(mma, wgmma, MFMA, WMMA)");
    const Role role = role_of(op);
    // Instruction extents in M, N and (in this operand's units) K; every product in 64 bits.
    const LL m0 = role == Role::B ? ins.m : instr_.rows();
    const LL n0 = role == Role::A ? ins.n : instr_.cols();
    const LL cta_m = m0 * p.tiles_m * p.waves_m, cta_n = n0 * p.tiles_n * p.waves_n;
    const LL m = p.m ? p.m : cta_m, n = p.n ? p.n : cta_n, k = p.k ? p.k : ins.k;
    const auto too_large = [&](const std::string& what) {
        return Error(what + " is too large: at most " + num(TileLimits::cells) + " elements per operand (" +
                     tile_limits_help() + ")");
    };
    if (cta_m > TileLimits::cells || cta_n > TileLimits::cells)
        throw too_large("the wave grid's tile " + num(cta_m) + "x" + num(cta_n) + " (instruction " + num(m0) + "x" +
                        num(n0) + " x tiles per wave " + num(p.tiles_m) + "x" + num(p.tiles_n) + " x waves " +
                        num(p.waves_m) + "x" + num(p.waves_n) + ")");
    if (m % cta_m != 0)
        throw Error("tile shape M = " + num(m) + " is not a multiple of the wave grid's M tile " + num(cta_m) +
                    " (instruction M " + num(m0) + " x tiles " + num(p.tiles_m) + " x waves " + num(p.waves_m) + ")");
    if (n % cta_n != 0)
        throw Error("tile shape N = " + num(n) + " is not a multiple of the wave grid's N tile " + num(cta_n) +
                    " (instruction N " + num(n0) + " x tiles " + num(p.tiles_n) + " x waves " + num(p.waves_n) + ")");
    if (ins.k != 0 && k % ins.k != 0)
        throw Error("tile shape K = " + num(k) + " is not a multiple of the instruction's K " + num(ins.k));
    if (m * n > TileLimits::cells || m * k > TileLimits::cells || k * n > TileLimits::cells)
        throw too_large("tile shape " + num(m) + "x" + num(n) + "x" + num(k));
    params_.m = static_cast<int>(m);
    params_.n = static_cast<int>(n);
    params_.k = static_cast<int>(k);
    rep_m_ = static_cast<int>(m / cta_m);
    rep_n_ = static_cast<int>(n / cta_n);
    k_steps_ = ins.k == 0 ? 1 : static_cast<int>(k / ins.k);

    // Which of Triton's layouts this operand follows: the family's, where the
    // instruction's own layout (one instruction, its own kWidth) is Triton's.
    const TritonLayout family = triton_layout_of(t.family);
    const int lanes = instr_.lanes();
    std::vector<Slot> slots;
    if (family != TritonLayout::None && (op == Operand::C || op == Operand::D) && instr_.rows() == instr_.cols() &&
        (family == TritonLayout::Mfma ? lanes == 64 && (instr_.rows() == 32 || instr_.rows() == 16)
                                      : lanes == 32 && instr_.rows() == 16)) {
        bool same = true;
        for (int lane = 0; lane < lanes && same; ++lane) {
            same = lane_slots(instr_, lane, slots) &&
                   static_cast<int>(slots.size()) == triton_c_slots(family, instr_.rows());
            for (size_t r = 0; same && r < slots.size(); ++r)
                same = slots[r].element == triton_c(family, instr_.rows(), lane, static_cast<int>(r));
        }
        if (same) triton_ = family;
    }
    // FP4/FP6 operands (f8f6f4 formats) are not Triton's dot operands (docs/tiles.md): its
    // FP4/FP6 paths pack elements and scale them (scaled dot), which is not modelled.
    const ElemType type = operand_type(ins, op, mods);
    const bool narrow_float = type == ElemType::FP4 || type == ElemType::FP6 || type == ElemType::BF6;
    if (family != TritonLayout::None && (op == Operand::A || op == Operand::B) && !narrow_float) {
        Dot& d = dot_;
        d.nonk = op == Operand::A ? instr_.rows() : instr_.cols();
        const int kk = op == Operand::A ? instr_.cols() : instr_.rows();
        bool ok = family == TritonLayout::Mfma ? lanes == 64 && (d.nonk == 32 || d.nonk == 16 || d.nonk == 4)
                                               : lanes == 32 && d.nonk == 16;
        if (ok) {
            d.groups = lanes / d.nonk;
            d.lanes_share = family == TritonLayout::Wmma1;
            d.slot_element.clear();
            for (int lane = 0; lane < lanes && ok; ++lane) {
                ok = lane_slots(instr_, lane, slots) && !slots.empty() &&
                     (lane == 0 || static_cast<int>(slots.size()) == d.slots);
                if (lane == 0) d.slots = static_cast<int>(slots.size());
                for (const Slot& s : slots) d.slot_element.push_back(s.element);
            }
            ok = ok && power_of_two(d.slots) && power_of_two(kk) && (d.lanes_share ? d.slots == kk : d.slots * d.groups == kk);
        }
        if (ok) {
            // The instruction's own kWidth: RDNA3 lanes hold all of K; otherwise
            // the consecutive K from the first slot of lane 0.
            int w = d.slots;
            if (!d.lanes_share) {
                const auto kof = [&](const Element& e) { return op == Operand::A ? e.col : e.row; };
                w = 1;
                while (w * 2 <= d.slots) {
                    bool run = true;
                    for (int e = w; e < 2 * w && run; ++e) run = kof(d.slot_element[static_cast<size_t>(e)]) == e;
                    if (!run) break;
                    w *= 2;
                }
            }
            // Check: one instruction at that kWidth is Triton's layout, slot for slot.
            native_k_width_ = k_width_ = w;
            triton_ = family;
            use_dot_ = true;
            const TileParams keep = params_;
            const int keep_rep_m = rep_m_, keep_rep_n = rep_n_;
            params_ = TileParams{};
            params_.m = op == Operand::A ? instr_.rows() : kk;
            params_.n = op == Operand::A ? kk : instr_.cols();
            params_.k = kk;
            rep_m_ = rep_n_ = 1;
            d.ke1 = d.lanes_share ? std::min(kk, std::max(w, kk / 2)) : std::max(w, kk / d.groups);
            d.ke2 = d.lanes_share ? kk / d.ke1 : 1;
            for (int lane = 0; lane < lanes && ok; ++lane)
                for (int e = 0; e < d.slots && ok; ++e)
                    ok = dot_element(0, lane, e) == d.slot_element[static_cast<size_t>(lane * d.slots + e)];
            params_ = keep;
            rep_m_ = keep_rep_m;
            rep_n_ = keep_rep_n;
            if (!ok) {
                native_k_width_ = k_width_ = 0;
                triton_ = TritonLayout::None;
                use_dot_ = false;
            }
        }
    }

    // kWidth and transposed: Triton's parameters, refused where not modelled.
    const std::string where_modelled =
        "; Triton's AMD layouts are modelled for A/B (kWidth) and C/D (transposed) of single-block MFMA (wave64) and "
        "WMMA (wave32) instructions whose own layout is Triton's; legal: leave the option out here";
    // K, SA and SB (the sparse index, the block scales) are no operand of Triton's MFMA/WMMA layouts.
    if ((p.k_width != 0 || p.transposed) && (op == Operand::K || op == Operand::SA || op == Operand::SB))
        throw Error(std::string(p.k_width ? "--k-width" : "--transposed") + " applies to " +
                    (p.k_width ? "A and B (Triton's dot operands; C and D do not depend on it)"
                               : "C and D (Triton's MFMA/WMMA accumulator; A and B do not depend on it)") +
                    "; " + std::string(operand_name(op)) + " of " + ins.mnemonic + " is " +
                    (op == Operand::K ? "the sparse index" : "a block scale") +
                    ", which no Triton layout parameter describes; legal: --operand A, B, C or D");
    if (p.k_width != 0 && narrow_float && (op == Operand::A || op == Operand::B))
        throw Error("--k-width: " + std::string(operand_name(op)) + " of " + ins.mnemonic + " on " + t.gfx + " is " +
                    std::string(elem_name(type)) +
                    "; FP4/FP6 operands are not Triton's dot operands here (its FP4/FP6 paths pack and scale them, "
                    "which is not modelled), so kWidth does not apply; legal: leave --k-width out, or an FP8/BF8 format"
                    + where_modelled);
    if (p.k_width != 0) {
        if (!power_of_two(p.k_width) || p.k_width > 64)
            throw Error("--k-width " + num(p.k_width) + " is not legal: a power of two 1..64");
        if ((op == Operand::A || op == Operand::B) && !use_dot_)
            throw Error("--k-width applies to A and B as Triton lays them out; " + std::string(operand_name(op)) + " of " +
                        ins.mnemonic + " on " + t.gfx + " is lanescope's own composition" + where_modelled);
        if (family == TritonLayout::None)
            throw Error("--k-width is a parameter of Triton's AMD dot operands; " + t.gfx + " is not AMD; legal: leave --k-width out");
        if (use_dot_) {
            const std::vector<int> legal = triton_k_widths(triton_);
            if (std::find(legal.begin(), legal.end(), p.k_width) == legal.end())
                throw Error("--k-width " + num(p.k_width) + " is not one Triton accepts for " +
                            std::string(triton_name(triton_)) + " dot operands; legal: " + join(legal, ", ") +
                            " (the instruction's own: " + num(native_k_width_) + ")");
            k_width_ = p.k_width;
        }
    }
    if (p.transposed) {
        if (family == TritonLayout::None)
            throw Error("--transposed is a parameter of Triton's AMD MFMA/WMMA layouts; " + t.gfx + " is not AMD; legal: leave --transposed out");
        if (role == Role::C && triton_ == TritonLayout::None)
            throw Error("--transposed: " + std::string(operand_name(op)) + " of " + ins.mnemonic + " on " + t.gfx +
                        " is not laid out as Triton's " + std::string(triton_name(family)) + " C/D" + where_modelled);
    }

    using D = TileDigit;
    const int RM = p.tiles_m, RN = p.tiles_n;
    switch (role) {
        case Role::C:
            rows_ = params_.m;
            cols_ = params_.n;
            // Triton (MFMA and WMMA alike): tilesPerWarpN, the rest of N,
            // tilesPerWarpM, the rest of M. NVIDIA (not Triton's): tilesPerWarpN,
            // tilesPerWarpM, then the rest of N and of M.
            if (family != TritonLayout::None)
                order_ = {{D::TileN, RN}, {D::RepeatN, rep_n_}, {D::TileM, RM}, {D::RepeatM, rep_m_}};
            else
                order_ = {{D::TileN, RN}, {D::TileM, RM}, {D::RepeatN, rep_n_}, {D::RepeatM, rep_m_}};
            break;
        case Role::A:
        case Role::B: {
            const bool a = role == Role::A;
            const D tile = a ? D::TileM : D::TileN, rep = a ? D::RepeatM : D::RepeatN;
            const int count = a ? RM : RN, reps = a ? rep_m_ : rep_n_;
            if (a) {
                rows_ = params_.m;
                cols_ = k_steps_ * instr_.cols();
            } else {
                rows_ = k_steps_ * instr_.rows();
                cols_ = params_.n;
            }
            if (use_dot_) {
                Dot& d = dot_;
                const int kk = params_.k, w = k_width_;
                if (d.lanes_share) {
                    // WMMA v1: kWidth registers, then kSize / (2 kWidth) more along K
                    // (the upper lanes repeat the lower ones), the sub-tiles, then the
                    // rest of K.
                    d.ke1 = std::min(kk, std::max(w, kk / 2));
                    d.ke2 = kk / d.ke1;
                } else {
                    // MFMA, WMMA v2/v3: kWidth registers, the lane groups, then
                    // kSize / (kWidth x groups) more along K, all before the sub-tiles.
                    d.ke1 = std::max(w, kk / d.groups);
                    d.ke2 = 1;
                }
                // Step digits (instruction copies), fastest first.
                const int total_k = static_cast<int>(static_cast<LL>(d.ke1) * d.ke2 / d.slots);
                const int a1 = d.ke1 / d.slots;
                if (d.ke1 < d.slots)  // the sub-tiles split one instruction's K (RDNA3, kWidth 8, K 16)
                    order_ = {{tile, count}, {D::KStep, std::max(1, total_k)}, {rep, reps}};
                else if (d.ke2 > 1 && a1 > 1)
                    order_ = {{D::KStep, a1}, {tile, count}, {D::KStep, d.ke2}, {rep, reps}};
                else if (d.ke2 > 1)
                    order_ = {{tile, count}, {D::KStep, d.ke2}, {rep, reps}};
                else
                    order_ = {{D::KStep, a1}, {tile, count}, {rep, reps}};
            } else if (family == TritonLayout::Mfma || family == TritonLayout::Wmma2 || family == TritonLayout::Wmma3) {
                order_ = {{D::KStep, k_steps_}, {tile, count}, {rep, reps}};
            } else {
                order_ = {{tile, count}, {D::KStep, k_steps_}, {rep, reps}};
            }
            break;
        }
    }
    LL steps = 1;
    if (use_dot_) {
        steps = static_cast<LL>(dot_.ke1) * dot_.ke2 / dot_.slots * (role == Role::A ? RM : RN) *
                (role == Role::A ? rep_m_ : rep_n_);
        if (steps < 1) steps = 1;
    } else {
        for (const auto& dg : order_) steps *= dg.second;
    }
    const LL regs = steps * instr_.regs();
    if (regs > TileLimits::registers)
        throw Error("this tile needs " + num(regs) + " registers per lane; at most " + num(TileLimits::registers) + " (" +
                    tile_limits_help() + ")");
    const LL placements = waves * steps * static_cast<LL>(instr_.entries().size());
    if (placements > TileLimits::placements)
        throw Error("this tile has " + num(placements) + " (wave, lane, element) placements; at most " +
                    num(TileLimits::placements) + " (" + tile_limits_help() + ")");
    steps_ = static_cast<int>(steps);
    if (use_dot_) {
        Dot& d = dot_;
        const size_t cells = static_cast<size_t>(instr_.rows()) * instr_.cols();
        d.slot_locs.assign(static_cast<size_t>(lanes) * d.slots, {});
        d.slot_of.assign(static_cast<size_t>(lanes) * cells, -1);
        for (int lane = 0; lane < lanes; ++lane)
            for (int e = 0; e < d.slots; ++e) {
                const Element& el = d.slot_element[static_cast<size_t>(lane * d.slots + e)];
                d.slot_of[lane * cells + static_cast<size_t>(el.row) * instr_.cols() + el.col] = e;
                for (const Location& l : instr_.where(el))
                    if (l.lane == lane) d.slot_locs[static_cast<size_t>(lane * d.slots + e)].push_back(l);
            }
    }
}

Element TileLayout::instr_element(const Element& e) const {
    if (!params_.transposed || triton_ == TritonLayout::None || a_like() || b_like()) return e;
    return {e.block, e.col, e.row};
}

Element TileLayout::dot_element(int wave, int lane, int t) const {
    const Dot& d = dot_;
    const bool a = operand() == Operand::A;
    const int count = a ? params_.tiles_m : params_.tiles_n;
    const int wv = a ? wave / params_.waves_n : wave % params_.waves_n;
    const int WV = a ? params_.waves_m : params_.waves_n;
    const int k1 = t % d.ke1;
    t /= d.ke1;
    const int tile = t % count;
    t /= count;
    const int k2 = t % d.ke2;
    const int rep = t / d.ke2;
    const long long R = k1 + static_cast<long long>(d.ke1) * k2;
    const int i = lane % d.nonk, g = (lane / d.nonk) % d.groups;
    const long long kk = params_.k, w = k_width_;
    const long long k = d.lanes_share ? R % kk : (R % w + w * g + w * d.groups * (R / w)) % kk;
    const int x = ((rep * WV + wv) * count + tile) * d.nonk + i;
    return a ? Element{0, x, static_cast<int>(k)} : Element{0, static_cast<int>(k), x};
}

TileLayout::Step TileLayout::step_digits(int step) const {
    if (use_dot_ && k_width_ != native_k_width_)
        throw Error("with kWidth " + num(k_width_) + " (the instruction's own is " + num(native_k_width_) +
                    ") an instruction copy holds K in Triton's order, not one K step: its registers are not one "
                    "instruction tile at an offset");
    Step s;
    int ks_scale = 1;
    for (const auto& [digit, count] : order_) {
        const int v = step % count;
        step /= count;
        switch (digit) {
            case TileDigit::KStep:
                s.k_step += v * ks_scale;
                ks_scale *= count;
                break;
            case TileDigit::TileM: s.tile_m = v; break;
            case TileDigit::TileN: s.tile_n = v; break;
            case TileDigit::RepeatM: s.repeat_m = v; break;
            case TileDigit::RepeatN: s.repeat_n = v; break;
        }
    }
    return s;
}

int TileLayout::step_of(const Step& s) const {
    int step = 0, scale = 1, ks = s.k_step;
    for (const auto& [digit, count] : order_) {
        int v = 0;
        switch (digit) {
            case TileDigit::KStep:
                v = ks % count;
                ks /= count;
                break;
            case TileDigit::TileM: v = s.tile_m; break;
            case TileDigit::TileN: v = s.tile_n; break;
            case TileDigit::RepeatM: v = s.repeat_m; break;
            case TileDigit::RepeatN: v = s.repeat_n; break;
        }
        step += v * scale;
        scale *= count;
    }
    return step;
}

std::vector<TileLocation> TileLayout::where(const Element& e) const {
    if (e.block != 0)
        throw Error("block " + num(e.block) + " does not exist in a tile: tiles are of single-block instructions; legal: block 0");
    if (e.row < 0 || e.row >= rows_ || e.col < 0 || e.col >= cols_)
        throw Error("element (" + num(e.row) + ", " + num(e.col) + ") is outside the " + std::string(operand_name(operand())) +
                    " tile: rows 0.." + num(rows_ - 1) + ", cols 0.." + num(cols_ - 1));
    const int WM = params_.waves_m, WN = params_.waves_n, RM = params_.tiles_m, RN = params_.tiles_n;
    std::vector<TileLocation> out;
    if (use_dot_) {
        const Dot& d = dot_;
        const bool a = operand() == Operand::A;
        const int x = a ? e.row : e.col, k = a ? e.col : e.row;
        const int count = a ? RM : RN, WV = a ? WM : WN;
        const int nt = x / d.nonk, i = x % d.nonk;
        const int tile = nt % count, wv = (nt / count) % WV, rep = nt / (count * WV);
        const long long kk = params_.k, w = k_width_;
        std::vector<std::pair<long long, int>> cands;  // (R, lane group)
        if (d.lanes_share) {
            for (long long R = k; R < static_cast<long long>(d.ke1) * d.ke2; R += kk)
                for (int g = 0; g < d.groups; ++g) cands.push_back({R, g});
        } else {
            const long long span = static_cast<long long>(d.groups) * d.ke1;
            for (long long kp = k; kp < span; kp += kk)
                cands.push_back({kp % w + w * (kp / (w * d.groups)), static_cast<int>((kp / w) % d.groups)});
        }
        for (const auto& [R, g] : cands) {
            const int lane = i + d.nonk * g;
            const long long t = R % d.ke1 + static_cast<long long>(d.ke1) * (tile + static_cast<long long>(count) * (R / d.ke1 + static_cast<long long>(d.ke2) * rep));
            const int s = static_cast<int>(t / d.slots), slot = static_cast<int>(t % d.slots);
            for (const Location& l : d.slot_locs[static_cast<size_t>(lane * d.slots + slot)])
                for (int o = 0; o < (a ? WN : WM); ++o) {
                    Location shifted = l;
                    shifted.reg += s * instr_.regs();
                    out.push_back({a ? wv * WN + o : o * WN + wv, shifted});
                }
        }
        std::sort(out.begin(), out.end());
        return out;
    }
    const int r0 = instr_.rows(), c0 = instr_.cols();
    Step s;
    int wm = -1, wn = -1;  // -1: every wave along that direction holds a copy
    const Element inner = instr_element({0, e.row % r0, e.col % c0});
    if (!b_like()) {  // rows are M
        int mt = e.row / r0;
        s.tile_m = mt % RM;
        wm = (mt / RM) % WM;
        s.repeat_m = mt / (RM * WM);
    } else {
        s.k_step = e.row / r0;
    }
    if (!a_like()) {  // cols are N
        int nt = e.col / c0;
        s.tile_n = nt % RN;
        wn = (nt / RN) % WN;
        s.repeat_n = nt / (RN * WN);
    } else {
        s.k_step = e.col / c0;
    }
    const int base = step_of(s) * instr_.regs();
    for (const Location& l : instr_.where(inner))
        for (int m = 0; m < WM; ++m)
            for (int n = 0; n < WN; ++n) {
                if ((wm >= 0 && m != wm) || (wn >= 0 && n != wn)) continue;
                Location shifted = l;
                shifted.reg += base;
                out.push_back({m * WN + n, shifted});
            }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<SlotPart> TileLayout::which(int wave, int reg, int lane) const {
    if (wave < 0 || wave >= waves()) throw Error("wave " + num(wave) + " is out of range: 0.." + num(waves() - 1));
    if (reg < 0 || reg >= regs()) throw Error("register " + num(reg) + " is out of range: 0.." + num(regs() - 1));
    if (lane < 0 || lane >= lanes()) throw Error("lane " + num(lane) + " is out of range: 0.." + num(lanes() - 1));
    std::vector<SlotPart> parts = instr_.which(reg % instr_.regs(), lane);
    if (use_dot_) {
        const Dot& d = dot_;
        const size_t cells = static_cast<size_t>(instr_.rows()) * instr_.cols();
        const int s = reg / instr_.regs();
        for (SlotPart& p : parts) {
            const int e = d.slot_of[lane * cells + static_cast<size_t>(p.element.row) * instr_.cols() + p.element.col];
            p.element = dot_element(wave, lane, s * d.slots + e);
        }
        return parts;
    }
    const int WM = params_.waves_m, WN = params_.waves_n, RM = params_.tiles_m, RN = params_.tiles_n;
    const int wm = wave / WN, wn = wave % WN;
    const Step s = step_digits(reg / instr_.regs());
    int row_off, col_off;
    if (!b_like())
        row_off = ((s.repeat_m * WM + wm) * RM + s.tile_m) * instr_.rows();
    else
        row_off = s.k_step * instr_.rows();
    if (!a_like())
        col_off = ((s.repeat_n * WN + wn) * RN + s.tile_n) * instr_.cols();
    else
        col_off = s.k_step * instr_.cols();
    for (SlotPart& p : parts) {
        p.element = instr_element(p.element);
        p.element.row += row_off;
        p.element.col += col_off;
    }
    return parts;
}

std::vector<TileEntry> TileLayout::entries() const {
    std::vector<TileEntry> out;
    const auto& inner = instr_.entries();
    out.reserve(inner.size() * steps_ * waves());
    if (use_dot_) {
        const Dot& d = dot_;
        for (int wave = 0; wave < waves(); ++wave)
            for (int lane = 0; lane < lanes(); ++lane)
                for (int t = 0; t < steps_ * d.slots; ++t) {
                    const Element el = dot_element(wave, lane, t);
                    for (const Location& l : d.slot_locs[static_cast<size_t>(lane * d.slots + t % d.slots)]) {
                        TileEntry te;
                        te.element = el;
                        te.at.wave = wave;
                        te.at.loc = l;
                        te.at.loc.reg += (t / d.slots) * instr_.regs();
                        out.push_back(te);
                    }
                }
    } else {
        const int WM = params_.waves_m, WN = params_.waves_n, RM = params_.tiles_m, RN = params_.tiles_n;
        for (int wave = 0; wave < waves(); ++wave)
            for (int reg = 0; reg < regs(); reg += instr_.regs()) {
                // The offsets of this (wave, step).
                const int wm = wave / WN, wn = wave % WN;
                const Step s = step_digits(reg / instr_.regs());
                const int row_off = !b_like() ? ((s.repeat_m * WM + wm) * RM + s.tile_m) * instr_.rows() : s.k_step * instr_.rows();
                const int col_off = !a_like() ? ((s.repeat_n * WN + wn) * RN + s.tile_n) * instr_.cols() : s.k_step * instr_.cols();
                for (const Entry& e : inner) {
                    TileEntry t;
                    const Element el = instr_element(e.element);
                    t.element = {0, el.row + row_off, el.col + col_off};
                    t.at.wave = wave;
                    t.at.loc = e.loc;
                    t.at.loc.reg += reg;
                    out.push_back(t);
                }
            }
    }
    // In element order, then location: sorted by a packed (row, col) key (a tile's elements are all of
    // block 0 with non-negative row and column; the elements themselves break a tie the key cannot), the
    // locations compared only between replicas.
    std::vector<std::pair<uint64_t, uint32_t>> order(out.size());
    for (size_t i = 0; i < out.size(); ++i)
        order[i] = {(static_cast<uint64_t>(static_cast<uint32_t>(out[i].element.row)) << 32) |
                        static_cast<uint32_t>(out[i].element.col),
                    static_cast<uint32_t>(i)};
    std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first < b.first;
        if (!(out[a.second].element == out[b.second].element)) return out[a.second].element < out[b.second].element;
        return out[a.second].at < out[b.second].at;
    });
    std::vector<TileEntry> sorted;
    sorted.reserve(out.size());
    for (const auto& [key, i] : order) sorted.push_back(out[i]);
    return sorted;
}

namespace {
// "2x2" -> {2, 2}: `min`..`max` positive counts separated by 'x'.
std::vector<int> parse_dims(std::string_view option, std::string_view text, size_t min, size_t max, const char* form) {
    const auto refuse = [&](const std::string& why) {
        return Error(std::string(option) + " '" + std::string(text) + "' is not legal: expected " + form + why);
    };
    std::vector<int> out;
    size_t start = 0;
    while (true) {
        const size_t end = text.find_first_of("xX", start);
        const std::string_view part = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        try {
            out.push_back(static_cast<int>(parse_integer(part, 1, 65536, option)));
        } catch (const Error& e) {
            throw refuse(std::string(" (") + e.what() + ")");
        }
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    if (out.size() < min || out.size() > max) throw refuse("");
    return out;
}
}  // namespace

int parse_k_width(std::string_view text) {
    long long v = 0;
    try {
        v = parse_integer(text, 1, 64, "--k-width");
    } catch (const Error& e) {
        throw Error(std::string("--k-width '") + std::string(text) + "' is not legal: a power of two 1..64 (" + e.what() + ")");
    }
    if (!power_of_two(v)) throw Error("--k-width " + num(v) + " is not legal: a power of two 1..64");
    return static_cast<int>(v);
}

TileParams parse_tile_params(std::string_view waves, std::string_view tiles_per_wave, std::string_view shape) {
    TileParams p;
    if (!waves.empty()) {
        const auto d = parse_dims("--waves", waves, 2, 2, "WMxWN (e.g. 2x2)");
        p.waves_m = d[0], p.waves_n = d[1];
    }
    if (!tiles_per_wave.empty()) {
        const auto d = parse_dims("--tiles-per-wave", tiles_per_wave, 2, 2, "RMxRN (e.g. 2x1)");
        p.tiles_m = d[0], p.tiles_n = d[1];
    }
    if (!shape.empty()) {
        const auto d = parse_dims("--shape", shape, 2, 3, "TMxTN or TMxTNxTK (e.g. 128x128x64)");
        p.m = d[0], p.n = d[1];
        if (d.size() == 3) p.k = d[2];
    }
    return p;
}

}  // namespace lanescope
