// Subcommands for documentation figures: `figure` (one layout as
// SVG, TikZ or PNG) and `gallery` (every instruction as SVG plus index.html).
#include "common.hpp"

#include <algorithm>

#ifdef LANESCOPE_HAVE_FIGURES
#include "lanescope/figures.hpp"
#include "lanescope/scale_factor_figure.hpp"
#include "lanescope/files.hpp"
#include "lanescope/limits.hpp"
#include "lanescope/blackwell.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#endif

namespace lscli {


#ifdef LANESCOPE_HAVE_FIGURES
namespace {

namespace fig = lanescope::figures;

struct FigureOptions {
    std::string view = "matrix", color = "lane", theme = "light", format, out;
    double scale = 2.0;
    std::string width, min_font = "5pt";
    std::string highlight, crop, height;  // figure --highlight, --crop, --height (layout figures)
    bool bench = false;
    std::string match;
    MemoryArgs memory;  // figure --memory ...: the memory view
    int issue = 0;
    bool memory_mode = false;
    bool hover_titles = false;  // svg: each tile's element and location as its <title>
    bool svg = false;           // gallery: the SVG file gallery instead of the site
    std::string site;           // gallery: the built web site to write (default: found beside this program)
};

// Without --format, the file name decides (in any case): .png, .tex, else SVG; an extension that names
// another picture or document format (.pdf, .jpg, ...) is refused rather than given SVG it does not name.
std::string format_from_name(const std::string& out) {
    const size_t slash = out.find_last_of('/');
    const std::string base = slash == std::string::npos ? out : out.substr(slash + 1);
    const size_t dot = base.find_last_of('.');
    if (dot == std::string::npos || dot == 0) return "svg";
    std::string ext = base.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == "png") return "png";
    if (ext == "tex") return "tikz";
    for (const char* other : {"pdf", "eps", "ps", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff", "html", "htm"})
        if (ext == other)
            throw UsageError("-o " + out + ": figure writes SVG, PNG or TikZ, and '." + base.substr(dot + 1) +
                             "' names another format; legal: a name ending .svg, .png or .tex (any case), or --format "
                             "svg|png|tikz");
    return "svg";
}

int write_figure(const FigureHooks& hooks, const FigureOptions& fo, fig::FigureFormat format, const fig::Figure& f);

// `figure --memory smem --operand SFA|SFB` of a block-scaled tcgen05.mma: the scale factors' bytes in
// shared memory (lanescope/scale_factor_figure.hpp); -1 for any other operand.
int scale_factor_figure(const Options& o, const FigureOptions& fo, fig::FigureFormat format) {
    if (o.operand == "all" || o.operand == "ALL") return -1;
    Options plain = o;
    plain.mods = ls::Modifiers{};
    plain.mods.wave = o.mods.wave;
    const Resolved r = resolve(plain);
    const ls::Operand op = parse_operand_or_throw(o.operand, *r.ins);
    if (r.ins->kind != ls::LayoutKind::Tcgen05Mma || (op != ls::Operand::SA && op != ls::Operand::SB)) return -1;
    const auto extra = given_options_except(o, {"--arch", "--instruction", "--operand", "--memory", "--catalog", "--wave",
                                                "--format", "--out", "--theme", "--scale", "--width", "--min-font",
                                                "--hover-titles"});
    if (!extra.empty())
        throw UsageError(extra.front() + " does not apply to the scale factors in shared memory (no descriptor reads "
                         "them: tcgen05.cp copies them); legal with figure --memory smem --operand SFA|SFB: --theme, "
                         "--width, --min-font, --scale, --hover-titles");
    fig::ScaleFactorFigureSpec spec;
    spec.query = r.query;
    spec.tile = ls::scale_factor_tile(*r.ins, op);
    spec.theme = fig::parse_theme(fo.theme);
    spec.hover_titles = fo.hover_titles;
    const double width_pt = fig::parse_width_pt(fo.width.empty() ? (format == fig::FigureFormat::Tikz ? "column" : "natural") : fo.width);
    if (width_pt > 0) {
        spec.fit_width = width_pt / fig::pt_per_unit(format);
        spec.min_font = fig::parse_font_pt(fo.min_font) / fig::pt_per_unit(format);
    }
    return write_figure(o.figure, fo, format, fig::build_scale_factor_figure(spec));
}

int cmd_figure(const Options& o, const FigureOptions& fo) {
    if (fo.out.empty()) throw UsageError("figure needs -o FILE (the .svg, .tex or .png to write; - for stdout)");
    const fig::FigureFormat format = fig::parse_figure_format(fo.format.empty() ? format_from_name(fo.out) : fo.format);
    Resolved r = resolve(o);
    if (fo.hover_titles && format != fig::FigureFormat::Svg)
        throw ls::Error("--hover-titles is written by SVG only (a <title> per tile); legal: --format svg or an .svg name");
    // A wgmma / tcgen05.mma operand read through a shared-memory descriptor: the tile as the descriptor lays it out.
    if (fo.memory_mode && smem_load_requested(o, fo.memory, o.sub)) {
        const std::vector<std::string> allowed = {"--arch", "--instruction", "--operand", "--memory", "--major", "--swizzle",
                                                  "--lbo", "--sbo", "--smem-address", "--base-offset", "--descriptor",
                                                  "--catalog", "--wave", "--format", "--out", "--theme", "--scale",
                                                  "--width", "--min-font", "--hover-titles"};
        const auto extra = given_options_except(o, allowed);
        if (!extra.empty())
            throw UsageError(extra.front() + " does not apply to a shared-memory operand read through a matrix descriptor "
                             "(no thread issues loads for it); legal with figure --memory smem: --major K|MN, --swizzle "
                             "none|32B|64B|128B|128B_base32B, --lbo, --sbo, --smem-address, --base-offset, --descriptor 0x..., "
                             "--theme, --width, --min-font, --scale, --hover-titles");
        if (const int rc = scale_factor_figure(o, fo, format); rc >= 0) return rc;
        fig::SmemFigureSpec spec;
        SmemPick pick = pick_smem_operand(o, fo.memory);
        spec.query = pick.r.query;
        spec.operand = std::move(pick.so);
        spec.theme = fig::parse_theme(fo.theme);
        spec.hover_titles = fo.hover_titles;
        const double width_pt = fig::parse_width_pt(fo.width.empty() ? (format == fig::FigureFormat::Tikz ? "column" : "natural") : fo.width);
        const double min_pt = fig::parse_font_pt(fo.min_font);
        if (width_pt > 0) {
            spec.fit_width = width_pt / fig::pt_per_unit(format);
            spec.min_font = min_pt / fig::pt_per_unit(format);
        }
        return write_figure(o.figure, fo, format, fig::build_smem_figure(spec));
    }
    if (fo.memory_mode && (!fo.highlight.empty() || !fo.crop.empty() || !fo.height.empty()))
        throw ls::Error(std::string(!fo.highlight.empty() ? "--highlight" : !fo.crop.empty() ? "--crop" : "--height") +
                        " applies to the layout figures, not to the memory figure; legal: leave out the memory options");
    if (fo.hover_titles && fo.memory_mode)
        throw ls::Error("--hover-titles applies to the layout figures and the shared-memory figure of a wgmma / tcgen05.mma "
                        "operand, not to the load-plan memory figure; legal: leave out the memory options");
    if (fo.memory_mode) {
        if (o.operand == "all" || o.operand == "ALL")
            throw ls::Error("a memory figure draws one operand (--operand A, B, C or D), not all");
        if (fo.view != "matrix" || fo.color != "lane")
            throw ls::Error("a memory figure colours cells by the reading lane's group; --view and --color are legal only "
                            "without the memory options");
        fig::MemoryFigureSpec spec;
        spec.query = r.query;
        spec.request = memory_request(o, fo.memory, r);
        spec.issue = fo.issue;
        spec.theme = fig::parse_theme(fo.theme);
        const double width_pt = fig::parse_width_pt(fo.width.empty() ? (format == fig::FigureFormat::Tikz ? "column" : "natural") : fo.width);
        const double min_pt = fig::parse_font_pt(fo.min_font);
        if (width_pt > 0) {
            spec.fit_width = width_pt / fig::pt_per_unit(format);
            spec.min_font = min_pt / fig::pt_per_unit(format);
        }
        return write_figure(o.figure, fo, format, fig::build_memory_figure(spec));
    }
    // Tile options parsed (and refused) before anything is drawn or written.
    const std::optional<ls::TileParams> tile = tile_mode(o) ? std::optional<ls::TileParams>(tile_params(o)) : std::nullopt;
    fig::FigureSpec spec;
    spec.ins = r.ins;
    spec.target = r.target;
    spec.mods = r.query.mods;
    spec.view = parse_view(fo.view);
    spec.color = fig::parse_color_by(fo.color);
    spec.theme = fig::parse_theme(fo.theme);
    spec.tile = tile;
    spec.hover_titles = fo.hover_titles;
    spec.highlight = fo.highlight;
    spec.crop = fo.crop;
    if (o.operand == "all" || o.operand == "ALL") {
        // A, B and D as a GEMM, those of them the instruction has (wgmma reads B from memory; ldmatrix has only D).
        const auto has = ls::operands_of(*r.ins);
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D})
            if (std::find(has.begin(), has.end(), op) != has.end()) spec.operands.push_back(op);
        // A scaled instruction's SA and SB: a row of their own under the GEMM (one instruction only).
        if (!tile && spec.operands.size() == 3 && spec.view == ls::View::Matrix)
            for (ls::Operand op : {ls::Operand::SA, ls::Operand::SB})
                if (std::find(has.begin(), has.end(), op) != has.end()) spec.operands.push_back(op);
    }
    else
        spec.operands = {parse_operand_or_throw(o.operand, *r.ins)};
    if (tile) {  // every cell is drawn and held while drawn: bounded before any work
        long long placements = 0;
        for (ls::Operand op : spec.operands)
            placements += ls::tile_placements(ls::TileLayout(*r.ins, *r.target, op, r.query.mods, *tile));
        const long long page_limit = o.figure.page_limit;
        if (page_limit > 0 && placements > page_limit)
            throw ls::Error("a figure of this tile draws " + std::to_string(placements) +
                            " cells (elements x their copies, over the operands drawn); the web page draws at most " +
                            std::to_string(page_limit) +
                            " (each cell is hit-tested and outlined in the tab; the SVG, PNG and TikZ downloads and "
                            "lanescope-cli figure draw up to " + std::to_string(ls::kMaxFigurePlacements) +
                            "); legal: a smaller --shape (e.g. a 512x512 C/D), fewer --waves, "
                            "or `layout` for the text");
        if (placements > ls::kMaxFigurePlacements)
            throw ls::Error("a figure of this tile draws " + std::to_string(placements) +
                            " cells (elements x their copies, over the operands drawn); figure draws at most " +
                            std::to_string(ls::kMaxFigurePlacements) +
                            " (every cell is held while drawn); legal: a smaller --shape (e.g. a 1024x1024 C/D or a "
                            "512x512x256 GEMM), fewer --waves, or `layout` for the text");
    }
    // TikZ goes into papers: by default it is fitted to a column; SVG and PNG
    // keep their natural size unless asked.
    const double width_pt = fig::parse_width_pt(fo.width.empty() ? (format == fig::FigureFormat::Tikz ? "column" : "natural") : fo.width);
    const double min_pt = fig::parse_font_pt(fo.min_font);
    if (width_pt > 0) {
        spec.fit_width = width_pt / fig::pt_per_unit(format);
        spec.min_font = min_pt / fig::pt_per_unit(format);
    }
    // A page's height: one instruction's all-operands TikZ picture fitted to a width is laid out
    // to fit one (figure_page.cpp says how); any other figure with --height.
    const bool all_ops = (o.operand == "all" || o.operand == "ALL") && !tile;
    const double height_pt = fig::parse_height_pt(
        fo.height.empty() ? (format == fig::FigureFormat::Tikz && all_ops && width_pt > 0 ? "page" : "none") : fo.height);
    if (height_pt > 0 && width_pt <= 0)
        throw ls::Error("--height " + fo.height + " fits a figure laid out for a printed width; legal: with --width column, page or "
                        "a length (TikZ's default is column)");
    spec.fit_height = height_pt / fig::pt_per_unit(format);
    const fig::Figure f = fig::build_figure(spec);
    if (f.page_fit.applied && !o.figure.drawn_only)
        std::fprintf(stderr, "lanescope-cli: note: %s\n", fig::page_fit_note(f, format).c_str());
    return write_figure(o.figure, fo, format, f);
}

int write_figure(const FigureHooks& hooks, const FigureOptions& fo, fig::FigureFormat format, const fig::Figure& f) {
    if (hooks.drawn) {
        hooks.drawn(f);
        if (hooks.drawn_only) return 0;
    }
    std::string bytes;
    switch (format) {
        case fig::FigureFormat::Svg: bytes = fig::to_svg(f); break;
        case fig::FigureFormat::Tikz: bytes = fig::to_tikz(f); break;
        case fig::FigureFormat::Png: {
            if (!(fo.scale > 0 && fo.scale <= 8)) throw ls::Error("--scale must be in (0, 8]");
            // PNGs are drawn at most 8192 pixels a side (64M pixels: under 10 s and 2 GB, docs/limits.md):
            // say so when that lowers the scale asked for.
            const double fits = std::min(8192 / std::max(1.0, f.width), 8192 / std::max(1.0, f.height));
            if (fits < fo.scale)
                err_printf(
                             "lanescope-cli: note: --scale %g lowered to %.3g: this figure (%.0f x %.0f) would exceed "
                             "8192 pixels a side, the most a PNG is drawn at; an SVG (-o FILE.svg) has no such limit\n",
                             fo.scale, fits, f.width, f.height);
            const std::vector<std::uint8_t> png = fig::to_png(f, std::min(fo.scale, fits));
            bytes.assign(png.begin(), png.end());
            break;
        }
    }
    ls::files::write_output(fo.out, bytes);
    return 0;
}

// The built web site (scripts/web.sh's build-web/site/): --site, else $LANESCOPE_SITE, else beside
// this program: the build tree's build-web/site (build/cli/lanescope-cli) or an install's
// share/lanescope/site (bin/lanescope-cli). "" when none holds the page and its engine.
std::string find_site(const std::string& given) {
    namespace fs = std::filesystem;
    auto complete = [](const fs::path& d) {
        std::error_code ec;
        for (const char* f : {"index.html", "gallery.html", "lanescope.js", "lanescope.wasm"})
            if (!fs::is_regular_file(d / f, ec)) return false;
        return true;
    };
    if (!given.empty()) return complete(given) ? given : "";
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("LANESCOPE_SITE"); env && *env) candidates.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && own_process()) {  // in process, /proc/self/exe is the host (the interpreter)
        const fs::path bin = exe.parent_path();
        candidates.push_back(bin.parent_path().parent_path() / "build-web" / "site");
        candidates.push_back(bin.parent_path() / "build-web" / "site");
        candidates.push_back(bin.parent_path() / "share" / "lanescope" / "site");
    }
    for (const fs::path& c : candidates)
        if (complete(c)) return c.string();
    return "";
}

