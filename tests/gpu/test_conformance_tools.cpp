// `conformance` with hostile tools (no AMD compiler needed): a compiler that
// hangs, a disassembler that prints a line of 100,000 characters, one that
// fails, and a SIGTERM in the middle. Each must end in bounded time with a
// message naming the cause, and leave nothing in the temporary directory.
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct FakeTools {
    fs::path root = lstest::temp_path("lanescope_fake_tools");
    fs::path tmp = root / "tmp";  // TMPDIR of the run: must be empty afterwards
    FakeTools() {
        fs::remove_all(root);
        fs::create_directories(tmp);
    }
    ~FakeTools() { fs::remove_all(root); }

    // A shell script; `body` runs after the common part (--version answered, the
    // -o file named in $out).
    std::string script(const std::string& name, const std::string& body) const {
        const fs::path p = root / name;
        std::ofstream f(p);
        f << "#!/bin/sh\n"
             "case \"$1\" in --version) echo 'fake clang version 22.0.0'; exit 0;; esac\n"
             "out=''; prev=''\n"
             "for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n"
          << body << "\n";
        f.close();
        fs::permissions(p, fs::perms::owner_all);
        return p.string();
    }
    // A compiler that writes an empty object (or preprocessed file).
    std::string compiler() const { return script("clang-fake", ": > \"$out\"\nexit 0"); }
    bool tmp_empty() const { return fs::is_empty(tmp); }
    lstest::Run cli(const std::string& args) const {
        return lstest::run_command("TMPDIR=" + tmp.string() + " " + std::string(LANESCOPE_CLI) + " " + args);
    }
};

// The fake tool that wrote its pid to `pid_file` is no longer running (killed with its process group).
bool tool_stopped(const fs::path& pid_file) {
    std::ifstream in(pid_file);
    int pid = 0;
    return (in >> pid) && pid > 0 && ::kill(pid, 0) != 0;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("conformance kills a compiler that hangs at its time limit and names it") {
    FakeTools f;
    const std::string hang = f.script("clang-hang", "echo $$ > " + (f.root / "pid").string() + "\nexec sleep 1000");
    const auto t0 = std::chrono::steady_clock::now();
    lstest::Run r = f.cli("conformance --target gfx908 --clang " + hang + " --objdump /bin/true --tool-timeout 1");
    INFO(r.out << r.err);
    CHECK(seconds_since(t0) < 30);
    CHECK(r.status == 1);
    CHECK(r.err.find("did not finish within 1 s (--tool-timeout) and was killed") != std::string::npos);
    CHECK(f.tmp_empty());
    CHECK(tool_stopped(f.root / "pid"));  // killed with its process group, not left sleeping
}

TEST_CASE("conformance --tool-timeout refuses what is not a number of seconds") {
    FakeTools f;
    for (const char* bad : {"0", "-1", "x", "86401"}) {
        lstest::Run r = f.cli(std::string("conformance --target gfx908 --tool-timeout ") + bad);
        INFO(bad << ": " << r.err);
        CHECK(r.status != 0);
        CHECK(r.err.find("--tool-timeout") != std::string::npos);
    }
}

TEST_CASE("conformance reads a disassembler line of 100,000 characters without crashing") {
    FakeTools f;
    // Every case's function (so no case is retried alone), the first with a matrix line of 100k characters
    // of encoding words; then a 100k-character line that starts like a label but never closes, and 100k
    // characters of "v_".
    const fs::path dis = f.root / "long.dis";
    {
        std::ofstream out(dis);
        for (int n = 0; n < 4000; ++n) {
            out << "0000000000000000 <lanescope_case_" << n << ">:\n";
            if (n == 0) {
                out << "  v_mfma_f32_32x32x1f32 v[0:31], v0, v1, v[0:31] // 0000:";
                for (int w = 0; w < 11000; ++w) out << " D3B40000";
                out << "\n";
            } else {
                out << "  v_mfma_f32_32x32x1f32 v[0:31], v0, v1, v[0:31] // 0000: D3B40000 04020100\n";
            }
        }
        out << "0 <" << std::string(100000, 'a') << "\n";
        for (int n = 0; n < 50000; ++n) out << "v_";
        out << "\n";
    }
    const std::string objdump = f.script("objdump-long", "cat " + dis.string());
    lstest::Run r = f.cli("conformance --target gfx908 --clang " + f.compiler() + " --objdump " + objdump);
    INFO(r.err << r.out.substr(0, 2000));
    CHECK(r.status == 5);  // judged and failed, not a crash (139) or an error
    CHECK(r.out.find("FAIL gfx908") != std::string::npos);
    CHECK(r.out.find("... (") != std::string::npos);  // the long line is clipped in the report
    CHECK(r.out.size() < 200000);
    CHECK(f.tmp_empty());
}

TEST_CASE("conformance names a disassembler that exits non-zero, with its status") {
    FakeTools f;
    const std::string objdump = f.script("objdump-fails", "echo 'error: cannot read this' >&2\nexit 3");
    lstest::Run r = f.cli("conformance --target gfx908 --clang " + f.compiler() + " --objdump " + objdump);
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("disassembling with " + objdump + " failed (exit status 3): error: cannot read this") !=
          std::string::npos);
    CHECK(f.tmp_empty());
}

