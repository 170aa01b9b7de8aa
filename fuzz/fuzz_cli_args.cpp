// Fuzz target: lanescope-cli's argument parser and the queries it answers.
// The input is the argument list, one argument per line. Arguments that would
// write files or start processes (--out, -o, --catalog, export, bench) are
// skipped: the target checks parsing and answering, not the file system.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

int lanescope_cli_main(int argc, char** argv);

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // Answers go nowhere (stdout stays open, so the write paths run).
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, STDOUT_FILENO);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 2048) return 0;
    std::vector<std::string> args = {"lanescope-cli"};
    std::string cur;
    for (size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            args.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) args.push_back(cur);
    if (args.size() > 32) return 0;
    // The CLI sees each argument as a C string: cut it at a NUL, so the skips below see what it sees
    // ("bench\0" is `bench`).
    for (std::string& a : args) a.resize(std::char_traits<char>::length(a.c_str()));
    for (const std::string& a : args) {
        if (a == "export" || a == "bench" || a == "gallery" || a == "figure" || a == "verify" || a == "conformance")
            return 0;
        if (a.rfind("-o", 0) == 0 || a.rfind("--o", 0) == 0 || a.rfind("--catalog", 0) == 0) return 0;
    }
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    lanescope_cli_main(static_cast<int>(args.size()), argv.data());
    std::fflush(stdout);
    std::clearerr(stdout);
    return 0;
}
