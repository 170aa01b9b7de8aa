// In-process output (lanescope::files::Capture): what a front end that runs the CLI as a function
// (the Python module) takes, and that the process's file descriptors are never touched.
#include "lanescope/files.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

int lanescope_cli_main(int argc, char** argv);

namespace files = lanescope::files;

namespace {
struct StringCapture : files::Capture {
    std::string o, e;
    void out(std::string_view b) override { o.append(b); }
    void err(std::string_view b) override { e.append(b); }
};

// Runs `body` with fd 1 and 2 pointed at a scratch file; returns what reached them.
template <class F>
std::string on_descriptors(F&& body) {
    char name[] = "/tmp/lanescope-capture-XXXXXX";
    const int fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    std::fflush(stdout);
    const int out = ::dup(1), err = ::dup(2);
    ::dup2(fd, 1), ::dup2(fd, 2);
    body();
    std::fflush(stdout);
    ::dup2(out, 1), ::dup2(err, 2);
    ::close(out), ::close(err);
    const std::string got = files::read_file(name);
    ::close(fd);
    ::unlink(name);
    return got;
}

int cli(std::vector<std::string> words, StringCapture& c) {
    words.insert(words.begin(), "lanescope-cli");
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    files::CaptureScope scope(c);
    return lanescope_cli_main(static_cast<int>(words.size()), argv.data());
}
}  // namespace

TEST_CASE("a Capture takes standard output and error; fd 1 and 2 get nothing") {
    StringCapture c;
    const std::string leaked = on_descriptors([&] {
        files::CaptureScope scope(c);
        files::write_stdout("one ");
        files::stdout_stream() << "two " << 3;
        files::stdout_stream().flush();
        files::OutputFile out("-");
        out.write(" four");
        out.commit();
        files::write_output("-", " five");
        files::write_stderr("a message\n");
    });
    CHECK(leaked.empty());
    CHECK(c.o == "one two 3 four five");
    CHECK(c.e == "a message\n");
    CHECK_FALSE(files::captured());
}

TEST_CASE("'-' reads the Capture's input, once") {
    StringCapture c;
    c.input = "{\"layout\": 1}";
    files::CaptureScope scope(c);
    CHECK(files::read_input_text("-") == "{\"layout\": 1}");
    CHECK(files::read_input_text("-").empty());
}

TEST_CASE("the CLI in process: its help and its messages reach the Capture, not fd 1 and 2") {
    StringCapture c;
    int rc = -1;
    const std::string leaked = on_descriptors([&] { rc = cli({"layout", "--help"}, c); });
    CHECK(rc == 0);
    CHECK(leaked.empty());
    CHECK(c.o.find("--instruction") != std::string::npos);
    StringCapture bad;
    CHECK(cli({"info", "-a", "gfx942", "-i", "nonexistent_instruction"}, bad) == 1);
    CHECK(bad.o.empty());
    CHECK(bad.e.find("lanescope-cli: error: ") == 0);
}

TEST_CASE("bench in process starts nothing: it is refused before any work") {
    for (const std::vector<std::string>& words :
         {std::vector<std::string>{"bench", "--runs", "1", "--catalog-rows", "0"}, {"bench", "--largest"}}) {
        StringCapture c;
        CHECK(cli(words, c) == 2);
        CHECK(c.o.empty());  // not even the in-memory export's line
        CHECK(c.e.find("this process is not lanescope-cli") != std::string::npos);
        CHECK(c.e.find("legal: run `lanescope-cli bench") != std::string::npos);
    }
}
