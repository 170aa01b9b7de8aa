// Choosing a Blackwell matrix multiply by what it is, not by its name: kind, cta_group,
// dense or sparse, .ws, the scale vector, M, N, K, the types and where A is. The menus
// list only what the catalog's templates spell on the target (core's
// blackwell_mma_forms: tcgen05.mma on sm_100a/103a/110a, the kind::* mma.sync of
// sm_120a/121a), each narrowed by the choices above it, and a full choice is one
// catalog instruction, selected by its short name.
#pragma once

#include "lanescope/lanescope.hpp"

#include <string>
#include <vector>

namespace lsapp {

namespace ls = lanescope;

// The facets, in the order the menus narrow them.
enum class MmaFacet { Kind, CtaGroup, Sparse, Ws, ScaleVec, ScaleType, M, N, K, DType, AType, BType, ASpace };
inline constexpr int kMmaFacets = 13;

// A facet's value as a key ("f16", "2", "scale_vec::4X", "tmem"; "" where the form has none).
std::string facet_key(const ls::Instruction& form, MmaFacet f);
// What a menu calls a facet ("kind", "cta_group", "A in") and a value ("kind::mxf4nvf4",
// "cta_group::2 (CTA pair)", "sparse (.sp)", "Tensor Memory", "e2m1 (FP4)").
std::string facet_label(MmaFacet f);
std::string facet_value_name(MmaFacet f, const std::string& key);

// Every form on one target (the catalog's; computed once per target).
const std::vector<ls::Instruction>& mma_forms(const ls::Target& t);

struct MmaMenu {
    MmaFacet facet;
    std::vector<std::string> keys;  // the legal values, given the menus above, in catalog order (numbers ascending)
    int chosen = 0;                 // index into keys
};

struct MmaPick {
    std::vector<MmaMenu> menus;  // kMmaFacets of them, in MmaFacet order (a menu of one value is fixed)
    const ls::Instruction* form = nullptr;  // the one form the choices name (nullptr: the target has none)
};

// The menus for `want` (a key per facet; a key that is not legal there, or missing,
// takes the menu's first value, so changing one menu never leaves a choice that names nothing).
MmaPick pick_mma(const std::vector<ls::Instruction>& forms, const std::vector<std::string>& want);
// The keys of a form (what pick_mma needs to land on it).
std::vector<std::string> facet_keys(const ls::Instruction& form);

// One level of the narrowing: the values facet `f` takes among `candidates` (indexes
// into `forms`) and, for each, the candidates that have it. pick_mma is these in turn.
struct FacetSplit {
    std::vector<std::string> keys;
    std::vector<std::vector<size_t>> candidates;
};
FacetSplit split_by(const std::vector<ls::Instruction>& forms, const std::vector<size_t>& candidates, MmaFacet f);

}  // namespace lsapp
