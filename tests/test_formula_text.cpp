// Each formula's printed text against its code: the clauses "lane = ...", "VGPR = ...",
// "item = ...", "element e = ...", "T = ..." and (PTX) "i = ..." of every operand's formula
// (OperandLayout::formula(), what `info` and the figures print) are read as arithmetic and
// evaluated for every element; some place where() gives must be that lane, register and bits.
#include "lanescope/lanescope.hpp"
#include "lanescope/search.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ls = lanescope;

namespace {

// A prefix of `s` read as an expression over integer symbols: + - * / % (floor division and
// modulo of non-negative values), parentheses, floor(x), bitN(x). Reading stops where the text
// stops being arithmetic (words, a parenthesised remark): `ok` says whether anything was read.
class Expr {
public:
    Expr(std::string_view s, const std::map<std::string, long long>& vars) : s_(s), vars_(vars) {}
    std::optional<long long> read() {
        const auto v = sum();
        space();
        // An operator left over means a symbol this reader does not know ("32*kb"): nothing read.
        if (!v || failed_ || (p_ < s_.size() && std::string_view("+-*/%").find(s_[p_]) != std::string_view::npos))
            return std::nullopt;
        return v;
    }

private:
    std::string_view s_;
    size_t p_ = 0;
    const std::map<std::string, long long>& vars_;
    bool failed_ = false;

    void space() {
        while (p_ < s_.size() && s_[p_] == ' ') ++p_;
    }
    bool take(char c) {
        space();
        if (p_ < s_.size() && s_[p_] == c) return ++p_, true;
        return false;
    }
    // A left-to-right chain of `next` joined by the operators in `ops`; an operator whose operand
    // does not read is left unread (the chain ends before it).
    std::optional<long long> chain(std::string_view ops, std::optional<long long> (Expr::*next)()) {
        auto v = (this->*next)();
        if (!v) return v;
        for (;;) {
            const size_t at = p_;
            space();
            if (p_ >= s_.size() || ops.find(s_[p_]) == std::string_view::npos) return p_ = at, v;
            const char op = s_[p_++];
            const auto r = (this->*next)();
            if (!r) return p_ = at, v;
            if ((op == '/' || op == '%') && *r == 0) return failed_ = true, std::nullopt;
            *v = op == '+' ? *v + *r : op == '-' ? *v - *r : op == '*' ? *v * *r : op == '/' ? *v / *r : *v % *r;
        }
    }
    std::optional<long long> sum() { return chain("+-", &Expr::product); }
    std::optional<long long> product() { return chain("*/%", &Expr::factor); }
    std::optional<long long> factor() {
        space();
        const size_t at = p_;
        if (take('(')) {
            const auto v = sum();
            if (!v || !take(')')) return p_ = at, std::nullopt;
            return v;
        }
        if (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
            long long v = 0;
            while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) v = 10 * v + (s_[p_++] - '0');
            if (p_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[p_]))) return p_ = at, std::nullopt;  // "16-bit", "2t"
            return v;
        }
        std::string name;
        while (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) name += s_[p_++];
        if (name.empty()) return p_ = at, std::nullopt;
        if (name == "floor" || (name.size() == 4 && name.rfind("bit", 0) == 0 && std::isdigit(static_cast<unsigned char>(name[3])))) {
            if (!take('(')) return p_ = at, std::nullopt;
            const auto v = sum();
            if (!v || !take(')')) return p_ = at, std::nullopt;
            return name == "floor" ? *v : (*v >> (name[3] - '0')) & 1;
        }
        const auto it = vars_.find(name);
        if (it == vars_.end()) return p_ = at, std::nullopt;
        return it->second;
    }
};

