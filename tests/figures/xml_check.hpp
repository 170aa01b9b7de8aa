// Test helpers: a small XML well-formedness checker, the tiles of an SVG
// figure as parsed back from its text, and running lanescope-cli.
#pragma once

#include <string>
#include <vector>

namespace figtest {

// "" when `xml` is well-formed (one root, balanced and properly nested tags,
// quoted attributes, known entities); otherwise what is wrong and where.
std::string xml_problem(const std::string& xml);

struct SvgTile {
    std::string id;
    double x = 0, y = 0;  // the label's anchor: centre x, first baseline y
    std::string fill;
    std::vector<std::string> lines;
};
// The tile fill rectangles of an SVG written by lanescope (the fill paths of
// its <g class="t">; one rectangle may cover a run of tiles).
struct SvgRect {
    double x = 0, y = 0, w = 0, h = 0;
    std::string fill;
};
std::vector<SvgRect> svg_fill_rects(const std::string& svg);
// Every tile of an SVG written by lanescope: its label (from the <tspan id>
// of its first line) and the fill of the rectangle under it (empty if none).
std::vector<SvgTile> svg_tiles(const std::string& svg);

struct Run {
    int status = -1;
    std::string out, err;
};
Run cli(const std::string& args);
std::string read_file(const std::string& path);
std::string temp_dir(const std::string& tag);

}  // namespace figtest
