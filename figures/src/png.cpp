// PNG serialiser: a small software rasteriser (filled boxes, axis-aligned
// lines, anti-aliased text from a TrueType font) writing PNG bytes in memory.
// No display server, no GPU.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <unordered_map>

#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb/stb_truetype.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

namespace lanescope::figures {

namespace {

struct Glyph {
    int w = 0, h = 0, xoff = 0, yoff = 0;
    float advance = 0;
    std::vector<unsigned char> alpha;
};

class Font {
public:
    explicit Font(const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        data_.assign(std::istreambuf_iterator<char>(in), {});
        if (data_.empty() ||
            !stbtt_InitFont(&info_, data_.data(), stbtt_GetFontOffsetForIndex(data_.data(), 0)))
            throw Error("cannot read the TrueType font '" + path + "'; install fonts-dejavu-core or set LANESCOPE_FONT");
    }
    // Glyph of `cp` at `px` pixels per em, cached.
    const Glyph& glyph(std::uint32_t cp, float px) {
        const std::uint64_t key = (static_cast<std::uint64_t>(cp) << 20) ^ static_cast<std::uint64_t>(px * 64);
        auto it = cache_.find(key);
        if (it != cache_.end()) return it->second;
        Glyph g;
        const float scale = stbtt_ScaleForMappingEmToPixels(&info_, px);
        int adv = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&info_, static_cast<int>(cp), &adv, &lsb);
        g.advance = adv * scale;
        int x0, y0, x1, y1;
        stbtt_GetCodepointBitmapBox(&info_, static_cast<int>(cp), scale, scale, &x0, &y0, &x1, &y1);
        g.w = x1 - x0, g.h = y1 - y0, g.xoff = x0, g.yoff = y0;
        if (g.w > 0 && g.h > 0) {
            g.alpha.resize(static_cast<size_t>(g.w) * g.h);
            stbtt_MakeCodepointBitmap(&info_, g.alpha.data(), g.w, g.h, g.w, scale, scale, static_cast<int>(cp));
        }
        return cache_.emplace(key, std::move(g)).first->second;
    }

private:
    std::vector<unsigned char> data_;
    stbtt_fontinfo info_{};
    std::unordered_map<std::uint64_t, Glyph> cache_;
};

class Canvas {
public:
    Canvas(int w, int h, const Rgb& bg) : w_(w), h_(h), px_(static_cast<size_t>(w) * h * 3) {
        for (size_t i = 0; i < px_.size(); i += 3) px_[i] = bg.r, px_[i + 1] = bg.g, px_[i + 2] = bg.b;
    }
    void fill(double x0, double y0, double x1, double y1, const Rgb& c) {
        const int ix0 = std::max(0, static_cast<int>(std::lround(x0))), iy0 = std::max(0, static_cast<int>(std::lround(y0)));
        const int ix1 = std::min(w_, static_cast<int>(std::lround(x1))), iy1 = std::min(h_, static_cast<int>(std::lround(y1)));
        for (int y = iy0; y < iy1; ++y) {
            unsigned char* p = &px_[(static_cast<size_t>(y) * w_ + ix0) * 3];
            for (int x = ix0; x < ix1; ++x, p += 3) p[0] = c.r, p[1] = c.g, p[2] = c.b;
        }
    }
    // Outline of width `t` (pixels, at least 1) inside the rectangle's edges.
    void outline(double x0, double y0, double x1, double y1, double t, const Rgb& c) {
        t = std::max(1.0, t);
        fill(x0, y0, x1, y0 + t, c);
        fill(x0, y1 - t, x1, y1, c);
        fill(x0, y0, x0 + t, y1, c);
        fill(x1 - t, y0, x1, y1, c);
    }
    void line(double x1, double y1, double x2, double y2, double t, const Rgb& c) {
        t = std::max(1.0, t);
        // Figures only draw horizontal and vertical lines.
        fill(std::min(x1, x2) - t / 2, std::min(y1, y2) - t / 2, std::max(x1, x2) + t / 2, std::max(y1, y2) + t / 2, c);
    }
    void text(Font& font, double x, double y, std::string_view s, float px, Anchor a, const Rgb& c) {
        double width = 0;
        for (size_t i = 0; i < s.size();) width += font.glyph(next_codepoint(s, i), px).advance;
        double pen = a == Anchor::Start ? x : a == Anchor::Middle ? x - width / 2 : x - width;
        const int base = static_cast<int>(std::lround(y));
        for (size_t i = 0; i < s.size();) {
            const Glyph& g = font.glyph(next_codepoint(s, i), px);
            const int gx = static_cast<int>(std::lround(pen)) + g.xoff, gy = base + g.yoff;
            for (int row = 0; row < g.h; ++row) {
                const int yy = gy + row;
                if (yy < 0 || yy >= h_) continue;
                for (int col = 0; col < g.w; ++col) {
                    const int xx = gx + col;
                    const unsigned a8 = g.alpha[static_cast<size_t>(row) * g.w + col];
                    if (xx < 0 || xx >= w_ || a8 == 0) continue;
                    unsigned char* p = &px_[(static_cast<size_t>(yy) * w_ + xx) * 3];
                    p[0] = static_cast<unsigned char>((c.r * a8 + p[0] * (255 - a8)) / 255);
                    p[1] = static_cast<unsigned char>((c.g * a8 + p[1] * (255 - a8)) / 255);
                    p[2] = static_cast<unsigned char>((c.b * a8 + p[2] * (255 - a8)) / 255);
                }
            }
            pen += g.advance;
        }
    }
    std::vector<std::uint8_t> png() const {
        std::vector<std::uint8_t> out;
        auto sink = [](void* ctx, void* data, int size) {
            auto* v = static_cast<std::vector<std::uint8_t>*>(ctx);
            v->insert(v->end(), static_cast<std::uint8_t*>(data), static_cast<std::uint8_t*>(data) + size);
        };
        if (!stbi_write_png_to_func(sink, &out, w_, h_, 3, px_.data(), w_ * 3)) throw Error("PNG encoding failed");
        return out;
    }

private:
    int w_, h_;
    std::vector<unsigned char> px_;
};

}  // namespace

