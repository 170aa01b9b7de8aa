// Small string helpers shared by the core sources (not part of the public API).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::text {

// Views into the caller's text (no copies): for parsing the catalogs at start-up.
// Spaces are std::isspace's in the "C" locale, tested inline.
inline bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

inline std::string_view trim_view(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && is_space(s[b])) ++b;
    while (e > b && is_space(s[e - 1])) --e;
    return s.substr(b, e - b);
}

// trim_view as a string (the program never leaves the "C" locale, so is_space is std::isspace).
inline std::string trim(std::string_view s) { return std::string(trim_view(s)); }

// Splits at `sep` into `out` (cleared first), trimming each piece when `trim` is set.
inline void split_view_into(std::vector<std::string_view>& out, std::string_view s, char sep, bool trim = false) {
    out.clear();
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            std::string_view piece = s.substr(start, i - start);
            out.push_back(trim ? trim_view(piece) : piece);
            start = i + 1;
        }
}

inline std::vector<std::string_view> split_view(std::string_view s, char sep, bool trim = false) {
    std::vector<std::string_view> out;
    out.reserve(static_cast<size_t>(std::count(s.begin(), s.end(), sep)) + 1);
    split_view_into(out, s, sep, trim);
    return out;
}

// Up to 8 pieces of `s` split at `sep`, without allocating; `n` counts every piece
// (more than 8 are counted, not kept), so a size check reads as split_view's.
struct Pieces {
    std::string_view piece[8];
    size_t n = 0;
    size_t size() const { return n; }
    std::string_view operator[](size_t i) const { return piece[i]; }
    std::string_view back() const { return piece[(n < 8 ? n : 8) - 1]; }
};
inline Pieces split_few(std::string_view s, char sep, bool trim = false) {
    Pieces out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            if (out.n < 8) out.piece[out.n] = trim ? trim_view(s.substr(start, i - start)) : s.substr(start, i - start);
            ++out.n;
            start = i + 1;
        }
    return out;
}

// Whether the comma-separated list `list` holds `word` (each item trimmed).
inline bool list_has(std::string_view list, std::string_view word) {
    while (true) {
        const size_t comma = list.find(',');
        if (trim_view(list.substr(0, comma)) == word) return true;
        if (comma == std::string_view::npos) return false;
        list.remove_prefix(comma + 1);
    }
}

// split_view's pieces as strings.
inline std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    for (std::string_view piece : split_view(s, sep)) out.emplace_back(piece);
    return out;
}

// ASCII case (std::tolower's in the "C" locale, inline).
inline std::string lower(std::string_view s) {
    std::string r(s);
    for (char& c : r)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return r;
}

inline std::string upper(std::string_view s) {
    std::string r(s);
    std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return r;
}

inline std::string join(const std::vector<std::string>& v, std::string_view sep) {
    std::string r;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) r += sep;
        r += v[i];
    }
    return r;
}

inline std::string join_quoted(const std::vector<std::string>& v, std::string_view sep) {
    std::vector<std::string> q;
    for (const auto& s : v) q.push_back("'" + s + "'");
    return join(q, sep);
}

}  // namespace lanescope::text
