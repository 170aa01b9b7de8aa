// lanescope-cli: headless queries of the layout engine.
//
// Subcommands are a table of {name, help, options, handler}; each handler gets
// the parsed options and returns an exit status. Errors from the engine are
// lanescope::Error: printed to stderr, exit status 1. Usage errors: status 2.
#include "common.hpp"
#include "lanescope/numbers.hpp"
#include "lanescope/blackwell.hpp"
#include "lanescope/search.hpp"

#include "lanescope/cute.hpp"
#include "lanescope/export.hpp"
#include "lanescope/gluon.hpp"
#include "lanescope/header.hpp"
#include "lanescope/files.hpp"
#include "lanescope/limits.hpp"
#include "lanescope/transpose.hpp"
#include "lanescope/render_tile.hpp"
#include "lanescope/render_memory.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>
#include <type_traits>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace lscli;
namespace fs = std::filesystem;

namespace {

int cmd_list(const Options& o) {
    const ls::Catalog& cat = catalog(o);
    std::vector<const ls::Target*> targets;
    if (o.list_arch.empty() || o.list_arch == "all") targets = list_targets(cat, o.search);
    else targets.push_back(&cat.find_target(o.list_arch));
    return emit(o, ls::render_list(cat, targets, parse_format(o.format), o.search));
}

int cmd_info(const Options& o) {
    // A transpose load (ds_read_*_tr_*, global_load_tr_*) is a memory instruction with facts of its own:
    // looked up only when the name is no matrix instruction (reading that catalog is most of a start-up).
    try {
        Resolved r = resolve(o);
        return emit(o, ls::render_info(r.query, parse_format(o.format)));
    } catch (const UsageError&) {
        throw;
    } catch (const ls::Error&) {
        const ls::TransposeLoad* tl = nullptr;
        const ls::Target* t = nullptr;
        try {
            t = o.catalog.empty() ? &ls::Catalog::target(o.arch) : &catalog(o).find_target(o.arch);
            tl = ls::TransposeCatalog::builtin().find(*t, o.instruction, std::max(0, o.mods.wave));
        } catch (const ls::Error&) {
        }
        if (!tl) throw;
        if (o.mods.wave > 0 && tl->wave != o.mods.wave)
            throw ls::Error(tl->mnemonic + " on " + t->gfx + " is a wave" + std::to_string(tl->wave) +
                            " instruction here, not wave" + std::to_string(o.mods.wave) + "; legal: --wave " +
                            std::to_string(tl->wave));
        return emit(o, ls::render_transpose_info(*tl, *t, parse_format(o.format)));
    }
}

// A linear layout handed to us (--linear FILE), shown element by element. Work
// and memory are linear in its places (at most 2^24, linear.hpp): one sorted
// list of packed (cell, wave, lane, index), then the text.
constexpr long long kMaxTableCells = 1 << 20;
// `flush(s)` may take what is written so far (JSON and CSV go to standard output in chunks).
std::string render_given_linear(const ls::LinearLayout& L, const std::string& format,
                                const std::function<void(std::string&)>& flush = {}) {
    if (format == "linear") return ls::render_linear(L);
    if (format == "gluon") return "from triton.experimental.gluon import language as gl\nlinear = gl." +
                                  ls::render_distributed_linear(L, L.lane_count()) + "\n";
    const ls::Format f = parse_format(format);
    const long long cells = static_cast<long long>(L.rows) * L.cols;
    if ((f == ls::Format::Table || f == ls::Format::Markdown) && cells > kMaxTableCells)
        throw ls::Error("a " + std::string(f == ls::Format::Table ? "table" : "markdown table") + " of " +
                        std::to_string(L.rows) + " x " + std::to_string(L.cols) + " cells is too large to read; legal: at most " +
                        std::to_string(kMaxTableCells) + " cells (1024 x 1024) as a table, any shape with --format json, csv or linear");
    // cell = row * cols + col < 2^24, wave < 1024, lane < 128, index < 2^24 (linear.hpp's limits).
    struct Place {
        uint32_t cell;
        uint16_t wave;
        uint8_t lane;
        uint32_t index;
    };
    std::vector<Place> at;
    at.reserve(static_cast<size_t>(L.places()));
    for (int w = 0; w < L.warp_count(); ++w)
        for (int l = 0; l < L.lane_count(); ++l)
            for (int r = 0; r < L.reg_count(); ++r) {
                auto rc = L.apply(r, l, w);
                at.push_back({static_cast<uint32_t>(static_cast<long long>(rc.first) * L.cols + rc.second),
                              static_cast<uint16_t>(w), static_cast<uint8_t>(l), static_cast<uint32_t>(r)});
            }
    std::stable_sort(at.begin(), at.end(), [](const Place& a, const Place& b) { return a.cell < b.cell; });
    std::string s;
    auto put = [&](long long v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        s.append(buf, r.ptr);
    };
    if (f == ls::Format::Json || f == ls::Format::Csv) {
        const bool json = f == ls::Format::Json;
        s.reserve(flush ? (size_t(17) << 20) : at.size() * (json ? 72 : 24) + 64);
        if (json) {
            s += "{\"rows\": ";
            put(L.rows);
            s += ", \"cols\": ";
            put(L.cols);
            s += ", \"entries\": [\n";
        } else {
            s += "row,col,wave,lane,index\n";
        }
        for (size_t n = 0; n < at.size(); ++n) {
            const Place& x = at[n];
            if (json) s += n ? ",\n{\"row\": " : "{\"row\": ";
            put(x.cell / static_cast<uint32_t>(L.cols));
            s += json ? ", \"col\": " : ",";
            put(x.cell % static_cast<uint32_t>(L.cols));
            s += json ? ", \"wave\": " : ",";
            put(x.wave);
            s += json ? ", \"lane\": " : ",";
            put(x.lane);
            s += json ? ", \"index\": " : ",";
            put(x.index);
            s += json ? "}" : "\n";
            if (flush && s.size() >= (size_t(16) << 20)) flush(s);
        }
        if (json) s += "\n]}\n";
        return s;
    }
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head = {"row\\col"};
    for (int c = 0; c < L.cols; ++c) head.push_back(std::to_string(c));
    rows.push_back(head);
    size_t n = 0;
    for (int row = 0; row < L.rows; ++row) {
        std::vector<std::string> line = {std::to_string(row)};
        for (int col = 0; col < L.cols; ++col) {
            std::string cell;
            const uint32_t id = static_cast<uint32_t>(static_cast<long long>(row) * L.cols + col);
            for (; n < at.size() && at[n].cell == id; ++n)
                cell += (cell.empty() ? "" : " ") + std::string("w") + std::to_string(at[n].wave) + ":L" +
                        std::to_string(at[n].lane) + ":i" + std::to_string(at[n].index);
            line.push_back(cell.empty() ? "-" : cell);
        }
        rows.push_back(std::move(line));
    }
    if (f == ls::Format::Markdown) return ls::render_grid(rows, f);  // one table (render.hpp)
    return "Linear layout: " + std::to_string(L.reg_count()) + " register indices x " + std::to_string(L.lane_count()) +
           " lanes x " + std::to_string(L.warp_count()) + " waves over " + std::to_string(L.rows) + " x " +
           std::to_string(L.cols) + " (cells: wave:lane:register index)\n\n" + ls::render_grid(rows, f);
}

// A tile's layout, streamed to the output as it is produced (up to 1.7 GB of JSON).
const char* const kStreamedWhy =
    "about 1.7 GB of JSON, written in under 10 s; `where` and `which` answer single elements of any tile";
void check_streamed(const ls::TileLayout& t, ls::View v, ls::Format f) {
    // JSON's registers view writes each placement twice (entries, then slots).
    if (v == ls::View::Registers && f == ls::Format::Json)
        ls::check_tile_work(t, ls::kMaxStreamedPlacements / 2, "layout --view registers --format json",
                            "it writes every placement twice, about 2 GB; --view matrix takes twice as many");
    else
        ls::check_tile_work(t, ls::kMaxStreamedPlacements, "layout", kStreamedWhy);
}
int emit_tile_layout(const Options& o, const Resolved& r, const ls::TileLayout& t, ls::View v, ls::Format f) {
    check_streamed(t, v, f);
    return emit_streamed(o, [&](ls::TextSink& out) { ls::render_tile_layout(r.query, t, v, f, out); });
}

int cmd_layout(const Options& o) {
    if (!o.linear_file.empty()) {
        const auto extra = given_options_except(o, {"--linear", "--format", "--out"});
        if (!extra.empty()) {
            std::string names;
            for (const auto& n : extra) names += (names.empty() ? "" : ", ") + n;
            throw UsageError("--linear FILE shows the layout in FILE; " + names + (extra.size() > 1 ? " do" : " does") +
                             " not apply to it (legal with --linear: --format table|csv|json|linear, -o FILE)");
        }
        if (o.format == "cute" || o.format == "markdown" || o.format == "md")
            throw ls::Error("--format " + o.format + " is not offered for --linear; legal: table, csv, json, linear");
        ls::LinearLayout L = ls::parse_linear(read_text_file(o.linear_file), o.linear_file);
        if (o.out.empty() || o.out == "-") {  // large JSON/CSV streams out in chunks
            auto flush = [](std::string& s) {
                ls::files::write_stdout(s);
                s.clear();
            };
            std::string rest = render_given_linear(L, o.format, flush);
            ls::files::write_stdout(rest);
            return 0;
        }
        return emit(o, render_given_linear(L, o.format));
    }
    Resolved r = resolve(o);
    if (const auto form = ls::parse_export(o.format)) {
        ls::check_export(r.query, *form);
        const ls::TileParams tp = tile_params(o);
        const bool all = o.operand == "all" || o.operand == "ALL";
        const std::optional<ls::Operand> op =
            all ? std::nullopt : std::optional<ls::Operand>(parse_operand_or_throw(o.operand, *r.ins));
        return emit(o, ls::render_export(r.query, tp, op, *form));
    }
    const ls::Format f = parse_format(o.format);
    const ls::View v = parse_view(o.view);
    if ((f == ls::Format::Csv || f == ls::Format::Markdown) && (o.operand == "all" || o.operand == "ALL"))
        throw ls::Error("--operand all with --format " + o.format + " would print one table per operand; CSV and Markdown "
                        "print one table; legal: one operand (--operand A, B, C or D), or --operand all with --format "
                        "table or json");
    const bool tiled = tile_mode(o);
    const ls::TileParams tp = tiled ? tile_params(o) : ls::TileParams{};
    if (tiled && o.operand != "all" && o.operand != "ALL")
        return emit_tile_layout(o, r, ls::TileLayout(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods, tp), v, f);
    auto render = [&](ls::Operand op) {
        if (tiled) return ls::render_tile_layout(r.query, ls::TileLayout(*r.ins, *r.target, op, r.query.mods, tp.for_operand(op)), v, f);
        return ls::render_layout(r.query, ls::layout_of(*r.ins, *r.target, op, r.query.mods), v, f);
    };
    if (tiled && (o.operand == "all" || o.operand == "ALL")) {
        std::vector<ls::TileLayout> tiles;
        for (ls::Operand op : tp.single() ? ls::operands_of(*r.ins) : ls::exported_operands(r.query)) {
            tiles.emplace_back(*r.ins, *r.target, op, r.query.mods, tp.for_operand(op));
            check_streamed(tiles.back(), v, f);
        }
        return emit_streamed(o, [&](ls::TextSink& out) {
            if (f == ls::Format::Json) out.append("[\n");
            for (size_t n = 0; n < tiles.size(); ++n) {
                ls::render_tile_layout(r.query, tiles[n], v, f, out);
                if (f == ls::Format::Json && n + 1 < tiles.size()) out.append(",");
                if (f != ls::Format::Json) out.append("\n");
            }
            if (f == ls::Format::Json) out.append("]\n");
        });
    }
    if (o.operand == "all" || o.operand == "ALL") {
        std::string text;
        auto ops = ls::operands_of(*r.ins);
        if (f == ls::Format::Json) text += "[\n";
        for (size_t n = 0; n < ops.size(); ++n) {
            text += render(ops[n]);
            if (f == ls::Format::Json && n + 1 < ops.size()) text += ",";
            if (f != ls::Format::Json) text += "\n";
        }
        if (f == ls::Format::Json) text += "]\n";
        return emit(o, text);
    }
    return emit(o, render(parse_operand_or_throw(o.operand, *r.ins)));
}

int cmd_where(const Options& o) {
    if (o.row < 0 && o.col < 0)
        throw UsageError("where needs --row R, --col C or both (and --block B on multi-block instructions)");
    Resolved r = resolve(o);
    if (tile_mode(o)) {
        if (o.row < 0 || o.col < 0) throw UsageError("where on a tile needs both --row R and --col C");
        if (o.block != 0)
            throw ls::Error("--block " + std::to_string(o.block) +
                            " is not legal on a tile: tiles are made of single-block instructions; legal: --block 0 "
                            "(or leave it out)");
        ls::TileLayout t(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods, tile_params(o));
        return emit(o, ls::render_tile_where(r.query, t, {o.block, o.row, o.col}, parse_format(o.format)));
    }
    // Only the asked elements are placed (layout_of_elements), not the whole operand.
    const ls::Operand op = parse_operand_or_throw(o.operand, *r.ins);
    const ls::Format f = parse_format(o.format);
    if (o.row >= 0 && o.col >= 0) {
        const ls::Element e{o.block, o.row, o.col};
        return emit(o, ls::render_where(r.query, ls::layout_of_elements(*r.ins, *r.target, op, r.query.mods, {e}), e, f));
    }
    // A whole row (or column): range-check the given index with where()'s message first.
    const ls::Element first{o.block, std::max(o.row, 0), std::max(o.col, 0)};
    const ls::OperandLayout one = ls::layout_of_elements(*r.ins, *r.target, op, r.query.mods, {first});
    one.where(first);
    std::vector<ls::Element> elements;
    if (o.row >= 0)
        for (int c = 0; c < one.cols(); ++c) elements.push_back({o.block, o.row, c});
    else
        for (int rr = 0; rr < one.rows(); ++rr) elements.push_back({o.block, rr, o.col});
    return emit(o, ls::render_where_many(r.query, ls::layout_of_elements(*r.ins, *r.target, op, r.query.mods, elements),
                                         elements, f));
}

int cmd_which(const Options& o_in) {
    // --wave (and its other spelling --wave-size) is the wave size; --of-wave W names a wave of a tile.
    Options o = o_in;
    if (o.wave_size >= 0) {
        if (o.mods.wave >= 0 && o.mods.wave != o.wave_size)
            throw ls::Error("--wave " + std::to_string(o.mods.wave) + " contradicts --wave-size " +
                            std::to_string(o.wave_size) + " (both name the wave size; give one)");
        o.mods.wave = o.wave_size;
        o.wave_flag = "--wave-size";
    }
    if (o.wave_index >= 0 && !tile_mode(o))
        throw UsageError("--of-wave " + std::to_string(o.wave_index) +
                         " names a wave of a tile; give the tile options (--waves WMxWN, --tiles-per-wave, --shape, "
                         "--k-width, --transposed) too");
    Resolved r = resolve(o);
    if (tile_mode(o)) {
        ls::TileLayout t(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods, tile_params(o));
        const int wave = o.wave_index < 0 ? 0 : o.wave_index;
        if (o.reg < 0) return emit(o, ls::render_tile_lane(r.query, t, wave, o.lane, parse_format(o.format)));
        return emit(o, ls::render_tile_which(r.query, t, wave, o.reg, o.lane, parse_format(o.format)));
    }
    if (o.reg < 0)  // --lane alone: every register of the lane
        return emit(o, ls::render_lane(r.query, ls::layout_of(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins),
                                                              r.query.mods),
                                       o.lane, parse_format(o.format)));
    // Only what the slot holds is kept (layout_of_slot), not the whole operand.
    const ls::OperandLayout L =
        ls::layout_of_slot(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods, o.reg, o.lane);
    return emit(o, ls::render_which(r.query, L, o.reg, o.lane, parse_format(o.format)));
}

