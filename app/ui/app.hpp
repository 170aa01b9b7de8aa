// The app's state and its frame. Panels (one per file) read this state while
// drawing and record intents (select, hover, pin, export); App applies the
// intents after the frame and rebuilds the caches that depend on them.
#pragma once

#include "model/links.hpp"
#include "model/search.hpp"
#include "model/settings.hpp"
#include "model/tiles.hpp"
#include "model/values.hpp"
#include "model/verify_overlay.hpp"
#include "ui/platform.hpp"
#include "ui/tile_texture.hpp"

#include <imgui.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lsapp {

struct OperandView {
    ls::Operand operand = ls::Operand::A;
    TileGrid matrix, registers;
    TileTexture matrix_tex, registers_tex;
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

// Whether the app was built with lanescope::gpu.
bool gpu_backend_built();

enum class Tab { Layout, Registers, Compare, Values, Details };

class App {
public:
    App(const ls::Catalog& catalog, Settings settings, Platform& platform);
    ~App();

    void frame();          // builds the UI for one frame
    void after_frame();    // applies intents, rebuilds what changed
    // Operands drawn in the layout view; empty = all.
    void show_only(std::vector<ls::Operand> ops) { only_operands = std::move(ops); grids_dirty = true; }
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

    // inputs and D
    Inputs inputs;
    Outputs outputs;
    int generator_seed = 1;

    CompareState compare;
    VerifyState verify;
    std::string status;
    ImVec2 layout_panel_min, layout_panel_max;  // for exporting one panel
    ImVec2 layout_avail{0, 0};                  // the layout panel's free space (fit mode)
    ImVec2 fit_avail_used{0, 0};

    // --- intents, applied in after_frame() ---
    std::optional<Selection> want_selection;
    std::optional<std::string> want_arch;
    Hover frame_hover;
    std::optional<Hover> want_pin;
    std::optional<ExportRequest> want_export;
    bool want_verify = false;
    bool grids_dirty = true;
    bool hits_dirty = true;
    bool values_dirty = true;
    bool compare_dirty = true;
    int redraws_left = 3;

    // Timing of the last cache rebuild (ms), shown by the benchmark.
    double last_rebuild_ms = 0;
    int rebuilds = 0;

    GridStyle grid_style() const;
    const Hover& active_hover() const { return hover.kind != Hover::Kind::None ? hover : pinned; }

    void rebuild_grids();
    // Runs the verification of the current selection now (the intent's work; a few ms).
    void run_verify();
    std::string selection_key() const;
    // The verification overlay of an operand's cells, when there is a result for this selection.
    const OperandVerify* verify_for(ls::Operand op) const;

private:
    Hover links_for_;
    void select(const Selection& s);
    float cell_width_for(const LayoutSet& s, GridStyle& st);
    void rebuild_compare();
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

// Draws one cached grid (texture + highlights) at the cursor and reports hover.
// `other`: the grid belongs to the compared instruction (no linking, its own tooltip).
void draw_grid(App& app, const TileGrid& grid, TileTexture& tex, const OperandHighlight* hl, const char* id,
               const std::vector<std::uint8_t>* diff = nullptr, const LayoutSet* other = nullptr,
               const OperandVerify* verified = nullptr);

// PNG writing: temp file + rename; returns false with a message.
bool write_png(const std::string& path, const std::vector<unsigned char>& rgba, int w, int h, std::string* error);
bool path_writable(const std::string& path, std::string* error);

}  // namespace lsapp
