// Numbers in and out. Out: num and hex, the one way every part of lanescope writes a
// number into text. In: strict numbers for command-line flags and settings: the whole text must be
// the number (no spaces, no trailing letters, no empty string), in range, with
// no silent overflow. Front ends call these so "-7", "", "1e3" or "99999999999"
// are refused with what is legal instead of being read as something else.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace lanescope {

// Decimal, as std::to_string.
inline std::string num(long long v) { return std::to_string(v); }

enum class HexCase { Lower, Upper };
// "0x" and at least `digits` hexadecimal digits (zero-padded): hex(10) "0xa", hex(10, 4, Upper) "0x000A".
inline std::string hex(std::uint64_t v, int digits = 1, HexCase c = HexCase::Lower) {
    char buf[24];
    std::snprintf(buf, sizeof buf, c == HexCase::Upper ? "0x%0*llX" : "0x%0*llx", digits < 1 ? 1 : digits > 16 ? 16 : digits,
                  static_cast<unsigned long long>(v));
    return buf;
}

// Throws Error "<what> '<text>' is not legal; legal: a whole number in lo..hi". The one rule of every
// number a front end reads: digits only, a '-' only where lo < 0, never a '+' or surrounding space.
inline long long parse_integer(std::string_view text, long long lo, long long hi, std::string_view what) {
    const std::string s(text);
    auto fail = [&]() -> long long {
        throw Error(std::string(what) + " '" + s + "' is not legal; legal: a whole number in " + std::to_string(lo) +
                    ".." + std::to_string(hi));
    };
    if (s.empty() || s.size() > 20) return fail();
    const size_t i = (s[0] == '-' && lo < 0) ? 1 : 0;
    if (i == s.size()) return fail();
    for (size_t n = i; n < s.size(); ++n)
        if (s[n] < '0' || s[n] > '9') return fail();
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) return fail();
    return v;
}

// Decimal numbers ("1.5", "2"), finite, in [lo, hi]: digits and one '.', a leading '-' only where lo < 0
// (as parse_integer: no '+', no space).
inline double parse_decimal(std::string_view text, double lo, double hi, std::string_view what) {
    const std::string s(text);
    auto fail = [&]() -> double {
        throw Error(std::string(what) + " '" + s + "' is not legal; legal: a decimal number in " +
                    std::to_string(lo).substr(0, 4) + ".." + std::to_string(hi).substr(0, 4));
    };
    if (s.empty() || s.size() > 32) return fail();
    size_t dots = 0, digits = 0;
    for (size_t n = 0; n < s.size(); ++n) {
        const char c = s[n];
        if (c >= '0' && c <= '9') ++digits;
        else if (c == '.') ++dots;
        else if (!(c == '-' && n == 0 && lo < 0)) return fail();  // no nan, inf, hex, exponents, '+'
    }
    if (digits == 0 || dots > 1) return fail();
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (errno != 0 || *end != '\0' || !std::isfinite(v) || v < lo || v > hi) return fail();
    return v;
}

}  // namespace lanescope
