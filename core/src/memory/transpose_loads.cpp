// Transpose loads (CDNA4 ds_read_*_tr_*, RDNA4 global_load_tr_*): the catalog
// of core/catalog/transpose_loads.txt, the two lane-rule families, which
// operands they feed, and the planner that fills an operand from memory.
//
// Facts: the sources of docs/sources.md (keys TD, I4, TRI-LL, CK-TR, MOJO,
// DOC-CDNA4TR, DOC-RDNA4TR, TRI-G12); the operand layouts the loads must
// reproduce are the layout families of core/src/layouts.
// Deliveries come from the lane rule applied to the chosen addresses, never
// from layout_of; tests/test_transpose_loads.cpp compares the two.
#include "lanescope/transpose.hpp"
#include "lanescope/numbers.hpp"

#include "util/text_util.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace lanescope {

extern const char* const kTransposeCatalogText;

// ------------------------------------------------------------ lane rules ----

std::string_view transpose_rule_name(TransposeRule r) {
    switch (r) {
        case TransposeRule::Group16: return "group16";
        case TransposeRule::Block8x8: return "block8x8";
        case TransposeRule::Unknown: break;
    }
    return "unknown";
}

std::string transpose_rule_formula(TransposeRule r) {
    switch (r) {
        case TransposeRule::Group16:
            return "gfx950 16-lane group transpose (Triton TRI-LL, CK-TR and Mojo agree; docs/transpose-loads.md): in each group of "
                   "16 lanes, every lane reads E elements of w bits (tr16: E=4, tr8: 8, tr4 and tr6: 16) and\n"
                   "  dst[L][e] = src[C*e + floor(L/E)][L % E],  C = 16/E (source lanes per K-row)\n"
                   "  so source lane s feeds element floor(s/C) of lanes E*(s%C) .. E*(s%C)+E-1.\n"
                   "Address choice: source lane s of call c reads the K-row that its destination lanes' item "
                   "E*c + floor(s/C) holds, columns E*(s%C) .. +E-1 of its group's 16 (A: rows, from a column-major A)";
        case TransposeRule::Block8x8:
            return "RDNA4 8-lane 8x8 transpose (Triton's gfx12 lowering TRI-G12 and the ROCm docs page "
                   "agree): in each group of 8 lanes, every lane reads 8 elements (b128: 16-bit, b64: 8-bit) and\n"
                   "  dst[L][e] = src[8*floor(L/8) + e][L % 8]\n"
                   "  so source lane s feeds element s%8 of the 8 lanes of its group.\n"
                   "Address choice: source lane s of call c reads the K-row that its group's item 8*c + s%8 "
                   "holds, the group's 8 consecutive columns (A: rows, from a column-major A)";
        case TransposeRule::Unknown: break;
    }
    return "unknown: no source gives this lane rule";
}

TransposeSlot transpose_destination(TransposeRule r, int E, int s, int i) {
    if (r == TransposeRule::Group16) {
        const int C = 16 / E;
        return {E * (s % C) + i, s / C};
    }
    if (r == TransposeRule::Block8x8) return {i, s};  // s, i local to the 8-lane group
    throw Error("the lane rule of this transpose load is unknown");
}

TransposeSlot transpose_source(TransposeRule r, int E, int L, int e) {
    if (r == TransposeRule::Group16) {
        const int C = 16 / E;
        return {C * e + L / E, L % E};
    }
    if (r == TransposeRule::Block8x8) return {e, L};
    throw Error("the lane rule of this transpose load is unknown");
}

// --------------------------------------------------------------- catalog ----

bool TransposeLoad::on(Family f) const { return std::find(families.begin(), families.end(), f) != families.end(); }
int TransposeLoad::per_lane() const { return lane_bits / element_bits; }

std::string TransposeLoad::builtin_for(ElemType t) const {
    const std::string want = t == ElemType::F16 ? "f16" : t == ElemType::BF16 ? "bf16" : "";
    std::string fallback;
    for (const auto& b : builtins) {
        const auto cut = b.rfind('_');
        const std::string suffix = b.substr(cut + 1);
        const std::string scalar = suffix.substr(suffix.find_first_not_of("v0123456789"));
        if (!want.empty() && scalar == want) return "__builtin_amdgcn_" + b;
        if (fallback.empty() && (scalar == "i16" || scalar == "i32")) fallback = b;
    }
    return "__builtin_amdgcn_" + (fallback.empty() ? builtins.front() : fallback);
}

namespace {
// The builtin whose element type matches the matrix builtin's operand vector
// ("v8i16" for RDNA4 bf16 WMMA, "v8bf16" for gfx950 MFMA), so no cast is needed.
std::string builtin_matching(const TransposeLoad& load, const Instruction& ins, Operand op, int wave, ElemType t) {
    const auto types = text::split(ins.vector_types(wave), ',');
    const size_t at = op == Operand::A ? 0 : 1;
    if (at < types.size()) {
        const std::string tok = text::trim(types[at]);
        const std::string scalar = tok.substr(std::min(tok.size(), tok.find_first_not_of("v0123456789")));
        for (const auto& b : load.builtins) {
            const std::string suffix = b.substr(b.rfind('_') + 1);
            if (suffix.substr(suffix.find_first_not_of("v0123456789")) == scalar) return "__builtin_amdgcn_" + b;
        }
    }
    return load.builtin_for(t);
}
}  // namespace

