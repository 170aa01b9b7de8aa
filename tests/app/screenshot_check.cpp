// Runs `lanescope --screenshot` (under Xvfb, or with EGL and no display) and
// checks the PNG from its pixels: the size asked for, and as many distinct
// tile colours in the D view as the palette's lane groups for that
// instruction (tiles are flat palette colours; labels are one text colour).
// Mode "fit" (EGL) screenshots the layout panel of the catalog's largest and
// oddest instructions at 1000x650 .. 1400x900 (both themes, every colouring,
// operand subsets, registers beside) and checks from the pixels that every
// tile lies wholly inside the panel with a margin (no palette pixel near its
// edges), that every lane group's colour is there, and that tiles cover a
// good part of the panel.
// Mode "tabs" (EGL) checks the Compare tab (both sides whole, every lane group, titled), the
// "Inputs and D" tab (D's table in view) of the judged instructions and a scaled MFMA's enlarged
// SA / SB at 1100x720 and 1400x900.
// Mode "smem" (EGL) checks the Memory tab of operands a matrix descriptor reads (wgmma B at 128B,
// wgmma's SS A at 64B from an unaligned start, tcgen05 B MN-major 32B, a raw descriptor) and an
// ldmatrix plan at 1100x720 and 1400x900: each core matrix colour of the tile is there (the
// categorical colours, a chunk's fill), the plan's lane colours, and --memory smem on an operand
// in registers is refused with the operands that are legal.
// Mode "errors" checks that bad input gives a message and a non-zero exit;
// mode "window" opens the interactive window under Xvfb and checks the saved settings.
// Mode "verify" (EGL, no display) runs "Verify on GPU" with the software device
// before the screenshot: the PNG exists and shows the green overlay, and a
// corrupted layout adds red cells.
#include "lanescope/palette.hpp"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "model/settings.hpp"
#include "model/tile_view.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>

namespace ls = lanescope;

