// What the app remembers between runs: the selection, view settings and the
// window placement. Stored as "key = value" lines in
// $XDG_CONFIG_HOME/lanescope/settings.ini (or ~/.config/lanescope/settings.ini).
#pragma once

#include "model/selection.hpp"
#include "lanescope/palette.hpp"

#include <string>
#include <vector>

namespace lsapp {

struct ViewSettings {
    ls::ColorBy color_by = ls::ColorBy::Lane;
    ls::Theme theme = ls::Theme::Light;
    bool labels = true;
    bool show_registers = false;  // register view beside the matrices
    bool show_matrices = true;
    float zoom = 1.0f;
    bool fit = true;              // cell size fits the panel (zoom applies when false)
    int block = -1;               // -1: all blocks side by side
    int tab = 0;                  // layout, registers, compare, values, details, memory
};

struct WindowSettings {
    int x = -1, y = -1, width = 1400, height = 900;  // x, y < 0: let the system place it
};

// What from_text accepts for the window (one rule for reading and writing): x, y -1 (the system places
// it) .. kWindowPosMax; width, height from kWindowMinWidth / kWindowMinHeight to kWindowMaxSide.
constexpr int kWindowPosMax = 100000, kWindowMinWidth = 200, kWindowMinHeight = 150, kWindowMaxSide = 16384;

// A monitor's work area in screen coordinates (GLFW's glfwGetMonitorWorkarea).
struct ScreenArea {
    int x = 0, y = 0, width = 0, height = 0;
};

// The window fitted to a monitor: the one holding its top-left corner (else the first, the primary),
// no larger than that monitor's work area and wholly on it (a position < 0 stays -1: the system places
// it); then every field inside what from_text accepts, so that what is saved is read back unchanged.
// With no monitors only the second step applies.
WindowSettings fit_window(WindowSettings w, const std::vector<ScreenArea>& monitors);
// Only the second step: each field clamped to what from_text accepts.
WindowSettings legal_window(WindowSettings w);

struct Settings {
    Selection selection;
    ViewSettings view;
    WindowSettings window;
};

std::string to_text(const Settings& s);
// Unknown keys and malformed or out-of-range values are skipped (the default
// stays), each with a line in `warnings` when given. Never throws.
Settings from_text(const std::string& text, std::vector<std::string>* warnings = nullptr);

// The settings file path, or "" when no home/config directory is known.
std::string settings_path();
// Reads the file; defaults when it is missing or unreadable.
// Files that are not regular, larger than 1 MiB or not text give the defaults (and a warning).
Settings load_settings(const std::string& path, std::vector<std::string>* warnings = nullptr);
// Writes atomically (temp file + rename); returns false with `error` set on failure.
bool save_settings(const Settings& s, const std::string& path, std::string* error);

}  // namespace lsapp
