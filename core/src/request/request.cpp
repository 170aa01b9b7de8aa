#include "lanescope/request.hpp"

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

std::optional<Export> parse_export(std::string_view s) {
    if (s == "linear") return Export::Linear;
    if (s == "cute") return Export::Cute;
    if (s == "gluon") return Export::Gluon;
    return std::nullopt;
}

std::string_view export_name(Export e) {
    switch (e) {
        case Export::Linear: return "linear";
        case Export::Cute: return "cute";
        case Export::Gluon: return "gluon";
    }
    return "?";
}

}  // namespace lanescope
