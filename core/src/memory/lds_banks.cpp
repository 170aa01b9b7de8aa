// The LDS bank model per family, the lane groupings the LDS serves together
// (passes), bank-conflict reports and global coalescing reports. Facts and
// confidence: docs/memory.md; sources in docs/sources.md.
#include "lanescope/memory.hpp"
#include "lanescope/smem.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace lanescope {

namespace {

bool rdna(Family f) { return f == Family::RDNA3 || f == Family::RDNA4; }

// Bytes one lane moves and whether the op writes, read off its mnemonic.
struct Access {
    int bytes = 4;
    bool write = false;
    bool transpose = false;
};
Access access_of(std::string_view m) {
    Access a;
    a.write = m.find("write") != std::string_view::npos || m.find("store") != std::string_view::npos;
    a.transpose = m.find("_tr") != std::string_view::npos;
    // ds_read_b64_tr_b16 -> 8 bytes, ds_read_b96_tr_b6 -> 12; ds_read_u16 -> 2 (a dword access for the banks).
    const size_t b = m.find("_b");
    if (b != std::string_view::npos) {
        int v = 0;
        size_t n = b + 2;
        while (n < m.size() && m[n] >= '0' && m[n] <= '9') v = v * 10 + (m[n++] - '0');
        if (v >= 32) a.bytes = v / 8;
    }
    return a;
}

std::vector<std::vector<int>> consecutive(int lanes_per_pass, int wave) {
    std::vector<std::vector<int>> out;
    for (int start = 0; start < wave; start += lanes_per_pass) {
        std::vector<int> p;
        for (int l = start; l < std::min(wave, start + lanes_per_pass); ++l) p.push_back(l);
        out.push_back(p);
    }
    return out;
}

// Groups given for the lanes of one 32-lane half, repeated for every half of the wave.
std::vector<std::vector<int>> halves(const std::vector<std::vector<std::pair<int, int>>>& ranges, int wave) {
    std::vector<std::vector<int>> out;
    for (int base = 0; base < wave; base += 32)
        for (const auto& group : ranges) {
            std::vector<int> p;
            for (auto [lo, hi] : group)
                for (int l = lo; l <= hi; ++l) p.push_back(base + l);
            std::sort(p.begin(), p.end());
            out.push_back(p);
        }
    return out;
}

PassGrouping grouping(std::string name, std::vector<std::vector<int>> passes, std::string source, std::string confidence) {
    return {std::move(name), std::move(passes), std::move(source), std::move(confidence)};
}

// gfx942 ds_read_b128 (AMD blog, CK docs, a measurement): {0-3,20-23}, {4-7,16-19}, {8-11,28-31}, {12-15,24-27}, +32.
const std::vector<std::vector<std::pair<int, int>>> kCdna3B128 = {
    {{0, 3}, {20, 23}}, {{4, 7}, {16, 19}}, {{8, 11}, {28, 31}}, {{12, 15}, {24, 27}}};
// gfx950 ds_read_b128 (HK measurement): {0-3,12-15,20-27}, {4-11,16-19,28-31}, +32.
const std::vector<std::vector<std::pair<int, int>>> kCdna4B128 = {{{0, 3}, {12, 15}, {20, 27}},
                                                                 {{4, 11}, {16, 19}, {28, 31}}};

const char* kRefSheet = "sources: docs/sources.md, LDS banks";

// NVIDIA's shared-memory accesses (ld.shared, st.shared, ldmatrix, stmatrix).
bool nvidia_shared(std::string_view m) {
    return m.rfind("ld.shared", 0) == 0 || m.rfind("st.shared", 0) == 0 || m.rfind("ldmatrix", 0) == 0 ||
           m.rfind("stmatrix", 0) == 0;
}
// The accesses the banks serve (LDS or shared memory), not global memory.
bool on_chip(std::string_view m) { return m.rfind("ds_", 0) == 0 || nvidia_shared(m); }

}  // namespace