std::pair<std::string, int> builtin_vector(std::string_view builtin) {
    const std::string suffix(builtin.substr(builtin.rfind('_') + 1));  // "v4f16", "i32"
    const size_t digits = suffix.find_first_not_of("v0123456789");
    // The builtins' element types (clang's BuiltinsAMDGPU.td): f16 is the GCC half type __fp16, not _Float16.
    static const std::map<std::string, std::string> kScalar = {
        {"i16", "short"}, {"f16", "__fp16"}, {"bf16", "__bf16"}, {"i32", "int"}};
    const auto it = digits == std::string::npos ? kScalar.end() : kScalar.find(suffix.substr(digits));
    int lanes = 1;
    if (suffix[0] == 'v') {
        lanes = 0;
        for (size_t n = 1; n < digits && lanes < 1000; ++n) lanes = lanes * 10 + (suffix[n] - '0');
    }
    if (it == kScalar.end() || lanes < 1) throw Error("cannot read the vector type of builtin " + std::string(builtin));
    return {it->second, lanes};
}

BuiltinPrototype transpose_builtin_prototype(const TransposeLoad& load, std::string_view builtin) {
    std::string name(builtin);
    const std::string prefix = "__builtin_amdgcn_";
    if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
    if (std::find(load.builtins.begin(), load.builtins.end(), name) == load.builtins.end())
        throw Error("'" + name + "' is not a builtin of " + load.mnemonic + "; legal: " + text::join(load.builtins, ", "));
    BuiltinPrototype p;
    const std::string suffix = name.substr(name.rfind('_') + 1);  // "v4f16", "i32"
    std::tie(p.scalar_type, p.lanes) = builtin_vector(name);
    p.vector_type = p.lanes == 1 ? p.scalar_type : suffix;
    if (p.lanes > 1)
        p.vector_typedef = "typedef " + p.scalar_type + " " + suffix + " __attribute__((ext_vector_type(" +
                           num(p.lanes) + ")));";
    const int as = load.space == MemorySpace::Lds ? 3 : 1;
    p.prototype = p.vector_type + " " + prefix + name + "(" + p.vector_type + " __attribute__((address_space(" +
                  num(as) + ")))*)";
    return p;
}

namespace {
[[noreturn]] void fail(std::string_view origin, int line, const std::string& what) {
    throw Error(std::string(origin) + ":" + num(line) + ": " + what);
}

int parse_count(std::string_view origin, int line, const char* field, const std::string& s, std::vector<int> legal) {
    for (int v : legal)
        if (s == num(v)) return v;
    std::vector<std::string> names;
    for (int v : legal) names.push_back(num(v));
    fail(origin, line, std::string(field) + " '" + s + "' is not legal; legal: " + text::join(names, ", "));
}

void check_builtin_name(std::string_view origin, int line, const std::string& b) {
    bool ok = !b.empty() && b.size() < 100 && std::islower(static_cast<unsigned char>(b[0]));  // after the prefix
    for (char ch : b) ok = ok && (std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '_');
    const auto cut = b.rfind('_');
    std::string suffix = cut == std::string::npos ? "" : b.substr(cut + 1);
    static const std::vector<std::string> kSuffix = {"v2i32", "v3i32", "i32",   "v4i16", "v4f16", "v4bf16",
                                                     "v8i16", "v8f16", "v8bf16"};
    if (!ok || std::find(kSuffix.begin(), kSuffix.end(), suffix) == kSuffix.end())
        fail(origin, line, "builtin '" + b + "' is not legal; legal: the name after __builtin_amdgcn_, lower-case letters, digits "
                           "and _, ending in a vector "
                           "type (" + text::join(kSuffix, ", ") + ")");
}

// Elements of one builtin's vector: must equal the lane's bits.
int builtin_bits(const std::string& b) {
    const std::string suffix = b.substr(b.rfind('_') + 1);
    const size_t digits = suffix.find_first_not_of("v0123456789");
    const int lanes = suffix[0] == 'v' ? std::stoi(suffix.substr(1, digits - 1)) : 1;
    const std::string scalar = suffix.substr(digits);
    return lanes * (scalar == "i32" ? 32 : 16);
}
}  // namespace