// Whether any instruction of the catalog (Blackwell's spellings included) is kept by --match TEXT.
bool any_instruction_matches(const ls::Catalog& cat, const std::string& match) {
    for (const ls::Instruction& ins : cat.instructions())
        for (int wave : {32, 64})
            if (fig::gallery_matches(ins, wave, match)) return true;
    for (const ls::Instruction& ins : ls::blackwell_spellings())
        if (fig::gallery_matches(ins, 32, match)) return true;
    return false;
}

int cmd_gallery(const Options& o, const FigureOptions& fo) {
    if (!fo.bench && fo.out.empty()) throw UsageError("gallery needs -o DIR (or --bench to render in memory only)");
    if (fo.svg || fo.bench) {
        if (!fo.site.empty()) throw UsageError("gallery: --site is the web site's; --svg and --bench draw the SVG file gallery");
        const fig::GalleryStats st =
            fig::write_gallery(catalog(o), fo.bench ? std::string() : fo.out, fig::parse_theme(fo.theme), fo.match);
        out_printf("%s %zu instruction rows, %zu SVG figures (%zu modifier variants, %zu of tiles of many waves), %zu tiles, "
                    "%.1f MB in %.2f s%s%s\n",
                    fo.bench ? "rendered (in memory)" : "wrote", st.instructions, st.figures, st.variants, st.tile_figures,
                    st.tiles, st.bytes / 1e6, st.seconds, fo.bench ? "" : " to ", fo.bench ? " (goal < 10 s on one core)" : fo.out.c_str());
        return 0;
    }
    // The gallery is the web site (docs/web.md): the page, gallery.html (the index of every
    // instruction, previews drawn by the engine in the browser) and the engine, plus the index as
    // a file (`list --format json`, what gallery.html lists).
    if (fo.theme != "light") throw UsageError("gallery: --theme is the SVG gallery's (--svg); the site follows the browser");
    const std::string site = find_site(fo.site);
    if (site.empty())
        throw UsageError(fo.site.empty()
                             ? "gallery: the web site is not built here (no build-web/site beside this program, no "
                               "$LANESCOPE_SITE); build it with scripts/web.sh, or pass --site DIR; gallery --svg writes the "
                               "SVG file gallery instead"
                             : "gallery: --site '" + fo.site + "' is not a built site (it needs index.html, gallery.html, "
                               "lanescope.js and lanescope.wasm: scripts/web.sh builds build-web/site/)");
    namespace fs = std::filesystem;
    if (!fo.match.empty() && !any_instruction_matches(catalog(o), fo.match))
        throw ls::Error("--match '" + fo.match + "' matches no instruction (mnemonic or builtin name); nothing written; "
                        "legal: part of a name that `lanescope-cli list` shows, e.g. 32x32x8");
    // What is published is the site's own files: a symbolic link in it is never followed.
    for (const auto& e : fs::directory_iterator(site))
        if (e.is_symlink())
            throw ls::Error("gallery: --site '" + site + "' holds a symbolic link, '" + e.path().filename().string() +
                            "', which is not followed out of the site; nothing written; legal: a built site "
                            "(scripts/web.sh writes regular files only)");
    fs::path final_dir(fo.out);
    if (final_dir.filename().empty()) final_dir = final_dir.parent_path();
    ls::files::DirectoryWriter out(final_dir.string(), ".lanescope-gallery");
    size_t bytes = 0, count = 0;
    for (const auto& e : fs::directory_iterator(site)) {
        if (e.is_symlink() || !e.is_regular_file()) continue;
        const std::string data = ls::files::read_file(e.path().string());
        out.write(e.path().filename().string(), data);
        bytes += data.size(), ++count;
    }
    const std::string index = ls::render_list(catalog(o), list_targets(catalog(o), ""), ls::Format::Json, "");
    out.write("instructions.json", index);
    bytes += index.size(), ++count;
    out.commit();
    std::string open = final_dir.string() + "/gallery.html";
    if (!fo.match.empty()) open += "#q=" + fo.match;
    out_printf("wrote the gallery site to %s: %zu files, %.1f MB (the page, gallery.html, the engine, instructions.json); "
                "serve it over HTTP, e.g. python3 -m http.server -b 127.0.0.1 -d %s 8028, and open %s (browsers do not "
                "run WebAssembly from file://)\n",
                final_dir.c_str(), count, bytes / 1e6, final_dir.c_str(), open.c_str());
    return 0;
}

}  // namespace
#endif

