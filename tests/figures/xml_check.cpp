#include "xml_check.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>

namespace figtest {

namespace {

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':';
}

std::string where(const std::string& xml, size_t pos) {
    return " at offset " + std::to_string(pos) + " near '" + xml.substr(pos, 40) + "'";
}

// Entities in text and attribute values: the five XML ones and numeric ones.
std::string check_entities(const std::string& xml, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
        if (xml[i] == '<') return "unescaped '<'" + where(xml, i);
        if (xml[i] != '&') continue;
        const size_t semi = xml.find(';', i);
        if (semi == std::string::npos || semi > to) return "unterminated entity" + where(xml, i);
        const std::string ent = xml.substr(i + 1, semi - i - 1);
        if (ent != "amp" && ent != "lt" && ent != "gt" && ent != "quot" && ent != "apos" &&
            !(ent.size() > 1 && ent[0] == '#'))
            return "unknown entity &" + ent + ";" + where(xml, i);
    }
    return "";
}

}  // namespace

std::string xml_problem(const std::string& xml) {
    std::vector<std::string> stack;
    bool root_seen = false;
    size_t i = 0;
    while (i < xml.size()) {
        const size_t lt = xml.find('<', i);
        const size_t text_end = lt == std::string::npos ? xml.size() : lt;
        if (stack.empty()) {
            for (size_t k = i; k < text_end; ++k)
                if (!std::isspace(static_cast<unsigned char>(xml[k]))) return "text outside the root" + where(xml, k);
        } else if (std::string p = check_entities(xml, i, text_end); !p.empty()) {
            return p;
        }
        if (lt == std::string::npos) break;
        if (xml.compare(lt, 4, "<!--") == 0) {
            const size_t end = xml.find("-->", lt);
            if (end == std::string::npos) return "unterminated comment" + where(xml, lt);
            i = end + 3;
            continue;
        }
        if (xml.compare(lt, 2, "<?") == 0) {
            const size_t end = xml.find("?>", lt);
            if (end == std::string::npos) return "unterminated declaration" + where(xml, lt);
            i = end + 2;
            continue;
        }
        size_t k = lt + 1;
        const bool closing = k < xml.size() && xml[k] == '/';
        if (closing) ++k;
        const size_t name_start = k;
        while (k < xml.size() && name_char(xml[k])) ++k;
        const std::string name = xml.substr(name_start, k - name_start);
        if (name.empty()) return "tag without a name" + where(xml, lt);
        if (closing) {
            while (k < xml.size() && std::isspace(static_cast<unsigned char>(xml[k]))) ++k;
            if (k >= xml.size() || xml[k] != '>') return "bad closing tag" + where(xml, lt);
            if (stack.empty() || stack.back() != name) return "closing </" + name + "> does not match" + where(xml, lt);
            stack.pop_back();
            i = k + 1;
            continue;
        }
        // Attributes: name="value" or name='value', each name once.
        std::vector<std::string> seen;
        for (;;) {
            const size_t before = k;
            while (k < xml.size() && std::isspace(static_cast<unsigned char>(xml[k]))) ++k;
            if (k >= xml.size()) return "unterminated tag" + where(xml, lt);
            if (xml[k] == '>' || xml.compare(k, 2, "/>") == 0) break;
            if (k == before) return "attributes must be separated by spaces" + where(xml, k);
            const size_t an = k;
            while (k < xml.size() && name_char(xml[k])) ++k;
            const std::string attr = xml.substr(an, k - an);
            if (attr.empty() || k >= xml.size() || xml[k] != '=') return "bad attribute" + where(xml, an);
            for (const std::string& s : seen)
                if (s == attr) return "attribute " + attr + " given twice" + where(xml, an);
            seen.push_back(attr);
            ++k;
            if (k >= xml.size() || (xml[k] != '"' && xml[k] != '\'')) return "unquoted attribute value" + where(xml, an);
            const char q = xml[k];
            const size_t end = xml.find(q, k + 1);
            if (end == std::string::npos) return "unterminated attribute value" + where(xml, an);
            if (std::string p = check_entities(xml, k + 1, end); !p.empty()) return p;
            k = end + 1;
        }
        const bool self_closing = xml[k] == '/';
        if (stack.empty()) {
            if (root_seen) return "second root element" + where(xml, lt);
            root_seen = true;
        }
        if (!self_closing) stack.push_back(name);
        i = k + (self_closing ? 2 : 1);
    }
    if (!stack.empty()) return "unclosed <" + stack.back() + ">";
    if (!root_seen) return "no root element";
    return "";
}