TransposeCatalog TransposeCatalog::parse(std::string_view text, std::string_view origin) {
    static const std::map<std::string, Family> kFamilies = {{"cdna4", Family::CDNA4}, {"rdna4", Family::RDNA4}, {"cdna5", Family::CDNA5}};
    static const std::map<std::string, LayoutKind> kKinds = {
        {"mfma", LayoutKind::Mfma},           {"mfma_scaled", LayoutKind::MfmaScaled},
        {"smfmac_cdna3", LayoutKind::SmfmacCdna3}, {"smfmac_cdna4", LayoutKind::SmfmacCdna4},
        {"wmma_rdna4", LayoutKind::WmmaRdna4}, {"swmmac_rdna4", LayoutKind::SwmmacRdna4}};
    static const std::vector<std::string> kConfidence = {"high", "high-medium", "medium", "low", "unknown"};
    TransposeCatalog cat;
    std::istringstream in{std::string(text)};
    std::string raw;
    int line = 0;
    std::map<std::string, int> seen;  // "family/mnemonic/wave" -> line
    while (std::getline(in, raw)) {
        ++line;
        for (char ch : raw)
            if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\r')
                fail(origin, line, "a control byte is not text; legal: '|'-separated rows");
        const std::string s = text::trim(raw);
        if (s.empty() || s[0] == '#') continue;
        auto f = text::split(s, '|');
        for (auto& x : f) x = text::trim(x);
        if (f.size() != 18)
            fail(origin, line, "expected 18 '|'-separated fields (families | mnemonic | wave | builtins | features | "
                               "memory | encoding | example | lane_bits | elem_bits | group | vgprs | align | exec | "
                               "rule | confidence | feeds | source), found " + num(static_cast<long long>(f.size())));
        TransposeLoad r;
        r.catalog_line = line;
        for (const auto& fam : text::split(f[0], ',')) {
            auto it = kFamilies.find(text::lower(text::trim(fam)));
            if (it == kFamilies.end()) fail(origin, line, "family '" + text::trim(fam) + "' has no transpose load; legal: cdna4, rdna4, cdna5");
            r.families.push_back(it->second);
        }
        r.mnemonic = f[1];
        bool mn_ok = !r.mnemonic.empty() && r.mnemonic.size() < 64;
        for (char ch : r.mnemonic) mn_ok = mn_ok && (std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '_');
        if (!mn_ok) fail(origin, line, "mnemonic '" + r.mnemonic + "' is not legal; legal: lower-case letters, digits and _");
        r.wave = parse_count(origin, line, "wave", f[2], {32, 64});
        for (const auto& b : text::split(f[3], ',')) {
            const std::string name = text::trim(b);
            check_builtin_name(origin, line, name);
            r.builtins.push_back(name);
        }
        r.features = f[4];
        if (r.features.empty()) fail(origin, line, "features are empty; legal: the clang target features (e.g. gfx950-insts)");
        if (f[5] == "lds") r.space = MemorySpace::Lds;
        else if (f[5] == "global") r.space = MemorySpace::Global;
        else fail(origin, line, "memory '" + f[5] + "' is not legal; legal: lds, global");
        {
            auto enc = text::split(f[6], ' ');
            if (enc.size() != 2 || (enc[0] != "DS" && enc[0] != "VGLOBAL"))
                fail(origin, line, "encoding '" + f[6] + "' is not legal; legal: 'DS <opcode>' or 'VGLOBAL <opcode>'");
            r.encoding = enc[0];
            const bool digits = !enc[1].empty() && enc[1].size() <= 3 &&
                                enc[1].find_first_not_of("0123456789") == std::string::npos;
            r.opcode = digits ? std::stoi(enc[1]) : -1;
            if (r.opcode < 0 || r.opcode > 255)
                fail(origin, line, "opcode '" + enc[1] + "' is not legal; legal: a decimal opcode 0..255");
        }
        r.example = f[7];
        if (r.example.find(" = ") == std::string::npos)
            fail(origin, line, "example '" + r.example + "' is not legal; legal: 'assembly = encoding bytes'");
        r.lane_bits = parse_count(origin, line, "lane_bits", f[8], {64, 96, 128});
        r.element_bits = parse_count(origin, line, "elem_bits", f[9], {4, 6, 8, 16});
        if (r.lane_bits % r.element_bits != 0)
            fail(origin, line, "lane_bits " + f[8] + " is not a multiple of elem_bits " + f[9]);
        r.group = parse_count(origin, line, "group", f[10], {8, 16});
        {
            auto v = text::split(f[11], ' ');
            if (v.size() != 2 || (v[1] != "even" && v[1] != "any"))
                fail(origin, line, "vgprs '" + f[11] + "' is not legal; legal: '<count> even' or '<count> any'");
            r.vgprs = parse_count(origin, line, "vgprs", v[0], {1, 2, 3, 4});
            r.vgpr_even = v[1] == "even";
        }
        r.address_align = parse_count(origin, line, "align", f[12], {4, 8, 12, 16});
        r.exec = f[13];
        if (f[14] == "group16") r.rule = TransposeRule::Group16;
        else if (f[14] == "block8x8") r.rule = TransposeRule::Block8x8;
        else if (f[14].rfind("unknown:", 0) == 0 && text::trim(f[14].substr(8)).size() > 0) {
            r.rule = TransposeRule::Unknown;
            r.rule_unknown_why = text::trim(f[14].substr(8));
        } else
            fail(origin, line, "rule '" + f[14] + "' is not legal; legal: group16, block8x8, 'unknown: <why>'");
        {
            const auto colon = f[15].find(':');
            r.confidence = text::trim(f[15].substr(0, colon));
            r.confidence_basis = colon == std::string::npos ? "" : text::trim(f[15].substr(colon + 1));
            if (std::find(kConfidence.begin(), kConfidence.end(), r.confidence) == kConfidence.end() ||
                r.confidence_basis.empty())
                fail(origin, line, "confidence '" + f[15] + "' is not legal; legal: '<word>: <basis>' with word one of " +
                                       text::join(kConfidence, ", "));
            if ((r.rule == TransposeRule::Unknown) != (r.confidence == "unknown"))
                fail(origin, line, "confidence '" + r.confidence + "' contradicts rule '" + f[14] +
                                       "'; legal: 'unknown' exactly when the rule is unknown");
        }
        if (f[16] != "-")
            for (const auto& part : text::split(f[16], ';')) {
                auto kv = text::split(text::trim(part), ':');
                auto kind = kKinds.find(kv.size() == 2 ? text::trim(kv[0]) : "");
                if (kv.size() != 2 || kind == kKinds.end())
                    fail(origin, line, "feeds entry '" + text::trim(part) + "' is not legal; legal: family:operands with "
                                       "family one of mfma, mfma_scaled, smfmac_cdna3, smfmac_cdna4, wmma_rdna4, swmmac_rdna4");
                std::vector<Operand> ops;
                for (const auto& o : text::split(kv[1], ',')) {
                    auto op = parse_operand(text::trim(o));
                    if (!op || (*op != Operand::A && *op != Operand::B))
                        fail(origin, line, "feeds operand '" + text::trim(o) + "' is not legal; legal: A, B");
                    ops.push_back(*op);
                }
                r.feeds.push_back({kind->second, ops});
            }
        if (r.rule == TransposeRule::Unknown && !r.feeds.empty())
            fail(origin, line, "a row whose lane rule is unknown cannot feed operands; legal feeds: -");
        r.source = f[17];
        if (r.source.empty()) fail(origin, line, "source is empty; legal: keys of docs/sources.md");
        // Facts that must agree with each other.
        if (r.rule == TransposeRule::Group16 && r.group != 16)
            fail(origin, line, "rule group16 needs group 16, not " + f[10]);
        if (r.rule == TransposeRule::Block8x8 && (r.group != 8 || r.per_lane() != 8))
            fail(origin, line, "rule block8x8 needs group 8 and 8 elements per lane (lane_bits / elem_bits)");
        if (r.rule == TransposeRule::Group16 && 16 % r.per_lane() != 0)
            fail(origin, line, "rule group16 needs 16 to be a multiple of the elements per lane");
        // The destination holds what a lane reads; at wave64 RDNA4 halves it (the split is part of the unknown rule).
        if (r.vgprs * 32 != r.lane_bits && r.rule != TransposeRule::Unknown)
            fail(origin, line, "vgprs " + num(r.vgprs) + " do not hold lane_bits " + num(r.lane_bits) +
                                   "; legal: vgprs*32 = lane_bits (only a row with an unknown rule may differ)");
        for (const auto& b : r.builtins)
            if (builtin_bits(b) != r.vgprs * 32)
                fail(origin, line, "builtin '" + b + "' returns " + num(builtin_bits(b)) + " bits, but the row's " +
                                       num(r.vgprs) + " VGPRs hold " + num(r.vgprs * 32));
        for (Family fam : r.families) {
            const std::string key = std::string(family_name(fam)) + "/" + r.mnemonic + "/" + num(r.wave);
            if (seen.count(key)) fail(origin, line, r.mnemonic + " wave" + num(r.wave) + " on " + std::string(family_name(fam)) +
                                                        " is already defined on line " + num(seen[key]));
            seen[key] = line;
        }
        cat.rows_.push_back(std::move(r));
    }
    if (cat.rows_.empty()) fail(origin, line, "no rows; legal: at least one transpose load");
    return cat;
}

