// One operand view's static tiles and labels, rendered once into an OpenGL
// texture; each frame then draws a single textured quad plus the highlights.
// This is what keeps thousands of labelled cells cheap on software OpenGL.
#pragma once

#include "model/tiles.hpp"
#include "ui/platform.hpp"

#include <imgui.h>

namespace lsapp {

class TileTexture {
public:
    // Renders `grid` (background, tiles, labels). Call inside a frame, after
    // the backend's NewFrame (the font texture must exist).
    // Labels in `font`; a grid whose form is LabelForm::Number (lane numbers at fit) in `small_font` when given.
    void render(const TileGrid& grid, const ls::ThemeColors& colors, ImFont* font, float font_size, ImFont* small_font = nullptr,
                float small_size = 0);
    void release();
    bool ready() const { return target_.fbo != 0; }
    ImTextureID id() const { return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(target_.color)); }
    GLuint fbo() const { return target_.fbo; }
    // The picture's size; the texture may be larger (kept from an earlier, larger picture:
    // allocating a large texture costs llvmpipe far more than reusing one).
    int width() const { return width_; }
    int height() const { return height_; }

private:
    Offscreen target_;
    int width_ = 0, height_ = 0;
};

ImU32 to_imgui(const ls::Rgb& c, int alpha = 255);

}  // namespace lsapp
