// The web page's engine (docs/web.md): the CLI itself, bound with embind. A page
// state is a CLI command line (web/app.js writes the link's keys as long options),
// so names, values, messages and exported bytes are lanescope-cli's. Answers are
// written to files of emscripten's in-memory file system (-o), messages to stderr
// (the page collects them); `figure` also leaves its tiles for hit-testing.
#include "common.hpp"
#include "lanescope/figures.hpp"
#include "lanescope/options.hpp"
#include "lanescope/render.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>


// `bench` times child processes; a page starts none (emscripten's posix_spawn fails, so `bench`
// says "cannot start" before it would wait), and emscripten's C library has no wait4 to link.
extern "C" pid_t wait4(pid_t, int*, int, struct rusage*) {
    errno = ECHILD;
    return -1;
}

namespace {

namespace fig = lanescope::figures;

// The tiles of the last figure drawn: x, y, w, h per tile (user units, the SVG's), and one line
// per tile: its id, then its label lines, tab-separated; per tile its fill, its label's ink
// (0xRRGGBB) and whether its label is drawn; and the rest of the figure (boxes, lines, texts and
// the figure's own settings) as JSON. The page paints this list on a <canvas> as the SVG writer
// (figures/src/svg.cpp) draws it: every colour, label and position is the engine's.
std::vector<double> g_boxes;
std::string g_ids;
std::string g_hovers;  // per tile what a pointer over it is told (the SVG's <title>; "" where none), one a line
std::vector<std::uint32_t> g_colors;
std::string g_scene;

std::uint32_t packed(const lanescope::Rgb& c) { return (std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b; }

void number(std::string& out, double v) { out += std::to_string(v); }

std::string scene_of(const fig::Figure& f) {
    std::string s = "{\"width\":";
    number(s, f.width);
    s += ",\"height\":";
    number(s, f.height);
    s += ",\"background\":" + std::to_string(packed(f.background));
    s += ",\"tileStroke\":" + std::to_string(packed(f.tile_stroke));
    s += std::string(",\"tileGrid\":") + (f.tile_grid ? "true" : "false");
    s += ",\"tileFont\":";
    number(s, f.tile_font);
    s += ",\"tileLine\":";
    number(s, f.tile_line);
    s += ",\"boxes\":[";
    for (size_t i = 0; i < f.boxes.size(); ++i) {
        const fig::Box& b = f.boxes[i];
        s += i ? ",[" : "[";
        for (double v : {b.x, b.y, b.w, b.h}) number(s, v), s += ',';
        s += (b.filled ? std::to_string(packed(b.fill)) : std::string("-1")) + ',' + std::to_string(packed(b.stroke)) + ',';
        number(s, b.stroke_width);
        s += ']';
    }
    s += "],\"lines\":[";
    for (size_t i = 0; i < f.lines.size(); ++i) {
        const fig::Line& l = f.lines[i];
        s += i ? ",[" : "[";
        for (double v : {l.x1, l.y1, l.x2, l.y2, l.width}) number(s, v), s += ',';
        s += std::to_string(packed(l.color)) + ']';
    }
    s += "],\"texts\":[";
    for (size_t i = 0; i < f.texts.size(); ++i) {
        const fig::Text& t = f.texts[i];
        s += i ? ",[" : "[";
        for (double v : {t.x, t.y, t.size}) number(s, v), s += ',';
        const char* anchor = t.anchor == fig::Anchor::Middle ? "\"center\"" : t.anchor == fig::Anchor::End ? "\"end\"" : "\"start\"";
        s += std::string(anchor) + ',' + (t.bold ? "true" : "false") + ',' + std::to_string(packed(t.color)) + ',' +
             lanescope::json_string(t.text) + ']';
    }
    s += "]}";
    return s;
}

// The cells (placements over the operands drawn) of the largest figure the page draws: a 512x512
// C tile (docs/web.md has the times).
constexpr long long kPageFigureCells = 1LL << 18;

// One CLI run; `args` is the command line after the program name, one argument a line. With
// `draw_only`, a figure is drawn for the page (its display list kept) and not serialised.
int run_cli(const std::string& args, bool draw_only) {
    // emscripten starts with umask 0777, which leaves the files the CLI writes mode 0 (unreadable);
    // a shell's usual 022 instead.
    ::umask(022);
    std::vector<std::string> words = {"lanescope-cli"};
    size_t at = 0;
    while (at <= args.size()) {
        const size_t nl = args.find('\n', at);
        const size_t end = nl == std::string::npos ? args.size() : nl;
        if (end > at || nl != std::string::npos) words.push_back(args.substr(at, end - at));
        if (nl == std::string::npos) break;
        at = nl + 1;
    }
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    g_boxes.clear();
    g_ids.clear();
    g_hovers.clear();
    g_colors.clear();
    g_scene.clear();
    lscli::FigureHooks hooks;
    hooks.drawn_only = draw_only;
    // What the page draws is hit-tested and outlined tile by tile, and its lanes read once: a tile at
    // figure's own limit (2,097,152 cells) froze the tab for half a minute; the downloads (run) keep it.
    hooks.page_limit = draw_only ? kPageFigureCells : 0;
    hooks.drawn = [](const fig::Figure& f) {
        g_boxes.reserve(f.tiles.size() * 4);
        g_colors.reserve(f.tiles.size() * 3);
        g_scene = scene_of(f);
        for (const fig::Tile& t : f.tiles) {
            g_boxes.insert(g_boxes.end(), {t.x, t.y, t.w, t.h});
            g_colors.insert(g_colors.end(), {packed(t.fill), packed(t.ink), t.id.empty() ? 0u : 1u});
            g_ids += t.id.empty() ? t.ref : t.id;
            for (const std::string& line : t.lines) g_ids += '\t' + line;
            g_ids += '\n';
            for (char c : t.hover) g_hovers += c == '\n' ? ' ' : c;
            g_hovers += '\n';
        }
    };
    const int rc = lanescope_cli_main_with(static_cast<int>(words.size()), argv.data(), hooks);
    std::fflush(stdout);
    std::fflush(stderr);
    return rc;
}

int run(const std::string& args) { return run_cli(args, false); }
// `figure`'s picture for the page: the display list only (scene, tileBoxes, ...), no file written.
int draw(const std::string& args) { return run_cli(args, true); }

emscripten::val tile_boxes() {
    return emscripten::val(emscripten::typed_memory_view(g_boxes.size(), g_boxes.data()));
}
std::string tile_ids() { return g_ids; }
std::string tile_hovers() { return g_hovers; }
emscripten::val tile_colors() {
    return emscripten::val(emscripten::typed_memory_view(g_colors.size(), g_colors.data()));
}
std::string scene() { return g_scene; }

// A modifier of `info --format json`'s modifiers_legal (by its field name: "smem_major") as the page
// offers it: {"key": "major", "values": ["K", "MN"]}, the link key of the CLI option that sets the
// field and each legal value spelled as that option takes it (lanescope/options.hpp, the table every
// front end parses with); "null" where no option of the CLI sets the field (wgmma's smem_a: the SS
// form is `load --operand A`'s, not a figure's). `values`: the legal values, comma-separated.
std::string menu_of(const std::string& field, const std::string& values) {
    const lanescope::ModifierOption* o = lanescope::find_modifier_option(field);
    if (!o || o->field != field) return "null";
    std::string key = o->flag().substr(2);
    for (char& c : key)
        if (c == '-') c = '_';
    std::string s = "{\"key\": " + lanescope::json_string(key) + ", \"values\": [";
    size_t at = 0, n = 0;
    while (at < values.size()) {
        const size_t comma = std::min(values.find(',', at), values.size());
        const int v = std::stoi(values.substr(at, comma - at));
        std::string text = std::to_string(v);
        if (o->value == lanescope::OptionValue::Named || o->value == lanescope::OptionValue::Word) {
            const std::string name = lanescope::modifier_value_name(field, v);
            if (!name.empty()) text = name;
        }
        s += (n++ ? ", " : "") + lanescope::json_string(text);
        at = comma + 1;
    }
    return s + "]}";
}

}  // namespace

EMSCRIPTEN_BINDINGS(lanescope) {
    emscripten::function("run", &run);
    emscripten::function("draw", &draw);
    emscripten::function("tileBoxes", &tile_boxes);
    emscripten::function("tileIds", &tile_ids);
    emscripten::function("tileHovers", &tile_hovers);
    emscripten::function("tileColors", &tile_colors);
    emscripten::function("scene", &scene);
    emscripten::function("menuOf", &menu_of);
}
