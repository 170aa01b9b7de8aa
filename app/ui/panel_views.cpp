// The operand views: the GEMM picture (A left, B above, D at the crossing),
// the register views (lanes x VGPRs), and compare mode. All of them draw a
// cached texture and only the highlights per frame.
#include <algorithm>
#include "ui/app.hpp"
#include "model/notes.hpp"
#include "model/selection.hpp"

#include <cctype>
#include <cmath>
#include <string>
#include <vector>

namespace lsapp {

namespace {

ImVec2 add(ImVec2 a, float x, float y) { return ImVec2(a.x + x, a.y + y); }

// Draw callback: copy a grid's texture to the frame at its place, inside the clip rectangle.
void blit_grid(const ImDrawList*, const ImDrawCmd* cmd) {
    const GridBlit& b = *static_cast<const GridBlit*>(cmd->UserCallbackData);
    const ImDrawData* dd = ImGui::GetDrawData();
    const ImVec2 pos = dd->DisplayPos, sc = dd->FramebufferScale;
    const float fb_h = dd->DisplaySize.y * sc.y;
    // Only the visible part is copied (a 100 % grid can be far larger than the screen):
    // the grid's rectangle cut by the clip rectangle, in grid pixels (y down).
    const ImVec4 clip = cmd->ClipRect;
    const float gx0 = std::max(0.0f, clip.x - b.p0.x), gy0 = std::max(0.0f, clip.y - b.p0.y);
    const float gx1 = std::min(static_cast<float>(b.w), clip.z - b.p0.x), gy1 = std::min(static_cast<float>(b.h), clip.w - b.p0.y);
    const int sx0 = static_cast<int>(std::floor(gx0)), sy0 = static_cast<int>(std::floor(gy0));
    const int sx1 = static_cast<int>(std::ceil(gx1)), sy1 = static_cast<int>(std::ceil(gy1));
    if (sx1 <= sx0 || sy1 <= sy0) return;
    glEnable(GL_SCISSOR_TEST);
    const int cx0 = static_cast<int>((clip.x - pos.x) * sc.x), cx1 = static_cast<int>((clip.z - pos.x) * sc.x);
    const int cy0 = static_cast<int>((clip.y - pos.y) * sc.y), cy1 = static_cast<int>((clip.w - pos.y) * sc.y);
    glScissor(cx0, static_cast<int>(fb_h) - cy1, std::max(0, cx1 - cx0), std::max(0, cy1 - cy0));
    // The texture's rows are stored bottom-up, like the frame's.
    auto fx = [&](float gx) { return static_cast<GLint>(std::lround((b.p0.x + gx - pos.x) * sc.x)); };
    auto fy = [&](float gy) { return static_cast<GLint>(std::lround(fb_h - (b.p0.y + gy - pos.y) * sc.y)); };
    GLint read = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, b.fbo);
    glBlitFramebuffer(sx0, b.h - sy1, sx1, b.h - sy0, fx(static_cast<float>(sx0)), fy(static_cast<float>(sy1)),
                      fx(static_cast<float>(sx1)), fy(static_cast<float>(sy0)), GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read));
}

ImU32 change_colour(Change c, ls::Theme theme) {
    switch (c) {
        case Change::OtherRegister: return IM_COL32(0x6A, 0x1B, 0x9A, 255);
        case Change::OtherLane: return IM_COL32(0xB7, 0x1C, 0x1C, 255);
        case Change::Both: return theme == ls::Theme::Dark ? IM_COL32(255, 255, 255, 255) : IM_COL32(0, 0, 0, 255);
        case Change::BitsOnly: return IM_COL32(0x00, 0x83, 0x8F, 255);
        case Change::Copies: return IM_COL32(0x2E, 0x7D, 0x32, 255);
        case Change::Same: break;
    }
    return 0;
}

const OperandView* view_of(const App& app, ls::Operand op) {
    for (const auto& v : app.views)
        if (v.operand == op) return &v;
    return nullptr;
}

}  // namespace

void draw_grid(App& app, const TileGrid& grid, TileTexture& tex, const OperandHighlight* hl, const char* id,
               const std::vector<std::uint8_t>* diff, const LayoutSet* other, const OperandVerify* verified) {
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, grid.width), std::max(1.0f, grid.height)));
    draw_grid_at(app, grid, tex, hl, p0, ImGui::IsItemHovered(), ImGui::IsItemClicked(), diff, other, verified);
}

void draw_grid_at(App& app, const TileGrid& grid, TileTexture& tex, const OperandHighlight* hl, ImVec2 p0, bool hovered,
                  bool clicked, const std::vector<std::uint8_t>* diff, const LayoutSet* other, const OperandVerify* verified,
                  const std::function<void()>& overlay) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    {
        // The part of the grid in view (grid pixels). A texture that does not hold it is drawn now:
        // the whole grid when it is not much larger than the view, else the part in view and a margin
        // of a quarter view on each side (drawn again when panning leaves it), so that zooming a
        // large picture to 100 % never draws the whole of it at once.
        const ImVec4 clip = dl->_ClipRectStack.back();
        const Rect vis{std::max(0.0f, clip.x - p0.x), std::max(0.0f, clip.y - p0.y), std::min(grid.width, clip.z - p0.x),
                       std::min(grid.height, clip.w - p0.y)};
        if (vis.w() > 0 && vis.h() > 0 && !tex.covers(vis)) {
            const float vw = clip.z - clip.x, vh = clip.w - clip.y;
            // A new cell size (zoom) draws only what is in view; a pan past the drawn part adds the margin.
            const float margin = tex.valid() ? 0.25f : 0.02f;
            if (grid.width * grid.height <= 1.5f * vw * vh) {
                app.render_texture(tex, grid);
            } else {
                const Rect window{std::max(0.0f, vis.x0 - margin * vw), std::max(0.0f, vis.y0 - margin * vh),
                                  std::min(grid.width, vis.x1 + margin * vw), std::min(grid.height, vis.y1 + margin * vh)};
                app.render_texture(tex, grid, &window);
            }
        }
    }
    if (tex.ready()) {
        // The cached picture is opaque and drawn 1:1: a framebuffer blit (a copy,
        // clipped by the scissor) instead of a textured quad spares llvmpipe the
        // shading of every pixel of the largest areas of the frame.
        app.blits.push_back(GridBlit{tex.fbo(), tex.width(), tex.height(), add(p0, static_cast<float>(tex.x0()), static_cast<float>(tex.y0()))});
        dl->AddCallback(blit_grid, &app.blits.back());
        dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    }
    if (overlay) overlay();
    const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
    const ImU32 strong = to_imgui(colors.highlight), weak = to_imgui(colors.highlight, 200),
                wash = to_imgui(colors.highlight, 70);
    const float thick = 3.0f * app.scale, thin = 1.5f * app.scale;
    const bool matrix = grid.view == ViewKind::Matrix;
    // Only what changes per frame: highlights of the hovered / pinned thing.
    const bool few = hl && hl->marked.size() <= 16;  // a hovered element, not a whole lane
    auto highlight = [&](const Tile& t, std::uint8_t level) {
        ImVec2 a = add(p0, t.x0 + 1, t.y0 + 1), b = add(p0, t.x1, t.y1);
        if (t.x1 - t.x0 < 6 || t.y1 - t.y0 < 6) {
            // Cells of a few pixels (a large tile at fit): marked cells are filled (a row, a column or
            // a lane's cells read as lines and blocks); a single hovered element gets a ring that can be seen.
            if (level != 2 || !few) return dl->AddRectFilled(add(p0, t.x0, t.y0), b, level == 2 ? strong : weak);
            const float cx = (a.x + b.x) * 0.5f, cy = (a.y + b.y) * 0.5f, r = 5 * app.scale;
            a = ImVec2(std::min(a.x, cx - r), std::min(a.y, cy - r)), b = ImVec2(std::max(b.x, cx + r), std::max(b.y, cy + r));
        }
        if (level == 2) dl->AddRectFilled(a, b, wash);
        dl->AddRect(a, b, level == 2 ? strong : weak, 0.0f, 0, level == 2 ? thick : thin);
    };
    if (hl && matrix) {
        // Only what is marked (the links' index lists): the cost follows the highlight, not the grid.
        const size_t first = static_cast<size_t>(grid.first_block) * grid.rows * grid.cols;
        for (int i : hl->marked) {
            const size_t idx = static_cast<size_t>(i);
            if (idx < first || idx - first >= grid.tiles.size()) continue;
            highlight(grid.tiles[idx - first], hl->elements[idx]);
        }
    } else if (hl) {
        for (int s : hl->marked_slots) {
            const size_t slot = static_cast<size_t>(s);
            if (slot + 1 >= grid.slot_first.size()) continue;
            for (int i = grid.slot_first[slot]; i < grid.slot_first[slot + 1]; ++i)
                highlight(grid.tiles[static_cast<size_t>(i)], hl->slots[slot]);
        }
    }
    if (app.legend_key >= 0 && !other) {
        // A legend entry is hovered: outline every cell of that colour (only the cells in view;
        // tile grids outline only when cells are large enough to see an outline).
        const ImVec4 clip = dl->_ClipRectStack.back();
        const bool tiles = grid.tile && app.tile.active();
        if (!tiles || grid.cell_w >= 4) {
            for (const Tile& t : grid.tiles) {
                if (p0.x + t.x1 < clip.x || p0.x + t.x0 > clip.z || p0.y + t.y1 < clip.y || p0.y + t.y0 > clip.w) continue;
                const int n = ls::categorical_count();
                auto matches = [&](int key) {
                    return tiles ? tile_legend_matches(app.legend_key, key, app.tile.tiles.lane_groups) : key % n == app.legend_key;
                };
                bool match = matches(t.key);
                for (int k : t.copy_keys) match |= matches(k);
                if (!match) continue;
                dl->AddRect(add(p0, t.x0 + 1, t.y0 + 1), add(p0, t.x1, t.y1), strong, 0.0f, 0, std::min(thick, 2.0f * app.scale));
            }
        }
    }
    if (verified) {
        // "Verify on GPU": green for verified cells, red for wrong ones, over the cached tiles.
        const ImU32 ok_line = to_imgui(verify_ok_colour), ok_wash = to_imgui(verify_ok_colour, 40);
        const ImU32 bad_line = to_imgui(verify_wrong_colour), bad_wash = to_imgui(verify_wrong_colour, 110);
        for (const Tile& t : grid.tiles) {
            const CellState st = verified->at(t.element);
            if (st == CellState::Unchecked) continue;
            const ImVec2 a = add(p0, t.x0 + 1, t.y0 + 1), b = add(p0, t.x1, t.y1);
            const bool wrong = st == CellState::Wrong;
            dl->AddRectFilled(a, b, wrong ? bad_wash : ok_wash);
            dl->AddRect(a, b, wrong ? bad_line : ok_line, 0.0f, 0, wrong ? thick : 2.0f * app.scale);
        }
    }
    if (diff) {
        for (const Tile& t : grid.tiles) {
            const size_t idx = static_cast<size_t>((t.element.block * grid.rows + t.element.row) * grid.cols + t.element.col);
            if (idx >= diff->size() || !(*diff)[idx]) continue;
            // The kind of change picks the mark's colour (the legend above says which is which).
            const ImU32 mark = change_colour(static_cast<Change>((*diff)[idx]), app.settings.view.theme);
            const ImVec2 a = add(p0, t.x0 + 2, t.y0 + 2), b = add(p0, t.x1 - 1, t.y1 - 1);
            // A corner flag and an outline: the label stays readable.
            const float f = std::min(b.x - a.x, b.y - a.y) * 0.45f;
            dl->AddTriangleFilled(a, ImVec2(a.x + f, a.y), ImVec2(a.x, a.y + f), mark);
            dl->AddRect(a, b, mark, 0.0f, 0, 2 * thin);
        }
    }
    if (!hovered) return;
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int hit = grid.hit(m.x - p0.x, m.y - p0.y);
    if (hit < 0) return;
    const Tile& t = grid.tiles[static_cast<size_t>(hit)];
    Hover h;
    if (ImGui::GetIO().KeyShift) {
        h.kind = Hover::Kind::Lane;
        h.lane = t.loc.lane;
    } else {
        h.kind = Hover::Kind::Element;
        h.operand = grid.operand;
        h.element = t.element;
    }
    const bool tile = grid.tile && app.tile.active() && !other;
    if (tile) h.wave = std::max(0, t.wave);  // tile coordinates; a lane is that lane of this wave
    if (!other) {
        app.frame_hover = h;
        if (clicked) app.want_pin = h;
    }
    ImGui::BeginTooltip();
    std::string text = tile ? describe_tile_element(app.tile.tiles, grid.operand, t.element)
                            : describe_element(other ? *other : app.set, grid.operand, t.element);
    if (!matrix) {
        // The slot in its space's words: a TMEM cell, a shared-memory byte, an NVIDIA thread's register.
        const std::string bits = " bits " + std::to_string(t.loc.bit_lo) + ".." + std::to_string(std::min(t.loc.bit_hi, 31)) + " holds\n";
        const bool nv = app.set.ins->vendor() == ls::Vendor::NVIDIA;
        if (grid.space != ls::Space::Registers)
            text = ls::lane_axis_text(*app.set.ins, t.loc.lane, grid.space) + ", " +
                   ls::register_text(*app.set.ins, grid.operand, t.loc.reg, 32, grid.space) + bits + text;
        else
            text = (nv ? "thread " + std::to_string(t.loc.lane) + " register r" + std::to_string(t.loc.reg)
                       : "v" + std::to_string(t.loc.reg) + " lane " + std::to_string(t.loc.lane)) + bits + text;
    }
    ImGui::PushTextWrapPos(520 * app.scale);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    if (verified) {
        if (const std::string* note = verified->note(t.element)) {
            ImGui::PushTextWrapPos(520 * app.scale);
            ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "Verify on GPU: WRONG. What the hardware did:");
            ImGui::TextUnformatted(note->c_str());
            ImGui::PopTextWrapPos();
        } else if (verified->at(t.element) == CellState::Verified) {
            ImGui::TextColored(ImVec4(0.1f, 0.55f, 0.2f, 1), "Verify on GPU: verified on %s", app.verify.facts.device.c_str());
        }
    }
    ImGui::TextDisabled(tile ? "Shift: this lane of this wave   Click: pin   Esc: unpin" : "Shift: whole lane   Click: pin   Esc: unpin");
    ImGui::EndTooltip();
}

