// lanescope._core: the C++ side of the Python module (pybind11).
//
// Thin by design: the options are parsed by the CLI's own parser (cli/common.cpp:
// add_target_options, add_tile_options, resolve), so a keyword means what the flag
// means and a refusal says what the CLI says; layouts are core's OperandLayout and
// TileLayout; text (JSON, linear, Gluon, CuTe, headers, check, load, figures) is
// lanescope-cli's own output, produced in process by lanescope_cli_main. The
// arrays are filled here, one pass over core's entries, no Python object per element.
#include "common.hpp"  // and entry.hpp: the CLI as a function

#include "lanescope/files.hpp"
#include "lanescope/limits.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/options.hpp"
#include "lanescope/smem.hpp"
#include "lanescope/search.hpp"
#include "lanescope/tile.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
namespace ls = lanescope;

namespace {

// The exception classes of lanescope/_errors.py, looked up at import.
py::object g_usage_error, g_query_error, g_internal_error;

[[noreturn]] void raise(const py::object& cls, const std::string& message) {
    PyErr_SetString(cls.ptr(), message.c_str());
    throw py::error_already_set();
}

// ---------------------------------------------------------------------------
// lanescope-cli in process: (exit status, standard output, standard error). The CLI writes both
// through ls::files (write_stdout, write_stderr), which hand them to this call's Capture: the
// process's file descriptors are never touched (another thread writing meanwhile keeps its
// output) and no file is made.
struct Captured {
    int rc = 0;
    py::object out;  // bytes, or str when asked for text
    std::string err;
};

// Standard output written straight into the one Python object returned (a layout's JSON can be a
// gigabyte or more: no second copy): a bytes, or an ASCII str, grown in place (realloc); the text
// is decoded as UTF-8 at the end only where it is not ASCII (lanescope's texts are). The CLI runs
// on the calling thread, which holds the GIL; bytes from another thread are kept aside, appended.
class PyCapture : public ls::files::Capture {
public:
    explicit PyCapture(bool text) : text_(text) {}
    ~PyCapture() override { Py_XDECREF(obj_); }
    void out(std::string_view bytes) override {
        if (!PyGILState_Check()) {
            aside_.append(bytes);
            return;
        }
        if (size_ + bytes.size() > cap_) grow(std::max(size_ + bytes.size(), std::max<size_t>(cap_ * 2, size_t(1) << 16)));
        std::memcpy(data() + size_, bytes.data(), bytes.size());
        size_ += bytes.size();
    }
    void err(std::string_view bytes) override { err_.append(bytes); }
    const std::string& err_text() const { return err_; }
    py::object finish() {
        if (!aside_.empty()) out(std::exchange(aside_, std::string()));
        grow(size_);
        py::object owner = py::reinterpret_steal<py::object>(std::exchange(obj_, nullptr));
        if (!text_) return owner;
        const auto* u = reinterpret_cast<const unsigned char*>(PyUnicode_DATA(owner.ptr()));
        if (std::all_of(u, u + size_, [](unsigned char c) { return c < 0x80; })) return owner;
        PyObject* decoded = PyUnicode_DecodeUTF8(reinterpret_cast<const char*>(u), static_cast<Py_ssize_t>(size_), "replace");
        if (!decoded) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(decoded);
    }

private:
    char* data() { return text_ ? static_cast<char*>(PyUnicode_DATA(obj_)) : PyBytes_AS_STRING(obj_); }
    void grow(size_t want) {
        const auto n = static_cast<Py_ssize_t>(want);
        if (!obj_) {
            obj_ = text_ ? PyUnicode_New(n, 127) : PyBytes_FromStringAndSize(nullptr, n);
        } else {
            // An ASCII str of one reference is resized in place, as bytes are (CPython's
            // PyUnicode_Resize, _PyBytes_Resize); the bytes written so far are kept.
            if (text_ ? PyUnicode_Resize(&obj_, n) != 0 : false) Py_CLEAR(obj_);  // its failure keeps the old str
            else if (!text_ && _PyBytes_Resize(&obj_, n) != 0) obj_ = nullptr;  // its failure frees the old bytes
        }
        if (!obj_) {
            PyErr_Clear();
            size_ = cap_ = 0;
            throw ls::Error("no memory for " + std::to_string(want) + " bytes of output; legal: a smaller request");
        }
        cap_ = want;
    }
    bool text_;
    PyObject* obj_ = nullptr;
    size_t size_ = 0, cap_ = 0;
    std::string err_, aside_;
};

Captured run_cli(const std::vector<std::string>& args, bool text, std::optional<std::string> input) {
    std::vector<std::string> words = {"lanescope-cli"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    PyCapture capture(text);
    if (input) capture.input = std::move(*input);
    int rc = 3;
    std::string internal;
    {
        ls::files::CaptureScope scope(capture);
        try {
            rc = lanescope_cli_main(static_cast<int>(words.size()), argv.data());
        } catch (const std::exception& e) {  // lanescope_cli_main catches its own; anything else is a bug
            internal = e.what();
        }
    }
    Captured c;
    c.rc = internal.empty() ? rc : 3;
    c.out = capture.finish();
    c.err = internal.empty() ? capture.err_text() : "lanescope-cli: internal error: " + internal;
    return c;
}

// The modifiers of a query as the keywords that ask for them (the CLI's long options, '_' for '-',
// named values by name): layout(arch, instruction, **L.modifiers) asks for the same layout. Every
// field the query gave, or that modifier_ranges offers, or whose value is not the default, is
// considered (a descriptor's numeric fields, lbo, sbo, smem_address, have no range listed); one at
// its default (what the query has with no modifier given; -1: the canonical shared-memory
// values) is left out.
py::dict keyword_modifiers(const ls::Instruction& ins, const ls::Target& t, const ls::ResolvedModifiers& rm,
                           const ls::Modifiers& given) {
    // The values the query has when no modifier is given: a field at its default is left out.
    std::optional<ls::ResolvedModifiers> defaults;
    try {
        defaults = ls::resolve_modifiers(ins, t, ls::Modifiers{});
    } catch (const ls::Error&) {  // this instruction needs a modifier: every applicable field is kept
    }
    std::vector<std::string> applicable;
    for (const ls::ModifierRange& m : ls::modifier_ranges(ins, t, rm)) applicable.push_back(m.name);
    py::dict mods;
    for (const ls::ModifierOption& o : ls::modifier_options()) {
        const std::string field(o.field);
        std::string key = o.flag().substr(2);
        std::replace(key.begin(), key.end(), '-', '_');
        if (field == "descriptor") {
            if (rm.descriptor) {
                char buf[24];
                std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(*rm.descriptor));
                mods[py::str(key)] = std::string(buf);
            }
            continue;
        }
        const int v = ls::modifier_value(rm, field);
        const bool offered = std::find(applicable.begin(), applicable.end(), field) != applicable.end();
        if (!offered && ls::modifier_value(given, field) == -1 && (!defaults || ls::modifier_value(*defaults, field) == v))
            continue;
        if (v < 0 || (rm.descriptor && o.group == "smem" && field != "smem_major")) continue;  // canonical, or the descriptor's
        if (defaults && ls::modifier_value(*defaults, field) == v) continue;                  // the default
        if (field == "swizzle") {
            mods[py::str(key)] = std::string(ls::smem_swizzle_name(static_cast<ls::SmemSwizzle>(v)));
            continue;
        }
        std::string name = o.value == ls::OptionValue::Named || o.value == ls::OptionValue::Word ? ls::modifier_value_name(field, v) : "";
        if (!name.empty() && field != "smem_major")
            for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (!name.empty()) mods[py::str(key)] = name;
        else mods[py::str(key)] = v;
    }
    return mods;
}

// ---------------------------------------------------------------------------
// One layout query, parsed as `lanescope-cli layout ARGS` parses it.
struct Parsed {
    lscli::Options o;
    lscli::Resolved r;
    ls::Operand op = ls::Operand::A;
    bool tiled = false;
    ls::TileParams tile;
};

// The query's words parsed as `layout` parses them; with every_option false only the options typed
// are set up (most of the set-up time, as the CLI's start-up does), and a parse error asks again
// with every option, so its message is the CLI's.
std::unique_ptr<Parsed> parse_query(const std::vector<std::string>& args, bool every_option = false) {
    auto p = std::make_unique<Parsed>();
    lscli::Options& o = p->o;
    CLI::App app{"lanescope", "lanescope"};
    o.invoked = "layout";
    std::vector<std::string> words = {"lanescope", "layout"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    const int argc = static_cast<int>(argv.size());
    o.every_option = every_option;
    lscli::note_typed_options(o, argc, argv.data(), every_option);
    CLI::App* sub = app.add_subcommand("layout", "");
    lscli::add_target_options(sub, o, true);
    lscli::add_tile_options(sub, o);
    try {
        app.parse(argc, argv.data());
    } catch (const CLI::ParseError& e) {
        if (!o.every_option) return parse_query(args, true);
        raise(g_usage_error, lscli::parse_error_text(e, app, argc, argv.data()));
    }
    try {
        lscli::refuse_empty_values(app);
        o.command = "layout";
        o.sub = sub;
        p->r = lscli::resolve(o);
        if (o.operand == "all" || o.operand == "ALL")
            throw lscli::UsageError("one operand per layout object (operand='A', 'B', 'C', 'D', ...); "
                                    "lanescope.layouts(...) gives every operand");
        p->op = lscli::parse_operand_or_throw(o.operand, *p->r.ins);
        p->tiled = lscli::tile_mode(o);
        if (p->tiled) p->tile = lscli::tile_params(o);
    } catch (const lscli::UsageError& e) {
        raise(g_usage_error, lscli::name_options_as_typed(e.what(), app, argc, argv.data()));
    } catch (const ls::Error& e) {
        raise(g_query_error, lscli::name_options_as_typed(e.what(), app, argc, argv.data()));
    }
    return p;
}

template <typename T>
py::array_t<T> make_array(const std::vector<py::ssize_t>& shape, T fill) {
    py::array_t<T> a(shape);
    std::fill(a.mutable_data(), a.mutable_data() + a.size(), fill);
    return a;
}

// A laid-out operand: an instruction's (OperandLayout) or a tile's (TileLayout).
class PyLayout {
public:
    explicit PyLayout(const std::vector<std::string>& args) : p_(parse_query(args)) {
        try {
            const ls::Instruction& ins = *p_->r.ins;
            const ls::Target& t = *p_->r.target;
            if (p_->tiled)
                tile_ = std::make_unique<ls::TileLayout>(ins, t, p_->op, p_->r.query.mods, p_->tile);
            else  // the shape, space and formula only: the placements are made when first asked (whole())
                meta_ = std::make_unique<ls::OperandLayout>(ls::layout_of_elements(ins, t, p_->op, p_->r.query.mods, {}));
            if (tile_) ls::check_tile_work(*tile_, ls::kMaxStreamedPlacements, "lanescope.layout",
                                           "the arrays hold every placement");
        } catch (const ls::Error& e) {
            raise(g_query_error, e.what());
        }
    }
    const ls::OperandLayout& instr() const { return tile_ ? tile_->instruction() : *meta_; }
    // Every placement of the single instruction, made on first use: a where()/which() alone asks
    // core for its element or slot only (a 128x256 Tensor Memory D is 32768 placements).
    const ls::OperandLayout& whole() const {
        if (!single_) single_ = std::make_unique<ls::OperandLayout>(ls::layout_of(*p_->r.ins, *p_->r.target, p_->op, p_->r.query.mods));
        return *single_;
    }
    bool tiled() const { return static_cast<bool>(tile_); }
    int rows() const { return tile_ ? tile_->rows() : meta_->rows(); }
    int cols() const { return tile_ ? tile_->cols() : meta_->cols(); }
    int blocks() const { return tile_ ? 1 : meta_->blocks(); }
    int waves() const { return tile_ ? tile_->waves() : 1; }
    int lanes() const { return instr().lanes(); }
    int regs() const { return tile_ ? tile_->regs() : meta_->regs(); }

    // Every placement as parallel int32 arrays: block row col wave lane reg bit_lo bit_hi.
    py::dict arrays() const {
        static const char* const names[] = {"block", "row", "col", "wave", "lane", "reg", "bit_lo", "bit_hi"};
        std::vector<py::array_t<int32_t>> cols;
        auto fill = [&](size_t n, auto&& at) {
            for (int k = 0; k < 8; ++k) cols.emplace_back(static_cast<py::ssize_t>(n));
            int32_t* d[8];
            for (int k = 0; k < 8; ++k) d[k] = cols[k].mutable_data();
            for (size_t i = 0; i < n; ++i) at(i, d);
        };
        {
            py::gil_scoped_release nogil;  // the arrays are not yet visible to Python
            if (tile_) {
                const std::vector<ls::TileEntry> es = tile_->entries();
                py::gil_scoped_acquire gil;
                fill(es.size(), [&](size_t i, int32_t** d) {
                    const ls::TileEntry& e = es[i];
                    d[0][i] = 0, d[1][i] = e.element.row, d[2][i] = e.element.col, d[3][i] = e.at.wave;
                    d[4][i] = e.at.loc.lane, d[5][i] = e.at.loc.reg, d[6][i] = e.at.loc.bit_lo, d[7][i] = e.at.loc.bit_hi;
                });
            } else {
                std::vector<ls::Entry> es;
                try {
                    es = whole().entries();
                } catch (const ls::Error& e) {
                    py::gil_scoped_acquire gil;
                    raise(g_query_error, e.what());
                }
                py::gil_scoped_acquire gil;
                fill(es.size(), [&](size_t i, int32_t** d) {
                    const ls::Entry& e = es[i];
                    d[0][i] = e.element.block, d[1][i] = e.element.row, d[2][i] = e.element.col, d[3][i] = 0;
                    d[4][i] = e.loc.lane, d[5][i] = e.loc.reg, d[6][i] = e.loc.bit_lo, d[7][i] = e.loc.bit_hi;
                });
            }
        }
        py::dict out;
        for (int k = 0; k < 8; ++k) out[names[k]] = cols[k];
        return out;
    }

    // What each (wave, lane, reg) holds, part by part in bit order: block, row, col, bit_lo, bit_hi
    // arrays of shape (waves, lanes, regs, parts); -1 where a slot holds fewer parts (or nothing).
    py::dict inverse() const {
        const int W = waves(), L = lanes(), R = regs();
        const long long slots_count = static_cast<long long>(W) * L * R;
        if (slots_count > ls::kMaxHeldPlacements)
            raise(g_query_error, "the inverse view of this layout has " + std::to_string(slots_count) +
                                     " slots (waves x lanes x registers); it is built for at most " +
                                     std::to_string(ls::kMaxHeldPlacements) +
                                     "; legal: a smaller shape, fewer waves, or which() for single slots");
        std::vector<std::vector<ls::SlotPart>> slots(static_cast<size_t>(W) * L * R);
        size_t parts = 1;
        try {
            for (int w = 0; w < W; ++w)
                for (int l = 0; l < L; ++l)
                    for (int r = 0; r < R; ++r) {
                        auto& s = slots[(static_cast<size_t>(w) * L + l) * R + r];
                        s = tile_ ? tile_->which(w, r, l) : whole().which(r, l);
                        parts = std::max(parts, s.size());
                    }
        } catch (const ls::Error& e) {
            raise(g_query_error, e.what());
        }
        const std::vector<py::ssize_t> shape = {W, L, R, static_cast<py::ssize_t>(parts)};
        auto block = make_array<int32_t>(shape, -1), row = make_array<int32_t>(shape, -1), col = make_array<int32_t>(shape, -1);
        auto lo = make_array<int32_t>(shape, -1), hi = make_array<int32_t>(shape, -1);
        for (size_t s = 0; s < slots.size(); ++s)
            for (size_t k = 0; k < slots[s].size(); ++k) {
                const size_t i = s * parts + k;
                const ls::SlotPart& p = slots[s][k];
                block.mutable_data()[i] = p.element.block, row.mutable_data()[i] = p.element.row;
                col.mutable_data()[i] = p.element.col, lo.mutable_data()[i] = p.bit_lo, hi.mutable_data()[i] = p.bit_hi;
            }
        py::dict out;
        out["block"] = block, out["row"] = row, out["col"] = col, out["bit_lo"] = lo, out["bit_hi"] = hi;
        return out;
    }

    py::list where(int block, int row, int col) const {
        py::list out;
        try {
            if (tile_) {
                for (const ls::TileLocation& t : tile_->where({block, row, col}))
                    out.append(py::make_tuple(t.wave, t.loc.lane, t.loc.reg, t.loc.bit_lo, t.loc.bit_hi));
            } else {
                const ls::Element e{block, row, col};
                if (!meta_->contains(e)) meta_->where(e);  // the range refusal, as the whole layout words it
                for (const ls::Location& l : single_ ? single_->where(e)
                                                     : ls::layout_of_elements(*p_->r.ins, *p_->r.target, p_->op,
                                                                              p_->r.query.mods, {e}).where(e))
                    out.append(py::make_tuple(0, l.lane, l.reg, l.bit_lo, l.bit_hi));
            }
        } catch (const ls::Error& e) {
            raise(g_query_error, e.what());
        }
        return out;
    }

    py::list which(int wave, int lane, int reg) const {
        py::list out;
        try {
            if (!tile_ && wave != 0)
                throw ls::Error("wave " + std::to_string(wave) + " is not legal: a single instruction has one wave; legal: 0");
            if (tile_ && (wave < 0 || wave >= tile_->waves()))
                throw ls::Error("wave " + std::to_string(wave) + " is not legal; legal: 0.." +
                                std::to_string(tile_->waves() - 1));
            // A slot outside the operand: the whole layout's refusal (it places nothing there).
            const auto one_slot = [&] {
                if (single_ || reg < 0 || reg >= meta_->regs() || lane < 0 || lane >= meta_->lanes())
                    return whole().which(reg, lane);
                return ls::layout_of_slot(*p_->r.ins, *p_->r.target, p_->op, p_->r.query.mods, reg, lane).which(reg, lane);
            };
            for (const ls::SlotPart& p : tile_ ? tile_->which(wave, reg, lane) : one_slot())
                out.append(py::make_tuple(p.element.block, p.element.row, p.element.col, p.bit_lo, p.bit_hi, p.elem_bit_lo));
        } catch (const ls::Error& e) {
            raise(g_query_error, e.what());
        }
        return out;
    }

    // A slot in the one model of the CTA pair and of tcgen05.ld's loads (core's pair_slot).
    py::dict slot(int lane, int reg) const {
        py::dict d;
        try {
            if (lane < 0 || lane >= lanes() || reg < 0 || reg >= regs())
                throw ls::Error("slot (reg " + std::to_string(reg) + ", lane " + std::to_string(lane) + ") is outside the operand; legal: reg 0.." +
                                std::to_string(regs() - 1) + ", lane 0.." + std::to_string(lanes() - 1));
            const ls::PairSlot p = ls::pair_slot(*p_->r.ins, p_->op, p_->r.query.mods, ls::Location{reg, lane, 0, 31});
            d["cta"] = p.cta, d["lane"] = p.lane, d["warp"] = p.warp, d["pair"] = p.pair;
            d["load"] = p.load, d["load_reg"] = p.load_reg, d["loads"] = p.loads, d["load_ptx"] = p.load_ptx;
        } catch (const ls::Error& e) {
            raise(g_query_error, e.what());
        }
        return d;
    }

    py::dict info() const {
        const ls::Instruction& ins = *p_->r.ins;
        const ls::Target& t = *p_->r.target;
        const ls::OperandLayout& L = instr();
        py::dict d;
        d["target"] = t.gfx;
        d["arch"] = t.arch_name();
        d["vendor"] = std::string(t.vendor() == ls::Vendor::AMD ? "AMD" : "NVIDIA");
        d["instruction"] = ins.mnemonic;
        d["builtin"] = ins.builtin(L.lanes());
        d["operand"] = std::string(ls::operand_name(p_->op));
        d["type"] = std::string(ls::elem_name(L.type()));
        d["element_bits"] = L.element_bits();
        d["space"] = std::string(ls::space_name(L.space()));
        const auto axes = ls::space_axes(L.space(), t.vendor());
        d["axes"] = py::make_tuple(std::string(axes.first), std::string(axes.second));
        d["blocks"] = blocks();
        d["rows"] = rows();
        d["cols"] = cols();
        d["waves"] = waves();
        d["lanes"] = lanes();
        d["regs"] = regs();
        d["instruction_regs"] = L.regs();
        d["formula"] = L.formula();
        d["modifiers"] = keyword_modifiers(ins, t, p_->r.query.mods, p_->o.mods);
        d["tiled"] = tiled();
        if (tile_) {
            const ls::TileParams& tp = tile_->params();
            d["waves_grid"] = py::make_tuple(tp.waves_m, tp.waves_n);
            d["tiles_per_wave"] = py::make_tuple(tp.tiles_m, tp.tiles_n);
            d["shape"] = py::make_tuple(tp.m, tp.n, tp.k);
            d["k_width"] = tile_->k_width();
            d["transposed"] = tp.transposed;
            d["describe"] = tp.describe();
        }
        d["confidence"] = ins.confidence;
        d["source"] = ins.source;
        return d;
    }

private:
    std::unique_ptr<Parsed> p_;
    std::unique_ptr<ls::OperandLayout> meta_;            // single instruction: no placements
    mutable std::unique_ptr<ls::OperandLayout> single_;  // single instruction: every placement (whole())
    std::unique_ptr<ls::TileLayout> tile_;
};

// The C++ object behind `self`. A bare Layout.__new__(Layout) has storage but no object in it
// (pybind11 constructs the holder only in __init__): refused, not read.
const PyLayout& live(py::handle self) {
    if (!py::isinstance<PyLayout>(self))  // a method called unbound on another object
        raise(g_usage_error, std::string("a lanescope._core.Layout method needs a lanescope._core.Layout, not ") +
                                 Py_TYPE(self.ptr())->tp_name);
    auto* inst = reinterpret_cast<py::detail::instance*>(self.ptr());
    const py::detail::value_and_holder vh = inst->get_value_and_holder();
    if (!vh.holder_constructed() || !vh.value_ptr())
        raise(g_usage_error, "this lanescope._core.Layout was never initialised (made by __new__ without __init__); "
                             "legal: lanescope.layout(arch, instruction, operand, ...)");
    return *vh.value_ptr<PyLayout>();
}

// A linear layout read from text (lanescope's or Triton's JSON, Gluon's
// DistributedLinearLayout, LinearLayout::toString()): its bases and its places.
py::dict linear_layout(const std::string& text) {
    ls::LinearLayout L;
    try {
        L = ls::parse_linear(text, "the layout");
    } catch (const ls::Error& e) {
        raise(g_query_error, e.what());
    }
    auto bases = [](const std::vector<std::pair<int, int>>& v) {
        py::list out;
        for (const auto& b : v) out.append(py::make_tuple(b.first, b.second));
        return out;
    };
    const size_t n = static_cast<size_t>(L.places());
    py::array_t<int32_t> row(n), col(n), wave(n), lane(n), reg(n);
    size_t i = 0;
    for (int w = 0; w < L.warp_count(); ++w)
        for (int l = 0; l < L.lane_count(); ++l)
            for (int r = 0; r < L.reg_count(); ++r, ++i) {
                const auto rc = L.apply(r, l, w);
                row.mutable_data()[i] = rc.first, col.mutable_data()[i] = rc.second;
                wave.mutable_data()[i] = w, lane.mutable_data()[i] = l, reg.mutable_data()[i] = r;
            }
    py::dict d;
    d["rows"] = L.rows, d["cols"] = L.cols;
    d["register"] = bases(L.reg), d["lane"] = bases(L.lane), d["warp"] = bases(L.warp);
    d["block_bases"] = L.block_bases;  // the last warp bases that the text gave as block bases
    d["row"] = row, d["col"] = col, d["wave"] = wave, d["lane_index"] = lane, d["reg"] = reg;
    return d;
}

py::list targets() {
    py::list out;
    for (const ls::Target& t : ls::Catalog::builtin().targets()) {
        py::dict d;
        d["name"] = t.gfx;
        d["arch"] = t.arch_name();
        d["family"] = std::string(ls::family_name(t.family));
        d["title"] = t.title;
        d["vendor"] = std::string(ls::vendor_name(t.vendor()));
        d["products"] = t.products;
        d["wave_sizes"] = t.wave_sizes;
        d["default_wave"] = t.default_wave;
        out.append(d);
    }
    return out;
}

py::dict instruction_dict(const ls::Instruction& ins, const ls::Target& t) {
    py::dict d;
    const int wave = t.default_wave;
    d["mnemonic"] = ins.mnemonic;
    d["key"] = ins.key(wave);
    d["builtin"] = ins.builtin(wave);
    d["aliases"] = ins.aliases;
    d["kind"] = std::string(ls::layout_kind_name(ins.kind));
    d["shape"] = py::make_tuple(ins.m, ins.n, ins.k);
    d["blocks"] = ins.blocks;
    d["types"] = py::make_tuple(std::string(ls::elem_name(ins.a)), std::string(ls::elem_name(ins.b)),
                                std::string(ls::elem_name(ins.c)), std::string(ls::elem_name(ins.d_type())));
    d["sparse"] = ins.sparse();
    d["cycles"] = ins.cycles;
    std::vector<std::string> ops;
    for (ls::Operand op : ls::operands_of(ins)) ops.emplace_back(ls::operand_name(op));
    d["operands"] = ops;
    d["short_name"] = ins.short_name;
    d["min_target"] = ins.min_target;
    d["source"] = ins.source;
    return d;
}

py::list instructions(const std::string& arch, const std::string& query) {
    try {
        const ls::Target& t = ls::Catalog::target(arch);
        const ls::Catalog& cat = ls::Catalog::builtin(t.family);
        py::list out;
        for (const ls::SearchHit& h : ls::search(cat, t, query)) out.append(instruction_dict(*h.ins, t));
        return out;
    } catch (const ls::Error& e) {
        raise(g_query_error, e.what());
    }
}

std::vector<std::string> operands(const std::string& arch, const std::string& name) {
    try {
        const ls::Target& t = ls::Catalog::target(arch);
        const ls::Instruction& ins = ls::Catalog::builtin(t.family).find_instruction(t, name);
        std::vector<std::string> out;
        for (ls::Operand op : ls::operands_of(ins)) out.emplace_back(ls::operand_name(op));
        return out;
    } catch (const ls::Error& e) {
        raise(g_query_error, e.what());
    }
}

// The benchmark's reference (scripts/bench-python.py): the C++ engine alone making the same
// layout and its placements (TileLayout or OperandLayout, then entries()), best of `runs`, seconds.
double engine_seconds(const std::vector<std::string>& args, int runs) {
    std::unique_ptr<Parsed> p = parse_query(args);
    double best = 1e30;
    size_t n = 0;
    py::gil_scoped_release nogil;
    for (int k = 0; k < std::max(1, runs); ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        if (p->tiled)
            n += ls::TileLayout(*p->r.ins, *p->r.target, p->op, p->r.query.mods, p->tile).entries().size();
        else
            n += ls::layout_of(*p->r.ins, *p->r.target, p->op, p->r.query.mods).entries().size();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return n ? best : 0.0;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "lanescope's C++ engine (see the lanescope package for the documented API)";
    py::module_ errors = py::module_::import("lanescope._errors");
    g_usage_error = errors.attr("UsageError");
    g_query_error = errors.attr("QueryError");
    g_internal_error = errors.attr("InternalError");

    m.def(
        "run_cli",
        [](const std::vector<std::string>& args, bool text, std::optional<std::string> input) {
            Captured c = run_cli(args, text, std::move(input));
            PyObject* err = PyUnicode_DecodeUTF8(c.err.data(), static_cast<Py_ssize_t>(c.err.size()), "replace");
            if (!err) throw py::error_already_set();
            return py::make_tuple(c.rc, c.out, py::reinterpret_steal<py::str>(err));
        },
        py::arg("args"), py::arg("text") = false, py::arg("input") = py::none(),
        "lanescope-cli ARGS in this process: (exit status, stdout as bytes or, with text, str; stderr text); "
        "input: what '-' reads (check --layout=-)");
    m.attr("max_input_bytes") = py::int_(ls::files::kMaxInputBytes);  // the CLI's bound on a file it reads
    m.attr("max_check_input_bytes") = py::int_(ls::kMaxCheckInputBytes);  // check --layout's own (docs/limits.md)
    m.def("cli_options", &lanescope_cli_option_names, py::arg("command"),
          "the long options lanescope-cli offers for COMMAND, in its order (its own first: --catalog, --version)");
    m.def("targets", &targets, "every target of the built-in catalog, as dicts");
    m.def("instructions", &instructions, py::arg("arch"), py::arg("query") = "",
          "the instructions of `arch` that match `query` (best first; empty: all, in catalog order)");
    m.def("operands", &operands, py::arg("arch"), py::arg("instruction"), "the instruction's operands");
    m.def("engine_seconds", &engine_seconds, py::arg("args"), py::arg("runs") = 5,
          "the C++ engine's time to make this layout's placements (best of runs), for the benchmark");
    m.def("linear_layout", &linear_layout, py::arg("text"), "a linear layout's bases and places, read from text");

    // Every method refuses an object that __init__ never made (live()).
    py::class_<PyLayout>(m, "Layout")
        .def(py::init<const std::vector<std::string>&>(), py::arg("args"))
        .def("arrays", [](py::handle self) { return live(self).arrays(); })
        .def("inverse", [](py::handle self) { return live(self).inverse(); })
        .def("where", [](py::handle self, int block, int row, int col) { return live(self).where(block, row, col); },
             py::arg("block"), py::arg("row"), py::arg("col"))
        .def("which", [](py::handle self, int wave, int lane, int reg) { return live(self).which(wave, lane, reg); },
             py::arg("wave"), py::arg("lane"), py::arg("reg"))
        .def("info", [](py::handle self) { return live(self).info(); })
        .def("slot", [](py::handle self, int lane, int reg) { return live(self).slot(lane, reg); });
}
