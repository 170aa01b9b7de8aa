// The app's state and its frame. Panels (one per file) read this state while
// drawing and record intents (select, hover, pin, export); App applies the
// intents after the frame and rebuilds the caches that depend on them.
#pragma once

#include "model/arrange.hpp"
#include "model/links.hpp"
#include "model/memory_view.hpp"
#include "model/search.hpp"
#include "model/settings.hpp"
#include "model/smem_view.hpp"
#include "model/tile_view.hpp"
#include "model/tiles.hpp"
#include "model/values.hpp"
#include "model/verify_overlay.hpp"
#include "ui/platform.hpp"
#include "ui/tile_texture.hpp"

#include <imgui.h>

#include <deque>
#include <memory>
#include <optional>
#include <functional>
#include <string>
#include <vector>

namespace lsapp {

struct OperandView {
    ls::Operand operand = ls::Operand::A;
    TileGrid matrix, registers, side;  // side: the register view beside the matrices (Layout tab)
    TileTexture matrix_tex, registers_tex, side_tex;
    // A scaled MFMA's SA / SB enlarged in the Layout tab's free corner (their labels legible).
    TileGrid inset;
    TileTexture inset_tex;
    // D: the Registers tab's D in Tensor Memory when D is shown read back (LayoutSet::tmem_d).
    TileGrid tmem;
    TileTexture tmem_tex;
};

// One cached grid copied to the frame by a draw callback (see draw_grid_at).
struct GridBlit {
    GLuint fbo = 0;
    int w = 0, h = 0;
    ImVec2 p0;
};

// A pannable, zoomable picture (the Layout and Registers tabs): the grids'
// shapes, the view (zoom, pan) and the arrangement of the last frame.
struct Canvas {
    std::vector<GridShape> shapes;
    ArrangeParams view;               // zoom_x/y and pan_x/y are the user's; the rest is set per frame
    Arrangement arr;
    ImVec2 size{0, 0};                // the canvas's size in the last frame
    ImVec2 origin{0, 0};              // its top-left corner on screen
    ImVec2 display{0, 0};             // the window's size when it was last drawn
    float built_w = -1, built_h = -1; // cell size the textures were built at
    bool dragging = false;
    // Registers: open at "fit width" (rows tall enough for labels, the top first)
    // rather than the whole picture; the Fit button still shows it all.
    bool prefer_width = false, fit_width_pending = false;
    void fit() { view.zoom_x = view.zoom_y = 1, view.pan_x = view.pan_y = 0, fit_width_pending = prefer_width; }
    void fit_all() { fit(), fit_width_pending = false; }
};

// Compare mode: a second instruction beside the first, and where placements differ.
struct CompareState {
    bool enabled = false;
    Selection selection;
    LayoutSet set;
    std::string error;
    std::vector<OperandView> views;  // the second instruction
    std::vector<OperandView> left;   // the first, at the same cell size
    std::vector<LayoutDiff> diffs;  // per operand present in both
    // Both sides as GEMM pictures (app/model/arrange) in halves of the panel, at one cell size.
    // Side by side, or one above the other (stacked) when that gives larger cells.
    Arrangement left_arr, right_arr;
    bool stacked = false;
    Rect left_box, right_box;       // each side's room in the canvas: a name line, then its picture
    float name_h = 0;
    ImVec2 canvas{0, 0};            // the size they were arranged for
    float built_w = -1, built_h = -1;
    int built_bpr_left = -1, built_bpr_right = -1;
};

struct ExportRequest {
    bool whole_window = true;
    std::string path;
};

// "Verify on GPU": the device chosen, and the last result for the current
// selection (cleared when the instruction or modifiers change).
struct VerifyState {
    int device = 0;          // 0: AMD GPU through HIP ("auto"), 1: the software device
    std::string corrupt;     // a deliberately wrong claimed layout (--corrupt; demonstrations)
    std::string key;         // the selection the result belongs to
    bool have = false;       // a report for `key`
    std::string error;       // one line: why nothing was verified (e.g. "no AMD GPU found: ...")
    VerifyFacts facts;
    VerifyOverlay overlay;
    std::string status;      // "verified: N cells PASS" / "FAIL: k mismatches ..."
    double ms = 0;
};

// Tile mode of the Layout tab: the instruction repeated over a wave
// grid, sub-tiles per wave and a tensor shape. `want` is what the controls or
// the command line set; `tiles` is resolved from it (empty, with `error`,
// when core refuses the parameters: the single instruction is drawn then).
struct TileMode {
    bool enabled = false;
    ls::TileParams want;
    TileSet tiles;
    std::string error;
    Links links;                 // hover links over the tiles
    int pick_wave = 0, pick_lane = 0;
    bool active() const { return enabled && !tiles.empty(); }
};

// Whether the app was built with lanescope::gpu.
bool gpu_backend_built();

// The Memory tab: the selected operand as a tile in LDS or global memory, the
// loads (or stores) that fill it, and the LDS banks (model/memory_view.hpp).
struct MemoryViewState {
    MemorySettings settings;
    MemoryPlan plain, transposed, store;  // store: only for C/D
    MemoryGrid grid, second;              // second: the transposed grid beside the plain one
    TileGrid tiles, second_tiles, fragment;
    TileTexture tex, second_tex, fragment_tex;
    Canvas canvas;
    bool show_second = false;             // plain and transposed side by side
    bool plans_dirty = true, tiles_dirty = true;
    double rebuild_ms = 0;
    // A bank of the strip under the pointer (pass, bank): its cells are marked in the grid.
    // The strip is drawn after the grid, so the grid uses the last frame's.
    std::pair<int, int> bank_hover{-1, -1}, frame_bank_hover{-1, -1};
    // Tile mode: the wave the table last showed; a new wave field value selects that wave's first instruction.
    int shown_wave = -1;
    // An operand a matrix descriptor reads (wgmma B, SS A; tcgen05.mma A, B): its tile in shared
    // memory instead of plans (panel_smem.cpp), and the descriptor text field's contents.
    bool descriptor = false;
    SmemView smem;
    ScaleFactorView sf;  // SFA / SFB of a block-scaled tcgen05.mma (descriptor is set too: no plans)
    TileGrid smem_tiles;
    TileTexture smem_tex;
    char descriptor_text[40] = {};
    float smem_row_h = 0, smem_scroll = 0;  // the tile's row height (0: legible or fit, -1: "100%", -2: Fit) and scroll
    bool smem_dragging = false;
    int smem_label_form = 3;  // the chunks' label form (smem_chunk_labels' index) at the tile's cell size; 3 none
    std::string descriptor_error;
    // The plan the issue table and the bank strip describe.
    const MemoryPlan& active() const {
        if (settings.store) return store;
        return settings.transposed && transposed.ok() ? transposed : plain;
    }
};

enum class Tab { Layout, Registers, Compare, Values, Details, Memory };

class App {
public:
    App(const ls::Catalog& catalog, Settings settings, Platform& platform);
    ~App();

