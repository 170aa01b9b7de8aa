// Blackwell's instruction selectors (mma_picker.hpp): menus from the catalog's forms.
#include "model/mma_picker.hpp"

#include "lanescope/blackwell.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace lsapp {

namespace {

// PTX's names of the types (lanescope's ElemType names e2m1 "fp4", as AMD does; PTX ISA
// §9.7.14.5.14 / §9.7.16.10.9: e2m3, e3m2, e2m1; the scale types ue8m0 and ue4m3).
std::string ptx_type(ls::ElemType t, bool scale) {
    switch (t) {
        case ls::ElemType::FP6: return "e2m3";
        case ls::ElemType::BF6: return "e3m2";
        case ls::ElemType::FP4: return "e2m1";
        case ls::ElemType::E8M0: return "ue8m0";
        case ls::ElemType::E4M3: return scale ? "ue4m3" : "e4m3";
        case ls::ElemType::UE4M3: return "ue4m3";
        default: return std::string(ls::elem_name(t));
    }
}

// The block-scaling qualifier of the spelling: "" (none), "default" (.block_scale alone),
// "scale_vec::2X", "block16", "block32".
std::string scale_qualifier(const std::string& ptx) {
    const std::string key = ".block_scale";
    const size_t at = ptx.find(key);
    if (at == std::string::npos) return "";
    const size_t from = at + key.size();
    if (from >= ptx.size() || ptx[from] != '.') return "default";
    const size_t end = ptx.find('.', from + 1);
    const std::string next = ptx.substr(from + 1, end == std::string::npos ? std::string::npos : end - from - 1);
    if (next.rfind("scale_vec::", 0) == 0 || next == "block16" || next == "block32") return next;
    return "default";
}

bool numeric(MmaFacet f) { return f == MmaFacet::M || f == MmaFacet::N || f == MmaFacet::K; }

}  // namespace

std::string facet_key(const ls::Instruction& form, MmaFacet f) {
    const bool tcgen05 = form.kind == ls::LayoutKind::Tcgen05Mma;
    switch (f) {
        case MmaFacet::Kind: return form.mma_kind;
        case MmaFacet::CtaGroup: return form.cta_group ? std::to_string(form.cta_group) : "";
        case MmaFacet::Sparse: return form.tcgen05_sparse ? "sparse" : "dense";
        case MmaFacet::Ws: return form.ws ? "ws" : "";
        case MmaFacet::ScaleVec: return scale_qualifier(form.mnemonic);
        case MmaFacet::ScaleType: return form.scale_vec > 0 ? ptx_type(form.scale_type, true) : "";
        case MmaFacet::M: return std::to_string(form.m);
        case MmaFacet::N: return std::to_string(form.n);
        case MmaFacet::K: return std::to_string(form.k);
        case MmaFacet::DType: return ptx_type(form.d_type(), false);
        case MmaFacet::AType: return ptx_type(form.a, false);
        case MmaFacet::BType: return ptx_type(form.b, false);
        case MmaFacet::ASpace: return tcgen05 ? (form.a_in_tmem ? "tmem" : "smem") : "registers";
    }
    return "";
}

std::vector<std::string> facet_keys(const ls::Instruction& form) {
    std::vector<std::string> keys;
    for (int f = 0; f < kMmaFacets; ++f) keys.push_back(facet_key(form, static_cast<MmaFacet>(f)));
    return keys;
}

std::string facet_label(MmaFacet f) {
    switch (f) {
        case MmaFacet::Kind: return "kind";
        case MmaFacet::CtaGroup: return "cta_group";
        case MmaFacet::Sparse: return "sparsity";
        case MmaFacet::Ws: return ".ws";
        case MmaFacet::ScaleVec: return "scale vector";
        case MmaFacet::ScaleType: return "scale type";
        case MmaFacet::M: return "M";
        case MmaFacet::N: return "N";
        case MmaFacet::K: return "K";
        case MmaFacet::DType: return "D type";
        case MmaFacet::AType: return "A type";
        case MmaFacet::BType: return "B type";
        case MmaFacet::ASpace: return "A in";
    }
    return "";
}