namespace {

// What every check needs: the app to run and the prefix it runs under (Xvfb, or no display), the folder
// its files go to, the catalog; and how many checks failed so far.
struct Checks {
    std::string app, prefix, dir;
    const ls::Catalog& cat;
    int failures = 0;
};

void check(Checks& chk, bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    if (!ok) ++chk.failures;
}

int run(const std::string& cmd) {
    std::printf("$ %s\n", cmd.c_str());
    std::fflush(stdout);
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

// Removes OUT, runs `cmd --screenshot OUT`, and checks that the app succeeded and the PNG reads: its
// pixels (RGBA, freed with stbi_image_free) or null.
unsigned char* screenshot(Checks& chk, const std::string& cmd, const std::string& out, const std::string& what, int& w, int& h) {
    std::remove(out.c_str());
    check(chk, run(cmd + " --screenshot " + out) == 0, what);
    int ch = 0;
    unsigned char* px = stbi_load(out.c_str(), &w, &h, &ch, 4);
    check(chk, px != nullptr, what + ": PNG readable");
    return px;
}

bool exists(const std::string& p) {
    struct stat s;
    return stat(p.c_str(), &s) == 0;
}

// Pixels of exactly this colour.
long pixels_of(const unsigned char* px, int w, int h, ls::Rgb c) {
    long n = 0;
    for (long p = 0; p < static_cast<long>(w) * h; ++p) n += px[p * 4] == c.r && px[p * 4 + 1] == c.g && px[p * 4 + 2] == c.b;
    return n;
}

// The colours a picture coloured by lane may use: each lane's shade (palette.hpp:
// lane_color), mapped to its lane group; coloured by register or block: the
// categorical colours, each its own key.
std::map<std::string, int> tile_palette(const ls::Instruction* ins, int wave, ls::Theme theme) {
    std::map<std::string, int> key;
    if (ins)
        for (int lane = 0; lane < wave; ++lane) key[ls::lane_color(*ins, lane, theme).hex()] = ls::lane_group(*ins, lane);
    else
        for (int i = 0; i < ls::categorical_count(); ++i) key[ls::categorical(i, theme).hex()] = i;
    return key;
}

// Keys (lane groups) whose colours cover at least `min_pixels` pixels.
int palette_colours(const unsigned char* px, int w, int h, const std::map<std::string, int>& palette, int min_pixels) {
    std::map<int, int> counts;
    for (long p = 0; p < static_cast<long>(w) * h; ++p) {
        const ls::Rgb c{px[p * 4], px[p * 4 + 1], px[p * 4 + 2]};
        auto it = palette.find(c.hex());
        if (it != palette.end()) ++counts[it->second];
    }
    int n = 0;
    for (const auto& kv : counts) n += kv.second >= min_pixels;
    return n;
}

// Bad input: a message and a non-zero exit, and no file.
void check_errors(Checks& chk) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const std::string out = dir + "/never.png";
    std::remove(out.c_str());
    check(chk, run(prefix + app + " --instruction v_nonsense --screenshot " + out) != 0 && !exists(out),
          "unknown instruction: non-zero exit, no file");
    check(chk, run(prefix + app + " --instruction v_mfma_f32_32x32x8_f16 --cbsz 9 --screenshot " + out) != 0 && !exists(out),
          "illegal modifier: non-zero exit, no file");
    check(chk, run(prefix + app + " --screenshot /nonexistent-dir/x.png") != 0, "unwritable path: non-zero exit");
    check(chk, run(prefix + app + " --operand Q --screenshot " + out) != 0 && !exists(out), "unknown operand: non-zero exit");
    check(chk, run(prefix + app + " --no-settings") != 0, "no display, interactive: non-zero exit with a message");
}

// The Memory tab of operands a matrix descriptor reads and of an ldmatrix plan, and --memory smem on an
// operand in registers refused with the legal operands.
void check_smem(Checks& chk) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const ls::Catalog& cat = chk.cat;
    struct Shot { const char* arch; const char* ins; const char* extra; int cores; };
    const Shot shots[] = {
        {"sm_90a", "wgmma_m64n128k16_f32_f16", "--memory smem --operand B --swizzle 128B", 8},
        {"sm_90a", "wgmma_m64n256k16_f32_f16", "--memory smem --operand A --swizzle 64B --smem-address 0x480", 8},
        {"sm_100a", "tcgen05_mma_m256n256k16_f16_f16_2cta", "--memory smem --operand B --major MN --swizzle 32B", 8},
        {"sm_90a", "wgmma_m64n64k16_f32_f16", "--memory smem --descriptor 0x4000004000010040", 8},
    };
    int n = 0;
    for (const char* size : {"1100x720", "1400x900"}) {
        for (const Shot& c : shots) {
            const std::string what = std::string(c.ins) + " " + c.extra + " at " + size;
            int w = 0, h = 0;
            unsigned char* px = screenshot(chk, prefix + app + " --no-settings -a " + c.arch + " -i " + c.ins + " " + c.extra +
                                               " --size " + size, dir + "/smem-" + std::to_string(n++) + ".png", what, w, h);
            if (!px) continue;
            check(chk, std::to_string(w) + "x" + std::to_string(h) == size, what + ": the size asked for");
            // Each of the first core matrices fills chunks (many pixels of its colour).
            int cores = 0;
            for (int i = 0; i < c.cores; ++i) cores += pixels_of(px, w, h, ls::categorical(i, ls::Theme::Light)) >= 400;
            check(chk, cores == c.cores, what + ": " + std::to_string(cores) + " of " + std::to_string(c.cores) + " core matrix colours");
            stbi_image_free(px);
        }
        // An ldmatrix plan for mma.sync's A: the cells coloured by the reading thread's group.
        const std::string what = std::string("ldmatrix plan of mma_m16n8k16_f32_f16 A at ") + size;
        int w = 0, h = 0;
        unsigned char* px = screenshot(chk, prefix + app + " --no-settings -a sm_90 -i mma_m16n8k16_f32_f16 --view memory --operand A --size " + size,
                                       dir + "/smem-ldmatrix-" + std::to_string(n++) + ".png", what, w, h);
        if (px) {
            const ls::Instruction& ins = cat.find_instruction(cat.find_target("sm_90"), "mma_m16n8k16_f32_f16");
            const int got = palette_colours(px, w, h, tile_palette(&ins, 32, ls::Theme::Light), 40);
            check(chk, got == ls::lane_groups(ins, 32), what + ": " + std::to_string(got) + " thread-group colours");
            stbi_image_free(px);
        }
    }
    const std::string out = dir + "/never.png";
    std::remove(out.c_str());
    const std::string err = dir + "/smem-d.err";
    check(chk, run(prefix + app + " --no-settings -a sm_90a -i wgmma_m64n128k16_f32_f16 --memory smem --operand D --screenshot " + out +
                   " 2>" + err) != 0 && !exists(out),
          "--memory smem on D (registers): non-zero exit, no file");
    std::string text;
    if (std::FILE* f = std::fopen(err.c_str(), "r")) {
        char buf[2048];
        size_t k;
        while ((k = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, k);
        std::fclose(f);
    }
    check(chk, text.find("legal: --operand B") != std::string::npos, "--memory smem on D: says B is legal");
}

// The interactive window opens under Xvfb, runs its loop, and saves the settings on exit; a huge
// remembered size is fitted to the screen.
void check_window(Checks& chk) {
    const std::string &app = chk.app, &dir = chk.dir;
    const std::string config = dir + "/config";
    const std::string file = config + "/lanescope/settings.ini";
    std::remove(file.c_str());
    check(chk, run("env XDG_CONFIG_HOME=" + config + " xvfb-run -a -s '-screen 0 1280x800x24' " + app +
                   " --arch gfx1100 --instruction v_wmma_f32_16x16x16_f16 --wave 64 --quit-after-frames 5") == 0,
          "window opens and closes");
    std::FILE* f = std::fopen(file.c_str(), "r");
    check(chk, f != nullptr, "settings saved to " + file);
    std::string text;
    if (f) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
        std::fclose(f);
    }
    check(chk, text.find("instruction = v_wmma_f32_16x16x16_f16") != std::string::npos, "settings remember the instruction");
    check(chk, text.find("arch = gfx1100") != std::string::npos, "settings remember the architecture");
    check(chk, text.find("wave = 64") != std::string::npos, "settings remember the wave size");
    // A legal but huge size and a far position: the window is fitted to the 1280x800 screen (not 16384 x 16384
    // pixels of framebuffer), and what is saved is read back without a warning (no 16-bit wrap to -25536).
    if (std::FILE* w = std::fopen(file.c_str(), "w")) {
        std::fputs("window_x = 40000\nwindow_y = 40000\nwindow_width = 16384\nwindow_height = 16384\n", w);
        std::fclose(w);
    }
    check(chk, run("env XDG_CONFIG_HOME=" + config + " timeout 60 xvfb-run -a -s '-screen 0 1280x800x24' " + app +
                   " --quit-after-frames 3") == 0,
          "window with a 16384x16384 settings size opens and closes");
    text.clear();
    if (std::FILE* r = std::fopen(file.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, r)) > 0) text.append(buf, n);
        std::fclose(r);
    }
    std::vector<std::string> warnings;
    const lsapp::Settings back = lsapp::from_text(text, &warnings);
    check(chk, warnings.empty(), "the saved settings read back without a warning");
    check(chk, back.window.width <= 1280 && back.window.height <= 800, "the saved size fits the screen: " +
          std::to_string(back.window.width) + "x" + std::to_string(back.window.height));
    check(chk, back.window.x >= -1 && back.window.x + back.window.width <= 1280 && back.window.y + back.window.height <= 800,
          "the saved position is on the screen: " + std::to_string(back.window.x) + "," + std::to_string(back.window.y));
}

