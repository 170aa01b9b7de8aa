#include "model/settings.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <chrono>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace lsapp;
namespace ls = lanescope;

TEST_CASE("settings: text round trip keeps every field") {
    Settings s;
    s.selection = Selection{"gfx1201", "v_wmma_f32_16x16x16_f16", {}};
    s.selection.mods.wave = 64;
    s.selection.mods.cbsz = 2;
    s.view.color_by = ls::ColorBy::Block;
    s.view.theme = ls::Theme::Dark;
    s.view.labels = false;
    s.view.show_registers = true;
    s.view.zoom = 1.5f;
    s.view.fit = false;
    s.view.block = 3;
    s.view.tab = 4;
    s.window = {10, 20, 1600, 1000};
    const Settings r = from_text(to_text(s));
    CHECK(r.selection.arch == "gfx1201");
    CHECK(r.selection.instruction == "v_wmma_f32_16x16x16_f16");
    CHECK(r.selection.mods.wave == 64);
    CHECK(r.selection.mods.cbsz == 2);
    CHECK(r.selection.mods.abid == -1);
    CHECK(r.view.color_by == ls::ColorBy::Block);
    CHECK(r.view.theme == ls::Theme::Dark);
    CHECK_FALSE(r.view.labels);
    CHECK(r.view.show_registers);
    CHECK(r.view.zoom == Approx(1.5f));
    CHECK_FALSE(r.view.fit);
    CHECK(r.view.block == 3);
    CHECK(r.view.tab == 4);
    CHECK(r.window.x == 10);
    CHECK(r.window.width == 1600);
}

TEST_CASE("settings: garbage lines and bad values keep the defaults") {
    const Settings r = from_text("nonsense\nzoom_percent = lots\nwindow_width = 5\ncolor_by = purple\n= 3\nwave=32\n");
    const Settings d;
    CHECK(r.view.zoom == d.view.zoom);
    CHECK(r.window.width == d.window.width);
    CHECK(r.view.color_by == d.view.color_by);
    CHECK(r.selection.mods.wave == 32);
}

TEST_CASE("settings: saved atomically, loaded back - unwritable paths fail cleanly") {
    char dir[] = "/tmp/lanescope-settings-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const std::string path = std::string(dir) + "/sub/settings.ini";
    Settings s;
    s.selection.instruction = "v_mfma_f32_16x16x16_f16";
    std::string error;
    REQUIRE(save_settings(s, path, &error));
    CHECK(load_settings(path).selection.instruction == "v_mfma_f32_16x16x16_f16");
    CHECK_FALSE(std::ifstream(path + ".tmp").good());
    CHECK(load_settings(std::string(dir) + "/missing.ini").selection.instruction == Selection{}.instruction);
    CHECK_FALSE(save_settings(s, "/proc/lanescope/settings.ini", &error));
    CHECK_FALSE(error.empty());
    std::remove(path.c_str());
    rmdir((std::string(dir) + "/sub").c_str());
    rmdir(dir);
}

TEST_CASE("settings: a settings file that is a FIFO is refused at once, on save and on load") {
    char dir[] = "/tmp/lanescope-settings-fifo-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const std::string path = std::string(dir) + "/settings.ini";
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    CHECK_FALSE(save_settings(Settings{}, path, &error));  // no reader: must not wait for one
    CHECK(error.find("it is a FIFO") != std::string::npos);
    std::vector<std::string> warnings;
    load_settings(path, &warnings);
    CHECK(warnings.size() == 1);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    std::remove(path.c_str());
    rmdir(dir);
}
