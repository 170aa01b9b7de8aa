#include "model/selection.hpp"

#include <vector>

namespace lsapp {

const ls::OperandLayout* LayoutSet::find(ls::Operand op) const {
    for (const auto& l : layouts)
        if (l.operand() == op) return &l;
    return nullptr;
}

ls::Modifiers legalize(const ls::Instruction& ins, const ls::Target& t, ls::Modifiers want) {
    // The choices are kept one by one, field after field (core's order), each while the ones kept so
    // far still resolve; a field refused now is asked again after the others, as its legality may hang
    // on a later one (opsel on the wave size), until a pass keeps nothing more.
    auto legal = [&](const ls::Modifiers& m) {
        try {
            ls::resolve_modifiers(ins, t, m);
            return true;
        } catch (const ls::Error&) {
            return false;
        }
    };
    if (legal(want)) return want;
    ls::Modifiers kept;
    std::vector<std::string_view> left;
    for (std::string_view f : ls::modifier_field_names())
        if (ls::modifier_value(want, f) >= 0) left.push_back(f);
    for (bool more = true; more;) {
        more = false;
        for (auto it = left.begin(); it != left.end();) {
            ls::Modifiers next = kept;
            ls::set_modifier(next, *it, ls::modifier_value(want, *it));
            if (legal(next)) kept = next, it = left.erase(it), more = true;
            else ++it;
        }
    }
    if (want.descriptor) {
        ls::Modifiers next = kept;
        next.descriptor = want.descriptor;
        if (legal(next)) kept = next;
    }
    return kept;
}

LayoutSet resolve_selection(const ls::Catalog& cat, const Selection& sel) {
    LayoutSet set;
    set.target = &cat.find_target(sel.arch);
    int implied_wave = 0;
    set.ins = &cat.find_instruction(*set.target, sel.instruction, &implied_wave);
    ls::Modifiers want = sel.mods;
    if (want.wave < 0 && implied_wave > 0) want.wave = implied_wave;
    set.chosen = legalize(*set.ins, *set.target, want);
    set.mods = ls::resolve_modifiers(*set.ins, *set.target, set.chosen);
    for (ls::Operand op : ls::operands_of(*set.ins))
        set.layouts.push_back(ls::layout_of(*set.ins, *set.target, op, set.mods));
    if (set.mods.tmem_load > 0) {
        ls::ResolvedModifiers in_tmem = set.mods;
        in_tmem.tmem_load = in_tmem.num_warps = 0;
        set.tmem_d = ls::layout_of(*set.ins, *set.target, ls::Operand::D, in_tmem);
    }
    return set;
}

std::string carry_instruction(const ls::Catalog& cat, const ls::Instruction& current, const ls::Target& to) {
    for (const std::string& name : {current.builtin_pattern, current.mnemonic}) {
        try {
            return cat.find_instruction(to, name).mnemonic;
        } catch (const ls::Error&) {
        }
    }
    const auto list = cat.on(to.family);
    return list.empty() ? current.mnemonic : list.front()->mnemonic;
}

std::string compare_instruction(const ls::Catalog& cat, const ls::Instruction& current, const ls::Target& to) {
    for (const std::string& name : {current.builtin_pattern, current.mnemonic}) {
        if (name.empty()) continue;
        try {
            return selection_name(cat.find_instruction(to, name));
        } catch (const ls::Error&) {
        }
    }
    auto same_types = [&](const ls::Instruction& i) {
        return i.a == current.a && i.b == current.b && i.c == current.c && i.d_type() == current.d_type();
    };
    std::vector<std::string> alike;
    for (const ls::Instruction* ins : cat.on(to.family)) {
        try {
            cat.find_instruction(to, ins->mnemonic);  // legal on this target (Blackwell rows are per target)
        } catch (const ls::Error&) {
            continue;
        }
        if (same_types(*ins) && ins->m == current.m && ins->n == current.n && ins->k == current.k &&
            ins->blocks == current.blocks && ins->sparse() == current.sparse())
            return selection_name(*ins);
        if (same_types(*ins)) alike.push_back(display_name(*ins));
    }
    const std::string d = std::string(ls::elem_name(current.d_type()));
    const std::string types = current.a == current.b ? std::string(ls::elem_name(current.a))
                                                     : std::string(ls::elem_name(current.a)) + "/" + std::string(ls::elem_name(current.b));
    std::string legal;
    for (size_t i = 0; i < alike.size() && i < 12; ++i) legal += (i ? ", " : "") + alike[i];
    if (alike.size() > 12) legal += ", ... (" + std::to_string(alike.size()) + " in all)";
    throw ls::Error(to.gfx + " has no instruction with the shape and types of " + display_name(current) + " (M" +
                    std::to_string(current.m) + " N" + std::to_string(current.n) + " K" + std::to_string(current.k) +
                    (current.blocks > 1 ? " x" + std::to_string(current.blocks) + " blocks" : "") + ", A/B " + types +
                    ", D " + d + (current.sparse() ? ", sparse" : "") + "); name one with --compare-instruction; legal: " +
                    (legal.empty() ? "any of " + to.gfx + "'s instructions (lanescope-cli list -a " + to.gfx + ")"
                                   : to.gfx + "'s " + types + " -> " + d + " instructions " + legal));
}

std::pair<const ls::Target*, const ls::Instruction*> largest_layout(const ls::Catalog& cat) {
    std::pair<const ls::Target*, const ls::Instruction*> best{nullptr, nullptr};
    long best_tiles = -1;
    for (const ls::Target& t : cat.targets()) {
        for (const ls::Instruction* ins : cat.on(t.family)) {
            ls::Modifiers m;
            m.wave = t.wave_sizes.back();
            long tiles = 0;
            try {
                const ls::ResolvedModifiers r = ls::resolve_modifiers(*ins, t, m);
                for (ls::Operand op : ls::operands_of(*ins)) {
                    if (op == ls::Operand::C) continue;  // C is drawn as D
                    const ls::OperandLayout l = ls::layout_of(*ins, t, op, r);
                    tiles += l.elements() + static_cast<long>(l.lanes()) * l.regs();
                }
            } catch (const ls::Error&) {
                continue;
            }
            if (tiles > best_tiles) {
                best_tiles = tiles;
                best = {&t, ins};
            }
        }
    }
    return best;
}

namespace {
bool tied_builtin(const ls::Instruction& ins) {
    return ins.vendor() == ls::Vendor::AMD && ins.builtin_pattern.find("_tied") != std::string::npos;
}
}  // namespace

std::string display_name(const ls::Instruction& ins) {
    if (ins.vendor() == ls::Vendor::NVIDIA && !ins.short_name.empty()) return ins.short_name;
    return tied_builtin(ins) ? ins.mnemonic + " (tied)" : ins.mnemonic;
}

std::string name_note(const ls::Instruction& ins) {
    if (!tied_builtin(ins)) return {};
    return "the _tied builtin: D is the same registers as C, so the 16-bit halves that opsel does not write keep C's "
           "values (the untied builtin leaves them undefined)";
}

std::string modifier_role(const ls::Instruction& ins, const std::string& name) {
    const bool scaled = ins.kind == ls::LayoutKind::MfmaScaled;
    if (name == "cbsz") return scaled ? "A format" : "A broadcast size";
    if (name == "abid") return "A block broadcast";
    if (name == "blgp") return scaled ? "B format" : "B lane pattern";
    if (name == "opsel_a") return "SA byte";
    if (name == "opsel_b") return "SB byte";
    if (name == "opsel") {
        if (scaled) return "scale bytes";
        if (ins.kind == ls::LayoutKind::WmmaRdna3) return "D half";
        if (ins.kind == ls::LayoutKind::SwmmacRdna4) return "index set";
        return "";
    }
    if (name == "selector") return "metadata threads";
    if (name == "wave") return ins.vendor() == ls::Vendor::NVIDIA ? "threads" : "wave size";
    return "";
}

std::string modifier_value_name(const ls::Instruction& ins, const std::string& name, int value) {
    static const char* const kFormats[] = {"FP8 E4M3", "BF8 E5M2", "FP6 E2M3", "BF6 E3M2", "FP4 E2M1"};
    const bool scaled = ins.kind == ls::LayoutKind::MfmaScaled;
    if (scaled && (name == "cbsz" || name == "blgp") && value >= 0 && value < 5) return kFormats[value];
    if (scaled && (name == "opsel" || name == "opsel_a" || name == "opsel_b") && value >= 0 && value < 4)
        return "[" + std::to_string(8 * value + 7) + ":" + std::to_string(8 * value) + "]";
    if (name == "opsel" && ins.kind == ls::LayoutKind::WmmaRdna3) return value ? "[31:16]" : "[15:0]";
    // gfx1250's controls: LLVM's names (FP4, ROW1, E4M3), as lanescope-cli takes them.
    if (std::string n = ls::modifier_value_name(name, value); !n.empty()) return n;
    return std::to_string(value);
}

std::string modifier_menu_text(const ls::Instruction& ins, const std::string& name, int value) {
    const std::string n = modifier_value_name(ins, name, value), number = std::to_string(value);
    return n == number ? n : n + " (" + number + ")";
}

std::string selection_name(const ls::Instruction& ins) {
    // A Blackwell spelling names only its row's first instruction (M, N, the types and A's space
    // live in the instruction descriptor): the short name says which one.
    if (!ins.targets.empty() && !ins.short_name.empty()) return ins.short_name;
    if (!tied_builtin(ins)) return ins.mnemonic;
    std::string b = ins.builtin_pattern;
    const size_t w = b.find("_{w}");
    if (w != std::string::npos) b.erase(w, 4);
    return b;
}

}  // namespace lsapp
