#include "figure_util.hpp"

#include "lanescope/palette.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace lanescope::figures {

std::string type_words(const Instruction& ins, Operand op, const ResolvedModifiers& m, bool short_form) {
    const OperandFormat f = operand_format(ins, op, m);
    return f.title + (short_form || f.chosen_by.empty() ? "" : " (" + f.chosen_by + ")");
}

std::uint32_t next_codepoint(std::string_view s, size_t& i) {
    const unsigned char c = static_cast<unsigned char>(s[i++]);
    if (c < 0x80) return c;
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
    if (extra < 0) return 0xFFFD;
    std::uint32_t cp = c & (0x3F >> extra);
    for (int k = 0; k < extra; ++k) {
        if (i >= s.size() || (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) return 0xFFFD;
        cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
    }
    return cp;
}

double text_width(std::string_view s, double size) {
    double em = 0;
    for (size_t i = 0; i < s.size();) {
        const std::uint32_t cp = next_codepoint(s, i);
        double w = 0.62;
        if (cp >= '0' && cp <= '9') w = 0.637;
        else if (cp == ' ' || cp == 0xB7) w = 0.318;
        else if (cp == '[' || cp == ']' || cp == '(' || cp == ')') w = 0.39;
        else if (cp == ':' || cp == '.' || cp == ',') w = 0.337;
        else if (cp == 'i' || cp == 'l' || cp == 'j') w = 0.278;
        else if (cp == 'm' || cp == 'w' || cp == 'M' || cp == 'W') w = 0.98;
        else if (cp >= 'A' && cp <= 'Z') w = 0.72;
        else if (cp == 0x2192) w = 0.84;  // the arrow of memory figures
        em += w;
    }
    return em * size;
}

// Greedy wrap of `text` into lines no wider than `width` at `size`: first at
// `sep` (e.g. "  "), then at single spaces for a piece that is still too wide.
std::vector<std::string> wrap(const std::string& text, double size, double width, const std::string& sep) {
    std::vector<std::string> pieces;
    for (size_t a = 0;;) {
        const size_t b = text.find(sep, a);
        pieces.push_back(text.substr(a, b == std::string::npos ? std::string::npos : b - a));
        if (b == std::string::npos) break;
        a = b + sep.size();
    }
    std::vector<std::string> words;  // pieces too wide on their own, split at spaces
    for (const std::string& p : pieces) {
        if (text_width(p, size) <= width || p.find(' ') == std::string::npos) {
            words.push_back(p);
            continue;
        }
        std::string line;
        for (size_t a = 0;;) {
            const size_t b = p.find(' ', a);
            const std::string w = p.substr(a, b == std::string::npos ? std::string::npos : b - a);
            if (!line.empty() && text_width(line + " " + w, size) > width) {
                words.push_back(line);
                line = w;
            } else {
                line += (line.empty() ? "" : " ") + w;
            }
            if (b == std::string::npos) break;
            a = b + 1;
        }
        if (!line.empty()) words.push_back(line);
    }
    std::vector<std::string> lines;
    for (const std::string& w : words) {
        if (!lines.empty() && text_width(lines.back() + sep + w, size) <= width) lines.back() += sep + w;
        else lines.push_back(w);
    }
    return lines;
}

void append_number(std::string& out, double v) {
    const long long hundredths = std::llround(v * 100);
    if (hundredths % 100 == 0) {
        out += std::to_string(hundredths / 100);
        return;
    }
    char buf[32];
    int n = std::snprintf(buf, sizeof buf, "%.2f", hundredths / 100.0);
    while (n > 0 && buf[n - 1] == '0') --n;
    out.append(buf, static_cast<size_t>(n));
}

void append_xml(std::string& out, std::string_view s) {
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
}

Box empty_cell(double x, double y, double w, double h, const ThemeColors& tc) {
    return {x, y, w, h, tc.background, true, tc.grid, 0.5};
}

}  // namespace lanescope::figures
