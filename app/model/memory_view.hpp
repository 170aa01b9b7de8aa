// The Memory view's model: an operand stored as a tile in LDS or global
// memory, the memory instructions that fill (or store) it, and what the LDS
// banks make of them. Everything here comes from core's memory.hpp (the
// planners, the bank model, the pass groupings); this file only arranges it
// for drawing: which memory cell holds which element and which lane reads it,
// one row per wave-level instruction, and the per-bank breakdown of a pass.
#pragma once

#include "model/selection.hpp"
#include "model/tiles.hpp"

#include "lanescope/memory.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lsapp {

struct TileSet;  // model/tile_view.hpp

// What the Memory view's controls choose.
struct MemorySettings {
    ls::Operand operand = ls::Operand::B;
    ls::MemoryTile tile;      // ld <= 0: the operand's contiguous extent
    bool transposed = false;  // show the transpose load (when one serves the operand)
    bool store = false;       // stores of C/D instead of loads
    bool ld_shared = false;   // NVIDIA: plain ld.shared / st.shared instead of ldmatrix / stmatrix
    bool side_by_side = true; // plain and transposed grids together (when a transpose load exists)
    std::string grouping;     // pass grouping of the selected instruction's mnemonic; "" = the first offered
    int issue = 0;            // selected wave-level instruction (index into MemoryPlan::issues)
    // Tile mode: the operand's tile of every wave (tile.hpp), planned whole by core; nullopt = one instruction.
    std::optional<ls::TileParams> tiles;
};

// The matrix the memory tile holds, as (rows, cols, rows of one block): the operand's (blocks stacked
// along the rows), or in tile mode the tile operand's (one block). Throws ls::Error (core's words) for a
// tile core refuses.
struct MemoryMatrix {
    int rows = 0, cols = 0, block_rows = 0, element_bits = 0;
};
MemoryMatrix memory_matrix(const LayoutSet& set, const MemorySettings& s);

// The operand lines (rows of a row-major tile, columns of a column-major one)
// and the contiguous extent (the other dimension); the blocks of a multi-block
// operand are stacked along the rows (memory.hpp: memory_row).
int memory_lines(const ls::OperandLayout& l, ls::MemoryOrder order);
int memory_extent(const ls::OperandLayout& l, ls::MemoryOrder order);
// The tile of the settings with a default ld filled in (the contiguous extent)
// and the operand's element width.
ls::MemoryTile effective_tile(const ls::OperandLayout& l, const MemorySettings& s);
ls::MemoryTile effective_tile(const MemoryMatrix& mm, const MemorySettings& s);

// One wave-level instruction: the ops of one (wave, issue).
struct IssueRow {
    int wave = 0, issue = 0;
    std::string mnemonic, builtin;
    int lanes = 0;        // lanes taking part
    int bytes = 0;        // bytes per lane (the widest of them)
    std::vector<int> ops; // indices into MemoryPlan::ops
    int report = -1;      // LDS: index into MemoryPlan::banks; -1 none
    int coalescing = -1;  // global: index into MemoryPlan::coalescing
};

// The planner's answer for one kind of access (plain loads, transpose loads or stores).
struct MemoryPlan {
    enum class Kind { Plain, Transposed, Store };
    Kind kind = Kind::Plain;
    std::string error;  // the planner's (or bank analysis') message; ops empty when planning failed
    std::vector<ls::MemoryOp> ops;
    std::vector<IssueRow> issues;
    std::optional<ls::BankModel> bank_model;  // LDS only
    std::string bank_error;                   // why there is no bank analysis
    std::vector<ls::BankReport> banks;
    std::vector<ls::CoalescingReport> coalescing;
    int cycles = 0, minimum_cycles = 0;       // LDS: sums over the instructions
    std::string confidence;                   // transpose loads: the lane rule's confidence ("high", ...)
    std::string confidence_basis;             // and why (the catalog row's words and sources)
    bool ok() const { return error.empty(); }
};
const char* plan_kind_name(MemoryPlan::Kind k);  // "plain loads", "transpose loads", "stores"

// One wave's share of a plan (tile mode has many waves; one instruction has wave 0 only).
struct WaveLoads {
    int wave = 0;
    int instructions = 0;                 // wave-level instructions
    int cycles = 0, minimum_cycles = 0;   // LDS: bank cycles summed over its instructions, and the conflict-free minimum
    int cache_lines = 0, minimum_lines = 0;  // global: 128-byte lines summed over its instructions, and the fewest
};
std::vector<WaveLoads> wave_loads(const MemoryPlan& p);
// The wave that costs most (LDS: cycles, global: cache lines; the first of equals), or -1 for none.
int worst_wave(const std::vector<WaveLoads>& w, bool lds);

