// A minimal JSON reader for the layouts lanescope reads back (linear layouts,
// the JSON contract): objects, arrays, integers, strings, true/false/null.
// Internal to the core library.
#pragma once

#include "lanescope/lanescope.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::json_read {

// A minimal JSON reader for the linear-layout object: objects, arrays,
// integers, strings (the keys), true/false/null.
struct Json {
    enum Kind { Null, Bool, Int, String, Array, Object } kind = Null;
    long long i = 0;
    std::string s;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;
};

class Reader {
public:
    Reader(std::string_view text, std::string_view origin) : t_(text), origin_(origin) {}
    Json document() {
        Json v = value(0);
        skip();
        if (p_ != t_.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        int line = 1 + static_cast<int>(std::count(t_.begin(), t_.begin() + std::min(p_, t_.size()), '\n'));
        throw Error(std::string(origin_) + ": line " + std::to_string(line) + ": " + what);
    }
    void skip() {
        while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) ++p_;
    }
    void expect(char c) {
        skip();
        if (p_ >= t_.size() || t_[p_] != c) fail(std::string("expected '") + c + "'");
        ++p_;
    }
    Json value(int depth) {
        if (depth > 64) fail("nested too deeply");
        skip();
        if (p_ >= t_.size()) fail("unexpected end of the text");
        Json v;
        char c = t_[p_];
        if (c == '{') {
            v.kind = Json::Object;
            ++p_;
            skip();
            if (p_ < t_.size() && t_[p_] == '}') return ++p_, v;
            while (true) {
                skip();
                Json key = value(depth + 1);
                if (key.kind != Json::String) fail("expected a string key");
                expect(':');
                v.members.emplace_back(key.s, value(depth + 1));
                skip();
                if (p_ < t_.size() && t_[p_] == ',') {
                    ++p_;
                    continue;
                }
                expect('}');
                return v;
            }
        }
        if (c == '[') {
            v.kind = Json::Array;
            ++p_;
            skip();
            if (p_ < t_.size() && t_[p_] == ']') return ++p_, v;
            while (true) {
                v.items.push_back(value(depth + 1));
                skip();
                if (p_ < t_.size() && t_[p_] == ',') {
                    ++p_;
                    continue;
                }
                expect(']');
                return v;
            }
        }
        if (c == '"') {
            v.kind = Json::String;
            ++p_;
            while (p_ < t_.size() && t_[p_] != '"') {
                if (t_[p_] == '\\') ++p_;
                if (p_ < t_.size()) v.s += t_[p_++];
            }
            if (p_ >= t_.size()) fail("unterminated string");
            ++p_;
            return v;
        }
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
            size_t start = p_;
            if (c == '-') ++p_;
            while (p_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[p_]))) ++p_;
            if (p_ < t_.size() && (t_[p_] == '.' || t_[p_] == 'e' || t_[p_] == 'E')) fail("expected a whole number");
            auto r = std::from_chars(t_.data() + start, t_.data() + p_, v.i);
            if (r.ec != std::errc() || r.ptr != t_.data() + p_) fail("number out of range");
            v.kind = Json::Int;
            return v;
        }
        for (const char* word : {"true", "false", "null"})
            if (t_.substr(p_, std::string_view(word).size()) == word) {
                p_ += std::string_view(word).size();
                v.kind = word[0] == 'n' ? Json::Null : Json::Bool;
                return v;
            }
        fail(std::string("unexpected character '") + c + "'");
    }
    std::string_view t_, origin_;
    size_t p_ = 0;
};

inline const Json* member(const Json& o, const std::string& key) {
    for (const auto& [k, v] : o.members)
        if (k == key) return &v;
    return nullptr;
}


}  // namespace lanescope::json_read
