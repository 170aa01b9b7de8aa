// Fuzz target: transpose-load catalog text -> TransposeCatalog::parse -> every
// accepted row's facts, builtin prototypes and lane rule. Any row the loader
// accepts must render without a crash or an exception other than lanescope::Error.
#include "lanescope/transpose.hpp"
#include "lanescope/render_memory.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ls = lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ls::TransposeCatalog cat;
    try {
        cat = ls::TransposeCatalog::parse(text, "fuzz");
    } catch (const ls::Error&) {
        return 0;  // refused with a message: fine
    }
    const auto& targets = ls::Catalog::builtin().targets();
    size_t rows = 0;
    for (const ls::TransposeLoad& r : cat.rows()) {
        if (++rows > 4) break;  // bounded work per input
        for (const auto& b : r.builtins) (void)ls::transpose_builtin_prototype(r, b);
        if (r.rule != ls::TransposeRule::Unknown)
            for (int s = 0; s < r.group; ++s)
                for (int i = 0; i < r.per_lane(); ++i) (void)ls::transpose_destination(r.rule, r.per_lane(), s, i);
        for (const ls::Target& t : targets)
            if (r.on(t.family)) {
                (void)ls::render_transpose_info(r, t, ls::Format::Json);
                (void)ls::render_transpose_info(r, t, ls::Format::Table);
                break;
            }
    }
    return 0;
}