// Runs the core planner of `kind` for the selected operand, then the bank (LDS)
// or coalescing (global) analysis. Never throws: a core Error becomes `error`.
MemoryPlan make_plan(const LayoutSet& set, const MemorySettings& s, MemoryPlan::Kind kind);

// The groupings offered for an instruction of the plan (pass_groupings), "" when none.
std::vector<ls::PassGrouping> groupings_for(const LayoutSet& set, const std::string& mnemonic);

// One memory cell of the grid: a position in the tile (line, position within the line).
struct MemoryCell {
    enum class Kind { Element, Unused, Padding };
    Kind kind = Kind::Unused;  // Unused: inside ld but outside the operand; Padding: the pad after ld
    ls::Element element;       // Kind::Element
    int op = -1;               // first op that reads (or writes) it; -1 none
    int readers = 0;           // how many ops touch it
    ls::Location to;           // where op's delivery puts it (destination lane, register, bits)
};

// The tile in memory order, every block: `lines` rows of
// ld + pad cells; cell index = line * (ld + pad) + position, i.e. the element
// index from the tile's start, so a byte address a lies in cell a * 8 / bits.
struct MemoryGrid {
    ls::Operand operand = ls::Operand::B;
    ls::MemoryTile tile;
    int lines = 0, positions = 0, extent = 0;
    int cols = 0, block_rows = 1;      // the matrix's columns and rows per block (cell_of_element's index)
    std::vector<MemoryCell> cells;
    std::vector<int> cell_of_element;  // memory row * cols + col -> cell
    int cell(int line, int position) const { return line * positions + position; }
    // The cell of an element, or -1.
    int cell_of(const ls::OperandLayout& l, const ls::Element& e) const;
    // The cell of an element of the grid's own matrix (tile coordinates in tile mode), or -1.
    int cell_of(const ls::Element& e) const;
    // The cells [first, last) an op's bytes cover (clipped to the grid).
    std::pair<int, int> op_cells(const ls::MemoryOp& op) const;
};

// Where element (row, col) lies: (line, position) from the documented formula
// (memory.hpp) with the swizzle applied.
std::pair<int, int> memory_position(const ls::MemoryTile& t, int row, int col);

MemoryGrid build_memory_grid(const ls::OperandLayout& l, const ls::MemoryTile& tile, const std::vector<ls::MemoryOp>& ops);
// The same for any matrix (tile mode: the tile operand, elements in tile coordinates).
MemoryGrid build_memory_grid(ls::Operand op, const MemoryMatrix& mm, const ls::MemoryTile& tile, const std::vector<ls::MemoryOp>& ops);

// The grid as tiles to cache in a texture: elements coloured like the Layout
// view (by the lane that reads them, its register or the block), unused cells
// in the background colour, padding grey; each labelled with the reading lane
// when every label fits. Tile::loc is (reading lane, its register); Tile::key
// the colour key.
// With `tiles` (tile mode) elements are coloured as the Layout tab's tile mode: each lane's shade of its
// wave's hue (palette.hpp wave_lane_color), Tile::wave and the key tile_colour_key.
TileGrid memory_tiles(const ls::Instruction& ins, const MemoryGrid& g, const std::vector<ls::MemoryOp>& ops,
                      const GridStyle& style, const TileSet* tiles = nullptr);

// The bank breakdown of one wave-level LDS instruction: per pass and bank, how
// many distinct dwords the bank must supply (the pass costs the largest).
struct BankStrip {
    int banks = 0, bank_bytes = 4;
    std::vector<std::vector<int>> lanes;     // per pass
    std::vector<std::vector<int>> distinct;  // [pass][bank]
    std::vector<int> pass_cycles;            // max over banks (0 for an empty pass)
    int cycles = 0;                          // sum of pass_cycles
};
BankStrip bank_strip(const std::vector<ls::MemoryOp>& ops, const IssueRow& row, const ls::BankModel& model,
                     const std::vector<std::vector<int>>& passes);
// The grid's cells whose dword sits in a bank that must supply more than one
// distinct dword in the pass of the lane reading it (the selected instruction).
std::vector<int> conflict_cells(const MemoryGrid& g, const std::vector<ls::MemoryOp>& ops, const IssueRow& row,
                                const BankStrip& strip);

// Tooltip text of a memory cell: the element, its address and bank, the op
// that reads it (issue, mnemonic, address, bytes, register) and where it lands.
std::string describe_memory_cell(const LayoutSet& set, const MemoryGrid& g, const MemoryPlan& plan, int cell);

}  // namespace lsapp
