#include "nvidia.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace lanescope::gpu::detail {

namespace {

std::vector<std::string> dot_parts(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string p; std::getline(in, p, '.');) out.push_back(p);
    return out;
}

bool parse_shape(const std::string& p, NvSpelling& s) {
    // "m16n8k16"
    int m = 0, n = 0, k = 0;
    char tail = 0;
    if (std::sscanf(p.c_str(), "m%dn%dk%d%c", &m, &n, &k, &tail) != 3) return false;
    s.m = m, s.n = n, s.k = k;
    return true;
}

bool is_type(const std::string& p) {
    static const char* types[] = {"f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4", "s32", "e4m3", "e5m2", "b16"};
    for (const char* t : types)
        if (p == t) return true;
    return false;
}

}  // namespace

int sm_number(const std::string& id) {
    int v = 0;
    if (std::sscanf(id.c_str(), "sm_%d", &v) == 1) return v;
    return 0;
}

std::optional<NvSpelling> parse_nv_spelling(const std::string& mnemonic) {
    std::string lower;
    for (char ch : mnemonic) lower += char(std::tolower(static_cast<unsigned char>(ch)));
    std::vector<std::string> parts = dot_parts(lower);
    if (parts.size() < 3) return std::nullopt;
    NvSpelling s;
    const std::string& head = parts[0];
    if (head == "mma" && parts[1] == "sync") s.cls = NvClass::MmaSync;
    else if (head == "mma" && parts[1].rfind("sp", 0) == 0) s.cls = NvClass::MmaSparse;  // sp, sp::ordered_metadata
    else if (head == "ldmatrix") s.cls = NvClass::LdMatrix;
    else if (head == "stmatrix") s.cls = NvClass::StMatrix;
    else if (head == "wgmma" && parts[1] == "mma_async") s.cls = NvClass::Wgmma;
    else return std::nullopt;
    std::vector<std::string> types;
    bool shape = false;
    for (size_t i = 1; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        if (!p.empty() && p[0] == 'm' && p.find('n') != std::string::npos && p.find('k') != std::string::npos &&
            parse_shape(p, s)) {
            shape = true;
        } else if (p == "m8n8") {
            s.m = s.n = 8;
            shape = true;
        } else if (p.size() == 2 && p[0] == 'x' && std::isdigit(static_cast<unsigned char>(p[1]))) {
            s.matrices = p[1] - '0';
        } else if (p == "trans") {
            s.trans = true;
        } else if (is_type(p)) {
            types.push_back(p);
        }
    }
    if (!shape) return std::nullopt;
    if (s.cls == NvClass::LdMatrix || s.cls == NvClass::StMatrix) {
        if (s.matrices != 1 && s.matrices != 2 && s.matrices != 4) return std::nullopt;
        s.d = s.a = s.b = s.c = "b16";
        return s;
    }
    if (s.cls == NvClass::Wgmma) {
        if (types.size() != 3) return std::nullopt;
        s.d = types[0], s.a = types[1], s.b = types[2], s.c = types[0];
        return s;
    }
    if (types.size() != 4) return std::nullopt;
    s.d = types[0], s.a = types[1], s.b = types[2], s.c = types[3];
    return s;
}

std::optional<NvSpelling> nv_spelling(const Instruction& ins) { return parse_nv_spelling(ins.mnemonic); }

int wgmma_b_bytes(int n, int k, int elem_bytes) {
    // Every wgmma type has 32 bytes of K per n: two 16-byte core-matrix columns.
    (void)k, (void)elem_bytes;
    return (n / 8) * kWgmmaSbo;
}

ClaimedLayout wgmma_b_shared_layout(int n, int k, ElemType type) {
    const int bytes = std::max(1, elem_bits(type) / 8);
    ClaimedLayout L;
    L.operand = Operand::B;
    L.blocks = 1;
    L.rows = k;
    L.cols = n;
    L.lanes = 1;
    L.regs = wgmma_b_bytes(n, k, bytes) / 4;
    L.type = type;
    for (int kk = 0; kk < k; ++kk)
        for (int nn = 0; nn < n; ++nn) {
            const int at = (nn % 8) * 16 + (nn / 8) * kWgmmaSbo + (kk * bytes / 16) * kWgmmaLbo + (kk * bytes) % 16;
            Entry e;
            e.element = {0, kk, nn};
            e.loc = {at / 4, 0, (at % 4) * 8, (at % 4) * 8 + 8 * bytes - 1};
            L.entries.push_back(e);
        }
    std::sort(L.entries.begin(), L.entries.end(), [](const Entry& x, const Entry& y) { return x.element < y.element; });
    return L;
}

uint16_t row_tag(int matrix, int row, int col) { return uint16_t(1 + matrix * 64 + row * 8 + col); }

int RowImage::row_of(int matrix, int row) const {
    // A fixed scatter: row q goes to slot (q * 11 + 5) mod rows (rows = 40 is
    // prime to 11), so neighbouring rows are never neighbours in memory.
    const int q = matrix * 8 + row;
    return (q * 11 + 5) % rows;
}

uint16_t RowImage::element(int slot, int col) const {
    const uint32_t w = words[size_t(slot) * 4 + col / 2];
    return uint16_t(col % 2 ? w >> 16 : w & 0xFFFFu);
}

void RowImage::set(int slot, int col, uint16_t v) {
    uint32_t& w = words[size_t(slot) * 4 + col / 2];
    w = col % 2 ? (w & 0xFFFFu) | (uint32_t(v) << 16) : (w & 0xFFFF0000u) | v;
}

RowImage scattered_rows(int matrices) {
    RowImage img;
    img.matrices = matrices;
    img.rows = 40;  // 32 matrix rows at most, and decoys
    img.words.assign(size_t(img.rows) * 4, 0);
    std::vector<bool> used(img.rows, false);
    for (int m = 0; m < 4; ++m)
        for (int r = 0; r < 8; ++r) used[img.row_of(m, r)] = m < matrices;
    // Decoy rows: every slot no matrix row uses; lanes past 8 * matrices point at them.
    std::vector<int> decoys;
    for (int s = 0; s < img.rows; ++s)
        if (!used[s]) decoys.push_back(s);
    for (int s = 0; s < img.rows; ++s)
        for (int c = 0; c < 8; ++c) img.set(s, c, used[s] ? kUnwritten : uint16_t(kDecoy + s * 8 + c));
    img.lane_address.resize(32);
    for (int lane = 0; lane < 32; ++lane) {
        const int m = lane / 8, r = lane % 8;
        const int slot = m < matrices ? img.row_of(m, r) : decoys[size_t(lane) % decoys.size()];
        img.lane_address[lane] = uint32_t(slot * 16);
    }
    return img;
}

}  // namespace lanescope::gpu::detail

namespace lanescope::gpu::detail {

std::string ptx_target(const NvSpelling& s, const Target& t) {
    const int sm = sm_number(t.gfx);
    if (sm == 0) throw Error(t.gfx + " is not an NVIDIA target (sm_NN)");
    std::string id = "sm_" + std::to_string(sm);
    if (s.cls == NvClass::Wgmma || (!t.gfx.empty() && t.gfx.back() == 'a')) id += "a";
    return id;
}

int sparsity_selector(const ResolvedModifiers& mods) { return mods.selector; }

}  // namespace lanescope::gpu::detail
