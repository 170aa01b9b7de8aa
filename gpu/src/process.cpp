#include "process.hpp"

#include "lanescope/gpu.hpp"
#include "lanescope/lanescope.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace lanescope::gpu::detail {

// The signal an InterruptGuard caught (0: none), and the process groups of the
// tools running now (0: free slot), for the handler to kill.
volatile std::sig_atomic_t g_signal = 0;

namespace {

constexpr int kSlots = 256;
std::atomic<pid_t> g_children[kSlots];
std::atomic<int> g_guards{0};
struct sigaction g_old[3];
constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void on_interrupt(int sig) {
    g_signal = sig;
    for (auto& c : g_children) {
        const pid_t p = c.load();
        if (p > 0) ::kill(-p, SIGKILL);
    }
}

std::string signal_name(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        default: return "signal " + std::to_string(sig);
    }
}

std::string seconds_text(double s) {
    std::ostringstream t;
    t << s;
    return t.str();
}

}  // namespace

InterruptGuard::InterruptGuard() {
    if (g_guards++ != 0) return;
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    for (int n = 0; n < 3; ++n) ::sigaction(kSignals[n], &sa, &g_old[n]);
}

InterruptGuard::~InterruptGuard() {
    if (--g_guards != 0) return;
    for (int n = 0; n < 3; ++n) ::sigaction(kSignals[n], &g_old[n], nullptr);
}

void InterruptGuard::check() {
    if (g_signal) throw Error("interrupted by " + signal_name(g_signal) + " (the running tools were stopped)");
}

int run_process(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path,
                std::string* error, double seconds) {
    InterruptGuard::check();
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path.empty() ? "/dev/null" : out_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path.empty() ? "/dev/null" : err_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    // A process group of its own: at the time limit (or on a signal) the tool
    // and everything it started are killed together.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    // No symbolised stack dumps when the compiler crashes on an unsupported
    // builtin: they take most of the time of such a compile.
    std::vector<char*> env;
    for (char** e = environ; e && *e; ++e) env.push_back(*e);
    static char no_symbols[] = "LLVM_DISABLE_SYMBOLIZATION=1";
    env.push_back(no_symbols);
    env.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        if (error) *error = "cannot run " + argv[0] + ": " + std::strerror(rc);
        return -1;
    }
    int slot = -1;
    for (int n = 0; n < kSlots && slot < 0; ++n) {
        pid_t free_slot = 0;
        if (g_children[n].compare_exchange_strong(free_slot, pid)) slot = n;
    }
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
    int status = 0;
    bool timed_out = false;
    for (std::chrono::microseconds nap{200};;) {
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            status = -1;
            break;
        }
        if (g_signal || (!timed_out && clock::now() >= deadline)) {
            timed_out = timed_out || !g_signal;
            ::kill(-pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        std::this_thread::sleep_for(nap);
        nap = std::min(nap * 2, std::chrono::microseconds{20000});
    }
    // Whatever the tool left running in its group goes too.
    ::kill(-pid, SIGKILL);
    if (slot >= 0) g_children[slot].store(0);
    InterruptGuard::check();
    if (timed_out) {
        if (error) *error = argv[0] + " did not finish within " + seconds_text(seconds) + " s and was killed";
        return kTimedOut;
    }
    if (status == -1) return -1;
    if (WIFEXITED(status)) {
        // posix_spawnp reports a missing program as exit status 127 from the child.
        if (WEXITSTATUS(status) == 127 && error) *error = "cannot run " + argv[0] + " (not found?)";
        return WEXITSTATUS(status);
    }
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string read_file(const std::string& path) {
    // A tool's output is read up to 64 MiB (a runaway tool is stopped by its time limit).
    constexpr std::streamsize kMost = 64 << 20;
    std::ifstream f(path, std::ios::binary);
    std::string s(static_cast<size_t>(kMost), '\0');
    f.read(s.data(), kMost);
    s.resize(static_cast<size_t>(std::max<std::streamsize>(0, f.gcount())));
    return s;
}

bool write_file_atomic(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream f(tmp, std::ios::binary);
        if (!f || !(f << text) || !f.flush()) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) std::filesystem::remove(tmp, ec);
    return !ec;
}

std::string make_temp_dir(const std::string& prefix) {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/" + prefix + "XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw Error("cannot create a temporary directory " + templ + ": " + std::strerror(errno));
    return buf.data();
}

void remove_tree(const std::string& path) {
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

}  // namespace lanescope::gpu::detail

namespace lanescope::gpu {

int interrupted_signal() { return detail::g_signal; }

}  // namespace lanescope::gpu