const TransposeCatalog& TransposeCatalog::builtin() {
    static const TransposeCatalog cat = parse(kTransposeCatalogText, "core/catalog/transpose_loads.txt");
    return cat;
}
std::string_view TransposeCatalog::builtin_text() { return kTransposeCatalogText; }

std::vector<const TransposeLoad*> TransposeCatalog::on(Family f) const {
    std::vector<const TransposeLoad*> out;
    for (const auto& r : rows_)
        if (r.on(f)) out.push_back(&r);
    return out;
}

const TransposeLoad* TransposeCatalog::find(const Target& t, std::string_view raw, int wave) const {
    std::string name = text::lower(text::trim(raw));
    const std::string prefix = "__builtin_amdgcn_";
    if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
    for (const auto& r : rows_)
        if (r.on(t.family) && std::find(r.builtins.begin(), r.builtins.end(), name) != r.builtins.end()) return &r;
    std::vector<const TransposeLoad*> named;
    for (const auto& r : rows_)
        if (r.on(t.family) && r.mnemonic == name) named.push_back(&r);
    if (named.empty()) return nullptr;
    const int want = wave > 0 ? wave : t.default_wave;
    for (const TransposeLoad* r : named)
        if (r->wave == want) return r;
    return named.size() == 1 ? named.front() : nullptr;
}

std::vector<std::string> TransposeCatalog::names(Family f) const {
    std::vector<std::string> out;
    for (const TransposeLoad* r : on(f)) {
        if (std::find(out.begin(), out.end(), r->mnemonic) == out.end()) out.push_back(r->mnemonic);
        for (const auto& b : r->builtins) out.push_back(b);
    }
    return out;
}

// --------------------------------------------------- operands they feed ----

