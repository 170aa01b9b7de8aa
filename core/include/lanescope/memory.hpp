// The memory side of an operand: where each element lies in a tile stored in
// global memory or LDS, which memory instructions each lane issues to fill its
// fragment (plain vector loads or the hardware transpose loads), and what the
// LDS banks make of them.
//
// Addresses follow the contract of `lanescope-cli load`: element (row, col) of a
// row-major tile lies at (row*(ld+pad) + col)*element_bits/8 bytes from the
// tile's start, column-major at (col*(ld+pad) + row)*element_bits/8, before any
// swizzle; for sub-byte types the address is the byte holding the element's
// lowest bit. `ld` and `pad` count elements.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/tile.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanescope {

enum class MemorySpace { Global, Lds };
enum class MemoryOrder { RowMajor, ColMajor };
std::string_view memory_space_name(MemorySpace s);  // "global", "lds"
std::string_view memory_order_name(MemoryOrder o);  // "row", "col"

// The XOR swizzle kernels use against LDS bank conflicts (Triton's
// SwizzledSharedEncoding; CK's xor transforms): with `line` the index along the
// strided dimension (row for row-major, col for column-major) and `pos` the
// index along the contiguous one, the element is stored at contiguous position
//     pos XOR (vec * ((line / per_phase) % max_phase)).
// vec = 0 (or max_phase <= 1) means no swizzle.
struct XorSwizzle {
    int vec = 0, per_phase = 1, max_phase = 1;
    bool active() const { return vec > 0 && max_phase > 1; }
    bool operator==(const XorSwizzle& o) const {
        return vec == o.vec && per_phase == o.per_phase && max_phase == o.max_phase;
    }
};

// A matrix tile (one operand, or one operand's tile of many waves) in memory.
struct MemoryTile {
    MemorySpace space = MemorySpace::Lds;
    MemoryOrder order = MemoryOrder::RowMajor;
    int ld = 0;   // leading dimension in elements (>= the contiguous extent)
    int pad = 0;  // extra elements after each line
    XorSwizzle swizzle;
    int element_bits = 16;
};

// Byte offset of element (row, col) from the tile's start (see the top of this file).
long long element_address(const MemoryTile& t, int row, int col);

// One memory instruction issued by one lane. Transpose loads deliver data to
// other lanes of the lane's shuffle group, so every op lists what it delivers
// and where each element lands.
struct Delivery {
    Element element;   // operand (or tile) coordinates
    int wave = 0;      // receiving wave (tiles)
    Location at;       // receiving lane, register, bits
};
struct MemoryOp {
    int wave = 0;
    int lane = 0;          // the lane that supplies the address
    int issue = 0;         // issue order within the wave (0, 1, ...)
    std::string mnemonic;  // "ds_read_b128", "global_load_dwordx4", "ds_read_b64_tr_b16", ...
    long long address = 0; // byte offset from the tile's start
    int bytes = 0;
    int reg = 0;           // first destination (load) or source (store) 32-bit register of `lane`
    std::vector<Delivery> delivers;
};

// Transpose loads (CDNA4 ds_read_*_tr_*, RDNA4 global_load_tr_*): the memory
// instructions that fill `op` of `ins` from `tile` through the hardware
// transpose, in issue order, for every lane. Throws Error naming what is legal
// when no transpose load serves this operand, orientation, target or wave size.
// Reference: ../shared/reference/amd-operand-loads.md §3, §4.
std::vector<MemoryOp> plan_transposed_loads(const Instruction& ins, const Target& t, Operand op,
                                            const ResolvedModifiers& mods, const MemoryTile& tile,
                                            const std::optional<TileParams>& tiles = std::nullopt);

}  // namespace lanescope
