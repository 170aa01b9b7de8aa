// The scale factors of a block-scaled tcgen05.mma in shared memory as a figure
// (`figure --memory smem --operand SFA|SFB`, docs/figures.md): one CTA's SF tile as
// CUTLASS stages it (core's ScaleFactorTile, lanescope/scale_factors.hpp), one grid
// row per 16-byte source row of tcgen05.cp.32x128b.warpx4, one cell per byte
// labelled with the (row or column, K-block) it holds and coloured by the TMEM
// column it is copied to; beside each row the TMEM lanes it reaches; below, the
// formulas, notes and confidence. Every byte is core's (ScaleFactorTile::place).
#pragma once

#include "lanescope/figures.hpp"
#include "lanescope/scale_factors.hpp"

namespace lanescope::figures {

struct ScaleFactorFigureSpec {
    Query query;           // instruction, target, modifiers
    ScaleFactorTile tile;  // scale_factor_tile(...) of SFA or SFB
    Theme theme = Theme::Light;
    double fit_width = 0;  // as FigureSpec
    double min_font = 0;
    bool hover_titles = false;
};
// Tile ids and refs "SA.0x0016" (the byte's offset in the SF tile); with hover_titles each byte's
// whole path (scale_factor_answer) as its <title>.
Figure build_scale_factor_figure(const ScaleFactorFigureSpec& spec);

}  // namespace lanescope::figures
