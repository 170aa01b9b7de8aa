// The documentation runs as written: every `lanescope-cli ...` (or
// `build/cli/lanescope-cli ...`) command in a fenced block of README.md and
// docs/*.md is run as shown, in a scratch directory, and must exit 0 - or
// with a status the line's own comment names ("exit 4 without one",
// "exit 0 equal, exit 5 differ"). Blocks fenced as ```text are synopses and
// are not run. A command whose comment says it "needs an AMD GPU", "needs an
// NVIDIA GPU" or "needs a display" is skipped with that reason (WARN).
// Every HIP compile line the docs give in an inline code span (`clang... -x hip
// ...`) compiles a small kernel for gfx942 as written (plus the target, the
// input and the output when the span leaves them to the reader).
// README.md is a front door (under about 150 lines, a dozen "I want to ..."
// recipes, each a command that runs); docs/cli.md names every subcommand the
// CLI has; every relative link and picture of README.md and docs/*.md exists.
// Every ```cpp snippet compiles and links against the built libraries: its
// #include lines go first, the rest becomes the body of main() unless the
// snippet has its own or defines functions of its own (then a main() is added).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <map>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>
#include "skip.hpp"

namespace fs = std::filesystem;

namespace {

struct Block {
    std::string file, lang, text;
    int line = 0;  // first line of the block's content
};
struct Command {
    std::string file, cmd, comment;
    int line = 0;
};

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), {});
}

std::vector<fs::path> doc_files() {
    std::vector<fs::path> out{fs::path(LANESCOPE_SOURCE_DIR) / "README.md"};
    std::vector<fs::path> docs;
    for (const auto& e : fs::directory_iterator(fs::path(LANESCOPE_SOURCE_DIR) / "docs"))
        if (e.path().extension() == ".md") docs.push_back(e.path());
    std::sort(docs.begin(), docs.end());
    out.insert(out.end(), docs.begin(), docs.end());
    return out;
}

std::vector<Block> fenced_blocks() {
    std::vector<Block> out;
    for (const fs::path& p : doc_files()) {
        std::istringstream in(read_file(p));
        std::string line;
        int n = 0;
        Block* open = nullptr;
        while (std::getline(in, line)) {
            ++n;
            const size_t t = line.find_first_not_of(' ');
            if (t != std::string::npos && line.compare(t, 3, "```") == 0) {
                if (!open) {
                    out.push_back({fs::relative(p, LANESCOPE_SOURCE_DIR).string(), line.substr(t + 3), "", n + 1});
                    open = &out.back();
                } else {
                    open = nullptr;
                }
                continue;
            }
            if (open) open->text += line + "\n";
        }
    }
    return out;
}

// The command lines of a block, continuation lines joined, comments split off.
std::vector<Command> commands_of(const Block& b) {
    std::vector<Command> out;
    std::istringstream in(b.text);
    std::string line;
    int n = b.line - 1;
    static const std::regex cli_line(R"(^\s*(build/cli/)?lanescope-cli( |$))");
    while (std::getline(in, line)) {
        ++n;
        if (!std::regex_search(line, cli_line)) continue;
        Command c{b.file, "", "", n};
        std::string full = line;
        while (!full.empty() && full.back() == '\\' && std::getline(in, line)) {
            ++n;
            full.pop_back();
            full += " " + line;
        }
        // A comment starts at " #" outside quotes.
        bool quoted = false;
        char q = 0;
        size_t hash = std::string::npos;
        for (size_t i = 0; i < full.size(); ++i) {
            if (quoted) {
                if (full[i] == q) quoted = false;
            } else if (full[i] == '\'' || full[i] == '"') {
                quoted = true, q = full[i];
            } else if (full[i] == '#' && i > 0 && full[i - 1] == ' ') {
                hash = i;
                break;
            }
        }
        c.cmd = full.substr(0, hash);
        if (hash != std::string::npos) c.comment = full.substr(hash + 1);
        out.push_back(c);
    }
    return out;
}