// An option registered with the common ones that `o.command` has no use for: refused, named as typed.
void refuse_option(const Options& o, const char* option, const std::string& value, const std::string& why) {
    if (o.sub && o.sub->count(option) > 0)
        throw UsageError(o.command + " " + option + " " + value + ": " + option + " does not apply to " + o.command +
                         ", which " + why + "; leave it out");
}

int cmd_header(const Options& o) {
    if (o.sub && o.sub->get_option("--format")->count() > 0)
        throw UsageError("header writes C++ (a HIP/C++17 header); --format does not apply to it");
    refuse_option(o, "--operand", o.operand, "writes the index math of every operand of the instruction");
    Resolved r = resolve(o);
    if (o.out.empty()) throw UsageError("header needs -o FILE (or - for standard output)");
    const std::string name =
        o.header_namespace.empty() ? ls::default_header_namespace(*r.ins, *r.target, r.query.mods.wave) : o.header_namespace;
    ls::HeaderOptions ho;
    ho.tables = o.header_tables;
    return emit(o, ls::render_header(r.query, tile_params(o), name, ho));
}

// Exit status of `check` when the layouts differ (0: equal; 1: bad input).
constexpr int kCheckDiffers = 5;

std::string placements_text(const std::vector<ls::Placement>& ps) {
    std::string s;
    const size_t shown = std::min<size_t>(ps.size(), 16);
    for (size_t n = 0; n < shown; ++n) s += (s.empty() ? "" : " ") + ps[n].label();
    if (shown < ps.size()) s += " ... (" + std::to_string(ps.size()) + " places)";
    return s.empty() ? "(nowhere)" : s;
}