    void frame();          // builds the UI for one frame
    void after_frame();    // applies intents, rebuilds what changed
    // Operands drawn in the layout view; empty = all.
    void show_only(std::vector<ls::Operand> ops) {
        only_operands = std::move(ops);
        grids_dirty = true;
        layout_canvas.fit();
    }
    void set_tab(Tab t) { tab = t; tab_forced = true; }
    bool busy() const { return redraws_left > 0; }
    void request_redraw(int frames = 2) { redraws_left = std::max(redraws_left, frames); }

    // --- state read by the panels ---
    const ls::Catalog& catalog;
    Platform& platform;
    Settings settings;
    LayoutSet set;
    std::string selection_error;
    std::vector<OperandView> views;
    std::vector<ls::Operand> only_operands;
    Tab tab = Tab::Layout;
    bool tab_forced = false;
    float scale = 1.0f;
    ImFont* font = nullptr;
    float font_size = 13.0f;

    // search
    char query[128] = {};
    std::vector<SearchHit> hits;
    int cursor = 0;
    int kind_filter = -1;  // index into LayoutKind, -1 = all
    bool focus_search = false;

    // linking
    Hover hover, pinned;
    Links links;
    // The go-to box (left column): what was typed and why it was refused.
    char goto_text[64] = {};
    std::string goto_error;
    // What the picture alone does not say (model/notes.hpp), for the selection.
    std::vector<std::string> notes;

