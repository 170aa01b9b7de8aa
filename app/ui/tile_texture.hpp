// One operand view's static tiles and labels, rendered once into an OpenGL
// texture; each frame then draws a single textured quad plus the highlights.
// This is what keeps thousands of labelled cells cheap on software OpenGL.
#pragma once

#include "model/arrange.hpp"
#include "model/tiles.hpp"
#include "ui/platform.hpp"

#include <imgui.h>

#include <cstdint>
#include <vector>

namespace lsapp {

// The CPU buffers a texture's cells are filled in (tile_texture.cpp), kept between
// renders by their owner: zooming fills a new picture every frame, and fresh
// buffers of up to 4 MB cost a page fault per page each time.
struct FillBuffers {
    std::vector<std::uint32_t> strip, row_of_cells, plain;
    std::vector<int> source;
};

class TileTexture {
public:
    // Renders `grid` (background, tiles, labels), or only its part `window` (grid
    // pixels; a grid at 100 % can be many times the screen: only what is in view and
    // a margin is drawn, and drawn again when the view moves past it). Call inside a
    // frame, after the backend's NewFrame (the font texture must exist).
    // Labels in `font`; a grid whose form is LabelForm::Number (lane numbers at fit) in `small_font` when given.
    // `buffers`: kept fill buffers to reuse (nullptr: buffers of this call only).
    void render(const TileGrid& grid, const ls::ThemeColors& colors, ImFont* font, float font_size, ImFont* small_font = nullptr,
                float small_size = 0, const Rect* window = nullptr, FillBuffers* buffers = nullptr);
    void release();
    bool ready() const { return target_.fbo != 0; }
    // The grid changed: the pixels are stale (the allocation is kept for the next render).
    void invalidate() { valid_ = false; }
    bool valid() const { return valid_ && ready(); }
    // Whether the texture holds the current grid's pixels over `r` (grid pixels).
    bool covers(const Rect& r) const {
        return valid_ && ready() && r.x0 >= x0_ && r.y0 >= y0_ && r.x1 <= x0_ + width_ && r.y1 <= y0_ + height_;
    }
    // Where the texture's first pixel lies in the grid (0, 0 unless a window was rendered).
    int x0() const { return x0_; }
    int y0() const { return y0_; }
    ImTextureID id() const { return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(target_.color)); }
    GLuint fbo() const { return target_.fbo; }
    // The picture's size; the texture may be larger (kept from an earlier, larger picture:
    // allocating a large texture costs llvmpipe far more than reusing one).
    int width() const { return width_; }
    int height() const { return height_; }

private:
    Offscreen target_;
    int width_ = 0, height_ = 0;
    int x0_ = 0, y0_ = 0;
    bool valid_ = false;
};

ImU32 to_imgui(const ls::Rgb& c, int alpha = 255);

}  // namespace lsapp
