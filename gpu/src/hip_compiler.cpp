// Which clang compiles the HIP probe kernels. A ROCm machine (where AMD GPUs
// are) has ROCm's own clang under $ROCM_PATH/llvm/bin; elsewhere Debian's
// clang-22 (LLVM 22) knows every AMD target but gfx940/gfx941, which clang-19
// still compiles for. The search order is documented in
// gpu.hpp and docs/gpu.md; every candidate passed over is named with the reason.
#include "lanescope/gpu.hpp"

#include "process.hpp"

#include <cstdlib>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace lanescope::gpu {

using detail::run_process;

std::string HipCompilerChoice::line() const {
    std::string s = path.empty() ? "no HIP probe compiler found" : "probe compiler: " + path + " (" + origin + ")";
    if (!skipped.empty()) {
        s += path.empty() ? ": " : "; skipped ";
        for (size_t i = 0; i < skipped.size(); ++i) s += (i ? ", " : "") + skipped[i];
    }
    return s;
}

namespace {

bool executable(const std::string& path) {
    struct stat st {};
    return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// `name` looked up in the PATH given (names with a '/' are taken as they are).
std::string on_path(const std::string& name, const std::string& path_var) {
    if (name.find('/') != std::string::npos) return executable(name) ? name : "";
    std::istringstream dirs(path_var);
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && executable(dir + "/" + name)) return dir + "/" + name;
    return "";
}

std::string first_line(const std::string& text) {
    std::string l = text.substr(0, text.find('\n'));
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
    return l;
}

bool compiles_for(const std::string& compiler, const std::string& gfx) {
    const detail::TempDir tmp("lanescope-hipcc-");
    const std::string& dir = tmp.path();
    return detail::write_file_atomic(dir + "/empty.c", "void lanescope_empty(void) {}\n") &&
           run_process({compiler, "-x", "c", "--target=amdgcn-amd-amdhsa", "-mcpu=" + gfx, "-nogpulib", "-c",
                        dir + "/empty.c", "-o", dir + "/empty.o"},
                       "", "") == 0;
}

}  // namespace

HipCompilerChoice find_hip_compiler(const std::string& gfx, const HipCompilerSearch& search) {
    auto env = [&](const char* name) -> std::string {
        for (const auto& kv : search.env)
            if (kv.first == name) return kv.second;
        if (!search.use_process_env) return "";
        const char* v = std::getenv(name);
        return v ? v : "";
    };
    auto knows = search.knows ? search.knows : compiles_for;
    HipCompilerChoice out;
    std::vector<std::string> tried;  // paths already judged (one ROCm tree named twice)
    // Returns true when `path` is taken.
    auto consider = [&](const std::string& label, const std::string& path, const std::string& origin) {
        for (const std::string& t : tried)
            if (t == path) return false;
        if (!path.empty()) tried.push_back(path);
        if (!executable(path)) {
            out.skipped.push_back(label + ": not found");
            return false;
        }
        if (!knows(path, gfx)) {
            out.skipped.push_back(label + ": does not know " + gfx);
            return false;
        }
        out.path = path;
        out.origin = origin;
        return true;
    };

    const std::string own = env("LANESCOPE_HIP_CLANG");
    if (!own.empty()) {
        // The user's choice is used as given; a wrong one fails with the compiler's message.
        out.path = on_path(own, env("PATH"));
        if (out.path.empty()) out.path = own;
        out.origin = "from LANESCOPE_HIP_CLANG";
        return out;
    }
    out.skipped.push_back("LANESCOPE_HIP_CLANG: not set");

    const std::string hip = env("HIP_PATH");
    if (hip.empty()) {
        out.skipped.push_back("HIP_PATH: not set");
    } else {
        if (consider("$HIP_PATH/llvm/bin/clang++", hip + "/llvm/bin/clang++", "ROCm's clang, from HIP_PATH")) return out;
        if (consider("$HIP_PATH/../llvm/bin/clang++", hip + "/../llvm/bin/clang++", "ROCm's clang, from HIP_PATH"))
            return out;
    }
    const std::string rocm = env("ROCM_PATH");
    if (rocm.empty()) {
        out.skipped.push_back("ROCM_PATH: not set");
    } else if (consider("$ROCM_PATH/llvm/bin/clang++", rocm + "/llvm/bin/clang++", "ROCm's clang, from ROCM_PATH")) {
        return out;
    }

    // hipconfig knows where its clang lives (--hipclangpath prints the bin folder).
    std::string hipconfig = on_path("hipconfig", env("PATH"));
    if (hipconfig.empty() && !rocm.empty() && executable(rocm + "/bin/hipconfig")) hipconfig = rocm + "/bin/hipconfig";
    if (hipconfig.empty()) {
        out.skipped.push_back("hipconfig: not found");
    } else {
        std::string clang_dir;
        {
            const detail::TempDir dir("lanescope-hipconfig-");
            if (run_process({hipconfig, "--hipclangpath"}, dir.path() + "/out.txt", "") == 0)
                clang_dir = first_line(detail::read_file(dir.path() + "/out.txt"));
        }
        if (clang_dir.empty()) out.skipped.push_back("hipconfig --hipclangpath: no answer");
        else if (consider("hipconfig's " + clang_dir + "/clang++", clang_dir + "/clang++", "ROCm's clang, from hipconfig"))
            return out;
    }

    if (consider(search.default_rocm + "/llvm/bin/clang++", search.default_rocm + "/llvm/bin/clang++",
                 "ROCm's clang in its default place"))
        return out;

    const std::string llvm22 = on_path("clang++-22", env("PATH"));
    if (llvm22.empty()) out.skipped.push_back("clang++-22: not found");
    else if (consider("clang++-22", llvm22, "Debian's clang-22")) return out;
    const std::string debian = on_path("clang++-19", env("PATH"));
    if (debian.empty()) out.skipped.push_back("clang++-19: not found");
    else if (consider("clang++-19", debian, "Debian's clang-19")) return out;
    return out;
}

}  // namespace lanescope::gpu