BankModel bank_model(const Target& t) {
    if (t.vendor() != Vendor::AMD)
        return {32, 4, "CUDA C++ Programming Guide, shared memory (compute capability 5.x and later): 32 banks of 4 "
                       "bytes, bank = (address / 4) mod 32; phases measured on an H200",
                "documented"};
    switch (t.family) {
        case Family::CDNA4:
            return {64, 4, "CDNA4 ISA guide §11.1: 64 banks of dwords (160 KiB LDS); 64 measured (HipKittens)", "documented"};
        case Family::CDNA3:
            return {32, 4, "CDNA3 (MI300) ISA guide, LDS chapter: 32 banks of dwords; rocprofiler-compute LDS description",
                    "documented"};
        case Family::CDNA1:
        case Family::CDNA2:
            return {32, 4, "the GCN/CDNA LDS of 32 dword banks (CDNA3 ISA guide and rocprofiler-compute; assumed unchanged "
                           "from CDNA1/CDNA2)", "inferred"};
        case Family::CDNA5:
            return {32, 4, "no hardware document gives gfx1250's LDS banks; LLVM models gfx1250 with FeatureLDSBankCount32 "
                           "(llvm-project PR 144965, a scheduling feature): 32 dword banks, bank = dword address mod 32 "
                           "[inferred]",
                    "inferred (compiler model only)"};
        default:
            return {32, 4, std::string(t.family == Family::RDNA4 ? "RDNA4" : "RDNA3") +
                               " ISA guide §12.1: 64 dword banks in two sets of 32, each set serving one pair of SIMD32s; "
                               "a wave is modelled against one 32-bank set (bank = dword address mod 32) [inferred]",
                    "documented (banks) / inferred (one 32-bank set per wave)"};
    }
}

std::vector<PassGrouping> pass_groupings(const Target& t, std::string_view mnemonic, int wave_size) {
    const Access a = access_of(mnemonic);
    const int w = wave_size;
    std::vector<PassGrouping> out;
    const std::string tr_note =
        a.transpose ? " Transpose loads: the grouping of the plain read of the same width [inferred: each lane reads a "
                      "contiguous vector at its own address; the transpose only permutes data between lanes]."
                    : "";
    auto inferred_if_tr = [&](std::string conf) { return a.transpose ? std::string("inferred") : conf; };
    if (t.vendor() != Vendor::AMD) {
        if (nvidia_shared(mnemonic)) out.push_back(smem_fixed_phases(parse_smem_access(mnemonic)));
        return out;
    }
    if (t.family == Family::CDNA4) {
        if (!a.write && a.bytes == 16)
            out.push_back(grouping("gfx950 b128 groups", halves(kCdna4B128, w),
                                   "HipKittens LDS phase measurement (ds_read_b128), " + std::string(kRefSheet), "measured"));
        else if (!a.write && a.bytes == 12)
            out.push_back(grouping("gfx950 b96 groups", halves(kCdna3B128, w),
                                   "HipKittens LDS phase measurement (ds_read_b96), " + std::string(kRefSheet) + tr_note,
                                   inferred_if_tr("measured")));
        else if (!a.write && a.bytes == 8)
            out.push_back(grouping("32 consecutive lanes", consecutive(32, w),
                                   "HipKittens LDS phase measurement (ds_read_b64), " + std::string(kRefSheet) + tr_note,
                                   inferred_if_tr("measured")));
        else if (a.write && a.bytes == 8)
            out.push_back(grouping("16 consecutive lanes", consecutive(16, w),
                                   "HipKittens LDS phase measurement (ds_write_b64), " + std::string(kRefSheet), "measured"));
        else if (a.bytes <= 4)
            out.push_back(grouping("64 consecutive lanes", consecutive(64, w),
                                   "not found; one pass of the whole wave: 64 banks serve 64 dwords [inferred], " +
                                       std::string(kRefSheet),
                                   "inferred"));
        else  // ds_write_b96/b128
            out.push_back(grouping("16 consecutive lanes", consecutive(256 / (a.bytes == 12 ? 16 : a.bytes), w),
                                   "not found; 256 bytes (64 banks) per pass [inferred], " + std::string(kRefSheet),
                                   "inferred"));
    } else if (is_cdna(t.family)) {
        const std::string fam_note = t.family == Family::CDNA3 ? "" : " (measured on gfx942; assumed for " + t.gfx + ")";
        auto conf = [&](std::string c) { return t.family == Family::CDNA3 ? c : std::string("inferred"); };
        if (!a.write && a.bytes == 16)
            out.push_back(grouping("gfx942 b128 groups", halves(kCdna3B128, w),
                                   "AMD ROCm blog \"Avoiding LDS bank conflicts\" and CK docs lds_bank_conflicts, one "
                                   "measurement, " + std::string(kRefSheet) + fam_note,
                                   conf("documented")));
        else if (a.write && a.bytes == 16)
            out.push_back(grouping("8 consecutive lanes", consecutive(8, w),
                                   "AMD ROCm blog and CK docs (ds_write_b128), " + std::string(kRefSheet) + fam_note,
                                   conf("documented")));
        else if (!a.write && a.bytes == 8)
            out.push_back(grouping("16 consecutive lanes", consecutive(16, w),
                                   "third-party MI300 measurement (ds_read_b64), " + std::string(kRefSheet) + fam_note,
                                   conf("measured")));
        else if (a.bytes == 8)
            out.push_back(grouping("16 consecutive lanes", consecutive(16, w),
                                   "not found; as ds_read_b64 (128 bytes per pass) [inferred], " + std::string(kRefSheet),
                                   "inferred"));
        else if (a.bytes == 12)
            out.push_back(grouping("8 consecutive lanes", consecutive(8, w),
                                   "not found; 128 bytes (32 banks) per pass [inferred], " + std::string(kRefSheet),
                                   "inferred"));
        else
            out.push_back(grouping("32 consecutive lanes", consecutive(32, w),
                                   "GCN half-wave rule (AMD APP OpenCL guide §6.2), not re-measured on CDNA [inferred], " +
                                       std::string(kRefSheet),
                                   "inferred"));
    } else if (t.family == Family::CDNA5) {
        const int lanes = a.bytes <= 4 ? 32 : a.bytes == 8 ? 16 : 8;
        out.push_back(grouping(std::to_string(lanes) + " consecutive lanes", consecutive(lanes, w),
                               "no source gives gfx1250's per-instruction grouping: 32 banks x 4 bytes per pass "
                               "[inferred], " + std::string(kRefSheet) + tr_note,
                               "inferred"));
    } else if (rdna(t.family)) {
        // No per-instruction source: 32 lanes against one 32-bank set, wider accesses split by bandwidth
        // (128 bytes per pass); wave64 runs as two wave32 halves.
        const int lanes = a.bytes <= 4 ? 32 : a.bytes == 8 ? 16 : 8;
        out.push_back(grouping(std::to_string(lanes) + " consecutive lanes", consecutive(lanes, w),
                               "no source gives RDNA's per-instruction grouping: 32 banks x 4 bytes per pass [inferred], " +
                                   std::string(kRefSheet),
                               "inferred"));
    }
    // Alternatives the user may choose (the model's what-ifs).
    if (out.empty() || out.front().name != "gfx942 b128 groups")
        if (is_cdna(t.family) && (a.bytes == 16 || a.bytes == 12) && !a.write)
            out.push_back(grouping("gfx942 b128 groups", halves(kCdna3B128, w),
                                   "alternative: the gfx942 ds_read_b128 groups", "inferred"));
    if (t.family == Family::CDNA4 && !a.write && a.bytes != 16)
        out.push_back(grouping("gfx950 b128 groups", halves(kCdna4B128, w), "alternative: the gfx950 ds_read_b128 groups",
                               "inferred"));
    for (int n : {8, 16, 32, 64}) {
        if (n > w) break;
        const std::string name = std::to_string(n) + " consecutive lanes";
        if (std::none_of(out.begin(), out.end(), [&](const PassGrouping& g) { return g.name == name; }))
            out.push_back(grouping(name, consecutive(n, w), "alternative: passes of " + std::to_string(n) +
                                                                 " consecutive lanes (a what-if, no source)",
                                   "inferred"));
    }
    return out;
}

