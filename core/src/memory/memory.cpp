// Addresses of a tile in memory and the plain (non-transposing) loads and
// stores that move an operand between memory and its fragment (see
// lanescope/memory.hpp and docs/memory.md).
//
// The planner works in bits. Every (element, location) of the layout is a
// piece: register bits [P, P+w) of one lane, memory bits [M, M+w). A lane's
// pieces that follow each other in the registers AND in memory form a run, which
// one load can fill as far as widths and alignment allow. All lanes of a wave
// (and all waves of a tile) run the same code, so the register axis is cut at
// every lane's run boundaries and each piece of the register axis is filled by
// the widest access that every lane covering it can make.
#include "lanescope/memory.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace lanescope {

std::string_view memory_space_name(MemorySpace s) { return s == MemorySpace::Global ? "global" : "lds"; }
std::string_view memory_order_name(MemoryOrder o) { return o == MemoryOrder::RowMajor ? "row" : "col"; }
std::string_view memory_space_name(const Target& t, MemorySpace s) {
    return t.vendor() == Vendor::NVIDIA && s == MemorySpace::Lds ? "smem" : memory_space_name(s);
}

long long element_bit_address(const MemoryTile& t, int row, int col) {
    const bool row_major = t.order == MemoryOrder::RowMajor;
    const long long line = row_major ? row : col;
    long long pos = row_major ? col : row;
    if (t.swizzle.active()) pos ^= static_cast<long long>(t.swizzle.vec) * ((line / t.swizzle.per_phase) % t.swizzle.max_phase);
    const long long index = line * (static_cast<long long>(t.ld) + t.pad) + pos;
    return index * t.element_bits;
}

long long element_address(const MemoryTile& t, int row, int col) { return element_bit_address(t, row, col) / 8; }

int contiguous_extent(MemoryOrder o, int rows, int cols) { return o == MemoryOrder::RowMajor ? cols : rows; }

void check_memory_tile(const MemoryTile& t, int rows, int cols) {
    const int extent = contiguous_extent(t.order, rows, cols);
    const int lines = t.order == MemoryOrder::RowMajor ? rows : cols;
    const std::string dim = t.order == MemoryOrder::RowMajor ? "columns" : "rows";
    if (t.element_bits < 1 || t.element_bits > 64)
        throw Error("element_bits " + std::to_string(t.element_bits) + " is not legal; legal: 1..64");
    if (t.ld < extent)
        throw Error("ld " + std::to_string(t.ld) + " is smaller than the tile's " + std::to_string(extent) + " " + dim +
                    " along the contiguous dimension (" + std::string(memory_order_name(t.order)) +
                    "-major); legal: ld >= " + std::to_string(extent));
    if (t.pad < 0) throw Error("pad " + std::to_string(t.pad) + " is not legal; legal: pad >= 0 (elements)");
    const long long bytes = (static_cast<long long>(lines) * (static_cast<long long>(t.ld) + t.pad)) * t.element_bits / 8;
    if (t.ld > (1 << 24) || t.pad > (1 << 24) || bytes > (1LL << 40))
        throw Error("the tile (ld " + std::to_string(t.ld) + ", pad " + std::to_string(t.pad) +
                    ") is too large; legal: ld and pad up to 16777216 elements");
    if (t.swizzle.vec < 0 || t.swizzle.per_phase < 1 || t.swizzle.max_phase < 1)
        throw Error("swizzle " + std::to_string(t.swizzle.vec) + "," + std::to_string(t.swizzle.per_phase) + "," +
                    std::to_string(t.swizzle.max_phase) +
                    " is not legal; legal: VEC >= 0, PER_PHASE >= 1, MAX_PHASE >= 1 (VEC = 0 or MAX_PHASE = 1: none)");
    if (t.swizzle.active()) {
        // The phase pattern repeats every per_phase*max_phase lines: check one period.
        const long long period = std::min<long long>(lines, static_cast<long long>(t.swizzle.per_phase) * t.swizzle.max_phase);
        for (long long line = 0; line < period; ++line) {
            const long long x = static_cast<long long>(t.swizzle.vec) * ((line / t.swizzle.per_phase) % t.swizzle.max_phase);
            for (long long pos = 0; pos < extent; ++pos)
                if ((pos ^ x) >= t.ld)
                    throw Error("swizzle " + std::to_string(t.swizzle.vec) + "," + std::to_string(t.swizzle.per_phase) + "," +
                                std::to_string(t.swizzle.max_phase) + " moves position " + std::to_string(pos) + " of line " +
                                std::to_string(line) + " to " + std::to_string(pos ^ x) + ", beyond ld " +
                                std::to_string(t.ld) + "; legal: VEC*MAX_PHASE no larger than the power of two that ld " +
                                "covers (e.g. ld a multiple of VEC*MAX_PHASE and of the tile's extent)");
        }
    }
}

