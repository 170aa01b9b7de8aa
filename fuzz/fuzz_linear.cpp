// Fuzz target: text -> parse_linear (lanescope's and Triton's JSON, Gluon's
// DistributedLinearLayout(...), LinearLayout::toString() text). What it
// accepts is within the limits of linear.hpp, prints in both forms and reads
// back equal; what it refuses is a lanescope::Error, never a crash, an
// overflow, a hang or unbounded memory.
#include "lanescope/linear.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ls = lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ls::LinearLayout L;
    try {
        L = ls::parse_linear(text, "fuzz");
    } catch (const ls::Error&) {
        return 0;  // refused with a message: fine
    }
    if (L.reg.size() + L.lane.size() + L.warp.size() > static_cast<size_t>(ls::kLinearMaxBasesLog2) ||
        L.lane.size() > static_cast<size_t>(ls::kLinearMaxLaneBases) || L.warp.size() > static_cast<size_t>(ls::kLinearMaxWarpBases) ||
        static_cast<long long>(L.rows) * L.cols > ls::kLinearMaxCells)
        std::abort();  // accepted past the limits
    for (const auto* v : {&L.reg, &L.lane, &L.warp})
        for (const auto& b : *v)
            if (b.first < 0 || b.first >= L.rows || b.second < 0 || b.second >= L.cols) std::abort();
    if (!(ls::parse_linear(ls::render_linear(L), "again") == L)) std::abort();
    // Gluon's DistributedLinearLayout must be surjective: a layout that is not is refused with a message.
    std::string gluon;
    try {
        gluon = ls::render_distributed_linear(L, 1 << L.lane.size());
    } catch (const ls::Error&) {
        gluon.clear();
    }
    if (!gluon.empty() && !(ls::parse_linear(gluon, "gluon") == L)) std::abort();
    // Evaluate small ones whole (the readers' consumers visit every place).
    if (L.places() <= (1 << 12))
        for (int w = 0; w < L.warp_count(); ++w)
            for (int l = 0; l < L.lane_count(); ++l)
                for (int r = 0; r < L.reg_count(); ++r) {
                    auto rc = L.apply(r, l, w);
                    if (rc.first < 0 || rc.first >= L.rows || rc.second < 0 || rc.second >= L.cols) std::abort();
                }
    return 0;
}
