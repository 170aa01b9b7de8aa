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
    for (const Tile& t : grid.tiles) {
        // A one-pixel grid line on the right and bottom of every tile.
        list.AddRectFilled(ImVec2(t.x0 + 1, t.y0 + 1), ImVec2(t.x1, t.y1), to_imgui(t.fill));
        if (t.label.empty()) continue;
        const ImVec2 size = font->CalcTextSizeA(font_size, FLT_MAX, 0.0f, t.label.c_str());
        const ImVec2 pos(std::floor((t.x0 + t.x1 - size.x) * 0.5f + 0.5f), std::floor((t.y0 + t.y1 - size.y) * 0.5f + 1.0f));
        list.AddText(font, font_size, pos, to_imgui(t.text), t.label.c_str());
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