// The tile every tile check draws: its options, its lane groups and waves, and each lane's shade of its
// wave's hue and lane group (wave_lane_color) mapped back to (wave, group).
struct TileCase {
    std::string options;
    int groups = 0, waves = 0;
    std::map<std::string, int> shade_of;
};

// A 256x256 C tile of the 32x32x8 MFMA with its A and B at K = 64, on 2x2 waves of 2x2 tiles.
TileCase tile_case(const ls::Catalog& cat) {
    TileCase tc;
    tc.options = " -a gfx942 -i v_mfma_f32_32x32x8_f16 --waves 2x2 --tiles-per-wave 2x2 --shape 256x256x64";
    tc.groups = 2, tc.waves = 4;  // 32x32 MFMA: lane groups of 32 lanes
    const ls::Instruction& ins32 = cat.find_instruction(cat.find_target("gfx942"), "v_mfma_f32_32x32x8_f16");
    for (int wave = 0; wave < tc.waves; ++wave)
        for (int lane = 0; lane < 64; ++lane)
            tc.shade_of[ls::wave_lane_color(ins32, wave, lane, tc.groups, ls::Theme::Light).hex()] = wave * tc.groups + lane / 32;
    return tc;
}

// The (wave, lane group) whose shade pixel (x, y) has (wave * groups + group), or -1 for none.
int shade_at(const TileCase& tc, const unsigned char* px, int w, int x, int y) {
    const unsigned char* p = px + (static_cast<long>(y) * w + x) * 4;
    const auto it = tc.shade_of.find(ls::Rgb{p[0], p[1], p[2]}.hex());
    return it == tc.shade_of.end() ? -1 : it->second;
}

// Every (wave, lane group) covers at least `least` pixels of `pixels` (counts by shade_at's code).
void check_every_shade(Checks& chk, const TileCase& tc, std::map<int, long>& pixels, long least, const std::string& what) {
    for (int wave = 0; wave < tc.waves; ++wave)
        for (int g = 0; g < tc.groups; ++g) {
            const long n = pixels[wave * tc.groups + g];
            check(chk, n >= least, what + "wave " + std::to_string(wave) + " lane group " + std::to_string(g) + " covers " +
                                       std::to_string(n) + " pixels");
        }
}

// The tile fitted whole in the layout panel at `size`, every (wave, lane group) shade on screen.
void check_tile_panel(Checks& chk, const TileCase& tc, const char* size) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const std::string& tile = tc.options;
    int w = 0, h = 0;
    unsigned char* px = screenshot(chk, prefix + app + " --no-settings" + tile + " --size " + size + " --panel",
                                   dir + "/tile-" + size + ".png", std::string("tile screenshot at ") + size, w, h);
    if (!px) return;
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    std::map<int, long> pixels;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int code = shade_at(tc, px, w, x, y);
            if (code < 0) continue;
            ++pixels[code];
            x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
    // C/D alone gives each (wave, lane group) 8,192 cells of at least a pixel.
    check_every_shade(chk, tc, pixels, 8192, std::string(size) + ": ");
    stbi_image_free(px);
    check(chk, x1 >= 0 && x0 >= 6 && y0 >= 6 && x1 < w - 6 && y1 < h - 6,
          std::string(size) + ": the tile is whole inside the panel (x " + std::to_string(x0) + ".." + std::to_string(x1) +
                   ", y " + std::to_string(y0) + ".." + std::to_string(y1) + " in " + std::to_string(w) + "x" + std::to_string(h) + ")");
}

// --zoom 100% with a pinned element: labelled cells (text pixels) around D[0][0], the pin's outline in view.
void check_tile_pin(Checks& chk, const TileCase& tc) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const std::string& tile = tc.options;
    int w = 0, h = 0;
    unsigned char* px = screenshot(chk, prefix + app + " --no-settings" + tile + " --pin D,0,0 --zoom 100% --size 1100x720 --panel",
                                   dir + "/tile-corner.png", "--pin D,0,0 --zoom 100% of the 256x256 tile", w, h);
    if (px) {
        const ls::Rgb pin = ls::theme_colors(ls::Theme::Light).highlight;
        const long outline = pixels_of(px, w, h, pin);
        // Cell text is near-black (text_on of the light wave colours): many pixels of it at 100 %.
        long dark = 0;
        for (long p = 0; p < static_cast<long>(w) * h; ++p) dark += px[p * 4] < 60 && px[p * 4 + 1] < 60 && px[p * 4 + 2] < 60;
        check(chk, outline >= 40, "the pinned cell's outline is on screen (" + std::to_string(outline) + " pixels)");
        check(chk, dark >= static_cast<long>(w) * h / 50, "labels drawn at 100 % (" + std::to_string(dark) + " dark pixels)");
        stbi_image_free(px);
    }
}