namespace {

// The GFX11+ spellings (ds_load_*, global_load_b*): RDNA3/4 and gfx1250 (llvm-mc-22).
bool rdna(Family f) { return f == Family::RDNA3 || f == Family::RDNA4 || f == Family::CDNA5; }
// gfx90a and later CDNA parts need VGPR tuples (64 bits and wider) to start at an even register
// (llvm-mc-19 -mcpu=gfx942: "vgpr tuples must be 64 bit aligned"; gfx908 accepts v[1:2]).
bool even_tuples(Family f) {
    return f == Family::CDNA2 || f == Family::CDNA3 || f == Family::CDNA4 || f == Family::CDNA5;
}

// Why threads' plain loads (or stores) do not fill operand `op` of this NVIDIA instruction, in the terms of
// where the operand lives: only mma.sync's register fragments (ldmatrix / ld.shared) are planned on NVIDIA.
[[noreturn]] void refuse_nvidia_plain(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                      bool store) {
    const std::string what = store ? "plain stores" : "plain loads";
    const std::string X = std::string(operand_name(op)) + " of " + ins.mnemonic;
    const std::string legal = "; legal: load of an mma.sync operand (ldmatrix / ld.shared), or --memory smem for an "
                              "operand read through a shared-memory descriptor (wgmma A/B, tcgen05.mma A/B)";
    if (operand_space(ins, op, mods) == Space::TensorMemory)
        throw Error(X + " lives in Tensor Memory (TMEM), which no thread loads or stores: " +
                    (op == Operand::D || op == Operand::C ? "tcgen05.mma writes it there, and tcgen05.ld reads it into registers"
                                                          : "tcgen05.cp or tcgen05.st puts it there, and tcgen05.mma reads it") +
                    " (" + t.gfx + "); the registers a tcgen05.ld gives are `layout`/`where`/`which` of D with --tmem-load "
                    "SHAPE, or of the tcgen05_ld_* instructions; " + what + " are not modelled for it" + legal);
    if (ins.kind == LayoutKind::Tcgen05LdSt)
        throw Error(ins.mnemonic + std::string(ins.store ? " is itself the store of its register fragment into Tensor "
                                                           "Memory"
                                                         : " is itself the load of its register fragment from Tensor "
                                                           "Memory") +
                    " (TMEM, which no thread reads with ld.shared or global loads); `layout`/`where`/`which` give its "
                    "fragment" + legal);
    if (ins.kind == LayoutKind::Tcgen05Cp)
        throw Error(ins.mnemonic + " copies shared memory into Tensor Memory itself; no thread's loads take part" + legal);
    if (ins.kind == LayoutKind::LdStMatrix)
        throw Error(ins.mnemonic + " is itself the shared-memory " + (ins.store ? "store" : "load") +
                    " of its fragment; `load` of an mma.sync operand plans it (ldmatrix / stmatrix)" + legal);
    throw Error(what + " into " + X + " (" + std::string(space_title(operand_space(ins, op, mods))) + ", " + t.gfx +
                ") are not modelled: on NVIDIA targets `load` plans mma.sync's register fragments" + legal);
}

// PTX's shared-memory accesses (PTX ISA §9.7.9.8 ld, §9.7.9.10 st): .b8 / .b16 / .b32, .v2.b32, .v4.b32.
std::string shared_mnemonic(bool store, int bytes) {
    const std::string base = store ? "st.shared." : "ld.shared.";
    if (bytes == 16) return base + "v4.b32";
    if (bytes == 8) return base + "v2.b32";
    if (bytes == 4) return base + "b32";
    if (bytes == 2) return base + "b16";
    return base + (store ? "b8" : "u8");
}

bool nvidia(Family f) { return f == Family::Ampere || f == Family::Ada || f == Family::Hopper || f == Family::Blackwell ||
                                f == Family::BlackwellGeForce; }

// The plain access of `bytes` at register bit `bit` (0 or 16 for sub-dword forms).
std::string plain_mnemonic(Family f, MemorySpace space, bool store, int bytes, int bit) {
    if (nvidia(f)) return shared_mnemonic(store, bytes);
    const bool hi = bit == 16 && bytes <= 2;
    if (space == MemorySpace::Lds) {
        if (rdna(f)) {
            if (store) {
                if (bytes == 1) return hi ? "ds_store_b8_d16_hi" : "ds_store_b8";
                if (bytes == 2) return hi ? "ds_store_b16_d16_hi" : "ds_store_b16";
                return "ds_store_b" + std::to_string(bytes * 8);
            }
            if (bytes == 1) return hi ? "ds_load_u8_d16_hi" : "ds_load_u8";
            if (bytes == 2) return hi ? "ds_load_u16_d16_hi" : "ds_load_u16";
            return "ds_load_b" + std::to_string(bytes * 8);
        }
        if (store) {
            if (bytes == 1) return hi ? "ds_write_b8_d16_hi" : "ds_write_b8";
            if (bytes == 2) return hi ? "ds_write_b16_d16_hi" : "ds_write_b16";
            return "ds_write_b" + std::to_string(bytes * 8);
        }
        if (bytes == 1) return hi ? "ds_read_u8_d16_hi" : "ds_read_u8";
        if (bytes == 2) return hi ? "ds_read_u16_d16_hi" : "ds_read_u16";
        return "ds_read_b" + std::to_string(bytes * 8);
    }
    if (rdna(f)) {
        if (store) {
            if (bytes == 1) return hi ? "global_store_d16_hi_b8" : "global_store_b8";
            if (bytes == 2) return hi ? "global_store_d16_hi_b16" : "global_store_b16";
            return "global_store_b" + std::to_string(bytes * 8);
        }
        if (bytes == 1) return hi ? "global_load_d16_hi_u8" : "global_load_u8";
        if (bytes == 2) return hi ? "global_load_d16_hi_b16" : "global_load_u16";
        return "global_load_b" + std::to_string(bytes * 8);
    }
    const char* dwords[] = {"", "dword", "dwordx2", "dwordx3", "dwordx4"};
    if (store) {
        if (bytes == 1) return hi ? "global_store_byte_d16_hi" : "global_store_byte";
        if (bytes == 2) return hi ? "global_store_short_d16_hi" : "global_store_short";
        return std::string("global_store_") + dwords[bytes / 4];
    }
    if (bytes == 1) return hi ? "global_load_ubyte_d16_hi" : "global_load_ubyte";
    if (bytes == 2) return hi ? "global_load_short_d16_hi" : "global_load_ushort";
    return std::string("global_load_") + dwords[bytes / 4];
}

struct Piece {
    long long reg_bit = 0;  // lane-relative: reg * 32 + bit_lo
    long long mem_bit = 0;  // bit address of the element's lowest bit
    int width = 0;
    Element element;
    Location loc;
};
struct Run {
    long long reg_lo = 0, reg_hi = 0;  // [reg_lo, reg_hi)
    long long offset = 0;              // mem_bit - reg_bit, the same over the run
};
struct LaneKey {
    int wave = 0, lane = 0;
    bool operator<(const LaneKey& o) const { return wave != o.wave ? wave < o.wave : lane < o.lane; }
};
struct LanePlan {
    LaneKey key;
    std::vector<Piece> pieces;  // by reg_bit
    std::vector<Run> runs;      // by reg_lo
    const Run* run_at(long long bit) const {
        auto it = std::upper_bound(runs.begin(), runs.end(), bit, [](long long b, const Run& r) { return b < r.reg_lo; });
        if (it == runs.begin()) return nullptr;
        --it;
        return bit < it->reg_hi ? &*it : nullptr;
    }
};

class Planner {
public:
    Planner(const Target& t, const MemoryTile& tile, bool store) : target_(t), tile_(tile), store_(store) {}

