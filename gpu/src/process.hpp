// Running the compiler and disassembler: a child process with its output in files.
#pragma once

#include <string>
#include <vector>

namespace lanescope::gpu::detail {

// Runs argv[0] (looked up on PATH) with stdout and stderr redirected to files
// ("" = /dev/null). Returns the exit status, or -1 if it could not be started
// (then *error says why), or 128 + signal if it was killed.
int run_process(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path,
                std::string* error = nullptr);
std::string read_file(const std::string& path);
bool write_file_atomic(const std::string& path, const std::string& text);
// A fresh private directory under $TMPDIR (or /tmp); throws Error on failure.
std::string make_temp_dir(const std::string& prefix);
void remove_tree(const std::string& path);

}  // namespace lanescope::gpu::detail