void register_figure_commands(CLI::App& app, Options& o, std::vector<Command>& out) {
#ifdef LANESCOPE_HAVE_FIGURES
    // The arguments belong to this command line: its runs (in `out`) own them, CLI11 writes into them.
    const auto args = std::make_shared<FigureOptions>();
    FigureOptions& fo = *args;
    if (registers(o, "figure")) {
        CLI::App* figure = app.add_subcommand(
            "figure", "draw one operand (or A, B, D with --operand all) as SVG, TikZ or PNG: -o FILE; with --memory (or any "
            "memory option) the operand's tile in memory, its loads and LDS banks");
        if (sets_up(o, "figure")) {
            figure->add_option("-a,--arch", o.arch,
                               "architecture (required): family (cdna3, hopper), gfx or sm id (gfx942, sm_90) or product (mi300x, h100)");
            figure->add_option("-i,--instruction", o.instruction,
                               "ISA mnemonic (either spelling) or builtin name; NVIDIA: PTX spelling or short name (required)");
            figure->add_option("--operand", o.operand, "A, B, C, D, K (sparse index), SA, SB (SFA, SFB), or all (A, B and D as a GEMM; a scaled MFMA adds SA and SB under it)")
                ->capture_default_str();
            add_modifier_options(figure, o);
            add_tile_options(figure, o);
            figure->add_option("--view", fo.view, "matrix (one tile per element and location) or registers (lanes x VGPRs)")
                ->capture_default_str();
            figure->add_option("--color,--color-by", fo.color, "colour tiles by lane (lane group), register or block")
                ->capture_default_str();
            figure->add_option("--theme", fo.theme, "light or dark")->capture_default_str();
            figure->add_option("-f,--format", fo.format, "svg, tikz or png (default: from the -o name: .png, .tex, else svg)");
            figure->add_option("-o,--out", fo.out, "file to write (written atomically; - for stdout)")->required();
            add_double_option(figure, "--scale", fo.scale, 0.1, 8, "png: pixels per SVG unit, 0.1..8 (default 2)");
            figure->add_option("--width", fo.width,
                               "fit to a printed width: column (240pt), page (500pt), a length (246pt, 3.4in, 8.5cm) or natural; "
                               "default: column for tikz, natural for svg/png");
            figure->add_option("--min-font", fo.min_font, "with --width: smallest font size drawn (tile labels that need less are left out)")
                ->capture_default_str();
            figure->add_option("--highlight", fo.highlight,
                               "outline what the text talks about, the rest dimmed: comma-separated D[77][130] (A[b1][3][5] on "
                               "multi-block instructions), A[3][*] (a row), B[*][5] (a column), lane:5 (lane:77@cta1 in a "
                               "cta_group::2 pair), reg:2 (TMEM: column 2)");
            figure->add_option("--crop", fo.crop,
                               "draw only a window of the operand: ROWSxCOLS@R,C (rows R..R+ROWS-1, columns C..C+COLS-1; "
                               "indices stay the operand's)");
            figure->add_option("--height", fo.height,
                               "with --width: the tallest the figure may be, page (650pt), a length or none; a taller one is "
                               "laid out to fit (scale rows side by side, then narrower) and says so on stderr; default: page "
                               "for tikz of one instruction's --operand all, else none");
            figure->add_flag("--hover-titles", fo.hover_titles,
                             "svg: each tile's element and location, in full, as its <title> (shown under the pointer in a "
                             "browser or notebook)");
            // The memory view (docs/memory.md): any memory option draws it instead of the layout.
            add_memory_options(figure, fo.memory);
            add_int_option(figure, "--issue", fo.issue, 0, 1 << 20,
                           "memory figure: the wave-level instruction whose LDS banks (or coalescing) are drawn (default 0)");
        }
        out.push_back({figure, [&o, figure, args] {
                           args->memory_mode = memory_options_given(figure) || figure->get_option("--issue")->count() > 0;
                           return cmd_figure(o, *args);
                       }});
    }
    if (!registers(o, "gallery")) return;

    CLI::App* gallery = app.add_subcommand(
        "gallery", "the web site (docs/web.md) with gallery.html, the index of every instruction drawn live in the browser: "
                   "-o DIR; --svg: every instruction as SVG figures plus index.html instead (opens from the file system)");
    if (sets_up(o, "gallery")) {
        gallery->add_option("-o,--out", fo.out, "directory to create (or a previous gallery to replace)");
        gallery->add_option("--site", fo.site, "the built web site to write (default: build-web/site beside this program, or $LANESCOPE_SITE)");
        gallery->add_flag("--svg", fo.svg, "the SVG file gallery: every instruction as SVG figures plus index.html");
        gallery->add_option("--theme", fo.theme, "--svg: light or dark")->capture_default_str();
        gallery->add_option("--match", fo.match,
                            "only instructions whose mnemonic or builtin contains TEXT (--svg: a partial gallery; the site: "
                            "the link that opens gallery.html filtered)");
        gallery->add_flag("--bench", fo.bench, "render the SVG gallery in memory, write nothing, print the time");
    }
    out.push_back({gallery, [&o, args] { return cmd_gallery(o, *args); }});
#else
    (void)app;
    (void)o;
    (void)out;
#endif
}

}  // namespace lscli