namespace {

std::string text_lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

// What a learner must know about an operand that its picture alone does not say.
std::string operand_note_of(const ls::Instruction& ins, ls::Operand op) {
    const bool nv = ins.vendor() == ls::Vendor::NVIDIA;
    if (ins.sparse() && op == ls::Operand::A)
        return nv ? "2:4 sparse: dense k, 2 of each 4 held" : "4:2 compressed: dense k, 2 of each 4 held";
    if (ins.sparse() && op == ls::Operand::K)
        return nv ? "metadata e: 2-bit index per kept value" : "index: a nibble per 4 k (two 2-bit indices)";
    if (ins.blocks > 1 && (op == ls::Operand::A || op == ls::Operand::B || op == ls::Operand::D))
        return std::to_string(ins.blocks) + " blocks (b0\u2013b" + std::to_string(ins.blocks - 1) + ")";
    if ((op == ls::Operand::SA || op == ls::Operand::SB) && nv)
        return ins.scale_vec > 0 ? "a scale factor per " + std::to_string(ins.k / ins.scale_vec) + " k (scale_vec::" + std::to_string(ins.scale_vec) + "X)"
                                 : "the scale factors";
    if (op == ls::Operand::SA || op == ls::Operand::SB)
        return "an E8M0 scale per 32 k, in the byte opsel_" + std::string(op == ls::Operand::SA ? "a" : "b") + " selects";
    return {};
}

// Where the operand lives, when not in registers: TMEM's lane quarters and the warp allowed in
// each (PTX ISA §9.7.16.2.1), shared memory's cell text.
std::string space_note(const ls::OperandLayout& l) {
    if (l.space() == ls::Space::TensorMemory)
        return std::string("warp w reaches lanes 32\u00B7(w%4)\u2026+31") + (l.lanes() > 128 ? "; lanes 128\u2013255 are CTA 1's" : "");
    if (l.space() == ls::Space::SharedMemory) return "shared memory: byte address, bank";
    return {};
}

// The note, and a layout that core is not sure of says so (gfx1250's evidence).
std::string operand_note(const LayoutSet& set, ls::Operand op) {
    std::string note = operand_note_of(*set.ins, op);
    if (const ls::OperandLayout* l = set.find(op)) {
        const std::string where = space_note(*l);
        if (!where.empty()) note = where + (note.empty() ? "" : "  ") + note;
        // tcgen05.ld/st .16x32bx2: the two halves of the warp, the second at immHalfSplitoff columns on.
        if (set.ins->kind == ls::LayoutKind::Tcgen05LdSt && set.ins->tmem_shape == "16x32bx2")
            note = "threads 0\u201315 from column 0, threads 16\u201331 from column half_split = " + std::to_string(set.mods.half_split) +
                   (note.empty() ? "" : "  ") + note;
        // tcgen05.mma's D: which of PTX's data-path layouts (A-G) it is, and Layout F's skipped lanes.
        const std::string& f = l->formula();
        if (set.ins->kind == ls::LayoutKind::Tcgen05Mma && l->space() == ls::Space::TensorMemory && f.rfind("Layout ", 0) == 0) {
            std::string name = f.substr(0, 8);
            if (f.find("lanes 16-31 of each quarter are skipped") != std::string::npos) name += ": lanes 16\u201331 of each quarter unused";
            note = name + (note.empty() ? "" : "  ") + note;
        }
    }
    const ls::Evidence ev = ls::layout_evidence(*set.ins, op == ls::Operand::C ? ls::Operand::D : op, set.mods);
    // Blackwell layouts say so even when "high": nothing here ran on Blackwell silicon. First, so
    // that a title too narrow for the whole note keeps it.
    const bool unconfirmed = ev.why.find("not confirmed on hardware") != std::string::npos;
    if (!ev.confidence.empty() && (ev.confidence != "high" || unconfirmed))
        note = (unconfirmed ? "not confirmed on hardware, " : "") + std::string("confidence ") + ev.confidence +
               (ev.alternatives.empty() ? "" : " (alternatives in Details)") + (note.empty() ? "" : "  ") + note;
    return note;
}

// Titles from the richest to the shortest; the longest that fits its column is drawn
// (a form with "\n" takes two lines).
std::vector<std::string> title_forms(const App& app, const LayoutSet& set, const ls::OperandLayout& l, bool registers) {
    // tcgen05.ld / st: the matrix is the message's TMEM cells (lane offsets in the warp's quarter x columns).
    const bool ldst = set.ins->kind == ls::LayoutKind::Tcgen05LdSt && !registers;
    const std::string name = ldst ? "TMEM" : l.operand() == ls::Operand::D ? "C / D" : std::string(ls::operand_name(l.operand()));
    const std::string shape = ldst ? std::to_string(l.rows()) + " lanes x " + std::to_string(l.cols()) + " columns"
                                   : std::to_string(l.rows()) + "x" + std::to_string(l.cols()) +
                                         (l.blocks() > 1 ? " x" + std::to_string(l.blocks()) : "");
    // TMEM: columns x TMEM lanes; shared memory: banks x 128-byte lines (the space's own axes).
    const bool tmem = l.space() == ls::Space::TensorMemory, smem = l.space() == ls::Space::SharedMemory;
    // D read back by a tcgen05.ld (--tmem-load): the shape and the warps that read it.
    const bool read_back = !tmem && !smem && set.mods.tmem_load > 0 && (l.operand() == ls::Operand::D || l.operand() == ls::Operand::C);
    const std::string noun = tmem ? "TMEM column" : smem ? "bank" : std::string(ls::register_noun(set.ins->vendor()));
    const std::string regs = std::to_string(l.regs()) + " " + noun + (l.regs() == 1 ? "" : "s") + (ldst ? " a thread" : "");
    const std::string lanes = std::to_string(l.lanes()) + (tmem ? " TMEM lanes" : smem ? " lines of 128 B" : read_back ? " threads" : " lanes");
    std::string view = tmem ? " in Tensor Memory" : smem ? " in shared memory" : " registers";
    if (read_back)
        view = " after tcgen05.ld." + text_lower(ls::modifier_value_name("tmem_load", set.mods.tmem_load)) + ", " +
               std::to_string(set.mods.num_warps) + " warps";
    std::vector<std::string> out;
    if (registers) {
        // Blackwell: the words a figure's caption carries, where the column has room for them.
        const ls::Evidence ev = ls::layout_evidence(*set.ins, l.operand() == ls::Operand::C ? ls::Operand::D : l.operand(), set.mods);
        if (ev.why.find("not confirmed on hardware") != std::string::npos) {
            out.push_back(name + view + "  " + regs + " x " + lanes + "  (not confirmed on hardware)");
            out.push_back(name + view + "  (not confirmed on hardware)\n" + regs + " x " + lanes);
        }
        out.push_back(name + view + "  " + regs + " x " + lanes);
        out.push_back(name + view + "\n" + regs + " x " + lanes);
        // Narrow: D in TMEM and D read back keep which is which.
        if (tmem) out.push_back(name + " in TMEM\n" + regs);
        if (read_back) {
            out.push_back(name + " tcgen05.ld." + text_lower(ls::modifier_value_name("tmem_load", set.mods.tmem_load)) + "\n" + regs);
            out.push_back(name + " after ld\n" + regs);
        }
        out.push_back(name + "  " + std::string(ls::elem_name(l.type())) + "\n" + regs);
        // A narrow register view (wgmma's A beside its 128-register D) keeps its type and count.
        out.push_back(name + "  " + std::string(ls::elem_name(l.type())) + "\n" + std::to_string(l.regs()) +
                      (set.ins->vendor() == ls::Vendor::AMD ? "v" : "r"));
        out.push_back(name + view);
    } else {
        const int copies = l.elements() > 0 ? static_cast<int>(l.where({0, 0, 0}).size()) : 1;
        std::string rep;
        if (copies > 1)
            rep = "  each element in " + std::to_string(copies) + " places" +
                  (app.copy < 0 ? " (all shown)" : " (copy " + std::to_string(std::min(app.copy, copies - 1) + 1) + ")");
        std::string type = std::string(ls::elem_name(l.type()));
        // Scales: the byte of the scale VGPR that opsel_a / opsel_b select.
        if ((l.operand() == ls::Operand::SA || l.operand() == ls::Operand::SB) && set.ins->vendor() == ls::Vendor::AMD) {
            const int byte = l.operand() == ls::Operand::SA ? set.mods.opsel_a : set.mods.opsel_b;
            type += " [" + std::to_string(8 * byte + 7) + ":" + std::to_string(8 * byte) + "]";
        }
        const std::string note = operand_note(set, l.operand());
        // What the picture alone does not say (sparse A compressed, the index's nibbles, blocks) outranks
        // a one-line title: a narrow column keeps it on the second line, shortened if need be.
        const bool nv = set.ins->vendor() == ls::Vendor::NVIDIA;
        std::string short_note = note;
        if (note.rfind("not confirmed on hardware", 0) == 0) {
            short_note = "not confirmed on hardware";
            if (const size_t at = note.find("Layout "); at != std::string::npos) short_note += ", " + note.substr(at, 8);
            if (set.ins->kind == ls::LayoutKind::Tcgen05LdSt && set.ins->tmem_shape == "16x32bx2")
                short_note += "; threads 16\u201331 from column " + std::to_string(set.mods.half_split);
        }
        if (set.ins->sparse() && l.operand() == ls::Operand::A) short_note = nv ? "2:4 sparse" : "4:2 compressed";
        if (set.ins->sparse() && l.operand() == ls::Operand::K) short_note = nv ? "metadata e" : "nibble per 4 k";
        // A narrow title's count: registers ("4r", "8v"), or the space's own unit.
        const std::string v = tmem ? " cols" : smem ? " banks" : ls::register_noun(set.ins->vendor()) == "VGPR" ? "v" : "r";
        if (!note.empty()) {
            out.push_back(name + "  " + shape + "  " + type + "  " + regs + rep + "  " + note);
            out.push_back(name + "  " + shape + "  " + type + "  " + regs + rep + "\n" + note);
            out.push_back(name + "  " + shape + "  " + type + "  " + regs + "\n" + note);
            out.push_back(name + "  " + shape + "  " + type + "  " + regs + "\n" + short_note);
            out.push_back(name + "  " + shape + "  " + type + "\n" + regs + "  " + short_note);
            out.push_back(name + "  " + shape + "\n" + type + " " + std::to_string(l.regs()) + v + "  " + short_note);
        }
        out.push_back(name + "  " + shape + "  " + type + "  " + regs + rep);
        out.push_back(name + "  " + shape + "  " + type + "\n" + regs + rep);
        out.push_back(name + "  " + shape + "\n" + type + "  " + regs);
        out.push_back(name + "  " + shape + "\n" + type + " " + std::to_string(l.regs()) + v);
        // Scales in a narrow column: the type and count without the byte (the wider forms name it).
        out.push_back(name + "  " + shape + "\n" + std::string(ls::elem_name(l.type())) + " " + std::to_string(l.regs()) + v);
        if (copies > 1) out.push_back(name + "  " + shape + "  x" + std::to_string(copies) + " copies");
        out.push_back(name + "  " + shape + "  " + std::string(ls::elem_name(l.type())));
        out.push_back(name + "  " + shape);
    }
    out.push_back(name);
    // Blackwell: no form drops "not confirmed on hardware" (nothing here ran on Blackwell
    // silicon); where the column is narrow or one line high, the rest is shortened instead.
    const std::string kUnconfirmed = "not confirmed on hardware";
    const ls::Evidence ev = ls::layout_evidence(*set.ins, l.operand() == ls::Operand::C ? ls::Operand::D : l.operand(), set.mods);
    if (ev.why.find(kUnconfirmed) != std::string::npos) {
        std::vector<std::string> kept;
        for (const std::string& f : out)
            if (f.find(kUnconfirmed) != std::string::npos) kept.push_back(f);
        const std::string type(ls::elem_name(l.type()));
        for (const std::string& head : {name + (registers ? view : "  " + shape) + "  " + type, name + (registers ? view : "  " + shape), name})
            kept.push_back(head + "  (" + kUnconfirmed + ")");
        kept.push_back(name + "\n" + kUnconfirmed);
        kept.push_back(name + "  not confirmed\non hardware");  // a narrow column (wgmma-like A beside a wide D)
        kept.push_back(name + "\nnot confirmed\non hardware");
        return kept;
    }
    return out;
}

// Tile mode: "C / D  256x256 tile  f32  256 VGPRs per lane  4 waves"; A and B say which waves share them.
std::vector<std::string> tile_title_forms(const App& app, const ls::TileLayout& t) {
    const std::string name = t.operand() == ls::Operand::D ? "C / D" : std::string(ls::operand_name(t.operand()));
    const std::string shape = std::to_string(t.rows()) + "x" + std::to_string(t.cols());
    const std::string regs = std::to_string(t.regs()) + " " + std::string(ls::register_noun(app.set.ins->vendor())) + "s per lane";
    const int copies = static_cast<int>(t.where({0, 0, 0}).size());
    std::string share;
    if (copies > 1)
        share = "  each element in " + std::to_string(copies) + " places" +
                (app.copy < 0 ? " (all shown)" : " (copy " + std::to_string(std::min(app.copy, copies - 1) + 1) + ")");
    std::vector<std::string> out;
    out.push_back(name + "  " + shape + " tile  " + std::string(ls::elem_name(t.instruction().type())) + "  " + regs + "  " +
                  std::to_string(t.waves()) + (t.waves() == 1 ? " wave" : " waves") + share);
    const std::string type = std::string(ls::elem_name(t.instruction().type()));
    const std::string waves = std::to_string(t.waves()) + (t.waves() == 1 ? " wave" : " waves");
    out.push_back(name + "  " + shape + " tile  " + type + "\n" + regs + "  " + waves + share);
    out.push_back(name + "  " + shape + " tile  " + type + "\n" + regs + "  " + waves);
    out.push_back(name + "  " + shape + " tile\n" + type + "  " + std::to_string(t.regs()) + " " +
                  std::string(ls::register_noun(app.set.ins->vendor())) + "s");
    out.push_back(name + "  " + shape + "\n" + type + "  " + std::to_string(t.regs()) + (app.set.ins->vendor() == ls::Vendor::AMD ? "v" : "r"));
    out.push_back(name + "  " + shape + " tile");
    out.push_back(name + "  " + shape);
    out.push_back(name);
    return out;
}

void draw_title(const App& app, const ls::OperandLayout& l, bool registers, const Rect& r, ImVec2 origin) {
    const ls::TileLayout* t = !registers && app.tile.active() && app.tab == Tab::Layout ? app.tile.tiles.find(l.operand()) : nullptr;
    draw_heading(t ? tile_title_forms(app, *t) : title_forms(app, app.set, l, registers), r, origin);
}

// Tick numbers: every `step` rows (columns), where step is the smallest of
// 1, 2, 4, 8, ... that leaves room for the text.
int tick_step(float cell, float need) {
    int step = 1;
    while (step * cell < need && step < 4096) step *= 2;
    return step;
}

void draw_axes(const App& app, const PlacedGrid& pg, const TileGrid& g, ImVec2 origin, const ls::OperandLayout* layout = nullptr) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* f = app.cell_font;
    const float fs = app.cell_font_size;
    const ImU32 col = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const bool regs = g.view == ViewKind::Registers;
    const ls::OperandLayout* glayout = layout ? layout : app.set.find(g.operand);
    const ls::Space gspace = glayout ? glayout->space() : ls::Space::Registers;
    const int rows = regs ? g.lanes : g.rows;
    const int brs = regs ? 1 : (g.blocks_shown + g.blocks_per_row - 1) / std::max(1, g.blocks_per_row);
    const int rstep = tick_step(g.cell_h, fs + 1);
    for (int br = 0; br < brs; ++br) {
        const float y0 = br * (rows * g.cell_h + g.block_gap);
        for (int r = 0; r < rows; r += rstep) {
            // Blocks stacked in rows: each block's first row number names the block ("b1").
            const bool block_tick = !regs && brs > 1 && r == 0;
            const int block = g.first_block + br * std::max(1, g.blocks_per_row);
            const bool nv = app.set.ins->vendor() == ls::Vendor::NVIDIA;
            // TMEM rows are lanes ("lane 5"), shared-memory rows 128-byte lines (their address): core's lane_axis_text.
            std::string t = regs && gspace != ls::Space::Registers ? ls::lane_axis_text(*app.set.ins, r, gspace)
                            : regs ? (nv ? "T" : "L") + std::to_string(r)
                            : block_tick ? "b" + std::to_string(block) : std::to_string(r);
            if (block_tick && g.blocks_per_row > 1) t += "\u2013" + std::to_string(std::min(g.blocks_shown - 1, block + g.blocks_per_row - 1));
            const ImVec2 sz = f->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
            dl->AddText(f, fs, add(origin, pg.grid.x0 - sz.x - 3, pg.grid.y0 + y0 + r * g.cell_h + (g.cell_h - sz.y) * 0.5f),
                        col, t.c_str());
        }
    }
    if (regs) {
        // Column headers: "v0 [15:0]" per part where it fits, else "v0" per register (every k-th).
        const int parts = g.regs > 0 ? std::max(1, static_cast<int>(std::lround(g.slot_w / std::max(1.0f, g.cell_w)))) : 1;
        const float part_w = g.slot_w / parts;
        const int bits = 32 / parts;
        // AMD: "v0 [15:0]"; NVIDIA: PTX's fragment names of the register's parts ("a0", "a1"; "d0" for a whole register).
        const bool nv = app.set.ins->vendor() == ls::Vendor::NVIDIA && app.set.ins->kind != ls::LayoutKind::LdStMatrix;
        auto header = [&](int reg, int p, bool part) {
            if (gspace != ls::Space::Registers) return ls::register_text(*app.set.ins, g.operand, reg, 32, gspace);  // "col 7", "b7"
            if (nv) {
                // A register's header without parts names its first element ("a2" for the second .f16x2 register).
                const int q = part ? p : 0;
                return ls::cell_label(*app.set.ins, g.operand, ls::Location{reg, 0, bits * q, bits * q + bits - 1}, bits).reg_bare;
            }
            std::string t = "v" + std::to_string(reg);
            if (part) t += " [" + std::to_string(bits * p + bits - 1) + ":" + std::to_string(bits * p) + "]";
            return t;
        };
        bool per_part = parts > 1;
        for (int p = 0; per_part && p < parts; ++p)
            per_part = f->CalcTextSizeA(fs, FLT_MAX, 0, header(g.regs - 1, p, true).c_str()).x + 4 <= part_w;
        const int step = per_part ? 1 : tick_step(g.slot_w, f->CalcTextSizeA(fs, FLT_MAX, 0, header(g.regs, 0, false).c_str()).x + 4);
        for (int reg = 0; reg < g.regs; reg += step) {
            for (int p = 0; p < (per_part ? parts : 1); ++p) {
                const std::string t = header(reg, p, per_part);
                const ImVec2 sz = f->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
                const float x = pg.grid.x0 + reg * g.slot_w + (per_part ? p * part_w + (part_w - sz.x) * 0.5f : 1);
                dl->AddText(f, fs, add(origin, x, pg.axis_top.y0 + 1), col, t.c_str());
            }
        }
        return;
    }
    const int cstep = tick_step(g.cell_w, f->CalcTextSizeA(fs, FLT_MAX, 0, "000").x + 3);
    for (int bc = 0; bc < std::min(g.blocks_per_row, g.blocks_shown); ++bc) {
        const float x0 = bc * (g.cols * g.cell_w + g.block_gap);
        for (int c = 0; c < g.cols; c += cstep) {
            // Blocks side by side: each block's first column number names the block.
            // Blocks in several rows: the row's first block is named on the left ("b4–7"), a column is its offset ("+2").
            const bool grid_of_blocks = g.blocks_shown > g.blocks_per_row;
            const std::string t = g.blocks_per_row > 1 && c == 0
                                      ? (grid_of_blocks ? "+" + std::to_string(bc) : "b" + std::to_string(g.first_block + bc))
                                      : std::to_string(c);
            const ImVec2 sz = f->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
            dl->AddText(f, fs, add(origin, pg.grid.x0 + x0 + c * g.cell_w + (g.cell_w - sz.x) * 0.5f, pg.axis_top.y0 + 1), col,
                        t.c_str());
        }
    }
}