// The Memory tab with the tile at `size`: B (64x256) of all 4 waves in LDS, each cell in the colour of the
// wave and lane reading it (2 waves per cell: alternating columns at fit), whole.
void check_tile_memory(Checks& chk, const TileCase& tc, const char* size) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const std::string& tile = tc.options;
    int w = 0, h = 0;
    unsigned char* px = screenshot(chk, prefix + app + " --no-settings" + tile + " --view memory --size " + size,
                                   dir + "/tile-memory-" + size + ".png", std::string("tile memory screenshot at ") + size, w, h);
    if (!px) return;
    std::map<int, long> pixels;
    std::vector<int> per_row(static_cast<size_t>(h), 0);
    int x0 = w, x1 = -1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int code = shade_at(tc, px, w, x, y);
            if (code < 0) continue;
            ++pixels[code];
            ++per_row[static_cast<size_t>(y)];
        }
    // The grid's rows: many wave-coloured pixels (the legend's swatches are a few per row).
    int y0 = h, y1 = -1;
    for (int y = 0; y < h; ++y)
        if (per_row[static_cast<size_t>(y)] >= 256) y0 = std::min(y0, y), y1 = std::max(y1, y);
    for (int y = std::max(0, y0); y <= y1; ++y)
        for (int x = 0; x < w; ++x)
            if (shade_at(tc, px, w, x, y) >= 0) x0 = std::min(x0, x), x1 = std::max(x1, x);
    stbi_image_free(px);
    // Each (wave, lane group) reads 2,048 of B's cells, half of them shown in its colour at fit.
    check_every_shade(chk, tc, pixels, 1024, std::string(size) + ": memory, ");
    // 64 lines of 256 cells, at least 2 px each way, inside the window.
    check(chk, y1 - y0 + 1 >= 128 && x1 - x0 + 1 >= 512 && x1 < w - 6 && y1 < h - 6,
          std::string(size) + ": the memory tile is whole (x " + std::to_string(x0) + ".." + std::to_string(x1) + ", y " +
                   std::to_string(y0) + ".." + std::to_string(y1) + " in " + std::to_string(w) + "x" + std::to_string(h) + ")");
}

// Tile mode: a 256x256 C tile with its A and B at K = 64 (65,536 + 2 x 16,384 cells), fitted whole
// at 1100x720 and 1400x900, every wave's hue and lane group's shade on screen, the same tile's B in
// the Memory tab whole and coloured by wave; bad tiles refused.
void check_tile(Checks& chk) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const TileCase tc = tile_case(chk.cat);
    const std::string& tile = tc.options;
    for (const char* size : {"1100x720", "1400x900"}) check_tile_panel(chk, tc, size);
    check(chk, run(prefix + app + " --no-settings" + tile + " --size 1100x720 --bench-frames 4") == 0,
          "--bench-frames with a tile: whole at fit, labels at 100 %, the pointer on tiles");
    check_tile_pin(chk, tc);
    for (const char* size : {"1100x720", "1400x900"}) check_tile_memory(chk, tc, size);
    check(chk, run(prefix + app + " --no-settings" + tile + " --view memory --size 1100x720 --bench-frames 4") == 0,
          "--bench-frames on the Memory tab's tile: the pointer on the tile's cells");
    const std::string out = dir + "/never-tile.png";
    std::remove(out.c_str());
    for (const char* bad : {"--waves 0x2", "--waves 2", "--tiles-per-wave 2x2x2", "--shape 100x100", "--shape 128x128x12",
                            "--waves 2x2 --pin D,300,0", "-i v_mfma_f32_4x4x4_16b_f16 --waves 2x2"})
        check(chk, run(prefix + app + " --no-settings -a gfx942 " + bad + " --screenshot " + out) == 2 && !exists(out),
              std::string("bad tile '") + bad + "': exit 2, no file");
}

// One screenshot of the fit check: the instruction, extra options, size, theme and colouring.
struct FitShot { const char* arch; const char* ins; const char* extra; const char* size; const char* theme; const char* color; };

