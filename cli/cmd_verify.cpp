// Subcommands for checking layouts on a GPU / with the compiler (issue #6): none yet.
#include "common.hpp"

namespace lscli {

void register_verify_commands(CLI::App&, Options&, std::vector<Command>&) {}

}  // namespace lscli
