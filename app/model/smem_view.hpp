// The Memory tab for an operand that a matrix descriptor reads from shared memory
// (wgmma's B and its SS-form A; tcgen05.mma's A and B): core's SmemOperand for the
// selection's descriptor modifiers, its 16-byte chunks (lanescope/smem.hpp
// smem_chunks, the chunks `figure --memory smem` draws) and the element at each
// byte, so that the app draws the swizzled tile and links a chunk's elements with
// the Layout tab. Nothing here places an element: every address is core's.
#pragma once

#include "model/selection.hpp"
#include "model/tiles.hpp"

#include "lanescope/scale_factors.hpp"
#include "lanescope/smem.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lsapp {

// Whether the Memory tab shows `op` of the selection as a descriptor's tile.
bool descriptor_operand(const LayoutSet& set, ls::Operand op);

struct SmemView {
    ls::Operand operand = ls::Operand::B;
    std::string error;  // core's refusal of the descriptor's settings (then nothing else is set)
    std::optional<ls::SmemOperand> so;
    std::vector<ls::SmemChunk> chunks;  // ascending address
    std::vector<std::uint32_t> rows;    // the 128-byte rows (address / 128) holding elements, ascending
    int cores = 0;                      // core matrices
    std::vector<int> chunk_of_element;  // row * cols + col of the operand's matrix -> chunk index
    // Bits of one cell of the tile: the value's bits where they tile a byte or whole bytes (16-bit: 16,
    // e2m1: 4), else the finest step a value starts at (6-bit values of the padded tile: 2).
    int cell_bits = 8;
    // Per chunk, per cell of its 128 / cell_bits: the element (row * cols + col) whose bits lie there, -1 none.
    std::vector<std::vector<int>> element_of_cell;
    bool ok() const { return so.has_value(); }
    // The chunk holding absolute byte `address`, or -1.
    int chunk_at(std::uint32_t address) const;
    // The element whose bits lie at byte `byte` (0..15) of chunk `chunk` (its low bit), or at bit `bit`
    // (0..127) of the chunk, or nullopt.
    std::optional<ls::Element> element_at(int chunk, int byte) const;
    std::optional<ls::Element> element_at_bit(int chunk, int bit) const;
    // The row (index into rows) of a chunk.
    int row_of(int chunk) const;
};

// Never throws: core's message becomes `error`.
SmemView build_smem_view(const LayoutSet& set, ls::Operand op);

// The Memory tab for SFA / SFB of a block-scaled tcgen05.mma: one CTA's SF tile in shared memory as
// CUTLASS stages it (core's ScaleFactorTile, lanescope/scale_factors.hpp), 16 bytes to a row (one
// tcgen05.cp.32x128b.warpx4 source row), each byte with the (m or n, K-block) it holds.
bool scale_factor_operand(const LayoutSet& set, ls::Operand op);
struct ScaleFactorView {
    ls::Operand operand = ls::Operand::SA;
    std::string error;                          // core's refusal (then nothing else is set)
    std::optional<ls::ScaleFactorTile> tile;
    std::vector<std::pair<int, int>> bytes;     // ScaleFactorTile::byte_map: (m or n, kb) per byte, {-1, -1} padding
    bool ok() const { return tile.has_value(); }
    int rows() const { return static_cast<int>(bytes.size()) / 16; }
    // "m33 kb2" (SFB: "n33 kb2") at byte `byte`, "" for padding; the byte's whole path (core's
    // scale_factor_answer) for a tooltip.
    std::string label(int byte) const;
    std::string description(int byte) const;
    // The TMEM column a byte is copied to (its colour), -1 for padding.
    int column(int byte) const;
};
// Never throws: core's message becomes `error`.
ScaleFactorView build_scale_factor_view(const LayoutSet& set, ls::Operand op);

// The tile in shared memory as a grid to cache in a texture: one grid row per 128-byte row
// holding elements (v.rows), one cell per cell_bits of it (64 for 16-bit types), in
// row-major order, so TileGrid::hit finds a cell; a cell holding an element is filled with
// its core matrix's colour (categorical), the rest in the background colour (copies 0).
// No cell labels: the app writes each chunk's label over its 16 bytes (smem_chunk_labels).
int smem_cells_per_row(const SmemView& v);
TileGrid smem_tile_grid(const SmemView& v, const GridStyle& style);
// The cell of smem_tile_grid that holds an element (its first byte), or -1; and the absolute byte
// address a cell starts at (its row's address plus a cell's bytes per cell before it).
int smem_cell_of(const SmemView& v, const ls::Element& e);
std::uint32_t smem_cell_address(const SmemView& v, int cell);
// The operand's matrix grid (build_matrix_grid: the Layout tab's B with address and bank)
// recoloured by core matrix, as the tile is.
void colour_by_core_matrix(TileGrid& fragment, const SmemView& v, ls::Theme theme);

// The descriptor's settings as the controls show them: the values in use (core's
// canonical ones where the user chose none) and whether the user chose each.
struct DescriptorControls {
    int major = 0, swizzle = 0, lbo = 0, sbo = 0, start = 0, base_offset = 0;
    bool lbo_chosen = false, sbo_chosen = false, start_chosen = false, base_chosen = false;
    std::vector<int> majors, swizzles;  // legal values (core's modifier_ranges)
};
DescriptorControls descriptor_controls(const LayoutSet& set, const SmemView& v);

// The selection's modifiers with a whole descriptor applied (lanescope-cli's --descriptor:
// its fields become the modifiers), or core's message for a value it refuses.
struct DescriptorApplied {
    ls::Modifiers mods;
    std::string error;
};
DescriptorApplied apply_descriptor_text(const ls::Modifiers& mods, const std::string& text);

}  // namespace lsapp
