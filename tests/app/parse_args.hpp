// An app command line parsed as the app parses it (add_app_options): "" or CLI11's message.
#pragma once

#include "model/options.hpp"

#include <string>
#include <vector>

namespace lsapp_test {

inline std::string parse(lsapp::AppArgs& a, std::vector<std::string> args) {
    CLI::App cli{"test"};
    lsapp::add_app_options(cli, a);
    args.insert(args.begin(), "lanescope");
    std::vector<const char*> argv;
    for (const auto& s : args) argv.push_back(s.c_str());
    try {
        cli.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        return e.what();
    }
    return "";
}

}  // namespace lsapp_test