std::string find_font(const std::string& font_path) {
    std::vector<std::string> candidates;
    if (!font_path.empty()) return std::ifstream(font_path).good() ? font_path : "";
    if (const char* env = std::getenv("LANESCOPE_FONT"); env && *env) candidates.push_back(env);
    candidates.push_back("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    candidates.push_back("/usr/share/fonts/TTF/DejaVuSans.ttf");
    candidates.push_back("/usr/share/fonts/dejavu/DejaVuSans.ttf");
    for (const std::string& c : candidates)
        if (std::ifstream(c).good()) return c;
    return "";
}

std::vector<std::uint8_t> to_png(const Figure& f, double scale, const std::string& font_path) {
    const std::string path = find_font(font_path);
    if (path.empty())
        throw Error("PNG output needs a TrueType font: install fonts-dejavu-core (DejaVuSans.ttf) or set LANESCOPE_FONT"
                    " to a .ttf file" + (font_path.empty() ? std::string() : " ('" + font_path + "' cannot be read)"));
    static std::unordered_map<std::string, std::unique_ptr<Font>> fonts;
    auto& font = fonts[path];
    if (!font) font = std::make_unique<Font>(path);

    const double limit = 16384;
    scale = std::min({scale, limit / std::max(1.0, f.width), limit / std::max(1.0, f.height)});
    if (!(scale > 0)) throw Error("PNG scale must be positive");
    const int w = std::max(1, static_cast<int>(std::ceil(f.width * scale)));
    const int h = std::max(1, static_cast<int>(std::ceil(f.height * scale)));
    Canvas cv(w, h, f.background);
    auto S = [scale](double v) { return v * scale; };
    for (const Box& b : f.boxes) {
        if (b.filled) cv.fill(S(b.x), S(b.y), S(b.x + b.w), S(b.y + b.h), b.fill);
        if (b.stroke_width > 0) cv.outline(S(b.x), S(b.y), S(b.x + b.w), S(b.y + b.h), S(b.stroke_width), b.stroke);
    }
    const float tile_px = static_cast<float>(f.tile_font * scale);
    for (const Tile& t : f.tiles) {
        cv.fill(S(t.x), S(t.y), S(t.x + t.w), S(t.y + t.h), t.fill);
        if (f.tile_grid) cv.outline(S(t.x), S(t.y), S(t.x + t.w), S(t.y + t.h), S(0.5), f.tile_stroke);
        const double block_h = f.tile_line * static_cast<double>(t.lines.size());
        double base = t.y + (t.h - block_h) / 2 + f.tile_line * 0.78;
        for (const std::string& l : t.lines) {
            cv.text(*font, S(t.x + t.w / 2), S(base), l, tile_px, Anchor::Middle, t.ink);
            base += f.tile_line;
        }
    }
    for (const Line& l : f.lines) cv.line(S(l.x1), S(l.y1), S(l.x2), S(l.y2), S(l.width), l.color);
    for (const Line& l : f.highlight) cv.line(S(l.x1), S(l.y1), S(l.x2), S(l.y2), S(l.width), l.color);
    for (const Text& t : f.texts) {
        cv.text(*font, S(t.x), S(t.y), t.text, static_cast<float>(t.size * scale), t.anchor, t.color);
        if (t.bold)  // faux bold: a second pass one pixel to the right
            cv.text(*font, S(t.x) + std::max(1.0, scale * 0.5), S(t.y), t.text, static_cast<float>(t.size * scale), t.anchor, t.color);
    }
    return cv.png();
}

}  // namespace lanescope::figures
