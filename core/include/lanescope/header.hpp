// A generated C++17 header for one instruction (or tile): constexpr element ->
// (wave, lane, register, bits) and (wave, lane, item) -> element per operand,
// plus load/store helpers over a row- or column-major pointer, usable from HIP
// device code and from host code. The tables are the engine's answers; nothing
// in the header is hand-written per instruction.
#pragma once

#include "lanescope/render.hpp"
#include "lanescope/tile.hpp"

#include <string>

namespace lanescope {

// `name` becomes the namespace (a C++ identifier). Items number one lane's
// (element, bits) parts in register-and-bit order; where several elements name
// the same bits (broadcast modifiers, sparse A's dense k), each is an item, by
// row then col. Tiles need single-block instructions (TileLayout throws).
std::string render_header(const Query& q, const TileParams& tile, const std::string& name);

// Throws Error unless `name` can name the namespace of generated code: a C++
// identifier (letters, digits, _, not starting with a digit) that is not a
// keyword or alternative token (int, class, and), not reserved (a double
// underscore, or _ followed by an upper-case letter; std, posix) and not a macro
// the generated code defines (LANESCOPE_HD, LS_HD, LS_LDS, LS_GLOBAL). `option`
// names the flag in the message ("--namespace").
void check_namespace_name(const std::string& name, const std::string& option);

}  // namespace lanescope
