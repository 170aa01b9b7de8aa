// Instruction search: ranks the catalog's instructions on one target for a
// query of words (mnemonic or builtin substrings, shapes like "32x32", type
// words like "bf16", "fp8", "int8", and "sparse" / "dense" / "scaled"). The
// app's search box and `lanescope-cli list --search` both answer with it.
#pragma once

#include "lanescope/lanescope.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct SearchHit {
    const Instruction* ins = nullptr;
    int score = 0;  // higher is better
};

// Every word of the query must match (AND); an empty query lists all the
// target's instructions in catalog order. `kind` keeps only one formula family.
std::vector<SearchHit> search(const Catalog& cat, const Target& target, std::string_view query,
                              std::optional<LayoutKind> kind = std::nullopt);

// The instructions `target` lists, in catalog order: the catalog's rows of its family, then
// (NVIDIA) every Blackwell spelling legal there (one per PTX spelling and A space; the
// instructions live as long as the program). `list` and search() both walk these.
std::vector<const Instruction*> listed_on(const Catalog& cat, const Target& target);

// The words an instruction is found by (lower case), for tests and tooltips.
std::vector<std::string> search_keywords(const Instruction& ins);

// Spelling variants users type, mapped to the catalog's type names ("int8" -> "i8").
std::string normalise_word(std::string_view word);

}  // namespace lanescope
