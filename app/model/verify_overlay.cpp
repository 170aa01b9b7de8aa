#include "model/verify_overlay.hpp"

#include <algorithm>

namespace lsapp {

namespace {
bool inside(const ls::Element& e, int blocks, int rows, int cols) {
    return e.block >= 0 && e.block < blocks && e.row >= 0 && e.row < rows && e.col >= 0 && e.col < cols;
}
bool has(const std::vector<ls::Operand>& ops, ls::Operand op) { return std::find(ops.begin(), ops.end(), op) != ops.end(); }
}  // namespace

CellState OperandVerify::at(const ls::Element& e) const {
    if (!inside(e, blocks, rows, cols)) return CellState::Unchecked;
    return cells[index(e)];
}

const std::string* OperandVerify::note(const ls::Element& e) const {
    if (!inside(e, blocks, rows, cols)) return nullptr;
    const auto it = notes.find(index(e));
    return it == notes.end() ? nullptr : &it->second;
}

const OperandVerify* VerifyOverlay::find(ls::Operand op) const {
    if (op == ls::Operand::C) op = ls::Operand::D;
    for (const auto& o : operands)
        if (o.operand == op) return &o;
    return nullptr;
}

VerifyOverlay make_verify_overlay(const LayoutSet& set, const VerifyFacts& facts) {
    VerifyOverlay out;
    for (const ls::OperandLayout& l : set.layouts) {
        if (l.operand() == ls::Operand::C) continue;  // drawn as D
        OperandVerify o;
        o.operand = l.operand();
        o.rows = l.rows(), o.cols = l.cols(), o.blocks = l.blocks();
        bool checked = has(facts.checked, o.operand);
        // D's cells stand for C too: verified only when both were checked.
        if (o.operand == ls::Operand::D && set.find(ls::Operand::C)) checked = checked && has(facts.checked, ls::Operand::C);
        o.cells.assign(static_cast<size_t>(o.blocks) * o.rows * o.cols, checked ? CellState::Verified : CellState::Unchecked);
        out.operands.push_back(std::move(o));
    }
    for (const VerifyCellIssue& is : facts.issues) {
        const ls::Operand shown = is.operand == ls::Operand::C ? ls::Operand::D : is.operand;
        OperandVerify* o = nullptr;
        for (auto& x : out.operands)
            if (x.operand == shown) o = &x;
        if (!o || !inside(is.element, o->blocks, o->rows, o->cols)) continue;
        const size_t i = o->index(is.element);
        o->cells[i] = CellState::Wrong;
        std::string note = (is.operand != shown ? std::string(ls::operand_name(is.operand)) + ": " : std::string()) + is.note;
        std::string& slot = o->notes[i];
        if (slot.empty()) slot = std::move(note);
        else if (slot.find(note) == std::string::npos) slot += "\n" + note;
    }
    for (const auto& o : out.operands)
        for (CellState c : o.cells) {
            if (c == CellState::Verified) ++out.verified;
            else if (c == CellState::Wrong) ++out.wrong;
        }
    return out;
}

std::string verify_status(const VerifyFacts& facts, const VerifyOverlay& overlay) {
    if (facts.passed && overlay.wrong == 0) return "verified: " + std::to_string(overlay.verified) + " cells PASS";
    return "FAIL: " + std::to_string(facts.mismatch_count) + " mismatches (" + std::to_string(overlay.wrong) +
           " cells wrong)";
}

}  // namespace lsapp