// One panel screenshot of the fit check: tiles whole inside the panel with a margin, covering a good part
// of it, and (coloured by lane) every lane group's colour there. `n` numbers its file.
void check_fit_shot(Checks& chk, const FitShot& c, int n) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const ls::Catalog& cat = chk.cat;
    const std::string out = dir + "/fit-" + std::to_string(n) + "-" + c.ins + ".png";
    std::remove(out.c_str());
    const std::string cmd = prefix + app + " --no-settings --arch " + c.arch + " --instruction " + c.ins + " " + c.extra +
                            " --size " + c.size + " --theme " + c.theme + " --color-by " + c.color + " --panel --screenshot " + out;
    const std::string what = std::string(c.ins) + " " + c.extra + " at " + c.size + " (" + c.theme + ", " + c.color + ")";
    check(chk, run(cmd) == 0, "panel screenshot of " + what);
    int w = 0, h = 0, ch = 0;
    unsigned char* px = stbi_load(out.c_str(), &w, &h, &ch, 4);
    check(chk, px != nullptr, "PNG readable");
    if (!px) return;
    const ls::Theme theme = std::string(c.theme) == "dark" ? ls::Theme::Dark : ls::Theme::Light;
    const ls::Target& t = cat.find_target(c.arch);
    const ls::Instruction& ins = cat.find_instruction(t, c.ins);
    const std::string extra = c.extra;
    const int wave = extra.find("--wave 32") != std::string::npos ? 32
                     : extra.find("--wave 64") != std::string::npos ? 64
                     : ins.vendor() == ls::Vendor::NVIDIA ? (ins.kind == ls::LayoutKind::Wgmma ? 128 : 32) : t.default_wave;
    const bool by_lane = std::string(c.color) == "lane";
    const std::map<std::string, int> colours = tile_palette(by_lane ? &ins : nullptr, wave, theme);
    std::map<int, int> palette;  // pixels per lane group (or colour)
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    long tiles = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = px + (static_cast<long>(y) * w + x) * 4;
            auto it = colours.find(ls::Rgb{p[0], p[1], p[2]}.hex());
            if (it == colours.end()) continue;
            ++palette[it->second], ++tiles;
            x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
    stbi_image_free(px);
    // Tiles whole inside the panel: no tile pixel within 6 px of its edges.
    const int margin = 6;
    check(chk, x1 >= 0 && x0 >= margin && y0 >= margin && x1 < w - margin && y1 < h - margin,
          what + ": tiles inside the panel with a margin (tiles at x " + std::to_string(x0) + ".." + std::to_string(x1) +
                   ", y " + std::to_string(y0) + ".." + std::to_string(y1) + " in " + std::to_string(w) + "x" + std::to_string(h) + ")");
    // The picture uses the panel: its bounding box covers a good part of it, and it is not empty.
    const double box = x1 < 0 ? 0.0 : static_cast<double>(x1 - x0 + 1) * (y1 - y0 + 1) / (static_cast<double>(w) * h);
    check(chk, box >= 0.4 && tiles >= static_cast<long>(w) * h / 20,
          what + ": the tiles' bounding box covers " + std::to_string(static_cast<int>(box * 100)) + "% of the panel, tiles " +
                   std::to_string(static_cast<int>(100.0 * tiles / (static_cast<double>(w) * h))) + "%");
    if (by_lane) {
        int present = 0;
        std::string seen;
        // A tile colour covers many pixels; antialiased text can hit a palette colour in a few.
        int most = 0;
        for (const auto& kv : palette) most = std::max(most, kv.second);
        for (const auto& kv : palette)
            if (kv.second >= std::max(200, most / 50)) ++present, seen += " group " + std::to_string(kv.first) + ":" + std::to_string(kv.second);
        check(chk, present == ls::lane_groups(ins, wave), what + ": " + std::to_string(present) + " lane-group colours, expected " +
                                                           std::to_string(ls::lane_groups(ins, wave)) + " (" + seen + ")");
    }
}

// The layout panel of the catalog's largest and oddest instructions at 1000x650 .. 1400x900.
void check_fit(Checks& chk) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const FitShot shots[] = {
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", "", "1400x900", "light", "lane"},
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", "--cbsz 2", "1100x720", "dark", "lane"},
        {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", "", "1000x650", "light", "lane"},
        {"gfx950", "v_smfmac_i32_32x32x64_i8", "", "1100x720", "light", "lane"},
        {"gfx950", "v_smfmac_i32_32x32x64_i8", "--operand A,K", "1000x650", "dark", "lane"},
        {"gfx1200", "v_swmmac_i32_16x16x64_iu4", "--wave 64", "1400x900", "dark", "lane"},
        {"gfx1200", "v_swmmac_f32_16x16x32_f16", "", "1100x720", "light", "register"},
        {"gfx942", "v_mfma_f32_16x16x32_fp8_fp8", "", "1400x900", "light", "lane"},
        {"gfx942", "v_mfma_f32_4x4x4_16b_f16", "", "1000x650", "light", "lane"},
        {"gfx942", "v_mfma_f64_4x4x4_4b_f64", "", "1100x720", "dark", "block"},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", "--wave 32", "1100x720", "light", "lane"},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", "--wave 64 --registers", "1400x900", "light", "lane"},
        // The judged list: NVIDIA in PTX's groups (groupID hues, a warp's per wgmma), CDNA3 sparse, 2 blocks.
        {"sm_90a", "wgmma_m64n256k16_f32_f16", "", "1400x900", "light", "lane"},  // at 1100x720 the 2:1 cell shape limit leaves it 38 % of the panel
        {"sm_80", "mma_sp_m16n8k32_f32_f16", "", "1100x720", "light", "lane"},
        {"gfx942", "v_smfmac_f32_32x32x16_f16", "", "1100x720", "light", "lane"},
        {"gfx942", "v_mfma_f32_32x32x1_2b_f32", "", "1400x900", "dark", "lane"},
    };
    // Matrices wider than ImGui's 64-column table limit (A of 16x16x128) in the Inputs tab.
    check(chk, run(prefix + app + " --no-settings -a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --tab values --size 1000x650 --screenshot " +
                   dir + "/fit-values.png") == 0,
          "Inputs tab of a 16x128 A renders (tables in chunks of 32 columns)");
    int n = 0;
    for (const FitShot& c : shots) check_fit_shot(chk, c, n++);
}

// One instruction of the tabs check and the options that set up its Compare tab.
struct Cmp { const char* arch; const char* ins; const char* extra; };

