#include "model/settings.hpp"

#include "lanescope/files.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace lsapp {

namespace {

const char* color_by_name(ls::ColorBy c) {
    return c == ls::ColorBy::Register ? "register" : c == ls::ColorBy::Block ? "block" : "lane";
}

bool parse_int(const std::string& v, int& out) {
    try {
        out = static_cast<int>(ls::parse_integer(v, -1000000, 1000000, "value"));
        return true;
    } catch (const ls::Error&) {
        return false;
    }
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

bool make_dirs(const std::string& dir) {
    for (size_t i = 1; i <= dir.size(); ++i) {
        if (i == dir.size() || dir[i] == '/') {
            const std::string part = dir.substr(0, i);
            if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
        }
    }
    return true;
}

}  // namespace

WindowSettings legal_window(WindowSettings w) {
    w.x = w.x < 0 ? -1 : std::min(w.x, kWindowPosMax);
    w.y = w.y < 0 ? -1 : std::min(w.y, kWindowPosMax);
    w.width = std::clamp(w.width, kWindowMinWidth, kWindowMaxSide);
    w.height = std::clamp(w.height, kWindowMinHeight, kWindowMaxSide);
    return w;
}

WindowSettings fit_window(WindowSettings w, const std::vector<ScreenArea>& monitors) {
    const ScreenArea* m = nullptr;
    for (const ScreenArea& a : monitors)
        if (!m && a.width > 0 && a.height > 0 && w.x >= a.x && w.x < a.x + a.width && w.y >= a.y && w.y < a.y + a.height) m = &a;
    if (!m && !monitors.empty() && monitors.front().width > 0 && monitors.front().height > 0) m = &monitors.front();
    if (m) {
        w.width = std::min(w.width, m->width);
        w.height = std::min(w.height, m->height);
        if (w.x < 0 || w.y < 0) {
            w.x = w.y = -1;
        } else {
            w.x = std::clamp(w.x, m->x, std::max(m->x, m->x + m->width - w.width));
            w.y = std::clamp(w.y, m->y, std::max(m->y, m->y + m->height - w.height));
        }
    }
    return legal_window(w);
}

std::string to_text(const Settings& s) {
    std::ostringstream o;
    const WindowSettings win = legal_window(s.window);  // only what from_text reads back
    const ls::Modifiers& m = s.selection.mods;
    o << "# lanescope settings (rewritten on exit)\n"
      << "arch = " << s.selection.arch << "\n"
      << "instruction = " << s.selection.instruction << "\n"
      << "cbsz = " << m.cbsz << "\nabid = " << m.abid << "\nblgp = " << m.blgp << "\nopsel = " << m.opsel
      << "\nwave = " << m.wave << "\nopsel_a = " << m.opsel_a << "\nopsel_b = " << m.opsel_b << "\n"
      << "color_by = " << color_by_name(s.view.color_by) << "\n"
      << "theme = " << (s.view.theme == ls::Theme::Dark ? "dark" : "light") << "\n"
      << "labels = " << (s.view.labels ? 1 : 0) << "\n"
      << "show_registers = " << (s.view.show_registers ? 1 : 0) << "\n"
      << "show_matrices = " << (s.view.show_matrices ? 1 : 0) << "\n"
      << "zoom_percent = " << static_cast<int>(s.view.zoom * 100.0f + 0.5f) << "\n"
      << "fit = " << (s.view.fit ? 1 : 0) << "\n"
      << "block = " << s.view.block << "\n"
      << "tab = " << s.view.tab << "\n"
      << "window_x = " << win.x << "\nwindow_y = " << win.y << "\nwindow_width = " << win.width
      << "\nwindow_height = " << win.height << "\n";
    return o.str();
}

Settings from_text(const std::string& text, std::vector<std::string>* warnings) {
    Settings s;
    std::istringstream in(text);
    std::string line;
    int line_no = 0;
    auto drop = [&](const std::string& key, const std::string& value, const std::string& legal) {
        if (warnings)
            warnings->push_back("line " + std::to_string(line_no) + ": ignoring " + key + " = '" + value.substr(0, 60) +
                                "'; legal: " + legal);
    };
    while (std::getline(in, line) && line_no < 10000) {
        ++line_no;
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos) {
            if (!trim(line).empty()) drop("line", trim(line), "key = value");
            continue;
        }
        const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
        int n = 0;
        const bool num = parse_int(value, n);
        auto need = [&](bool ok, const std::string& legal) {
            if (!ok) drop(key, value, legal);
            return ok;
        };
        if (key == "arch") {
            if (need(!value.empty() && value.size() <= 64, "an architecture name")) s.selection.arch = value;
        } else if (key == "instruction") {
            if (need(!value.empty() && value.size() <= 128, "an instruction name")) s.selection.instruction = value;
        } else if (key == "color_by") {
            if (value == "register") s.view.color_by = ls::ColorBy::Register;
            else if (value == "block") s.view.color_by = ls::ColorBy::Block;
            else if (value == "lane") s.view.color_by = ls::ColorBy::Lane;
            else drop(key, value, "lane, register or block");
        } else if (key == "theme") {
            if (need(value == "dark" || value == "light", "light or dark"))
                s.view.theme = value == "dark" ? ls::Theme::Dark : ls::Theme::Light;
        } else if (key == "cbsz" || key == "abid" || key == "blgp" || key == "opsel" || key == "wave" ||
                   key == "opsel_a" || key == "opsel_b") {
            // -1 means "not given"; whether a value applies is checked against the instruction later.
            if (need(num && n >= -1 && n <= 255, "-1 (not given) or 0..255")) set_modifier(s.selection.mods, key, n);
        } else if (key == "labels" || key == "show_registers" || key == "show_matrices" || key == "fit") {
            if (need(num && (n == 0 || n == 1), "0 or 1")) {
                bool& flag = key == "labels" ? s.view.labels : key == "show_registers" ? s.view.show_registers
                             : key == "show_matrices" ? s.view.show_matrices : s.view.fit;
                flag = n != 0;
            }
        } else if (key == "zoom_percent") {
            if (need(num && n >= 30 && n <= 300, "30..300")) s.view.zoom = static_cast<float>(n) / 100.0f;
        } else if (key == "tab") {
            if (need(num && n >= 0 && n <= 5, "0..5")) s.view.tab = n;
        } else if (key == "block") {
            if (need(num && n >= -1 && n < 64, "-1 (all) or 0..63")) s.view.block = n;
        } else if (key == "window_x" || key == "window_y") {
            if (need(num && n >= -1 && n <= kWindowPosMax, "-1.." + std::to_string(kWindowPosMax)))
                (key == "window_x" ? s.window.x : s.window.y) = n;
        } else if (key == "window_width") {
            if (need(num && n >= kWindowMinWidth && n <= kWindowMaxSide,
                     std::to_string(kWindowMinWidth) + ".." + std::to_string(kWindowMaxSide)))
                s.window.width = n;
        } else if (key == "window_height") {
            if (need(num && n >= kWindowMinHeight && n <= kWindowMaxSide,
                     std::to_string(kWindowMinHeight) + ".." + std::to_string(kWindowMaxSide)))
                s.window.height = n;
        } else {
            drop(key, value, "a known key (arch, instruction, cbsz, ..., window_height)");
        }
    }
    return s;
}

