// The Memory tab for an operand a matrix descriptor reads from shared memory (wgmma's B
// and SS-form A, tcgen05.mma's A and B; model/smem_view.hpp): the descriptor's settings
// as controls (the selection's smem modifiers, as lanescope-cli load --memory smem takes
// them), the tile in shared memory one 128-byte row per grid row with every 16-byte chunk
// coloured by its core matrix and labelled with its elements and its chunk index before
// and after the swizzle, the operand's matrix beside it (the Layout tab's B: address and
// bank of each element) hover-linked with it, and the descriptor's fields below. Every
// address, field and text is core's (lanescope/smem.hpp, palette.hpp).
#include "ui/app.hpp"

#include "lanescope/palette.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace lsapp {

using lanescope::hex;
using lanescope::HexCase;

namespace {

ImVec2 add(ImVec2 a, float x, float y) { return ImVec2(a.x + x, a.y + y); }
const ImVec4 kErrorColour(0.80f, 0.15f, 0.10f, 1.0f);


// Selects `s` when core lays the operand out under it; else says core's rule (an LBO that is no
// multiple of 16, a swizzle atom the start breaks) instead of letting the selection drop the value.
void propose(App& app, const Selection& s);

// Changes the selection's descriptor modifiers. A whole descriptor given before: its fields become
// the modifiers first, so that changing one field keeps the others.
void change_mods(App& app, const std::function<void(ls::Modifiers&)>& f) {
    Selection s = app.settings.selection;
    s.mods = app.set.chosen;
    if (s.mods.descriptor && app.memory.smem.so) {
        const ls::SmemDescriptor& d = app.memory.smem.so->desc;
        s.mods.descriptor.reset();
        s.mods.swizzle = static_cast<int>(d.swizzle);
        s.mods.lbo = static_cast<int>(d.lbo), s.mods.sbo = static_cast<int>(d.sbo);
        s.mods.smem_address = static_cast<int>(d.start), s.mods.base_offset = d.base_offset;
    }
    f(s.mods);
    propose(app, s);
}

void propose(App& app, const Selection& s) {
    try {
        const ls::ResolvedModifiers r = ls::resolve_modifiers(*app.set.ins, *app.set.target, s.mods);
        ls::smem_operand(*app.set.ins, app.memory.settings.operand, r);
    } catch (const ls::Error& e) {
        app.memory.descriptor_error = e.what();
        return;
    }
    app.memory.descriptor_error.clear();
    app.want_selection = s;  // the new tile opens as a new one does (App::rebuild_memory_plans)
}

// "label [value]" for a byte count the user may set; returns true with the new value.
bool byte_field(const char* label, int value, bool chosen, int hi, float width, const char* tip, int& out) {
    ImGui::AlignTextToFramePadding();
    if (chosen) ImGui::TextUnformatted(label);
    else ImGui::TextDisabled("%s", label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(width);
    int x = value;
    const std::string id = std::string("##smem_") + label;
    const bool edited = ImGui::InputInt(id.c_str(), &x, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\n%s", tip, chosen ? "set here (\"canonical\" restores CUTLASS's value)" : "the canonical value (CUTLASS's make_gmma_desc / make_umma_desc): type another and press Enter");
    if (!edited || x == value) return false;
    out = std::clamp(x, 0, hi);
    return true;
}

void draw_smem_controls(App& app) {
    MemoryViewState& m = app.memory;
    const SmemView& v = m.smem;
    const float sc = app.scale;
    const DescriptorControls c = descriptor_controls(app.set, v);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("major");
    for (int major : c.majors) {
        ImGui::SameLine();
        const std::string label = std::string(ls::smem_major_name(static_cast<ls::SmemMajor>(major))) + "##smem_major";
        if (ImGui::RadioButton(label.c_str(), c.major == major) && c.major != major)
            change_mods(app, [major](ls::Modifiers& mm) { mm.smem_major = major; });
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("K-major: K contiguous in each 16-byte row of a core matrix; MN-major: M (or N) contiguous");
    ImGui::SameLine(0, 14 * sc);
    ImGui::TextUnformatted("swizzle");
    for (int sw : c.swizzles) {
        ImGui::SameLine();
        const std::string label = std::string(ls::smem_swizzle_name(static_cast<ls::SmemSwizzle>(sw))) + "##smem_swizzle";
        if (ImGui::RadioButton(label.c_str(), c.swizzle == sw) && c.swizzle != sw)
            change_mods(app, [sw](ls::Modifiers& mm) { mm.swizzle = sw; });
    }
    // Second line: the byte fields, the canonical values, a whole descriptor.
    const float w = 64 * sc;
    int x = 0;
    constexpr int kBytes = (1 << 18) - 16;
    if (byte_field("LBO", c.lbo, c.lbo_chosen, kBytes, w, "leading byte offset (bytes; a multiple of 16)", x))
        change_mods(app, [x](ls::Modifiers& mm) { mm.lbo = x; });
    ImGui::SameLine(0, 10 * sc);
    if (byte_field("SBO", c.sbo, c.sbo_chosen, kBytes, w, "stride byte offset (bytes; a multiple of 16)", x))
        change_mods(app, [x](ls::Modifiers& mm) { mm.sbo = x; });
    ImGui::SameLine(0, 10 * sc);
    if (byte_field("start", c.start, c.start_chosen, kBytes, w,
                   "the descriptor's start address: the absolute shared-memory byte (a multiple of 16); swizzles depend on its bits 7-9", x))
        change_mods(app, [x](ls::Modifiers& mm) { mm.smem_address = x; });
    ImGui::SameLine(0, 10 * sc);
    if (byte_field("base offset", c.base_offset, c.base_chosen, 7, 34 * sc,
                   "descriptor bits 49-51: the 128-byte row the swizzle pattern starts at (0..7)", x))
        change_mods(app, [x](ls::Modifiers& mm) { mm.base_offset = x; });
    ImGui::SameLine(0, 10 * sc);
    if (ImGui::SmallButton("canonical"))
        change_mods(app, [](ls::Modifiers& mm) {
            mm.lbo = mm.sbo = mm.smem_address = mm.base_offset = -1;
            mm.descriptor.reset();
        });
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("LBO, SBO, start and base offset as CUTLASS's make_gmma_desc / make_umma_desc set them for this tile");
    // A whole 64-bit descriptor, as lanescope-cli's --descriptor takes it.
    const float dw = ImGui::CalcTextSize("0x0000000000000000").x + 16 * sc;
    if (ImGui::GetContentRegionAvail().x > dw + ImGui::CalcTextSize("descriptor").x + 30 * sc) ImGui::SameLine(0, 14 * sc);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("descriptor");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(dw);
    if (m.descriptor_text[0] == 0 && v.so)
        std::snprintf(m.descriptor_text, sizeof m.descriptor_text, "%s", hex(v.so->value, 16, HexCase::Upper).c_str());
    if (ImGui::InputText("##smem_descriptor", m.descriptor_text, sizeof m.descriptor_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
        const DescriptorApplied d = apply_descriptor_text(app.set.chosen, m.descriptor_text);
        m.descriptor_error = d.error;
        if (d.error.empty()) {
            Selection s = app.settings.selection;
            s.mods = d.mods;
            propose(app, s);
        }
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("a whole 64-bit matrix descriptor (0x...): Enter decodes it and lays the operand out from its fields");
    if (!m.descriptor_error.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(kErrorColour, "%s", m.descriptor_error.c_str());
        ImGui::PopTextWrapPos();
    }
}

// One line of swatches: the core matrices' colours (the tile and the matrix share them).
void draw_smem_legend(App& app) {
    const SmemView& v = app.memory.smem;
    const float sc = app.scale, sw = ImGui::GetTextLineHeight() * 0.8f;
    ImGui::TextUnformatted("colour = core matrix (8 rows x 16 bytes, numbered along MN first):");
    const int n = std::min(v.cores, ls::categorical_count());
    for (int i = 0; i < n; ++i) {
        std::string label = std::to_string(i);
        if (v.cores > n) label += ", " + std::to_string(i + n) + (v.cores > i + 2 * n ? ", .." : "");
        ImGui::SameLine(0, 8 * sc);
        if (ImGui::GetContentRegionAvail().x < sw + ImGui::CalcTextSize(label.c_str()).x + 8 * sc) ImGui::NewLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + (ImGui::GetTextLineHeight() - sw) * 0.5f;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + sw, y + sw), to_imgui(ls::categorical(i, app.settings.view.theme)));
        ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
        if (ImGui::IsItemHovered()) app.frame_legend_key = i;
        ImGui::SameLine(0, 3 * sc);
        ImGui::TextUnformatted(label.c_str());
        if (ImGui::IsItemHovered()) app.frame_legend_key = i;
    }
    ImGui::SameLine(0, 20 * sc);
    if (ImGui::GetContentRegionAvail().x < 90 * sc) ImGui::NewLine();
    if (ImGui::SmallButton("Fit")) app.memory.smem_row_h = -2, app.memory.smem_scroll = 0;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every row of the tile (double-click). Wheel: zoom the rows, drag: scroll.");
    ImGui::SameLine();
    if (ImGui::SmallButton("100%")) app.memory.smem_row_h = -1, app.memory.smem_scroll = 0;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Chunks at their natural size, every label in full");
}

// The summary: what the tile is, in words.
void draw_smem_summary(App& app) {
    const SmemView& v = app.memory.smem;
    if (!v.ok()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(kErrorColour, "%s", v.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    const ls::SmemOperand& so = *v.so;
    const std::string text = std::string(ls::operand_name(so.operand)) + "  " + std::to_string(so.rows) + "x" + std::to_string(so.cols) +
                             "  " + std::string(ls::elem_name(so.type)) + " in shared memory, " + std::string(ls::smem_major_name(so.major)) +
                             "-major, swizzle " + std::string(ls::smem_swizzle_name(so.desc.swizzle)) + ": " +
                             std::to_string(v.rows.size()) + " rows of 128 bytes, " + std::to_string(v.chunks.size()) +
                             " chunks of 16 bytes, read by the instruction itself through its " +
                             std::string(ls::descriptor_format_name(so.desc.format)) + " matrix descriptor (no loads, no bank table)";
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
}

// The chunks' labels over the cached tile (only the chunks in view, only when a form fits).
// The richest of smem_chunk_labels' forms whose widest label (and chunk move) fits every chunk of
// width `cw`: one form for the whole tile, as the figure chooses; 3 = none fits.
int chunk_label_form(const App& app, const SmemView& v, float cw) {
    if (!v.so) return 3;
    auto width = [&app](const std::string& s) { return app.cell_font->CalcTextSizeA(app.cell_font_size, FLT_MAX, 0, s.c_str()).x; };
    for (int f = 0; f < 3; ++f) {
        float widest = 0;
        for (const ls::SmemChunk& ch : v.chunks)
            widest = std::max({widest, width(ls::smem_chunk_labels(v.operand, ch.elements)[static_cast<size_t>(f)]),
                               width(ls::smem_chunk_place(*v.so, ch))});
        if (widest + 6 * app.scale <= cw) return f;
    }
    return 3;
}

// The chunks' labels over the cached tile (only the chunks in view), in the form chosen at its last rebuild.
void draw_chunk_labels(App& app, const SmemView& v, const TileGrid& g, int form, ImVec2 p0) {
    if (!v.so || form == 3 || g.cell_h < app.cell_font_size * 2 + 2) return;
    const int per_chunk = std::max(1, smem_cells_per_row(v) / 8);
    const float cw = per_chunk * g.cell_w;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec4 clip = dl->_ClipRectStack.back();
    for (size_t i = 0; i < v.chunks.size(); ++i) {
        const ls::SmemChunk& ch = v.chunks[i];
        const float x = p0.x + ch.after() * cw, y = p0.y + v.row_of(static_cast<int>(i)) * g.cell_h;
        if (x + cw < clip.x || x > clip.z || y + g.cell_h < clip.y || y > clip.w) continue;
        const ImU32 ink = to_imgui(ls::text_on(ls::categorical(ch.core, app.settings.view.theme)));
        const std::string a = ls::smem_chunk_labels(v.operand, ch.elements)[static_cast<size_t>(form)], b = ls::smem_chunk_place(*v.so, ch);
        const float h = app.cell_font_size;
        const float y0 = y + (g.cell_h - 2 * h) * 0.5f;
        const float wa = app.cell_font->CalcTextSizeA(h, FLT_MAX, 0, a.c_str()).x, wb = app.cell_font->CalcTextSizeA(h, FLT_MAX, 0, b.c_str()).x;
        dl->AddText(app.cell_font, h, ImVec2(x + (cw - wa) * 0.5f, y0), ink, a.c_str());
        dl->AddText(app.cell_font, h, ImVec2(x + (cw - wb) * 0.5f, y0 + h), ink, b.c_str());
    }
}

// Chunk frames (16 bytes each) and the row addresses on the left.
void draw_chunk_frames(App& app, const SmemView& v, const TileGrid& g, const PlacedGrid& pg, ImVec2 origin, float grid_top) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = add(origin, pg.grid.x0, pg.grid.y0);
    const int per_chunk = std::max(1, smem_cells_per_row(v) / 8);
    const float cw = per_chunk * g.cell_w;
    const ImU32 frame = ImGui::GetColorU32(ImGuiCol_Border), text = ImGui::GetColorU32(ImGuiCol_Text);
    const float top = origin.y + grid_top;
    for (int c = 0; c <= 8; ++c)
        dl->AddLine(ImVec2(p0.x + c * cw, std::max(top, p0.y)), ImVec2(p0.x + c * cw, p0.y + g.height), frame, c % 8 ? 1.0f : 1.5f * app.scale);
    // Row lines where they are far enough apart; a heavier line every 8 rows (a core matrix's) and where rows are skipped.
    for (size_t r = 1; r < v.rows.size(); ++r) {
        const bool skip = v.rows[r] != v.rows[r - 1] + 1, period = v.rows[r] % 8 == 0;
        if (!skip && !period && g.cell_h < 6) continue;
        const float y = p0.y + r * g.cell_h;
        if (y < top) continue;
        dl->AddLine(ImVec2(p0.x, y), ImVec2(p0.x + g.width, y), skip ? to_imgui(ls::theme_colors(app.settings.view.theme).text) : frame,
                    skip ? 2.5f * app.scale : period ? 1.5f * app.scale : 1.0f);
    }
    // Addresses: every row that has room for a line of text.
    const float lh = app.cell_font_size + 2;
    const int step = std::max(1, static_cast<int>(std::pow(2.0f, std::ceil(std::log2(std::max(1.0f, lh / std::max(0.5f, g.cell_h)))))));
    const ImVec4 clip = dl->_ClipRectStack.back();
    for (size_t r = 0; r < v.rows.size(); r += static_cast<size_t>(step)) {
        const float y = p0.y + r * g.cell_h + (g.cell_h - app.cell_font_size) * 0.5f;
        if (y + g.cell_h < top || y > clip.w) continue;
        const std::string s = hex(v.rows[r] * 128, 4, HexCase::Upper);
        const float tw = app.cell_font->CalcTextSizeA(app.cell_font_size, FLT_MAX, 0, s.c_str()).x;
        dl->AddText(app.cell_font, app.cell_font_size, ImVec2(p0.x - tw - 4 * app.scale, std::max(y, top)), text, s.c_str());
    }
    // Chunk numbers above.
    for (int c = 0; c < 8; ++c) {
        const std::string s = "c" + std::to_string(c) + (cw > 60 * app.scale ? " +" + std::to_string(16 * c) : "");
        const float tw = app.cell_font->CalcTextSizeA(app.cell_font_size, FLT_MAX, 0, s.c_str()).x;
        if (tw > cw) break;
        dl->AddText(app.cell_font, app.cell_font_size, ImVec2(p0.x + c * cw + (cw - tw) * 0.5f, top - app.cell_font_size - 3 * app.scale),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), s.c_str());
    }
}

// What is linked to the hovered / pinned thing: the elements' cells in the tile, and the hovered
// element's chunk framed whole.
void draw_tile_links(App& app, const SmemView& v, const TileGrid& g, ImVec2 p0) {
    const OperandHighlight* hl = app.links.find(v.operand);
    const ls::OperandLayout* l = app.set.find(v.operand);
    if (!hl || !l || !v.so) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
    const ImU32 strong = to_imgui(colors.highlight), weak = to_imgui(colors.highlight, 200), wash = to_imgui(colors.highlight, 70);
    const int per_chunk = std::max(1, smem_cells_per_row(v) / 8);
    for (int i : hl->marked) {
        const ls::Element e{0, i / l->cols() % l->rows(), i % l->cols()};
        const int cell = smem_cell_of(v, e);
        if (cell < 0) continue;
        const Tile& t = g.tiles[static_cast<size_t>(cell)];
        const std::uint8_t level = hl->elements[static_cast<size_t>(i)];
        ImVec2 a = add(p0, t.x0, t.y0), b = add(p0, t.x1, t.y1);
        if (level == 2) {
            // The element's chunk, framed; the element itself washed and ringed (visible however small).
            const int c0 = cell / per_chunk * per_chunk;
            const Tile& first = g.tiles[static_cast<size_t>(c0)];
            dl->AddRect(add(p0, first.x0, first.y0), add(p0, first.x0 + per_chunk * g.cell_w, first.y1), strong, 0.0f, 0, 2.0f * app.scale);
            const float cx = (a.x + b.x) * 0.5f, cy = (a.y + b.y) * 0.5f, r = 5 * app.scale;
            a = ImVec2(std::min(a.x, cx - r), std::min(a.y, cy - r)), b = ImVec2(std::max(b.x, cx + r), std::max(b.y, cy + r));
            dl->AddRectFilled(a, b, wash);
            dl->AddRect(a, b, strong, 0.0f, 0, 3.0f * app.scale);
        } else {
            dl->AddRect(a, b, weak, 0.0f, 0, 1.5f * app.scale);
        }
    }
}

void tile_hover(App& app, const SmemView& v, const TileGrid& g, ImVec2 p0, bool clicked) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int cell = g.hit(mp.x - p0.x, mp.y - p0.y);
    if (cell < 0) return;
    const Tile& t = g.tiles[static_cast<size_t>(cell)];
    const std::uint32_t address = smem_cell_address(v, cell);
    const int chunk = v.chunk_at(address);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(520 * app.scale);
    if (t.copies > 0) {
        Hover h;
        h.kind = Hover::Kind::Element;
        h.operand = v.operand;
        h.element = t.element;
        app.frame_hover = h;
        if (clicked) app.want_pin = h;
        ImGui::TextUnformatted(ls::smem_chunk_description(*v.so, v.chunks[static_cast<size_t>(chunk)]).c_str());
        ImGui::Separator();
        ImGui::TextUnformatted(describe_element(app.set, v.operand, t.element).c_str());
        ImGui::TextDisabled("Click: pin (the Layout tab shows it too)   Esc: unpin");
    } else {
        ImGui::Text("%s: not read by this instruction (bank %d)", hex(address, 4, HexCase::Upper).c_str(), static_cast<int>(address / 4 % 32));
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace

// The picture: the tile on the left, a column per 16-byte chunk across the width (8 to a row),
// its rows as tall as the view allows (Fit) or as the user zooms them (wheel about the pointer, drag
// to scroll, "100%": every chunk label in full); the operand's matrix fitted on the right.
void draw_smem_canvas(App& app, float height) {
    MemoryViewState& m = app.memory;
    SmemView& v = m.smem;
    ImGui::BeginChild("memory_canvas###memory_canvas", ImVec2(0, height), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("memory_canvas_button", ImVec2(std::max(1.0f, size.x), std::max(1.0f, size.y)));
    const bool hovered = ImGui::IsItemHovered();
    ImGuiIO& io = ImGui::GetIO();
    const ls::OperandLayout* l = app.set.find(m.settings.operand);
    if (!l || !v.ok() || v.rows.empty()) {
        ImGui::EndChild();
        return;
    }
    const float sc = app.scale;
    const float head = std::ceil(ImGui::GetTextLineHeight() + 6 * sc), top = std::ceil(app.cell_font_size + 6 * sc);
    const float axis = std::ceil(app.cell_font->CalcTextSizeA(app.cell_font_size, FLT_MAX, 0, "0x00000").x + 8 * sc);
    const float gap = 18 * sc;
    const float frag_w = std::floor(std::min(size.x * 0.42f, std::max(160 * sc, size.x * 0.3f)));
    const float tile_w = std::max(64.0f, size.x - frag_w - gap - axis);
    const int rows = static_cast<int>(v.rows.size()), cols = smem_cells_per_row(v);
    const float cell_w = std::floor(tile_w / 8) / (cols / 8.0f);
    const float view_h = std::max(10.0f, size.y - head - top - 4 * sc);
    const float fit_h = view_h / rows, natural_h = std::ceil(2 * app.cell_font_size + 8 * sc);
    // 0 (a new tile): every label legible (the rows of "100%"), or taller when the tile fits; -2: Fit; -1: "100%".
    float row_h = m.smem_row_h > 0 ? m.smem_row_h : m.smem_row_h == -2 ? fit_h : m.smem_row_h == -1 ? natural_h : std::max(fit_h, natural_h);
    // Wheel: the row under the pointer stays under it. Drag: scroll. Double-click: fit.
    const float tile_y0 = origin.y + head + top;
    if (hovered && io.MouseWheel != 0) {
        const float at = io.MousePos.y - tile_y0 + m.smem_scroll;
        const float next = std::clamp(row_h * std::pow(1.2f, io.MouseWheel), fit_h, std::max(fit_h, 8 * natural_h));
        m.smem_scroll = at / row_h * next - (io.MousePos.y - tile_y0);
        row_h = m.smem_row_h = next;
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 4 * sc)) {
        m.smem_dragging = true;
        m.smem_scroll -= io.MouseDelta.y;
    }
    const bool clicked = ImGui::IsItemDeactivated() && !m.smem_dragging && hovered;
    if (!ImGui::IsItemActive()) m.smem_dragging = false;
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) m.smem_row_h = -2, m.smem_scroll = 0, row_h = fit_h;
    m.smem_scroll = std::clamp(m.smem_scroll, 0.0f, std::max(0.0f, rows * row_h - view_h));
    // The matrix: cells fitted to its column, at most 3 times as tall as wide.
    const float frag_x = size.x - frag_w;
    const float fcw = std::max(1.0f, std::floor((frag_w - axis) / l->cols() * 4) / 4);
    const float fch = std::max(1.0f, std::floor(std::min(view_h / l->rows(), 3 * fcw) * 4) / 4);
    if (m.tiles_dirty || m.smem_tiles.cell_w != cell_w || m.smem_tiles.cell_h != row_h || m.fragment.cell_w != fcw ||
        m.fragment.cell_h != fch) {
        m.tiles_dirty = false;
        GridStyle st = app.grid_style();
        st.block = -1, st.copy = 0, st.blocks_per_row = 1;
        st.cell_w = cell_w, st.cell_h = row_h;
        m.smem_tex.release(), m.fragment_tex.release();
        m.smem_tiles = smem_tile_grid(v, st);
        st.cell_w = fcw, st.cell_h = fch;
        m.fragment = build_matrix_grid(*app.set.ins, *l, st);
        colour_by_core_matrix(m.fragment, v, app.settings.view.theme);
        m.smem_label_form = chunk_label_form(app, v, std::max(1, cols / 8) * cell_w);
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::string name(ls::operand_name(l->operand()));
    // The tile, clipped below its heading.
    {
        PlacedGrid pg;
        pg.heading = Rect{0, 0, axis + tile_w, head};
        pg.grid = Rect{axis, head + top - m.smem_scroll, axis + m.smem_tiles.width, head + top - m.smem_scroll + m.smem_tiles.height};
        const std::string sw(ls::smem_swizzle_name(v.so->desc.swizzle));
        std::string shown;
        if (rows * row_h > view_h + 0.5f) {
            const int first = std::clamp(static_cast<int>(m.smem_scroll / row_h), 0, rows - 1);
            const int last = std::clamp(static_cast<int>((m.smem_scroll + view_h) / row_h - 0.01f), first, rows - 1);
            shown = ", rows " + std::to_string(first) + "\u2013" + std::to_string(last) + " of " + std::to_string(rows) + " shown";
        }
        draw_heading({name + " in shared memory: rows of 128 bytes, 8 chunks of 16 bytes (4 banks) each, swizzle " + sw + shown +
                          (shown.empty() ? "" : " (wheel: zoom, drag: scroll, Fit: all)"),
                      name + " in shared memory, swizzle " + sw + shown, name + " in shared memory" + shown, name + " in shared memory"},
                     pg.heading, origin);
        dl->PushClipRect(add(origin, 0, head), add(origin, axis + tile_w + 2 * sc, size.y), true);
        const ImVec2 p0 = add(origin, pg.grid.x0, pg.grid.y0);
        dl->PushClipRect(add(origin, 0, head + top), add(origin, axis + tile_w + 2 * sc, size.y), true);
        draw_grid_at(app, m.smem_tiles, m.smem_tex, nullptr, p0, false, false);
        draw_chunk_labels(app, v, m.smem_tiles, m.smem_label_form, p0);
        draw_tile_links(app, v, m.smem_tiles, p0);
        dl->PopClipRect();
        draw_chunk_frames(app, v, m.smem_tiles, pg, origin, head + top);
        dl->PopClipRect();
        // Where the view is in a tile taller than it: a bar at its right edge.
        if (rows * row_h > view_h + 0.5f) {
            const float x = origin.x + axis + tile_w + 1 * sc, total = rows * row_h;
            const float y0 = tile_y0 + view_h * m.smem_scroll / total, y1 = tile_y0 + view_h * (m.smem_scroll + view_h) / total;
            dl->AddRectFilled(ImVec2(x, tile_y0), ImVec2(x + 4 * sc, tile_y0 + view_h), ImGui::GetColorU32(ImGuiCol_ScrollbarBg));
            dl->AddRectFilled(ImVec2(x, y0), ImVec2(x + 4 * sc, y1), ImGui::GetColorU32(ImGuiCol_ScrollbarGrab), 2 * sc);
        }
        const bool over = hovered && !m.smem_dragging && io.MousePos.y >= tile_y0 &&
                          pg.grid.contains(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
        if (over) tile_hover(app, v, m.smem_tiles, p0, clicked);
    }
    // The operand's matrix, as the Layout tab draws it, recoloured by core matrix.
    {
        PlacedGrid pg;
        pg.shape.op = l->operand(), pg.shape.rows = l->rows(), pg.shape.cols = l->cols();
        pg.heading = Rect{frag_x, 0, size.x, head};
        pg.grid = Rect{frag_x + axis, head + top, frag_x + axis + m.fragment.width, head + top + m.fragment.height};
        pg.axis_left = Rect{frag_x, pg.grid.y0, pg.grid.x0, pg.grid.y1};
        pg.axis_top = Rect{pg.grid.x0, head, pg.grid.x1, pg.grid.y0};
        std::vector<std::string> forms;
        for (const std::string& t : operand_title_forms(app, app.set, *l))
            if (t.find('\n') == std::string::npos) forms.push_back(t);
        forms.push_back(name);
        draw_heading(forms, pg.heading, origin);
        dl->PushClipRect(add(origin, frag_x, 0), add(origin, size.x, size.y), true);
        draw_operand_axes(app, pg, m.fragment, origin);
        const bool over = hovered && !m.smem_dragging && pg.grid.contains(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
        draw_grid_at(app, m.fragment, m.fragment_tex, app.links.find(l->operand()), add(origin, pg.grid.x0, pg.grid.y0), over,
                     over && clicked);
        dl->PopClipRect();
        const float below = pg.grid.y1 + 6 * sc;
        if (below + ImGui::GetTextLineHeight() < size.y) {
            ImGui::SetCursorScreenPos(add(origin, frag_x, below));
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + frag_w);
            ImGui::TextDisabled("%s", ("The same colours: each element of " + name + " by the core matrix of its chunk; its text is its "
                                       "address and bank. Hover either picture: the other shows the element.").c_str());
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::EndChild();
}

// The descriptor below the picture: its value and fields (ignored bits named ignored), then the
// values in use, the byte formula, core's notes and how far the model is confirmed.
void draw_smem_descriptor(App& app) {
    const SmemView& v = app.memory.smem;
    if (!v.ok()) return;
    const ls::SmemOperand& so = *v.so;
    const float half = ImGui::GetContentRegionAvail().x * 0.5f;
    ImGui::BeginChild("smem_fields_child", ImVec2(half, 0), false);
    ImGui::Text("%s matrix descriptor %s", std::string(ls::descriptor_format_name(so.desc.format)).c_str(), hex(so.value, 16, HexCase::Upper).c_str());
    if (ImGui::BeginTable("smem_fields", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV)) {
        // Fixed widths from the widest text (auto-fit takes frames to settle; a screenshot has two).
        const auto fields = ls::descriptor_fields(so.value, so.desc.format);
        float wf = ImGui::CalcTextSize("field").x;
        for (const ls::DescriptorField& d : fields) wf = std::max(wf, ImGui::CalcTextSize(d.name.c_str()).x);
        ImGui::TableSetupColumn("bits", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("00\u201300").x + 4);
        ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, wf + 4);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (const ls::DescriptorField& d : fields) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d\u2013%d", d.lo, d.hi);
            ImGui::TableNextColumn();
            if (d.ignored) ImGui::TextDisabled("%s", d.name.c_str());
            else ImGui::TextUnformatted(d.name.c_str());
            if (ImGui::IsItemHovered() && !d.meaning.empty()) ImGui::SetTooltip("%s", d.meaning.c_str());
            ImGui::TableNextColumn();
            if (d.ignored) ImGui::TextDisabled("ignored by the hardware");
            else if (d.bytes >= 0) ImGui::Text("%llu (%lld bytes)", static_cast<unsigned long long>(d.bits), d.bytes);
            else ImGui::Text("%llu", static_cast<unsigned long long>(d.bits));
        }
        ImGui::EndTable();
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("smem_notes_child", ImVec2(0, 0), false);
    ImGui::PushTextWrapPos(0);
    ImGui::Text("start %s, LBO %u B%s, SBO %u B%s, base offset %d%s", hex(so.desc.start, 4, HexCase::Upper).c_str(), so.desc.lbo,
                so.lbo_used ? "" : " (not used)", so.desc.sbo, so.sbo_used ? "" : " (not used)", so.desc.base_offset,
                so.base_offset_used ? "" : " (not used)");
    ImGui::TextUnformatted(so.formula.c_str());
    for (const std::string& n : so.notes) ImGui::TextDisabled("note: %s", n.c_str());
    ImGui::TextDisabled("%s", std::string(ls::smem_model_confirmation(so.desc.format)).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

// SFA / SFB: one CTA's SF tile, a table row per 16-byte tcgen05.cp source row, each byte with its
// (m or n, K-block), coloured by the TMEM column it is copied to; a byte's whole path as its tooltip.
void draw_scale_factor_panel(App& app) {
    const ScaleFactorView& v = app.memory.sf;
    if (!v.ok()) {
        ImGui::TextColored(ImVec4(0.9f, 0.3f, 0.3f, 1), "%s", v.error.c_str());
        return;
    }
    const ls::ScaleFactorTile& t = *v.tile;
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted((std::string(v.operand == ls::Operand::SA ? "SFA" : "SFB") + " in shared memory: " +
                            std::to_string(t.bytes) + " bytes per CTA, a row per 16-byte source row of " + t.copy_shape +
                            " (row l to TMEM lanes l + 32p), colour: the TMEM column. Not confirmed on hardware.")
                               .c_str());
    ImGui::TextDisabled("%s", ("shared memory: " + t.smem_formula).c_str());
    ImGui::TextDisabled("%s", ("MMA: " + t.id_formula).c_str());
    ImGui::PopTextWrapPos();
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("sf_bytes", 17, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    const float cell = ImGui::CalcTextSize("m000 kb0").x + 4 * app.scale;  // the widest label, fixed (one frame lays it out)
    ImGui::TableSetupColumn("byte", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("0x0000").x + 4 * app.scale);
    for (int c = 0; c < 16; ++c) ImGui::TableSetupColumn(("+" + std::to_string(c)).c_str(), ImGuiTableColumnFlags_WidthFixed, cell);
    ImGui::TableHeadersRow();
    for (int r = 0; r < v.rows(); ++r) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("0x%04X", 16 * r);
        for (int c = 0; c < 16; ++c) {
            ImGui::TableNextColumn();
            const int byte = 16 * r + c;
            const int col = v.column(byte);
            if (col < 0) {
                ImGui::TextDisabled("-");
            } else {
                const ls::Rgb fill = ls::categorical(col, app.settings.view.theme);
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, IM_COL32(fill.r, fill.g, fill.b, 255));
                const ls::Rgb ink = ls::text_on(fill);
                ImGui::TextColored(ImVec4(ink.r / 255.0f, ink.g / 255.0f, ink.b / 255.0f, 1), "%s", v.label(byte).c_str());
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", v.description(byte).c_str());
        }
    }
    ImGui::EndTable();
}

void draw_smem_panel(App& app) {
    if (app.memory.sf.ok() || !app.memory.sf.error.empty()) return draw_scale_factor_panel(app);
    draw_smem_legend(app);
    draw_smem_controls(app);
    draw_smem_summary(app);
    const float bottom = app.memory.smem.ok() ? std::min(230.0f * app.scale, ImGui::GetContentRegionAvail().y * 0.38f) : 0.0f;
    draw_smem_canvas(app, ImGui::GetContentRegionAvail().y - bottom - ImGui::GetStyle().ItemSpacing.y);
    draw_smem_descriptor(app);
}

}  // namespace lsapp