// "w0 2048, w1 2048" (at most `most` items, then how many more); "all N" when every one differs alike.
template <class Key>
std::string counts_text(const std::vector<std::pair<Key, size_t>>& v, int of, const std::string& prefix, size_t most = 12) {
    auto name = [&](const Key& k) {
        if constexpr (std::is_same_v<Key, int>) return prefix + std::to_string(k);
        else return k;
    };
    std::string s;
    if (static_cast<int>(v.size()) == of && of > 1 &&
        std::all_of(v.begin(), v.end(), [&](const auto& x) { return x.second == v.front().second; }))
        return "all " + std::to_string(of) + " (" + std::to_string(v.front().second) + " places each)";
    for (size_t n = 0; n < v.size() && n < most; ++n) s += (n ? ", " : "") + name(v[n].first) + " " + std::to_string(v[n].second);
    if (v.size() > most) s += ", ... (" + std::to_string(v.size()) + " of " + std::to_string(of) + ")";
    else s += " (" + std::to_string(v.size()) + " of " + std::to_string(of) + ")";
    return s;
}

// What comparing the given layout with lanescope's found, and the note on the shape it was compared at.
struct CheckOutcome {
    ls::CheckResult res;
    std::string shape_note;
};

// Compares the given layout with lanescope's (the tile's when tile options or explanations apply), trying
// Triton's other parameters and each data-moving modifier as explanations of a difference.
CheckOutcome compare_layout(const Options& o, const Resolved& r, ls::Operand op, ls::GivenLayout& given) {
    CheckOutcome out;
    // Triton's other parameters are the explanations tried first: "equals lanescope's with kWidth 8".
    const ls::TileParams tp = tile_params(o);
    std::unique_ptr<ls::TileLayout> tile;
    try {
        tile = std::make_unique<ls::TileLayout>(*r.ins, *r.target, op, r.query.mods, tp);
    } catch (const ls::Error&) {
        if (tile_mode(o)) throw;  // without tile options: multi-block layouts are checked as they are
    }
    // A file without a shape (a named Gluon constructor, bases without "shape") takes lanescope's (--shape).
    const ls::OperandLayout single = ls::layout_of(*r.ins, *r.target, op, r.query.mods);
    const int rows = tile ? tile->rows() : single.rows(), cols = tile ? tile->cols() : single.cols();
    if (!given.shape_given)
        out.shape_note = "the file gives no shape: lanescope's " + std::to_string(rows) + " x " + std::to_string(cols) +
                         (tile_mode(o) ? " (the tile's operand " + std::string(ls::operand_name(op)) +
                                             ", from --waves and --shape TMxTN[xTK], the tile's M, N and K)"
                                       : " (the instruction's own operand " + std::string(ls::operand_name(op)) +
                                             "; a tile's --waves with --shape TMxTN[xTK], its M, N and K, gives another)") +
                         " is taken";
    ls::resolve_given_layout(given, *r.ins, *r.target, op, r.query.mods, rows, cols);
    std::vector<std::unique_ptr<ls::TileLayout>> others;
    std::vector<ls::CheckAlternative> alternatives;
    auto try_params = [&](ls::TileParams p, std::string label, const ls::ResolvedModifiers& mods) {
        try {
            others.push_back(std::make_unique<ls::TileLayout>(*r.ins, *r.target, op, mods, p));
            alternatives.push_back({std::move(label), others.back().get()});
        } catch (const ls::Error&) {
        }
    };
    if (tile && tile->triton() != ls::TritonLayout::None) {
        const ls::TileLayout& t = *tile;
        if (op == ls::Operand::A || op == ls::Operand::B) {
            for (int kw : ls::triton_k_widths(t.triton()))
                if (kw != t.k_width()) {
                    ls::TileParams p = tp;
                    p.k_width = kw;
                    try_params(p, "kWidth " + std::to_string(kw) + " (--k-width " + std::to_string(kw) + ")", r.query.mods);
                }
        } else {
            ls::TileParams p = tp;
            p.transposed = !tp.transposed;
            try_params(p, p.transposed ? "transposed (--transposed)" : "not transposed (without --transposed)",
                       r.query.mods);
        }
    }
    // The modifiers that move data, one at a time, each legal value ("equals lanescope's with cbsz=2"),
    // while the comparisons stay small (each is a whole check).
    constexpr long long kMaxModifierWork = 1 << 22;
    if (tile) {
        long long work = 0;
        for (const ls::ModifierRange& m : ls::modifier_ranges(*r.ins, *r.target, r.query.mods)) {
            if (!m.moves_data || m.name == "wave") continue;
            const int current = ls::modifier_value(r.query.mods, m.name);
            for (int v : m.values) {
                if (v == current) continue;
                work += static_cast<long long>(tile->elements()) * tile->waves();
                if (work > kMaxModifierWork) break;
                ls::Modifiers mm;
                for (const ls::ModifierRange& x : ls::modifier_ranges(*r.ins, *r.target, r.query.mods))
                    ls::set_modifier(mm, x.name, ls::modifier_value(r.query.mods, x.name));
                ls::set_modifier(mm, m.name, v);
                try {
                    const ls::ResolvedModifiers rm = ls::resolve_modifiers(*r.ins, *r.target, mm);
                    std::string value = ls::modifier_value_name(m.name, v);
                    if (value.empty()) value = std::to_string(v);
                    std::string option = m.name;
                    std::replace(option.begin(), option.end(), '_', '-');
                    try_params(tp, m.name + "=" + value + " (--" + option + " " + value + ")", rm);
                } catch (const ls::Error&) {
                }
            }
        }
    }
    out.res = tile && (tile_mode(o) || !alternatives.empty()) ? ls::check_layout(*tile, given, alternatives)
                                                              : ls::check_layout(single, given);
    return out;
}

// Whether the given layout is one-to-one and how much of the shape it holds, in words ("" when not known).
std::string one_to_one_text(const ls::OneToOne& oo) {
    if (!oo.known) return std::string();
    std::string s = oo.injective ? "one-to-one (each place holds a different element)"
                                 : "not one-to-one" + (oo.why.empty() ? std::string() : ": " + oo.why);
    s += "; it holds " + std::to_string(oo.elements_held) + " of the " + std::to_string(oo.shape_elements) +
         " elements of the shape" + (oo.surjective ? " (every one: surjective)" : " (not surjective)") + " in " +
         std::to_string(oo.places) + " places";
    return s;
}

// check --format json: the whole result as one JSON object.
std::string check_json(const ls::CheckResult& res, const std::string& shape_note, const std::string& modifiers_note) {
    const ls::OneToOne& oo = res.one_to_one;
    auto bases_json = [&] {
        std::string b = "[";
        for (size_t n = 0; n < res.bases.size(); ++n) {
            const auto& d = res.bases[n];
            b += (n ? ", " : "") + std::string("{\"dim\": ") + ls::json_string(d.dim) + ", \"index\": " +
                 std::to_string(d.index) + ", \"given\": [" + std::to_string(d.given.first) + ", " +
                 std::to_string(d.given.second) + "], \"lanescope\": [" + std::to_string(d.expected.first) + ", " +
                 std::to_string(d.expected.second) + "]}";
        }
        return b + "]";
    };
    auto counts_json = [](const auto& v) {
        std::string c = "[";
        for (size_t n = 0; n < v.size(); ++n) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v[n].first)>, int>)
                c += (n ? ", " : "") + std::string("[") + std::to_string(v[n].first) + ", " + std::to_string(v[n].second) + "]";
            else
                c += (n ? ", " : "") + std::string("[") + ls::json_string(v[n].first) + ", " + std::to_string(v[n].second) + "]";
        }
        return c + "]";
    };
    std::string text =
        "{\"equal\": " + std::string(res.equal ? "true" : "false") + ", \"elements\": " + std::to_string(res.elements) +
        ", \"differing\": " + std::to_string(res.differing) + ", \"note\": " + ls::json_string(res.note) +
        ", \"explanation\": " + ls::json_string(res.explanation) + ", \"bases\": " + bases_json() +
        ", \"bases_note\": " + ls::json_string(res.bases_note) + ", \"one_to_one\": " +
        (oo.known ? std::string("{\"injective\": ") + (oo.injective ? "true" : "false") + ", \"surjective\": " +
                        (oo.surjective ? "true" : "false") + ", \"places\": " + std::to_string(oo.places) +
                        ", \"elements_held\": " + std::to_string(oo.elements_held) + ", \"shape_elements\": " +
                        std::to_string(oo.shape_elements) + ", \"why\": " + ls::json_string(oo.why) + "}"
                  : std::string("null")) +
        ", \"summary\": {\"places\": " + std::to_string(res.summary.places) + ", \"differing_places\": " +
        std::to_string(res.summary.differing_places) + ", \"by_wave\": " + counts_json(res.summary.by_wave) +
        ", \"by_lane\": " + counts_json(res.summary.by_lane) + ", \"by_slot\": " + counts_json(res.summary.by_slot) +
        "}, \"shape_note\": " + ls::json_string(shape_note) + ", \"modifiers_note\": " + ls::json_string(modifiers_note) +
        ", \"differences\": [";
    for (size_t n = 0; n < res.differences.size(); ++n) {
        const auto& d = res.differences[n];
        auto list = [](const std::vector<ls::Placement>& ps) {
            std::string s = "[";
            for (size_t i = 0; i < ps.size(); ++i) s += (i ? ", " : "") + ls::json_string(ps[i].label());
            return s + "]";
        };
        text += (n ? ",\n" : "\n") + std::string("{\"block\": ") + std::to_string(d.element.block) + ", \"row\": " +
                std::to_string(d.element.row) + ", \"col\": " + std::to_string(d.element.col) + ", \"lanescope\": " +
                list(d.expected) + ", \"given\": " + list(d.given) + "}";
    }
    return text + "]}\n";
}