// The Compare tab of `c` at `size`: both sides drawn whole and balanced, every lane group's colour, nothing
// at the window's edges or the status bar, a title above each side. `n` numbers its file.
void check_compare_shot(Checks& chk, const Cmp& c, const char* size, int n) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const ls::Catalog& cat = chk.cat;
    const std::string out = dir + "/tabs-" + std::to_string(n) + "-" + c.ins + ".png";
    std::remove(out.c_str());
    const std::string what = std::string(c.ins) + " compare at " + size;
    check(chk, run(prefix + app + " --no-settings -a " + c.arch + " -i " + c.ins + " " + c.extra + " --size " + size +
                   " --screenshot " + out) == 0,
          what + ": screenshot");
    int w = 0, h = 0, ch = 0;
    unsigned char* px = stbi_load(out.c_str(), &w, &h, &ch, 4);
    check(chk, px != nullptr, "PNG readable");
    if (!px) return;
    const ls::Target& t = cat.find_target(c.arch);
    const ls::Instruction& ins = cat.find_instruction(t, c.ins);
    const int wave = std::string(c.extra).find("--wave 64") != std::string::npos ? 64
                     : ins.vendor() == ls::Vendor::NVIDIA ? (ins.kind == ls::LayoutKind::Wgmma ? 128 : 32) : t.default_wave;
    const std::map<std::string, int> colours = tile_palette(&ins, wave, ls::Theme::Light);
    // Tiles only right of the side panel (at most 300 px, 28 % of the window, and its splitter).
    const int xs = std::min(300, w * 28 / 100) + 12;
    std::map<int, long> groups;
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    std::vector<std::pair<int, int>> hits;
    for (int y = 0; y < h; ++y)
        for (int x = xs; x < w; ++x) {
            const unsigned char* p = px + (static_cast<long>(y) * w + x) * 4;
            auto it = colours.find(ls::Rgb{p[0], p[1], p[2]}.hex());
            if (it == colours.end()) continue;
            ++groups[it->second];
            // A neutral grey (NVIDIA's groupID 7) is also a UI colour (separators, text): not placed by it.
            if (p[0] == p[1] && p[1] == p[2]) continue;
            hits.emplace_back(x, y);
            x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
    const int status_bar = 34;  // the status bar's line and text at the bottom
    check(chk, x1 >= 0 && x1 < w - 6 && y1 < h - status_bar,
          what + ": tiles inside the tab (x " + std::to_string(x0) + ".." + std::to_string(x1) + ", y " + std::to_string(y0) +
                   ".." + std::to_string(y1) + " in " + std::to_string(w) + "x" + std::to_string(h) + ")");
    long left = 0, right = 0, top = 0, bottom = 0;
    const double mx = 0.5 * (x0 + x1), my = 0.5 * (y0 + y1);
    for (const auto& xy : hits) (xy.first < mx ? left : right)++, (xy.second < my ? top : bottom)++;
    auto balanced = [](long a, long b) { return std::max(a, b) > 0 && std::abs(a - b) <= std::max(a, b) / 10; };
    check(chk, balanced(left, right) || balanced(top, bottom),
          what + ": both sides drawn whole (tile pixels left/right " + std::to_string(left) + "/" + std::to_string(right) +
                   ", top/bottom " + std::to_string(top) + "/" + std::to_string(bottom) + ")");
    int present = 0;
    long most = 0;
    for (const auto& kv : groups) most = std::max(most, kv.second);
    for (const auto& kv : groups) present += kv.second >= std::max(100L, most / 50);
    check(chk, present == ls::lane_groups(ins, wave),
          what + ": " + std::to_string(present) + " lane-group colours, expected " + std::to_string(ls::lane_groups(ins, wave)));
    // Titles: dark text in the band just above the tiles, on both sides' halves.
    // Stacked when no tile crosses the middle row of the tiles' box (side by side: the middle column).
    long on_row = 0, on_col = 0;
    for (const auto& xy : hits) on_row += xy.second == static_cast<int>(my), on_col += xy.first == static_cast<int>(mx);
    const bool stacked = balanced(top, bottom) && (!balanced(left, right) || on_row < on_col);
    int second_y0 = h;  // the bottom side's first tile row
    for (const auto& xy : hits)
        if (xy.second > my) second_y0 = std::min(second_y0, xy.second);
    auto text_in = [&](int bx0, int bx1, int by0, int by1) {
        long dark = 0;
        for (int y = std::max(0, by0); y < std::min(h, by1); ++y)
            for (int x = std::max(0, bx0); x < std::min(w, bx1); ++x) {
                const unsigned char* p = px + (static_cast<long>(y) * w + x) * 4;
                dark += p[0] < 90 && p[1] < 90 && p[2] < 90;
            }
        return dark;
    };
    const int mid_x = static_cast<int>(mx);
    const long t1 = stacked ? text_in(xs, w, y0 - 60, y0) : text_in(xs, mid_x, y0 - 60, y0);
    const long t2 = stacked ? text_in(xs, w, second_y0 - 60, second_y0) : text_in(mid_x, w, y0 - 60, y0);
    check(chk, t1 >= 40 && t2 >= 40, what + ": a title above each side (" + std::to_string(t1) + ", " + std::to_string(t2) + " text pixels)");
    stbi_image_free(px);
}