// The clauses of a formula before its other direction ("Inverse:" / "Forward:"), split at ", "
// and "; " outside parentheses: (the name a clause sets, the text after its '=').
std::vector<std::pair<std::string, std::string>> clauses(const std::string& formula) {
    std::string head = formula;
    for (const char* other : {"Inverse:", "Forward:"})
        if (const size_t at = head.find(other); at != std::string::npos) head = head.substr(0, at);
    std::vector<std::string> parts;
    int depth = 0;
    std::string cur;
    for (size_t n = 0; n < head.size(); ++n) {
        const char c = head[n];
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (depth == 0 && (c == ',' || c == ';') && n + 1 < head.size() && head[n + 1] == ' ') {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& part : parts) {
        const size_t eq = part.find(" = ");
        if (eq == std::string::npos) continue;
        std::string name = part.substr(0, eq);
        while (!name.empty() && name.front() == ' ') name.erase(0, 1);
        if (name == "element e" || name == "byte e") name = "e";
        out.push_back({name, part.substr(eq + 3)});
    }
    return out;
}

// The symbols of one element, as each vendor's formulas name an operand's rows and columns.
std::map<std::string, long long> symbols(const ls::Instruction& ins, ls::Operand op, int row, int col) {
    std::map<std::string, long long> v = {{"row", row}, {"col", col}};
    const bool nvidia = ins.vendor() == ls::Vendor::NVIDIA;
    switch (op) {
        case ls::Operand::A: v["k"] = col, v[nvidia ? "m" : "i"] = row; break;
        case ls::Operand::B: v["k"] = row, v[nvidia ? "n" : "j"] = col; break;
        default: v[nvidia ? "m" : "i"] = row, v[nvidia ? "n" : "j"] = col; break;
    }
    return v;
}

struct Checked {
    int clauses = 0;  // clauses of this formula that were read and checked
    int elements = 0;
};

// Every element of block 0 against the formula's clauses; fails the case on a mismatch.
Checked check_formula(const ls::Instruction& ins, const ls::OperandLayout& L) {
    const bool nvidia = ins.vendor() == ls::Vendor::NVIDIA;
    std::vector<std::pair<std::string, std::string>> cs;
    for (auto& c : clauses(L.formula()))
        if (c.first == "lane" || c.first == "VGPR" || c.first == "item" || c.first == "e" || c.first == "T" ||
            (nvidia && c.first == "i"))
            cs.push_back(c);
    Checked out;
    if (cs.empty()) return out;
    // Item t of a w-bit type sits at bit w*t; "each element in an 8-bit container" widens w, and its
    // "value bits H:L" start the value L bits into the container.
    const std::string& f = L.formula();
    const bool container = f.find("in an 8-bit container") != std::string::npos;
    const int w = container ? 8 : L.element_bits();
    const size_t vb = f.find("value bits ");
    const int offset = container && vb != std::string::npos ? std::stoi(f.substr(f.find(':', vb) + 1)) : 0;
    std::set<std::string> read;
    for (int r = 0; r < L.rows(); ++r)
        for (int c = 0; c < L.cols(); ++c) {
            const auto vars = symbols(ins, L.operand(), r, c);
            std::map<std::string, long long> want;
            for (const auto& [name, text] : cs)
                if (const auto v = Expr(text, vars).read()) want[name] = *v, read.insert(name);
            if (want.empty()) continue;
            bool found = false;
            for (const ls::Location& loc : L.where({0, r, c})) {
                const long long bit = 32LL * loc.reg + loc.bit_lo - offset;
                bool all = true;
                for (const auto& [name, v] : want) {
                    if (name == "lane" || name == "T") all = all && loc.lane == v;
                    else if (name == "VGPR") all = all && loc.reg == v;
                    else all = all && bit == w * v;  // item, e, i (PTX's element index)
                }
                found = found || all;
            }
            INFO(ins.mnemonic << " " << ls::operand_name(L.operand()) << "[" << r << "][" << c << "]: " << L.formula());
            CHECK(found);
            ++out.elements;
        }
    out.clauses = static_cast<int>(read.size());
    return out;
}

}  // namespace

TEST_CASE("formula text: the clauses reading an element's lane, register and item are what the code lays out", "[slow]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    std::set<std::string> kinds;  // layout kinds whose formulas were read
    int formulas = 0;
    std::set<const ls::Instruction*> seen;  // a row on the first target that has it
    for (const ls::Target& t : cat.targets()) {
        for (const ls::Instruction* ins : ls::listed_on(cat, t)) {  // Blackwell's spellings too
            if (!seen.insert(ins).second) continue;
            const ls::ResolvedModifiers mods = ls::resolve_modifiers(*ins, t, ls::Modifiers{});
            for (ls::Operand op : ls::operands_of(*ins)) {
                if (op != ls::Operand::A && op != ls::Operand::B && op != ls::Operand::D) continue;
                const ls::OperandLayout L = ls::layout_of(*ins, t, op, mods);
                if (L.space() != ls::Space::Registers) continue;
                const Checked c = check_formula(*ins, L);
                if (c.clauses == 0) continue;
                ++formulas;
                kinds.insert(std::string(ls::layout_kind_name(ins->kind)));
            }
        }
    }
    std::string names;
    for (const auto& k : kinds) names += k + " ";
    INFO("formula families read: " << names << "(" << formulas << " formulas)");
    CHECK(formulas > 1000);
    CHECK(kinds.size() >= 15);  // 15 today: all but the three tcgen05 families (Tensor Memory columns)
}

TEST_CASE("formula text: the reader reads what the formulas write") {
    const std::map<std::string, long long> v = {{"i", 37}, {"k", 6}};
    CHECK(Expr("i + 32*floor(k/4)", v).read() == 37 + 32);
    CHECK(Expr("j + 16*bit2(k)", {{"j", 3}, {"k", 4}}).read() == 19);
    CHECK(Expr("k%4 (16-bit items packed from bit 0).", v).read() == 2);
    CHECK(Expr("2t + i%2", v).read() == std::nullopt);  // implicit products are not read
    CHECK(Expr("i + 32*kb", v).read() == std::nullopt);  // nor a symbol it does not know
    const auto cs = clauses("lane = i + 32*floor(k/4), item = k%4 (16-bit items).  Inverse: i = lane%32");
    REQUIRE(cs.size() == 2);
    CHECK(cs[0].first == "lane");
    CHECK(cs[1].first == "item");
}