// check's table of a difference: what differs, why it may, where, and the first --show differing elements.
std::string check_differ_text(const Options& o, ls::Operand op, const ls::CheckResult& res, const std::string& what,
                              const std::string& shape_note, const std::string& modifiers_note) {
    std::string text = "differ: " + o.layout_file + " places " + std::to_string(res.differing) + " of " +
                       std::to_string(res.elements) + " elements of " + what + " differently from lanescope\n";
    if (!res.explanation.empty()) text += "explanation: " + res.explanation + "\n";
    if (!modifiers_note.empty()) text += "modifiers: " + modifiers_note + "\n";
    for (const auto& d : res.bases)
        text += "basis: " + d.dim + " " + std::to_string(d.index) + " (" + d.dim + " index " +
                std::to_string(1 << d.index) + "): yours [" + std::to_string(d.given.first) + ", " +
                std::to_string(d.given.second) + "], lanescope's [" + std::to_string(d.expected.first) + ", " +
                std::to_string(d.expected.second) + "]\n";
    if (!res.bases_note.empty()) text += "bases: " + res.bases_note + "\n";
    if (res.one_to_one.known) text += "your layout: " + one_to_one_text(res.one_to_one) + "\n";
    if (!res.note.empty()) text += "note: " + res.note + "\n";
    if (!shape_note.empty()) text += "note: " + shape_note + "\n";
    const ls::DifferenceSummary& sm = res.summary;
    if (sm.places) {
        text += "places that hold another element: " + std::to_string(sm.differing_places) + " of " +
                std::to_string(sm.places) + "\n";
        text += "  by wave: " + counts_text(sm.by_wave, sm.waves, "w") + "\n";
        text += "  by lane: " + counts_text(sm.by_lane, sm.lanes, "L") + "\n";
        text += "  by register: " + counts_text(sm.by_slot, sm.slots, "") + "\n";
    }
    const size_t shown = std::min<size_t>(res.differences.size(), static_cast<size_t>(o.check_show));
    if (shown) {
        std::vector<std::vector<std::string>> rows = {{"element", "lanescope", "given"}};
        for (size_t n = 0; n < shown; ++n) {
            const auto& d = res.differences[n];
            rows.push_back({ls::element_label(op, d.element, d.element.block ? 2 : 1), placements_text(d.expected),
                            placements_text(d.given)});
        }
        text += ls::render_grid(rows, ls::Format::Table);
    }
    if (shown < res.differing)
        text += "... and " + std::to_string(res.differing - shown) + " more elements (--show N lists N; --format json lists " +
                (res.differing > res.differences.size() ? "the first " + std::to_string(res.differences.size()) : "all") +
                ")\n";
    return text;
}

int cmd_check(const Options& given_options) {
    Options o = given_options;  // "-" (standard input) is named as what it is in messages, below
    if (o.format != "table" && o.format != "json")
        throw ls::Error("--format '" + o.format + "' is not legal for check; legal: table, json");
    if (o.layout_file.empty()) throw ls::Error("check needs --layout FILE (the JSON contract, CSV or a linear layout)");
    Resolved r = resolve(o);
    const ls::Operand op = parse_operand_or_throw(o.operand, *r.ins);
    const std::string given_text = ls::files::read_input_text(o.layout_file, static_cast<size_t>(ls::kMaxCheckInputBytes));
    if (o.layout_file == "-") o.layout_file = "the layout given to check";
    ls::GivenLayout given = ls::parse_layout_text(given_text, o.layout_file);
    if (!given.operand.empty() && given.operand != ls::operand_name(op))
        throw ls::Error(o.layout_file + " describes operand " + given.operand + ", not " + std::string(ls::operand_name(op)) +
                        " (--operand)");
    const CheckOutcome outcome = compare_layout(o, r, op, given);
    const ls::CheckResult& res = outcome.res;
    const std::string& shape_note = outcome.shape_note;
    const std::string what = std::string(ls::operand_name(op)) + " of " + r.ins->mnemonic + " on " + r.target->gfx;
    const std::string ours = r.query.mods.describe();
    std::string modifiers_note;
    if (!given.modifiers.empty() && given.modifiers != ours)
        modifiers_note = "the file says modifiers " + given.modifiers + "; lanescope's layout is for " +
                         (ours.empty() ? std::string("the defaults") : ours);
    std::string text;
    if (o.format == "json") {
        text = check_json(res, shape_note, modifiers_note);
    } else if (res.equal) {
        text = "equal: " + o.layout_file + " places all " + std::to_string(res.elements) + " elements of " + what +
               " as lanescope does\n";
        if (!shape_note.empty()) text += "note: " + shape_note + "\n";
    } else {
        text = check_differ_text(o, op, res, what, shape_note, modifiers_note);
    }
    emit(o, text);
    return res.equal ? 0 : kCheckDiffers;
}

int cmd_trace(const Options& o) {
    refuse_option(o, "--operand", o.operand,
                  "names every A, B, C (K, SA, SB) location that feeds D[--row][--col] (where, which and layout take "
                  "--operand)");
    Resolved r = resolve(o);
    if (tile_mode(o)) {
        const ls::TileParams tp = tile_params(o);
        if (o.block != 0) throw ls::Error("--block " + std::to_string(o.block) + ": tiles are of single-block instructions; legal: 0");
        const ls::TileLayout A(*r.ins, *r.target, ls::Operand::A, r.query.mods, tp),
            B(*r.ins, *r.target, ls::Operand::B, r.query.mods, tp), C(*r.ins, *r.target, ls::Operand::C, r.query.mods, tp),
            D(*r.ins, *r.target, ls::Operand::D, r.query.mods, tp);
        return emit(o, ls::render_tile_trace(r.query, A, B, C, D, {0, o.row, o.col}, parse_format(o.format)));
    }
    ls::OperandLayout D = ls::layout_of(*r.ins, *r.target, ls::Operand::D, r.query.mods);
    D.where({o.block, o.row, o.col});  // range check with a clear message
    ls::Trace t = ls::trace(*r.ins, *r.target, r.query.mods, {o.block, o.row, o.col});
    return emit(o, ls::render_trace(r.query, t, parse_format(o.format)));
}

// Every layout of the catalog (every target family, wave size, operand; default
// modifiers) as JSON: into files under --out, or only into memory.
struct ExportStats {
    size_t layouts = 0, entries = 0, bytes = 0;
};
ExportStats export_all(const ls::Catalog& cat, const std::string& dir,
                       std::optional<ls::Vendor> only = std::nullopt) {
    ExportStats st;
    // Built beside the target and swapped in whole: never a mix of two exports.
    std::unique_ptr<ls::files::DirectoryWriter> out;
    if (!dir.empty()) out = std::make_unique<ls::files::DirectoryWriter>(dir, ".lanescope-export");
    for (ls::Family fam : ls::all_families()) {
        if (only && ls::vendor_of(fam) != *only) continue;
        const ls::Target* t = nullptr;
        for (const auto& x : cat.targets())
            if (x.family == fam) {
                t = &x;
                break;
            }
        for (const ls::Instruction* ins : cat.on(fam))
            for (int wave : ls::wave_sizes(*ins, *t)) {
                ls::Modifiers m;
                m.wave = wave;
                ls::Query q{ins, t, ls::resolve_modifiers(*ins, *t, m)};
                for (ls::Operand op : ls::operands_of(*ins)) {
                    ls::OperandLayout L = ls::layout_of(*ins, *t, op, q.mods);
                    std::string json = ls::render_layout(q, L, ls::View::Matrix, ls::Format::Json);
                    ++st.layouts;
                    st.entries += L.entries().size();
                    st.bytes += json.size();
                    if (out)
                        out->write(std::string(ls::family_name(fam)) + "_" + ins->key(wave) + "_" +
                                       std::string(ls::operand_name(op)) + ".json",
                                   json);
                }
            }
    }
    if (out) out->commit();
    return st;
}