// A scaled MFMA's SA and SB, whose own cells are as small as A's rows and B's columns, are drawn
// enlarged in the free corner above A and left of B: many cells of their lanes' colours there
// (SA 16x4 and SB 4x16 of at least 8x8 px), where the GEMM picture alone leaves it empty.
void check_scaled_corner(Checks& chk, const char* size) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const ls::Catalog& cat = chk.cat;
    const std::string out = dir + "/tabs-scale-" + size + ".png";
    std::remove(out.c_str());
    check(chk, run(prefix + app + " --no-settings -a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 --cbsz 4 --blgp 4 --size " + size +
                   " --panel --screenshot " + out) == 0,
          std::string("scaled MFMA layout panel at ") + size);
    int w = 0, h = 0, ch = 0;
    if (unsigned char* px = stbi_load(out.c_str(), &w, &h, &ch, 4)) {
        const ls::Instruction& ins = cat.find_instruction(cat.find_target("gfx950"), "v_mfma_scale_f32_16x16x128_f8f6f4");
        const std::map<std::string, int> colours = tile_palette(&ins, 64, ls::Theme::Light);
        long corner = 0;
        for (int y = 0; y < h / 2; ++y)
            for (int x = 0; x < w * 3 / 5; ++x) {
                const unsigned char* p = px + (static_cast<long>(y) * w + x) * 4;
                corner += colours.count(ls::Rgb{p[0], p[1], p[2]}.hex());
            }
        check(chk, corner >= 2 * 64 * 8 * 8, std::string(size) + ": SA and SB enlarged in the corner above A (" + std::to_string(corner) +
                                                 " pixels of lane colours in the panel's top-left)");
        stbi_image_free(px);
    } else {
        check(chk, false, "PNG readable");
    }
}

// The "Inputs and D" tab of `c` at `size`: A, B, C on the left and D on the right, D's table in view.
// `n` numbers its file.
void check_values_shot(Checks& chk, const Cmp& c, const char* size, int n) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const std::string out = dir + "/tabs-values-" + std::to_string(n) + "-" + c.ins + ".png";
    std::remove(out.c_str());
    const std::string what = std::string(c.ins) + " Inputs and D at " + size;
    check(chk, run(prefix + app + " --no-settings -a " + c.arch + " -i " + c.ins + " --tab values --size " + size + " --screenshot " +
                   out) == 0,
          what + ": screenshot");
    int w = 0, h = 0, ch = 0;
    unsigned char* px = stbi_load(out.c_str(), &w, &h, &ch, 4);
    check(chk, px != nullptr && w > 0, "PNG readable");
    if (!px) return;
    // Text (values) in the right third of the window, from near the top to the lower half: D's table is in view.
    long upper = 0, lower = 0;
    for (int y = 60; y < h - 40; ++y)
        for (int x = 2 * w / 3; x < w - 4; ++x) {
            const unsigned char* p = px + (static_cast<long>(y) * w + x) * 4;
            (y < h / 2 ? upper : lower) += p[0] < 90 && p[1] < 90 && p[2] < 90;
        }
    check(chk, upper >= 300 && lower >= 100, what + ": D's table in view on the right (" + std::to_string(upper) + " / " +
                                                  std::to_string(lower) + " text pixels, upper / lower half)");
    stbi_image_free(px);
}

// The Compare and "Inputs and D" tabs of the judged instructions at 1100x720 and 1400x900. Compare
// puts an instruction beside itself on another target with the same placement, so both sides
// must draw the same picture: their tile pixels balance (left vs right, or top vs bottom when
// stacked), every lane group's colour is there, nothing reaches the window's edges or the status
// bar, and each side has a title line (text pixels) above its tiles.
void check_tabs(Checks& chk) {
    const Cmp cmps[] = {
        {"gfx942", "v_smfmac_f32_32x32x16_f16", "--compare-arch gfx950"},
        {"gfx942", "v_mfma_f32_32x32x1_2b_f32", "--compare-arch gfx950"},
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", "--compare-arch gfx950"},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", "--wave 64 --compare-arch gfx1100 --compare-wave 64"},
        {"sm_80", "mma_sp_m16n8k32_f32_f16", "--compare-arch sm_90"},
        {"sm_90a", "wgmma_m64n256k16_f32_f16", "--compare-arch sm_90a"},
    };
    int n = 0;
    for (const char* size : {"1100x720", "1400x900"}) {
        for (const Cmp& c : cmps) check_compare_shot(chk, c, size, n++);
        check_scaled_corner(chk, size);
        for (const Cmp& c : cmps) check_values_shot(chk, c, size, n++);
    }
}

