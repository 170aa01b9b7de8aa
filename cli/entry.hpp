// The whole CLI as a function (cli/main.cpp): lanescope-cli's main() (cli_main.cpp), the
// Python module, the web page's engine and the argument fuzzers call it, each run owning its
// arguments, so it may run many times in one process.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace lanescope::figures {
struct Figure;
}

namespace lscli {

// What a caller in this process asks of `figure` for one command line (the web page, which keeps
// a figure's tiles to hit-test the pointer, docs/web.md): `drawn` is called with each figure before
// it is written (empty: nothing is called); with `drawn_only` the figure is neither serialised nor
// written; `page_limit`: the most cells a tile's figure may have (0: figure's own limit).
struct FigureHooks {
    std::function<void(const lanescope::figures::Figure&)> drawn;
    bool drawn_only = false;
    long long page_limit = 0;
};

}  // namespace lscli

int lanescope_cli_main(int argc, char** argv);
int lanescope_cli_main_with(int argc, char** argv, const lscli::FigureHooks& hooks);
// The long options lanescope-cli offers for `command` ("--catalog", "--version", then the
// subcommand's: "--arch", ...), in the order its unknown-option message lists them; for a
// word that is no subcommand, only lanescope-cli's own.
std::vector<std::string> lanescope_cli_option_names(const std::string& command);