int cmd_export(const Options& o) {
    if (o.out.empty()) throw UsageError("export needs -o/--out DIR");
    auto t0 = std::chrono::steady_clock::now();
    ExportStats st = export_all(catalog(o), o.out);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    char line[512];
    std::snprintf(line, sizeof line, "wrote %zu layouts (%zu entries, %.1f MB) to %s in %.0f ms\n", st.layouts,
                  st.entries, st.bytes / 1e6, o.out.c_str(), ms);
    ls::files::write_stdout(line);
    return 0;
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at < text.size()) {
        const size_t nl = text.find('\n', at);
        out.emplace_back(text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return out;
}

// bench --largest: the largest legal request of each subcommand (and the
// refusals just past the limits), each as a whole process writing to a file
// beside the system's temporary files: wall time, CPU time, peak memory, bytes
// written. docs/limits.md tabulates these numbers.
int bench_largest(const Options& o) {
    own_executable("bench --largest");  // before any work: refused in process
    struct Case {
        const char* what;
        std::vector<std::string> args;
    };
    const std::vector<std::string> k = {"-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16"};
    auto with = [&](const char* sub, std::vector<std::string> rest) {
        std::vector<std::string> a = {sub};
        a.insert(a.end(), k.begin(), k.end());
        a.insert(a.end(), rest.begin(), rest.end());
        return a;
    };
    const fs::path dir = fs::temp_directory_path() / ("lanescope-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    ls::files::cleanup::install();  // an interrupted bench leaves no directory behind
    const int slot = ls::files::cleanup::claim(dir.string(), ls::files::cleanup::kDirectory);
    const std::string out = (dir / "out").string(), lin = (dir / "tile.json").string();
    const std::vector<Case> cases = {
        {"layout C 4096x4096, json (16.8M placements)", with("layout", {"--operand", "C", "--waves", "4x4", "--shape", "4096x4096", "--format", "json"})},
        {"layout C 4096x4096, csv", with("layout", {"--operand", "C", "--waves", "4x4", "--shape", "4096x4096", "--format", "csv"})},
        {"layout C 4096x4096, table", with("layout", {"--operand", "C", "--waves", "4x4", "--shape", "4096x4096", "--format", "table"})},
        {"layout C 4096x2048, registers json", with("layout", {"--operand", "C", "--waves", "4x4", "--shape", "4096x2048", "--view", "registers", "--format", "json"})},
        {"layout A, waves 1x64, 512x2048x512, json", with("layout", {"--operand", "A", "--waves", "1x64", "--shape", "512x2048x512", "--format", "json"})},
        {"layout C 4096x4096, linear", with("layout", {"--operand", "C", "--waves", "4x4", "--shape", "4096x4096", "--format", "linear"})},
        {"layout C 4096x4096, cute", with("layout", {"--operand", "C", "--waves", "4x4", "--shape", "4096x4096", "--format", "cute"})},
        {"where C 4096x4096 (one element)", with("where", {"--operand", "C", "--waves", "4x4", "--shape", "4096x4096", "--row", "4095", "--col", "4095"})},
        {"check C 2048x2048 (4.2M placements)", with("check", {"--operand", "C", "--shape", "2048x2048", "--layout", lin})},
        {"header 1024x1024x1024 (1M per operand)", with("header", {"--shape", "1024x1024x1024"})},
        {"load C 1024x1024, json (1M placements)", with("load", {"--operand", "C", "--shape", "1024x1024", "--format", "json"})},
        {"load A 1024x1024x1024, hip", with("load", {"--operand", "A", "--shape", "1024x1024x1024", "--format", "hip"})},
        {"figure C 2048x1024, svg (2.1M cells)", with("figure", {"--operand", "C", "--shape", "2048x1024", "--format", "svg"})},
        {"figure C 2048x1024, png (at most 8192 px a side)", with("figure", {"--operand", "C", "--shape", "2048x1024", "--format", "png"})},
        {"refused: layout A, waves 1x1024, 512x32768x512", with("layout", {"--operand", "A", "--waves", "1x1024", "--shape", "512x32768x512", "--format", "json"})},
        {"refused: load A 2048x2048x2048", with("load", {"--operand", "A", "--waves", "4x4", "--shape", "2048x2048x2048", "--format", "json"})},
        {"refused: header 2048x2048x2048", with("header", {"--waves", "4x4", "--shape", "2048x2048x2048"})},
        {"refused: figure C 2048x2048", with("figure", {"--operand", "C", "--shape", "2048x2048", "--format", "svg"})},
    };
    const std::string self = own_executable("bench --largest");
    auto spawn = [&](std::vector<std::string> args, const std::string& to, struct rusage* ru) {
        args.insert(args.begin(), self);
        args.push_back("-o");
        args.push_back(to);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
        pid_t pid;
        if (posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ) != 0) throw ls::Error("cannot start " + self);
        posix_spawn_file_actions_destroy(&actions);
        int status = 0;
        ::wait4(pid, &status, 0, ru);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    };
    struct rusage ru {};
    spawn(with("layout", {"--operand", "C", "--shape", "2048x2048", "--format", "linear"}), lin, &ru);  // check's input
    std::string load;
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        char buf[64] = {};
        if (std::fgets(buf, sizeof buf, f)) load = std::string(buf).substr(0, std::string(buf).find(' '));
        std::fclose(f);
    }
    out_printf("largest legal requests (and refusals past the limits), each a whole process writing a file "
                "(%u CPUs, load average %s; wall time grows with load, CPU time does not):\n",
                std::thread::hardware_concurrency(), load.empty() ? "?" : load.c_str());
    out_printf("| request | exit | wall s | CPU s | peak RSS MB | output MB |\n|---|---|---|---|---|---|\n");
    for (const Case& c : cases) {
        std::error_code ec;
        fs::remove(out, ec);
        auto t0 = std::chrono::steady_clock::now();
        const int rc = spawn(c.args, out, &ru);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
        const uintmax_t bytes = fs::exists(out, ec) ? fs::file_size(out, ec) : 0;
        out_printf("| %s | %d | %.2f | %.2f | %.0f | %.1f |\n", c.what, rc, wall, cpu, ru.ru_maxrss / 1024.0, bytes / 1e6);
        std::fflush(stdout);
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    ls::files::cleanup::release(slot);
    (void)o;
    return 0;
}

// Start-up: single queries as whole processes against an empty process, all
// run in turns (one of each per round, so a busy moment hits them alike). The
// empty process is lanescope-empty, int main() built beside lanescope-cli with
// its compiler and flags (cli/CMakeLists.txt), else /bin/true. The queries come
// from the catalog, not from a list here: for every family, its instruction with
// the largest D (the costliest to answer) on the first target that accepts it,
// asked `where` (its last element), `which` (register 0 of lane 5) and `info`, and
// `layout` of the family's smallest operand; a family added to the catalog is
// measured too.
struct StartupQuery {
    std::string family;
    std::vector<std::string> args;  // after the program name
};
std::vector<StartupQuery> startup_queries() {
    const ls::Catalog& cat = ls::Catalog::builtin();
    // Blackwell's rows are templates, made on demand: their spellings join the families' instructions.
    const std::vector<ls::Instruction> blackwell = ls::blackwell_spellings();
    std::vector<StartupQuery> out;
    for (ls::Family f : ls::all_families()) {
        // The instruction's first target of this family that accepts it, and its default modifiers.
        auto target_of = [&](const ls::Instruction& ins) -> const ls::Target* {
            try {
                if (!ins.min_target.empty() && ls::Catalog::target(ins.min_target).family == f)
                    return &ls::Catalog::target(ins.min_target);
            } catch (const ls::Error&) {
            }
            for (const ls::Target& x : cat.targets())
                if (x.family == f) return &x;
            return nullptr;
        };
        const ls::Instruction* big = nullptr;
        const ls::Instruction* small = nullptr;
        ls::Operand small_op = ls::Operand::D;
        long long most = -1, fewest = -1;
        std::vector<const ls::Instruction*> pool = cat.on(f);
        for (const ls::Instruction& ins : blackwell)
            if (ins.on(f)) pool.push_back(&ins);
        const ls::Instruction* big_ldst = nullptr;  // tcgen05.ld/st: the largest register fragment, for `info`
        long long most_ldst = -1;
        for (const ls::Instruction* ins : pool) {
            const ls::Target* t = target_of(*ins);
            if (!t) continue;
            const ls::ResolvedModifiers mods = ls::resolve_modifiers(*ins, *t, ls::Modifiers{});
            for (ls::Operand op : ls::operands_of(*ins)) {
                const long long n = ls::layout_of_elements(*ins, *t, op, mods, {}).elements();
                if (op == ls::Operand::D && n > most) most = n, big = ins;
                if (op == ls::Operand::D && ins->kind == ls::LayoutKind::Tcgen05LdSt && n > most_ldst) most_ldst = n, big_ldst = ins;
                if (fewest < 0 || n < fewest) fewest = n, small = ins, small_op = op;
            }
        }
        if (!big) {
            out.push_back(StartupQuery{std::string(ls::family_name(f)), {}});  // no instructions yet: said so
            continue;
        }
        auto query = [&](const char* sub, const ls::Instruction& ins, std::vector<std::string> rest) {
            const ls::Target& t = *target_of(ins);
            const int wave = ls::resolve_modifiers(ins, t, ls::Modifiers{}).wave;
            std::vector<std::string> a = {sub, "-a", t.gfx, "-i", ins.key(wave)};
            a.insert(a.end(), rest.begin(), rest.end());
            return StartupQuery{std::string(ls::family_name(f)), a};
        };
        const ls::Target& t = *target_of(*big);
        const ls::OperandLayout d =
            ls::layout_of_elements(*big, t, ls::Operand::D, ls::resolve_modifiers(*big, t, ls::Modifiers{}), {});
        out.push_back(query("where", *big, {"--operand", "D", "--row", std::to_string(d.rows() - 1), "--col",
                                            std::to_string(d.cols() - 1)}));
        out.push_back(query("which", *big, {"--operand", "D", "--reg", "0", "--lane", std::to_string(std::min(5, d.lanes() - 1))}));
        out.push_back(query("info", *big, {}));
        if (big_ldst) out.push_back(query("info", *big_ldst, {}));
        out.push_back(query("layout", *small, {"--operand", std::string(ls::operand_name(small_op))}));
        if (std::string(ls::family_name(f)) == "blackwell") {
            // D read back by tcgen05.ld (one CTA and the 2-CTA pair) and the search for the standard GEMM.
            const std::string fam(ls::family_name(f)), bw = "tcgen05_mma_m128n256k16_f32_f16", pair = "tcgen05_mma_m256n256k16_f32_f16_2cta";
            const std::vector<std::string> at = {"-a", "sm_100a", "--operand", "D"};
            auto named = [&](std::vector<std::string> a) { return StartupQuery{fam, std::move(a)}; };
            out.push_back(named({"where", "-i", bw, at[0], at[1], at[2], at[3], "--tmem-load", "32x32b", "--num-warps", "4", "--row", "127", "--col", "255"}));
            out.push_back(named({"where", "-i", pair, at[0], at[1], at[2], at[3], "--tmem-load", "16x256b", "--row", "205", "--col", "3"}));
            out.push_back(named({"which", "-i", pair, at[0], at[1], at[2], at[3], "--tmem-load", "16x256b", "--lane", "213", "--reg", "3"}));
            out.push_back(named({"list", "-a", "sm_100a", "--search", "tcgen05 m128n256k16 f32 f16"}));
        }
    }
    return out;
}

// Instructions a command executes, counted by valgrind's callgrind ("" where it is not installed
// or fails): exact where wall-clock times on a busy machine are not.
std::string count_instructions(const std::vector<std::string>& argv) {
    std::string line = "valgrind --tool=callgrind --callgrind-out-file=/dev/null";
    for (const std::string& a : argv) line += " '" + a + "'";
    std::FILE* p = ::popen((line + " 2>&1 >/dev/null").c_str(), "r");
    if (!p) return "";
    std::string text;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) text += buf;
    if (::pclose(p) != 0) return "";
    const size_t at = text.find("Collected : ");
    if (at == std::string::npos) return "";
    char out[32];
    std::snprintf(out, sizeof out, "%.2f M", std::atof(text.c_str() + at + 12) / 1e6);
    return out;
}

