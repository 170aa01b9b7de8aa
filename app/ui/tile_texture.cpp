#include "ui/tile_texture.hpp"

#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>

namespace lsapp {

ImU32 to_imgui(const ls::Rgb& c, int alpha) { return IM_COL32(c.r, c.g, c.b, alpha); }

void TileTexture::render(const TileGrid& grid, const ls::ThemeColors& colors, ImFont* font, float font_size) {
    GLint max_size = 4096;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    const int w = std::clamp(static_cast<int>(std::ceil(grid.width)) + 1, 1, static_cast<int>(max_size));
    const int h = std::clamp(static_cast<int>(std::ceil(grid.height)) + 1, 1, static_cast<int>(max_size));
    if (!target_.fbo || target_.width != w || target_.height != h) {
        std::string error;
        if (!target_.create(w, h, true, &error)) return;
    }
    ImDrawList list(ImGui::GetDrawListSharedData());
    list._ResetForNewFrame();
    list.PushTextureID(ImGui::GetIO().Fonts->TexID);
    list.PushClipRect(ImVec2(0, 0), ImVec2(static_cast<float>(w), static_cast<float>(h)));
    list.AddRectFilled(ImVec2(0, 0), ImVec2(static_cast<float>(w), static_cast<float>(h)), to_imgui(colors.grid));
    // A one-pixel grid line on the left and top of every tile, unless tiles are
    // so small that the lines would hide their colours.
    const float line = grid.cell_h >= 5 && (grid.view == ViewKind::Registers || grid.cell_w >= 5) ? 1.0f : 0.0f;
    for (const Tile& t : grid.tiles) {
        const float stripe = t.copy_fills.empty() ? 0.0f : (t.x1 - t.x0 - line) / static_cast<float>(t.copy_fills.size());
        if (t.copy_fills.empty()) {
            list.AddRectFilled(ImVec2(t.x0 + line, t.y0 + line), ImVec2(t.x1, t.y1), to_imgui(t.fill));
        } else if (stripe < 2) {
            // Stripes narrower than 2 px would vanish (a large tile at fit): each cell shows one
            // copy, column by column, so the area reads as stripes of the copies' colours.
            const size_t k = static_cast<size_t>(t.element.col) % t.copy_fills.size();
            list.AddRectFilled(ImVec2(t.x0 + line, t.y0 + line), ImVec2(t.x1, t.y1), to_imgui(t.copy_fills[k]));
        } else {
            // Every copy of a replicated element: one stripe each, left to right.
            const float w = (t.x1 - t.x0 - line) / static_cast<float>(t.copy_fills.size());
            for (size_t k = 0; k < t.copy_fills.size(); ++k) {
                const float a = std::round(t.x0 + line + w * k), b = std::round(t.x0 + line + w * (k + 1));
                list.AddRectFilled(ImVec2(a, t.y0 + line), ImVec2(b, t.y1), to_imgui(t.copy_fills[k]));
            }
        }
        if (t.label.empty()) continue;
        // One or two lines, each centred in the cell.
        const float line = font_size;
        const float top = std::floor((t.y0 + t.y1 - (t.label2.empty() ? 1 : 2) * line) * 0.5f + 1.0f);
        int i = 0;
        for (const std::string* s : {&t.label, &t.label2}) {
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
    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_FRAMEBUFFER, target_.fbo);
    glViewport(0, 0, w, h);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(&data);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
}

void TileTexture::release() { target_.destroy(); }

}  // namespace lsapp
