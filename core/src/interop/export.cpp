#include "lanescope/export.hpp"

#include "lanescope/cute.hpp"
#include "lanescope/gluon.hpp"
#include "lanescope/linear.hpp"

namespace lanescope {

namespace {

std::string linear_text(const Query& q, Operand op, const TileParams& tp) {
    const TileLayout t(*q.ins, *q.target, op, q.mods, tp);
    const LinearResult res = to_linear(t);
    if (!res.layout)
        throw Error("the layout of " + std::string(operand_name(op)) + " of " + q.ins->mnemonic +
                    " is not linear over GF(2), so it has no linear-layout form: " + res.why_not);
    return render_linear(split_warp_lanes(*res.layout, linear_warp_lanes(*q.ins, q.mods)));
}

std::string cute_text(const Query& q, Operand op, const TileParams& tp) {
    const TileLayout t(*q.ins, *q.target, op, q.mods, tp);
    const CuteResult res = to_cute(t);
    const std::string atom = cute_tmem_atom(*q.ins, q.mods);
    if (!res.layout && !atom.empty())  // the atom is still CUTLASS's name for the load
        return "// " + atom + "\n// no single (thread, value) CuTe layout: " + res.why_not + "\n";
    if (!res.layout)
        throw Error("the (lane, value) -> element map of " + std::string(operand_name(op)) + " of " + q.ins->mnemonic +
                    " is not expressible as a CuTe layout: " + res.why_not);
    return (atom.empty() ? "" : "// " + atom + "\n") + res.layout->text() + "\n";
}

std::string gluon_text(const Query& q, Operand op, const TileParams& tp) {
    const TileLayout t(*q.ins, *q.target, op, q.mods, tp);
    const std::string name(operand_name(op));
    const std::string title = name + " of " + q.ins->mnemonic + " on " + q.target->gfx + " (wave" +
                              std::to_string(t.lanes()) + "), " + t.params().describe() +
                              "; lanescope-cli layout --format gluon";
    const GluonForm g = gluon_of(t, *q.ins, *q.target, q.mods);
    if (g.named.empty() && g.linear.empty())
        throw Error("the layout of " + name + " of " + q.ins->mnemonic + " has no Gluon form: " + g.named_note +
                    "; and it is not linear over GF(2): " + g.why_not_linear);
    return render_gluon(g, title);
}

std::string one(const Query& q, Operand op, const TileParams& tp, Export form) {
    switch (form) {
        case Export::Linear: return linear_text(q, op, tp);
        case Export::Cute: return cute_text(q, op, tp);
        case Export::Gluon: return gluon_text(q, op, tp);
    }
    return "";
}

}  // namespace

std::vector<Operand> exported_operands(const Query& q) {
    std::vector<Operand> ops;
    for (Operand op : operands_of(*q.ins))
        if (operand_space(*q.ins, op, q.mods) == Space::Registers) ops.push_back(op);  // no layout built to ask
    return ops;
}

void check_export(const Query& q, Export form) {
    const Instruction& ins = *q.ins;
    if (ins.blocks > 1)
        throw Error("--format " + std::string(export_name(form)) + " writes one layout over one matrix; " + ins.mnemonic +
                    " has " + std::to_string(ins.blocks) + " blocks, each its own " + std::to_string(ins.m) + "x" +
                    std::to_string(ins.n) + "x" + std::to_string(ins.k) +
                    " product, which no Triton, Gluon or CuTe layout of one matrix describes; legal: --format json, csv, "
                    "markdown or table (with a block column), or a single-block instruction");
}

std::string render_export(const Query& q, const TileParams& tp, std::optional<Operand> op, Export form) {
    check_export(q, form);
    if (op) return one(q, *op, tp, form);  // tp as given: a kWidth on K is refused, as asked
    // Every operand, together: a JSON list of linear layouts, "A: ..." lines of CuTe, Gluon one after another.
    const std::vector<Operand> ops = exported_operands(q);
    std::string text = form == Export::Linear ? "[\n" : "";
    for (size_t n = 0; n < ops.size(); ++n) {
        const std::string part = one(q, ops[n], tp.for_operand(ops[n]), form);
        if (form == Export::Linear) text += part + (n + 1 < ops.size() ? ",\n" : "");
        else if (form == Export::Cute) text += std::string(operand_name(ops[n])) + ": " + part;
        else text += part;
    }
    return form == Export::Linear ? text + "]\n" : text;
}

}  // namespace lanescope