    void add(int wave, const Element& mem_element, const Element& element, const Location& loc, int bits) {
        const int width = loc.bit_hi - loc.bit_lo + 1;
        if (width != bits)
            throw Error("this operand's register slots do not hold one element each (the sparse A and its index hold "
                        "compressed values); plain " + std::string(store_ ? "stores" : "loads") +
                        " are modelled for dense operands (legal: B, C, D and the dense A; for sparse instructions B, C, D)");
        LanePlan& p = lanes_[{wave, loc.lane}];
        p.key = {wave, loc.lane};
        p.pieces.push_back({static_cast<long long>(loc.reg) * 32 + loc.bit_lo,
                            element_bit_address(tile_, mem_element.row, mem_element.col), width, element, loc});
    }

    std::vector<MemoryOp> plan() {
        std::set<long long> cuts;
        for (auto& [key, p] : lanes_) {
            std::sort(p.pieces.begin(), p.pieces.end(), [](const Piece& a, const Piece& b) { return a.reg_bit < b.reg_bit; });
            for (const Piece& pc : p.pieces) {
                if (!p.runs.empty() && pc.reg_bit < p.runs.back().reg_hi)
                    throw Error("two elements share register bits of lane " + std::to_string(key.lane) +
                                "; plain loads need one element per register bit");
                if (!p.runs.empty() && p.runs.back().reg_hi == pc.reg_bit &&
                    p.runs.back().offset == pc.mem_bit - pc.reg_bit) {
                    p.runs.back().reg_hi += pc.width;
                } else {
                    p.runs.push_back({pc.reg_bit, pc.reg_bit + pc.width, pc.mem_bit - pc.reg_bit});
                }
            }
            for (const Run& r : p.runs) cuts.insert(r.reg_lo), cuts.insert(r.reg_hi);
        }
        const std::vector<long long> c(cuts.begin(), cuts.end());
        for (size_t n = 0; n + 1 < c.size(); ++n) segment(c[n], c[n + 1]);
        return std::move(ops_);
    }

private:
    struct Cover {
        const LanePlan* lane;
        long long offset;
    };

