// ldmatrix / stmatrix plans: the warp-wide m8n8 matrix loads (and stores) that
// move an mma.sync operand between a tile in shared memory and its fragment.
//
// PTX ISA §9.7.14.5.15 (ldmatrix) and §9.7.14.5.16 (stmatrix): `.xN` moves N
// matrices of 8 rows x 8 16-bit units; lane 8j+i supplies the (16-byte aligned)
// address of row i of matrix j; without .trans register j of lane 4g+t holds
// units 2t, 2t+1 of row g of matrix j, with .trans units g of rows 2t and 2t+1.
// A register of the operand can be filled by one matrix exactly when its 32
// lanes' bits are those bytes of eight 16-byte rows; which rows, and whether
// .trans is needed, follow from the operand's layout and the tile's addresses.
// Registers served are grouped x4, x2, x1 in register order.
#include "lanescope/memory.hpp"

#include <map>

namespace lanescope {

namespace {

struct RegPiece {
    int lane = 0, bit = 0, width = 0;  // register bits [bit, bit + width) of `lane`
    long long mem_bit = 0;             // memory bit address of the piece's lowest bit
    Element element;
    Location loc;
};

// The 8 row addresses (bytes) of one matrix that fills a register as given, or why none does.
struct MatrixFit {
    bool ok = false;
    bool trans = false;
    long long rows[8] = {};
    std::string why;
};

// The matrix row a piece comes from: lane (g, t) bits b: row g, or with .trans row 2t + b/16.
int row_of(const RegPiece& p, bool trans) { return trans ? 2 * (p.lane % 4) + p.bit / 16 : p.lane / 4; }

MatrixFit fit(const std::vector<RegPiece>& pieces, bool trans) {
    MatrixFit f;
    f.trans = trans;
    bool known[8] = {};
    for (const RegPiece& p : pieces) {
        const int g = p.lane / 4, t = p.lane % 4;
        if (trans && (p.bit % 16) + p.width > 16) {
            f.why = "an element spans both 16-bit halves of a register, which .trans moves apart";
            return f;
        }
        // Without .trans: lane (g, t) bits b come from row g, bit 32t + b.
        // With .trans:    lane (g, t) bits b come from row 2t + b/16, bit 16g + b%16.
        const int row = row_of(p, trans);
        const long long within = trans ? 16LL * g + p.bit % 16 : 32LL * t + p.bit;
        const long long start = p.mem_bit - within;
        if (start % 128 != 0) {
            f.why = "row " + std::to_string(row) + " would start at bit " + std::to_string(start) +
                    ", not on a 16-byte boundary (ldmatrix rows are 16-byte aligned)";
            return f;
        }
        if (known[row] && f.rows[row] != start / 8) {
            f.why = "the elements of one ldmatrix row are not 16 contiguous bytes in this tile";
            return f;
        }
        known[row] = true;
        f.rows[row] = start / 8;
    }
    for (int r = 0; r < 8; ++r)
        if (!known[r]) {
            f.why = "row " + std::to_string(r) + " of the matrix holds none of the operand's elements";
            return f;
        }
    f.ok = true;
    return f;
}

}  // namespace

std::vector<MemoryOp> plan_matrix_loads(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                        const MemoryTile& tile, bool store) {
    const std::string what = store ? "stmatrix" : "ldmatrix";
    if (t.vendor() != Vendor::NVIDIA)
        throw Error(what + " is NVIDIA's; " + t.gfx + " is AMD (its plans are plain or transpose loads)");
    if (store && t.family != Family::Hopper && t.family != Family::Blackwell && t.family != Family::BlackwellGeForce)
        throw Error("stmatrix exists on sm_90 and later (PTX ISA §9.7.14.5.16); " + t.gfx + " has none");
    if (ins.kind != LayoutKind::MmaSync && ins.kind != LayoutKind::MmaSparse && ins.kind != LayoutKind::MmaBlockScale)
        throw Error(what + " plans are modelled for the register operands of mma.sync and mma.sp (a warp of 32); " +
                    ins.mnemonic + " is not one (wgmma and tcgen05.mma read shared memory through a matrix descriptor: "
                    "load --memory smem)");
    if (store && op != Operand::C && op != Operand::D)
        throw Error("stores are planned for the accumulator: legal operands C, D (not " + std::string(operand_name(op)) + ")");
    if (ins.sparse() && (op == Operand::A || op == Operand::K))
        throw Error("operand " + std::string(operand_name(op)) + " of the sparse " + ins.mnemonic +
                    " is stored compressed (two of every four k, and their metadata), which " + what +
                    " plans do not model; legal operands: B, C, D");
    if (tile.space != MemorySpace::Lds)
        throw Error(what + " reads and writes shared memory only; legal: --memory smem");
    const OperandLayout L = layout_of(ins, t, op, mods);
    if (L.space() != Space::Registers || L.lanes() != 32)
        throw Error(what + " fills the registers of one warp (32 lanes); operand " + std::string(operand_name(op)) + " of " +
                    ins.mnemonic + " is not such a fragment");
    if (tile.element_bits != L.element_bits())
        throw Error("the tile's element_bits (" + std::to_string(tile.element_bits) + ") differ from operand " +
                    std::string(operand_name(op)) + "'s " + std::to_string(L.element_bits()) + " bits");
    check_memory_tile(tile, L.blocks() * L.rows(), L.cols());
    std::map<int, std::vector<RegPiece>> of_reg;
    for (const Entry& e : L.entries()) {
        const int row = memory_row(e.element, L.rows());
        of_reg[e.loc.reg].push_back({e.loc.lane, e.loc.bit_lo, e.loc.bit_hi - e.loc.bit_lo + 1,
                                     element_bit_address(tile, row, e.element.col), e.element, e.loc});
    }
    std::vector<MatrixFit> fits;
    for (int r = 0; r < L.regs(); ++r) {
        const auto it = of_reg.find(r);
        if (it == of_reg.end()) throw Error("register " + std::to_string(r) + " of the fragment holds nothing for " + what);
        MatrixFit plain = fit(it->second, false);
        if (plain.ok) {
            fits.push_back(plain);
            continue;
        }
        MatrixFit tr = fit(it->second, true);
        if (tr.ok) {
            fits.push_back(tr);
            continue;
        }
        throw Error(what + " cannot fill register " + std::to_string(r) + " of operand " + std::string(operand_name(op)) +
                    " from this tile: without .trans " + plain.why + "; with .trans " + tr.why);
    }
    std::vector<MemoryOp> ops;
    int issue = 0;
    for (int r = 0; r < L.regs();) {
        int n = 1;
        for (int want : {4, 2}) {
            if (r + want > L.regs()) continue;
            bool same = true;
            for (int j = 1; j < want; ++j) same = same && fits[static_cast<size_t>(r + j)].trans == fits[static_cast<size_t>(r)].trans;
            if (same) {
                n = want;
                break;
            }
        }
        const std::string mnemonic = what + ".sync.aligned.m8n8.x" + std::to_string(n) +
                                     (fits[static_cast<size_t>(r)].trans ? ".trans" : "") + ".shared.b16";
        for (int j = 0; j < n; ++j) {
            const MatrixFit& f = fits[static_cast<size_t>(r + j)];
            for (int i = 0; i < 8; ++i) {
                MemoryOp m;
                m.lane = 8 * j + i;
                m.issue = issue;
                m.mnemonic = mnemonic;
                m.address = f.rows[i];
                m.bytes = 16;
                m.reg = r;
                m.bit = 0;
                m.width_bits = 32 * n;
                for (const RegPiece& p : of_reg[r + j])
                    if (row_of(p, f.trans) == i) m.delivers.push_back({p.element, 0, p.loc});
                ops.push_back(std::move(m));
            }
        }
        ++issue;
        r += n;
    }
    return ops;
}

}  // namespace lanescope