std::string settings_path() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/lanescope/settings.ini";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.config/lanescope/settings.ini";
    return {};
}

Settings load_settings(const std::string& path, std::vector<std::string>* warnings) {
    if (path.empty()) return {};
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};  // no settings yet
    if (!S_ISREG(st.st_mode) || st.st_size > (1 << 20)) {
        if (warnings) warnings->push_back(path + " is not a regular file of at most 1 MiB; using defaults");
        return {};
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (warnings) warnings->push_back("cannot read " + path + ": " + std::strerror(errno) + "; using defaults");
        return {};
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().find('\0') != std::string::npos) {
        if (warnings) warnings->push_back(path + " is not text; using defaults");
        return {};
    }
    return from_text(text.str(), warnings);
}

bool save_settings(const Settings& s, const std::string& path, std::string* error) {
    if (path.empty()) {
        if (error) *error = "no config directory (set HOME or XDG_CONFIG_HOME)";
        return false;
    }
    const auto slash = path.rfind('/');
    if (slash != std::string::npos && !make_dirs(path.substr(0, slash))) {
        if (error) *error = "cannot create " + path.substr(0, slash) + ": " + std::strerror(errno);
        return false;
    }
    // A uniquely named temporary per save: concurrent instances never share one.
    try {
        ls::files::write_regular_file(path, to_text(s));
    } catch (const ls::Error& e) {
        if (error) *error = e.what();
        return false;
    }
    return true;
}

}  // namespace lsapp