namespace {

std::string attr_of(const std::string& tag, const std::string& name) {
    const std::string key = " " + name + "=\"";
    const size_t a = tag.find(key);
    if (a == std::string::npos) return "";
    const size_t b = tag.find('"', a + key.size());
    return tag.substr(a + key.size(), b - a - key.size());
}

std::string unescape(std::string s) {
    const std::pair<const char*, const char*> ents[] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}};
    for (const auto& [from, to] : ents)
        for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += 1) s.replace(p, std::string(from).size(), to);
    return s;
}

}  // namespace

std::vector<SvgRect> svg_fill_rects(const std::string& svg) {
    std::vector<SvgRect> rects;
    const size_t g0 = svg.find("<g class=\"t\">");
    if (g0 == std::string::npos) return rects;
    const std::string g = svg.substr(g0, svg.find("</g>", g0) - g0);
    for (size_t p = g.find("<path"); p != std::string::npos; p = g.find("<path", p + 1)) {
        const std::string tag = g.substr(p, g.find("/>", p) - p);
        const std::string fill = attr_of(tag, "fill"), d = attr_of(tag, "d");
        if (fill == "none") continue;
        const char* c = d.c_str();
        while (*c == 'M') {
            char* e = nullptr;
            SvgRect r;
            r.fill = fill;
            r.x = std::strtod(c + 1, &e);
            r.y = std::strtod(e, &e);
            if (*e != 'h') break;
            r.w = std::strtod(e + 1, &e);
            if (*e != 'v') break;
            r.h = std::strtod(e + 1, &e);
            if (*e != 'h') break;
            const double back = std::strtod(e + 1, &e);
            if (*e != 'z' || back != -r.w) break;
            rects.push_back(r);
            c = e + 1;
        }
    }
    return rects;
}

std::vector<SvgTile> svg_tiles(const std::string& svg) {
    // Tiles live in <g class="t">: fill paths "Mx yhWvHh-Wz..." (one per colour,
    // a rectangle may cover several tiles), a grid path, then the labels: one
    // <text y> per row and line, one <tspan x> per tile; a tile's first line
    // carries its id, its further lines are the id-less tspans below it.
    std::vector<SvgTile> out;
    const size_t g0 = svg.find("<g class=\"t\">");
    if (g0 == std::string::npos) return out;
    const std::string g = svg.substr(g0, svg.find("</g>", g0) - g0);
    using Rect = SvgRect;
    const std::vector<Rect> rects = svg_fill_rects(svg);
    struct Span {
        double x, y;
        std::string id, text;
    };
    std::vector<Span> spans;
    for (size_t p = g.find("<text"); p != std::string::npos; p = g.find("<text", p + 1)) {
        const size_t gt = g.find('>', p), close = g.find("</text>", p);
        const double y = std::atof(attr_of(g.substr(p, gt - p), "y").c_str());
        for (size_t s = g.find("<tspan", gt); s != std::string::npos && s < close; s = g.find("<tspan", s + 1)) {
            const size_t sgt = g.find('>', s);
            const std::string tag = g.substr(s, sgt - s);
            spans.push_back({std::atof(attr_of(tag, "x").c_str()), y, attr_of(tag, "id"),
                             unescape(g.substr(sgt + 1, g.find("</tspan>", sgt) - sgt - 1))});
        }
    }
    // Lines of a tile: the spans at its x, from its id'd span down to the next id'd one.
    std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
    for (size_t i = 0; i < spans.size(); ++i) {
        if (spans[i].id.empty()) continue;
        SvgTile t;
        t.id = spans[i].id;
        t.x = spans[i].x;
        t.y = spans[i].y;
        t.lines.push_back(spans[i].text);
        for (size_t k = i + 1; k < spans.size() && spans[k].x == t.x && spans[k].id.empty(); ++k) t.lines.push_back(spans[k].text);
        // Its fill: the rectangle under its label.
        for (const Rect& r : rects)
            if (t.x > r.x && t.x < r.x + r.w && t.y - 2 > r.y && t.y - 2 < r.y + r.h) {
                t.fill = r.fill;
                break;
            }
        out.push_back(std::move(t));
    }
    return out;
}

Run cli(const std::string& args) {
    static int n = 0;
    const std::string err_file =
        (std::filesystem::temp_directory_path() / ("lanescope_fig_err_" + std::to_string(::getpid()) + "_" + std::to_string(++n)))
            .string();
    const std::string cmd = std::string(LANESCOPE_CLI) + " " + args + " 2>" + err_file;
    Run r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 65536> buf{};
    size_t got;
    while ((got = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), got);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.err = read_file(err_file);
    std::filesystem::remove(err_file);
    return r;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string temp_dir(const std::string& tag) {
    std::string templ = (std::filesystem::temp_directory_path() / ("lanescope_" + tag + "_XXXXXX")).string();
    if (!mkdtemp(templ.data())) return "";
    return templ;
}

}  // namespace figtest
