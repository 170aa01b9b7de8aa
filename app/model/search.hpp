// Instruction search: core's (lanescope/search.hpp), which `lanescope-cli list
// --search` answers with too; the app's names for it.
#pragma once

#include "lanescope/search.hpp"

namespace lsapp {

using lanescope::normalise_word;
using lanescope::search;
using lanescope::search_keywords;
using lanescope::SearchHit;

}  // namespace lsapp
