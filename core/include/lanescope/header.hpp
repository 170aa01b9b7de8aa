// A generated C++17 header for one instruction (or tile), usable from HIP and
// CUDA device code and from host code. Per operand: element <-> (wave, lane,
// item) as closed-form index math (every layout here that is linear over GF(2)
// becomes shifts, masks and XORs of the wave, lane and item; no tables in
// device memory), vector loads/stores of the width `lanescope-cli load` plans,
// the register order of tiles as `step(...)`, packing into the instruction's
// 32-bit registers and, where lanescope knows the builtin or PTX, `mma(...)`.
// Operands that are not linear (broadcast modifiers, sparse A's index) keep
// constexpr tables; `HeaderOptions::tables` asks for tables everywhere (the
// earlier form, for host-side checks). Nothing in the header is hand-written
// per instruction.
#pragma once

#include "lanescope/request.hpp"
#include "lanescope/tile.hpp"

#include <string>

namespace lanescope {

struct HeaderOptions {
    bool tables = false;  // constexpr tables instead of closed forms (host-side checks)
};

// `name` becomes the namespace (a C++ identifier). Items number one lane's
// (element, bits) parts in register-and-bit order; where several elements name
// the same bits (broadcast modifiers, sparse A's dense k), each is an item, by
// row then col. Tiles need single-block instructions (TileLayout throws).
std::string render_header(const Query& q, const TileParams& tile, const std::string& name, const HeaderOptions& opts = {});

// The namespace (and include guard) `header` gives instruction `ins` on `t` at `wave` when --namespace is
// left out: "ls_<gfx>_<key>", the key the catalog keeps unique per family and wave (the builtin without
// __builtin_amdgcn_ on AMD, the short name on NVIDIA: tcgen05_mma_m128n64k16_f32_f16_ts), made an
// identifier (other characters become one _: a double underscore is reserved). So two headers of two
// instructions never share a namespace or a guard.
std::string default_header_namespace(const Instruction& ins, const Target& t, int wave);

// Throws Error unless `name` can name the namespace of generated code: a C++
// identifier (letters, digits, _, not starting with a digit) that is not a
// keyword or alternative token (int, class, and), not reserved (a double
// underscore, or _ followed by an upper-case letter; std, posix) and not a macro
// the generated code defines (LANESCOPE_HD, LANESCOPE_DEVICE, LS_HD, ...). `option`
// names the flag in the message ("--namespace").
void check_namespace_name(const std::string& name, const std::string& option);

}  // namespace lanescope
