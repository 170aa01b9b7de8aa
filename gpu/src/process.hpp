// Running the compiler and disassembler: a child process with its output in files,
// under a time limit, and the temporary files removed on every exit path
// (errors, time limits, SIGINT/SIGTERM/SIGHUP).
#pragma once

#include <string>
#include <vector>

namespace lanescope::gpu::detail {

// The time limit of one tool run when none is given (seconds): a hanging
// compiler is killed, not waited for.
inline constexpr double kToolSeconds = 300;
// run_process's status for a tool killed at its time limit.
inline constexpr int kTimedOut = -2;

// Runs argv[0] (looked up on PATH) in a process group of its own, with stdout
// and stderr redirected to files ("" = /dev/null), for at most `seconds`.
// Returns the exit status, -1 if it could not be started (then *error says
// why), kTimedOut if it ran past `seconds` (its whole process group is killed;
// *error says so), or 128 + signal if it was killed. Throws Error when an
// InterruptGuard caught a signal (the child is killed first).
int run_process(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path,
                std::string* error = nullptr, double seconds = kToolSeconds);
std::string read_file(const std::string& path);
bool write_file_atomic(const std::string& path, const std::string& text);
// A fresh private directory under $TMPDIR (or /tmp); throws Error on failure.
std::string make_temp_dir(const std::string& prefix);
void remove_tree(const std::string& path);

// A temporary directory removed when it goes out of scope (unless kept).
class TempDir {
public:
    explicit TempDir(const std::string& prefix) : path_(make_temp_dir(prefix)) {}
    ~TempDir() {
        if (!keep_) remove_tree(path_);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    void keep() { keep_ = true; }

private:
    std::string path_;
    bool keep_ = false;
};

// While one lives, SIGINT, SIGTERM and SIGHUP do not end the process at once:
// the handler kills the running tools and records the signal; run_process
// then throws, so that every scope unwinds and removes its temporary files.
// The caller ends with the signal (interrupted_signal()) once it has unwound.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
    // Throws Error when a signal arrived.
    static void check();
};

}  // namespace lanescope::gpu::detail