namespace {
// How an A or B operand's lanes hold K, as the layout families define it: lane
// l holds column (A: row) l % group_lanes of K-set g = l / group_lanes, and its
// item e holds k = chunk_stride*floor(e/chunk) + chunk*g + e%chunk. Each
// instance below restates one family's closed form (core/src/layouts);
// the tests check them against layout_of.
struct OperandShape {
    int group_lanes = 16;
    int items = 0;
    int chunk = 0;
    int chunk_stride = 0;
    int bits = 16;
    ElemType type = ElemType::F16;
    int k_of(int g, int e) const { return chunk_stride * (e / chunk) + chunk * g + e % chunk; }
};

std::optional<OperandShape> operand_shape(const Instruction& ins, Operand op, const ResolvedModifiers& mods,
                                          std::string* why) {
    OperandShape s;
    s.type = operand_type(ins, op, mods);
    s.bits = elem_bits(s.type);
    const int nonk = op == Operand::A ? ins.m : ins.n;
    const int dense_k = ins.k;
    s.group_lanes = nonk;
    auto no = [&](const std::string& w) {
        *why = w;
        return std::nullopt;
    };
    const std::string sparse_a = "the sparse A of " + ins.mnemonic + " is compressed; only its dense B can be transposed";
    const std::string wave64 = "the lane rule of RDNA4's transpose loads at wave64 is unknown; legal: wave32";
    switch (ins.kind) {
        case LayoutKind::Mfma:  // lane j + N*floor(k/K_L), item k % K_L (single block)
            if (ins.blocks != 1)
                return no(ins.mnemonic + " computes " + num(ins.blocks) + " blocks at once; a shuffle group of 16 lanes "
                          "would span blocks. Legal: single-block MFMA (16x16 or 32x32)");
            s.items = dense_k * nonk / mods.wave;
            s.chunk = s.items;
            break;
        case LayoutKind::MfmaScaled:  // FP8/BF8 in 16-element chunks, FP6/FP4 contiguous (32 per lane)
            s.items = 32;
            s.chunk = s.bits == 8 ? 16 : 32;
            s.chunk_stride = dense_k / 2;
            break;
        case LayoutKind::SmfmacCdna3:  // B lane j + N*floor(k/K_L), item k % K_L
            if (op != Operand::B) return no(sparse_a);
            s.items = dense_k * nonk / mods.wave;
            s.chunk = s.items;
            break;
        case LayoutKind::SmfmacCdna4:  // B item e holds k = (K/2)*floor(e/K0) + K0*g + e%K0
            if (op != Operand::B) return no(sparse_a);
            s.chunk = s.bits == 16 ? 8 : 16;
            s.items = 2 * s.chunk;
            s.chunk_stride = dense_k / 2;
            break;
        case LayoutKind::WmmaRdna4:  // (wave32): 16-bit k = 8*floor(e/4) + 4g + e%4; 8-bit k = 8g + e
            if (mods.wave != 32) return no(wave64);
            s.group_lanes = 16;
            s.items = 8;
            s.chunk = s.bits == 16 ? 4 : 8;
            s.chunk_stride = 8;
            break;
        case LayoutKind::SwmmacRdna4:  // (wave32) B: 16-bit k = 16*floor(e/8) + 8g + e%8; 8-bit k = 16g + e
            if (op != Operand::B) return no(sparse_a);
            if (mods.wave != 32) return no(wave64);
            s.group_lanes = 16;
            s.items = 16;
            s.chunk = s.bits == 16 ? 8 : 16;
            s.chunk_stride = 16;
            break;
        default:
            return no("no transpose load feeds the " + std::string(layout_kind_name(ins.kind)) + " family");
    }
    if (s.items <= 0 || s.chunk <= 0 || s.group_lanes <= 0)
        return no(std::string(operand_name(op)) + " of " + ins.mnemonic + " holds no whole element per lane");
    return s;
}

std::string legal_feeds_line() {
    return "transpose loads feed column-major A / row-major B of: gfx950 single-block 16-bit and 8-bit MFMA "
           "(ds_read_b64_tr_b16, ds_read_b64_tr_b8), the f8f6f4 MFMA in FP8/BF8, FP6/BF6 or FP4 (tr_b8, tr_b6, tr_b4), "
           "the B of SMFMAC (tr_b16, tr_b8); RDNA4 wave32 16-bit WMMA (global_load_tr_b128) and 8-bit WMMA "
           "(global_load_tr_b64), and the B of those SWMMAC";
}

struct Choice {
    const TransposeLoad* load = nullptr;
    OperandShape shape;
    int calls = 0;
    std::string why;
};

Choice choose(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods) {
    Choice c;
    const std::string what = std::string(operand_name(op)) + " of " + ins.mnemonic + " on " + t.gfx;
    if (ins.vendor() != Vendor::AMD) {
        c.why = "no transpose load for " + what + ": transpose loads are AMD's (gfx950 ds_read_*_tr_*, RDNA4 "
                "global_load_tr_*); on NVIDIA ldmatrix .trans is the transposing load";
        return c;
    }
    if (op != Operand::A && op != Operand::B) {
        c.why = "no transpose load for " + what + ": transpose loads fill A (column-major) or B (row-major) only";
        return c;
    }
    const auto rows = TransposeCatalog::builtin().on(t.family);
    if (rows.empty()) {
        c.why = "no transpose load on " + t.gfx + " (" + std::string(family_title(t.family)) +
                "): they exist on gfx950 (CDNA4, ds_read_*_tr_*), gfx1200/gfx1201 (RDNA4, global_load_tr_*) and "
                "gfx1250/gfx1251 (CDNA5, ds_load_tr*/global_load_tr*); "
                "read " + std::string(operand_name(op)) + " with plain loads here";
        return c;
    }
    // A load of this width and wave size whose lane rule nobody knows: say so first.
    const int bits = elem_bits(operand_type(ins, op, mods));
    for (const TransposeLoad* r : rows)
        if (r->wave == mods.wave && r->element_bits == bits && r->rule == TransposeRule::Unknown) {
            c.why = "no transpose load for " + what + " at wave" + num(mods.wave) + ": the lane rule of " + r->mnemonic +
                    " wave" + num(r->wave) + " is unknown: " + r->rule_unknown_why +
                    (t.family == Family::CDNA5 ? std::string("; legal: plain loads (`load` without --transpose)")
                                               : std::string("; legal: wave32, whose rule is known"));
            return c;
        }
    std::string why;
    auto shape = operand_shape(ins, op, mods, &why);
    if (!shape) {
        c.why = "no transpose load for " + what + ": " + why + ". " + legal_feeds_line();
        return c;
    }
    std::vector<std::string> widths;
    for (const TransposeLoad* r : rows) {
        if (r->element_bits != shape->bits || r->wave != mods.wave) {
            if (r->wave == mods.wave) widths.push_back(num(r->element_bits) + "-bit (" + r->mnemonic + ")");
            continue;
        }
        bool fed = false;
        for (const auto& [kind, ops] : r->feeds)
            if (kind == ins.kind && std::find(ops.begin(), ops.end(), op) != ops.end()) fed = true;
        if (!fed) {
            c.why = "no transpose load for " + what + ": " + r->mnemonic + " does not feed the " +
                    std::string(layout_kind_name(ins.kind)) + " family's " + std::string(operand_name(op)) + ". " +
                    legal_feeds_line();
            return c;
        }
        const int E = r->per_lane();
        if (shape->items % E != 0 || shape->group_lanes % r->group != 0) {
            c.why = "no transpose load for " + what + ": each lane holds " + num(shape->items) + " elements, not a multiple of the " +
                    num(E) + " that one " + r->mnemonic + " delivers. " + legal_feeds_line();
            return c;
        }
        // Each lane's first column must keep the load's address alignment (given an aligned line pitch).
        for (int lane = 0; lane < mods.wave; ++lane) {
            const int s = lane % r->group;
            const int col0 = (lane - s + transpose_destination(r->rule, E, s, 0).lane) % shape->group_lanes;
            if (col0 * shape->bits % (r->address_align * 8) != 0) {
                c.why = "no transpose load for " + what + ": " + r->mnemonic + " needs " + num(r->address_align) +
                        "-byte aligned addresses (PR125169, RR, DOC-CDNA4TR), but column " + num(col0) + " starts " +
                        num(col0 * shape->bits / 8) + " bytes into a line. " + legal_feeds_line();
                return c;
            }
        }
        c.load = r;
        c.shape = *shape;
        c.calls = shape->items / E;
        return c;
    }
    c.why = "no transpose load for " + what + " (" + num(shape->bits) + "-bit " + std::string(elem_name(shape->type)) +
            " elements, wave" + num(mods.wave) + ")" +
            (widths.empty() ? std::string("") : "; transpose loads on " + t.gfx + " at wave" + num(mods.wave) + " move " +
                                                   text::join(widths, ", ")) +
            ". " + legal_feeds_line();
    return c;
}
}  // namespace

