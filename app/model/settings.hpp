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
