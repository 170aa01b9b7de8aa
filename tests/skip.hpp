// A test whose tool is missing says so to CTest: LANESCOPE_SKIP prints a line
// that every discovered test's SKIP_REGULAR_EXPRESSION matches (tests/CMakeLists.txt,
// lanescope_discover_tests), so CTest reports the case as skipped, not passed.
// A case that already failed is never turned into a skip (tests/skip.cpp tracks
// the failures of the running case).
#pragma once

#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>
#include <string>

namespace lanescope_test {

bool current_case_failed();

inline void report_skip(const std::string& why) {
    if (!current_case_failed()) std::cout << "lanescope-skip: " << why << std::endl;
}

}  // namespace lanescope_test

// The rest of the case is skipped: report and return.
#define LANESCOPE_SKIP(why)                                 \
    do {                                                    \
        std::ostringstream lanescope_skip_os_;              \
        lanescope_skip_os_ << why;                          \
        WARN(lanescope_skip_os_.str());                     \
        ::lanescope_test::report_skip(lanescope_skip_os_.str()); \
        return;                                             \
    } while (0)

// A part of the case is skipped (the rest ran): the case is reported skipped all
// the same, since what it promises was not all checked.
#define LANESCOPE_SKIP_PART(why)                            \
    do {                                                    \
        std::ostringstream lanescope_skip_os_;              \
        lanescope_skip_os_ << why;                          \
        WARN(lanescope_skip_os_.str());                     \
        ::lanescope_test::report_skip(lanescope_skip_os_.str()); \
    } while (0)