// Tensor Memory's lane quarters (PTX ISA §9.7.16.2.1: warp w of a warpgroup reaches lanes
// 32*(w%4) .. +31 only): a line between quarters (a thicker one between the CTAs of a pair) and, in
// each quarter, the warp allowed there. A D read back by tcgen05.ld: a line between warps, each
// named with the TMEM lanes it read.
void draw_lane_quarters(const App& app, const PlacedGrid& pg, const TileGrid& g, const ls::OperandLayout& l, ImVec2 origin) {
    const bool tmem = l.space() == ls::Space::TensorMemory;
    const bool read_back = !tmem && app.set.tmem_d && (l.operand() == ls::Operand::D || l.operand() == ls::Operand::C);
    if ((!tmem && !read_back) || g.lanes < 32 || g.view != ViewKind::Registers) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
    const ImU32 line = to_imgui(colors.text), text = to_imgui(colors.text), back = to_imgui(colors.background, 215);
    const bool pair = tmem && (app.set.ins->cta_group == 2 || g.lanes > 128);
    const float lh = ImGui::GetTextLineHeight();
    for (int q = 0; q * 32 < g.lanes; ++q) {
        const float y = pg.grid.y0 + q * 32 * g.cell_h;
        if (q > 0)
            dl->AddLine(add(origin, pg.grid.x0 - 2 * app.scale, y), add(origin, pg.grid.x0 + g.width + 2 * app.scale, y), line,
                        (q % 4 == 0 ? 3.0f : 1.5f) * app.scale);
        // The richest label that fits the grid's width, in the same form for every quarter.
        auto forms_of = [&](int qq) {
            const std::string w = std::to_string(qq % 4), cta = pair ? "CTA" + std::to_string(qq / 4) + " " : "";
            const std::string range = std::to_string(32 * (qq % 4)) + "\u2013" + std::to_string(32 * (qq % 4) + 31);
            const std::string warp = std::to_string(qq);
            return tmem ? std::vector<std::string>{cta + "lanes " + range + ": warp w%4 = " + w, cta + "warp w%4 = " + w, cta + "w%4=" + w, "w%4=" + w}
                        : std::vector<std::string>{"warp " + warp + ": TMEM lanes " + range, "warp " + warp + ": lanes " + range,
                                                   "w" + warp + " \u2192 " + range, "warp " + warp, "w" + warp};
        };
        // The label where the quarter has room for it (its top-left corner, over the cells, on a wash).
        if (32 * g.cell_h < lh + 2 * app.scale) continue;
        std::string label;
        const size_t nforms = forms_of(0).size();
        for (size_t fi = 0; fi < nforms && label.empty(); ++fi) {
            bool fits = true;
            for (int qq = 0; qq * 32 < g.lanes && fits; ++qq) fits = ImGui::CalcTextSize(forms_of(qq)[fi].c_str()).x + 10 * app.scale <= g.width;
            if (fits) label = forms_of(q)[fi];
        }
        if (label.empty()) continue;
        const ImVec2 sz = ImGui::CalcTextSize(label.c_str());
        const ImVec2 a = add(origin, pg.grid.x0 + 3 * app.scale, y + 2 * app.scale);
        dl->AddRectFilled(a, add(a, sz.x + 6 * app.scale, sz.y + 2 * app.scale), back, 3 * app.scale);
        dl->AddText(add(a, 3 * app.scale, 1 * app.scale), text, label.c_str());
    }
}

