// A place typed by the user: the go-to box of the Layout tab and --pin. One
// parser for both, so that what the box takes the command line takes too.
//
// Elements: OP ROW COL [BLOCK], the numbers separated by spaces, commas or
// brackets: "A 3 17", "A,3,17", "D[13][7]", "C[13][7]" (C is D's picture),
// "B 2 5 b3" or "B,2,5,3" (block 3 of a multi-block instruction).
// Lanes: "lane 17", "lane,17", "L17", and NVIDIA's thread "T13"; in tile mode
// a wave may follow: "lane 17 wave 2", "lane,17,2", "w2 L17".
#pragma once

#include "model/links.hpp"
#include "model/selection.hpp"
#include "model/tile_view.hpp"

#include <string>

namespace lsapp {

// The place `text` names in the selection (in tile mode, `tile` non-null: in the
// tile's coordinates, an element's wave the first that holds it). Throws
// ls::Error saying what is wrong (a number outside the operand, an operand the
// instruction lacks) and, with `legal_forms()`, what is legal.
Hover parse_place(const std::string& text, const LayoutSet& set, const TileSet* tile);
// The forms parse_place takes, for messages and the box's hint.
std::string legal_forms(bool tile_mode);

// "A[3][17]", "A[3][17] block 2", "lane 17", "wave 1 lane 17": a place as the status bar names it.
std::string place_text(const Hover& h, const LayoutSet& set);
// Where a pinned element lives, in core's cell label ("v2[15:0] · L17", "w1 v12 · L17"; "+3 copies"
// when it is in more places); "" for lanes.
std::string place_location(const Hover& h, const LayoutSet& set, const TileSet* tile);

}  // namespace lsapp
