#include "lanescope/request.hpp"

#include <utility>

namespace lanescope {

Format parse_format(std::string_view s) {
    if (s == "table") return Format::Table;
    if (s == "csv") return Format::Csv;
    if (s == "markdown" || s == "md") return Format::Markdown;
    if (s == "json") return Format::Json;
    if (parse_export(s)) throw Error("--format " + std::string(s) + " is for `layout` only");
    throw Error("unknown format '" + std::string(s) + "'; legal: table, csv, markdown, json (layout also: linear, cute, gluon)");
}

View parse_view(std::string_view s) {
    if (s == "matrix") return View::Matrix;
    if (s == "registers" || s == "register") return View::Registers;
    throw Error("unknown view '" + std::string(s) + "'; legal: matrix, registers");
}

namespace {
// The exports and their words, both ways.
constexpr std::pair<Export, std::string_view> kExports[] = {
    {Export::Linear, "linear"}, {Export::Cute, "cute"}, {Export::Gluon, "gluon"}};
}  // namespace

std::optional<Export> parse_export(std::string_view s) {
    for (const auto& [e, name] : kExports)
        if (s == name) return e;
    return std::nullopt;
}

std::string_view export_name(Export e) {
    for (const auto& [x, name] : kExports)
        if (x == e) return name;
    return "?";
}

}  // namespace lanescope