struct Run {
    int status = -1;
    std::string out;
};
Run sh(const std::string& cmd) {
    Run r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    size_t k;
    while ((k = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), k);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

std::string tail(const std::string& s, size_t n = 1200) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

// The pages split into kShards parts of about equal numbers of commands (the largest page first,
// each to the part with the fewest so far), each part a test of its own, so that CTest runs them
// side by side: under the sanitizers one part takes minutes. A page's commands stay in order in
// one part (a command may read what an earlier one of its page wrote).
constexpr int kShards = 3;
int shard_of(const std::string& file) {
    static const std::map<std::string, int> part = [] {
        std::map<std::string, size_t> count;
        for (const Block& b : fenced_blocks())
            if (b.lang != "text") count[b.file] += commands_of(b).size();
        std::vector<std::pair<size_t, std::string>> pages;
        for (const auto& [f, n] : count) pages.push_back({n, f});
        std::sort(pages.begin(), pages.end(),
                  [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
        std::array<size_t, kShards> load{};
        std::map<std::string, int> out;
        for (const auto& [n, f] : pages) {
            const int k = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
            load[k] += n;
            out[f] = k;
        }
        return out;
    }();
    const auto it = part.find(file);
    return it == part.end() ? 0 : it->second;
}

void run_documented_commands(int shard) {
    const fs::path dir = fs::temp_directory_path() / ("lanescope-docs-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "bin");
    fs::create_directories(dir / "work" / "build" / "cli");
    fs::create_symlink(LANESCOPE_CLI, dir / "bin" / "lanescope-cli");
    fs::create_symlink(LANESCOPE_CLI, dir / "work" / "build" / "cli" / "lanescope-cli");
    const std::string env = "cd '" + (dir / "work").string() + "' && PATH='" + (dir / "bin").string() + "':\"$PATH\" ";
    // Inputs the documented commands read (the user's own files).
    REQUIRE(sh(env + "lanescope-cli layout -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --format json -o mine.json")
                .status == 0);

    size_t ran = 0, skipped = 0;
    std::set<std::string> seen;
    std::vector<std::pair<double, std::string>> timings;  // seconds, command: the slowest are reported
    static const std::regex exit_words(R"(exit (\d+))");
    static const std::regex needs(R"(needs (an AMD GPU|an NVIDIA GPU|a display))");
    for (const Block& b : fenced_blocks()) {
        if (b.lang == "text") continue;  // a synopsis
        if (shard_of(b.file) != shard) continue;
        for (const Command& c : commands_of(b)) {
            INFO(c.file << ":" << c.line << ": " << c.cmd);
            std::smatch m;
            if (std::regex_search(c.comment, m, needs)) {
                WARN(c.file << ":" << c.line << ": skipped, needs " << m[1] << ": " << c.cmd);
                ++skipped;
                continue;
            }
            // A command documented on two pages runs once.
            if (!seen.insert(c.cmd.substr(0, c.cmd.find_last_not_of(" \t") + 1)).second) continue;
#ifdef LANESCOPE_SANITIZED
            // Timing benchmarks (the largest legal requests take minutes in Release and many times that
            // instrumented) and conformance (minutes of the compiler witnesses, which are not instrumented)
            // are run as documented by the Release suite.
            if (c.cmd.find("lanescope-cli bench") != std::string::npos ||
                c.cmd.find("lanescope-cli conformance") != std::string::npos) {
                WARN(c.file << ":" << c.line << ": skipped under the sanitizers (run by the Release suite): " << c.cmd);
                ++skipped;
                continue;
            }
#endif
            std::set<int> allowed{0};
            for (auto it = std::sregex_iterator(c.comment.begin(), c.comment.end(), exit_words); it != std::sregex_iterator(); ++it)
                allowed.insert(std::stoi((*it)[1]));
            const auto t0 = std::chrono::steady_clock::now();
            // A command that reads its own standard input (`< mine.json`) keeps it; the rest read nothing.
            const bool own_stdin = c.cmd.find(" < ") != std::string::npos;
            const Run r = sh(env + "timeout 600 " + c.cmd + (own_stdin ? "" : " </dev/null") + " 2>&1");
            timings.push_back({std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                               c.file + ":" + std::to_string(c.line) + ": " + c.cmd});
            INFO("exit " << r.status << ", output:\n" << tail(r.out));
            CHECK(allowed.count(r.status) == 1);
            ++ran;
        }
    }
    std::sort(timings.rbegin(), timings.rend());
    std::string slowest;
    for (size_t n = 0; n < std::min<size_t>(8, timings.size()); ++n)
        slowest += "\n  " + std::to_string(timings[n].first).substr(0, 6) + " s  " + timings[n].second;
    WARN("the slowest documented commands:" << slowest);
    CHECK(ran >= 15);  // README and docs hold some 200 commands; each part runs a third of them
    INFO("skipped " << skipped);
    fs::remove_all(dir);
}

}  // namespace

TEST_CASE("docs: every lanescope-cli command of README.md and docs/*.md runs as shown (part 1 of 3)") { run_documented_commands(0); }
TEST_CASE("docs: every lanescope-cli command of README.md and docs/*.md runs as shown (part 2 of 3)") { run_documented_commands(1); }
TEST_CASE("docs: every lanescope-cli command of README.md and docs/*.md runs as shown (part 3 of 3)") { run_documented_commands(2); }

TEST_CASE("docs: every C++ snippet of README.md and docs/*.md compiles and links against the built libraries") {
    const fs::path dir = fs::temp_directory_path() / ("lanescope-snippets-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    size_t n = 0;
    for (const Block& b : fenced_blocks()) {
        if (b.lang != "cpp" && b.lang != "c++") continue;
        INFO(b.file << ":" << b.line << ":\n" << b.text);
        std::string includes, body;
        int include_lines = 0;
        std::istringstream in(b.text);
        for (std::string line; std::getline(in, line);) {
            const bool inc = line.rfind("#include", 0) == 0;
            (inc ? includes : body) += line + "\n";
            include_lines += inc;
        }
        // Errors name the doc's own lines (the includes usually lead the snippet).
        body = "#line " + std::to_string(b.line + include_lines) + " \"" + b.file + "\"\n" + body;
        // A snippet that defines functions at namespace scope (a line at column 0
        // opening a brace after a parameter list) is a translation unit: a main()
        // is added; otherwise its statements become main()'s body.
        static const std::regex definition(R"((^|\n)(?!(for|if|while|switch|do|else)\b)[A-Za-z_][^\n;]*\)\s*(const\s*)?\{\s*(\n|$))");
        const bool has_main = b.text.find("int main") != std::string::npos;
        const bool unit = has_main || std::regex_search(body, definition);
        std::string src = "#include <string>\n#include <memory>\n" + includes;
        src += unit ? body + (has_main ? "" : "int main() { return 0; }\n") : "int main() {\n" + body + "return 0;\n}\n";
        const fs::path cpp = dir / ("snippet" + std::to_string(++n) + ".cpp");
        std::ofstream(cpp) << src;
        const std::string cmd = std::string(LANESCOPE_CXX) + " -std=c++17 " + LANESCOPE_INCLUDES + " '" + cpp.string() + "' -o '" +
                                (dir / "a.out").string() + "' " + LANESCOPE_LIBS + " -lpthread -ldl 2>&1";
        const Run r = sh(cmd);
        INFO(tail(r.out, 3000));
        CHECK(r.status == 0);
    }
    CHECK(n >= 2);
    fs::remove_all(dir);
}

TEST_CASE("docs: every HIP compile line of README.md and docs/*.md compiles a kernel as written") {
    const fs::path dir = fs::temp_directory_path() / ("lanescope-hip-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "k.hip") << "extern \"C\" __attribute__((global)) void k(float* p) { p[0] = 1.0f; }\n";
    size_t n = 0;
    for (const fs::path& p : doc_files()) {
        std::string text = read_file(p);
        // Inline code spans, joined across one line break as Markdown does.
        for (size_t a = text.find('`'); a != std::string::npos; a = text.find('`', a + 1)) {
            if (a + 1 < text.size() && text[a + 1] == '`') {  // a fence or ``: skip the run
                while (a + 1 < text.size() && text[a + 1] == '`') ++a;
                continue;
            }
            const size_t b = text.find('`', a + 1);
            if (b == std::string::npos) break;
            std::string span = text.substr(a + 1, b - a - 1);
            a = b;
            for (char& c : span)
                if (c == '\n') c = ' ';
            if (span.rfind("clang", 0) != 0 || span.find("-x hip") == std::string::npos) continue;
            const std::string compiler = span.substr(0, span.find(' '));
            if (std::system(("command -v " + compiler + " >/dev/null 2>&1").c_str()) != 0) {
                LANESCOPE_SKIP_PART(p.filename().string() << ": " << compiler << " is not installed: `" << span << "` not compiled");
                continue;
            }
            std::string cmd = "cd '" + dir.string() + "' && " + span;
            if (span.find("--offload-arch") == std::string::npos && span.find("-mcpu") == std::string::npos)
                cmd += " --offload-arch=gfx942";
            if (span.find(".hip") == std::string::npos) cmd += " -c k.hip";
            if (span.find(" -o ") == std::string::npos) cmd += " -o k.out";
            INFO(p.filename().string() << ": " << cmd);
            const Run r = sh(cmd + " 2>&1");
            INFO(tail(r.out, 3000));
            CHECK(r.status == 0);
            ++n;
        }
    }
    CHECK(n >= 1);
    fs::remove_all(dir);
}

TEST_CASE("docs: README.md is a front door: under 150 lines, a dozen recipes, each one running command") {
    const std::string readme = read_file(fs::path(LANESCOPE_SOURCE_DIR) / "README.md");
    const size_t lines = static_cast<size_t>(std::count(readme.begin(), readme.end(), '\n'));
    INFO("README.md has " << lines << " lines");
    CHECK(lines <= 150);
    // A recipe: a comment "# ... what I want" in a fenced sh block, then its command(s).
    size_t recipes = 0;
    for (const Block& b : fenced_blocks()) {
        if (b.file != "README.md" || b.lang != "sh") continue;
        std::istringstream in(b.text);
        std::string line;
        bool want = false;
        while (std::getline(in, line)) {
            if (line.rfind("# \u2026 ", 0) == 0) {
                CHECK_FALSE(want);  // every recipe has its command
                want = true;
            } else if (want && !line.empty()) {
                INFO(line);
                CHECK((line.rfind("build/cli/lanescope-cli ", 0) == 0 || line.rfind("build/app/lanescope ", 0) == 0));
                ++recipes, want = false;
            }
        }
        CHECK_FALSE(want);
    }
    CHECK(recipes >= 12);
    // The front door points at the reference.
    CHECK(readme.find("](docs/cli.md)") != std::string::npos);
}

TEST_CASE("docs: docs/cli.md names every subcommand of lanescope-cli --help") {
    const std::string cli_md = read_file(fs::path(LANESCOPE_SOURCE_DIR) / "docs" / "cli.md");
    const Run r = sh(std::string("'") + LANESCOPE_CLI + "' --help 2>&1");
    REQUIRE(r.status == 0);
    const size_t at = r.out.find("Subcommands:");
    REQUIRE(at != std::string::npos);
    std::istringstream in(r.out.substr(at));
    std::string line;
    std::getline(in, line);
    size_t n = 0;
    static const std::regex sub(R"(^  ([a-z][a-z-]*) )");
    while (std::getline(in, line)) {
        std::smatch m;
        if (!std::regex_search(line, m, sub)) continue;
        INFO("subcommand " << m[1]);
        CHECK(cli_md.find("| `" + m[1].str() + "` |") != std::string::npos);  // a row of the reference table
        ++n;
    }
    CHECK(n >= 15);
}

TEST_CASE("docs: every relative link and picture of README.md and docs/*.md exists") {
    static const std::regex link(R"(\]\(([^)#\s]+)(#[^)\s]*)?\))");
    size_t n = 0;
    for (const fs::path& p : doc_files()) {
        const std::string text = read_file(p);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
            const std::string target = (*it)[1];
            if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
            INFO(fs::relative(p, LANESCOPE_SOURCE_DIR).string() << ": " << target);
            CHECK(fs::exists(p.parent_path() / target));
            ++n;
        }
    }
    CHECK(n >= 30);
}
