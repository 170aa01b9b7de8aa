// Interrupted writes: a large -o write ended by SIGTERM or SIGINT
// keeps the target as it was and leaves no temporary beside it, whether the
// bytes went to a file with no name (O_TMPFILE) or to a named temporary (the
// fallback where a filesystem refuses O_TMPFILE, unlinked by the signal handler).
#include "shell_run.hpp"

#include "lanescope/files.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace lstest;
namespace fs = std::filesystem;
namespace files = lanescope::files;

namespace {

std::string read_all(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), {});
}

// The names in `dir` other than `keep`.
std::vector<std::string> others(const fs::path& dir, const std::string& keep) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename() != keep) out.push_back(e.path().filename().string());
    return out;
}

// Forks a child that writes `target` through OutputFile forever (1 MiB at a
// time) until `sig` ends it; returns how the child ended.
int write_until_signalled(const fs::path& target, bool named, int sig, bool directory = false) {
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::close(ready[0]);
        // A plain program: the test runner's own fatal-signal handlers are not inherited.
        for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT}) ::signal(s, SIG_DFL);
        files::cleanup::use_named_temporaries(named);
        const std::string chunk(1 << 20, 'x');
        if (directory) {
            files::DirectoryWriter w(target.string(), ".marker");
            for (int n = 0;; ++n) {
                if (n == 3 && ::write(ready[1], "r", 1) != 1) ::_exit(3);
                w.write("f" + std::to_string(n % 64), chunk);
            }
        }
        files::OutputFile out(target.string());
        for (int n = 0;; ++n) {
            out.write(chunk);
            if (n == 8 && ::write(ready[1], "r", 1) != 1) ::_exit(3);  // mid-write from here on
        }
    }
    ::close(ready[1]);
    char c;
    REQUIRE(::read(ready[0], &c, 1) == 1);
    ::close(ready[0]);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::kill(pid, sig);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

}  // namespace

TEST_CASE("interrupted writes: SIGTERM or SIGINT mid-write keeps the target and leaves no debris", "[files]") {
    const fs::path dir = temp_path("lanescope_interrupted");
    for (bool named : {false, true})
        for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
            INFO((named ? "named temporary" : "O_TMPFILE") << ", signal " << sig);
            fs::remove_all(dir);
            fs::create_directories(dir);
            const fs::path target = dir / "out.json";
            std::ofstream(target) << "the previous answer\n";
            const int status = write_until_signalled(target, named, sig);
            CHECK(WIFSIGNALED(status));  // the signal still ends the process, with its own status
            if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == sig);
            CHECK(read_all(target) == "the previous answer\n");
            CHECK(others(dir, "out.json").empty());
        }
    fs::remove_all(dir);
}

TEST_CASE("interrupted writes: a new target is not created by a killed writer", "[files]") {
    const fs::path dir = temp_path("lanescope_interrupted_new");
    for (bool named : {false, true}) {
        fs::remove_all(dir);
        fs::create_directories(dir);
        write_until_signalled(dir / "new.json", named, SIGTERM);
        CHECK(fs::is_empty(dir));
    }
    fs::remove_all(dir);
}

TEST_CASE("interrupted writes: a directory writer ended by SIGTERM leaves no temporary directory", "[files]") {
    const fs::path dir = temp_path("lanescope_interrupted_dir");
    fs::remove_all(dir);
    fs::create_directories(dir);
    write_until_signalled(dir / "gallery", false, SIGTERM, true);
    CHECK(fs::is_empty(dir));
    fs::remove_all(dir);
}

TEST_CASE("OutputFile: complete writes replace atomically, uncommitted ones leave nothing", "[files]") {
    const fs::path dir = temp_path("lanescope_outputfile");
    for (bool named : {false, true}) {
        INFO((named ? "named temporary" : "O_TMPFILE"));
        files::cleanup::use_named_temporaries(named);
        fs::remove_all(dir);
        fs::create_directories(dir);
        const fs::path target = dir / "x.txt";
        {
            files::OutputFile out(target.string());
            CHECK(out.unnamed() == !named);
            out.write("first ");
            out.write("answer\n");
            CHECK_FALSE(fs::exists(target));  // nothing visible before commit
            out.commit();
        }
        CHECK(read_all(target) == "first answer\n");
        {
            files::OutputFile out(target.string());  // replaces an existing file
            out.write("second\n");
            out.commit();
        }
        CHECK(read_all(target) == "second\n");
        {
            files::OutputFile out(target.string());
            out.write("abandoned\n");
        }  // destroyed uncommitted
        CHECK(read_all(target) == "second\n");
        CHECK(others(dir, "x.txt").empty());
    }
    files::cleanup::use_named_temporaries(false);
    fs::remove_all(dir);
}

TEST_CASE("interrupted writes: lanescope-cli killed by timeout mid-way through a large -o leaves no debris", "[files]") {
    const fs::path dir = temp_path("lanescope_cli_interrupted");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path target = dir / "big.json";
    std::ofstream(target) << "{}\n";
    // 1.7 GB of JSON: far from done after 0.5 s. `timeout` sends SIGTERM.
    const Run r = run_command(std::string("timeout -s TERM 0.5 ") + LANESCOPE_CLI +
                              " layout -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C --waves 4x4 --shape 4096x4096 --format json -o " +
                              target.string());
    CHECK(r.status == 124);
    CHECK(read_all(target) == "{}\n");
    CHECK(others(dir, "big.json").empty());
    fs::remove_all(dir);
}

TEST_CASE("write_regular_file refuses a FIFO, a device and a directory without opening them", "[files]") {
    const fs::path dir = temp_path("lanescope_regular");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path fifo = dir / "settings.ini";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // A FIFO with no reader: an open for writing would wait forever; this must return at once.
    const auto t0 = std::chrono::steady_clock::now();
    try {
        files::write_regular_file(fifo.string(), "x=1\n");
        FAIL("a FIFO was written");
    } catch (const lanescope::Error& e) {
        CHECK(std::string(e.what()).find("it is a FIFO; legal: a regular file") != std::string::npos);
    }
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    struct stat st {};
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));  // left as it was
    CHECK_THROWS_WITH(files::write_regular_file("/dev/null", "x"), Catch::Contains("a character device"));
    CHECK_THROWS_WITH(files::write_regular_file(dir.string(), "x"), Catch::Contains("a directory"));
    files::write_regular_file((dir / "new.ini").string(), "x=1\n");
    CHECK(read_all(dir / "new.ini") == "x=1\n");
    fs::remove_all(dir);
}