    int alignment(int bytes) const { return plain_access_alignment(target_, tile_.space, bytes); }

    void segment(long long lo, long long hi) {
        std::vector<Cover> cover;
        bool byte_offsets = lo % 8 == 0 && hi % 8 == 0;
        for (const auto& [key, p] : lanes_)
            if (const Run* r = p.run_at(lo)) {
                cover.push_back({&p, r->offset});
                if (r->offset % 8 != 0) byte_offsets = false;
            }
        if (cover.empty()) return;
        if (byte_offsets) direct(lo, hi, cover);
        else through_temp(lo, hi, cover);
    }

    // Bytes land in place: the widest access every covering lane can make at `pos`.
    void direct(long long lo, long long hi, const std::vector<Cover>& cover) {
        const Family fam = target_.family;
        long long pos = lo;
        while (pos < hi) {
            int chosen = 1;
            for (int w : {16, 12, 8, 4, 2}) {
                if (pos + 8LL * w > hi) continue;
                if (w == 12 && target_.vendor() == Vendor::NVIDIA) continue;  // PTX has no 3-word vector
                if (w >= 4 && pos % 32 != 0) continue;
                if (w >= 8 && even_tuples(fam) && (pos / 32) % 2 != 0) continue;
                if (w == 2 && pos % 16 != 0) continue;
                bool ok = true;
                for (const Cover& cv : cover)
                    if (((pos + cv.offset) / 8) % alignment(w) != 0) ok = false;
                if (ok) {
                    chosen = w;
                    break;
                }
            }
            const int bit = static_cast<int>(pos % 32);
            // A byte at bits 8 or 24 has no load or store of its own: through a scratch VGPR.
            // NVIDIA: a byte lands in place only at bit 0 (ld.shared.u8 zero-extends into a register).
            const bool temp = chosen == 1 && (target_.vendor() == Vendor::NVIDIA ? bit != 0 : (bit == 8 || bit == 24));
            for (const Cover& cv : cover) {
                MemoryOp op = base_op(*cv.lane, pos, 8LL * chosen);
                op.address = (pos + cv.offset) / 8;
                op.bytes = chosen;
                op.mnemonic = plain_mnemonic(fam, tile_.space, store_, chosen, temp ? 0 : bit);
                op.via_temp = temp;
                ops_.push_back(std::move(op));
            }
            ++issue_;
            pos += 8LL * chosen;
        }
    }

