#include "model/snippet.hpp"

#include "lanescope/elements.hpp"

#include <sstream>

namespace lsapp {

Fragment fragment_of(const ls::OperandLayout& l) {
    Fragment f;
    f.lanes = l.lanes();
    std::vector<std::vector<ls::Element>> per_lane(static_cast<size_t>(l.lanes()));
    for (int lane = 0; lane < l.lanes(); ++lane)
        for (int reg = 0; reg < l.regs(); ++reg)
            for (const ls::SlotPart& p : l.which(reg, lane))
                if (p.elem_bit_lo == 0) per_lane[static_cast<size_t>(lane)].push_back(p.element);
    for (const auto& v : per_lane) f.values = std::max(f.values, static_cast<int>(v.size()));
    for (auto& v : per_lane) {
        // Lanes that hold fewer values (none in the catalog today) repeat their last one.
        while (static_cast<int>(v.size()) < f.values) v.push_back(v.empty() ? ls::Element{} : v.back());
        f.elements.insert(f.elements.end(), v.begin(), v.end());
    }
    return f;
}

namespace {

int field_of(const ls::Element& e, int field) { return field == 0 ? e.block : field == 1 ? e.row : e.col; }

std::string term(int coef, const std::string& expr) {
    if (coef == 0) return {};
    return coef == 1 ? expr : std::to_string(coef) + " * " + expr;
}

std::string join(const std::vector<std::string>& terms, int offset) {
    std::string s;
    for (const auto& t : terms) {
        if (t.empty()) continue;
        s += (s.empty() ? "" : " + ") + t;
    }
    if (offset != 0 || s.empty()) s += (s.empty() ? "" : " + ") + std::to_string(offset);
    return s;
}

}  // namespace

std::string fit_index(const Fragment& f, int field) {
    if (f.lanes == 0 || f.values == 0) return {};
    auto val = [&](int lane, int v) { return field_of(f.at(lane, v), field); };
    const int base = val(0, 0);
    // f(lane, v) = a * (lane % G) + b * (lane / G) + c * (v % P) + d * (v / P) + base
    for (int G : {4, 8, 16, 32, 64}) {
        if (G > f.lanes) break;
        for (int P : {1, 2, 4, 8, 16}) {
            if (P > f.values) break;
            const int a = f.lanes > 1 ? val(1, 0) - base : 0;
            const int b = G < f.lanes ? val(G, 0) - base : 0;
            const int c = P > 1 ? val(0, 1) - base : 0;
            const int d = P < f.values ? val(0, P) - base : 0;
            bool ok = true;
            for (int lane = 0; lane < f.lanes && ok; ++lane)
                for (int v = 0; v < f.values && ok; ++v)
                    ok = val(lane, v) == a * (lane % G) + b * (lane / G) + c * (v % P) + d * (v / P) + base;
            if (!ok) continue;
            const std::string lg = G == f.lanes ? "lane" : "(lane % " + std::to_string(G) + ")";
            const std::string vp = P == f.values ? "v" : "(v % " + std::to_string(P) + ")";
            return join({term(a, lg), term(b, "(lane / " + std::to_string(G) + ")"), term(c, P == 1 ? "" : vp),
                         term(d, P == 1 ? "v" : "(v / " + std::to_string(P) + ")")},
                        base);
        }
    }
    return {};
}

namespace {

void emit_function(std::ostringstream& s, const ls::OperandLayout& l, const char* name, bool store) {
    const Fragment f = fragment_of(l);
    const std::string blk = l.blocks() > 1 ? fit_index(f, 0) : "0";
    const std::string row = fit_index(f, 1), col = fit_index(f, 2);
    const std::string T(ls::c_type(l.type()));
    s << "// " << name << ": " << ls::operand_name(l.operand()) << " is " << l.rows() << "x" << l.cols()
      << (l.blocks() > 1 ? " x " + std::to_string(l.blocks()) + " blocks" : "") << " " << ls::elem_name(l.type())
      << "; each lane " << (store ? "writes " : "reads ") << f.values << " value(s), v = 0.." << f.values - 1 << ".\n";
    const bool fitted = !blk.empty() && !row.empty() && !col.empty();
    if (fitted) {
        s << "//   block = " << blk << "\n//   row   = " << row << "\n//   col   = " << col << "\n";
    }
    s << "__device__ static void " << name << "(" << (store ? "" : "const ") << T << "* m, int ld"
      << (l.blocks() > 1 ? ", int block_stride" : "") << ", int lane, " << (store ? "const " : "") << T << " (&frag)["
      << f.values << "])\n{\n";
    if (!fitted) {
        // Exact tables, one entry per (lane, value), from the engine.
        for (int field = 0; field < 3; ++field) {
            if (field == 0 && l.blocks() == 1) continue;
            s << "    static constexpr unsigned char k" << (field == 0 ? "Block" : field == 1 ? "Row" : "Col") << "["
              << f.lanes << "][" << f.values << "] = {";
            for (int lane = 0; lane < f.lanes; ++lane) {
                s << (lane ? ", " : "") << "{";
                for (int v = 0; v < f.values; ++v) s << (v ? "," : "") << field_of(f.at(lane, v), field);
                s << "}";
            }
            s << "};\n";
        }
    }
    s << "    for (int v = 0; v < " << f.values << "; ++v) {\n";
    if (fitted) {
        if (l.blocks() > 1) s << "        const int block = " << blk << ";\n";
        s << "        const int row = " << row << ";\n        const int col = " << col << ";\n";
    } else {
        if (l.blocks() > 1) s << "        const int block = kBlock[lane][v];\n";
        s << "        const int row = kRow[lane][v];\n        const int col = kCol[lane][v];\n";
    }
    const std::string index = std::string(l.blocks() > 1 ? "block * block_stride + " : "") + "row * ld + col";
    if (store) s << "        m[" << index << "] = frag[v];\n";
    else s << "        frag[v] = m[" << index << "];\n";
    s << "    }\n}\n\n";
}

}  // namespace

std::string hip_snippet(const LayoutSet& set) {
    std::ostringstream s;
    const ls::Instruction& ins = *set.ins;
    s << "// " << ins.mnemonic << " on " << set.target->gfx << ", " << ls::lane_group_name(ins, set.mods.wave)
      << (set.mods.describe().empty() ? "" : ", " + set.mods.describe()) << "\n";
    if (ins.vendor() == ls::Vendor::NVIDIA)
        s << "// PTX: " << ins.mnemonic << " (lane = thread index in the " << ls::lane_group_name(ins, set.mods.wave)
          << ")\n";
    else
        s << "// Builtin: " << ins.signature(set.mods.wave) << "\n";
    s
      << "// Row-major matrices; m points at the tile, ld is its row stride. Generated by lanescope.\n\n";
    if (auto* a = set.find(ls::Operand::A)) emit_function(s, *a, "load_a", false);
    if (auto* k = set.find(ls::Operand::K)) emit_function(s, *k, "load_index", false);
    if (auto* b = set.find(ls::Operand::B)) emit_function(s, *b, "load_b", false);
    if (auto* d = set.find(ls::Operand::D)) emit_function(s, *d, "store_c", true);
    return s.str();
}

}  // namespace lsapp