void bench_startup(const std::string& self, int runs, bool instructions) {
    const fs::path here = fs::path(self).parent_path();
    std::error_code ec;
    const bool own_empty = fs::exists(here / "lanescope-empty", ec);
    const std::string empty = own_empty ? (here / "lanescope-empty").string() : "/bin/true";
    std::vector<std::vector<std::string>> commands = {{empty}};
    std::vector<StartupQuery> queries;
    for (const StartupQuery& q : startup_queries()) {
        if (q.args.empty()) {
            out_printf("  %s: no instructions in the catalog yet, nothing to time\n", q.family.c_str());
            continue;
        }
        queries.push_back(q);
        commands.push_back({self});
        commands.back().insert(commands.back().end(), q.args.begin(), q.args.end());
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    // Per command: wall-clock times (the goal's), and the CPU time (user + system) the
    // process used, which a busy machine disturbs less.
    std::vector<std::vector<double>> wall(commands.size()), cpu(commands.size());
    for (int n = 0; n < runs; ++n)
        for (size_t c = 0; c < commands.size(); ++c) {
            std::vector<char*> argv;
            for (const std::string& a : commands[c]) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            const auto s = std::chrono::steady_clock::now();
            pid_t pid;
            if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
                throw ls::Error("cannot start " + commands[c][0]);
            int status = 0;
            struct rusage use {};
            wait4(pid, &status, 0, &use);
            const auto e = std::chrono::steady_clock::now();
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                std::string line;
                for (size_t w = 1; w < commands[c].size(); ++w) line += " " + commands[c][w];
                throw ls::Error("the timed start-up command 'lanescope-cli" + line + "' failed");
            }
            wall[c].push_back(std::chrono::duration<double, std::milli>(e - s).count());
            cpu[c].push_back((use.ru_utime.tv_sec + use.ru_stime.tv_sec) * 1e3 +
                             (use.ru_utime.tv_usec + use.ru_stime.tv_usec) / 1e3);
        }
    posix_spawn_file_actions_destroy(&actions);
    for (auto* v : {&wall, &cpu})
        for (auto& t : *v) std::sort(t.begin(), t.end());
    auto median = [](const std::vector<double>& t) { return t[t.size() / 2]; };
    auto p90 = [](const std::vector<double>& t) { return t[t.size() * 9 / 10]; };
    out_printf("start-up: single queries as whole processes, %d runs each, in turns (goal: every one < 2x the empty "
                "process, wall-clock medians; per family its largest instruction)\n", runs);
    out_printf("  empty process (%s): median %.2f ms, p90 %.2f ms; CPU median %.2f ms%s%s\n",
                own_empty ? "lanescope-empty, int main() { return 0; } built with lanescope-cli's compiler and flags"
                          : "/bin/true: lanescope-empty is not beside lanescope-cli",
                median(wall[0]), p90(wall[0]), median(cpu[0]), instructions ? "; instructions " : "",
                instructions ? count_instructions(commands[0]).c_str() : "");
    out_printf("| family | query | median ms | p90 ms | ratio | CPU ms | CPU ratio |%s\n|---|---|---|---|---|---|---|%s\n",
                instructions ? " instructions |" : "", instructions ? "---|" : "");
    size_t missed = 0;
    for (size_t c = 1; c < commands.size(); ++c) {
        std::string line = "lanescope-cli";
        for (size_t w = 1; w < commands[c].size(); ++w) line += " " + commands[c][w];
        const double ratio = median(wall[c]) / median(wall[0]);
        if (ratio >= 2) ++missed;
        out_printf("| %s | `%s` | %.2f | %.2f | %.2fx | %.2f | %.2fx |%s\n", queries[c - 1].family.c_str(), line.c_str(),
                    median(wall[c]), p90(wall[c]), ratio, median(cpu[c]), median(cpu[c]) / std::max(median(cpu[0]), 1e-3),
                    instructions ? (" " + count_instructions(commands[c]) + " |").c_str() : "");
    }
    out_printf("start-up goal (< 2x the empty process): %s (%zu of %zu queries at 2x or more)\n",
                missed ? "missed" : "met", missed, commands.size() - 1);
}