    // Not byte-aligned (sub-byte elements out of place): from `lo` on, load the
    // naturally aligned unit (1-16 bytes) that carries every covering lane's bits
    // the furthest, into a scratch register, and move the bits into place.
    void through_temp(long long lo, long long hi, const std::vector<Cover>& cover) {
        if (store_)
            throw Error("storing sub-byte elements that are not byte-aligned in memory needs a read-modify-write, which "
                        "plain stores do not model");
        // Two ways, the one with fewer wave-level instructions wins: (1) chunks of the register
        // range that one aligned unit carries for every lane; (2) every lane loads the aligned
        // units spanning its whole memory range and shifts its bits out (lanes then differ in
        // which register bits a unit fills).
        const size_t mark = ops_.size();
        const int issue0 = issue_;
        chunked(lo, hi, cover);
        const int chunk_issues = issue_ - issue0;
        int best_w = 16, best_units = 1 << 30;
        for (int w : {16, 8, 4, 2, 1}) {
            int units = 0;
            for (const Cover& cv : cover)
                units = std::max<int>(units, static_cast<int>((hi - 1 + cv.offset) / 8 / w - (lo + cv.offset) / 8 / w + 1));
            if (units <= best_units) best_units = units, best_w = w;
        }
        if (best_units >= chunk_issues) return;
        ops_.resize(mark);
        issue_ = issue0;
        for (int u = 0; u < best_units; ++u) {
            for (const Cover& cv : cover) {
                const long long unit = ((lo + cv.offset) / 8 / best_w + u) * best_w;  // byte address
                const long long r_lo = std::max(lo, unit * 8 - cv.offset), r_hi = std::min(hi, (unit + best_w) * 8 - cv.offset);
                if (r_lo >= r_hi) continue;  // this lane's range ends before the unit
                MemoryOp op = base_op(*cv.lane, r_lo, r_hi - r_lo);
                op.address = unit;
                op.bytes = best_w;
                op.mnemonic = plain_mnemonic(target_.family, tile_.space, store_, best_w, 0);
                op.via_temp = true;
                op.unit_bit = static_cast<int>(r_lo + cv.offset - 8 * unit);
                ops_.push_back(std::move(op));
            }
            ++issue_;
        }
    }

    void chunked(long long lo, long long hi, const std::vector<Cover>& cover) {
        while (lo < hi) {
            long long best_end = lo;
            int best_w = 1;
            for (int w : {1, 2, 4, 8, 16}) {
                long long end = hi;
                for (const Cover& cv : cover) {
                    const long long unit_start = (lo + cv.offset) / 8 / w * w;
                    end = std::min(end, (unit_start + w) * 8 - cv.offset);
                }
                end = element_boundary_at_or_below(lo, end, cover);
                if (end > best_end) best_end = end, best_w = w;
            }
            for (const Cover& cv : cover) {
                MemoryOp op = base_op(*cv.lane, lo, best_end - lo);
                op.address = (lo + cv.offset) / 8 / best_w * best_w;
                op.bytes = best_w;
                op.mnemonic = plain_mnemonic(target_.family, tile_.space, store_, best_w, 0);
                op.via_temp = true;
                op.unit_bit = static_cast<int>(lo + cv.offset - 8 * op.address);
                ops_.push_back(std::move(op));
            }
            ++issue_;
            lo = best_end;
        }
    }

