// NVIDIA shared-memory banks: the wavefronts one warp-wide ld.shared /
// st.shared / ldmatrix / stmatrix costs (model in lanescope/smem.hpp; sources:
// CUDA C++ Programming Guide, shared memory of compute capability 5.x and later;
// PTX ISA §9.7.14.5.15 ldmatrix (threads 8j..8j+7 give the rows of matrix j);
// the measured phases and the n^1 / n^2 merge in docs/memory.md).
#include "lanescope/smem.hpp"
#include "lanescope/numbers.hpp"

#include "util/text_util.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

namespace lanescope {

namespace {


int type_bytes(std::string_view t) {
    static const char* const k1[] = {"u8", "s8", "b8"};
    static const char* const k2[] = {"u16", "s16", "b16", "f16", "bf16"};
    static const char* const k4[] = {"u32", "s32", "b32", "f32", "f16x2", "bf16x2"};
    static const char* const k8[] = {"u64", "s64", "b64", "f64"};
    for (const char* n : k1) if (t == n) return 1;
    for (const char* n : k2) if (t == n) return 2;
    for (const char* n : k4) if (t == n) return 4;
    for (const char* n : k8) if (t == n) return 8;
    if (t == "b128") return 16;
    return 0;
}

}  // namespace

std::string smem_access_names() {
    return "ld[.weak|.volatile|.relaxed.SCOPE|.acquire.SCOPE].shared[::cta][.v2|.v4].TYPE and "
           "st[.weak|.volatile|.relaxed.SCOPE|.release.SCOPE].shared[::cta][.v2|.v4].TYPE (PTX's order, each "
           "qualifier once; SCOPE cta|cluster|gpu|sys; TYPE u8|s8|b8|u16|s16|b16|f16|bf16|u32|s32|b32|f32|f16x2|bf16x2|"
           "u64|s64|b64|f64|b128; at most 16 bytes: ld.shared.v4.u32, ld.shared.v2.f64, ld.shared.b128), "
           "ldmatrix[.sync.aligned][.m8n8].x1|.x2|.x4[.trans][.shared[::cta]][.b16] and stmatrix (the same)";
}

namespace {

// The qualifiers of one spelling, read in PTX's order: each step takes the next part if it is one
// of `names` (at most once, never out of order); a part left over is not PTX.
struct Qualifiers {
    std::vector<std::string> parts;
    size_t at = 1;
    bool take(std::initializer_list<const char*> names, std::string* got = nullptr) {
        if (at >= parts.size()) return false;
        for (const char* n : names)
            if (parts[at] == n) {
                if (got) *got = parts[at];
                ++at;
                return true;
            }
        return false;
    }
    bool done() const { return at == parts.size(); }
};

}  // namespace

// PTX ISA 9.7.9.8 ld, 9.7.9.10 st, 9.7.9.17 ldmatrix, 9.7.9.18 stmatrix: the grammar of the
// shared-memory forms, strictly (a repeated or misplaced qualifier is refused, not skipped).
SmemAccess parse_smem_access(std::string_view raw) {
    const std::string name = text::lower(text::trim(raw));
    auto fail = [&]() -> SmemAccess {
        throw Error("--access '" + std::string(raw) + "' is not a shared-memory access lanescope models; legal: " +
                    smem_access_names());
    };
    Qualifiers q;
    for (std::string_view p : text::split_view(name, '.')) q.parts.emplace_back(p);
    if (q.parts.empty()) return fail();
    SmemAccess a;
    a.name = name;
    if (q.parts[0] == "ldmatrix" || q.parts[0] == "stmatrix") {
        a.matrix = true;
        a.store = q.parts[0] == "stmatrix";
        a.bytes = 16;
        a.phase_lanes = 8;
        if (q.take({"sync"}) && !q.take({"aligned"})) return fail();  // .sync.aligned together
        q.take({"m8n8"});
        std::string num;
        if (!q.take({"x1", "x2", "x4"}, &num)) return fail();
        q.take({"trans"});
        q.take({"shared", "shared::cta"});
        q.take({"b16"});
        if (!q.done()) return fail();
        a.lanes_used = 8 * (num[1] - '0');
        return a;
    }
    if (q.parts[0] != "ld" && q.parts[0] != "st") return fail();
    a.store = q.parts[0] == "st";
    // One memory-consistency qualifier: .weak, .volatile, or .relaxed / .acquire (ld) / .release (st) with a scope.
    if (!q.take({"weak", "volatile"}) && q.take({"relaxed", a.store ? "release" : "acquire"}) &&
        !q.take({"cta", "cluster", "gpu", "sys"}))
        return fail();
    if (!q.take({"shared", "shared::cta"})) return fail();
    int vec = 1;
    std::string v, type;
    if (q.take({"v2", "v4"}, &v)) vec = v[1] - '0';
    if (q.at >= q.parts.size() || type_bytes(q.parts[q.at]) == 0) return fail();
    const int tb = type_bytes(q.parts[q.at++]);
    if (!q.done() || vec * tb > 16) return fail();
    a.bytes = vec * tb;
    a.phase_lanes = a.bytes <= 4 ? 32 : a.bytes == 8 ? 16 : 8;
    return a;
}

namespace {

const char* const kPhaseSource =
    "CUDA C++ Programming Guide (shared memory, compute capability 5.x and later: 32 banks of 4 bytes); PTX ISA "
    "§9.7.14.5.15 ldmatrix (lanes 8j..8j+7 give the rows of matrix j); the phases and the n^1 / n^2 merge measured on "
    "an H200 with Nsight Compute (docs/memory.md)";

std::string phase_name(const SmemAccess& a, int phase_lanes) {
    if (a.matrix) return std::to_string(a.lanes_used / 8) + " matri" + (a.lanes_used == 8 ? "x" : "ces") + " of 8 row addresses";
    if (phase_lanes >= 32) return "1 warp";
    if (phase_lanes == 16) return "2 half-warps";
    return "4 quarter-warps";
}

std::vector<std::vector<int>> split(int lanes_used, int phase_lanes, const std::vector<bool>& active) {
    std::vector<std::vector<int>> out;
    for (int first = 0; first < lanes_used; first += phase_lanes) {
        std::vector<int> p;
        for (int l = first; l < std::min(lanes_used, first + phase_lanes); ++l)
            if (active.empty() || active[static_cast<size_t>(l)]) p.push_back(l);
        if (!p.empty()) out.push_back(std::move(p));
    }
    return out;
}

}  // namespace

PassGrouping smem_fixed_phases(const SmemAccess& a) {
    return {phase_name(a, a.phase_lanes), split(a.lanes_used, a.phase_lanes, {}), kPhaseSource, "measured"};
}

PassGrouping smem_phases(const SmemAccess& a, const std::vector<std::uint32_t>& addresses, const std::vector<bool>& active,
                         std::string* merge_rule) {
    int phase_lanes = a.phase_lanes;
    std::string rule;
    auto on = [&](int l) { return active.empty() || active[static_cast<size_t>(l)]; };
    // The measured merge: 64/128-bit loads whose every lane n reads the address of lane n^1 (or n^2).
    if (!a.matrix && !a.store && (a.bytes == 8 || a.bytes == 16) && addresses.size() >= 32) {
        for (int x : {1, 2}) {
            bool all = true;
            for (int l = 0; l < 32 && all; ++l)
                all = on(l) == on(l ^ x) &&
                      (!on(l) || addresses[static_cast<size_t>(l)] == addresses[static_cast<size_t>(l ^ x)]);
            if (all) {
                rule = "every lane n reads the address of lane n^" + num(x) + ": phases of " + num(2 * phase_lanes) +
                       " lanes instead of " + num(phase_lanes) + " (measured on an H200)";
                phase_lanes *= 2;
                break;
            }
        }
    }
    if (merge_rule) *merge_rule = rule;
    std::string name = phase_name(a, phase_lanes);
    if (!rule.empty()) name += " (merged: " + rule.substr(0, rule.find(':')) + ")";
    return {name, split(a.lanes_used, phase_lanes, active), kPhaseSource, "measured"};
}

SmemBankReport smem_bank_wavefronts(const SmemAccess& a, const std::vector<std::uint32_t>& addresses) {
    SmemBankReport r;
    r.access = a;
    r.addresses = addresses;
    if (a.matrix) {
        if (addresses.size() < static_cast<size_t>(a.lanes_used) || addresses.size() > 32)
            throw Error("--addresses: " + a.name + " takes the row addresses of lanes 0.." + num(a.lanes_used - 1) +
                        (a.lanes_used >= 32 ? std::string(" (32 addresses, one per lane)")
                                            : " (" + num(a.lanes_used) + " to 32 addresses; those of lanes " +
                                                  num(a.lanes_used) + "-31 are ignored)") +
                        "; " + num(static_cast<long long>(addresses.size())) + " given");
    } else if (addresses.size() != 32) {
        throw Error("--addresses: " + a.name + " takes one address per lane of the warp (32); " +
                    num(static_cast<long long>(addresses.size())) + " given");
    }
    const int align = a.matrix ? 16 : a.bytes;
    for (int l = 0; l < a.lanes_used; ++l)
        if (addresses[static_cast<size_t>(l)] % static_cast<std::uint32_t>(align) != 0)
            throw Error("--addresses: lane " + num(l) + "'s address " + num(addresses[static_cast<size_t>(l)]) +
                        " is not " + num(align) + "-byte aligned, as " + a.name + " requires");
    const PassGrouping phases = smem_phases(a, addresses, {}, &r.merge_rule);
    r.merged = !r.merge_rule.empty();
    std::set<std::uint32_t> all_words;
    for (const std::vector<int>& lanes : phases.passes) {
        SmemPhase ph;
        std::vector<std::set<std::uint32_t>> words(32);
        for (int l : lanes) {
            ph.lanes.push_back(l);
            const std::uint32_t base = addresses[static_cast<size_t>(l)];
            for (int b = 0; b < std::max(4, a.bytes); b += 4) {
                const std::uint32_t w = (base + static_cast<std::uint32_t>(b)) / 4;
                words[w % 32].insert(w);
                all_words.insert(w);
            }
        }
        ph.words_per_bank.resize(32);
        for (int b = 0; b < 32; ++b) {
            ph.words_per_bank[static_cast<size_t>(b)] = static_cast<int>(words[static_cast<size_t>(b)].size());
            ph.wavefronts = std::max(ph.wavefronts, ph.words_per_bank[static_cast<size_t>(b)]);
        }
        r.wavefronts += ph.wavefronts;
        r.phases.push_back(std::move(ph));
    }
    r.minimum = std::max(static_cast<int>(r.phases.size()), static_cast<int>((all_words.size() + 31) / 32));
    return r;
}

}  // namespace lanescope
