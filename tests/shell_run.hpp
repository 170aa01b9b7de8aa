// Runs a command line as a user would and captures stdout, stderr and the exit
// status (shared by the CLI tests of every part).
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace lstest {

struct Run {
    int status;
    std::string out, err;
};

// Unique per process, so parallel test runs (other build trees) never collide.
inline std::filesystem::path temp_path(const std::string& name) {
    return std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
}

inline Run run_command(const std::string& cmd_line) {
    static int n = 0;
    const std::string err_file = temp_path("lanescope_stderr_" + std::to_string(++n));
    const std::string cmd = cmd_line + " 2>" + err_file;
    Run r{};
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::array<char, 65536> buf{};
    size_t got;
    while ((got = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), got);
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::ifstream e(err_file);
    r.err.assign(std::istreambuf_iterator<char>(e), {});
    std::filesystem::remove(err_file);
    return r;
}

// A file under the temporary directory holding text (the caller removes it).
inline std::string write_temp(const std::string& name, const std::string& text) {
    const std::string p = temp_path(name).string();
    std::ofstream f(p, std::ios::binary);
    f << text;
    return p;
}

#ifdef LANESCOPE_CLI
// lanescope-cli with these arguments, as a shell would run it.
inline Run cli(const std::string& args) { return run_command(std::string(LANESCOPE_CLI) + " " + args); }
#endif

}  // namespace lstest