// Speed goals: one `layout` query as a whole process under 5 ms; every layout
// of the catalog as JSON under 1 s; the start-up of single queries (above).
int cmd_bench(const Options& o) {
    if (o.bench_largest) {
        // --largest times a fixed list of requests, once each: the other timing options do not apply.
        for (const char* other : {"--runs", "--catalog-rows", "--instructions"})
            if (o.sub && o.sub->count(other) > 0)
                throw UsageError(std::string("bench --largest runs each of its requests once and loads no synthetic "
                                             "catalog: ") + other + " does not apply to it; legal with --largest: no other bench option");
        return bench_largest(o);
    }
    const std::string self = own_executable("bench");  // before any work: refused in process
    const ls::Catalog& cat = catalog(o);
    auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    ExportStats st = export_all(cat, "");
    double export_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double cpu_ms = 1000.0 * double(std::clock() - c0) / CLOCKS_PER_SEC;  // tells a busy machine apart
    out_printf("export every layout as JSON (in memory): %zu layouts, %zu entries, %.1f MB in %.1f ms, %.1f ms of CPU "
                "(goal < 1000 ms)\n",
                st.layouts, st.entries, st.bytes / 1e6, export_ms, cpu_ms);
    // Per vendor: NVIDIA's wgmma (N up to 256, 128 lanes) holds most of the entries.
    for (ls::Vendor v : {ls::Vendor::AMD, ls::Vendor::NVIDIA}) {
        auto v0 = std::chrono::steady_clock::now();
        ExportStats sv = export_all(cat, "", v);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - v0).count();
        out_printf("  of which %s: %zu layouts, %zu entries, %.1f MB in %.1f ms\n", std::string(ls::vendor_name(v)).c_str(),
                    sv.layouts, sv.entries, sv.bytes / 1e6, ms);
    }

    if (o.catalog_rows > 0) {
        // Loading is linear: a catalog of N rows (the built-in rows repeated, each
        // builtin renamed so it stays unique per family) parsed, checked and listed.
        std::string text;
        std::vector<std::string> rows;
        for (const std::string& line : split_lines(ls::Catalog::builtin_text()))
            if (!line.empty() && line[0] != '#' && line.find('|') != std::string::npos) rows.push_back(line);
        for (int n = 0; static_cast<int>(rows.size()) * n < o.catalog_rows; ++n)
            for (size_t r = 0; r < rows.size() && static_cast<int>(rows.size()) * n + static_cast<int>(r) < o.catalog_rows; ++r) {
                std::string row = rows[r];
                const size_t b0 = row.find('|') + 1, b1 = row.find('|', b0);
                std::string builtin = row.substr(b0, b1 - b0);
                const size_t w = builtin.find("_{w}");
                const std::string tag = "_r" + std::to_string(n);
                if (w != std::string::npos) builtin.insert(w, tag);
                else builtin.insert(builtin.find_last_not_of(' ') + 1, tag);
                text += row.substr(0, b0) + builtin + row.substr(b1) + "\n";
            }
        auto p0 = std::chrono::steady_clock::now();
        ls::Catalog big = ls::Catalog::parse(text, "bench");
        auto p1 = std::chrono::steady_clock::now();
        std::vector<const ls::Target*> targets;
        for (ls::Family f : {ls::Family::CDNA3, ls::Family::RDNA4})
            for (const auto& t : big.targets())
                if (t.family == f) {
                    targets.push_back(&t);
                    break;
                }
        const std::string listed = ls::render_list(big, targets, ls::Format::Table);
        auto p2 = std::chrono::steady_clock::now();
        out_printf("load a %zu-row catalog (%.1f MB): parse and check %.0f ms, list two architectures %.0f ms "
                    "(goal: load < 2000 ms)\n",
                    big.instructions().size(), text.size() / 1e6,
                    std::chrono::duration<double, std::milli>(p1 - p0).count(),
                    std::chrono::duration<double, std::milli>(p2 - p1).count());
    }

    const char* argv[] = {self.c_str(), "layout", "--arch", "cdna3", "--instruction", "v_mfma_f32_32x32x1_2b_f32",
                          "--operand", "C", "--format", "json", nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    std::vector<double> times;
    for (int n = 0; n < o.runs; ++n) {
        auto s = std::chrono::steady_clock::now();
        pid_t pid;
        if (posix_spawn(&pid, self.c_str(), &actions, nullptr, const_cast<char**>(argv), environ) != 0)
            throw ls::Error("cannot start " + self);
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw ls::Error("the timed layout query failed");
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
    }
    posix_spawn_file_actions_destroy(&actions);
    std::sort(times.begin(), times.end());
    out_printf("one `layout --format json` query (32x32x1 2-block C, 2048 entries) as a whole process, %d runs: "
                "median %.2f ms, p90 %.2f ms, max %.2f ms (goal < 5 ms)\n",
                o.runs, times[times.size() / 2], times[times.size() * 9 / 10], times.back());
    bench_startup(self, o.runs, o.bench_instructions);
    return 0;
}

}  // namespace

namespace {
// Returned by cli_main when a command line set up with only the options it names does
// not parse: it is parsed again with every option, for CLI11's full message.
constexpr int kParseAgain = -1;


// The subcommand typed: the first word that is not an option (nor --catalog's value); "" if none.
std::string invoked_word(int argc, char** argv) {
    for (int n = 1; n < argc; ++n) {
        const std::string word = argv[n];
        if (word == "--catalog") {
            ++n;
            continue;
        }
        if (!word.empty() && word[0] == '-') continue;
        return word;
    }
    return "";
}

// The options of one of the core subcommands (list ... bench), bound to `o`.
void add_core_options(CLI::App* sub, Options& o, const std::string& name) {
    if (name == "list") {
        sub->add_option("-a,--arch", o.list_arch, "only this architecture (default: one target per family)");
        sub->add_option("-s,--search", o.search,
                        "only the instructions that match these words, best first, as the app's search box finds "
                        "them: parts of a name, shapes (32x32), types (bf16, fp8, int8), sparse, dense, scaled "
                        "(e.g. --search \"32x32 bf16\")");
        sub->add_option("-f,--format", o.format, "output: table, csv, markdown, json")->capture_default_str();
        sub->add_option("-o,--out", o.out, "write to this file (atomically; - for stdout) instead of stdout");
    } else if (name == "export") {
        sub->add_option("-o,--out", o.out,
                        "directory for the JSON files (built beside it, then swapped in; a previous export is "
                        "replaced)")
            ->required();
    } else if (name == "bench") {
        add_int_option(sub, "--runs", o.runs, 1, 100000, "process launches to time");
        add_int_option(sub, "--catalog-rows", o.catalog_rows, 0, 1000000,
                       "rows of the synthetic catalog whose loading is timed (0: skip)");
        sub->add_flag("--instructions", o.bench_instructions,
                      "also count each start-up query's instructions once under valgrind's callgrind (where "
                      "valgrind is installed): exact where wall-clock times on a busy machine are not");
        sub->add_flag("--largest", o.bench_largest,
                      "instead: time the largest legal request of each subcommand and the refusals past the "
                      "limits (docs/limits.md; writes up to 2 GB under the temporary directory, then removes it)");
    } else {
        add_target_options(sub, o, name != "info");
    }
    if (name == "layout") {
        sub->add_option("--view", o.view, "matrix (element -> slots) or registers (slot -> elements)")
            ->capture_default_str();
        sub->add_option("--linear", o.linear_file,
                        "show a linear layout read from FILE: lanescope's JSON ({\"register\": [[r, c], ...], \"lane\": ..., "
                        "\"warp\": ..., \"shape\": [R, C]}), Triton's (reg_bases, lane_bases, ...), Gluon's "
                        "DistributedLinearLayout(...) or LinearLayout::toString() text; --format table, csv, json, "
                        "linear or gluon");
    }
    if (name == "where" || name == "trace") {
        auto* row = add_int_option(sub, "--row", o.row, 0, 1 << 20,
                                   name == "where" ? "row index (alone: the whole row)" : "row index of D");
        auto* col = add_int_option(sub, "--col", o.col, 0, 1 << 20,
                                   name == "where" ? "column index (alone: the whole column)" : "column index of D");
        if (name == "trace") row->required(), col->required();
        add_int_option(sub, "--block", o.block, 0, 1 << 20, "block index (multi-block instructions; default 0)");
    }
    if (name == "which") {
        add_int_option(sub, "--reg,--column", o.reg, 0, 1 << 20,
                       "register, counted from the operand's first VGPR (left out: every register of the lane); "
                       "on a Tensor Memory operand the TMEM column (--column)");
        add_int_option(sub, "--lane,--tmem-lane", o.lane, 0, 1 << 20,
                       "lane (NVIDIA: thread); on a Tensor Memory operand the TMEM lane, 0-127, CTA 1 of a "
                       "cta_group::2 pair 128-255 (--tmem-lane)")
            ->required();
        add_int_option(sub, "--wave-size", o.wave_size, 32, 128, "the wave size, as --wave");
        // --wave is the wave size here too; a small number is most likely a wave index (the old spelling).
        if (CLI::Option* table_wave = sub->get_option_no_throw("--wave")) sub->remove_option(table_wave);
        sub
            ->add_option_function<std::string>(
                "-w,--wave",
                [&o](const std::string& text) {
                    int v = 0;
                    try {
                        v = static_cast<int>(ls::parse_integer(text, 0, 65535, "--wave"));
                    } catch (const ls::Error& e) {
                        throw CLI::ValidationError(e.what());
                    }
                    if (v != 32 && v != 64 && v != 128)
                        throw CLI::ValidationError("--wave " + text +
                                                   " is not a wave size: --wave is the wave size (32 or 64 on RDNA, "
                                                   "64 on CDNA, 128 for wgmma); the wave of a tile is --of-wave " + text);
                    o.mods.wave = v;
                },
                "wave size (32 or 64 on RDNA; 128 names an NVIDIA warpgroup); a wave of a tile is --of-wave")
            ->type_name("INT");
        add_int_option(sub, "--of-wave", o.wave_index, 0, 65535,
                       "with tile options: which wave of the tile (0..WM*WN-1, wave = wm * WN + wn; default 0)");
    }
    if (name == "layout" || name == "where" || name == "which" || name == "check" || name == "trace")
        add_tile_options(sub, o);
    if (name == "header") {
        // --operand and --format are there only to be refused with the reason (cmd_header): not in --help.
        for (const char* refused : {"--operand", "--format"})
            if (CLI::Option* opt = sub->get_option_no_throw(refused)) opt->group("");
        add_tile_options(sub, o);
        sub->add_option("--namespace", o.header_namespace, "namespace of the generated code (default ls_<gfx>_<name>: the builtin without __builtin_amdgcn_ on AMD, "
                        "the short name on NVIDIA, e.g. ls_sm_100a_tcgen05_mma_m128n64k16_f32_f16; one per instruction)");
        sub->add_flag("--tables", o.header_tables,
                      "constexpr tables instead of closed-form index math (the earlier form, for host-side checks)");
    }
    if (name == "check")
        add_int_option(sub, "--show", o.check_show, 0, 1000000,
                       "how many differing elements to list after the summary (default 10; --format json lists them all)");
    if (name == "check")
        sub->add_option("--layout", o.layout_file, "the layout to check: the JSON contract, CSV, or a linear layout (lanescope's or Triton's JSON, "
                            "Gluon's DistributedLinearLayout(...), LinearLayout::toString() text)")
            ->required();
}

// Whether the first word names no subcommand: then what was typed and what is legal are said.
bool refuse_unknown_subcommand(int argc, char** argv, const std::vector<Command>& commands) {
    std::vector<std::string> names;
    for (const Command& c : commands) names.push_back(c.sub->get_name());
    for (int n = 1; n < argc; ++n) {
        const std::string word = argv[n];
        if (word == "--catalog") {
            ++n;
            continue;
        }
        if (word.rfind("--catalog=", 0) == 0) continue;
        if (word.empty() || word[0] == '-') break;
        if (std::find(names.begin(), names.end(), word) == names.end()) {
            std::string msg = "lanescope-cli: unknown subcommand '" + word + "'";
            auto near = ls::closest(word, names, 2);
            if (!near.empty()) msg += "; did you mean '" + near[0] + "'?";
            msg += "\nlegal subcommands:";
            for (const auto& nm : names) msg += " " + nm;
            err_printf("%s\n(lanescope-cli --help describes them)\n", msg.c_str());
            return true;
        }
        break;
    }
    return false;
}

// Runs the chosen subcommand: its exit status, or the status of the error it ended with (said on stderr).
int run_chosen(CLI::App& app, std::vector<Command>& commands, Options& o, int argc, char** argv) {
    int rc = 2;
    try {
        refuse_empty_values(app);
        for (Command& c : commands)
            if (c.sub->parsed()) {
                o.command = c.sub->get_name();
                o.sub = c.sub;
                rc = c.run();
                break;
            }
        // Output that was printed must have arrived (a full disk, a closed pipe).
        std::cout.flush();
        ls::files::stdout_stream().flush();
        if (!ls::files::stdout_stream())
            throw ls::Error(std::string("cannot write to standard output: ") + std::strerror(errno ? errno : EIO));
        if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout)
            throw ls::Error(std::string("cannot write to standard output: ") + std::strerror(errno ? errno : EIO));
    } catch (const UsageError& e) {
        err_printf("lanescope-cli: %s\n", name_options_as_typed(e.what(), app, argc, argv).c_str());
        return 2;
    } catch (const ls::Error& e) {
        err_printf("lanescope-cli: error: %s\n", name_options_as_typed(e.what(), app, argc, argv).c_str());
        return 1;
    } catch (const std::exception& e) {
        err_printf("lanescope-cli: internal error: %s\n", e.what());
        return 3;
    }
    return rc;
}