// tcgen05.ld/st .16x32bx2: a line where the second half (threads 16-31, at +half_split columns) starts.
void draw_half_split(const App& app, const PlacedGrid& pg, const TileGrid& g, ImVec2 origin) {
    const ls::Instruction& ins = *app.set.ins;
    if (ins.kind != ls::LayoutKind::Tcgen05LdSt || ins.tmem_shape != "16x32bx2" || g.view != ViewKind::Matrix) return;
    const ls::OperandLayout* l = app.set.find(g.operand);
    if (!l) return;
    for (int c = 0; c < l->cols(); ++c) {
        const auto w = l->where({0, 0, c});
        if (w.empty() || w.front().lane < 16) continue;
        const float x = pg.grid.x0 + c * g.cell_w;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        dl->AddLine(add(origin, x, pg.grid.y0 - 2 * app.scale), add(origin, x, pg.grid.y0 + g.height + 2 * app.scale),
                    to_imgui(ls::theme_colors(app.settings.view.theme).text), 2.5f * app.scale);
        return;
    }
}

// Sparse A and its index in dense k: a line after every group of 4 k (2 of each 4 are held).
void draw_sparse_groups(const App& app, const ls::Instruction& ins, const PlacedGrid& pg, const TileGrid& g, ImVec2 origin) {
    if (!ins.sparse() || (pg.shape.op != ls::Operand::A && pg.shape.op != ls::Operand::K) || 4 * g.cell_w < 6) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 line = to_imgui(ls::theme_colors(app.settings.view.theme).text);
    for (int bc = 0; bc < std::min(g.blocks_per_row, g.blocks_shown); ++bc)
        for (int k = 4; k < g.cols; k += 4) {
            const float x = pg.grid.x0 + bc * (g.cols * g.cell_w + g.block_gap) + k * g.cell_w;
            dl->AddLine(add(origin, x, pg.grid.y0), add(origin, x, pg.grid.y0 + g.height), line, 1.5f * app.scale);
        }
}

// A scaled MFMA's scale operands: which lane holds SA[i][kb] / SB[kb][j] (read from core's layout) and
// which byte of the lane's scale VGPR opsel_a / opsel_b select, drawn as the register's four bytes at a
// legible size in the free corner above A and left of B (the scale grids themselves share the small
// cells of A's rows and B's columns).
// The free corner of the GEMM picture: above A (and SA, K), left of B (and SB); empty when there is none.
Rect free_corner(const App& app, const Arrangement& arr) {
    const PlacedGrid* b = arr.find(ls::Operand::B);
    if (const PlacedGrid* sb = arr.find(ls::Operand::SB); sb && (!b || sb->heading.x0 < b->heading.x0)) b = sb;
    if (!b) return {};
    float bottom = arr.panel.y1;
    for (ls::Operand op : {ls::Operand::A, ls::Operand::SA, ls::Operand::K})
        if (const PlacedGrid* g = arr.find(op)) bottom = std::min(bottom, g->heading.y0);
    const float pad = 6 * app.scale;
    return Rect{pad, pad, std::max(pad, b->heading.x0 - 2 * pad), std::max(pad, bottom - pad)};
}

