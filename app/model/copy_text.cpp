#include "model/copy_text.hpp"

#include "lanescope/export.hpp"
#include "lanescope/header.hpp"

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

std::string copy_text(const LayoutSet& set, const ls::TileParams& tile, std::optional<ls::Operand> op, CopyKind kind) {
    ls::Query q;
    q.ins = set.ins, q.target = set.target, q.mods = set.mods;
    switch (kind) {
        case CopyKind::Header:
            // The namespace lanescope-cli header gives by default (core's one rule: unique per instruction).
            return ls::render_header(q, tile, ls::default_header_namespace(*set.ins, *set.target, set.mods.wave));
        case CopyKind::Gluon: return ls::render_export(q, tile, op, ls::Export::Gluon);
        case CopyKind::Linear: return ls::render_export(q, tile, op, ls::Export::Linear);
        case CopyKind::Cute: return ls::render_export(q, tile, op, ls::Export::Cute);
    }
    return "";
}

}  // namespace lsapp