    // The largest b in (lo, end] where an element starts or ends in every covering lane, else end
    // (the element is then split between two accesses).
    static long long element_boundary_at_or_below(long long lo, long long end, const std::vector<Cover>& cover) {
        auto is_boundary = [](const LanePlan& p, long long b) {
            auto it = std::lower_bound(p.pieces.begin(), p.pieces.end(), b,
                                       [](const Piece& pc, long long x) { return pc.reg_bit + pc.width < x; });
            return it != p.pieces.end() && (it->reg_bit == b || it->reg_bit + it->width == b);
        };
        const LanePlan& first = *cover.front().lane;
        auto it = std::upper_bound(first.pieces.begin(), first.pieces.end(), end,
                                   [](long long x, const Piece& pc) { return x < pc.reg_bit; });
        while (it != first.pieces.begin()) {
            --it;
            for (long long b : {it->reg_bit + it->width, it->reg_bit}) {
                if (b > end || b <= lo) continue;
                if (std::all_of(cover.begin(), cover.end(), [&](const Cover& cv) { return is_boundary(*cv.lane, b); }))
                    return b;
            }
            if (it->reg_bit + it->width <= lo) break;
        }
        return end;
    }

    MemoryOp base_op(const LanePlan& p, long long reg_lo, long long bits) const {
        MemoryOp op;
        op.wave = p.key.wave;
        op.lane = p.key.lane;
        op.issue = issue_;
        op.reg = static_cast<int>(reg_lo / 32);
        op.bit = static_cast<int>(reg_lo % 32);
        op.width_bits = static_cast<int>(bits);
        const long long reg_hi = reg_lo + bits;
        auto it = std::lower_bound(p.pieces.begin(), p.pieces.end(), reg_lo,
                                   [](const Piece& pc, long long b) { return pc.reg_bit + pc.width <= b; });
        for (; it != p.pieces.end() && it->reg_bit < reg_hi; ++it) {
            const long long a = std::max(reg_lo, it->reg_bit), b = std::min(reg_hi, it->reg_bit + it->width);
            Delivery d{it->element, p.key.wave, it->loc};
            if (a != it->reg_bit || b != it->reg_bit + it->width)
                d.at = {static_cast<int>(a / 32), it->loc.lane, static_cast<int>(a % 32), static_cast<int>(a % 32 + (b - a) - 1)};
            op.delivers.push_back(d);
        }
        return op;
    }