// Returns the height it used at the bottom of `room` (0: nothing drawn).
float draw_scale_bytes(const App& app, const LayoutSet& set, const Arrangement& arr, const Rect& room, ImVec2 origin) {
    // AMD's opsel byte of an E8M0 scale VGPR; NVIDIA's scale factors (TMEM, sm_120's selectors) are drawn as their grids.
    if (set.ins->vendor() != ls::Vendor::AMD) return 0;
    struct Row { ls::Operand op; std::string text; int byte; const char* field; };
    std::vector<Row> rows;
    for (ls::Operand op : {ls::Operand::SA, ls::Operand::SB}) {
        const ls::OperandLayout* l = set.find(op);
        if (!l || l->rows() < 1 || l->cols() < 1 || !arr.find(op)) continue;
        // Lane of element (r, c) = base + r * dr + c * dc, read from where() (checked at the far corner).
        auto lane = [&](int r, int c) {
            const auto w = l->where({0, r, c});
            return w.empty() ? -1 : w.front().lane;
        };
        const int base = lane(0, 0), dr = l->rows() > 1 ? lane(1, 0) - base : 0, dc = l->cols() > 1 ? lane(0, 1) - base : 0;
        const bool sa = op == ls::Operand::SA;
        const char* ri = sa ? "i" : "kb";
        const char* ci = sa ? "kb" : "j";
        std::string where;
        if (lane(l->rows() - 1, l->cols() - 1) == base + (l->rows() - 1) * dr + (l->cols() - 1) * dc) {
            auto term = [](int k, const char* v) { return k == 0 ? std::string() : (k == 1 ? std::string(v) : std::to_string(k) + "\u00B7" + v); };
            std::string e = base ? std::to_string(base) : "";
            for (const std::string& t : {term(dr, ri), term(dc, ci)})
                if (!t.empty()) e += (e.empty() ? "" : " + ") + t;
            where = "  in lane " + (e.empty() ? std::string("0") : e);
        }
        const int byte = sa ? set.mods.opsel_a : set.mods.opsel_b;
        rows.push_back({op, std::string(sa ? "SA[i][kb]" : "SB[kb][j]") + where + ", e8m0, byte " + std::to_string(byte) + " of its scale VGPR:",
                        byte, sa ? "opsel_a" : "opsel_b"});
    }
    if (rows.empty()) return 0;
    const float lh = ImGui::GetTextLineHeight(), box_h = lh + 6 * app.scale;
    const char* fields[4] = {"[31:24]", "[23:16]", "[15:8]", "[7:0]"};
    float box_w = 0;
    for (const char* f : fields) box_w = std::max(box_w, ImGui::CalcTextSize(f).x + 10 * app.scale);
    float need_w = 4 * box_w + ImGui::CalcTextSize("  \u2190 opsel_a = 0").x, need_h = 0;
    for (const Row& r : rows) need_w = std::max(need_w, ImGui::CalcTextSize(r.text.c_str()).x), need_h += lh + box_h + 10 * app.scale;
    if (need_w > room.w() || need_h > room.h()) return 0;  // no room: the titles still name the byte
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled), border = ImGui::GetColorU32(ImGuiCol_Border);
    // Bottom-aligned in the corner, next to the grids they explain.
    float y = room.y1 - need_h;
    const float x = std::max(room.x0, room.x1 - need_w);
    for (const Row& r : rows) {
        dl->AddText(add(origin, x, y), text, r.text.c_str());
        y += lh + 2 * app.scale;
        for (int i = 0; i < 4; ++i) {
            const int byte = 3 - i;
            const ImVec2 a = add(origin, x + i * box_w, y), c = add(origin, x + (i + 1) * box_w, y + box_h);
            const bool chosen = byte == r.byte;
            if (chosen) dl->AddRectFilled(a, c, to_imgui(ls::lane_color(*set.ins, 0, app.settings.view.theme)));
            dl->AddRect(a, c, chosen ? to_imgui(colors.text) : border, 0, 0, chosen ? 2 * app.scale : 1);
            const ImVec2 sz = ImGui::CalcTextSize(fields[i]);
            dl->AddText(ImVec2((a.x + c.x - sz.x) * 0.5f, (a.y + c.y - sz.y) * 0.5f), chosen ? to_imgui(colors.text) : dim, fields[i]);
        }
        const std::string note = "  \u2190 " + std::string(r.field) + " = " + std::to_string(r.byte);
        dl->AddText(add(origin, x + 4 * box_w, y + (box_h - lh) * 0.5f), text, note.c_str());
        y += box_h + 8 * app.scale;
    }
    return need_h;
}

// SA and SB enlarged in the rest of the free corner (their cells in A's rows and B's columns are as
// small as A's and B's): titled, ticked, labelled as the cell size allows, hover-linked like the
// originals. Drawn only where it gives cells half as large again, at least 7 px tall.
void draw_scale_inset(App& app, const Canvas& c, const Rect& room, ImVec2 origin, bool hovered, bool clicked) {
    std::vector<GridShape> shapes;
    for (ls::Operand op : {ls::Operand::SA, ls::Operand::SB})
        if (const PlacedGrid* g = c.arr.find(op)) shapes.push_back(g->shape);
    if (shapes.empty() || room.w() < 40 || room.h() < 40) return;
    ArrangeParams p = app.canvas_params(c, false);
    p.zoom_x = p.zoom_y = 1, p.pan_x = p.pan_y = 0, p.gemm = false;
    p.panel_w = room.w(), p.panel_h = room.h(), p.margin = 0;
    auto good = [&](const Arrangement& a) {
        return a.cell_w >= 1.5f * c.arr.cell_w && a.cell_h >= std::max(1.5f * c.arr.cell_h, 7.0f * app.scale);
    };
    Arrangement inset = arrange(shapes, p);
    if (!good(inset)) {
        // Cells only as wide as a lane number: the arrangement that gives them the most height wins.
        p.natural_w = std::ceil(app.small_font->CalcTextSizeA(app.small_font_size, FLT_MAX, 0, "00").x + 6 * app.scale);
        inset = arrange(shapes, p);
    }
    if (!good(inset)) return;
    if (inset.cell_w != app.inset_built_w || inset.cell_h != app.inset_built_h) {
        GridStyle st = app.grid_style();
        st.cell_w = inset.cell_w, st.cell_h = inset.cell_h, st.blocks_per_row = inset.blocks_per_row;
        const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
        for (auto& v : app.views) {
            if (v.operand != ls::Operand::SA && v.operand != ls::Operand::SB) continue;
            const ls::OperandLayout* l = app.set.find(v.operand);
            if (!l) continue;
            v.inset = build_matrix_grid(*app.set.ins, *l, st);
            v.inset_tex.render(v.inset, colors, app.cell_font, app.cell_font_size, app.small_font, app.small_font_size);
        }
        app.inset_built_w = inset.cell_w, app.inset_built_h = inset.cell_h;
    }
    const ImVec2 o = add(origin, room.x0, room.y0);
    const ImVec2 m = ImGui::GetIO().MousePos;
    for (const PlacedGrid& pg : inset.grids) {
        OperandView* v = nullptr;
        for (auto& x : app.views)
            if (x.operand == pg.shape.op) v = &x;
        const ls::OperandLayout* l = app.set.find(pg.shape.op);
        if (!v || !l || v->inset.tiles.empty()) continue;
        std::vector<std::string> forms;
        for (const std::string& f : title_forms(app, app.set, *l, false)) {
            const size_t nl = f.find('\n');
            forms.push_back(nl == std::string::npos ? f + "  (enlarged)" : f.substr(0, nl) + "  (enlarged)" + f.substr(nl));
            forms.push_back(f);  // a narrow column keeps the type and count rather than the word
        }
        draw_heading(forms, pg.heading, o);
        draw_axes(app, pg, v->inset, o);
        const bool over = hovered && pg.grid.contains(m.x - o.x, m.y - o.y);
        draw_grid_at(app, v->inset, v->inset_tex, app.links.find(pg.shape.op), add(o, pg.grid.x0, pg.grid.y0), over, over && clicked);
    }
}

