// Text renderings of the NVIDIA shared-memory and Tensor Memory answers
// (smem.hpp, scale_factors.hpp): descriptors, TMA boxes, bank wavefronts and
// the scale factors' path to Tensor Memory.
#pragma once

#include "lanescope/render.hpp"
#include "lanescope/scale_factors.hpp"
#include "lanescope/smem.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// `load --memory smem`: the descriptor's fields, the byte formula, notes, the TMA comparison (if
// any) and every element's address, bank and core matrix. JSON (the load contract: the layout's
// header, "memory", "descriptor", "formula", "notes", "entries"), CSV or a table.
std::string render_smem_operand(const Query& q, const SmemOperand& so, const OperandLayout& L,
                                const TmaComparison* tma, Format f);
// `tma`: where the box puts each element (JSON "entries": row, col, address, bank), CSV/markdown, or
// a table of where each row's 16-byte chunks land.
std::string render_tma(const TmaBox& b, Format f);
// One access's report (smem_bank_wavefronts): phases, wavefronts and words per bank, table or JSON.
std::string render_smem_banks(const SmemBankReport& r, Format f);
// `banks`: the wavefronts (NVIDIA) or LDS cycles (AMD, its pass grouping) one warp/wave-wide access
// costs, phase by phase, table or JSON ("wavefronts"); `access` an NVIDIA name (smem_access_names)
// or an LDS mnemonic (ds_read_b128, ...). Throws Error with what is legal.
std::string render_bank_access(const Target& t, std::string_view access, const std::vector<std::uint32_t>& addresses,
                               Format f);

// `load --memory smem --operand SFA|SFB`: the formulas, notes, evidence and one row per scale
// factor (or only (row, col) when both are >= 0: SFA row m, col kb; SFB row kb, col n).
// JSON: the query header, "memory": "smem", "path": {...}, "entries": [...].
std::string render_scale_factor_tile(const Query& q, const ScaleFactorTile& t, Format f, int row = -1, int col = -1);

}  // namespace lanescope