std::vector<TransposeFeed> transpose_loads_for(const Instruction& ins, const Target& t, Operand op,
                                               const ResolvedModifiers& mods) {
    Choice c = choose(ins, t, op, mods);
    if (!c.load) return {};
    TransposeFeed f;
    f.load = c.load;
    f.calls = c.calls;
    f.order = op == Operand::A ? MemoryOrder::ColMajor : MemoryOrder::RowMajor;
    f.builtin = builtin_matching(*c.load, ins, op, mods.wave, c.shape.type);
    f.confidence = c.load->confidence;
    return {f};
}

std::string transpose_refusal(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods) {
    return choose(ins, t, op, mods).why;
}

// --------------------------------------------------------------- planner ----

std::vector<MemoryOp> plan_transposed_loads(const Instruction& ins, const Target& t, Operand op,
                                            const ResolvedModifiers& mods, const MemoryTile& tile,
                                            const std::optional<TileParams>& tiles) {
    const Choice c = choose(ins, t, op, mods);
    if (!c.load) throw Error(c.why);
    const TransposeLoad& load = *c.load;
    const OperandShape& shape = c.shape;
    const std::string what = std::string(operand_name(op)) + " of " + ins.mnemonic;
    const MemoryOrder need = op == Operand::A ? MemoryOrder::ColMajor : MemoryOrder::RowMajor;
    if (tile.order != need)
        throw Error(load.mnemonic + " cannot fill " + what + " from a " + std::string(memory_order_name(tile.order)) +
                    "-major tile: a row-major B/column-major A is needed; K-contiguous storage is read with plain loads");
    if (tile.space != load.space)
        throw Error(load.mnemonic + " reads " + std::string(memory_space_name(load.space)) + " memory, not " +
                    std::string(memory_space_name(tile.space)) + "; legal: --memory " +
                    std::string(memory_space_name(load.space)));
    if (tile.element_bits != shape.bits)
        throw Error("the tile holds " + num(tile.element_bits) + "-bit elements but " + what + " is " + num(shape.bits) +
                    "-bit " + std::string(elem_name(shape.type)) + "; legal: element_bits " + num(shape.bits));
    if (tile.ld <= 0 || tile.pad < 0)
        throw Error("ld " + num(tile.ld) + " / pad " + num(tile.pad) + " are not legal: ld must be positive, pad non-negative");
    const int E = load.per_lane();
    if (tile.swizzle.active() && tile.swizzle.vec % E != 0)
        throw Error("the swizzle's vec " + num(tile.swizzle.vec) + " splits the " + num(E) + " contiguous elements each lane of " +
                    load.mnemonic + " reads; legal: vec a multiple of " + num(E) + " (or no swizzle)");

    std::optional<TileLayout> tl;
    if (tiles && !tiles->single()) tl.emplace(ins, t, op, mods, *tiles);
    const int inst_rows = op == Operand::A ? ins.m : ins.k;
    const int inst_cols = op == Operand::A ? ins.k : ins.n;
    const int rows = tl ? tl->rows() : inst_rows, cols = tl ? tl->cols() : inst_cols;
    const int extent = need == MemoryOrder::RowMajor ? cols : rows;
    if (tile.ld < extent)
        throw Error("ld " + num(tile.ld) + " is shorter than the tile's contiguous extent " + num(extent) + " (" +
                    (op == Operand::A ? "M" : "N") + "); legal: ld >= " + num(extent));
    if (tile.swizzle.active() && (tile.swizzle.per_phase <= 0 || tile.swizzle.vec * tile.swizzle.max_phase > tile.ld))
        throw Error("the swizzle (vec " + num(tile.swizzle.vec) + ", per_phase " + num(tile.swizzle.per_phase) +
                    ", max_phase " + num(tile.swizzle.max_phase) + ") moves elements past ld " + num(tile.ld) +
                    "; legal: per_phase >= 1 and vec*max_phase <= ld");

    const int W = mods.wave, G = load.group;
    const int waves = tl ? tl->waves() : 1, steps = tl ? tl->steps() : 1;
    const int inst_regs = operand_regs(ins, op, mods);
    const std::string builtin = builtin_matching(load, ins, op, mods.wave, shape.type);
    const long long line_elems = static_cast<long long>(tile.ld) + tile.pad;
    std::vector<MemoryOp> out;
    out.reserve(static_cast<size_t>(waves) * steps * c.calls * W);
    for (int wave = 0; wave < waves; ++wave)
        for (int step = 0; step < steps; ++step) {
            // Where this (wave, step)'s instruction tile starts in the operand tile (tile.hpp's composition).
            int row_off = 0, col_off = 0;
            if (tl) {
                const TileParams& p = tl->params();
                const int wm = wave / p.waves_n, wn = wave % p.waves_n;
                const TileLayout::Step s = tl->step_digits(step);
                if (op == Operand::A) {
                    row_off = ((s.repeat_m * p.waves_m + wm) * p.tiles_m + s.tile_m) * inst_rows;
                    col_off = s.k_step * inst_cols;
                } else {
                    row_off = s.k_step * inst_rows;
                    col_off = ((s.repeat_n * p.waves_n + wn) * p.tiles_n + s.tile_n) * inst_cols;
                }
            }
            for (int call = 0; call < c.calls; ++call)
                for (int lane = 0; lane < W; ++lane) {
                    MemoryOp m;
                    m.wave = wave;
                    m.lane = lane;
                    m.issue = step * c.calls + call;
                    m.mnemonic = load.mnemonic;
                    m.bytes = load.lane_bits / 8;
                    m.width_bits = load.lane_bits;
                    m.reg = step * inst_regs + call * E * shape.bits / 32;
                    m.builtin = builtin;
                    const int base = lane - lane % G, s = lane % G;
                    long long first_index = 0;
                    for (int i = 0; i < E; ++i) {
                        // Source element i of this lane lands in (dest lane, item) by the rule; the
                        // address choice is the element that item of that lane must hold.
                        const TransposeSlot d = transpose_destination(load.rule, E, s, i);
                        const int dest = base + d.lane;
                        const int item = call * E + d.element;
                        const int k = shape.k_of(dest / shape.group_lanes, item);
                        const int other = dest % shape.group_lanes;
                        Element el{0, op == Operand::A ? other + row_off : k + row_off,
                                   op == Operand::A ? k + col_off : other + col_off};
                        const int bit = item * shape.bits;
                        m.delivers.push_back({el, wave, Location{step * inst_regs + bit / 32, dest, bit % 32, bit % 32 + shape.bits - 1}});
                        // The E elements must be consecutive in memory: one line, ascending positions.
                        const long long ln = need == MemoryOrder::RowMajor ? el.row : el.col;
                        long long pos = need == MemoryOrder::RowMajor ? el.col : el.row;
                        if (tile.swizzle.active())
                            pos ^= static_cast<long long>(tile.swizzle.vec) * ((ln / tile.swizzle.per_phase) % tile.swizzle.max_phase);
                        const long long index = ln * line_elems + pos;
                        if (i == 0) first_index = index;
                        else if (index != first_index + i)
                            throw Error("internal: lane " + num(lane) + " of " + load.mnemonic + " would read scattered elements");
                    }
                    if (first_index * shape.bits % 8 != 0)
                        throw Error("lane " + num(lane) + " of " + load.mnemonic + " would start mid-byte (element index " +
                                    num(first_index) + " of " + num(shape.bits) + "-bit elements); legal: (ld+pad)*" +
                                    num(shape.bits) + " a multiple of " + num(load.address_align * 8) + " bits");
                    m.address = first_index * shape.bits / 8;
                    if (m.address % load.address_align != 0)
                        throw Error("lane " + num(lane) + " of " + load.mnemonic + " (call " + num(m.issue) + ", wave " + num(wave) +
                                    ") would read address " + num(m.address) + ", not aligned to " + num(load.address_align) +
                                    " bytes as " + load.mnemonic + " needs; legal: (ld+pad)*" + num(shape.bits) +
                                    "/8 a multiple of " + num(load.address_align) + " bytes (ld+pad = " + num(line_elems) + " now)");
                    out.push_back(std::move(m));
                }
        }
    return out;
}