// The notes of the selection (model/notes.hpp: replicated lanes, blocks and their lanes) in the
// free corner of the GEMM picture, wrapped to it; in the cell font when the UI font does not fit,
// and in a tooltip when neither does (or the corner is too small to hold a line).
void draw_notes(const App& app, const std::vector<std::string>& notes, const Rect& room, ImVec2 origin) {
    if (notes.empty() || room.w() < 140 * app.scale || room.h() < 2 * ImGui::GetTextLineHeight()) return;
    std::string text;
    for (const std::string& n : notes) text += (text.empty() ? "" : "\n\n") + n;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a = add(origin, room.x0, room.y0), b = add(origin, room.x1, room.y1);
    ImFont* font = ImGui::GetFont();
    float size = ImGui::GetFontSize();
    const float wrap = room.w() - 4 * app.scale;
    if (font->CalcTextSizeA(size, FLT_MAX, wrap, text.c_str()).y > room.h()) font = app.cell_font, size = app.cell_font_size;
    const float h = font->CalcTextSizeA(size, FLT_MAX, wrap, text.c_str()).y;
    dl->PushClipRect(a, b, true);
    dl->AddText(font, size, add(a, 2 * app.scale, 0), ImGui::GetColorU32(ImGuiCol_Text), text.c_str(), nullptr, wrap);
    dl->PopClipRect();
    if (h > room.h() && ImGui::IsMouseHoveringRect(a, b)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(520 * app.scale);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// One canvas: the user pans (drag) and zooms (wheel about the pointer); the
// arrangement is recomputed each frame, the textures only when cells change size.
void draw_canvas(App& app, Canvas& c, bool registers_tab) {
    ImGui::BeginChild(registers_tab ? "regs_canvas###regs_canvas" : "layout_canvas###layout_canvas", ImVec2(0, 0), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (c.display.x > 0 && (display.x != c.display.x || display.y != c.display.y)) c.fit();  // the window was resized: whole picture
    c.display = display;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    if (std::fabs(size.x - c.size.x) > 0.5f || std::fabs(size.y - c.size.y) > 0.5f) {
        c.size = size;
        app.grids_dirty = true;
    }
    c.origin = origin;
    app.layout_panel_min = ImGui::GetWindowPos();
    app.layout_panel_max = add(app.layout_panel_min, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y);
    ImGui::InvisibleButton("canvas", ImVec2(std::max(1.0f, size.x), std::max(1.0f, size.y)));
    const bool hovered = ImGui::IsItemHovered();
    ImGuiIO& io = ImGui::GetIO();
    ArrangeParams p = app.canvas_params(c, registers_tab);
    if (hovered && io.MouseWheel != 0 && !c.shapes.empty()) {
        c.view = zoom_about(c.shapes, p, std::pow(1.2f, io.MouseWheel), io.MousePos.x - origin.x, io.MousePos.y - origin.y);
        p = app.canvas_params(c, registers_tab);
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 4 * app.scale)) {
        c.dragging = true;
        c.view.pan_x += io.MouseDelta.x, c.view.pan_y += io.MouseDelta.y;
        p = app.canvas_params(c, registers_tab);
    }
    const bool clicked = ImGui::IsItemDeactivated() && !c.dragging && hovered;
    if (!ImGui::IsItemActive()) c.dragging = false;
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) c.fit_all(), p = app.canvas_params(c, registers_tab);
    if (c.fit_width_pending && !c.shapes.empty() && c.size.x > 0) {
        // Rows tall enough for a line of text, the width filled, the top in view.
        c.fit_width_pending = false;
        const Arrangement whole = arrange(c.shapes, p);
        const float room_w = p.panel_w - 2 * p.margin;
        c.view.zoom_y = std::max(1.0f, p.natural_h / std::max(0.01f, whole.fit_cell_h));
        float grids_w = 0;
        for (const PlacedGrid& g : whole.grids) grids_w += g.grid.w();
        const float fixed = whole.content.w() - grids_w;
        c.view.zoom_x = std::max(1.0f, std::min(4.0f * p.natural_w / std::max(0.01f, whole.fit_cell_w),
                                                (room_w - fixed) / std::max(1.0f, grids_w)));
        c.view.pan_x = 0, c.view.pan_y = 1e6f;  // clamped to the top
        p = app.canvas_params(c, registers_tab);
    }
    if (app.grids_dirty) app.rebuild_grids();
    c.arr = arrange(c.shapes, p);
    c.view.zoom_x = c.arr.zoom_x, c.view.zoom_y = c.arr.zoom_y, c.view.pan_x = c.arr.pan_x, c.view.pan_y = c.arr.pan_y;
    if (c.arr.cell_w != c.built_w || c.arr.cell_h != c.built_h) {
        if (registers_tab) app.rebuild_grids();
        else app.resize_layout_grids();
        c.arr = arrange(c.shapes, p);
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(origin, add(origin, size.x, size.y), true);
    for (const PlacedGrid& pg : c.arr.grids) {
        OperandView* v = const_cast<OperandView*>(view_of(app, pg.shape.op));
        // The Registers tab's D in Tensor Memory beside the registers a tcgen05.ld read it into.
        const bool in_tmem = registers_tab && pg.shape.tmem_d && app.set.tmem_d;
        const ls::OperandLayout* l = in_tmem ? &*app.set.tmem_d : app.set.find(pg.shape.op);
        if (!v || !l) continue;
        const bool regs = pg.shape.registers;
        TileGrid& g = in_tmem ? v->tmem : registers_tab ? v->registers : regs ? v->side : v->matrix;
        TileTexture& tex = in_tmem ? v->tmem_tex : registers_tab ? v->registers_tex : regs ? v->side_tex : v->matrix_tex;
        if (in_tmem) draw_heading(title_forms(app, app.set, *l, true), pg.heading, origin);
        else draw_title(app, *l, regs, pg.heading, origin);
        draw_axes(app, pg, g, origin, l);
        const bool over = hovered && !c.dragging && pg.grid.contains(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
        const bool tile = g.tile && app.tile.active();
        draw_grid_at(app, g, tex, in_tmem ? &app.links.tmem_d : tile ? app.tile.links.find(pg.shape.op) : app.links.find(pg.shape.op),
                     add(origin, pg.grid.x0, pg.grid.y0), over, over && clicked, nullptr, nullptr,
                     tile || in_tmem ? nullptr : app.verify_for(pg.shape.op), [&] {
                         if (registers_tab) draw_lane_quarters(app, pg, g, *l, origin);
                     });
        if (!regs && !registers_tab) draw_sparse_groups(app, *app.set.ins, pg, g, origin);
        if (!regs && !registers_tab) draw_half_split(app, pg, g, origin);
        // A lane number is a thread only in registers (a TMEM lane or a shared-memory line is no thread).
        if (registers_tab && l->space() == ls::Space::Registers && hovered && !c.dragging &&
            pg.axis_left.contains(io.MousePos.x - origin.x, io.MousePos.y - origin.y)) {
            // A lane number: everything that lane holds, in every operand.
            const int lane = static_cast<int>((io.MousePos.y - origin.y - pg.grid.y0) / std::max(1.0f, g.cell_h));
            if (lane >= 0 && lane < g.lanes) {
                Hover h;
                h.kind = Hover::Kind::Lane;
                h.lane = lane;
                app.frame_hover = h;
                if (clicked) app.want_pin = h;
            }
        }
    }
    if (!registers_tab && !app.tile.active() && !app.notes.empty() && !app.set.find(ls::Operand::SA) && !app.set.find(ls::Operand::SB))
        draw_notes(app, app.notes, free_corner(app, c.arr), origin);
    if (!registers_tab && !app.tile.active() && (app.set.find(ls::Operand::SA) || app.set.find(ls::Operand::SB))) {
        // A scaled MFMA: which byte of the scale VGPR (bottom of the free corner), SA and SB enlarged above it.
        Rect room = free_corner(app, c.arr);
        const float used = room.w() > 0 ? draw_scale_bytes(app, app.set, c.arr, room, origin) : 0;
        room.y1 -= used + (used > 0 ? 8 * app.scale : 0);
        draw_scale_inset(app, c, room, origin, hovered && !c.dragging, clicked);
    }
    dl->PopClipRect();
    ImGui::EndChild();
}

}  // namespace

void draw_operand_axes(const App& app, const PlacedGrid& pg, const TileGrid& g, ImVec2 origin) { draw_axes(app, pg, g, origin); }

std::vector<std::string> operand_title_forms(const App& app, const LayoutSet& set, const ls::OperandLayout& l) {
    return title_forms(app, set, l, false);
}

void draw_heading(const std::vector<std::string>& forms, const Rect& r, ImVec2 origin) {
    const std::string* pick = &forms.back();
    const float lh = ImGui::GetTextLineHeight();
    for (const std::string& f : forms) {
        const ImVec2 sz = ImGui::CalcTextSize(f.c_str());
        if (sz.x <= r.w() && sz.y <= r.h() + 0.5f) {
            pick = &f;
            break;
        }
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a = add(origin, r.x0, r.y0), b = add(origin, r.x1, r.y1);
    dl->PushClipRect(a, b, true);
    // One line sits at the bottom, next to the grid's column numbers.
    const float lines = static_cast<float>(std::count(pick->begin(), pick->end(), '\n') + 1);
    dl->AddText(add(a, 0, std::max(0.0f, r.h() - lines * lh - 2)), ImGui::GetColorU32(ImGuiCol_Text), pick->c_str());
    dl->PopClipRect();
    if (ImGui::IsMouseHoveringRect(a, b) && pick != &forms.front()) ImGui::SetTooltip("%s", forms.front().c_str());
}

void draw_legend(App& app) {
    const ls::Instruction& ins = *app.set.ins;
    const ls::Theme theme = app.settings.view.theme;
    struct Entry { int key; std::string text; };
    std::vector<Entry> entries;
    std::vector<ls::Space> spaces_shown;
    switch (app.settings.view.color_by) {
        case ls::ColorBy::Lane: {
            // Each space shown names its own colour classes (core's location_color): registers' lane
            // groups, TMEM's lane quarters with the warp allowed in each, shared memory's 16-byte chunks.
            // Only the operands drawn (--operand narrows them).
            auto drawn = [&app](const ls::OperandLayout& l) {
                return app.only_operands.empty() ||
                       std::find(app.only_operands.begin(), app.only_operands.end(), l.operand()) != app.only_operands.end();
            };
            for (ls::Space sp : {ls::Space::Registers, ls::Space::TensorMemory, ls::Space::SharedMemory}) {
                const bool tmem_d = sp == ls::Space::TensorMemory && app.set.tmem_d && app.tab == Tab::Registers;
                if (!tmem_d && std::none_of(app.set.layouts.begin(), app.set.layouts.end(),
                                            [sp, &drawn](const ls::OperandLayout& l) { return l.space() == sp && drawn(l); }))
                    continue;
                // Registers: every lane group drawn (a D read back by tcgen05.ld has 4 or 8 warps' threads).
                int lanes = app.set.wave();
                for (const ls::OperandLayout& l : app.set.layouts)
                    if (l.space() == ls::Space::Registers && drawn(l)) lanes = std::max(lanes, l.lanes());
                const int n = ls::space_colour_words(ins, sp, lanes).classes;
                for (int gi = 0; gi < n; ++gi) entries.push_back({gi, ls::lane_group_text(ins, sp, gi)});
                spaces_shown.push_back(sp);
            }
            break;
        }
        case ls::ColorBy::Register: {
            int regs = 0;
            for (const auto& l : app.set.layouts) regs = std::max(regs, l.regs());
            // Colours repeat after 16 registers: one entry per colour, naming every register that has it.
            const std::string v = ins.vendor() == ls::Vendor::NVIDIA ? "r" : "v";
            for (int r = 0; r < std::min(regs, ls::categorical_count()); ++r) {
                std::string text = v + std::to_string(r);
                for (int more = r + ls::categorical_count(); more < regs; more += ls::categorical_count())
                    text += ", " + v + std::to_string(more);
                entries.push_back({r, text});
            }
            break;
        }
        case ls::ColorBy::Block:
            for (int b = 0; b < ins.blocks; ++b) entries.push_back({b, "block " + std::to_string(b)});
            break;
    }
    // Lanes: a hue per group, a shade per lane within it (lighter = later), so lane order reads without text.
    const std::string lane_what = ls::space_colour_words(ins, ls::Space::Registers, app.set.wave()).heading;
    std::string lane_words;
    for (ls::Space sp : spaces_shown)
        lane_words += (lane_words.empty() ? "" : "  ") + ls::space_colour_words(ins, sp, app.set.wave()).heading;
    if (lane_words.empty()) lane_words = lane_what;
    std::string what_s = app.settings.view.color_by == ls::ColorBy::Lane       ? lane_words
                         : app.settings.view.color_by == ls::ColorBy::Register ? "colour = register:"
                                                                               : "colour = block:";
    const char* what = what_s.c_str();
    std::vector<ls::Rgb> swatches;
    if (app.tile.active() && (app.tab == Tab::Layout || (app.tab == Tab::Memory && app.memory.settings.tiles))) {
        // Tile mode: a hue per wave, a shade per lane group within the wave (the Memory tab colours its tile so too).
        entries.clear();
        for (const TileLegendEntry& e : tile_legend(app.tile.tiles, theme)) {
            entries.push_back({e.code, e.text});
            swatches.push_back(e.colour);
        }
        what = app.tile.tiles.lane_groups > 1 ? "colour = wave, shade = lane group, then lane (lighter = higher):" : "colour = wave, shade = lane (lighter = higher):";
    }
    // Two spaces' words (TMEM and shared memory) wrap rather than run past the panel.
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(what);
    ImGui::PopTextWrapPos();
    const float sw = ImGui::GetTextLineHeight();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (size_t ei = 0; ei < entries.size(); ++ei) {
        const Entry& e = entries[ei];
        const float w = sw + 4 * app.scale + ImGui::CalcTextSize(e.text.c_str()).x;
        ImGui::SameLine(0, 10 * app.scale);
        if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::PushID(e.key);
        ImGui::InvisibleButton("legend", ImVec2(w, sw));
        ImGui::PopID();
        if (ImGui::IsItemHovered()) app.frame_legend_key = e.key;
        // Register colours repeat after 16: the entry says so in its tooltip.
        const ls::Rgb c = ei < swatches.size() ? swatches[ei] : ls::categorical(e.key, theme);
        dl->AddRectFilled(p, add(p, sw, sw), to_imgui(c));
        dl->AddRect(p, add(p, sw, sw), ImGui::GetColorU32(ImGuiCol_Border));
        dl->AddText(add(p, sw + 4 * app.scale, 0), ImGui::GetColorU32(ImGuiCol_Text), e.text.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: hover to outline its cells", e.text.c_str());
        if (app.frame_legend_key == e.key && app.legend_key != e.key) app.request_redraw();
    }
    // View controls on the same strip: fit, 100 %, replicated copies.
    const bool memory = app.tab == Tab::Memory;
    Canvas& c = app.tab == Tab::Registers ? app.regs_canvas : memory ? app.memory.canvas : app.layout_canvas;
    auto params = [&] { return memory ? app.memory_canvas_params() : app.canvas_params(c, app.tab == Tab::Registers); };
    // Their widths, measured: the strip wraps before a control would pass the panel's right edge.
    const ImGuiStyle& st = ImGui::GetStyle();
    auto small_w = [&st](const char* t) { return ImGui::CalcTextSize(t).x + 2 * st.FramePadding.x; };
    auto copy_label = [](int k) { return k < 0 ? std::string("all") : std::to_string(k + 1); };
    const bool copies = app.max_copies > 1 && app.tab == Tab::Layout;
    float copies_w = 0;
    if (copies) {
        copies_w = 16 * app.scale + ImGui::CalcTextSize("copies:").x;
        for (int k = -1; k < app.max_copies; ++k)
            copies_w += st.ItemSpacing.x + ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(copy_label(k).c_str()).x;
    }
    const float view_w = small_w("Fit") + small_w("100%") + ImGui::CalcTextSize("1000%").x + 2 * st.ItemSpacing.x;
    ImGui::SameLine(0, 20 * app.scale);
    if (ImGui::GetCursorScreenPos().x + view_w + copies_w > right) ImGui::NewLine();
    if (ImGui::SmallButton("Fit")) c.fit_all();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Whole picture (Ctrl+0, or double-click). Wheel: zoom, drag: pan.");
    ImGui::SameLine();
    if (ImGui::SmallButton("100%")) c.view = actual_size(c.shapes, params());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Cells at their natural size, every label in full (Ctrl+1)");
    // The zoom as a fraction of the natural cell size (100 %: every label in full).
    const float natural_w = params().natural_w;
    if (c.arr.cell_w > 0) {
        ImGui::SameLine();
        char pct[16];
        std::snprintf(pct, sizeof pct, "%.0f%%", 100.0f * c.arr.cell_w / std::max(1.0f, natural_w));
        ImGui::TextDisabled("%s", pct);
        const float pad = ImGui::CalcTextSize("1000%").x - ImGui::CalcTextSize(pct).x;  // a fixed slot: what follows stays put
        if (pad > 0) ImGui::SameLine(0, 0), ImGui::Dummy(ImVec2(pad, 1));
    }
    if (copies) {
        ImGui::SameLine(0, 16 * app.scale);
        if (ImGui::GetCursorScreenPos().x + copies_w - 16 * app.scale > right) ImGui::NewLine();
        ImGui::TextUnformatted("copies:");
        for (int k = -1; k < app.max_copies; ++k) {
            ImGui::SameLine();
            const std::string label = copy_label(k) + "##copy";
            if (ImGui::RadioButton(label.c_str(), app.copy == k) && app.copy != k) app.copy = k, app.grids_dirty = true;
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Replicated elements: each sits in %d places. 'all' splits each cell into one stripe per copy.",
                              app.max_copies);
    }
    if (app.tab == Tab::Layout && app.settings.view.labels) {
        // What the text in the cells is (one form per operand; it depends on the cell size).
        const bool tile_text = app.tile.active();
        auto example = [tile_text](LabelForm f) -> std::string {
        if (tile_text && f == LabelForm::None) return "colours only (zoom in or hover)";
            if (tile_text && f != LabelForm::Number && f != LabelForm::None) {
                // Tile labels put the wave first ("w1 v12 L17").
                switch (f) {
                    case LabelForm::Full: return "wave register[bits] \u00B7 lane";
                    case LabelForm::TwoLines: return "wave register[bits] / lane";
                    case LabelForm::Short: return "wave register / lane";
                    case LabelForm::OneLine: return "wave register lane";
                    case LabelForm::WaveLane: return "wave / lane";
                    default: return "wave lane";
                }
            }
            switch (f) {
                case LabelForm::Full: return "register[bits] \u00B7 lane";
                case LabelForm::TwoLines: return "register[bits] / lane";
                case LabelForm::Short: return "register / lane";
                case LabelForm::OneLine: return "register lane";
                case LabelForm::Lane: return "lane";
                case LabelForm::WaveLane: return "wave / lane";
                case LabelForm::Number: return "lane number";
                case LabelForm::None: return "colours only (shade = lane; zoom in or hover)";
            }
            return "";
        };
        std::vector<std::pair<std::string, std::string>> forms;
        for (const auto& v : app.views)
            if (v.operand != ls::Operand::C && app.layout_canvas.arr.find(v.operand))
                forms.emplace_back(std::string(ls::operand_name(v.operand)), example(v.matrix.form));
        bool same = true;
        for (const auto& f : forms) same &= f.second == forms.front().second;
        std::string text = "cell text: ";
        if (same && !forms.empty()) text += forms.front().second;
        else
            for (size_t i = 0; i < forms.size(); ++i) text += (i ? ", " : "") + forms[i].first + " " + forms[i].second;
        // Last on the strip and cut to it (the whole text in a tooltip): a zoom that changes the cells'
        // text never re-wraps the strip, so the canvas under it keeps its size (a new size rebuilt every grid).
        ImGui::SameLine(0, 16 * app.scale);
        const float room = right - ImGui::GetCursorScreenPos().x;
        if (room < ImGui::CalcTextSize("cell text: register[bits] / lane").x) ImGui::NewLine();
        const float avail = right - ImGui::GetCursorScreenPos().x;
        std::string shown = text;
        if (ImGui::CalcTextSize(shown.c_str()).x > avail) {
            while (!shown.empty() && ImGui::CalcTextSize((shown + "...").c_str()).x > avail) shown.pop_back();
            while (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0x80) shown.pop_back();  // whole UTF-8 characters
            if (!shown.empty() && static_cast<unsigned char>(shown.back()) >= 0xC0) shown.pop_back();
            shown += "...";
        }
        ImGui::TextDisabled("%s", shown.c_str());
        if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
    }
}

namespace {

// Tile mode controls (Layout tab): on/off, waves WM x WN, sub-tiles per wave
// RM x RN, shape TM x TN x TK (0 = the default), and a lane of a wave to show.
// Every change goes through core, whose Error says what is legal.
void draw_tile_controls(App& app) {
    TileMode& tm = app.tile;
    bool on = tm.enabled;
    if (ImGui::Checkbox("Tile", &on)) app.set_tile(on, tm.want);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Tile mode: the instruction repeated over a wave grid (Triton's warpsPerCTA), sub-tiles per wave\n"
                          "(tilesPerWarp) and a tensor shape (docs/tiles.md). Cells are coloured by wave (hue) and lane group (shade).");
    if (!on) {
        ImGui::SameLine(0, 16 * app.scale);  // off: the legend follows on the same line
        return;
    }
    ls::TileParams p = tm.want;
    const float w = ImGui::CalcTextSize("00000").x + ImGui::GetStyle().FramePadding.x * 2;
    auto number = [&](const char* id, int& v, int lo) {
        ImGui::SameLine(0, 2 * app.scale);
        ImGui::SetNextItemWidth(w);
        ImGui::InputInt(id, &v, 0, 0);
        v = std::max(lo, std::min(v, 65536));  // core names what is legal beyond this
    };
    auto x = [&]() {
        ImGui::SameLine(0, 2 * app.scale);
        ImGui::TextUnformatted("x");
    };
    ImGui::SameLine(0, 12 * app.scale);
    ImGui::TextUnformatted("waves");
    number("##wm", p.waves_m, 1), x(), number("##wn", p.waves_n, 1);
    ImGui::SameLine(0, 12 * app.scale);
    ImGui::TextUnformatted("tiles per wave");
    number("##rm", p.tiles_m, 1), x(), number("##rn", p.tiles_n, 1);
    ImGui::SameLine(0, 12 * app.scale);
    ImGui::TextUnformatted("shape");
    number("##tm", p.m, 0), x(), number("##tn", p.n, 0), x(), number("##tk", p.k, 0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("TM x TN x TK (C/D is TM x TN, A TM x TK, B TK x TN); 0: one wave-grid tile, one instruction K");
    ImGui::SameLine(0, 12 * app.scale);
    ImGui::TextUnformatted("kWidth");
    number("##kw", p.k_width, 0);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Triton's kWidth of A and B (DotOperandLayout k_width); 0: the instruction's own");
    ImGui::SameLine(0, 8 * app.scale);
    ImGui::Checkbox("transposed", &p.transposed);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Triton's transposed MFMA/WMMA layout: C and D with lanes along M");
    if (!(p == tm.want)) app.set_tile(true, p);
    if (!tm.error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "Tile not shown: %s", tm.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    if (!tm.active()) return;
    // A lane of a wave: pins everything it holds (as Shift+hover on a cell). On a new line when narrow.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    ImGui::SameLine(0, 16 * app.scale);
    if (ImGui::GetCursorScreenPos().x + 2 * w + ImGui::CalcTextSize("lane  of wave  Show  shape 00000x00000x0000").x > right)
        ImGui::NewLine();
    ImGui::TextUnformatted("lane");
    number("##pl", tm.pick_lane, 0);
    tm.pick_lane = std::min(tm.pick_lane, app.set.wave() - 1);
    ImGui::SameLine(0, 2 * app.scale);
    ImGui::TextUnformatted("of wave");
    number("##pw", tm.pick_wave, 0);
    tm.pick_wave = std::min(tm.pick_wave, tm.tiles.waves() - 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("Show")) {
        Hover h;
        h.kind = Hover::Kind::Lane;
        h.lane = tm.pick_lane;
        h.wave = tm.pick_wave;
        app.want_pin = h;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Pin everything this lane of this wave holds (Esc unpins)");
    const ls::TileLayout& first = tm.tiles.layouts.front();
    ImGui::SameLine(0, 16 * app.scale);
    ImGui::TextDisabled("%s", ("shape " + std::to_string(first.params().m) + "x" + std::to_string(first.params().n) + "x" +
                               std::to_string(first.params().k))
                                  .c_str());
    if (ImGui::IsItemHovered()) {
        std::string order;
        for (const auto& t : tm.tiles.layouts)
            order += std::string(ls::operand_name(t.operand())) + ": reg = step * " + std::to_string(t.instruction().regs()) +
                     " + instruction reg, step digits (fastest first) " + register_order_text(t) + "\n";
        ImGui::SetTooltip("%s%s", tile_summary(tm.tiles, *app.set.ins).c_str(), order.c_str());
    }
    // The operands a tile leaves out, and where they are instead (one line each, under the controls).
    ImGui::PushTextWrapPos(0.0f);
    for (const std::string& n : tile_notes(app.set)) ImGui::TextDisabled("%s", n.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace

void draw_layout_panel(App& app) {
    draw_tile_controls(app);
    draw_legend(app);
    draw_canvas(app, app.layout_canvas, false);
}

void draw_registers_panel(App& app) {
    if (app.tile.active()) {
        // Wrapped: never clipped at the panel's edge.
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("Tile mode is on (Layout tab): these are the instruction's registers, one wave's lanes; "
                            "a lane hovered here is highlighted in every wave of the tile.");
        ImGui::PopTextWrapPos();
    }
    draw_legend(app);
    draw_canvas(app, app.regs_canvas, true);
}

void draw_compare_panel(App& app) {
    CompareState& c = app.compare;
    if (ImGui::Checkbox("Compare with a second instruction", &c.enabled)) {
        if (c.enabled && c.selection.instruction == Selection{}.instruction) c.selection = app.settings.selection;
        app.compare_dirty = true;
    }
    if (app.tile.active())
        ImGui::TextWrapped("Tile mode is on (waves %dx%d): this tab compares the single instructions, not the tiles.",
                           app.tile.want.waves_m, app.tile.want.waves_n);
    if (!c.enabled) {
        ImGui::TextWrapped("Put a second instruction beside the current one (the same builtin on RDNA3 and RDNA4, "
                           "wave32 and wave64, two modifier settings, an MFMA and its sparse twin) and see which "
                           "elements are placed differently, cell by cell.");
        return;
    }
    // Second instruction: architecture, instruction, wave.
    const ls::Target* ct = nullptr;
    try {
        ct = &app.catalog.find_target(c.selection.arch);
    } catch (const ls::Error&) {
        ct = app.set.target;
    }
    ImGui::SetNextItemWidth(280 * app.scale);
    if (ImGui::BeginCombo("architecture##cmp", target_label(*ct, 280 * app.scale).c_str())) {
        for (const ls::Target& t : app.catalog.targets())
            if (ImGui::Selectable(t.title.c_str(), &t == ct) && &t != ct) {
                try {
                    c.selection.instruction =
                        carry_instruction(app.catalog, app.catalog.find_instruction(*ct, c.selection.instruction), t);
                } catch (const ls::Error&) {
                    c.selection.instruction = carry_instruction(app.catalog, *app.set.ins, t);
                }
                c.selection.arch = t.gfx;
                c.selection.mods = ls::Modifiers{};
                app.compare_dirty = true;
            }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::min(320 * app.scale, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("instruction").x - 12 * app.scale));
    const std::string shown = c.set.ins ? display_name(*c.set.ins) : c.selection.instruction;
    if (ImGui::BeginCombo("instruction##cmp", shown.c_str())) {
        for (const ls::Instruction* ins : app.catalog.on(ct->family))
            if (ImGui::Selectable(display_name(*ins).c_str(), selection_name(*ins) == c.selection.instruction)) {
                c.selection.instruction = selection_name(*ins);
                c.selection.mods = ls::Modifiers{};
                app.compare_dirty = true;
            }
        ImGui::EndCombo();
    }
    if (ct->wave_sizes.size() > 1) {
        ImGui::SameLine();
        // The wave choice on a new line when the panel is too narrow for it (never past the edge).
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetCursorScreenPos().x + 2 * (ImGui::CalcTextSize("wave64").x + ImGui::GetFrameHeight() + 16 * app.scale) > right)
            ImGui::NewLine();
        for (int w : ct->wave_sizes) {
            const std::string label = "wave" + std::to_string(w) + "##cmpw";
            if (ImGui::RadioButton(label.c_str(), c.set.ins && c.set.mods.wave == w)) {
                c.selection.mods.wave = w;
                app.compare_dirty = true;
            }
            ImGui::SameLine();
        }
        ImGui::NewLine();
    }
    if (c.set.ins) {
        bool sliders = false;
        for (const ls::ModifierRange& r : ls::modifier_ranges(*c.set.ins, *c.set.target, c.set.mods)) {
            if (r.values.size() < 2 || r.name == "wave") continue;
            sliders = true;
            const int v = modifier_value(c.set.mods, r.name);
            // Values in words where they have them ("FP4 E2M1 (4)", "[7:0] (0)"), as in the side panel.
            auto text = [&](int x) { return modifier_menu_text(*c.set.ins, r.name, x); };
            float box = 0;
            for (int x : r.values) box = std::max(box, ImGui::CalcTextSize(text(x).c_str()).x);
            box = std::min(box + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x, 200 * app.scale);
            // A choice that would pass the panel's right edge starts a new line.
            const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
            if (ImGui::GetCursorScreenPos().x + box + 12 * app.scale + ImGui::CalcTextSize(r.name.c_str()).x > right) ImGui::NewLine();
            ImGui::SetNextItemWidth(box);
            const std::string label = r.name + "##cmp";
            if (ImGui::BeginCombo(label.c_str(), text(v).c_str())) {
                for (int x : r.values)
                    if (ImGui::Selectable(text(x).c_str(), x == v) && x != v) {
                        set_modifier(c.selection.mods, r.name, x);
                        app.compare_dirty = true;
                    }
                ImGui::EndCombo();
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.meaning.c_str());
            ImGui::SameLine(0, 12 * app.scale);
        }
        if (sliders) ImGui::NewLine();
    }
    if (!c.error.empty()) {
        ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "%s", c.error.c_str());
        return;
    }
    const std::string left_lanes = ls::lane_group_name(*app.set.ins, app.set.mods.wave);
    const std::string right_lanes = c.set.ins ? ls::lane_group_name(*c.set.ins, c.set.mods.wave) : "?";
    const float gap = 28 * app.scale;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // Differences, counted: one line per operand (how many of its elements moved; shapes that differ say so),
    // then one line of the kinds of change, each with its mark's colour and its count over all operands.
    {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        std::string line, same;
        int per_change[kChangeKinds] = {};
        for (const LayoutDiff& d : c.diffs) {
            const std::string name = d.operand == ls::Operand::D ? "C / D" : std::string(ls::operand_name(d.operand));
            if (d.comparable && d.count == 0) same += (same.empty() ? "" : ", ") + name;
            else if (!d.comparable) line += (line.empty() ? "" : "   ") + name + ": " + d.note;
            else line += (line.empty() ? "" : "   ") + name + ": " + std::to_string(d.count) + " of " + std::to_string(d.count + d.per_change[0]) + " differ";
            if (d.comparable)
                for (int k = 1; k < kChangeKinds; ++k) per_change[k] += d.per_change[k];
        }
        for (const auto& v : c.views)
            if (!app.set.find(v.operand)) line += (line.empty() ? "" : "   ") + std::string(ls::operand_name(v.operand)) + ": only on the right";
        for (const auto& v : c.left)
            if (!c.set.find(v.operand)) line += (line.empty() ? "" : "   ") + std::string(ls::operand_name(v.operand)) + ": only on the left";
        if (!same.empty()) line += (line.empty() ? "" : "   ") + std::string("placed identically: ") + same;
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(line.c_str());
        ImGui::PopTextWrapPos();
        bool first = true;
        for (int k = 1; k < kChangeKinds; ++k) {
            if (!per_change[k]) continue;
            const std::string text = std::string(change_name(static_cast<Change>(k))) + " " + std::to_string(per_change[k]);
            if (!first) ImGui::SameLine(0, 12 * app.scale);
            first = false;
            if (ImGui::GetCursorScreenPos().x + ImGui::GetTextLineHeight() + ImGui::CalcTextSize(text.c_str()).x > right) ImGui::NewLine();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float sw = ImGui::GetTextLineHeight();
            dl->AddRect(add(p, 1, 1), add(p, sw - 1, sw - 1), change_colour(static_cast<Change>(k), app.settings.view.theme), 0, 0,
                        3 * app.scale);
            ImGui::Dummy(ImVec2(sw, sw));
            ImGui::SameLine(0, 4 * app.scale);
            ImGui::TextUnformatted(text.c_str());
        }
    }
    ImGui::BeginChild("cmp_canvas###cmp_canvas", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    app.arrange_compare(size, gap);
    ImGui::InvisibleButton("cmp_canvas", ImVec2(std::max(1.0f, size.x), std::max(1.0f, size.y)));
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = hovered && ImGui::IsItemClicked();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(origin, add(origin, size.x, size.y), true);
    // Every operand of both sides whole, as the Layout tab draws it: titled (shape, type, registers and what
    // the picture alone does not say), row and column numbers beside each grid, blocks named.
    auto draw_side = [&](const LayoutSet& s, std::vector<OperandView>& views, const Arrangement& arr, const Rect& box, bool mine) {
        // Which side is which: its name on the side's first line (shorter forms when narrow; the full one on hover).
        const std::string lanes = ls::lane_group_name(*s.ins, s.mods.wave), name = display_name(*s.ins), mods = s.mods.describe();
        const std::string side = mine ? (c.stacked ? "top" : "left") : (c.stacked ? "bottom" : "right");
        draw_heading({side + ": " + name + "  " + s.target->gfx + "  " + lanes + (mods.empty() ? "" : "  " + mods),
                      side + ": " + name + "  " + s.target->gfx + "  " + lanes, side + ": " + name + "  " + s.target->gfx,
                      side + ": " + name, name},
                     Rect{box.x0, box.y0, box.x1, box.y0 + c.name_h}, origin);
        const ImVec2 o = add(origin, box.x0, box.y0 + c.name_h);
        for (const PlacedGrid& pg : arr.grids) {
            OperandView* v = nullptr;
            for (auto& x : views)
                if (x.operand == pg.shape.op) v = &x;
            const ls::OperandLayout* l = s.find(pg.shape.op);
            if (!v || !l || v->matrix.tiles.empty()) continue;
            const LayoutDiff* d = nullptr;
            for (const auto& x : c.diffs)
                if (x.operand == pg.shape.op) d = &x;
            draw_heading(title_forms(app, s, *l, false), pg.heading, o);
            draw_axes(app, pg, v->matrix, o);
            const std::vector<std::uint8_t>* mask = d && d->comparable ? &d->differs : nullptr;
            const bool over = hovered && pg.grid.contains(mouse.x - o.x, mouse.y - o.y);
            draw_grid_at(app, v->matrix, v->matrix_tex, mine ? app.links.find(pg.shape.op) : nullptr, add(o, pg.grid.x0, pg.grid.y0), over,
                         over && clicked, mask, mine ? nullptr : &c.set);
            draw_sparse_groups(app, *s.ins, pg, v->matrix, o);
        }
    };
    draw_side(app.set, c.left, c.left_arr, c.left_box, true);
    if (c.set.ins) draw_side(c.set, c.views, c.right_arr, c.right_box, false);
    // The two sides apart: a thin rule between them.
    const ImU32 rule = ImGui::GetColorU32(ImGuiCol_Separator);
    if (c.stacked) {
        const float y = std::floor((c.left_box.y1 + c.right_box.y0) * 0.5f);
        dl->AddLine(add(origin, 0, y), add(origin, size.x, y), rule, 1.0f);
    } else {
        const float x = std::floor((c.left_box.x1 + c.right_box.x0) * 0.5f);
        dl->AddLine(add(origin, x, 0), add(origin, x, size.y), rule, 1.0f);
    }
    dl->PopClipRect();
    ImGui::EndChild();
}

}  // namespace lsapp
