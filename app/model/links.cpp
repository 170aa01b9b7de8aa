#include "model/links.hpp"

#include "lanescope/palette.hpp"

#include <algorithm>
#include <sstream>

namespace lsapp {

const OperandHighlight* Links::find(ls::Operand op) const {
    for (const auto& h : operands)
        if (h.operand == op) return &h;
    return nullptr;
}

int element_index(const ls::OperandLayout& l, const ls::Element& e) {
    return (e.block * l.rows() + e.row) * l.cols() + e.col;
}

void index_marks(Links& links) {
    std::vector<OperandHighlight*> all;
    for (OperandHighlight& h : links.operands) all.push_back(&h);
    all.push_back(&links.tmem_d);
    for (OperandHighlight* hp : all) {
        OperandHighlight& h = *hp;
        h.marked.clear();
        h.marked_slots.clear();
        for (size_t i = 0; i < h.elements.size(); ++i)
            if (h.elements[i]) h.marked.push_back(static_cast<int>(i));
        for (size_t i = 0; i < h.slots.size(); ++i)
            if (h.slots[i]) h.marked_slots.push_back(static_cast<int>(i));
    }
}

namespace {

void mark_element(const ls::OperandLayout& l, OperandHighlight& h, const ls::Element& e, std::uint8_t level) {
    if (!l.contains(e)) return;
    auto& el = h.elements[static_cast<size_t>(element_index(l, e))];
    el = std::max(el, level);
    for (const ls::Location& loc : l.where(e)) {
        auto& s = h.slots[static_cast<size_t>(loc.lane) * l.regs() + loc.reg];
        s = std::max(s, level);
    }
}

bool is_result(ls::Operand op) { return op == ls::Operand::C || op == ls::Operand::D; }

}  // namespace

Links compute_links(const LayoutSet& set, const Hover& hover) {
    Links links;
    for (const ls::OperandLayout& l : set.layouts) {
        OperandHighlight h;
        h.operand = l.operand();
        h.elements.assign(static_cast<size_t>(l.elements()), 0);
        h.slots.assign(static_cast<size_t>(l.lanes()) * l.regs(), 0);
        links.operands.push_back(std::move(h));
    }
    if (set.tmem_d) {
        links.tmem_d.operand = ls::Operand::D;
        links.tmem_d.elements.assign(static_cast<size_t>(set.tmem_d->elements()), 0);
        links.tmem_d.slots.assign(static_cast<size_t>(set.tmem_d->lanes()) * set.tmem_d->regs(), 0);
    }
    // D read back by a tcgen05.ld: what is marked in its registers is marked where TMEM holds it.
    auto follow_tmem = [&set, &links] {
        const OperandHighlight* d = links.find(ls::Operand::D);
        if (!set.tmem_d || !d) return;
        const ls::OperandLayout& t = *set.tmem_d;
        for (int i = 0; i < static_cast<int>(d->elements.size()) && i < t.elements(); ++i)
            if (const std::uint8_t level = d->elements[static_cast<size_t>(i)])
                mark_element(t, links.tmem_d, {i / (t.rows() * t.cols()), (i / t.cols()) % t.rows(), i % t.cols()}, level);
    };
    if (hover.kind == Hover::Kind::None) return links;

    if (hover.kind == Hover::Kind::Lane) {
        for (size_t i = 0; i < set.layouts.size(); ++i) {
            const ls::OperandLayout& l = set.layouts[i];
            OperandHighlight& h = links.operands[i];
            if (hover.lane < 0 || hover.lane >= l.lanes()) continue;
            for (int reg = 0; reg < l.regs(); ++reg) {
                h.slots[static_cast<size_t>(hover.lane) * l.regs() + reg] = 2;
                for (const ls::SlotPart& p : l.which(reg, hover.lane))
                    h.elements[static_cast<size_t>(element_index(l, p.element))] = 2;
            }
        }
        follow_tmem();
        index_marks(links);
        return links;
    }

    const ls::Element e = hover.element;
    for (size_t i = 0; i < set.layouts.size(); ++i) {
        const ls::OperandLayout& l = set.layouts[i];
        OperandHighlight& h = links.operands[i];
        const ls::Operand op = l.operand();
        const bool same = op == hover.operand || (is_result(op) && is_result(hover.operand));
        if (same) {
            mark_element(l, h, e, 2);
            continue;
        }
        if (e.block >= l.blocks()) continue;
        if (is_result(hover.operand)) {
            // D[i][j] = sum_k A[i][k] * B[k][j]: the row of A (and of the sparse
            // index / row scales) and the column of B (and column scales).
            if (op == ls::Operand::A || op == ls::Operand::K || op == ls::Operand::SA)
                for (int c = 0; c < l.cols(); ++c) mark_element(l, h, {e.block, e.row, c}, 1);
            if (op == ls::Operand::B || op == ls::Operand::SB)
                for (int r = 0; r < l.rows(); ++r) mark_element(l, h, {e.block, r, e.col}, 1);
        } else if (hover.operand == ls::Operand::A || hover.operand == ls::Operand::K ||
                   hover.operand == ls::Operand::SA) {
            if (is_result(op))
                for (int c = 0; c < l.cols(); ++c) mark_element(l, h, {e.block, e.row, c}, 1);
        } else if (hover.operand == ls::Operand::B || hover.operand == ls::Operand::SB) {
            if (is_result(op))
                for (int r = 0; r < l.rows(); ++r) mark_element(l, h, {e.block, r, e.col}, 1);
        }
    }
    follow_tmem();
    index_marks(links);
    return links;
}

MemoryHighlight memory_links(const Links& links, const ls::OperandLayout& layout, const MemoryGrid& grid,
                             const std::vector<ls::MemoryOp>& ops, const Hover& hover) {
    MemoryHighlight out;
    if (hover.kind == Hover::Kind::None) return out;
    std::vector<std::uint8_t> level(grid.cells.size(), 0);
    auto raise = [&](int cell, std::uint8_t v) {
        if (cell >= 0 && static_cast<size_t>(cell) < level.size()) level[static_cast<size_t>(cell)] = std::max(level[static_cast<size_t>(cell)], v);
    };
    // What the operand views show, mapped onto memory.
    if (const OperandHighlight* h = links.find(layout.operand()))
        for (int b = 0; b < layout.blocks(); ++b)
        for (int r = 0; r < layout.rows(); ++r)
            for (int c = 0; c < layout.cols(); ++c) {
                const ls::Element e{b, r, c};
                const size_t i = static_cast<size_t>(element_index(layout, e));
                if (i < h->elements.size() && h->elements[i]) raise(grid.cell_of(layout, e), h->elements[i]);
            }
    int lane = -1;
    if (hover.kind == Hover::Kind::Lane) {
        lane = hover.lane;
    } else if (hover.operand == layout.operand() || (is_result(hover.operand) && is_result(layout.operand()))) {
        const int cell = grid.cell_of(layout, hover.element);
        if (cell >= 0 && grid.cells[static_cast<size_t>(cell)].op >= 0) {
            out.op = grid.cells[static_cast<size_t>(cell)].op;
            lane = ops[static_cast<size_t>(out.op)].lane;
        }
    }
    if (lane >= 0) {
        for (size_t i = 0; i < ops.size(); ++i) {
            if (ops[i].lane != lane) continue;
            out.ops.push_back(static_cast<int>(i));
            for (const ls::Delivery& d : ops[i].delivers) raise(grid.cell_of(layout, d.element), 1);
        }
    }
    for (size_t i = 0; i < level.size(); ++i)
        if (level[i]) out.cells.emplace_back(static_cast<int>(i), level[i]);
    return out;
}

std::string describe_element(const LayoutSet& set, ls::Operand op, const ls::Element& e) {
    const ls::OperandLayout* l = set.find(op);
    if (!l || !l->contains(e)) return {};
    std::ostringstream s;
    s << ls::operand_name(op);
    if (l->blocks() > 1) s << "[block " << e.block << "]";
    s << "[" << e.row << "][" << e.col << "]  (" << ls::elem_name(l->type()) << ")\n";
    const auto locs = l->where(e);
    s << (locs.size() == 1 ? "held in " : "held in " + std::to_string(locs.size()) + " places: ");
    for (size_t i = 0; i < locs.size() && i < 8; ++i)
        s << (i ? ", " : "") << (set.ins ? ls::cell_label_text(*set.ins, op, locs[i], l->element_bits(), " \u00B7 ", l->space())
                                         : ls::tile_label(locs[i], l->element_bits(), true));
    if (locs.size() > 8) s << ", ...";
    s << "\n";
    if (!locs.empty() && l->space() == ls::Space::TensorMemory) {
        // TMEM: (lane, column) of a CTA, and the warp allowed there (PTX: warp w of a warpgroup reaches lanes 32*(w%4)..+31).
        const ls::Location& at = locs.front();
        s << "Tensor Memory: " << (at.lane >= 128 || (set.ins && set.ins->cta_group == 2) ? "CTA " + std::to_string(at.lane / 128) + ", " : "")
          << "lane " << at.lane % 128 << ", column " << at.reg << ", bits " << at.bit_lo << ".." << at.bit_hi
          << "\nlane quarter " << (at.lane % 128) / 32 << ": only warp w with w%4 = " << (at.lane % 128) / 32 << " may tcgen05.ld/st it\n";
    } else if (!locs.empty() && l->space() == ls::Space::SharedMemory) {
        const ls::Location& at = locs.front();
        const int address = ls::smem_address(at);
        s << "shared memory: byte address " << address << ", bank " << at.reg % 32 << ", 16-byte chunk " << (at.reg % 32) / 4
          << " of the 128-byte line " << at.lane << "\n";
    } else if (!locs.empty()) {
        const bool nv = set.ins && set.ins->vendor() == ls::Vendor::NVIDIA;
        s << (nv ? "thread " : "lane ") << locs.front().lane << ", register " << (nv ? "" : "v") << locs.front().reg
          << ", bits " << locs.front().bit_lo << ".." << locs.front().bit_hi;
        if (nv && set.ins->kind != ls::LayoutKind::LdStMatrix) {
            // PTX's own words for the thread: groupID and threadID_in_group (wgmma: the warp too).
            const int lane = locs.front().lane;
            if (set.ins->kind == ls::LayoutKind::Wgmma) s << "\nwarp " << lane / 32 << " of the warpgroup,";
            s << "\ngroupID " << (lane % 32) / 4 << ", threadID_in_group " << lane % 4;
        }
        s << "\n";
    }
    if (set.tmem_d && (op == ls::Operand::D || op == ls::Operand::C) && set.tmem_d->contains(e) && !locs.empty()) {
        // Read back by a tcgen05.ld: the thread is 32 * warp + lane; where the element came from in TMEM.
        // One model of the pair (core's pair_slot): CTA, thread and warp within it, and which load holds the register.
        const ls::Location at = set.tmem_d->where(e).front();
        const ls::PairSlot p = ls::pair_slot(*set.ins, op, set.mods, locs.front());
        const std::string cta = p.pair ? "CTA " + std::to_string(p.cta) + ", " : "";
        s << cta << "thread " << p.lane << ": warp " << p.warp << ", lane " << p.lane % 32 << " of that warp\n";
        if (p.load >= 0)
            s << "load " << p.load << " of " << p.loads << ", register r" << p.load_reg << " of it (" << p.load_ptx << ")\n";
        s << "read by tcgen05.ld from " << cta << "Tensor Memory lane " << at.lane % 128 << ", column " << at.reg << " (lane quarter "
          << (at.lane % 128) / 32 << ": warp w%4 = " << (at.lane % 128) / 32 << ")\n";
    }
    if (set.ins) {
        // How sure the layout is, where core says (gfx1250): a guess is shown as one.
        const ls::Evidence ev = ls::layout_evidence(*set.ins, op, set.mods);
        if (!ev.confidence.empty()) {
            s << "confidence: " << ev.confidence;
            if (ev.why.find("not confirmed on hardware") != std::string::npos) s << ", not confirmed on hardware";
            if (!ev.alternatives.empty())
                s << " (" << ev.alternatives.size() << " alternative reading" << (ev.alternatives.size() == 1 ? "" : "s")
                  << " in Details)";
            s << "\n";
        }
    }
    s << l->formula();
    if (set.ins) s << "\nwhere\n" << ls::formula_symbols_text(*set.ins, l->formula());
    return s.str();
}

}  // namespace lsapp
