// Checks the built-in catalogs (core/catalog/instructions.txt, nvidia.txt) with
// every check Catalog::parse makes: names, the formula families' rules, register
// counts, duplicates. Catalog::builtin() reads them unchecked at start-up, so the
// build runs this (core/CMakeLists.txt) and a bad row fails the build with
// parse()'s message, "core/catalog/FILE:LINE: what, legal: ...".
#include "lanescope/lanescope.hpp"

#include <cstdio>

int main() {
    try {
        lanescope::Catalog::check_builtin();
    } catch (const lanescope::Error& e) {
        std::fprintf(stderr, "lanescope: the built-in catalog is invalid: %s\n", e.what());
        return 1;
    }
    return 0;
}
