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

std::string num(int v) { return std::to_string(v); }

}  // namespace

bool TileParams::single() const {
    return waves_m == 1 && waves_n == 1 && tiles_m == 1 && tiles_n == 1 && m == 0 && n == 0 && k == 0;
}

std::string TileParams::describe() const {
    return "waves " + num(waves_m) + "x" + num(waves_n) + ", tiles per wave " + num(tiles_m) + "x" + num(tiles_n) +
           ", shape " + num(m) + "x" + num(n) + "x" + num(k);
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

TileLayout::TileLayout(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                       const TileParams& p)
    : instr_(layout_of(ins, t, op, mods)), params_(p) {
    const char* legal = " (a positive count; the shape a multiple of the wave grid's tile)";
    if (p.waves_m < 1 || p.waves_n < 1 || p.waves_m * p.waves_n > 1024)
        throw Error("waves " + num(p.waves_m) + "x" + num(p.waves_n) + " is not legal: each count 1 or more, 1024 waves at most");
    if (p.tiles_m < 1 || p.tiles_n < 1 || p.tiles_m * p.tiles_n > 4096)
        throw Error("tiles per wave " + num(p.tiles_m) + "x" + num(p.tiles_n) + " is not legal: each count 1 or more");
    if (p.m < 0 || p.n < 0 || p.k < 0) throw Error(std::string("a tile shape must not be negative") + legal);
    if (instr_.blocks() != 1)
        throw Error(ins.mnemonic + " has " + num(instr_.blocks()) +
                    " blocks; tiles are modelled for single-block instructions only (as Triton's MFMA layouts)");
    if (ins.k == 0 && !p.single())  // ldmatrix/stmatrix: a move between memory and registers, no K
        throw Error(ins.mnemonic +
                    " moves 8x8 matrices between shared memory and registers; it has no K and is not composed into "
                    "tiles: --waves, --tiles-per-wave and --shape apply to MMA instructions (mma, wgmma, MFMA, WMMA)");
    const Role role = role_of(op);
    // Instruction extents in M, N and (in this operand's units) K.
    const int m0 = role == Role::B ? ins.m : instr_.rows();
    const int n0 = role == Role::A ? ins.n : instr_.cols();
    const int cta_m = m0 * p.tiles_m * p.waves_m, cta_n = n0 * p.tiles_n * p.waves_n;
    if (params_.m == 0) params_.m = cta_m;
    if (params_.n == 0) params_.n = cta_n;
    if (params_.k == 0) params_.k = ins.k;
    if (params_.m % cta_m != 0)
        throw Error("tile shape M = " + num(params_.m) + " is not a multiple of the wave grid's M tile " + num(cta_m) +
                    " (instruction M " + num(m0) + " x tiles " + num(p.tiles_m) + " x waves " + num(p.waves_m) + ")");
    if (params_.n % cta_n != 0)
        throw Error("tile shape N = " + num(params_.n) + " is not a multiple of the wave grid's N tile " + num(cta_n) +
                    " (instruction N " + num(n0) + " x tiles " + num(p.tiles_n) + " x waves " + num(p.waves_n) + ")");
    if (ins.k != 0 && params_.k % ins.k != 0)
        throw Error("tile shape K = " + num(params_.k) + " is not a multiple of the instruction's K " + num(ins.k));
    if (static_cast<long long>(params_.m) * params_.n > (1 << 24) || static_cast<long long>(params_.m) * params_.k > (1 << 24) ||
        static_cast<long long>(params_.k) * params_.n > (1 << 24))
        throw Error("tile shape " + num(params_.m) + "x" + num(params_.n) + "x" + num(params_.k) +
                    " is too large: at most 16M elements per operand");
    rep_m_ = params_.m / cta_m;
    rep_n_ = params_.n / cta_n;
    k_steps_ = ins.k == 0 ? 1 : params_.k / ins.k;
    const bool mfma = is_cdna(t.family);
    using D = TileDigit;
    switch (role) {
        case Role::C:
            rows_ = params_.m;
            cols_ = params_.n;
            // MFMA: tilesPerWarpN, the rest of N, tilesPerWarpM, the rest of M.
            // WMMA: tilesPerWarpN, tilesPerWarpM, then the rest of N and of M.
            if (mfma)
                order_ = {{D::TileN, p.tiles_n}, {D::RepeatN, rep_n_}, {D::TileM, p.tiles_m}, {D::RepeatM, rep_m_}};
            else
                order_ = {{D::TileN, p.tiles_n}, {D::TileM, p.tiles_m}, {D::RepeatN, rep_n_}, {D::RepeatM, rep_m_}};
            break;
        case Role::A:
            rows_ = params_.m;
            cols_ = k_steps_ * instr_.cols();
            if (mfma)
                order_ = {{D::KStep, k_steps_}, {D::TileM, p.tiles_m}, {D::RepeatM, rep_m_}};
            else
                order_ = {{D::TileM, p.tiles_m}, {D::KStep, k_steps_}, {D::RepeatM, rep_m_}};
            break;
        case Role::B:
            rows_ = k_steps_ * instr_.rows();
            cols_ = params_.n;
            if (mfma)
                order_ = {{D::KStep, k_steps_}, {D::TileN, p.tiles_n}, {D::RepeatN, rep_n_}};
            else
                order_ = {{D::TileN, p.tiles_n}, {D::KStep, k_steps_}, {D::RepeatN, rep_n_}};
            break;
    }
    steps_ = 1;
    for (const auto& d : order_) steps_ *= d.second;
}

TileLayout::Step TileLayout::step_digits(int step) const {
    Step s;
    for (const auto& [digit, count] : order_) {
        int v = step % count;
        step /= count;
        switch (digit) {
            case TileDigit::KStep: s.k_step = v; break;
            case TileDigit::TileM: s.tile_m = v; break;
            case TileDigit::TileN: s.tile_n = v; break;
            case TileDigit::RepeatM: s.repeat_m = v; break;
            case TileDigit::RepeatN: s.repeat_n = v; break;
        }
    }
    return s;
}

int TileLayout::step_of(const Step& s) const {
    int step = 0, scale = 1;
    for (const auto& [digit, count] : order_) {
        int v = 0;
        switch (digit) {
            case TileDigit::KStep: v = s.k_step; break;
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
    if (e.block != 0 || e.row < 0 || e.row >= rows_ || e.col < 0 || e.col >= cols_)
        throw Error("element (" + num(e.row) + ", " + num(e.col) + ") is outside the " + std::string(operand_name(operand())) +
                    " tile: rows 0.." + num(rows_ - 1) + ", cols 0.." + num(cols_ - 1));
    const int WM = params_.waves_m, WN = params_.waves_n, RM = params_.tiles_m, RN = params_.tiles_n;
    const int r0 = instr_.rows(), c0 = instr_.cols();
    Step s;
    int wm = -1, wn = -1;  // -1: every wave along that direction holds a copy
    Element inner{0, e.row % r0, e.col % c0};
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
    std::vector<TileLocation> out;
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
    std::vector<SlotPart> parts = instr_.which(reg % instr_.regs(), lane);
    for (SlotPart& p : parts) {
        p.element.row += row_off;
        p.element.col += col_off;
    }
    return parts;
}

std::vector<TileEntry> TileLayout::entries() const {
    std::vector<TileEntry> out;
    const auto& inner = instr_.entries();
    out.reserve(inner.size() * steps_ * waves());
    for (int wave = 0; wave < waves(); ++wave)
        for (int reg = 0; reg < regs(); reg += instr_.regs()) {
            // The offsets of this (wave, step), from one probe of its first register.
            const int WM = params_.waves_m, WN = params_.waves_n, RM = params_.tiles_m, RN = params_.tiles_n;
            const int wm = wave / WN, wn = wave % WN;
            const Step s = step_digits(reg / instr_.regs());
            const int row_off = !b_like() ? ((s.repeat_m * WM + wm) * RM + s.tile_m) * instr_.rows() : s.k_step * instr_.rows();
            const int col_off = !a_like() ? ((s.repeat_n * WN + wn) * RN + s.tile_n) * instr_.cols() : s.k_step * instr_.cols();
            for (const Entry& e : inner) {
                TileEntry t;
                t.element = {0, e.element.row + row_off, e.element.col + col_off};
                t.at.wave = wave;
                t.at.loc = e.loc;
                t.at.loc.reg += reg;
                out.push_back(t);
            }
        }
    std::sort(out.begin(), out.end(), [](const TileEntry& a, const TileEntry& b) {
        if (!(a.element == b.element)) return a.element < b.element;
        return a.at < b.at;
    });
    return out;
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