    // inputs and D
    Inputs inputs;
    Outputs outputs;
    int generator_seed = 1;

    CompareState compare;
    MemoryViewState memory;
    VerifyState verify;
    TileMode tile;
    // Turns tile mode on or off or changes its parameters (resolves the tiles, refits, rebuilds).
    void set_tile(bool enabled, const ls::TileParams& p);
    std::string status;
    ImVec2 layout_panel_min, layout_panel_max;  // for exporting one panel
    Canvas layout_canvas, regs_canvas;
    std::deque<GridBlit> blits;                 // this frame's grid copies (stable addresses for the callbacks)
    float inset_built_w = -1, inset_built_h = -1; // cell size of the scale operands' enlarged grids
    int copy = -1;                              // replicated elements: -1 every copy, else the k-th
    int max_copies = 1;                         // most copies of any element shown
    int legend_key = -1, frame_legend_key = -1; // legend entry hovered (highlights its cells)
    bool side_collapsed = false;
    float side_width = 300;                     // left column, in unscaled pixels
    bool scroll_to_current = true;              // the instruction list shows the selection at start

    // --- intents, applied in after_frame() ---
    std::optional<Selection> want_selection;
    std::optional<std::string> want_arch;
    Hover frame_hover;
    std::optional<Hover> want_pin;
    std::optional<Hover> want_goto;  // the go-to box: pin this (never a toggle) and bring it into view
    std::optional<ExportRequest> want_export;
    bool want_verify = false;
    bool grids_dirty = true;
    bool hits_dirty = true;
    bool values_dirty = true;
    bool compare_dirty = true;
    int redraws_left = 3;

    // Timing of the last cache rebuild (ms), shown by the benchmark.
    double last_rebuild_ms = 0;
    double frame_texture_ms = 0;  // texture drawing in this frame (render_texture), for the benchmark
    FillBuffers fill_buffers;     // render_texture's CPU buffers, kept from frame to frame
    int rebuilds = 0;

    GridStyle grid_style() const;
    const Hover& active_hover() const { return hover.kind != Hover::Kind::None ? hover : pinned; }