TEST_CASE("conformance stopped by SIGTERM or SIGINT stops its tools, removes its directory and ends by the signal") {
    FakeTools f;
    const std::string hang = f.script("clang-hang", "echo $$ > " + (f.root / "pid").string() + "\nexec sleep 1000");
    for (int sig : {SIGTERM, SIGINT}) {
        fs::remove(f.root / "pid");
        // The shell waits until the compiler is running (its pid file), then signals lanescope-cli.
        const std::string line = "(TMPDIR=" + f.tmp.string() + " " + std::string(LANESCOPE_CLI) +
                                 " conformance --target gfx908 --clang " + hang +
                                 " --objdump /bin/true & p=$!; i=0; while [ ! -s " + (f.root / "pid").string() +
                                 " ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; kill -" + std::to_string(sig) +
                                 " $p; wait $p; echo status=$?)";
        const auto t0 = std::chrono::steady_clock::now();
        lstest::Run r = lstest::run_command(line);
        INFO(sig << ": " << r.out << r.err);
        CHECK(seconds_since(t0) < 40);
        CHECK(r.out.find("status=" + std::to_string(128 + sig)) != std::string::npos);
        CHECK(r.err.find("interrupted by SIG") != std::string::npos);
        CHECK(f.tmp_empty());
        CHECK(tool_stopped(f.root / "pid"));
    }
}

TEST_CASE("conformance takes a compiler's silence about unclaimed builtins as evidence only past a positive control") {
    FakeTools f;
    // Says nothing at all (an empty preprocessed file): no evidence, so every unclaimed builtin fails.
    lstest::Run mute = f.cli("conformance --target gfx908 --clang " + f.compiler() + " --objdump /bin/true");
    INFO(mute.out.substr(0, 3000) << mute.err);
    CHECK(mute.status == 5);
    CHECK(mute.out.find(" 0/") != std::string::npos);
    CHECK(mute.out.find("unclaimed builtins rejected") != std::string::npos);
    CHECK(mute.out.find("the compiler gave no answer") != std::string::npos);
    CHECK(mute.out.find("__builtin_amdgcn_workitem_id_x") != std::string::npos);
    // Reports the control (a builtin every amdgcn target has) and nothing else: the rest are absent, and pass.
    const std::string control = f.script(
        "clang-control", "in=''\nfor a in \"$@\"; do case \"$a\" in *.c) in=$a;; esac; done\n"
                         "grep -h lanescope_control_present \"$in\" > \"$out\" 2>/dev/null || : > \"$out\"\nexit 0");
    lstest::Run ok = f.cli("conformance --target gfx908 --clang " + control + " --objdump /bin/true");
    INFO(ok.out.substr(0, 3000) << ok.err);
    CHECK(ok.out.find("the compiler gave no answer") == std::string::npos);
    const size_t at = ok.out.find(" unclaimed builtins rejected");
    REQUIRE(at != std::string::npos);
    const size_t from = ok.out.rfind(' ', ok.out.rfind('/', at) - 1) + 1;
    const std::string frac = ok.out.substr(from, at - from);  // "N/N"
    const size_t slash = frac.find('/');
    CHECK(frac.substr(0, slash) == frac.substr(slash + 1));
    CHECK(frac.substr(0, slash) != "0");
    CHECK(f.tmp_empty());
}

TEST_CASE("conformance does not wait the batches' limit for a tool that hangs on its first question") {
    FakeTools f;
    // Hangs even on --version; no --tool-timeout given (its default is minutes).
    const fs::path hang = f.root / "hang-always";
    {
        std::ofstream h(hang);
        h << "#!/bin/sh\nexec sleep 1000\n";
    }
    fs::permissions(hang, fs::perms::owner_all);
    for (const std::string& args : {"--clang " + hang.string(), "--clang " + f.compiler() + " --objdump " + hang.string()}) {
        const auto t0 = std::chrono::steady_clock::now();
        lstest::Run r = f.cli("conformance --target gfx908 " + args);
        INFO(args << ": " << r.err);
        CHECK(seconds_since(t0) < 20);
        CHECK(r.status == 1);
        CHECK(r.err.find(hang.string() + " --version did not answer within 10 s") != std::string::npos);
        CHECK(f.tmp_empty());
    }
}

TEST_CASE("conformance blames the compiler, not the disassembler, when the compiler exits 0 without an object") {
    FakeTools f;
    const std::string nocc = f.script("clang-no-object", "echo 'wrote nothing'\nexit 0");
    lstest::Run r = f.cli("conformance --target gfx908 --clang " + nocc + " --objdump /bin/true");
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("the compiler " + nocc + " exited with status 0") != std::string::npos);
    CHECK(r.err.find("wrote no object file") != std::string::npos);
    CHECK(r.err.find("disassembling") == std::string::npos);
    CHECK(f.tmp_empty());
}

TEST_CASE("conformance fails a batch whose disassembly has no matrix instruction at once, not case by case") {
    FakeTools f;
    const std::string counter = f.script("objdump-count", "echo x >> " + (f.root / "runs").string() + "\necho nothing here");
    lstest::Run r = f.cli("conformance --target gfx908 --clang " + f.compiler() + " --objdump " + counter);
    INFO(r.err << r.out.substr(0, 2000));
    CHECK(r.status == 5);
    CHECK(r.out.find("no matrix instruction in " + counter + "'s disassembly of the batch") != std::string::npos);
    std::ifstream runs(f.root / "runs");
    int n = 0;
    for (std::string line; std::getline(runs, line);) ++n;
    CHECK(n <= 4);  // --version and one run per batch (gfx908 has a few: wave sizes), not one per case
}
