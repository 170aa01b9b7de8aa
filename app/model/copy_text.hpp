// "Copy as": the view's layout as lanescope-cli writes it, for the clipboard:
// `layout --format gluon|linear|cute` and `header`, the same core calls the CLI
// makes (render_export, render_header); nothing here formats a layout itself.
#pragma once

#include "model/selection.hpp"

#include "lanescope/tile.hpp"

#include <optional>
#include <string>

namespace lsapp {

enum class CopyKind { Gluon, Linear, Cute, Header };
const char* copy_kind_name(CopyKind k);  // "Gluon", "linear layout", "CuTe layout", "C++ header"

// One operand (or every operand, `op` empty) of the selection, over `tile` (the
// default TileParams: the instruction alone). Header ignores `op` (the header holds
// every operand). Throws ls::Error with core's reason when the layout has no such form.
std::string copy_text(const LayoutSet& set, const ls::TileParams& tile, std::optional<ls::Operand> op, CopyKind kind);

}  // namespace lsapp