// ------------------------------------------------------------------ info ----

std::vector<TransposeFeedLine> transpose_feeds_on(const TransposeLoad& load, const Target& t) {
    std::vector<TransposeFeedLine> out;
    static const char* kFormats[] = {"FP8", "BF8", "FP6", "BF6", "FP4"};
    for (const Instruction* ins : Catalog::builtin().on(t.family)) {
        if (ins->vendor() != Vendor::AMD) continue;
        for (Operand op : {Operand::A, Operand::B}) {
            const int formats = ins->kind == LayoutKind::MfmaScaled ? 5 : 1;
            for (int f = 0; f < formats; ++f) {
                Modifiers m;
                m.wave = load.wave;
                if (ins->kind == LayoutKind::MfmaScaled) (op == Operand::A ? m.cbsz : m.blgp) = f;
                ResolvedModifiers rm;
                try {
                    rm = resolve_modifiers(*ins, t, m);
                } catch (const Error&) {
                    continue;  // this wave size does not exist for the instruction
                }
                for (const TransposeFeed& feed : transpose_loads_for(*ins, t, op, rm))
                    if (feed.load == &load)
                        out.push_back({ins->mnemonic, std::string(operand_name(op)),
                                       op == Operand::A ? "column-major" : "row-major",
                                       formats > 1 ? kFormats[f] : "", feed.builtin, feed.calls});
            }
        }
    }
    return out;
}

