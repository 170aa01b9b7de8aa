// The architecture as the files show it: core's model headers include no renderer (the
// renderers include the model), and no code comment points at an issue tracker the
// repository does not have.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool renderer(const std::string& name) { return name.rfind("render", 0) == 0 || name == "export.hpp"; }

}  // namespace

TEST_CASE("layering: no model header of core includes a renderer") {
    const fs::path dir = fs::path(LANESCOPE_PROJECT_DIR) / "core/include/lanescope";
    const std::regex include(R"(#include\s+"lanescope/([a-z_]+\.hpp)\")");
    int headers = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (renderer(name)) continue;
        ++headers;
        const std::string text = read(e.path());
        for (std::sregex_iterator m(text.begin(), text.end(), include), end; m != end; ++m) {
            INFO(name << " includes " << (*m)[1]);
            CHECK_FALSE(renderer((*m)[1]));
        }
    }
    CHECK(headers >= 15);
}

TEST_CASE("layering: no code comment names an issue number") {
    const std::regex issue(R"(//.*\b[Ii]ssue \d+)");
    int files = 0;
    for (const char* part : {"core", "cli", "app", "gpu", "figures", "python/src", "web", "fuzz"})
        for (const auto& e : fs::recursive_directory_iterator(fs::path(LANESCOPE_PROJECT_DIR) / part)) {
            const std::string ext = e.path().extension().string();
            if (ext != ".cpp" && ext != ".hpp") continue;
            ++files;
            const std::string text = read(e.path());
            std::smatch m;
            INFO(e.path().string());
            CHECK_FALSE(std::regex_search(text, m, issue));
        }
    CHECK(files > 100);
}
