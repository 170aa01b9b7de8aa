// Copies a lanescope::gpu::Report into the plain VerifyFacts of the overlay.
// Header-only, included only by code that links lanescope::gpu (the app when
// the GPU backend is built, and its tests), so lanescope_appmodel stays free of it.
#pragma once

#include "lanescope/gpu.hpp"
#include "model/verify_overlay.hpp"

namespace lsapp {

inline VerifyFacts verify_facts_from(const lanescope::gpu::Report& r) {
    VerifyFacts f;
    f.passed = r.passed;
    f.summary = r.summary();
    f.device = r.device;
    f.mismatch_count = r.mismatch_count;
    f.checked = r.checked;
    f.issues.reserve(r.issues.size());
    for (const auto& i : r.issues) f.issues.push_back({i.operand, i.element, i.note});
    return f;
}

}  // namespace lsapp
