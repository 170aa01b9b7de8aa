// The web page's engine (docs/web.md): the CLI itself, bound with embind. A page
// state is a CLI command line (web/app.js writes the link's keys as long options),
// so names, values, messages and exported bytes are lanescope-cli's. Answers are
// written to files of emscripten's in-memory file system (-o), messages to stderr
// (the page collects them); `figure` also leaves its tiles for hit-testing.
#include "common.hpp"
#include "lanescope/figures.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cerrno>
#include <string>
#include <vector>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

int lanescope_cli_main(int argc, char** argv);

// `bench` times child processes; a page starts none (emscripten's posix_spawn fails, so `bench`
// says "cannot start" before it would wait), and emscripten's C library has no wait4 to link.
extern "C" pid_t wait4(pid_t, int*, int, struct rusage*) {
    errno = ECHILD;
    return -1;
}

namespace {

namespace fig = lanescope::figures;

// The tiles of the last figure drawn: x, y, w, h per tile (user units, the SVG's), and one line
// per tile: its id, then its label lines, tab-separated.
std::vector<double> g_boxes;
std::string g_ids;

// One CLI run; `args` is the command line after the program name, one argument a line.
int run(const std::string& args) {
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
    lscli::figure_drawn = [](const fig::Figure& f) {
        g_boxes.reserve(f.tiles.size() * 4);
        for (const fig::Tile& t : f.tiles) {
            g_boxes.insert(g_boxes.end(), {t.x, t.y, t.w, t.h});
            g_ids += t.id.empty() ? t.ref : t.id;
            for (const std::string& line : t.lines) g_ids += '\t' + line;
            g_ids += '\n';
        }
    };
    const int rc = lanescope_cli_main(static_cast<int>(words.size()), argv.data());
    lscli::figure_drawn = nullptr;
    std::fflush(stdout);
    std::fflush(stderr);
    return rc;
}

emscripten::val tile_boxes() {
    return emscripten::val(emscripten::typed_memory_view(g_boxes.size(), g_boxes.data()));
}
std::string tile_ids() { return g_ids; }

}  // namespace

EMSCRIPTEN_BINDINGS(lanescope) {
    emscripten::function("run", &run);
    emscripten::function("tileBoxes", &tile_boxes);
    emscripten::function("tileIds", &tile_ids);
}
