// The question a front end asks core, as values: which instruction on which
// target under which modifiers (Query), and how an answer is printed (View,
// Format, Export). The model headers (tile, memory, smem, ...) take a Query;
// the renderers (render*.hpp) take a Query and a Format. The words of each
// value and the refusal of a word that is none of them are decided here, for
// every front end.
#pragma once

#include "lanescope/lanescope.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

// `--view`: a layout drawn over the operand's matrix, or register by register.
enum class View { Matrix, Registers };
// `--format`: the text formats every answer has.
enum class Format { Table, Csv, Markdown, Json };
// `layout --format linear|cute|gluon`: one layout written as another tool's input.
enum class Export { Linear, Cute, Gluon };

// What one query is about; the header of every rendering.
struct Query {
    const Instruction* ins = nullptr;
    const Target* target = nullptr;
    ResolvedModifiers mods;
};

// "table", "csv", "markdown" (or "md"), "json"; an export's name is refused as
// being for `layout` only, anything else with the legal words (Error).
Format parse_format(std::string_view s);
// "matrix", "registers" (or "register"); else an Error naming them.
View parse_view(std::string_view s);
// "linear", "cute", "gluon"; nullopt for any other word (a text format, perhaps).
std::optional<Export> parse_export(std::string_view s);
std::string_view export_name(Export e);

}  // namespace lanescope