std::vector<BankReport> analyse_banks(const std::vector<MemoryOp>& ops, const Target& t, int wave_size,
                                      std::string_view grouping_name) {
    const BankModel model = bank_model(t);
    std::map<std::pair<int, int>, std::vector<const MemoryOp*>> groups;
    for (const MemoryOp& op : ops)
        if (on_chip(op.mnemonic)) groups[{op.wave, op.issue}].push_back(&op);
    std::vector<BankReport> out;
    // The groupings offered per mnemonic, asked once (a sweep analyses thousands of issues).
    std::map<std::string, std::vector<PassGrouping>, std::less<>> offered_of;
    // Per pass: for each bank the distinct words it serves, with the first lane that asked for each.
    std::vector<std::vector<std::pair<long long, int>>> words_of_bank(static_cast<size_t>(model.banks));
    std::vector<const MemoryOp*> by_lane;
    for (const auto& [key, members] : groups) {
        BankReport r;
        r.wave = key.first;
        r.issue = key.second;
        r.mnemonic = members.front()->mnemonic;
        auto found = offered_of.find(r.mnemonic);
        if (found == offered_of.end()) found = offered_of.emplace(r.mnemonic, pass_groupings(t, r.mnemonic, wave_size)).first;
        std::vector<PassGrouping> nvidia_offered;
        if (t.vendor() == Vendor::NVIDIA) {
            // The phases follow from the addresses (the measured n^1 / n^2 merge): one grouping, no what-ifs.
            nvidia_offered = found->second;
            const SmemAccess acc = parse_smem_access(r.mnemonic);
            std::vector<std::uint32_t> addresses(32, 0);
            std::vector<bool> active(32, false);
            for (const MemoryOp* op : members)
                if (op->lane >= 0 && op->lane < 32) {
                    addresses[static_cast<size_t>(op->lane)] = static_cast<std::uint32_t>(op->address);
                    active[static_cast<size_t>(op->lane)] = true;
                }
            nvidia_offered.insert(nvidia_offered.begin(), smem_phases(acc, addresses, active));
            if (nvidia_offered.size() > 1 && nvidia_offered[0].name == nvidia_offered[1].name)
                nvidia_offered.erase(nvidia_offered.begin() + 1);
        }
        const std::vector<PassGrouping>& offered = t.vendor() == Vendor::NVIDIA ? nvidia_offered : found->second;
        if (grouping_name.empty()) {
            r.grouping = offered.front();
        } else {
            auto it = std::find_if(offered.begin(), offered.end(), [&](const PassGrouping& g) { return g.name == grouping_name; });
            if (it == offered.end()) {
                std::string legal;
                for (const auto& g : offered) legal += (legal.empty() ? "" : ", ") + std::string("'") + g.name + "'";
                throw Error("no pass grouping '" + std::string(grouping_name) + "' for " + r.mnemonic + " on " + t.gfx +
                            "; legal: " + legal);
            }
            r.grouping = *it;
        }
        by_lane.assign(by_lane.size(), nullptr);
        for (const MemoryOp* op : members) {
            if (op->lane < 0) continue;
            if (static_cast<size_t>(op->lane) >= by_lane.size()) by_lane.resize(static_cast<size_t>(op->lane) + 1, nullptr);
            by_lane[static_cast<size_t>(op->lane)] = op;
        }
        for (const auto& lanes : r.grouping.passes) {
            for (auto& w : words_of_bank) w.clear();
            long long distinct = 0;
            BankPass pass;
            for (int lane : lanes) {
                if (lane < 0 || static_cast<size_t>(lane) >= by_lane.size() || !by_lane[static_cast<size_t>(lane)]) continue;
                pass.lanes.push_back(lane);
                const MemoryOp& op = *by_lane[static_cast<size_t>(lane)];
                for (long long d = op.address / model.bank_bytes; d <= (op.address + op.bytes - 1) / model.bank_bytes; ++d) {
                    auto& words = words_of_bank[static_cast<size_t>(d % model.banks)];
                    if (std::none_of(words.begin(), words.end(), [&](const auto& x) { return x.first == d; })) {
                        words.push_back({d, lane});
                        ++distinct;
                    }
                }
            }
            if (pass.lanes.empty()) continue;  // no active lane in this pass: not issued
            pass.cycles = 0;
            for (int bank = 0; bank < model.banks; ++bank) {
                auto& words = words_of_bank[static_cast<size_t>(bank)];
                if (static_cast<int>(words.size()) > pass.cycles) {
                    pass.cycles = static_cast<int>(words.size());
                    pass.bank = bank;
                    std::sort(words.begin(), words.end());
                    pass.bank_words.clear();
                    for (const auto& [d, lane] : words) pass.bank_words.push_back({d * model.bank_bytes, lane});
                }
            }
            r.cycles += pass.cycles;
            r.minimum_cycles += std::max<int>(1, static_cast<int>((distinct + model.banks - 1) / model.banks));
            r.passes.push_back(std::move(pass));
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<CoalescingReport> analyse_coalescing(const std::vector<MemoryOp>& ops, int line_bytes) {
    if (line_bytes < 1) throw Error("cache line size " + std::to_string(line_bytes) + " is not legal; legal: >= 1 byte");
    std::map<std::pair<int, int>, std::vector<const MemoryOp*>> groups;
    for (const MemoryOp& op : ops)
        if (!on_chip(op.mnemonic)) groups[{op.wave, op.issue}].push_back(&op);
    std::vector<CoalescingReport> out;
    for (const auto& [key, members] : groups) {
        CoalescingReport r;
        r.wave = key.first;
        r.issue = key.second;
        r.mnemonic = members.front()->mnemonic;
        std::set<long long> lines, segments, bytes;
        for (const MemoryOp* op : members) {
            r.bytes += op->bytes;
            for (long long b = op->address; b < op->address + op->bytes; ++b) {
                bytes.insert(b);
                lines.insert(b / line_bytes);
                segments.insert(b / 64);
            }
        }
        r.cache_lines = static_cast<int>(lines.size());
        r.segments_64b = static_cast<int>(segments.size());
        r.unique_bytes = static_cast<int>(bytes.size());
        r.minimum_lines = static_cast<int>((r.unique_bytes + line_bytes - 1) / line_bytes);
        r.minimum_segments = (r.unique_bytes + 63) / 64;
        out.push_back(r);
    }
    return out;
}

}  // namespace lanescope
