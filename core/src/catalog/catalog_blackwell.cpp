// NVIDIA Blackwell catalog rows (core/catalog/blackwell.txt, whose header is the
// format): parsing, lazy materialisation of the one instruction a name asks for,
// short names, and per-target legality as CUDA 13.0's ptxas decides it.
//
// A row is a template: a PTX spelling and a short name with placeholders, and the
// values each placeholder may take (shapes, types, .num, where A lives). A name is
// matched against the row's templates, the captured values are checked against
// the row, and only then is an Instruction built (and kept for the process).
#include "catalog/catalog_blackwell.hpp"

#include "lanescope/blackwell.hpp"

#include "util/text_util.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace lanescope {
extern const char* const kBlackwellCatalogText;  // generated from core/catalog/blackwell.txt
}

namespace lanescope::detail {

namespace {

constexpr std::string_view kOrigin = "core/catalog/blackwell.txt";
constexpr size_t kFields = 10;

[[noreturn]] void fail(int line, const std::string& what) {
    throw Error(std::string(kOrigin) + ":" + std::to_string(line) + ": " + what);
}

int number(int line, std::string_view field, std::string_view text) {
    text = text::trim_view(text);
    if (text.empty() || text.size() > 4) fail(line, std::string(field) + " '" + std::string(text) + "' is not a number");
    int v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') fail(line, std::string(field) + " '" + std::string(text) + "' is not a number");
        v = 10 * v + (c - '0');
    }
    return v;
}

// "8..256/8", "8,16,24,32,48..256/16", "64,128,256".
std::vector<int> int_list(int line, std::string_view field, std::string_view spec) {
    std::vector<int> out;
    for (std::string_view t : text::split_view(spec, ',', true)) {
        const auto dots = t.find("..");
        if (dots == std::string_view::npos) {
            out.push_back(number(line, field, t));
            continue;
        }
        const auto slash = t.find('/');
        if (slash == std::string_view::npos || slash < dots)
            fail(line, std::string(field) + " range '" + std::string(t) + "' must read a..b/step");
        const int lo = number(line, field, t.substr(0, dots)), hi = number(line, field, t.substr(dots + 2, slash - dots - 2));
        const int step = number(line, field, t.substr(slash + 1));
        if (step == 0 || hi < lo) fail(line, std::string(field) + " range '" + std::string(t) + "' is empty");
        for (int v = lo; v <= hi; v += step) out.push_back(v);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// PTX type names as lanescope's ElemType (the fp6/fp4 formats are AMD's fp6/bf6/fp4
// enumerators: e2m3 = fp6, e3m2 = bf6, e2m1 = fp4, as OCP defines them; b32 is read as f32).
constexpr std::pair<std::string_view, ElemType> kPtx[] = {
    {"e2m3", ElemType::FP6}, {"e3m2", ElemType::BF6}, {"e2m1", ElemType::FP4}, {"ue8m0", ElemType::E8M0},
    {"ue4m3", ElemType::UE4M3}, {"b32", ElemType::F32}, {"u32", ElemType::I32}};
std::optional<ElemType> ptx_elem(std::string_view s) {
    for (const auto& [name, t] : kPtx)
        if (s == name) return t;
    return parse_elem(s);
}

// A template string: literals and placeholders.
struct Piece {
    bool hole = false;
    std::string text;  // literal (lower case) or placeholder name
};
using Pattern = std::vector<Piece>;

constexpr std::string_view kHoles[] = {"M", "N", "K", "D", "A", "B", "S", "types", "num", "red", "a"};

Pattern compile(int line, std::string_view tpl) {
    Pattern out;
    std::string lit;
    for (size_t i = 0; i < tpl.size();) {
        if (tpl[i] == '{') {
            const size_t end = tpl.find('}', i);
            if (end == std::string_view::npos) fail(line, "unclosed '{' in '" + std::string(tpl) + "'");
            const std::string name(tpl.substr(i + 1, end - i - 1));
            if (std::find(std::begin(kHoles), std::end(kHoles), name) == std::end(kHoles))
                fail(line, "unknown placeholder {" + name + "}, legal: {M} {N} {K} {D} {A} {B} {S} {types} {num} {red} {a}");
            if (!lit.empty()) out.push_back({false, text::lower(lit)});
            lit.clear();
            out.push_back({true, name});
            i = end + 1;
        } else {
            lit += tpl[i++];
        }
    }
    if (!lit.empty()) out.push_back({false, text::lower(lit)});
    return out;
}

bool has_hole(const Pattern& p, std::string_view name) {
    return std::any_of(p.begin(), p.end(), [&](const Piece& x) { return x.hole && x.text == name; });
}

// What a placeholder's value may contain (lower case).
bool hole_char(std::string_view hole, char c) {
    const bool digit = c >= '0' && c <= '9', alnum = digit || (c >= 'a' && c <= 'z');
    if (hole == "M" || hole == "N" || hole == "K" || hole == "num") return digit;
    if (hole == "types") return alnum || c == '_';
    if (hole == "red") return alnum || c == '.' || c == '_';
    if (hole == "a") return c == '_' || c == 't' || c == 's';
    return alnum;
}

using Captures = std::map<std::string, std::string>;

// Every way `s` fills the pattern's placeholders (a placeholder used twice, as {D}
// in mma.sync's spelling, takes one value).
void match_from(const Pattern& p, size_t pi, std::string_view s, size_t si, Captures& cap, std::vector<Captures>& out) {
    if (out.size() >= 64) return;
    if (pi == p.size()) {
        if (si == s.size()) out.push_back(cap);
        return;
    }
    const Piece& piece = p[pi];
    if (!piece.hole) {
        if (s.compare(si, piece.text.size(), piece.text) == 0) match_from(p, pi + 1, s, si + piece.text.size(), cap, out);
        return;
    }
    const auto seen = cap.find(piece.text);
    if (seen != cap.end()) {
        if (s.compare(si, seen->second.size(), seen->second) == 0)
            match_from(p, pi + 1, s, si + seen->second.size(), cap, out);
        return;
    }
    const size_t min_len = piece.text == "a" ? 0 : 1;
    size_t len = 0;
    while (si + len < s.size() && hole_char(piece.text, s[si + len])) ++len;
    for (size_t l = len + 1; l-- > min_len;) {
        cap[piece.text] = std::string(s.substr(si, l));
        match_from(p, pi + 1, s, si + l, cap, out);
    }
    cap.erase(piece.text);
}

std::vector<Captures> match(const Pattern& p, std::string_view s) {
    std::vector<Captures> out;
    Captures cap;
    match_from(p, 0, s, 0, cap, out);
    return out;
}

struct ShapeItem {
    std::vector<int> ms, ns;
    int k = 0;
    std::vector<std::string> only;  // empty: every target of the row
    std::string text;
};

struct TypeItem {
    std::vector<std::string> d, a, b, s;
    bool b_is_a = false;
    std::string text;
};

struct Row {
    int line = 0;
    std::vector<Family> families;
    LayoutKind kind = LayoutKind::Tcgen05Mma;
    std::string ptx, short_name, alias;  // templates as written (alias: CUTLASS order, or empty)
    Pattern ptx_p, short_p, alias_p;
    std::vector<ShapeItem> shapes;
    std::vector<TypeItem> types;
    std::vector<std::string> a_spaces, nums, reds;
    std::vector<std::string> targets;
    std::string ptx_version, sass, source;
    bool ptx_only = false;  // "/ 9.1 ptx-only": PTX allows it on `targets`, CUDA 13.0 ptxas refuses it
};

// CUTLASS writes sm_120's kind and scale qualifiers before the shape
// ("mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col..."):
// ptxas accepts both orders (scripts/ptxas-matrix.sh).
std::string cutlass_order(const std::string& ptx) {
    const size_t shape = ptx.find(".m16n8k"), kind = ptx.find(".kind::");
    if (shape == std::string::npos || kind == std::string::npos || kind < shape) return "";
    const size_t end = ptx.find(".{", kind);
    if (end == std::string::npos) return "";
    return ptx.substr(0, shape) + ptx.substr(kind, end - kind) + ptx.substr(shape, kind - shape) + ptx.substr(end);
}

Row parse_row(const std::vector<std::string_view>& f, int line) {
    if (f.size() != kFields)
        fail(line, "expected 10 '|'-separated fields (families | layout | ptx | short | shape | types | variants | targets | "
                   "sass | source), found " + std::to_string(f.size()));
    Row r;
    r.line = line;
    for (std::string_view fam : text::split_view(f[0], ',', true)) {
        if (fam == "blackwell") r.families.push_back(Family::Blackwell);
        else if (fam == "blackwell-geforce") r.families.push_back(Family::BlackwellGeForce);
        else fail(line, "unknown family '" + std::string(fam) + "', legal: blackwell blackwell-geforce");
    }
    static constexpr std::pair<std::string_view, LayoutKind> kKinds[] = {{"tcgen05_mma", LayoutKind::Tcgen05Mma},
                                                                        {"tcgen05_ldst", LayoutKind::Tcgen05LdSt},
                                                                        {"tcgen05_cp", LayoutKind::Tcgen05Cp},
                                                                        {"mma_block_scale", LayoutKind::MmaBlockScale}};
    const auto* kind = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const auto& e) { return e.first == f[1]; });
    if (kind == std::end(kKinds))
        fail(line, "unknown layout '" + std::string(f[1]) + "', legal: tcgen05_mma tcgen05_ldst tcgen05_cp mma_block_scale");
    r.kind = kind->second;
    r.ptx = f[2];
    r.short_name = f[3];
    r.ptx_p = compile(line, r.ptx);
    r.short_p = compile(line, r.short_name);
    if (r.kind == LayoutKind::MmaBlockScale) {
        r.alias = cutlass_order(r.ptx);
        if (!r.alias.empty()) r.alias_p = compile(line, r.alias);
    }
    if (f[4] != "-") {
        for (std::string_view item : text::split_view(f[4], ';', true)) {
            ShapeItem s;
            s.text = item;
            std::string_view dims = item;
            if (const auto at = item.find('@'); at != std::string_view::npos) {
                for (std::string_view t : text::split_view(item.substr(at + 1), ',', true)) s.only.emplace_back(t);
                dims = item.substr(0, at);
            }
            const auto parts = text::split_view(dims, 'x', true);
            if (parts.size() != 3) fail(line, "shape item '" + std::string(item) + "' must read 'Ms x Ns x K'");
            s.ms = int_list(line, "M", parts[0]);
            s.ns = int_list(line, "N", parts[1]);
            s.k = number(line, "K", parts[2]);
            r.shapes.push_back(std::move(s));
        }
    }
    for (std::string_view item : text::split_view(f[5], ';', true)) {
        TypeItem t;
        t.text = item;
        const auto parts = text::split_view(item, 'x', true);
        auto names = [&](std::string_view list) {
            std::vector<std::string> v;
            for (std::string_view n : text::split_view(list, ',', true)) {
                if (!ptx_elem(n)) fail(line, "unknown type '" + std::string(n) + "' in '" + std::string(item) + "'");
                v.emplace_back(n);
            }
            return v;
        };
        if (parts.size() == 1) {  // ld/st/cp: one element type
            t.d = t.a = t.b = names(parts[0]);
        } else if (parts.size() == 3 || parts.size() == 4) {
            t.d = names(parts[0]);
            t.a = names(parts[1]);
            t.b_is_a = text::trim_view(parts[2]) == "=";
            if (!t.b_is_a) t.b = names(parts[2]);
            if (parts.size() == 4) t.s = names(parts[3]);
        } else {
            fail(line, "types item '" + std::string(item) + "' must read 'Ds x As x Bs [x Ss]'");
        }
        r.types.push_back(std::move(t));
    }
    if (f[6] != "-")
        for (std::string_view v : text::split_view(f[6], ';', true)) {
            const auto sp = v.find(' ');
            const std::string_view name = v.substr(0, sp);
            std::vector<std::string> values;
            if (sp != std::string_view::npos)
                for (std::string_view x : text::split_view(v.substr(sp + 1), ',', true)) values.emplace_back(x);
            if (values.empty()) fail(line, "variant '" + std::string(v) + "' lists no values");
            if (name == "a") r.a_spaces = values;
            else if (name == "num") r.nums = values;
            else if (name == "red") r.reds = values;
            else fail(line, "unknown variant '" + std::string(name) + "', legal: a num red");
        }
    const auto tv = text::split_view(f[7], '/', true);
    if (tv.size() != 2) fail(line, "targets '" + std::string(f[7]) + "' must read 'sm_.., sm_.. / PTX version'");
    for (std::string_view t : text::split_view(tv[0], ',', true)) r.targets.emplace_back(t);
    if (r.targets.empty()) fail(line, "no targets");
    r.ptx_version = tv[1];
    if (const size_t sp = r.ptx_version.find(' '); sp != std::string::npos) {
        if (text::trim(r.ptx_version.substr(sp)) != "ptx-only")
            fail(line, "targets '" + std::string(f[7]) + "': after the PTX version only 'ptx-only' may follow");
        r.ptx_only = true;
        r.ptx_version = r.ptx_version.substr(0, sp);
    }
    r.sass = f[8];
    r.source = f[9];
    // Every placeholder needs its values.
    for (const Pattern* p : {&r.ptx_p, &r.short_p})
        for (const Piece& x : *p) {
            if (!x.hole) continue;
            const bool ok = (x.text == "M" || x.text == "N" || x.text == "K") ? !r.shapes.empty()
                            : x.text == "num"                               ? !r.nums.empty()
                            : x.text == "red"                               ? !r.reds.empty()
                            : x.text == "a"                                 ? !r.a_spaces.empty()
                            : x.text == "S"                                 ? !r.types.front().s.empty()
                                                                            : true;
            if (!ok) fail(line, "placeholder {" + x.text + "} has no values in this row");
        }
    return r;
}

// The catalog's rows as text, found once (lines and their first four fields, no
// parsing): a name parses only the rows whose templates it could spell.
struct RowText {
    int line = 0;
    std::string_view text, kind, ptx, short_name;
};

const std::vector<RowText>& row_texts() {
    static const std::vector<RowText> kTexts = [] {
        std::vector<RowText> out;
        const std::string_view text = kBlackwellCatalogText;
        int line = 0;
        for (size_t at = 0; at < text.size();) {
            size_t end = text.find('\n', at);
            if (end == std::string_view::npos) end = text.size();
            const std::string_view l = text::trim_view(text.substr(at, end - at));
            at = end + 1;
            ++line;
            if (l.empty() || l[0] == '#') continue;
            RowText r{line, l, {}, {}, {}};
            std::string_view* fields[] = {nullptr, &r.kind, &r.ptx, &r.short_name};
            size_t from = 0;
            for (std::string_view* f : fields) {
                const size_t bar = l.find('|', from);
                if (bar == std::string_view::npos) break;  // parse_row says what is missing
                if (f) *f = text::trim_view(l.substr(from, bar - from));
                from = bar + 1;
            }
            out.push_back(r);
        }
        return out;
    }();
    return kTexts;
}

char lower_char(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_lowered(std::string_view lowered, size_t at, std::string_view lit) {
    if (at + lit.size() > lowered.size()) return false;
    for (size_t i = 0; i < lit.size(); ++i)
        if (lowered[at + i] != lower_char(lit[i])) return false;
    return true;
}

// Whether `lowered` could fill template `tpl`: its literal pieces in order, the
// first at the start and the last at the end (match() decides; this only skips
// the rows it would reject).
bool could_spell(std::string_view tpl, std::string_view lowered) {
    size_t pos = 0, i = 0;
    bool first = true;
    while (i <= tpl.size()) {
        const size_t open = std::min(tpl.find('{', i), tpl.size());
        const std::string_view lit = tpl.substr(i, open - i);
        const bool last = open == tpl.size();
        if (first && last) return lit.size() == lowered.size() && same_lowered(lowered, 0, lit);
        if (first) {
            if (!same_lowered(lowered, 0, lit)) return false;
            pos = lit.size();
        } else if (last) {
            return lowered.size() >= pos + lit.size() && same_lowered(lowered, lowered.size() - lit.size(), lit);
        } else if (!lit.empty()) {
            size_t at = pos;
            while (at + lit.size() <= lowered.size() && !same_lowered(lowered, at, lit)) ++at;
            if (at + lit.size() > lowered.size()) return false;
            pos = at + lit.size();
        }
        first = false;
        const size_t close = tpl.find('}', open);
        if (close == std::string_view::npos) return true;  // parse_row refuses it
        i = close + 1;
    }
    return true;
}

std::mutex& rows_mutex() {
    static std::mutex m;
    return m;
}

// Row n of row_texts(), parsed on first use and kept for the process.
const Row& row(size_t n) {
    static auto* parsed = new std::vector<std::unique_ptr<Row>>(row_texts().size());  // lives with the process
    std::lock_guard<std::mutex> lock(rows_mutex());
    std::unique_ptr<Row>& slot = (*parsed)[n];
    if (!slot) {
        std::vector<std::string_view> f;
        text::split_view_into(f, row_texts()[n].text, '|', true);
        slot = std::make_unique<Row>(parse_row(f, row_texts()[n].line));
    }
    return *slot;
}

// Whether row n could spell `lowered` by any of its templates (its PTX spelling, its
// short name, CUTLASS's order of an sm_120 spelling).
bool could_spell_row(size_t n, std::string_view lowered) {
    const RowText& t = row_texts()[n];
    if (could_spell(t.ptx, lowered) || could_spell(t.short_name, lowered)) return true;
    if (t.kind != "mma_block_scale") return false;
    const std::string alias = cutlass_order(std::string(t.ptx));
    return !alias.empty() && could_spell(alias, lowered);
}

// Every row, parsed (listings and the catalog check).
std::vector<const Row*> rows() {
    std::vector<const Row*> out;
    for (size_t n = 0; n < row_texts().size(); ++n) out.push_back(&row(n));
    return out;
}

// The values one instruction of a row takes.
struct Choice {
    int m = 0, n = 0, k = 0;
    std::string d, a, b, s, num, red;  // red as the row writes it ("min.NaN")
    bool a_tmem = false;
    const ShapeItem* shape = nullptr;
};

std::string fill(const std::string& tpl, const Choice& c, bool short_form) {
    std::string out;
    for (size_t i = 0; i < tpl.size();) {
        if (tpl[i] != '{') {
            out += tpl[i++];
            continue;
        }
        const size_t end = tpl.find('}', i);
        const std::string h = tpl.substr(i + 1, end - i - 1);
        i = end + 1;
        if (h == "M") out += std::to_string(c.m);
        else if (h == "N") out += std::to_string(c.n);
        else if (h == "K") out += std::to_string(c.k);
        else if (h == "D") out += c.d;
        else if (h == "A") out += c.a;
        else if (h == "B") out += c.b;
        else if (h == "S") out += c.s;
        else if (h == "num") out += c.num;
        else if (h == "types") out += c.d + "_" + c.a + (c.b == c.a ? "" : "_" + c.b);
        else if (h == "a") out += c.a_tmem ? "_ts" : "";
        else if (h == "red") {
            std::string v = c.red;
            if (short_form) {
                v = text::lower(v);
                std::replace(v.begin(), v.end(), '.', '_');
            }
            out += v;
        }
    }
    return out;
}

std::string after(const std::string& s, std::string_view key, std::string_view stop = ".") {
    const size_t at = s.find(key);
    if (at == std::string::npos) return "";
    const size_t from = at + key.size();
    size_t end = s.size();
    for (char c : stop) end = std::min(end, s.find(c, from) == std::string::npos ? s.size() : s.find(c, from));
    return s.substr(from, end - from);
}

constexpr const char* kNotOnHardware = "not confirmed on hardware: no Blackwell GPU was available";

Instruction build(const Row& r, const Choice& c) {
    Instruction ins;
    ins.catalog_line = r.line;
    ins.families = r.families;
    ins.kind = r.kind;
    ins.mnemonic = fill(r.ptx, c, false);
    ins.short_name = text::lower(fill(r.short_name, c, true));
    ins.aliases.push_back(ins.short_name);
    if (!r.alias.empty()) ins.aliases.push_back(fill(r.alias, c, false));  // PTX case kept (ptxas reads it)
    ins.source = r.source;
    ins.ptx_version = r.ptx_version;
    ins.targets = r.targets;
    if (c.shape && !c.shape->only.empty()) {
        std::vector<std::string> keep;
        for (const auto& t : ins.targets)
            if (std::find(c.shape->only.begin(), c.shape->only.end(), t) != c.shape->only.end()) keep.push_back(t);
        ins.targets = keep;
    }
    ins.min_target = ins.targets.empty() ? "" : ins.targets.front();
    const std::string& p = ins.mnemonic;
    ins.mma_kind = after(p, "kind::");
    if (const std::string cg = after(p, "cta_group::"); !cg.empty()) ins.cta_group = cg[0] - '0';
    ins.ws = p.rfind("tcgen05.mma.ws", 0) == 0;
    ins.tcgen05_sparse = p.find(".sp.") != std::string::npos || p.rfind("mma.sp::", 0) == 0;
    ins.a_in_tmem = c.a_tmem;
    ins.a = *ptx_elem(c.a);
    ins.b = *ptx_elem(c.b);
    ins.c = *ptx_elem(c.d);
    if (!c.s.empty()) ins.scale_type = *ptx_elem(c.s);
    ins.m = c.m;
    ins.n = c.n;
    ins.k = c.k;
    if (p.find(".block_scale") != std::string::npos) {
        // K per scale factor: 32 (block32 and the bare .block_scale of mxf8f6f4/mxf4), 16 (block16);
        // scale_vec::NX states the count. Sparse A counts the K of its stored half.
        const int k_dense = ins.tcgen05_sparse ? c.k / 2 : c.k;
        const std::string sv = after(p, "scale_vec::");
        if (!sv.empty()) ins.scale_vec = sv[0] - '0';
        else {
            ins.scale_block = p.find(".block16") != std::string::npos ? 16 : 32;
            ins.scale_vec = k_dense / ins.scale_block;
        }
    }
    if (r.kind == LayoutKind::Tcgen05LdSt) {
        ins.store = p.rfind("tcgen05.st", 0) == 0;
        ins.tmem_shape = after(p, "sync.aligned.");
        ins.tmem_num = std::stoi(c.num);
        ins.pack16 = p.find("pack::16b") != std::string::npos;
        const std::string& s = ins.tmem_shape;
        const int bits = s == "16x64b" ? 64 : s == "16x128b" ? 128 : s == "16x256b" ? 256 : 32;
        ins.m = s == "32x32b" ? 32 : 16;
        ins.n = bits * ins.tmem_num;
        ins.k = 0;
        // Registers per thread (PTX Table 49): the message's bits (lanes x bits, 16x32bx2: two halves of 16 lanes)
        // over the warp's 32 threads of 32 bits.
        const int lanes = s == "16x32bx2" ? 32 : ins.m;
        ins.stated_regs = {{Operand::D, ins.tmem_num * lanes * bits / 1024}};
        ins.confidence = "high: PTX's tcgen05.ld/st fragment tables, CUTLASS's SM100 TMEM copy atoms and Triton agree; " +
                         std::string(kNotOnHardware);
    } else if (r.kind == LayoutKind::Tcgen05Cp) {
        // "128x256b", "64x128b.warpx2::02_13", "32x128b.warpx4" (the decompression suffix is not the shape).
        const std::string rest = p.substr(p.find('.', p.find("cta_group::")) + 1);
        ins.tmem_shape = rest.substr(0, rest.find(".b8x16"));
        ins.m = std::stoi(ins.tmem_shape);
        ins.n = std::stoi(ins.tmem_shape.substr(ins.tmem_shape.find('x') + 1));
        ins.k = 0;
        ins.confidence = "medium: PTX's tcgen05.cp shapes and CUTLASS's SM100_UTCCP atoms; " + std::string(kNotOnHardware);
    } else if (r.kind == LayoutKind::MmaBlockScale) {
        const bool f16d = c.d == "f16";
        ins.stated_regs = {{Operand::A, 4}, {Operand::B, ins.tcgen05_sparse ? 4 : 2}, {Operand::C, f16d ? 2 : 4},
                           {Operand::D, f16d ? 2 : 4}};
        if (ins.tcgen05_sparse) ins.stated_regs.push_back({Operand::K, 1});
        if (ins.scale_vec > 0) {
            ins.stated_regs.push_back({Operand::SA, 1});
            ins.stated_regs.push_back({Operand::SB, 1});
        }
        ins.confidence = ins.tcgen05_sparse
                             ? "medium: B, C, D as PTX's fragment tables and CUTLASS's SM120 traits agree; sparse A derived "
                               "from the dense fragment of the compressed A (one source); the metadata (operand K) extends PTX's "
                               "m16n8k32 rule to the whole quad (medium); " +
                                   std::string(kNotOnHardware)
                             : "high: PTX's fragment tables and CUTLASS's SM120 traits agree; " + std::string(kNotOnHardware);
    } else {
        ins.confidence = "high for the shapes and kinds (PTX and CUTLASS agree); " + std::string(kNotOnHardware);
    }
    return ins;
}

bool in(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The row's default instruction (a PTX spelling alone): largest M and N of its
// first shape, its first types, A in shared memory.
void defaults(const Row& r, Choice& c) {
    if (!r.shapes.empty()) {
        c.shape = &r.shapes.front();
        c.m = c.shape->ms.back();
        c.n = c.shape->ns.back();
        c.k = c.shape->k;
    }
    const TypeItem& t = r.types.front();
    c.d = t.d.front();
    c.a = t.a.front();
    c.b = t.b_is_a ? c.a : t.b.front();
    c.s = t.s.empty() ? "" : t.s.front();
}

std::string shapes_legal(const Row& r) {
    std::string out;
    for (const ShapeItem& s : r.shapes) out += (out.empty() ? "" : "; ") + s.text;
    return "M x N x K " + out;
}

std::string types_legal(const Row& r) {
    std::string out;
    for (const TypeItem& t : r.types) out += (out.empty() ? "" : "; ") + t.text;
    return "D x A x B" + std::string(r.types.front().s.empty() ? "" : " x scale") + " " + out;
}

// Checks captured values against the row; fills `c`. Returns "" or what is wrong
// (with a score: 2 = the types fit and the shape does not, 1 = the types do not fit).
std::string check(const Row& r, const Captures& cap, Choice& c, int& score) {
    defaults(r, c);
    auto got = [&](const char* h) -> const std::string* {
        auto it = cap.find(h);
        return it == cap.end() ? nullptr : &it->second;
    };
    score = 1;
    if (const std::string* t = got("types")) {
        const auto parts = text::split(*t, '_');
        if (parts.size() != 2 && parts.size() != 3) return "types '" + *t + "' must read D_A or D_A_B";
        c.d = parts[0];
        c.a = parts[1];
        c.b = parts.size() == 3 ? parts[2] : parts[1];
        if (parts.size() == 3 && parts[2] == parts[1]) return "write " + parts[0] + "_" + parts[1] + " when B is A's type";
    }
    if (const std::string* v = got("D")) c.d = *v;
    if (const std::string* v = got("A")) c.a = *v;
    if (const std::string* v = got("B")) c.b = *v;
    if (const std::string* v = got("S")) c.s = *v;
    const bool types_ok = std::any_of(r.types.begin(), r.types.end(), [&](const TypeItem& t) {
        return in(t.d, c.d) && in(t.a, c.a) && (t.b_is_a ? c.b == c.a : in(t.b, c.b)) && (t.s.empty() || in(t.s, c.s));
    });
    if (!types_ok) return "types " + c.d + "." + c.a + "." + c.b + (c.s.empty() ? "" : "." + c.s) + " are not legal; legal: " +
                          types_legal(r);
    score = 2;
    if (got("M") || got("N") || got("K")) {
        c.m = got("M") ? std::stoi(*got("M")) : 0;
        c.n = got("N") ? std::stoi(*got("N")) : 0;
        c.k = got("K") ? std::stoi(*got("K")) : 0;
        c.shape = nullptr;
        for (const ShapeItem& s : r.shapes)
            if (std::find(s.ms.begin(), s.ms.end(), c.m) != s.ms.end() &&
                std::find(s.ns.begin(), s.ns.end(), c.n) != s.ns.end() && s.k == c.k) {
                c.shape = &s;
                break;
            }
        if (!c.shape)
            return "m" + std::to_string(c.m) + "n" + std::to_string(c.n) + "k" + std::to_string(c.k) + " is not a shape of " +
                   r.ptx + "; legal: " + shapes_legal(r);
    }
    if (const std::string* v = got("num")) {
        if (!in(r.nums, *v)) return ".x" + *v + " is not legal for this shape; legal: .x" + text::join(r.nums, ", .x");
        c.num = *v;
    } else if (!r.nums.empty()) {
        c.num = r.nums.front();
    }
    if (const std::string* v = got("red")) {
        std::string want = *v;
        std::replace(want.begin(), want.end(), '_', '.');
        auto it = std::find_if(r.reds.begin(), r.reds.end(), [&](const std::string& x) { return text::lower(x) == want; });
        if (it == r.reds.end()) return "'" + *v + "' is not a reduction of this row; legal: " + text::join(r.reds, ", ");
        c.red = *it;
    }
    if (const std::string* v = got("a")) {
        if (!v->empty() && *v != "_ts") return "'" + *v + "' is not legal; legal: _ts (A in Tensor Memory) or nothing";
        c.a_tmem = *v == "_ts";
    }
    return "";
}

std::mutex& cache_mutex() {
    static std::mutex m;
    return m;
}
std::unordered_map<std::string, std::unique_ptr<Instruction>>& cache() {
    static auto* c = new std::unordered_map<std::string, std::unique_ptr<Instruction>>();  // lives with the process
    return *c;
}

const Instruction* keep(Instruction ins) {
    const std::string key = ins.short_name;
    std::lock_guard<std::mutex> lock(cache_mutex());
    auto& slot = cache()[key];
    if (!slot) slot = std::make_unique<Instruction>(std::move(ins));
    return slot.get();
}

// The row and values that spell `name`, or the best reason none does.
struct Found {
    const Row* row = nullptr;
    Choice choice;
    std::string why;
    int score = 0;
};

Found lookup(std::string_view lowered) {
    Found best;
    for (size_t n = 0; n < row_texts().size(); ++n) {
        if (!could_spell_row(n, lowered)) continue;
        const Row& r = row(n);
        for (const Pattern* p : {&r.short_p, &r.ptx_p, &r.alias_p}) {
            if (p->empty()) continue;
            for (const Captures& cap : match(*p, lowered)) {
                Choice c;
                int score = 0;
                std::string why = check(r, cap, c, score);
                if (why.empty()) return Found{&r, c, "", 3};
                if (score > best.score) best = Found{nullptr, {}, std::string(lowered) + ": " + why, score};
            }
        }
    }
    return best;
}

}  // namespace

const Instruction* blackwell_find(const Target& t, std::string_view name) {
    if (t.vendor() != Vendor::NVIDIA) return nullptr;
    const std::string lowered = text::lower(text::trim(name));
    // Every Blackwell spelling starts so: other names never parse the rows.
    if (lowered.rfind("tcgen05", 0) != 0 && lowered.rfind("mma", 0) != 0) return nullptr;
    // tcgen05.mma's collector-buffer qualifiers and .ashift (PTX §9.7.16.10.9) leave the
    // layouts as they are: they are accepted and set aside. ptxas takes .collector::a::*
    // and .ashift (A in Tensor Memory only) on the non-.ws forms, .collector::b0..3::* on .ws,
    // in either order.
    std::string base = lowered;
    bool ashift = false, fills = false;  // .collector::a::fill / ::use: ptxas refuses them with .ashift
    if (base.rfind("tcgen05.mma", 0) == 0) {
        const bool ws = base.rfind("tcgen05.mma.ws", 0) == 0;
        static const char* kUses[] = {"fill", "use", "lastuse", "discard"};
        for (bool again = true; again;) {
            again = false;
            for (const char* use : kUses)
                for (int b = -1; b < 4; ++b) {
                    const std::string q = std::string(".collector::") + (b < 0 ? "a" : "b" + std::to_string(b)) + "::" + use;
                    const size_t at = base.find(q);
                    if (at == std::string::npos || (at + q.size() < base.size() && base[at + q.size()] != '.')) continue;
                    if ((b < 0) == ws)
                        throw Error(std::string(text::trim(name)) + ": " + q.substr(1) + " is legal on " +
                                    (ws ? "the non-.ws tcgen05.mma forms (.ws takes .collector::b0..3)"
                                        : "tcgen05.mma.ws only (the other forms take .collector::a)"));
                    fills = fills || (b < 0 && (std::string(use) == "fill" || std::string(use) == "use"));
                    base.erase(at, q.size());
                    again = true;
                }
            if (const size_t at = base.find(".ashift");
                at != std::string::npos && (at + 7 == base.size() || base[at + 7] == '.')) {
                if (ws) throw Error(std::string(text::trim(name)) + ": .ashift is legal on the non-.ws tcgen05.mma forms only");
                base.erase(at, 7);
                ashift = again = true;
            }
        }
    }
    Found f = lookup(base);
    if (f.row && ashift) {
        if (!in(f.row->a_spaces, "tmem")) throw Error(std::string(text::trim(name)) + ": .ashift needs A in Tensor Memory");
        if (fills)
            throw Error(std::string(text::trim(name)) + ": .ashift cannot be combined with .collector::a::fill or ::use "
                        "(ptxas); legal with it: .collector::a::lastuse, ::discard");
        f.choice.a_tmem = true;  // .ashift shifts A's rows in Tensor Memory (ptxas refuses it with a descriptor A)
        if (f.choice.m != 128 && f.choice.m != 256)
            throw Error(std::string(text::trim(name)) + ": .ashift needs M = 128 or 256 (PTX §9.7.16.10.9.1)");
    }
    if (!f.row) {
        if (f.score == 0) return nullptr;
        throw Error(f.why);
    }
    Instruction ins = build(*f.row, f.choice);
    if (ashift && ins.scale_vec > 0)  // ptxas 13.0 on every target: "Illegal modifier '.ashift' for instruction 'tcgen05.mma'"
        throw Error(std::string(text::trim(name)) + ": .ashift is not legal with the block-scaled kinds (" + ins.mma_kind +
                    "); legal: kind::f16, tf32, f8f6f4, i8 with A in Tensor Memory");
    if (!in(ins.targets, t.gfx)) {
        std::string msg = ins.mnemonic + (ins.a_in_tmem ? " with A in Tensor Memory" : "");
        if (ins.mnemonic != ins.short_name && text::lower(name) != text::lower(ins.mnemonic))
            msg = std::string(text::trim(name)) + " (" + msg + ")";
        msg += " is legal on " + text::join(ins.targets, ", ") + "; not on " + t.gfx +
               (ptx_only(ins) ? " (PTX ISA " + ins.ptx_version + "; " + std::string(kPtxOnly) + ")" : " (CUDA 13.0 ptxas)");
        if (f.choice.shape && !f.choice.shape->only.empty())
            msg += "; K = " + std::to_string(ins.k) + " needs " + text::join(f.choice.shape->only, ", ");
        throw Error(msg);
    }
    return keep(std::move(ins));
}

std::vector<Instruction> blackwell_instructions(bool every_shape, const ShapeFilter* keep) {
    std::vector<Instruction> out;
    for (const Row* row_p : rows()) {
        const Row& r = *row_p;
        Choice base;
        defaults(r, base);
        std::vector<bool> spaces = {false};
        if (in(r.a_spaces, "tmem")) spaces.push_back(true);
        std::vector<std::string> nums = r.nums.empty() ? std::vector<std::string>{""} : r.nums;
        std::vector<std::string> reds = r.reds.empty() ? std::vector<std::string>{""} : r.reds;
        for (const TypeItem& t : r.types)
            for (const auto& d : t.d)
                for (const auto& a : t.a)
                    for (const auto& b : t.b_is_a ? std::vector<std::string>{a} : t.b)
                        for (const auto& s : t.s.empty() ? std::vector<std::string>{""} : t.s)
                            for (const auto& num : nums)
                                for (const auto& red : reds)
                                    for (bool tm : spaces) {
                                        Choice c = base;
                                        c.d = d, c.a = a, c.b = b, c.s = s, c.num = num, c.red = red, c.a_tmem = tm;
                                        // The PTX spelling of tcgen05.mma holds no types: one instruction
                                        // per spelling unless every shape is asked for.
                                        const bool spelled_types = has_hole(r.ptx_p, "D") || has_hole(r.ptx_p, "A");
                                        if (!every_shape) {
                                            if (!spelled_types && (&t != &r.types.front() || d != t.d.front() ||
                                                                   a != t.a.front() || b != (t.b_is_a ? a : t.b.front()) ||
                                                                   s != (t.s.empty() ? "" : t.s.front())))
                                                continue;
                                            out.push_back(build(r, c));
                                            continue;
                                        }
                                        if (r.shapes.empty()) {
                                            if (!keep) out.push_back(build(r, c));
                                            continue;
                                        }
                                        for (const ShapeItem& sh : r.shapes)
                                            for (int m : sh.ms)
                                                for (int n : sh.ns) {
                                                    if (keep && !(*keep)(m, n, sh.k)) continue;
                                                    c.shape = &sh, c.m = m, c.n = n, c.k = sh.k;
                                                    out.push_back(build(r, c));
                                                }
                                    }
    }
    return out;
}

BlackwellFacts blackwell_facts(const Instruction& ins) {
    if (ins.kind != LayoutKind::Tcgen05Mma && ins.kind != LayoutKind::Tcgen05LdSt && ins.kind != LayoutKind::Tcgen05Cp &&
        ins.kind != LayoutKind::MmaBlockScale)
        return {};
    for (size_t n = 0; n < row_texts().size(); ++n)
        if (row_texts()[n].line == ins.catalog_line) {
            const Row& r = row(n);
            std::string section = r.source.substr(0, r.source.find(';'));
            return {r.sass, section, r.ptx_only};
        }
    return {};
}

void blackwell_check() {
    const std::vector<const Row*> all = rows();
    if (all.empty()) throw Error(std::string(kOrigin) + ": holds no rows");
    for (const Row* row_p : all) {
        const Row& r = *row_p;
        for (const std::string& t : r.targets) {
            const Target& tgt = Catalog::target(t);
            if (tgt.gfx != t || std::find(r.families.begin(), r.families.end(), tgt.family) == r.families.end())
                fail(r.line, "target '" + t + "' is not a target of the row's families");
        }
        for (const ShapeItem& s : r.shapes)
            for (const std::string& t : s.only)
                if (!in(r.targets, t)) fail(r.line, "shape item '" + s.text + "' names target " + t + ", not one of the row's");
    }
    // Each spelling names its own row back (the short names of different rows never collide).
    for (const Instruction& ins : blackwell_instructions(false)) {
        const Target& t = Catalog::target(ins.targets.front());
        for (const std::string& name : {ins.short_name, text::lower(ins.mnemonic)}) {
            const Instruction* back = blackwell_find(t, name);
            if (!back || back->catalog_line != ins.catalog_line)
                fail(ins.catalog_line, "'" + name + "' names the row on line " +
                                           std::to_string(back ? back->catalog_line : 0) + ", not this one");
        }
    }
}

}  // namespace lanescope::detail

namespace lanescope {

std::vector<Instruction> blackwell_spellings() { return detail::blackwell_instructions(false); }

std::vector<Instruction> blackwell_mma_forms(const Target& t) {
    std::vector<Instruction> out;
    for (Instruction& ins : detail::blackwell_instructions(true))
        if ((ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::MmaBlockScale) && claimed_on(ins, t))
            out.push_back(std::move(ins));
    return out;
}

bool claimed_on(const Instruction& ins, const Target& t) {
    if (!ins.targets.empty()) return std::find(ins.targets.begin(), ins.targets.end(), t.gfx) != ins.targets.end();
    if (!ins.on(t.family)) return false;
    const std::string& min = ins.min_target;
    if (min.rfind("sm_", 0) != 0 || t.gfx.rfind("sm_", 0) != 0) return true;
    if (!min.empty() && (min.back() == 'a' || min.back() == 'f')) return t.gfx == min;
    return std::atoi(t.gfx.c_str() + 3) >= std::atoi(min.c_str() + 3);
}

bool ptx_only(const Instruction& ins) { return detail::blackwell_facts(ins).ptx_only; }

namespace detail {
std::string_view ptx_type_name(ElemType t) {
    if (t == ElemType::F32 || t == ElemType::I32) return elem_name(t);  // b32 / u32 are read as these, not named so
    for (const auto& [name, e] : kPtx)
        if (e == t) return name;
    return elem_name(t);
}
}  // namespace detail

}  // namespace lanescope