// lanescope-cli's description and examples (its --help).
const char* const kAppHelp =
    "lanescope-cli: where every element of an AMD or NVIDIA GPU matrix instruction lives (lane, register, "
    "bits).\n"
    "Examples:\n"
    "  lanescope-cli list --arch gfx942\n"
    "  lanescope-cli layout --arch cdna3 --instruction v_mfma_f32_32x32x8_f16 --operand C\n"
    "  lanescope-cli where --arch gfx1100 -i wmma_f32_16x16x16_f16_w32 --operand A --row 3 --col 5\n"
    "  lanescope-cli which --arch mi300x -i v_mfma_f32_16x16x16_f16 --operand D --reg 2 --lane 17\n"
    "  lanescope-cli trace --arch cdna3 -i v_mfma_f32_32x32x1_2b_f32 --row 4 --col 7 --block 1\n"
    "  lanescope-cli layout --arch sm_90 -i mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 --operand A\n";

// The command line's subcommands and options, bound to `o` (only the typed subcommand's, see
// sets_up), and each subcommand's run in `commands`.
void set_up_app(CLI::App& app, Options& o, int argc, char** argv, std::vector<Command>& commands) {
    app.require_subcommand(1);
    app.add_option("--catalog", o.catalog, "use this catalog file instead of the built-in one");
    // The first word that is not an option (nor --catalog's value) names the subcommand:
    // only its options are set up (sets_up in common.hpp).
    o.invoked = invoked_word(argc, argv);
    const auto& known = subcommand_names();
    o.alone = std::find(known.begin(), known.end(), o.invoked) != known.end();
    app.set_version_flag("--version", "lanescope-cli 0.1.0");

    struct CoreCommand {
        const char* name;
        const char* help;
        int (*run)(const Options&);
        CLI::App* sub = nullptr;
    };
    CoreCommand core_commands[] = {
        {"list", "list the catalog (per architecture, with counts)", cmd_list},
        {"info", "an instruction's facts and layout formulas", cmd_info},
        {"layout", "a whole operand: each element's slots (--view matrix) or each slot's elements (--view registers)",
         cmd_layout},
        {"where", "where one element lives: --row R --col C [--block B]", cmd_where},
        {"which", "what one register of one lane holds: --reg G --lane L (without --reg: every register of the lane; tiles: --of-wave W)", cmd_which},
        {"trace", "every A, B, C (K, SA, SB) location that feeds one D element: --row I --col J [--block B]",
         cmd_trace},
        {"header", "write a C++17 header (HIP/CUDA device and host): closed-form index math, vector load/store, mma helpers: -o FILE",
         cmd_header},
        {"check", "compare a layout (JSON contract, CSV or linear, --layout FILE) with lanescope's: exit 0 equal, 5 differ",
         cmd_check},
        {"export", "write every layout of the catalog as JSON files into --out DIR", cmd_export},
        {"bench", "measure the speed goals (whole-process query time, export of every layout)", cmd_bench},
    };
    for (CoreCommand& c : core_commands) {
        if (!registers(o, c.name)) continue;
        c.sub = app.add_subcommand(c.name, c.help);
        commands.push_back({c.sub, [&o, run = c.run] { return run(o); }});
        c.sub->footer("Exit status: 0 success, 1 bad query or failed write (message on stderr), 2 usage error.");
        if (sets_up(o, c.name)) add_core_options(c.sub, o, c.name);
    }

    register_figure_commands(app, o, commands);
    register_verify_commands(app, o, commands);
    register_load_commands(app, o, commands);
    register_smem_commands(app, o, commands);
}

int cli_main(int argc, char** argv, bool every_option, const FigureHooks& hooks) {
    Options o;
    o.every_option = every_option;
    o.figure = hooks;
    note_typed_options(o, argc, argv, every_option);
    CLI::App app{kAppHelp, "lanescope-cli"};
    std::vector<Command> commands;
    set_up_app(app, o, argc, argv, commands);

    // A first word that names no subcommand: say what was typed and what is legal.
    if (refuse_unknown_subcommand(argc, argv, commands)) return 2;

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) {  // --help, --version
            std::ostringstream out, err;
            const int rc = app.exit(e, out, err);
            ls::files::write_stdout(out.str());
            ls::files::write_stderr(err.str());
            return rc;
        }
        if (!o.every_option) return kParseAgain;
        err_printf("%s\nRun with --help for more information.\n", parse_error_text(e, app, argc, argv).c_str());
        return 2;
    }
    return run_chosen(app, commands, o, argc, argv);
}

}  // namespace

std::vector<std::string> lanescope_cli_option_names(const std::string& command) {
    std::string program = "lanescope-cli", word = command;
    char* argv[] = {program.data(), word.data(), nullptr};
    Options o;  // every option of `command`, as --help and the unknown-option message set them up
    CLI::App app{kAppHelp, "lanescope-cli"};
    std::vector<Command> commands;
    set_up_app(app, o, 2, argv, commands);
    const CLI::App* sub = nullptr;
    for (const CLI::App* a : app.get_subcommands([](const CLI::App*) { return true; }))
        if (a->get_name() == command) sub = a;
    std::vector<std::string> names;
    for (const CLI::App* a : {static_cast<const CLI::App*>(&app), sub}) {
        if (!a) continue;
        for (const CLI::Option* opt : a->get_options())
            if (!opt->get_group().empty())  // hidden options are refused whenever given, never offered
                for (const std::string& l : opt->get_lnames())
                    if (l != "help") names.push_back("--" + l);
    }
    return names;
}

// The whole CLI as a function (entry.hpp).
int lanescope_cli_main(int argc, char** argv) { return lanescope_cli_main_with(argc, argv, {}); }

int lanescope_cli_main_with(int argc, char** argv, const lscli::FigureHooks& hooks) {
    const int rc = cli_main(argc, argv, false, hooks);
    return rc == kParseAgain ? cli_main(argc, argv, true, hooks) : rc;
}
