// Subcommands for documentation figures (issue #5): none yet.
#include "common.hpp"

namespace lscli {

void register_figure_commands(CLI::App&, Options&, std::vector<Command>&) {}

}  // namespace lscli
