#include "model/copy_text.hpp"

#include "lanescope/cute.hpp"
#include "lanescope/gluon.hpp"
#include "lanescope/header.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/render.hpp"

#include <cctype>

namespace lsapp {

const char* copy_kind_name(CopyKind k) {
    switch (k) {
        case CopyKind::Gluon: return "Gluon";
        case CopyKind::Linear: return "linear layout";
        case CopyKind::Cute: return "CuTe layout";
        case CopyKind::Header: return "C++ header";
    }
    return "?";
}

namespace {

std::string one(const LayoutSet& set, const ls::TileParams& tp, ls::Operand op, CopyKind kind) {
    const ls::TileLayout t(*set.ins, *set.target, op, set.mods, tp);
    const std::string name(ls::operand_name(op));
    switch (kind) {
        case CopyKind::Gluon: {
            const ls::GluonForm g = ls::gluon_of(t, *set.ins, *set.target);
            if (g.named.empty() && g.linear.empty())
                throw ls::Error("the layout of " + name + " of " + set.ins->mnemonic + " has no Gluon form: " + g.named_note +
                                "; and it is not linear over GF(2): " + g.why_not_linear);
            return ls::render_gluon(g, name + " of " + set.ins->mnemonic + " on " + set.target->gfx + " (wave" +
                                           std::to_string(t.lanes()) + "), " + t.params().describe() +
                                           "; as lanescope-cli layout --format gluon");
        }
        case CopyKind::Linear: {
            const ls::LinearResult r = ls::to_linear(t);
            if (!r.layout)
                throw ls::Error("the layout of " + name + " of " + set.ins->mnemonic + " is not linear over GF(2): " + r.why_not);
            return ls::render_linear(*r.layout);
        }
        case CopyKind::Cute: {
            const ls::CuteResult r = ls::to_cute(t);
            if (!r.layout)
                throw ls::Error("the (lane, value) -> element map of " + name + " of " + set.ins->mnemonic +
                                " is not expressible as a CuTe layout: " + r.why_not);
            return r.layout->text() + "\n";
        }
        case CopyKind::Header: break;
    }
    return "";
}

}  // namespace

std::string copy_text(const LayoutSet& set, const ls::TileParams& tile, std::optional<ls::Operand> op, CopyKind kind) {
    if (kind == CopyKind::Header) {
        // The namespace lanescope-cli header gives by default (core's one rule: unique per instruction).
        const std::string name = ls::default_header_namespace(*set.ins, *set.target, set.mods.wave);
        ls::Query q;
        q.ins = set.ins, q.target = set.target, q.mods = set.mods;
        return ls::render_header(q, tile, name);
    }
    if (op) return one(set, tile, *op, kind);
    // Every operand, as lanescope-cli layout --operand all puts them together.
    const auto ops = ls::operands_of(*set.ins);
    std::string text = kind == CopyKind::Linear ? "[\n" : "";
    for (size_t n = 0; n < ops.size(); ++n) {
        const std::string part = one(set, tile, ops[n], kind);
        if (kind == CopyKind::Linear) text += part + (n + 1 < ops.size() ? ",\n" : "");
        else if (kind == CopyKind::Cute) text += std::string(ls::operand_name(ops[n])) + ": " + part;
        else text += part;
    }
    return kind == CopyKind::Linear ? text + "]\n" : text;
}

}  // namespace lsapp
