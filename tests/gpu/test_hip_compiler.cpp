// Which clang the HIP device compiles its probes with, found in the documented
// order, on fake ROCm trees and fake compilers (no AMD GPU or ROCm needed).
#include "lanescope/gpu.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace lanescope;

namespace {

// A fake compiler: a shell script that refuses the targets it does not know.
void fake_compiler(const fs::path& path, const std::string& refuses) {
    fs::create_directories(path.parent_path());
    std::ofstream f(path);
    f << "#!/bin/sh\n";
    if (!refuses.empty()) f << "case \"$*\" in *-mcpu=" << refuses << "*) exit 1;; esac\n";
    f << "exit 0\n";
    f.close();
    fs::permissions(path, fs::perms::owner_all);
}

struct FakeMachine {
    fs::path root = lstest::temp_path("lanescope_fake_rocm");
    FakeMachine() {
        fs::remove_all(root);
        fs::create_directories(root / "bin");
    }
    ~FakeMachine() { fs::remove_all(root); }
    gpu::HipCompilerSearch search(std::vector<std::pair<std::string, std::string>> vars) const {
        gpu::HipCompilerSearch s;
        s.use_process_env = false;
        s.default_rocm = (root / "opt-rocm").string();  // never the real /opt/rocm
        vars.emplace_back("PATH", (root / "bin").string());
        s.env = vars;
        return s;
    }
};

bool mentions(const std::vector<std::string>& skipped, const std::string& text) {
    for (const std::string& s : skipped)
        if (s.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("HIP compiler: ROCm's clang from ROCM_PATH wins over Debian's clang++-19") {
    FakeMachine m;
    fake_compiler(m.root / "rocm/llvm/bin/clang++", "");
    fake_compiler(m.root / "bin/clang++-19", "gfx950");
    auto c = gpu::find_hip_compiler("gfx950", m.search({{"ROCM_PATH", (m.root / "rocm").string()}}));
    CHECK(c.path == (m.root / "rocm/llvm/bin/clang++").string());
    CHECK(c.origin == "ROCm's clang, from ROCM_PATH");
    CHECK(mentions(c.skipped, "LANESCOPE_HIP_CLANG: not set"));
    CHECK(mentions(c.skipped, "HIP_PATH: not set"));
    CHECK(c.line().rfind("probe compiler: " + c.path + " (ROCm's clang, from ROCM_PATH); skipped ", 0) == 0);
    CHECK(c.line().find('\n') == std::string::npos);
}

TEST_CASE("HIP compiler: without ROCm, Debian's clang++-19 for a target it knows") {
    FakeMachine m;
    fake_compiler(m.root / "bin/clang++-19", "gfx950");
    auto c = gpu::find_hip_compiler("gfx942", m.search({}));
    CHECK(c.path == (m.root / "bin/clang++-19").string());
    CHECK(c.origin == "Debian's clang-19");
    CHECK(mentions(c.skipped, "ROCM_PATH: not set"));
    CHECK(mentions(c.skipped, "hipconfig: not found"));
    CHECK(mentions(c.skipped, "opt-rocm/llvm/bin/clang++: not found"));
}

TEST_CASE("HIP compiler: Debian's clang++-22 before clang++-19; clang++-19 for gfx940, which LLVM 22 removed") {
    FakeMachine m;
    fake_compiler(m.root / "bin/clang++-22", "gfx94[01]");
    fake_compiler(m.root / "bin/clang++-19", "gfx950");
    auto c = gpu::find_hip_compiler("gfx950", m.search({}));
    CHECK(c.path == (m.root / "bin/clang++-22").string());
    CHECK(c.origin == "Debian's clang-22");
    auto old = gpu::find_hip_compiler("gfx940", m.search({}));
    CHECK(old.path == (m.root / "bin/clang++-19").string());
    CHECK(mentions(old.skipped, "clang++-22: does not know gfx940"));
}

TEST_CASE("HIP compiler: gfx950 with only clang++-19 finds none and says why") {
    FakeMachine m;
    fake_compiler(m.root / "bin/clang++-19", "gfx950");
    auto c = gpu::find_hip_compiler("gfx950", m.search({}));
    CHECK(c.path.empty());
    CHECK(mentions(c.skipped, "clang++-19: does not know gfx950"));
    CHECK(c.line().rfind("no HIP probe compiler found: ", 0) == 0);
}

TEST_CASE("HIP compiler: a ROCm clang that does not know the target is skipped with the reason") {
    FakeMachine m;
    fake_compiler(m.root / "rocm/llvm/bin/clang++", "gfx1200");
    fake_compiler(m.root / "bin/clang++-19", "");
    auto c = gpu::find_hip_compiler("gfx1200", m.search({{"ROCM_PATH", (m.root / "rocm").string()}}));
    CHECK(c.path == (m.root / "bin/clang++-19").string());
    CHECK(mentions(c.skipped, "$ROCM_PATH/llvm/bin/clang++: does not know gfx1200"));
}

TEST_CASE("HIP compiler: hipconfig --hipclangpath names ROCm's clang") {
    FakeMachine m;
    const fs::path llvm = m.root / "rocm-6.4/lib/llvm/bin";
    fake_compiler(llvm / "clang++", "");
    {
        std::ofstream f(m.root / "bin/hipconfig");
        f << "#!/bin/sh\n[ \"$1\" = --hipclangpath ] && echo " << llvm.string() << "\n";
    }
    fs::permissions(m.root / "bin/hipconfig", fs::perms::owner_all);
    auto c = gpu::find_hip_compiler("gfx950", m.search({}));
    CHECK(c.path == (llvm / "clang++").string());
    CHECK(c.origin == "ROCm's clang, from hipconfig");
}

TEST_CASE("HIP compiler: HIP_PATH (ROCm's hip folder) and LANESCOPE_HIP_CLANG") {
    FakeMachine m;
    fake_compiler(m.root / "rocm/llvm/bin/clang++", "");
    fs::create_directories(m.root / "rocm/hip");
    auto c = gpu::find_hip_compiler("gfx942", m.search({{"HIP_PATH", (m.root / "rocm/hip").string()}}));
    CHECK(c.path == (m.root / "rocm/hip/../llvm/bin/clang++").string());
    CHECK(mentions(c.skipped, "$HIP_PATH/llvm/bin/clang++: not found"));
    // The user's own choice is taken as given, before anything else.
    fake_compiler(m.root / "mine/clang++", "gfx942");
    auto own = gpu::find_hip_compiler(
        "gfx942", m.search({{"LANESCOPE_HIP_CLANG", (m.root / "mine/clang++").string()},
                            {"ROCM_PATH", (m.root / "rocm").string()}}));
    CHECK(own.path == (m.root / "mine/clang++").string());
    CHECK(own.origin == "from LANESCOPE_HIP_CLANG");
    CHECK(own.skipped.empty());
}
