#include "ui/tile_texture.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lsapp {

ImU32 to_imgui(const ls::Rgb& c, int alpha) { return IM_COL32(c.r, c.g, c.b, alpha); }

namespace {

std::uint32_t rgba(const ls::Rgb& c) {
    const std::uint8_t px[4] = {c.r, c.g, c.b, 255};
    std::uint32_t v = 0;
    std::memcpy(&v, px, 4);
    return v;
}

// The pixels [first, last) whose centres lie in [a, b), as the rasteriser fills a rectangle.
std::pair<int, int> covered(float a, float b, int limit) {
    const int first = std::clamp(static_cast<int>(std::ceil(a - 0.5f)), 0, limit);
    const int last = std::clamp(static_cast<int>(std::ceil(b - 0.5f)), first, limit);
    return {first, last};
}

// One cell's fill as spans of one pixel row: the cell, or its copies' stripes
// (one each, left to right; when a stripe would be under 2 px wide, e.g. a large
// tile at fit, the cell shows one copy, column by column, so the area reads as
// stripes of the copies' colours).
template <typename Span>
void cell_spans(const Tile& t, float line, Span span) {
    if (t.copy_fills.empty()) return span(t.x0 + line, t.x1, t.fill);
    const float stripe = (t.x1 - t.x0 - line) / static_cast<float>(t.copy_fills.size());
    if (stripe < 2) return span(t.x0 + line, t.x1, t.copy_fills[static_cast<size_t>(t.element.col) % t.copy_fills.size()]);
    for (size_t k = 0; k < t.copy_fills.size(); ++k)
        span(std::round(t.x0 + line + stripe * k), std::round(t.x0 + line + stripe * (k + 1)), t.copy_fills[k]);
}

// Tile-mode grids (up to 8192 x 8192 pixels at 100 %): the cells' colours are
// written on the CPU, one template row per row of cells, and uploaded in
// strips, because filling such an area through llvmpipe (clear, background,
// blended rectangles) takes seconds. The pixels are those the GL path gives:
// the grid colour, then each cell inset by `line`.
// The labels of the cells too: glyphs from the font atlas (its alpha, kept on
// the CPU by ImGui) blended over the cell colour, at the places ImGui's AddText
// would put them (llvmpipe takes seconds for a million glyph vertices).
struct Stamp {
    ImFont* font = nullptr;
    float size = 0;
    const unsigned char* atlas = nullptr;
    int atlas_w = 0, atlas_h = 0;
};

// Stamps one line of text with its top-left at (x, y), clipped to the grid pixel rows [ys, ye);
// `at(y)` is the strip's row of grid pixel row y.
template <typename Row>
void stamp_text(const Stamp& st, const std::string& text, float x, float y, const ls::Rgb& colour, int w, int ys, int ye, Row at) {
    x = std::floor(x), y = std::floor(y);
    const float scale = st.size / st.font->FontSize;
    for (const char* p = text.c_str(); *p;) {
        unsigned int c = 0;
        p += ImTextCharFromUtf8(&c, p, nullptr);
        if (c == 0) break;
        const ImFontGlyph* g = st.font->FindGlyph(static_cast<ImWchar>(c));
        if (!g) continue;
        if (g->Visible) {
            const int gx = static_cast<int>(std::lround(x + g->X0 * scale)), gy = static_cast<int>(std::lround(y + g->Y0 * scale));
            const int u0 = static_cast<int>(std::lround(g->U0 * st.atlas_w)), v0 = static_cast<int>(std::lround(g->V0 * st.atlas_h));
            const int gw = static_cast<int>(std::lround((g->U1 - g->U0) * st.atlas_w));
            const int gh = static_cast<int>(std::lround((g->V1 - g->V0) * st.atlas_h));
            for (int j = std::max(0, ys - gy); j < gh && gy + j < ye; ++j) {
                std::uint8_t* row = at(gy + j);
                const unsigned char* a = st.atlas + static_cast<size_t>(v0 + j) * st.atlas_w + u0;
                for (int i = std::max(0, -gx); i < gw && gx + i < w; ++i) {
                    if (!a[i]) continue;
                    std::uint8_t* px = row + 4 * (gx + i);
                    const int alpha = a[i];
                    px[0] = static_cast<std::uint8_t>((colour.r * alpha + px[0] * (255 - alpha) + 127) / 255);
                    px[1] = static_cast<std::uint8_t>((colour.g * alpha + px[1] * (255 - alpha) + 127) / 255);
                    px[2] = static_cast<std::uint8_t>((colour.b * alpha + px[2] * (255 - alpha) + 127) / 255);
                }
            }
        }
        x += g->AdvanceX * scale;
    }
}

// The window [ox, ox + w) x [oy, oy + h) of the grid (grid pixels) into the texture.
void fill_cells(const TileGrid& grid, GLuint texture, int ox, int oy, int w, int h, const ls::Rgb& background, float line,
                const Stamp& stamp, FillBuffers& buf) {
    const std::uint32_t bg = rgba(background);
    // Every pixel of these is written before it is read (the strip row by row): sized, not cleared.
    std::vector<std::uint32_t>& row_of_cells = buf.row_of_cells;
    std::vector<std::uint32_t>& plain = buf.plain;
    std::vector<std::uint32_t>& strip = buf.strip;
    row_of_cells.resize(static_cast<size_t>(w));
    plain.assign(static_cast<size_t>(w), bg);
    const int strip_rows = std::max(1, (4 << 20) / (4 * w));  // 4 MB at a time
    if (strip.size() < static_cast<size_t>(w) * strip_rows) strip.resize(static_cast<size_t>(w) * strip_rows);
    // The columns of cells that reach into the window.
    const float cw = std::max(grid.cell_w, 0.01f), ch = std::max(grid.cell_h, 0.01f);
    const int c0 = std::clamp(static_cast<int>(ox / cw) - 1, 0, grid.cols), c1 = std::clamp(static_cast<int>((ox + w) / cw) + 2, c0, grid.cols);
    // The row of cells each pixel row of the window shows (-1: a grid line or the edge).
    std::vector<int>& source = buf.source;
    source.assign(static_cast<size_t>(h), -1);
    const int r0 = std::clamp(static_cast<int>(oy / ch) - 1, 0, grid.rows), r1 = std::clamp(static_cast<int>((oy + h) / ch) + 2, r0, grid.rows);
    for (int r = r0; r < r1; ++r) {
        const auto [y0, y1] = covered(r * grid.cell_h + line - oy, (r + 1) * grid.cell_h - oy, h);
        for (int y = y0; y < y1; ++y) source[static_cast<size_t>(y)] = r;
    }
    int built = -1;
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    // Texture rows are bottom-up: window pixel row y is texture row h - 1 - y.
    for (int t0 = 0; t0 < h; t0 += strip_rows) {
        const int n = std::min(strip_rows, h - t0);
        for (int i = 0; i < n; ++i) {
            const int r = source[static_cast<size_t>(h - 1 - (t0 + i))];
            if (r >= 0 && r != built) {
                std::fill(row_of_cells.begin(), row_of_cells.end(), bg);
                for (int c = c0; c < c1; ++c)
                    cell_spans(grid.tiles[static_cast<size_t>(r) * grid.cols + c], line, [&](float a, float b, const ls::Rgb& fill) {
                        const auto [x0, x1] = covered(a - ox, b - ox, w);
                        std::fill(row_of_cells.begin() + x0, row_of_cells.begin() + x1, rgba(fill));
                    });
                built = r;
            }
            const std::vector<std::uint32_t>& src = r >= 0 ? row_of_cells : plain;
            std::copy(src.begin(), src.end(), strip.begin() + static_cast<std::ptrdiff_t>(i) * w);
        }
        if (stamp.atlas && grid.form != LabelForm::None && grid.cell_h > 0) {
            // The labels of the rows of cells that reach into this strip (window pixel rows [ys, ye)).
            const int ys = h - t0 - n, ye = h - t0;
            auto at = [&](int y) { return reinterpret_cast<std::uint8_t*>(strip.data() + static_cast<size_t>(h - 1 - y - t0) * w); };
            const int lr0 = std::max(0, static_cast<int>((ys + oy) / ch) - 1);
            const int lr1 = std::min(grid.rows, static_cast<int>((ye + oy) / ch) + 2);
            for (int r = lr0; r < lr1; ++r)
                for (int c = c0; c < c1; ++c) {
                    const Tile& t = grid.tiles[static_cast<size_t>(r) * grid.cols + c];
                    const auto lines = grid.labels(t);
                    if (lines.first.empty()) continue;
                    // As the GL path: one or two lines, each centred in the cell.
                    const float lh = stamp.size;
                    const float top = std::floor((t.y0 + t.y1 - (lines.second.empty() ? 1 : 2) * lh) * 0.5f + 1.0f) - oy;
                    int k = 0;
                    for (const std::string* text : {&lines.first, &lines.second}) {
                        if (text->empty()) continue;
                        const ImVec2 size = stamp.font->CalcTextSizeA(stamp.size, FLT_MAX, 0.0f, text->c_str());
                        stamp_text(stamp, *text, std::floor((t.x0 + t.x1 - size.x) * 0.5f + 0.5f) - ox, top + lh * static_cast<float>(k++),
                                   t.text, w, ys, ye, at);
                    }
                }
        }
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, t0, w, n, GL_RGBA, GL_UNSIGNED_BYTE, strip.data());
    }
    glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace

void TileTexture::render(const TileGrid& grid, const ls::ThemeColors& colors, ImFont* font, float font_size, ImFont* small_font,
                         float small_size, const Rect* window, FillBuffers* buffers) {
    if (grid.form == LabelForm::Number && small_font && small_size > 0) font = small_font, font_size = small_size;
    GLint max_size = 4096;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    // The part drawn: the window (whole pixels, inside the grid) or the whole grid.
    const int gw = static_cast<int>(std::ceil(grid.width)) + 1, gh = static_cast<int>(std::ceil(grid.height)) + 1;
    const int ox = window ? std::clamp(static_cast<int>(std::floor(window->x0)), 0, gw - 1) : 0;
    const int oy = window ? std::clamp(static_cast<int>(std::floor(window->y0)), 0, gh - 1) : 0;
    const int ex = window ? std::clamp(static_cast<int>(std::ceil(window->x1)) + 1, ox + 1, gw) : gw;
    const int ey = window ? std::clamp(static_cast<int>(std::ceil(window->y1)) + 1, oy + 1, gh) : gh;
    const int w = std::clamp(ex - ox, 1, static_cast<int>(max_size));
    const int h = std::clamp(ey - oy, 1, static_cast<int>(max_size));
    // Reuse the texture when the picture fits it and does not waste most of it (above 16 MB).
    const double have = static_cast<double>(target_.width) * target_.height, need = static_cast<double>(w) * h;
    const bool fits = target_.fbo && target_.width >= w && target_.height >= h;
    if (!fits || (have > 8 * need && have * 4 > (16 << 20))) {
        // Rounded up to 256 pixels: the parts drawn while zooming grow a little every step, and each
        // new texture costs llvmpipe an allocation.
        auto up = [&](int v) { return std::min(static_cast<int>(max_size), (v + 255) / 256 * 256); };
        std::string error;
        width_ = height_ = 0;
        if (!target_.create(std::max(w, up(w)), std::max(h, up(h)), true, &error)) return;
    }
    width_ = w, height_ = h;
    x0_ = ox, y0_ = oy;
    valid_ = true;
    // A one-pixel grid line on the left and top of every tile, unless tiles are
    // so small that the lines would hide their colours.
    const float line = grid.cell_h >= 5 && (grid.view == ViewKind::Registers || grid.cell_w >= 5) ? 1.0f : 0.0f;
    // Matrix grids of one block (every tile grid): the cells and their labels on the CPU, row by row.
    const bool cpu_cells = grid.view == ViewKind::Matrix && grid.blocks_shown == 1 &&
                           grid.tiles.size() == static_cast<size_t>(grid.rows) * grid.cols;
    if (cpu_cells) {
        Stamp stamp;
        ImFontAtlas* atlas = ImGui::GetIO().Fonts;
        unsigned char* pixels = nullptr;
        if (atlas->TexPixelsAlpha8) pixels = atlas->TexPixelsAlpha8, stamp.atlas_w = atlas->TexWidth, stamp.atlas_h = atlas->TexHeight;
        if (pixels && font && font->ContainerAtlas == atlas && font->FontSize > 0)
            stamp.atlas = pixels, stamp.font = font, stamp.size = font_size;
        FillBuffers local;
        fill_cells(grid, target_.color, ox, oy, w, h, colors.grid, line, stamp, buffers ? *buffers : local);
        if (stamp.atlas) return;  // labels stamped too: nothing left for GL
    }
    ImDrawList list(ImGui::GetDrawListSharedData());
    list._ResetForNewFrame();
    list.PushTextureID(ImGui::GetIO().Fonts->TexID);
    list.PushClipRect(ImVec2(0, 0), ImVec2(static_cast<float>(w), static_cast<float>(h)));
    if (!cpu_cells) list.AddRectFilled(ImVec2(0, 0), ImVec2(static_cast<float>(w), static_cast<float>(h)), to_imgui(colors.grid));
    // Only the tiles in the window, moved by its origin.
    const float fx = static_cast<float>(ox), fy = static_cast<float>(oy), fw = static_cast<float>(w), fh = static_cast<float>(h);
    for (const Tile& grid_tile : grid.tiles) {
        if (grid_tile.x1 <= fx || grid_tile.y1 <= fy || grid_tile.x0 >= fx + fw || grid_tile.y0 >= fy + fh) continue;
        Tile t = grid_tile;
        t.x0 -= fx, t.x1 -= fx, t.y0 -= fy, t.y1 -= fy;
        if (!cpu_cells)
            cell_spans(t, line, [&](float a, float b, const ls::Rgb& fill) {
                list.AddRectFilled(ImVec2(a, t.y0 + line), ImVec2(b, t.y1), to_imgui(fill));
            });
        const auto lines = grid.labels(grid_tile);
        if (lines.first.empty()) continue;
        // One or two lines, each centred in the cell.
        const float line = font_size;
        const float top = std::floor((t.y0 + t.y1 - (lines.second.empty() ? 1 : 2) * line) * 0.5f + 1.0f);
        int i = 0;
        for (const std::string* s : {&lines.first, &lines.second}) {
            if (s->empty()) continue;
            const ImVec2 size = font->CalcTextSizeA(font_size, FLT_MAX, 0.0f, s->c_str());
            const ImVec2 pos(std::floor((t.x0 + t.x1 - size.x) * 0.5f + 0.5f), top + line * static_cast<float>(i++));
            list.AddText(font, font_size, pos, to_imgui(t.text), s->c_str());
        }
    }
    ImDrawList* lists[] = {&list};
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = list.VtxBuffer.Size;
    data.TotalIdxCount = list.IdxBuffer.Size;
    data.DisplayPos = ImVec2(0, 0);
    data.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
    data.FramebufferScale = ImVec2(1, 1);
    if (cpu_cells && list.VtxBuffer.Size == 0) return;  // colours only: nothing to draw over them
    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_FRAMEBUFFER, target_.fbo);
    glViewport(0, 0, w, h);
    if (!cpu_cells) {
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    ImGui_ImplOpenGL3_RenderDrawData(&data);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
}

void TileTexture::release() {
    target_.destroy();
    width_ = height_ = 0;
    x0_ = y0_ = 0;
    valid_ = false;
}

}  // namespace lsapp
