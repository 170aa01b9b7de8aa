// A pull reader for the JSON lanescope reads back (linear layouts, the JSON
// contract, Triton's dumps): values are read where they stand and never kept
// as a tree, so memory is what the caller keeps (bounded by the caller's
// limits), not what the input holds: a 60 MB array of zeros costs nothing.
// Work is linear in the input; nesting deeper than 64 is refused.
// Internal to the core library.
#pragma once

#include "lanescope/lanescope.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

namespace lanescope::json_read {

class Pull {
public:
    enum Kind { Null, Bool, Int, String, Array, Object };
    static constexpr int kMaxDepth = 64;

    // Reads from `start` (line numbers still count from the beginning of `text`).
    Pull(std::string_view text, std::string_view origin, size_t start = 0) : t_(text), origin_(origin), p_(start) {}

    [[noreturn]] void fail(const std::string& what) const {
        const size_t at = std::min(p_, t_.size());
        int line = 1 + static_cast<int>(std::count(t_.begin(), t_.begin() + at, '\n'));
        throw Error(std::string(origin_) + ": line " + std::to_string(line) + ": " + what);
    }
    // The kind of the next value (after spaces); fails on anything else.
    Kind peek() {
        skip_space();
        if (p_ >= t_.size()) fail("unexpected end of the text");
        const char c = t_[p_];
        if (c == '{') return Object;
        if (c == '[') return Array;
        if (c == '"') return String;
        if (c == '-' || (c >= '0' && c <= '9')) return Int;
        if (word("true") || word("false")) return Bool;
        if (word("null")) return Null;
        fail(std::string("unexpected character ") + shown(c));
    }
    // Reads an object; on_member(key) is called for each member and must read its value.
    template <class F>
    void object(F&& on_member) {
        enter('{');
        skip_space();
        if (p_ < t_.size() && t_[p_] == '}') return ++p_, leave();
        while (true) {
            skip_space();
            if (p_ >= t_.size() || t_[p_] != '"') fail("expected a string key");
            const std::string key = string();
            expect(':');
            on_member(key);
            if (!comma('}')) return leave();
        }
    }
    // Reads an array; on_item(index) is called for each item and must read it.
    template <class F>
    void array(F&& on_item) {
        enter('[');
        skip_space();
        if (p_ < t_.size() && t_[p_] == ']') return ++p_, leave();
        for (size_t n = 0;; ++n) {
            on_item(n);
            if (!comma(']')) return leave();
        }
    }
    // A whole number that fits in 64 bits; fails on fractions, exponents, other kinds.
    long long integer(const std::string& what) {
        if (peek() != Int) fail(what + " must be a whole number");
        const size_t start = p_;
        if (t_[p_] == '-') ++p_;
        while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
        if (p_ < t_.size() && (t_[p_] == '.' || t_[p_] == 'e' || t_[p_] == 'E')) {
            // Echo the number alone (8.5, 1e3), not what follows it.
            size_t end = p_;
            while (end < t_.size() && end - start < 24 &&
                   ((t_[end] >= '0' && t_[end] <= '9') || t_[end] == '.' || t_[end] == 'e' || t_[end] == 'E' ||
                    t_[end] == '+' || t_[end] == '-'))
                ++end;
            fail(what + " must be a whole number, not " + std::string(t_.substr(start, end - start)));
        }
        long long v = 0;
        auto r = std::from_chars(t_.data() + start, t_.data() + p_, v);
        if (r.ec != std::errc() || r.ptr != t_.data() + p_)
            fail(what + " is out of range: " + std::string(t_.substr(start, std::min<size_t>(p_ - start, 24))));
        return v;
    }
    // A string with its escapes decoded (\uXXXX outside ASCII becomes '?').
    std::string string() {
        skip_space();
        if (p_ >= t_.size() || t_[p_] != '"') fail("expected a string");
        ++p_;
        std::string s;
        while (p_ < t_.size() && t_[p_] != '"') {
            char c = t_[p_++];
            if (c != '\\') {
                s += c;
                continue;
            }
            if (p_ >= t_.size()) break;
            c = t_[p_++];
            switch (c) {
                case 'n': s += '\n'; break;
                case 't': s += '\t'; break;
                case 'r': s += '\r'; break;
                case 'b': s += '\b'; break;
                case 'f': s += '\f'; break;
                case 'u': {
                    unsigned v = 0;
                    if (p_ + 4 > t_.size() || std::from_chars(t_.data() + p_, t_.data() + p_ + 4, v, 16).ptr != t_.data() + p_ + 4)
                        fail("a \\u escape needs four hex digits");
                    p_ += 4;
                    s += v < 0x80 ? static_cast<char>(v) : '?';
                    break;
                }
                default: s += c;  // \" \\ \/
            }
        }
        if (p_ >= t_.size()) fail("unterminated string");
        ++p_;
        return s;
    }
    // Skips one value of any kind (numbers with fractions included), depth-limited.
    void skip() {
        switch (peek()) {
            case Object: object([&](const std::string&) { skip(); }); return;
            case Array: array([&](size_t) { skip(); }); return;
            case String: (void)string(); return;
            case Bool: p_ += word("true") ? 4 : 5; return;
            case Null: p_ += 4; return;
            case Int:
                if (t_[p_] == '-') ++p_;
                while (p_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[p_])) || t_[p_] == '.' ||
                                          t_[p_] == 'e' || t_[p_] == 'E' || t_[p_] == '+' || t_[p_] == '-'))
                    ++p_;
                return;
        }
    }
    // Only spaces may follow the document.
    void finish() {
        skip_space();
        if (p_ != t_.size())
            fail("unexpected text after the JSON value (one layout per file: a .jsonl of many records "
                 "is read one line at a time)");
    }
    size_t position() const { return p_; }

private:
    static std::string shown(char c) {
        if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
        char buf[8];
        std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(c));
        return buf;
    }
    bool word(std::string_view w) const { return t_.substr(p_, w.size()) == w; }
    void skip_space() {
        while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
    }
    void expect(char c) {
        skip_space();
        if (p_ >= t_.size() || t_[p_] != c) fail(std::string("expected '") + c + "'");
        ++p_;
    }
    void enter(char open) {
        expect(open);
        if (++depth_ > kMaxDepth) fail("nested more than " + std::to_string(kMaxDepth) + " levels deep");
    }
    void leave() { --depth_; }
    // After an item: true on ',' (another follows), false on `close`.
    bool comma(char close) {
        skip_space();
        if (p_ < t_.size() && t_[p_] == ',') {
            ++p_;
            return true;
        }
        expect(close);
        return false;
    }
    std::string_view t_, origin_;
    size_t p_ = 0;
    int depth_ = 0;
};

}  // namespace lanescope::json_read