    const Target& target_;
    const MemoryTile& tile_;
    bool store_;
    std::map<LaneKey, LanePlan> lanes_;
    std::vector<MemoryOp> ops_;
    int issue_ = 0;
};

std::vector<MemoryOp> plan_plain(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                 const MemoryTile& tile, const std::optional<TileParams>& tiles, bool store) {
    if (t.vendor() != Vendor::AMD && tile.space != MemorySpace::Lds)
        throw Error(std::string(store ? "plain stores" : "plain loads") + " on NVIDIA targets are modelled from shared "
                    "memory (ld.shared / st.shared, ldmatrix / stmatrix); legal: --memory smem");
    if (t.vendor() != Vendor::AMD && ins.kind != LayoutKind::MmaSync && ins.kind != LayoutKind::MmaSparse &&
        ins.kind != LayoutKind::MmaBlockScale)
        refuse_nvidia_plain(ins, t, op, mods, store);
    if (store && op != Operand::C && op != Operand::D)
        throw Error("stores are planned for the accumulator: legal operands C, D (not " + std::string(operand_name(op)) + ")");
    if (ins.sparse() && (op == Operand::A || op == Operand::K))
        throw Error("operand " + std::string(operand_name(op)) + " of the sparse " + ins.mnemonic +
                    " is stored compressed (two of every four k, and their index), which plain " +
                    (store ? "stores" : "loads") + " do not model; legal operands: B, C, D");
    Planner planner(t, tile, store);
    if (tiles && !tiles->single()) {
        TileLayout L(ins, t, op, mods, *tiles);
        const int bits = L.instruction().element_bits();
        if (tile.element_bits != bits)
            throw Error("the tile's element_bits (" + std::to_string(tile.element_bits) + ") differ from operand " +
                        std::string(operand_name(op)) + "'s " + std::to_string(bits) + " bits");
        check_memory_tile(tile, L.rows(), L.cols());
        for (const TileEntry& e : L.entries()) planner.add(e.at.wave, e.element, e.element, e.at.loc, bits);
        return planner.plan();
    }
    OperandLayout L = layout_of(ins, t, op, mods);
    if (tile.element_bits != L.element_bits())
        throw Error("the tile's element_bits (" + std::to_string(tile.element_bits) + ") differ from operand " +
                    std::string(operand_name(op)) + "'s " + std::to_string(L.element_bits()) + " bits");
    check_memory_tile(tile, L.blocks() * L.rows(), L.cols());
    for (const Entry& e : L.entries()) {
        Element mem = e.element;
        mem.row = memory_row(e.element, L.rows());
        mem.block = 0;
        planner.add(0, mem, e.element, e.loc, L.element_bits());
    }
    return planner.plan();
}

}  // namespace

int plain_access_alignment(const Target& t, MemorySpace s, int bytes) {
    if (t.vendor() == Vendor::NVIDIA) return bytes == 12 ? 16 : bytes;  // natural (PTX ISA §6.4.1)
    if (s == MemorySpace::Global) return bytes >= 4 ? 4 : bytes;
    if (bytes == 12) return 16;
    return bytes;
}

std::string alignment_rule(const Target& t, MemorySpace s) {
    if (t.vendor() == Vendor::NVIDIA)
        return "shared memory: natural alignment, the address a multiple of the access size (PTX ISA §6.4.1 "
               "\"Addresses as Operands\"); ld.shared/st.shared .b8 .b16 .b32 .v2.b32 .v4.b32 (no 12-byte vector); "
               "ldmatrix/stmatrix row addresses 16-byte aligned (PTX ISA §9.7.14.5.15).";
    std::string regs = even_tuples(t.family)
                           ? std::string(t.family == Family::CDNA5
                                             ? " 64-bit and wider accesses start at an even VGPR (llvm-mc-22 rejects "
                                               "ds_load_b64 v[1:2] and global_load_b64 v[1:2] for gfx1250)."
                                             : " 64-bit and wider accesses start at an even VGPR (gfx90a and later: "
                                               "llvm-mc-19 rejects odd tuples, \"vgpr tuples must be 64 bit aligned\").")
                           : " Any VGPR may start a tuple.";
    if (s == MemorySpace::Global)
        return "global: u8 any address, u16 2-byte, dword and wider 4-byte aligned (GCN/CDNA ISA vector memory "
               "chapter: the two low address bits of dword-or-larger accesses are ignored; LLVM emits multi-dword "
               "global accesses at dword alignment)." + regs;
    return "LDS: natural alignment, b96 16-byte (LLVM DSInstructions.td selects ds_read/ds_write b96/b128 only at "
           "16-byte alignment unless unaligned-access-mode; D100300, D92767)." + regs;
}

std::vector<MemoryOp> plan_plain_loads(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                       const MemoryTile& tile, const std::optional<TileParams>& tiles) {
    return plan_plain(ins, t, op, mods, tile, tiles, false);
}

std::vector<MemoryOp> plan_stores(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                  const MemoryTile& tile, const std::optional<TileParams>& tiles) {
    return plan_plain(ins, t, op, mods, tile, tiles, true);
}

int wave_instruction_count(const std::vector<MemoryOp>& ops, int wave) {
    std::set<int> issues;
    for (const MemoryOp& op : ops)
        if (op.wave == wave) issues.insert(op.issue);
    return static_cast<int>(issues.size());
}

}  // namespace lanescope
