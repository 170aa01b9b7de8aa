// Instruction search (lanescope/search.hpp): the app's search box and `list --search`.
#include "lanescope/search.hpp"
#include "lanescope/blackwell.hpp"
#include "catalog/catalog_blackwell.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace lanescope {

namespace {

using text::lower;

std::vector<std::string> split_words(std::string_view q) {
    std::vector<std::string> words;
    std::string cur;
    for (char c : q) {
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
            if (!cur.empty()) words.push_back(normalise_word(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) words.push_back(normalise_word(cur));
    return words;
}

bool is_prefix(const std::string& p, const std::string& s) { return s.compare(0, p.size(), p) == 0; }

// How well one query word matches one instruction: 0 = not at all.
int word_score(const std::string& word, const std::vector<std::string>& keywords, const std::string& mnemonic,
               const std::string& builtin) {
    int best = 0;
    for (const std::string& kw : keywords) {
        if (kw == word) best = std::max(best, 40);
        else if (is_prefix(word, kw)) best = std::max(best, 25);
    }
    if (is_prefix(word, mnemonic) || is_prefix("v_" + word, mnemonic)) best = std::max(best, 30);
    if (best == 0 && (mnemonic.find(word) != std::string::npos || builtin.find(word) != std::string::npos))
        best = 10;
    return best;
}

// The "m128n256k16" inside a query word ("tcgen05_mma_m128n256k16_f32_f16" too), or "".
std::string shape_token(const std::string& w) {
    for (size_t i = 0; i < w.size(); ++i) {
        if (w[i] != 'm' || (i > 0 && std::isalnum(static_cast<unsigned char>(w[i - 1])))) continue;
        size_t j = i + 1;
        auto digits = [&] {
            const size_t from = j;
            while (j < w.size() && std::isdigit(static_cast<unsigned char>(w[j]))) ++j;
            return j > from;
        };
        if (digits() && j < w.size() && w[j] == 'n' && (++j, digits())) {
            if (j < w.size() && w[j] == 'k') ++j, digits();
            return w.substr(i, j - i);
        }
    }
    return "";
}

// The Blackwell forms (each M, N and type a row allows) of the shapes the query names.
std::vector<Instruction> blackwell_forms(const std::vector<std::string>& shapes) {
    struct Mnk {
        int m, n, k;
    };
    std::vector<Mnk> want;
    for (const std::string& sh : shapes) {
        Mnk x{0, 0, -1};
        const size_t n_at = sh.find('n'), k_at = sh.find('k');
        x.m = std::atoi(sh.c_str() + 1);
        x.n = std::atoi(sh.c_str() + n_at + 1);
        if (k_at != std::string::npos && k_at + 1 < sh.size()) x.k = std::atoi(sh.c_str() + k_at + 1);
        want.push_back(x);
    }
    const detail::ShapeFilter keep = [&want](int m, int n, int k) {
        return std::all_of(want.begin(), want.end(), [&](const Mnk& x) { return x.m == m && x.n == n && (x.k < 0 || x.k == k); });
    };
    return detail::blackwell_instructions(true, &keep);
}

// A form found so lives as long as the program, as the listed instructions do (SearchHit points at it).
const Instruction* kept_form(Instruction&& f) {
    static std::mutex kMutex;
    static auto* kKept = new std::map<std::string, std::unique_ptr<Instruction>>();
    const std::lock_guard<std::mutex> lock(kMutex);
    std::unique_ptr<Instruction>& slot = (*kKept)[f.mnemonic + "|" + f.short_name];
    if (!slot) slot = std::make_unique<Instruction>(std::move(f));
    return slot.get();
}

// The Blackwell forms of a query's shapes, materialised once per set of shapes (`list --search`
// without --arch searches every NVIDIA target, and each would build the same forms again).
const std::vector<const Instruction*>& forms_of_shapes(const std::vector<std::string>& shapes) {
    static std::mutex kMutex;
    static auto* kForms = new std::map<std::string, std::vector<const Instruction*>>();
    std::string key;
    for (const std::string& sh : shapes) key += sh + " ";
    {
        const std::lock_guard<std::mutex> lock(kMutex);
        if (auto it = kForms->find(key); it != kForms->end()) return it->second;
    }
    std::vector<const Instruction*> kept;
    for (Instruction& f : blackwell_forms(shapes)) kept.push_back(kept_form(std::move(f)));
    const std::lock_guard<std::mutex> lock(kMutex);
    return kForms->emplace(key, std::move(kept)).first->second;
}

// An instruction's search words, lower-cased mnemonic and builtin, made once per instruction: the
// listed rows and kept forms live as long as the program. The entry remembers what it was made from
// (mnemonic, short name, catalog line), so an instruction of a catalog since freed whose address is
// reused gets its own words.
struct SearchWords {
    std::string mnemonic, short_name;
    int line = 0;
    std::vector<std::string> keywords;
    std::string lower_mnemonic, lower_builtin;
};
const SearchWords& search_words(const Instruction& ins) {
    static std::mutex kMutex;
    static auto* kWords = new std::map<const Instruction*, SearchWords>();
    {
        const std::lock_guard<std::mutex> lock(kMutex);
        auto it = kWords->find(&ins);
        if (it != kWords->end() && it->second.line == ins.catalog_line && it->second.mnemonic == ins.mnemonic &&
            it->second.short_name == ins.short_name)
            return it->second;
    }
    SearchWords w{ins.mnemonic, ins.short_name, ins.catalog_line, search_keywords(ins), lower(ins.mnemonic),
                  lower(ins.builtin_pattern)};
    const std::lock_guard<std::mutex> lock(kMutex);
    return (*kWords)[&ins] = std::move(w);
}

}  // namespace

std::string normalise_word(std::string_view word) {
    std::string w = lower(word);
    if (w == "int8" || w == "s8") return "i8";
    if (w == "uint8" || w == "u8") return "iu8";
    if (w == "int4" || w == "i4" || w == "u4") return "iu4";
    if (w == "int32" || w == "int") return "i32";
    if (w == "fp16" || w == "half") return "f16";
    if (w == "fp32" || w == "float") return "f32";
    if (w == "fp64" || w == "double") return "f64";
    if (w == "bfloat16") return "bf16";
    if (w == "tf32") return "xf32";
    if (w == "f8" || w == "e4m3") return "fp8";
    if (w == "e5m2") return "bf8";
    if (w == "sparse") return "sparse";
    return w;
}

std::vector<const Instruction*> listed_on(const Catalog& cat, const Target& t) {
    std::vector<const Instruction*> rows = cat.on(t.family);
    if (t.vendor() != Vendor::NVIDIA) return rows;
    static const std::vector<Instruction>* kBlackwell = new std::vector<Instruction>(blackwell_spellings());
    for (const Instruction& r : *kBlackwell)
        if (claimed_on(r, t)) rows.push_back(&r);
    return rows;
}

std::vector<std::string> search_keywords(const Instruction& ins) {
    std::vector<std::string> kw;
    kw.push_back(lower(ins.mnemonic));
    for (const auto& a : ins.aliases) kw.push_back(lower(a));
    kw.push_back(lower(ins.builtin_pattern));
    kw.push_back(ins.shape());
    kw.push_back(std::to_string(ins.m) + "x" + std::to_string(ins.n));
    for (ElemType t : {ins.a, ins.b, ins.c}) {
        kw.emplace_back(elem_name(t));
        if (t == ElemType::IU8) kw.push_back("i8");
        if (t == ElemType::F8F6F4) {
            for (const char* f : {"fp8", "bf8", "fp6", "bf6", "fp4"}) kw.push_back(f);
        }
    }
    // NVIDIA type names, in the words normalise_word turns them into.
    for (ElemType t : {ins.a, ins.b, ins.c}) {
        if (t == ElemType::TF32) kw.push_back("xf32");
        if (t == ElemType::E4M3) kw.push_back("fp8");
        if (t == ElemType::E5M2) kw.push_back("bf8");
        if (t == ElemType::S8) kw.push_back("i8");
        if (t == ElemType::U8) kw.push_back("iu8");
        if (t == ElemType::S4) kw.push_back("iu4");
        if (t == ElemType::S32) kw.push_back("i32");
    }
    if (ins.vendor() == Vendor::NVIDIA) {
        // The instruction word (mma, wgmma, ldmatrix, stmatrix), N on its own ("wgmma 128"), .trans.
        kw.push_back(lower(ins.mnemonic.substr(0, ins.mnemonic.find('.'))));
        kw.push_back(lower(ins.short_name));
        if (ins.kind == LayoutKind::Wgmma) kw.push_back(std::to_string(ins.n));
        // Blackwell: each part of the PTX spelling ("tcgen05", "kind::mxf4nvf4" and "mxf4nvf4",
        // "cta_group::2", "16x256b") and of the short name ("2cta", "ts", "ws", "4x", "ue4m3"),
        // M and N on their own ("tcgen05 f16 256").
        if (!ins.targets.empty()) {
            auto parts = [&kw](const std::string& s, char sep) {
                for (size_t start = 0; start < s.size();) {
                    const size_t end = std::min(s.find(sep, start), s.size());
                    if (end > start) {
                        std::string part = lower(std::string_view(s).substr(start, end - start));
                        const size_t colons = part.rfind("::");
                        if (colons != std::string::npos) kw.push_back(part.substr(colons + 2));
                        if (std::string n = normalise_word(part); n != part) kw.push_back(std::move(n));
                        kw.push_back(std::move(part));
                    }
                    start = end + 1;
                }
            };
            parts(ins.mnemonic, '.');
            parts(ins.short_name, '_');
            if (ins.m > 0) kw.push_back(std::to_string(ins.m));
            if (ins.n > 0) kw.push_back(std::to_string(ins.n));
            if (!ins.mma_kind.empty()) kw.push_back(lower(ins.mma_kind));
        }
        if (ins.transposed) kw.push_back("trans");
        if (ins.kind == LayoutKind::LdStMatrix) kw.push_back("x" + std::to_string(ins.blocks));
        kw.emplace_back("nvidia");
    } else {
        kw.emplace_back("amd");
    }
    kw.push_back(ins.sparse() ? "sparse" : "dense");
    if (ins.kind == LayoutKind::MfmaScaled) kw.push_back(ins.scales ? "scaled" : "f8f6f4");
    if (ins.blocks > 1) kw.push_back(std::to_string(ins.blocks) + "b");
    for (Family f : ins.families) kw.emplace_back(family_name(f));
    const std::string m = lower(ins.mnemonic);
    for (const char* fam : {"mfma", "smfmac", "wmma", "swmmac"})
        if (m.find(std::string("v_") + fam + "_") == 0) kw.push_back(fam);
    return kw;
}

std::vector<SearchHit> search(const Catalog& cat, const Target& target, std::string_view query,
                              std::optional<LayoutKind> kind) {
    const std::vector<std::string> words = split_words(query);
    std::vector<SearchHit> hits;
    // A Blackwell row is listed by one spelling (one M, N and type of the many it allows); a query
    // word naming a shape ("m128n256k16", or inside a short name) reaches the row's other forms too.
    std::vector<const Instruction*> candidates = listed_on(cat, target);
    std::vector<std::string> shapes;
    for (const std::string& w : words)
        if (std::string sh = shape_token(w); !sh.empty()) shapes.push_back(sh);
    if (!shapes.empty() && target.vendor() == Vendor::NVIDIA) {
        std::set<std::string> listed;
        for (const Instruction* ins : candidates) listed.insert(lower(ins->short_name));
        for (const Instruction* f : forms_of_shapes(shapes))
            if (claimed_on(*f, target) && !listed.count(lower(f->short_name))) candidates.push_back(f);
    }
    for (const Instruction* ins : candidates) {
        if (kind && ins->kind != *kind) continue;
        const SearchWords& sw = search_words(*ins);
        int total = 0;
        bool all = true;
        for (const std::string& w : words) {
            const int s = word_score(w, sw.keywords, sw.lower_mnemonic, sw.lower_builtin);
            if (s == 0) { all = false; break; }
            total += s;
        }
        if (!all) continue;
        hits.push_back({ins, total});
    }
    // Best score first; among equals the simpler (shorter) mnemonic, then catalog order.
    std::stable_sort(hits.begin(), hits.end(), [](const SearchHit& a, const SearchHit& b) {
        if (a.score != b.score) return a.score > b.score;
        return a.ins->mnemonic.size() < b.ins->mnemonic.size();
    });
    if (words.empty())
        std::stable_sort(hits.begin(), hits.end(),
                         [](const SearchHit& a, const SearchHit& b) { return a.ins->catalog_line < b.ins->catalog_line; });
    return hits;
}

}  // namespace lanescope