// "Verify on GPU" with the software device before the screenshot: the green overlay, red cells for a
// corrupted layout, and bad --verify / --corrupt refused.
void check_verify(Checks& chk) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    // The overlay's outline colours (app/model/verify_overlay.hpp; not in the tile palette).
    const ls::Rgb ok{20, 160, 60}, wrong{215, 25, 28};
    const std::string base = prefix + app + " --arch gfx942 --instruction v_mfma_f32_16x16x16_f16 --size 900x600";
    const std::string out = dir + "/verify-software.png", bad = dir + "/verify-corrupt.png",
                      never = dir + "/verify-never.png";
    for (const std::string& f : {out, bad, never}) std::remove(f.c_str());
    check(chk, run(base + " --verify software --screenshot " + out) == 0, "screenshot with --verify software");
    check(chk, exists(out), "PNG written: " + out);
    int w = 0, h = 0, n = 0;
    if (unsigned char* px = stbi_load(out.c_str(), &w, &h, &n, 4)) {
        check(chk, w == 900 && h == 600, "PNG is 900x600");
        check(chk, pixels_of(px, w, h, ok) > 1000, "green overlay drawn (" + std::to_string(pixels_of(px, w, h, ok)) + " px)");
        check(chk, pixels_of(px, w, h, wrong) == 0, "no red cells when verification passes");
        stbi_image_free(px);
    } else {
        check(chk, false, "PNG readable");
    }
    check(chk, run(base + " --verify software --corrupt A:swap-lanes:0:1 --screenshot " + bad) == 0,
          "screenshot with a corrupted layout");
    if (unsigned char* px = stbi_load(bad.c_str(), &w, &h, &n, 4)) {
        check(chk, pixels_of(px, w, h, wrong) > 100, "red cells drawn (" + std::to_string(pixels_of(px, w, h, wrong)) + " px)");
        stbi_image_free(px);
    } else {
        check(chk, false, "corrupt PNG readable");
    }
    // With no AMD GPU the control says why and everything else works: still a picture, status 0.
    const std::string hip = dir + "/verify-auto.png";
    std::remove(hip.c_str());
    check(chk, run(base + " --verify auto --screenshot " + hip) == 0 && exists(hip), "--verify auto: a picture with or without a GPU");
    check(chk, run(base + " --verify nonsense --screenshot " + never) != 0 && !exists(never), "bad --verify: non-zero exit, no file");
    check(chk, run(base + " --corrupt A:swap-lanes:0:1 --screenshot " + never) != 0 && !exists(never),
          "--corrupt without --verify: non-zero exit, no file");
    check(chk, run(base + " --verify software --corrupt K:shift-regs --screenshot " + never) != 0 && !exists(never),
          "--corrupt of an operand the instruction lacks: non-zero exit, no file");
}

// The whole window at the size asked for, and the layout panel with D alone: as many tile colours as lane
// groups. `mode` (xvfb or egl) names the files.
void check_window_and_panel(Checks& chk, const std::string& mode) {
    const std::string &app = chk.app, &prefix = chk.prefix, &dir = chk.dir;
    const ls::Catalog& cat = chk.cat;
    struct Case { const char* arch; const char* ins; int wave; const char* theme; };
    const Case cases[] = {{"gfx942", "v_mfma_f32_4x4x4_16b_f16", -1, "light"},
                          {"gfx942", "v_mfma_f32_32x32x8_f16", -1, "dark"},
                          {"gfx942", "v_smfmac_f32_16x16x32_f16", -1, "light"},
                          {"gfx1100", "v_wmma_f32_16x16x16_f16", 64, "light"}};
    for (const Case& c : cases) {
        const std::string out = dir + "/" + mode + "-" + c.ins + "-" + c.arch + ".png";
        std::remove(out.c_str());
        std::string cmd = prefix + app + " --arch " + c.arch + " --instruction " + c.ins + " --theme " + c.theme +
                          " --size 900x600";
        if (c.wave > 0) cmd += " --wave " + std::to_string(c.wave);
        // The whole window at the size asked for.
        check(chk, run(cmd + " --screenshot " + out) == 0, std::string("screenshot of ") + c.ins);
        int w = 0, h = 0, n = 0;
        unsigned char* px = stbi_load(out.c_str(), &w, &h, &n, 4);
        check(chk, px != nullptr, "PNG readable");
        if (!px) continue;
        check(chk, w == 900 && h == 600, "PNG is 900x600 (got " + std::to_string(w) + "x" + std::to_string(h) + ")");
        stbi_image_free(px);
        // The layout panel alone, with only D in it: count its tile colours.
        std::remove(out.c_str());
        check(chk, run(cmd + " --operand D --panel --screenshot " + out) == 0, std::string("panel screenshot of ") + c.ins);
        px = stbi_load(out.c_str(), &w, &h, &n, 4);
        check(chk, px != nullptr && w > 300 && w < 900 && h > 300 && h < 600, "panel PNG smaller than the window");
        if (!px) continue;
        const ls::Target& t = cat.find_target(c.arch);
        const ls::Instruction& ins = cat.find_instruction(t, c.ins);
        const int wave = c.wave > 0 ? c.wave : t.default_wave;
        const int expect = ls::lane_groups(ins, wave);
        const int got = palette_colours(px, w, h, tile_palette(&ins, wave, std::string(c.theme) == "dark" ? ls::Theme::Dark : ls::Theme::Light), 40);
        check(chk, got == expect, std::string(c.ins) + ": " + std::to_string(got) + " tile colours, lane groups " + std::to_string(expect));
        stbi_image_free(px);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s LANESCOPE xvfb|egl|errors|fit|tabs|tile|verify|window|smem OUTDIR\n", argv[0]);
        return 2;
    }
    const std::string app = argv[1], mode = argv[2], dir = argv[3];
    mkdir(dir.c_str(), 0755);
    const std::string prefix = mode == "xvfb" ? "xvfb-run -a -s '-screen 0 1280x800x24' " : "env -u DISPLAY -u WAYLAND_DISPLAY ";
    Checks chk{app, prefix, dir, ls::Catalog::builtin()};
    if (mode == "errors") check_errors(chk);
    else if (mode == "smem") check_smem(chk);
    else if (mode == "window") check_window(chk);
    else if (mode == "tile") check_tile(chk);
    else if (mode == "fit") check_fit(chk);
    else if (mode == "tabs") check_tabs(chk);
    else if (mode == "verify") check_verify(chk);
    else check_window_and_panel(chk, mode);
    return chk.failures ? 1 : 0;
}