namespace {

std::string families_text(const TransposeLoad& load) {
    std::vector<std::string> out;
    for (Family f : load.families) out.push_back(std::string(family_name(f)));
    return text::join(out, ", ");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> transpose_load_facts(const TransposeLoad& load, const Target& t) {
    std::vector<std::pair<std::string, std::string>> f;
    f.push_back({"kind", "transpose load (memory -> registers, transposed on the way)"});
    f.push_back({"mnemonic", load.mnemonic});
    f.push_back({"families", families_text(load)});
    f.push_back({"wave size", num(load.wave)});
    for (const auto& b : load.builtins) f.push_back({"builtin", transpose_builtin_prototype(load, b).prototype});
    f.push_back({"features", load.features});
    f.push_back({"memory", load.space == MemorySpace::Lds ? "LDS (address_space(3))" : "global (address_space(1))"});
    f.push_back({"encoding", load.encoding + ", opcode " + num(load.opcode)});
    f.push_back({"example", load.example});
    f.push_back({"bits per lane", num(load.lane_bits)});
    f.push_back({"element bits", num(load.element_bits)});
    f.push_back({"elements per lane (E)", num(load.per_lane())});
    f.push_back({"shuffle group (G)", num(load.group) + " lanes"});
    f.push_back({"destination VGPRs", num(load.vgprs) + (load.vgpr_even ? ", even-aligned" : ", any alignment")});
    f.push_back({"address alignment", num(load.address_align) + " bytes"});
    f.push_back({"EXEC", load.exec});
    f.push_back({"lane rule", std::string(transpose_rule_name(load.rule)) +
                                  (load.rule == TransposeRule::Unknown ? " (" + load.rule_unknown_why + ")" : "")});
    f.push_back({"confidence", load.confidence + " (" + load.confidence_basis + ")"});
    const auto feeds = transpose_feeds_on(load, t);
    if (feeds.empty()) f.push_back({"feeds", "nothing on " + t.gfx + (load.rule == TransposeRule::Unknown ? " (lane rule unknown)" : "")});
    for (const auto& x : feeds)
        f.push_back({"feeds", x.instruction + " " + x.operand + (x.format.empty() ? "" : " " + x.format) + " (" + x.order +
                                  "), " + num(x.calls) + (x.calls == 1 ? " call" : " calls")});
    f.push_back({"source", load.source});
    f.push_back({"catalog line", "core/catalog/transpose_loads.txt:" + num(load.catalog_line)});
    return f;
}


}  // namespace lanescope
