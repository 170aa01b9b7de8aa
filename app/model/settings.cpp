#include "model/settings.hpp"

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
    char* end = nullptr;
    errno = 0;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno != 0 || x < -1000000 || x > 1000000) return false;
    out = static_cast<int>(x);
    return true;
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

std::string to_text(const Settings& s) {
    std::ostringstream o;
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
      << "window_x = " << s.window.x << "\nwindow_y = " << s.window.y << "\nwindow_width = " << s.window.width
      << "\nwindow_height = " << s.window.height << "\n";
    return o.str();
}

Settings from_text(const std::string& text) {
    Settings s;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
        int n = 0;
        const bool num = parse_int(value, n);
        if (key == "arch" && !value.empty()) s.selection.arch = value;
        else if (key == "instruction" && !value.empty()) s.selection.instruction = value;
        else if (key == "color_by") {
            if (value == "register") s.view.color_by = ls::ColorBy::Register;
            else if (value == "block") s.view.color_by = ls::ColorBy::Block;
            else if (value == "lane") s.view.color_by = ls::ColorBy::Lane;
        } else if (key == "theme") s.view.theme = value == "dark" ? ls::Theme::Dark : ls::Theme::Light;
        else if (!num) continue;
        else if (key == "cbsz") s.selection.mods.cbsz = n;
        else if (key == "abid") s.selection.mods.abid = n;
        else if (key == "blgp") s.selection.mods.blgp = n;
        else if (key == "opsel") s.selection.mods.opsel = n;
        else if (key == "wave") s.selection.mods.wave = n;
        else if (key == "opsel_a") s.selection.mods.opsel_a = n;
        else if (key == "opsel_b") s.selection.mods.opsel_b = n;
        else if (key == "labels") s.view.labels = n != 0;
        else if (key == "show_registers") s.view.show_registers = n != 0;
        else if (key == "show_matrices") s.view.show_matrices = n != 0;
        else if (key == "zoom_percent" && n >= 10 && n <= 800) s.view.zoom = static_cast<float>(n) / 100.0f;
        else if (key == "fit") s.view.fit = n != 0;
        else if (key == "tab" && n >= 0 && n <= 4) s.view.tab = n;
        else if (key == "block" && n >= -1 && n < 64) s.view.block = n;
        else if (key == "window_x") s.window.x = n;
        else if (key == "window_y") s.window.y = n;
        else if (key == "window_width" && n >= 200) s.window.width = n;
        else if (key == "window_height" && n >= 150) s.window.height = n;
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

Settings load_settings(const std::string& path) {
    std::ifstream in(path);
    if (path.empty() || !in) return {};
    std::ostringstream text;
    text << in.rdbuf();
    return from_text(text.str());
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
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << to_text(s);
        if (!out.flush()) {
            if (error) *error = "cannot write " + tmp;
            std::remove(tmp.c_str());
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        if (error) *error = "cannot replace " + path + ": " + std::strerror(errno);
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

}  // namespace lsapp