std::string facet_value_name(MmaFacet f, const std::string& key) {
    // The formats' names (OCP MX: E4M3/E5M2 FP8, E2M3/E3M2 FP6, E2M1 FP4; the scales UE8M0, UE4M3).
    static const std::map<std::string, std::string> kTypes = {
        {"e4m3", "e4m3 (FP8)"}, {"e5m2", "e5m2 (FP8)"}, {"e2m3", "e2m3 (FP6)"}, {"e3m2", "e3m2 (FP6)"},
        {"e2m1", "e2m1 (FP4)"}, {"ue8m0", "ue8m0 (MX scale)"}, {"ue4m3", "ue4m3 (NVFP4 scale)"}};
    switch (f) {
        case MmaFacet::Kind: return "kind::" + key;
        case MmaFacet::CtaGroup:
            return key == "1" ? "cta_group::1 (one CTA)" : key == "2" ? "cta_group::2 (CTA pair)" : "none (mma.sync)";
        case MmaFacet::Sparse: return key == "sparse" ? "sparse (.sp)" : "dense";
        case MmaFacet::Ws: return key == "ws" ? ".ws (weight-stationary)" : "no";
        case MmaFacet::ScaleVec:
            if (key.empty()) return "none (not block-scaled)";
            if (key == "default") return ".block_scale (kind's default)";
            if (key == "block16") return "block16 (1 scale per 16 K)";
            if (key == "block32") return "block32 (1 scale per 32 K)";
            return key;
        case MmaFacet::ScaleType: return key.empty() ? "none" : kTypes.count(key) ? kTypes.at(key) : key;
        case MmaFacet::ASpace:
            return key == "tmem" ? "Tensor Memory (_ts)" : key == "smem" ? "shared memory" : "registers";
        case MmaFacet::DType:
        case MmaFacet::AType:
        case MmaFacet::BType: return kTypes.count(key) ? kTypes.at(key) : key;
        default: return key;
    }
}

const std::vector<ls::Instruction>& mma_forms(const ls::Target& t) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<std::vector<ls::Instruction>>> by_target;
    const std::lock_guard<std::mutex> lock(mutex);
    auto& slot = by_target[t.gfx];
    if (!slot) slot = std::make_unique<std::vector<ls::Instruction>>(ls::blackwell_mma_forms(t));
    return *slot;
}

FacetSplit split_by(const std::vector<ls::Instruction>& forms, const std::vector<size_t>& candidates, MmaFacet f) {
    FacetSplit out;
    std::map<std::string, size_t> at;
    for (size_t i : candidates) {
        const std::string k = facet_key(forms[i], f);
        auto it = at.find(k);
        if (it == at.end()) {
            it = at.emplace(k, out.keys.size()).first;
            out.keys.push_back(k);
            out.candidates.emplace_back();
        }
        out.candidates[it->second].push_back(i);
    }
    if (numeric(f)) {
        std::vector<size_t> order(out.keys.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](size_t a, size_t b) { return std::stoi(out.keys[a]) < std::stoi(out.keys[b]); });
        FacetSplit sorted;
        for (size_t i : order) {
            sorted.keys.push_back(std::move(out.keys[i]));
            sorted.candidates.push_back(std::move(out.candidates[i]));
        }
        return sorted;
    }
    return out;
}

MmaPick pick_mma(const std::vector<ls::Instruction>& forms, const std::vector<std::string>& want) {
    MmaPick pick;
    std::vector<size_t> candidates(forms.size());
    for (size_t i = 0; i < forms.size(); ++i) candidates[i] = i;
    if (forms.empty()) return pick;
    for (int f = 0; f < kMmaFacets; ++f) {
        FacetSplit split = split_by(forms, candidates, static_cast<MmaFacet>(f));
        MmaMenu menu{static_cast<MmaFacet>(f), split.keys, 0};
        if (static_cast<size_t>(f) < want.size()) {
            const auto it = std::find(split.keys.begin(), split.keys.end(), want[static_cast<size_t>(f)]);
            if (it != split.keys.end()) menu.chosen = static_cast<int>(it - split.keys.begin());
        }
        candidates = std::move(split.candidates[static_cast<size_t>(menu.chosen)]);
        pick.menus.push_back(std::move(menu));
    }
    pick.form = &forms[candidates.front()];  // the facets name one form (tests/app checks it for every choice)
    return pick;
}

}  // namespace lsapp