    // C is drawn as D wherever the set has D (the GEMM, the Registers tab): it gets no grids of its own.
    bool drawn_as_d(ls::Operand op) const;
    void rebuild_grids();
    // The Layout tab zoomed (only its cell size changed): its grids resized in place, not rebuilt.
    void resize_layout_grids();
    // Pans the Layout tab so that a pinned element is in the middle of the panel (as far as the view allows).
    void centre_on(const Hover& h);
    // Draws `grid` into `tex` (its part `window`, grid pixels, when given) in the view's colours and cell fonts.
    void render_texture(TileTexture& tex, const TileGrid& grid, const Rect* window = nullptr);
    // Arranges the Compare tab's two sides in a canvas of this size (each side a GEMM picture in
    // half of it, one cell size for both) and rebuilds their grids when the cells change.
    void arrange_compare(ImVec2 size, float gap);
    std::vector<GridShape> compare_shapes(const LayoutSet& s) const;
    // The shapes and per-frame parameters of the two canvases.
    std::vector<GridShape> layout_shapes() const;
    std::vector<GridShape> register_shapes() const;
    ArrangeParams canvas_params(const Canvas& c, bool registers) const;
    ImFont* cell_font = nullptr;
    float cell_font_size = 12.0f;
    // Lane numbers in cells too small for the cell font (LabelForm::Number): DejaVu Sans Condensed, 9 px.
    ImFont* small_font = nullptr;
    float small_font_size = 9.0f;
    // Code and formulas (Details): DejaVu Sans Mono at the UI size.
    ImFont* mono_font = nullptr;
    // Runs the verification of the current selection now (the intent's work; a few ms).
    void run_verify();
    std::string selection_key() const;
    // The verification overlay of an operand's cells, when there is a result for this selection.
    const OperandVerify* verify_for(ls::Operand op) const;

private:
    Hover links_for_;
    mutable int max_texture_size_ = 0;
    void resolve_tile_mode();
    void select(const Selection& s);
    friend void draw_layout_panel(App&);
    friend void draw_registers_panel(App&);
    void rebuild_compare();
    friend void draw_memory_panel(App&);
public:
    // The Memory tab's plans (instruction or controls changed) and its cached grids (also on resize/zoom).
    void rebuild_memory_plans();
    void rebuild_memory_tiles();
    ArrangeParams memory_canvas_params() const;
    std::vector<GridShape> memory_shapes() const;
private:
    void draw_menu();
    void draw_status_bar();
    void handle_shortcuts();
};

// Panels, one per file.
void draw_search_panel(App& app);     // panel_search.cpp: architecture, filters, search, modifiers
void draw_layout_panel(App& app);     // panel_views.cpp: GEMM picture of A, B, D (+K, scales)
void draw_registers_panel(App& app);  // panel_views.cpp: lanes x registers per operand
void draw_compare_panel(App& app);    // panel_views.cpp
void draw_values_panel(App& app);     // panel_values.cpp: inputs, generators, D
void draw_details_panel(App& app);    // panel_details.cpp: facts, signature, formulas, HIP snippet
void draw_verify_control(App& app);   // panel_verify.cpp: "Verify on GPU" (left column, under Modifiers)
void draw_memory_panel(App& app);     // panel_memory.cpp: the operand in memory, its loads, the LDS banks
void draw_smem_panel(App& app);       // panel_smem.cpp: the Memory tab for an operand a matrix descriptor reads

// Draws one cached grid (texture + highlights) at the cursor and reports hover.
// `other`: the grid belongs to the compared instruction (no linking, its own tooltip).
// The Compare tab's line above its operands (which side is which).
float compare_header_h(const App& app);
void draw_grid(App& app, const TileGrid& grid, TileTexture& tex, const OperandHighlight* hl, const char* id,
               const std::vector<std::uint8_t>* diff = nullptr, const LayoutSet* other = nullptr,
               const OperandVerify* verified = nullptr);
// The same at a screen position, hit-tested when `hovered` (the canvas is hovered and not dragged).
// `overlay` draws over the cells and under the highlights (TMEM's lane-quarter labels).
void draw_grid_at(App& app, const TileGrid& grid, TileTexture& tex, const OperandHighlight* hl, ImVec2 p0, bool hovered,
                  bool clicked, const std::vector<std::uint8_t>* diff = nullptr, const LayoutSet* other = nullptr,
                  const OperandVerify* verified = nullptr, const std::function<void()>& overlay = nullptr);
// The legend of the current colouring (Layout and Registers tabs); hovering an entry highlights its cells.
void draw_legend(App& app);
// The richest of `forms` (richest first) that fits the width of `r` (canvas coordinates from
// `origin`), clipped to `r`; the richest in a tooltip when a shorter one is shown.
void draw_heading(const std::vector<std::string>& forms, const Rect& r, ImVec2 origin);
// A target's name for a combo box of this width: its title ("Hopper (sm_90a, H100 / H200 with wgmma, ...)"),
// else the title up to its first comma ("Hopper (sm_90a)"), else the gfx / sm id: never cut mid-word.
std::string target_label(const ls::Target& t, float width);
// Row and column numbers beside an operand's matrix grid, as the Layout tab draws them (blocks named b0, b1, ...).
void draw_operand_axes(const App& app, const PlacedGrid& pg, const TileGrid& g, ImVec2 origin);
// An operand's titles as the Layout tab draws them, richest first ("A  32x16  f16  2 VGPRs  4:2 compressed: ...").
std::vector<std::string> operand_title_forms(const App& app, const LayoutSet& set, const ls::OperandLayout& l);

// bench.cpp: the frame-time benchmark (--bench-frames). Returns the exit status:
// non-zero, with a message, when what it drew was not the whole picture.
int run_benchmark(App& app, Platform& platform, int frames, int width, int height, double start_ms);
// The same for the Memory tab with the selection as given (--bench-frames N --view memory).
int run_memory_benchmark(App& app, Platform& platform, int frames, int width, int height);
// One frame (UI, then GL); returns the app-CPU milliseconds (main.cpp).
double run_frame(App& app, Platform& platform, const ImVec2* synthetic_mouse);

// PNG writing: temp file + rename; returns false with a message.
bool write_png(const std::string& path, const std::vector<unsigned char>& rgba, int w, int h, std::string* error);
bool path_writable(const std::string& path, std::string* error);

}  // namespace lsapp
