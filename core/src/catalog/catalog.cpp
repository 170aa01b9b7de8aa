// Catalog parsing, target table and name lookup.
#include "lanescope/lanescope.hpp"
#include "lanescope/transpose.hpp"
#include "catalog/catalog_blackwell.hpp"
#include "layouts/layout_spec.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace lanescope {

extern const char* const kBuiltinCatalogText;  // generated from core/catalog/instructions.txt
extern const char* const kNvidiaCatalogText;   // generated from core/catalog/nvidia.txt

// ---------------------------------------------------------------- names ----

std::string_view family_name(Family f) {
    switch (f) {
        case Family::CDNA1: return "cdna1";
        case Family::CDNA2: return "cdna2";
        case Family::CDNA3: return "cdna3";
        case Family::CDNA4: return "cdna4";
        case Family::RDNA3: return "rdna3";
        case Family::RDNA4: return "rdna4";
        case Family::CDNA5: return "cdna5";
        case Family::Ampere: return "ampere";
        case Family::Ada: return "ada";
        case Family::Hopper: return "hopper";
        case Family::Blackwell: return "blackwell";
        case Family::BlackwellGeForce: return "blackwell-geforce";
    }
    return "?";
}

std::string_view family_title(Family f) {
    switch (f) {
        case Family::CDNA1: return "CDNA1";
        case Family::CDNA2: return "CDNA2";
        case Family::CDNA3: return "CDNA3";
        case Family::CDNA4: return "CDNA4";
        case Family::RDNA3: return "RDNA3";
        case Family::RDNA4: return "RDNA4";
        case Family::CDNA5: return "CDNA5";
        case Family::Ampere: return "Ampere";
        case Family::Ada: return "Ada";
        case Family::Hopper: return "Hopper";
        case Family::Blackwell: return "Blackwell";
        case Family::BlackwellGeForce: return "Blackwell GeForce";
    }
    return "?";
}

bool is_cdna(Family f) {
    return f == Family::CDNA1 || f == Family::CDNA2 || f == Family::CDNA3 || f == Family::CDNA4;
}

const std::vector<Family>& all_families() {
    static const std::vector<Family> kAll = {Family::CDNA1, Family::CDNA2, Family::CDNA3,  Family::CDNA4, Family::RDNA3,
                                             Family::RDNA4, Family::CDNA5, Family::Ampere, Family::Ada, Family::Hopper,
                                             Family::Blackwell, Family::BlackwellGeForce};
    return kAll;
}

Vendor vendor_of(Family f) {
    return f == Family::Ampere || f == Family::Ada || f == Family::Hopper || f == Family::Blackwell ||
                   f == Family::BlackwellGeForce
               ? Vendor::NVIDIA
               : Vendor::AMD;
}

std::string_view space_name(Space s) {
    switch (s) {
        case Space::Registers: return "registers";
        case Space::TensorMemory: return "tmem";
        case Space::SharedMemory: return "smem";
    }
    return "?";
}

std::string_view space_title(Space s) {
    switch (s) {
        case Space::Registers: return "registers";
        case Space::TensorMemory: return "Tensor Memory";
        case Space::SharedMemory: return "shared memory";
    }
    return "?";
}

std::pair<std::string_view, std::string_view> space_axes(Space s, Vendor v) {
    switch (s) {
        case Space::Registers: return {v == Vendor::NVIDIA ? "thread" : "lane", "reg"};
        case Space::TensorMemory: return {"tmem_lane", "column"};
        case Space::SharedMemory: return {"line", "bank"};
    }
    return {"lane", "reg"};
}

std::string_view vendor_name(Vendor v) { return v == Vendor::NVIDIA ? "NVIDIA" : "AMD"; }

std::string_view register_noun(Vendor v) { return v == Vendor::NVIDIA ? "register" : "VGPR"; }

std::string Target::arch_name() const {
    return vendor() == Vendor::NVIDIA ? gfx : std::string(family_name(family));
}

std::string_view operand_name(Operand op) {
    switch (op) {
        case Operand::A: return "A";
        case Operand::B: return "B";
        case Operand::C: return "C";
        case Operand::D: return "D";
        case Operand::K: return "K";
        case Operand::SA: return "SA";
        case Operand::SB: return "SB";
    }
    return "?";
}

std::string_view operand_title(Operand op) {
    switch (op) {
        case Operand::A: return "A (M x K)";
        case Operand::B: return "B (K x N)";
        case Operand::C: return "C (M x N)";
        case Operand::D: return "D (M x N)";
        case Operand::K: return "K, sparse index (M x K)";
        case Operand::SA: return "SA, A scales (M x K/32)";
        case Operand::SB: return "SB, B scales (K/32 x N)";
    }
    return "?";
}

std::optional<Operand> parse_operand(std::string_view s) {
    std::string u = text::upper(s);
    for (Operand op : {Operand::A, Operand::B, Operand::C, Operand::D, Operand::K, Operand::SA, Operand::SB})
        if (u == operand_name(op)) return op;
    if (u == "IDX" || u == "INDEX") return Operand::K;
    if (u == "SFA") return Operand::SA;  // PTX's and CUTLASS's names of the scale-factor operands
    if (u == "SFB") return Operand::SB;
    return std::nullopt;
}

namespace {
struct ElemInfo {
    ElemType t;
    const char* name;
    int bits;
};
constexpr ElemInfo kElems[] = {
    {ElemType::F64, "f64", 64},  {ElemType::F32, "f32", 32},   {ElemType::XF32, "xf32", 32},
    {ElemType::F16, "f16", 16},  {ElemType::BF16, "bf16", 16}, {ElemType::I32, "i32", 32},
    {ElemType::I8, "i8", 8},     {ElemType::IU8, "iu8", 8},    {ElemType::IU4, "iu4", 4},
    {ElemType::FP8, "fp8", 8},   {ElemType::BF8, "bf8", 8},    {ElemType::FP6, "fp6", 6},
    {ElemType::BF6, "bf6", 6},   {ElemType::FP4, "fp4", 4},    {ElemType::E8M0, "e8m0", 8},
    {ElemType::IDX, "idx", 4},  {ElemType::F8F6F4, "f8f6f4", 8},
    {ElemType::TF32, "tf32", 32}, {ElemType::S32, "s32", 32},  {ElemType::S8, "s8", 8},
    {ElemType::U8, "u8", 8},      {ElemType::S4, "s4", 4},     {ElemType::E4M3, "e4m3", 8},
    {ElemType::E5M2, "e5m2", 8},  {ElemType::B16, "b16", 16},  {ElemType::E5M3, "e5m3", 8},
    {ElemType::UE4M3, "ue4m3", 8},
};
}  // namespace

std::string_view elem_name(ElemType t) {
    for (const auto& e : kElems)
        if (e.t == t) return e.name;
    return "?";
}
int elem_bits(ElemType t) {
    for (const auto& e : kElems)
        if (e.t == t) return e.bits;
    return 0;
}
std::optional<ElemType> parse_elem(std::string_view s) {
    for (const auto& e : kElems)
        if (s == e.name) return e.t;
    return std::nullopt;
}

std::string_view layout_kind_name(LayoutKind k) {
    switch (k) {
        case LayoutKind::Mfma: return "mfma";
        case LayoutKind::MfmaScaled: return "mfma_scaled";
        case LayoutKind::SmfmacCdna3: return "smfmac_cdna3";
        case LayoutKind::SmfmacCdna4: return "smfmac_cdna4";
        case LayoutKind::WmmaRdna3: return "wmma_rdna3";
        case LayoutKind::WmmaRdna4: return "wmma_rdna4";
        case LayoutKind::SwmmacRdna4: return "swmmac_rdna4";
        case LayoutKind::WmmaGfx1250: return "wmma_gfx1250";
        case LayoutKind::WmmaScaleGfx1250: return "wmma_scale_gfx1250";
        case LayoutKind::SwmmacGfx1250: return "swmmac_gfx1250";
        case LayoutKind::MmaSync: return "mma_sync";
        case LayoutKind::MmaSparse: return "mma_sp";
        case LayoutKind::LdStMatrix: return "ldstmatrix";
        case LayoutKind::Wgmma: return "wgmma";
        case LayoutKind::Tcgen05Mma: return "tcgen05_mma";
        case LayoutKind::Tcgen05LdSt: return "tcgen05_ldst";
        case LayoutKind::Tcgen05Cp: return "tcgen05_cp";
        case LayoutKind::MmaBlockScale: return "mma_block_scale";
    }
    return "?";
}

// ---------------------------------------------------------- instruction ----

bool Instruction::sparse() const {
    return kind == LayoutKind::SmfmacCdna3 || kind == LayoutKind::SmfmacCdna4 || kind == LayoutKind::SwmmacRdna4 ||
           kind == LayoutKind::SwmmacGfx1250 || kind == LayoutKind::MmaSparse || tcgen05_sparse;
}
bool Instruction::on(Family f) const { return std::find(families.begin(), families.end(), f) != families.end(); }

std::string Instruction::builtin(int wave) const {
    if (vendor() == Vendor::NVIDIA) return "";  // PTX instructions have no compiler builtin
    std::string name = builtin_pattern;
    auto at = name.find("{w}");
    if (at != std::string::npos) name.replace(at, 3, wave == 64 ? "w64" : "w32");
    return "__builtin_amdgcn_" + name;
}

std::string Instruction::key(int wave) const {
    if (vendor() == Vendor::NVIDIA) return short_name;
    // The unscaled f8f6f4 form shares the scaled row's builtin: its mnemonic names it.
    if (kind == LayoutKind::MfmaScaled && !scales) return mnemonic.substr(2);
    return builtin(wave).substr(std::string_view("__builtin_amdgcn_").size());
}

std::string Instruction::vector_types(int wave) const {
    return (wave == 64 && !vec_w64.empty()) ? vec_w64 : vec_w32;
}

long long Instruction::ops() const { return 2LL * m * n * k * blocks; }

std::string Instruction::shape() const {
    if (k == 0) return std::to_string(m) + "x" + std::to_string(n);  // ldmatrix/stmatrix: one 8x8 matrix
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

std::string Instruction::signature(int wave) const {
    if (vendor() == Vendor::NVIDIA) return "";  // no builtin; the PTX spelling is the interface
    // vector types "A,B,C>D"
    std::string v = vector_types(wave);
    auto gt = v.find('>');
    std::vector<std::string> in = text::split(v.substr(0, gt), ',');
    std::string d = v.substr(gt + 1);
    while (in.size() < 3) in.push_back("?");
    const bool integer = (a == ElemType::IU8 || a == ElemType::IU4);
    std::string args;
    switch (kind) {
        case LayoutKind::Mfma:
            args = in[0] + " a, " + in[1] + " b, " + in[2] + " c, int cbsz, int abid, int blgp";
            break;
        case LayoutKind::MfmaScaled:
            args = in[0] + " a, " + in[1] + " b, " + in[2] +
                   " c, int cbsz /*A format*/, int blgp /*B format*/, int opsel_a, int scale_a, int opsel_b, int scale_b";
            break;
        case LayoutKind::SmfmacCdna3:
        case LayoutKind::SmfmacCdna4:
            args = in[0] + " a, " + in[1] + " b, " + in[2] + " c, int idx, int cbsz, int abid";
            break;
        case LayoutKind::WmmaRdna3:
            if (integer)
                args = "bool a_signed, " + in[0] + " a, bool b_signed, " + in[1] + " b, " + in[2] + " c, bool clamp";
            else if (elem_bits(c) == 16)
                args = in[0] + " a, " + in[1] + " b, " + in[2] + " c, bool opsel";
            else
                args = in[0] + " a, " + in[1] + " b, " + in[2] + " c";
            break;
        case LayoutKind::WmmaRdna4:
            if (integer)
                args = "bool a_signed, " + in[0] + " a, bool b_signed, " + in[1] + " b, " + in[2] + " c, bool clamp";
            else
                args = in[0] + " a, " + in[1] + " b, " + in[2] + " c";
            break;
        case LayoutKind::SwmmacRdna4:
            if (integer)
                args = "bool a_signed, " + in[0] + " a, bool b_signed, " + in[1] + " b, " + in[2] +
                       " c, int idx, bool clamp";
            else
                args = in[0] + " a, " + in[1] + " b, " + in[2] + " c, int idx";
            break;
        case LayoutKind::WmmaGfx1250:
            // The builtin's constant arguments, as clang-22's BuiltinsAMDGPU.td orders them.
            if (integer)
                args = "bool a_signed, " + in[0] + " a, bool b_signed, " + in[1] + " b, " + in[2] +
                       " c, bool reuse_a, bool reuse_b, bool clamp";
            else if (a == ElemType::F8F6F4)  // no reuse arguments (clang-22)
                args = "int fmt_a, " + in[0] + " a, int fmt_b, " + in[1] + " b, short c_mod, " + in[2] + " c";
            else if (a == ElemType::FP4)
                args = in[0] + " a, " + in[1] + " b, short c_mod, " + in[2] + " c";
            else if (elem_bits(a) == 8)
                args = in[0] + " a, " + in[1] + " b, short c_mod, " + in[2] + " c, bool reuse_a, bool reuse_b";
            else
                args = "bool neg_a, " + in[0] + " a, bool neg_b, " + in[1] + " b, short c_mod, " + in[2] +
                       " c, bool reuse_a, bool reuse_b";
            break;
        case LayoutKind::WmmaScaleGfx1250: {
            const std::string scale = builtin_pattern.find("scale16") != std::string::npos ? "long" : "int";
            args = (a == ElemType::F8F6F4 ? "int fmt_a, " + in[0] + " a, int fmt_b, " + in[1] + " b, "
                                          : in[0] + " a, " + in[1] + " b, ") +
                   "short c_mod, " + in[2] + " c, int a_scale_sel, int a_scale_fmt, " + scale +
                   " scale_a, int b_scale_sel, int b_scale_fmt, " + scale + " scale_b, bool reuse_a, bool reuse_b";
            break;
        }
        case LayoutKind::SwmmacGfx1250:
            // The 8-bit forms' index is 64 bits in the instruction; the builtin takes an int
            // and leaves the upper VGPR unwritten (clang-22).
            if (integer)
                args = "bool a_signed, " + in[0] + " a, bool b_signed, " + in[1] + " b, " + in[2] +
                       " c, int idx, bool reuse_a, bool reuse_b, bool clamp";
            else if (elem_bits(a) == 8)
                args = in[0] + " a, " + in[1] + " b, " + in[2] + " c, int idx, bool reuse_a, bool reuse_b";
            else
                args = "bool neg_a, " + in[0] + " a, bool neg_b, " + in[1] + " b, " + in[2] +
                       " c, int idx, bool reuse_a, bool reuse_b";
            break;
        default: break;  // NVIDIA families return above
    }
    return d + " " + builtin(wave) + "(" + args + ")";
}

// -------------------------------------------------------------- targets ----

namespace {
std::vector<Target> make_targets() {
    std::vector<Target> t;
    // The last argument names the compiler witness: clang-22 (LLVM 22) knows
    // every AMD target here but gfx940/gfx941, which LLVM 22 removed (clang-19
    // still knows them); NVIDIA targets have none ("").
    auto add = [&](std::string gfx, Family f, std::string title, std::vector<std::string> products,
                   std::vector<int> waves, int def, const char* compiler) {
        t.push_back(Target{std::move(gfx), f, std::move(title), std::move(products), std::move(waves), def, compiler});
    };
    add("gfx908", Family::CDNA1, "CDNA1 (gfx908, MI100)", {"mi100", "arcturus"}, {64}, 64, "clang-22");
    add("gfx90a", Family::CDNA2, "CDNA2 (gfx90a, MI200 series)", {"mi200", "mi210", "mi250", "mi250x", "aldebaran"},
        {64}, 64, "clang-22");
    add("gfx942", Family::CDNA3, "CDNA3 (gfx942, MI300 series)", {"mi300", "mi300x", "mi300a", "mi325x", "aqua_vanjaram"},
        {64}, 64, "clang-22");
    add("gfx940", Family::CDNA3, "CDNA3 (gfx940, early MI300A)", {}, {64}, 64, "clang-19");
    add("gfx941", Family::CDNA3, "CDNA3 (gfx941, early MI300X)", {}, {64}, 64, "clang-19");
    add("gfx950", Family::CDNA4, "CDNA4 (gfx950, MI350 series)", {"mi350", "mi350x", "mi355x"}, {64}, 64, "clang-22");
    add("gfx1100", Family::RDNA3, "RDNA3 (gfx1100, Radeon RX 7900 / PRO W7900)",
        {"rx7900xtx", "rx7900xt", "rx7900gre", "w7900", "w7800", "navi31"}, {32, 64}, 32, "clang-22");
    add("gfx1101", Family::RDNA3, "RDNA3 (gfx1101, Radeon RX 7800 / 7700)", {"rx7800xt", "rx7700xt", "navi32"},
        {32, 64}, 32, "clang-22");
    add("gfx1102", Family::RDNA3, "RDNA3 (gfx1102, Radeon RX 7600)", {"rx7600", "rx7600xt", "navi33"}, {32, 64}, 32, "clang-22");
    add("gfx1103", Family::RDNA3, "RDNA3 (gfx1103, Radeon 780M/760M iGPU)", {"780m", "760m", "phoenix"}, {32, 64}, 32,
        "clang-22");
    add("gfx1150", Family::RDNA3, "RDNA3.5 (gfx1150, Radeon 890M iGPU)", {"890m", "strix"}, {32, 64}, 32, "clang-22");
    add("gfx1151", Family::RDNA3, "RDNA3.5 (gfx1151, Radeon 8060S iGPU)", {"8060s", "strix_halo"}, {32, 64}, 32, "clang-22");
    add("gfx1152", Family::RDNA3, "RDNA3.5 (gfx1152, Krackan iGPU)", {"krackan"}, {32, 64}, 32, "clang-22");
    add("gfx1153", Family::RDNA3, "RDNA3.5 (gfx1153)", {}, {32, 64}, 32, "clang-22");
    add("gfx1200", Family::RDNA4, "RDNA4 (gfx1200, Radeon RX 9060)", {"rx9060xt", "rx9060", "navi44"}, {32, 64}, 32,
        "clang-22");
    add("gfx1201", Family::RDNA4, "RDNA4 (gfx1201, Radeon RX 9070 / AI PRO R9700)",
        {"rx9070xt", "rx9070", "r9700", "navi48"}, {32, 64}, 32, "clang-22");
    // CDNA5: AMD's FlyDSL documentation (ROCm/FlyDSL) names gfx1250 CDNA5 and the
    // MI450; LLVM's AMDGPUUsage lists gfx1250 with product names "TBA" and no
    // product for gfx1251. Wave32 only (clang-22 refuses -mwavefrontsize64).
    add("gfx1250", Family::CDNA5, "CDNA5 (gfx1250, MI400 series: MI450)", {"mi400", "mi450"}, {32}, 32, "clang-22");
    add("gfx1251", Family::CDNA5, "CDNA5 (gfx1251)", {}, {32}, 32, "clang-22");
    // NVIDIA: lanes are the 32 threads of a warp (wgmma: the 128 of a warpgroup,
    // which the instruction's legal lane count says). sm_90a is the same chip as
    // sm_90 with the architecture-specific instructions (wgmma) enabled.
    add("sm_80", Family::Ampere, "Ampere (sm_80, A100 / A30)", {"a100", "a30", "ga100"}, {32}, 32, "");
    add("sm_86", Family::Ampere, "Ampere (sm_86, RTX 30 series / A10 / A40)",
        {"rtx3090", "rtx3080", "rtx3070", "a10", "a40", "ga102"}, {32}, 32, "");
    add("sm_89", Family::Ada, "Ada (sm_89, L40S / L4 / RTX 40 series)", {"l40s", "l40", "l4", "rtx4090", "rtx4080", "ad102"},
        {32}, 32, "");
    add("sm_90", Family::Hopper, "Hopper (sm_90, H100 / H200)", {"h100", "h200", "gh100", "gh200"}, {32}, 32, "");
    add("sm_90a", Family::Hopper, "Hopper (sm_90a, H100 / H200 with wgmma, setmaxnreg)", {}, {32}, 32, "");
    // Blackwell, as the CUDA C++ Programming Guide's compute-capability table and
    // PTX ISA 9.0 (target sm_110 replaces sm_101) name them. `a` targets enable
    // the architecture-specific instructions of one chip (tcgen05 with every
    // kind, scale_vec), `f` targets the family-portable subset (PTX ISA
    // §9.7.16.10.9.1 target notes); CUDA 13.0's ptxas accepts each of these names.
    add("sm_100", Family::Blackwell, "Blackwell (sm_100, B200 / GB200)", {"b200", "gb200", "b100"}, {32}, 32, "");
    add("sm_100a", Family::Blackwell, "Blackwell (sm_100a, B200 / GB200 with tcgen05)", {}, {32}, 32, "");
    add("sm_100f", Family::Blackwell, "Blackwell (sm_100f, the sm_100 family's portable tcgen05)", {}, {32}, 32, "");
    add("sm_103", Family::Blackwell, "Blackwell Ultra (sm_103, B300 / GB300)", {"b300", "gb300"}, {32}, 32, "");
    add("sm_103a", Family::Blackwell, "Blackwell Ultra (sm_103a, B300 / GB300 with tcgen05)", {}, {32}, 32, "");
    add("sm_103f", Family::Blackwell, "Blackwell Ultra (sm_103f, family-portable)", {}, {32}, 32, "");
    add("sm_110", Family::Blackwell, "Blackwell (sm_110, Jetson Thor)", {"thor", "jetson_thor"}, {32}, 32, "");
    add("sm_110a", Family::Blackwell, "Blackwell (sm_110a, Jetson Thor with tcgen05)", {}, {32}, 32, "");
    add("sm_110f", Family::Blackwell, "Blackwell (sm_110f, family-portable)", {}, {32}, 32, "");
    add("sm_120", Family::BlackwellGeForce, "Blackwell GeForce (sm_120, RTX 50 series / RTX PRO Blackwell)",
        {"rtx5090", "rtx5080", "rtx5070", "rtx_pro_6000", "gb202"}, {32}, 32, "");
    add("sm_120a", Family::BlackwellGeForce, "Blackwell GeForce (sm_120a, RTX 50 / RTX PRO with block-scaled mma.sync)", {},
        {32}, 32, "");
    add("sm_120f", Family::BlackwellGeForce, "Blackwell GeForce (sm_120f, family-portable)", {}, {32}, 32, "");
    add("sm_121", Family::BlackwellGeForce, "Blackwell GeForce (sm_121, DGX Spark / GB10)", {"dgx_spark", "gb10"}, {32}, 32,
        "");
    add("sm_121a", Family::BlackwellGeForce, "Blackwell GeForce (sm_121a, DGX Spark with block-scaled mma.sync)", {}, {32},
        32, "");
    add("sm_121f", Family::BlackwellGeForce, "Blackwell GeForce (sm_121f, family-portable)", {}, {32}, 32, "");
    return t;
}

// Family names map to the family's flagship target.
const char* family_default_gfx(std::string_view name) {
    static const std::pair<const char*, const char*> kMap[] = {
        {"cdna", "gfx908"},  {"cdna1", "gfx908"},  {"cdna2", "gfx90a"},  {"cdna3", "gfx942"},
        {"cdna4", "gfx950"}, {"rdna3", "gfx1100"}, {"rdna3.5", "gfx1150"}, {"rdna35", "gfx1150"},
        {"rdna4", "gfx1201"}, {"cdna5", "gfx1250"}, {"gfx12.5", "gfx1250"}, {"gfx125x", "gfx1250"}, {"ampere", "sm_80"}, {"ada", "sm_89"}, {"hopper", "sm_90"},
        {"blackwell", "sm_100a"}, {"blackwell-geforce", "sm_120a"},
    };
    for (auto& [k, v] : kMap)
        if (name == k) return v;
    return nullptr;
}

const std::vector<Target>& target_table() {
    static const std::vector<Target> kTargets = make_targets();
    return kTargets;
}
}  // namespace

const std::vector<Target>& Catalog::targets() const { return target_table(); }

const Target& Catalog::find_target(std::string_view raw) const { return target(raw); }

const Target& Catalog::target(std::string_view raw) {
    const std::vector<Target>& targets = target_table();
    std::string name = text::lower(text::trim(raw));
    // "MI300X" and "mi-300x" and "mi 300x" all mean the same product.
    std::string squashed;
    for (char c : name)
        if (c != '-' && c != ' ') squashed += c;
    if (const char* gfx = family_default_gfx(squashed)) name = gfx;
    // "sm80", "sm90a": the sm id without its underscore, as people type it (nvcc's
    // -arch=sm_80 has it; the refusal's list below still names sm_80).
    if (squashed.size() > 2 && squashed.compare(0, 2, "sm") == 0 && std::isdigit(static_cast<unsigned char>(squashed[2])))
        squashed.insert(2, "_");
    for (const Target& t : targets) {
        if (t.gfx == name || t.gfx == squashed) return t;
        for (const auto& p : t.products)
            if (p == squashed) return t;
    }
    std::vector<std::string> names = {"cdna1", "cdna2", "cdna3", "cdna4", "rdna3", "rdna3.5", "rdna4", "cdna5",
                                      "ampere", "ada", "hopper"};
    for (const Target& t : targets) {
        names.push_back(t.gfx);
        for (const auto& p : t.products) names.push_back(p);
    }
    std::string msg = "unknown architecture '" + std::string(raw) + "'";
    auto near = closest(name, names);
    if (!near.empty()) msg += "; did you mean " + text::join_quoted(near, " or ") + "?";
    msg += "\nlegal: family names (cdna1 cdna2 cdna3 cdna4 rdna3 rdna3.5 rdna4 cdna5 ampere ada hopper), gfx and sm ids (";
    for (size_t i = 0; i < targets.size(); ++i) msg += (i ? " " : "") + targets[i].gfx;
    msg += ") or products (mi100 mi250x mi300x mi355x mi450 rx7900xtx rx9070xt a100 l40s rtx4090 h100 h200 ...)";
    throw Error(msg);
}

namespace {
Instruction parse_amd_row(const std::vector<std::string_view>& f, std::string_view origin, int line_no, bool check,
                          std::unordered_map<std::string, std::string>& checked);

// Every row line of a catalog text, trimmed, with its line number (blank lines and '#' comments skipped).
template <class Fn>
void for_each_row_line(std::string_view text, Fn&& fn) {
    int line_no = 0;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text::trim_view(text.substr(at, end - at));
        at = end + 1;
        ++line_no;
        if (!line.empty() && line[0] != '#') fn(line, line_no);
    }
}

// Whether `name` (lower case, without "__builtin_amdgcn_") is the builtin `pattern`:
// -1 no; 32 or 64 for either wave's spelling of a "{w}" pattern; 0 for the pattern
// without {w} ("_{w}" left out) or a pattern that has none. Compared in place.
int builtin_match(std::string_view pattern, std::string_view name) {
    const size_t at = pattern.find("{w}");
    if (at == std::string_view::npos) return pattern == name ? 0 : -1;
    // name == pattern with its `len` characters at `from` replaced by `fill`:
    auto spliced = [&](size_t from, size_t len, std::string_view fill) {
        return name.size() == pattern.size() - len + fill.size() && name.compare(0, from, pattern.substr(0, from)) == 0 &&
               name.compare(from, fill.size(), fill) == 0 &&
               name.compare(from + fill.size(), std::string::npos, pattern.substr(from + len)) == 0;
    };
    for (int w : {32, 64})
        if (spliced(at, 3, w == 64 ? "w64" : "w32")) return w;
    if (at > 0 && pattern[at - 1] == '_' && spliced(at - 1, 4, "")) return 0;  // "_{w}" left out
    return -1;
}
}  // namespace

// builtin(Family): the family's lines of the built-in text, each parsed when a
// name asks for it (find_lazy) or when the rows are listed (instructions()).
struct Catalog::Lazy {
    struct Line {
        std::string_view text;
        int number = 0;
    };
    std::string_view origin;
    Family family = Family::CDNA1;
    bool nvidia = false;
    std::vector<Line> lines;
    std::mutex mutex;
    std::deque<std::pair<std::pair<size_t, int>, Instruction>> made;  // (line, N) -> instruction, made for a name
    std::once_flag listing;
    std::atomic<bool> listed{false};
    std::vector<Instruction> all;  // every row, each N made, in the catalog's order (instructions())
};

const std::vector<Instruction>& Catalog::instructions() const {
    if (!lazy_) return rows_;
    Lazy& z = *lazy_;
    std::call_once(z.listing, [&] {
        std::vector<std::string_view> f;
        std::unordered_map<std::string, std::string> checked;  // unused: the built-in rows are not re-checked
        for (const Lazy::Line& line : z.lines) {
            text::split_view_into(f, line.text, '|', true);
            if (z.nvidia) detail::parse_nvidia_row(f, z.origin, line.number, false, z.all);
            else z.all.push_back(parse_amd_row(f, z.origin, line.number, false, checked));
        }
        z.listed = true;
    });
    return z.all;
}

namespace {
// `field` equals `name` (lower case) but for the case of its letters.
bool same_lower(std::string_view field, std::string_view name) {
    if (field.size() != name.size()) return false;
    for (size_t i = 0; i < field.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(field[i])) != name[i]) return false;
    return true;
}
// `name` (lower case) starts with `field` up to its {N} (any case), as a spelling of that N would.
bool starts_as(std::string_view field, std::string_view name) {
    size_t at = 0;
    for (; at < field.size() && field[at] != '{'; ++at)
        if (at >= name.size() || std::tolower(static_cast<unsigned char>(field[at])) != name[at]) return false;
    return at < field.size();
}
}  // namespace

const Instruction* Catalog::find_lazy(std::string_view name, int* implied_wave) const {
    Lazy& z = *lazy_;
    std::vector<std::string_view> f;
    auto make = [&](size_t i, int n, auto&& build) -> const Instruction* {
        std::lock_guard<std::mutex> hold(z.mutex);
        for (const auto& m : z.made)
            if (m.first == std::make_pair(i, n)) return &m.second;
        return &z.made.emplace_back(std::make_pair(i, n), build()).second;
    };
    if (z.nvidia) {
        // PTX spelling, short name, aliases: each names one row (checked when built).
        for (size_t i = 0; i < z.lines.size(); ++i) {
            text::split_view_into(f, z.lines[i].text, '|', true);
            if (f.size() < 6) continue;
            const bool ranged = f[5].find("{N}") != std::string_view::npos;
            std::vector<std::string_view> spellings = {f[1], f[2]};
            if (f[3] != "-")
                for (std::string_view a : text::split_view(f[3], ',', true)) spellings.push_back(a);
            bool maybe = false;
            for (std::string_view sp : spellings) maybe = maybe || (ranged ? starts_as(sp, name) : same_lower(sp, name));
            if (!maybe) continue;
            std::vector<Instruction> one;
            std::vector<detail::RangedRow> row;
            detail::parse_nvidia_row(f, z.origin, z.lines[i].number, false, one, &row);
            if (!ranged) return make(i, 0, [&] { return std::move(one.front()); });
            if (const std::optional<int> n = row.front().n_of(name)) return make(i, *n, [&] { return row.front().make(*n); });
        }
        return nullptr;
    }
    // AMD: builtin names first, then mnemonics, then LLVM's other spellings (find_instruction's order).
    std::unordered_map<std::string, std::string> checked;
    auto parse_line = [&](size_t i) {
        text::split_view_into(f, z.lines[i].text, '|', true);
        return make(i, 0, [&] { return parse_amd_row(f, z.origin, z.lines[i].number, false, checked); });
    };
    for (int pass = 0; pass < 3; ++pass)
        for (size_t i = 0; i < z.lines.size(); ++i) {
            text::split_view_into(f, z.lines[i].text, '|', true);
            if (f.size() < 4) continue;
            if (pass == 0) {
                const int w = builtin_match(f[1], name);
                if (w < 0) continue;
                if (implied_wave) *implied_wave = w;
                return parse_line(i);
            }
            if (pass == 1 && f[2] == name) return parse_line(i);
            if (pass == 2 && f[3] != "-" && text::list_has(f[3], name)) return parse_line(i);
        }
    return nullptr;
}

std::vector<const Instruction*> Catalog::on(Family f) const {
    std::vector<const Instruction*> out;
    for (const auto& r : instructions())
        if (r.on(f)) out.push_back(&r);
    return out;
}

const Instruction& Catalog::find_instruction(const Target& t, std::string_view name) const {
    return find_instruction(t, name, nullptr);
}

const Instruction& Catalog::find_instruction(const Target& t, std::string_view raw, int* implied_wave) const {
    std::string name = text::lower(text::trim(raw));
    if (implied_wave) *implied_wave = 0;
    const std::string prefix = "__builtin_amdgcn_";
    if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
    // builtin(Family) reads a row only when its name is asked for.
    if (lazy_ && !lazy_->listed) {
        if (t.family == lazy_->family)
            if (const Instruction* r = find_lazy(name, implied_wave)) return *r;
        // A Blackwell template's spelling is built from its row without reading the others.
        if (const Instruction* bw = detail::blackwell_find(t, raw)) return *bw;
        return builtin().find_instruction(t, raw, implied_wave);  // a miss: where else it exists, what is near
    }
    // A lazy catalog that was listed answers from its list (the same objects as on()'s).
    const std::vector<Instruction>& rows = instructions();
    for (const Instruction& r : rows) {
        if (!r.on(t.family) || r.vendor() != Vendor::AMD) continue;
        const int w = builtin_match(r.builtin_pattern, name);
        if (w < 0) continue;
        if (implied_wave) *implied_wave = w;
        return r;
    }
    // Mnemonics: the family's spelling first (untied rows come first in the
    // catalog), then the aliases LLVM accepts.
    for (const Instruction& r : rows)
        if (r.on(t.family) && r.mnemonic == name) return r;
    for (const Instruction& r : rows)
        if (r.on(t.family))
            for (const auto& a : r.aliases)
                if (a == name) return r;
    // Blackwell rows are templates (core/catalog/blackwell.txt): the one instruction a
    // name spells is built now; a spelling legal elsewhere throws, naming where.
    if (const Instruction* bw = detail::blackwell_find(t, raw)) return *bw;
    // One family's rows: the whole catalog names where else it exists, or what is near.
    if (partial_) return builtin().find_instruction(t, raw, implied_wave);

    // Not here: is it on another family?
    std::vector<std::string> elsewhere;
    for (const Instruction& r : rows_) {
        const bool amd = r.vendor() == Vendor::AMD;
        bool match = r.mnemonic == name || (amd && r.builtin(32).substr(prefix.size()) == name) ||
                     (amd && r.builtin(64).substr(prefix.size()) == name) ||
                     std::find(r.aliases.begin(), r.aliases.end(), name) != r.aliases.end();
        if (match)
            for (Family f : r.families) {
                std::string fam(family_name(f));
                if (std::find(elsewhere.begin(), elsewhere.end(), fam) == elsewhere.end()) elsewhere.push_back(fam);
            }
    }
    std::string msg = "unknown instruction '" + std::string(raw) + "' on " + t.gfx + " (" +
                      std::string(family_title(t.family)) + ")";
    // Transpose loads (transpose.hpp) are memory instructions, not matrix ones.
    if (const TransposeLoad* tl = TransposeCatalog::builtin().find(t, name)) {
        msg = "'" + std::string(raw) + "' is a transpose load (" + tl->mnemonic + ": memory to registers), not a matrix "
              "instruction: `lanescope-cli info --arch " + t.gfx + " -i " + tl->mnemonic + "` shows its facts, and " +
              "`load --transpose` plans it for an operand";
    } else if (elsewhere.empty() && [&] {
                   for (const TransposeLoad& r : TransposeCatalog::builtin().rows())
                       if (r.mnemonic == name ||
                           std::find(r.builtins.begin(), r.builtins.end(), name) != r.builtins.end()) {
                           for (Family f : r.families) elsewhere.push_back(std::string(family_name(f)));
                           return true;
                       }
                   return false;
               }()) {
        msg += "; it is a transpose load of " + text::join(elsewhere, ", ") + " (gfx950: ds_read_*_tr_*, RDNA4: "
               "global_load_tr_*), not on " + t.gfx;
    } else if (!elsewhere.empty()) {
        msg += "; it exists on " + text::join(elsewhere, ", ");
    } else {
        std::vector<std::string> names;
        for (const Instruction* r : on(t.family)) {
            names.push_back(r->mnemonic);
            names.push_back(r->key(t.default_wave));
        }
        for (const std::string& n : TransposeCatalog::builtin().names(t.family)) names.push_back(n);
        auto near = closest(name, names);
        if (!near.empty()) msg += "; did you mean " + text::join_quoted(near, " or ") + "?";
    }
    msg += std::string("\nlegal: ") +
           (t.vendor() == Vendor::NVIDIA ? "a PTX spelling or lanescope short name on " : "an ISA mnemonic or builtin name on ") +
           t.gfx + "; `lanescope-cli list --arch " + t.gfx + "` lists them";
    throw Error(msg);
}

// --------------------------------------------------------------- parsing ----

namespace {
[[noreturn]] void fail(std::string_view origin, int line, const std::string& what) {
    throw Error(std::string(origin) + ":" + std::to_string(line) + ": " + what);
}

// Digits only (no sign, no spaces, no "0x"), at most 1 << 20.
int parse_int(std::string_view origin, int line, std::string_view field, std::string_view s, int base = 10) {
    long v = 0;
    bool ok = !s.empty() && s.size() <= 8;
    for (char ch : s) {
        const int d = ch >= '0' && ch <= '9' ? ch - '0'
                      : base == 16 && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                      : base == 16 && ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                                            : -1;
        if (d < 0 || !ok) {
            ok = false;
            break;
        }
        v = v * base + d;
    }
    if (!ok || v > (1L << 20))
        fail(origin, line, std::string(field) + " '" + std::string(s) + "' is not a " + (base == 16 ? "hex " : "") +
                               "number, legal: " + (base == 16 ? "hex digits" : "decimal digits") + " up to " +
                               std::to_string(1L << 20));
    return static_cast<int>(v);
}

// Names end up in generated C sources, JSON and HTML: letters, digits, '_' (and what `extra` allows).
void check_name(std::string_view origin, int line, std::string_view field, std::string_view s, std::string_view extra) {
    if (s.empty() || s.size() > 200) fail(origin, line, std::string(field) + " is empty or longer than 200 characters");
    for (char ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && extra.find(ch) == std::string_view::npos)
            fail(origin, line,
                 std::string(field) + " '" + std::string(s) + "' contains '" + std::string(1, ch) +
                     "', legal: letters, digits, _" + (extra.empty() ? "" : " and " + std::string(extra)));
}

bool is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

constexpr std::pair<std::string_view, Family> kAmdFamilies[] = {
    {"cdna1", Family::CDNA1}, {"cdna2", Family::CDNA2}, {"cdna3", Family::CDNA3}, {"cdna4", Family::CDNA4},
    {"rdna3", Family::RDNA3}, {"rdna4", Family::RDNA4}, {"cdna5", Family::CDNA5}};
constexpr std::pair<std::string_view, LayoutKind> kAmdKinds[] = {
    {"mfma", LayoutKind::Mfma},
    {"mfma_scaled", LayoutKind::MfmaScaled},
    {"mfma_f8f6f4", LayoutKind::MfmaScaled},  // mfma_scaled's formulas without the scales
    {"smfmac_cdna3", LayoutKind::SmfmacCdna3},
    {"smfmac_cdna4", LayoutKind::SmfmacCdna4},
    {"wmma_rdna3", LayoutKind::WmmaRdna3},
    {"wmma_rdna4", LayoutKind::WmmaRdna4},
    {"swmmac_rdna4", LayoutKind::SwmmacRdna4},
    {"wmma_gfx1250", LayoutKind::WmmaGfx1250},
    {"wmma_scale_gfx1250", LayoutKind::WmmaScaleGfx1250},
    {"swmmac_gfx1250", LayoutKind::SwmmacGfx1250}};

// Parses one AMD row (core/catalog/instructions.txt's format). With `check`, also
// checks what costs time: names, and that the formula family lays the row out.
Instruction parse_amd_row(const std::vector<std::string_view>& f, std::string_view origin, int line_no, bool check,
                          std::unordered_map<std::string, std::string>& checked) {
    if (f.size() != 14)
        fail(origin, line_no,
             "expected 14 '|'-separated fields (families | builtin | mnemonic | aliases | layout | shape | blocks | "
             "types | opcode | cycles | vectors | vectors64 | features | source), found " +
                 std::to_string(f.size()));
    Instruction r;
    r.catalog_line = line_no;
    r.families.reserve(static_cast<size_t>(std::count(f[0].begin(), f[0].end(), ',')) + 1);
    for (std::string_view fam : text::split_view(f[0], ',', true)) {
        const auto* it = std::find_if(std::begin(kAmdFamilies), std::end(kAmdFamilies),
                                      [&](const auto& e) { return e.first == fam; });
        if (it == std::end(kAmdFamilies))
            fail(origin, line_no,
                 "unknown family '" + std::string(fam) + "'; legal: cdna1 cdna2 cdna3 cdna4 rdna3 rdna4 cdna5 (NVIDIA rows: "
                 "ampere ada hopper, in core/catalog/nvidia.txt's format)");
        if (r.on(it->second)) fail(origin, line_no, "family '" + std::string(fam) + "' given twice");
        r.families.push_back(it->second);
    }
    r.builtin_pattern = f[1];
    if (r.builtin_pattern.empty()) fail(origin, line_no, "empty builtin name");
    if (check) {
        check_name(origin, line_no, "builtin", r.builtin_pattern, "{}");
        std::string bare = r.builtin_pattern;
        const auto w = bare.find("{w}");
        if (w != std::string::npos) bare.erase(w, 3);
        if (bare.find_first_of("{}") != std::string::npos)
            fail(origin, line_no, "builtin '" + r.builtin_pattern + "' has braces other than one {w}, legal: letters, digits, _ and one {w}");
    }
    r.mnemonic = f[2];
    if (check) check_name(origin, line_no, "mnemonic", r.mnemonic, "");
    if (r.mnemonic.rfind("v_", 0) != 0) fail(origin, line_no, "mnemonic '" + std::string(f[2]) + "' does not start with v_");
    if (f[3] != "-")
        for (std::string_view a : text::split_view(f[3], ',', true)) {
            r.aliases.emplace_back(a);
            if (check) check_name(origin, line_no, "alias", a, "");
        }
    const auto* kind = std::find_if(std::begin(kAmdKinds), std::end(kAmdKinds), [&](const auto& e) { return e.first == f[4]; });
    if (kind == std::end(kAmdKinds))
        fail(origin, line_no,
             "unknown layout '" + std::string(f[4]) +
                 "'; legal: mfma mfma_scaled mfma_f8f6f4 smfmac_cdna3 smfmac_cdna4 wmma_rdna3 wmma_rdna4 swmmac_rdna4 "
                 "wmma_gfx1250 wmma_scale_gfx1250 swmmac_gfx1250");
    r.kind = kind->second;
    r.scales = f[4] == "mfma_scaled";
    const auto dims = text::split_few(f[5], 'x');
    if (dims.size() != 3) fail(origin, line_no, "shape '" + std::string(f[5]) + "' is not MxNxK");
    r.m = parse_int(origin, line_no, "shape", dims[0]);
    r.n = parse_int(origin, line_no, "shape", dims[1]);
    r.k = parse_int(origin, line_no, "shape", dims[2]);
    r.blocks = parse_int(origin, line_no, "blocks", f[6]);
    if (!is_pow2(r.m) || !is_pow2(r.n) || !is_pow2(r.k) || !is_pow2(r.blocks))
        fail(origin, line_no, "shape and blocks must be powers of two");
    const auto types = text::split_few(f[7], ',');
    if (types.size() != 3 && types.size() != 4)
        fail(origin, line_no, "types '" + std::string(f[7]) + "' must be A,B,C (or A,B,C,D where D's type differs from C's)");
    ElemType d_type = ElemType::F32;
    ElemType* slots[4] = {&r.a, &r.b, &r.c, &d_type};
    for (size_t i = 0; i < types.size(); ++i) {
        auto t = parse_elem(text::trim_view(types[i]));
        if (!t) fail(origin, line_no, "unknown element type '" + std::string(types[i]) + "'");
        *slots[i] = *t;
    }
    if (types.size() == 4) {
        if (d_type == r.c) fail(origin, line_no, "types '" + std::string(f[7]) + "' repeat C's type as D's, legal: A,B,C");
        r.d = d_type;
    }
    {
        // "35+33": a prefix instruction's opcode, then the matrix instruction's own.
        const auto ops = text::split_few(f[8], '+', true);
        if (ops.size() > 2)
            fail(origin, line_no, "opcode '" + std::string(f[8]) + "' is not HEX or PREFIX+HEX, legal: e.g. 5d or 35+33");
        r.opcode = static_cast<unsigned>(parse_int(origin, line_no, "opcode", ops.back(), 16));
        if (ops.size() == 2) {
            r.prefix_opcode = static_cast<unsigned>(parse_int(origin, line_no, "opcode", ops[0], 16));
            // The prefixes LLVM 22 knows, per family (llvm-objdump-22 on gfx950's
            // v_mfma_scale_*: D3AC.... first; llvm-mc-22 -mcpu=gfx1250 for the rest).
            const bool cdna4 = r.on(Family::CDNA4), cdna5 = r.on(Family::CDNA5);
            if (cdna4 && !cdna5 && r.prefix_opcode == 0x2c) r.prefix_mnemonic = "v_mfma_ld_scale_b32";
            else if (cdna5 && !cdna4 && r.prefix_opcode == 0x35) r.prefix_mnemonic = "v_wmma_ld_scale_paired_b32";
            else if (cdna5 && !cdna4 && r.prefix_opcode == 0x3a) r.prefix_mnemonic = "v_wmma_ld_scale16_paired_b64";
            else
                fail(origin, line_no, "prefix opcode '" + std::string(ops[0]) +
                                          "' is unknown on these families, legal: 2c (v_mfma_ld_scale_b32, cdna4), "
                                          "35 (v_wmma_ld_scale_paired_b32, cdna5), 3a (v_wmma_ld_scale16_paired_b64, cdna5)");
        }
    }
    if (f[9] == "-") {
        r.cycles = r.cycles_fp8 = 0;  // not published
    } else {
        const auto cyc = text::split_few(f[9], '/');
        r.cycles = parse_int(origin, line_no, "cycles", cyc[0]);
        r.cycles_fp8 = cyc.size() > 1 ? parse_int(origin, line_no, "cycles", cyc[1]) : r.cycles;
        if (cyc.size() > 2 || r.cycles < 1 || r.cycles_fp8 < 1)
            fail(origin, line_no,
                 "cycles '" + std::string(f[9]) + "' is not N or N/M with N, M >= 1 (or - where none is published), legal: e.g. "
                 "64 or 64/32");
    }
    r.vec_w32 = f[10];
    if (f[11] != "-") r.vec_w64 = f[11];
    for (const std::string* v : {&r.vec_w32, &r.vec_w64}) {
        if (v->empty()) continue;
        const auto gt = v->find('>');
        if (gt == std::string::npos || std::count(v->begin(), v->begin() + static_cast<long>(gt), ',') != 2)
            fail(origin, line_no, "vectors '" + *v + "' must be A,B,C>D");
    }
    const bool rdna = r.on(Family::RDNA3) || r.on(Family::RDNA4);
    if (rdna != (r.builtin_pattern.find("{w}") != std::string::npos))
        fail(origin, line_no, "RDNA builtins (and only they) carry {w} for the wave size");
    if (rdna && r.vec_w64.empty()) fail(origin, line_no, "RDNA rows need wave64 vector types");
    r.features = f[12];
    if (check) check_name(origin, line_no, "features", r.features, "-,+.");
    r.source = f[13];
    r.tied = r.builtin_pattern.find("_tied") != std::string::npos || r.kind == LayoutKind::SmfmacCdna3 ||
             r.kind == LayoutKind::SmfmacCdna4;
    if (r.sparse() && r.k % 8 != 0) fail(origin, line_no, "sparse instructions need K a multiple of 8");
    if (check) {
        // The formula family must be able to lay the row out (shape, types, registers).
        // Rows with the same facts as an earlier row need no second formula check.
        std::string key = std::string(layout_kind_name(r.kind)) + "|" + std::string(f[0]) + "|" + std::string(f[5]) +
                          "|" + std::string(f[6]) + "|" + std::string(f[7]) + "|" + r.vec_w32 + "|" + r.vec_w64;
        auto seen = checked.find(key);
        if (seen == checked.end()) {
            std::string why;
            try {
                validate_instruction(r);
            } catch (const Error& e) {
                why = e.what();
            }
            seen = checked.emplace(std::move(key), std::move(why)).first;
        }
        if (!seen->second.empty()) fail(origin, line_no, seen->second);
    }
    return r;
}
}  // namespace

Catalog Catalog::parse(std::string_view text, std::string_view origin) { return parse(text, origin, true); }

Catalog Catalog::parse(std::string_view text, std::string_view origin, bool check) {
    Catalog cat;
    if (check) {
        // A catalog is text: no NUL or other control bytes (tab and CR aside).
        int line = 1;
        for (size_t i = 0; i < text.size(); ++i) {
            const unsigned char ch = static_cast<unsigned char>(text[i]);
            if (ch == '\n') ++line;
            else if (ch < 0x20 && ch != '\t' && ch != '\r')
                fail(origin, line, "byte 0x" + std::string(1, "0123456789abcdef"[ch >> 4]) +
                                       std::string(1, "0123456789abcdef"[ch & 15]) + " at offset " + std::to_string(i) +
                                       " is not text, legal: a text file of '|'-separated rows");
        }
    }
    std::unordered_map<std::string, std::string> checked;  // formula checks done, by the facts they read
    std::unordered_map<std::string, int> defined;         // "family/builtin" -> line
    std::vector<std::string_view> f;
    f.reserve(16);
    for_each_row_line(text, [&](std::string_view line, int line_no) {
        text::split_view_into(f, line, '|', true);
        if (detail::is_nvidia_row(f)) {  // core/catalog/nvidia.txt's format
            detail::parse_nvidia_row(f, origin, line_no, check, cat.rows_);
            return;
        }
        Instruction r = parse_amd_row(f, origin, line_no, check, checked);
        if (check) {
            // A builtin may appear once per family (a hash lookup per row: loading stays linear).
            for (Family fam : r.families) {
                // The unscaled f8f6f4 form shares its builtin with the scaled row.
                const std::string form = r.kind == LayoutKind::MfmaScaled && !r.scales ? "/unscaled" : "";
                auto [at_line, fresh] =
                    defined.emplace(std::string(family_name(fam)) + "/" + r.builtin_pattern + form, line_no);
                if (!fresh)
                    fail(origin, line_no,
                         "builtin '" + r.builtin_pattern + "' already defined for " + std::string(family_name(fam)) +
                             " on line " + std::to_string(at_line->second) + ", legal: one row per builtin and family");
            }
        }
        cat.rows_.push_back(std::move(r));
    });
    if (cat.rows_.empty()) throw Error(std::string(origin) + ": the catalog holds no instruction rows");
    if (!check) return cat;
    // NVIDIA rows have no builtin: their spellings (PTX, short name, aliases) must name one row each.
    std::unordered_map<std::string, int> nvidia_names;
    for (const Instruction& r : cat.rows_) {
        if (r.vendor() != Vendor::NVIDIA) continue;
        std::vector<std::string> names = r.aliases;
        names.push_back(r.mnemonic);
        for (const std::string& name : names) {
            auto [at, fresh] = nvidia_names.emplace(name, r.catalog_line);
            if (!fresh)
                fail(origin, r.catalog_line, "'" + name + "' already names the row on line " + std::to_string(at->second));
        }
    }
    return cat;
}

Catalog Catalog::load_file(const std::string& path) {
    // Bounded and text-only: /dev/zero or a binary fails at its first block.
    constexpr size_t kMaxBytes = size_t(64) << 20;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error("cannot read catalog file '" + path + "': it is a directory; legal: a text file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read catalog file '" + path + "': " + std::strerror(errno));
    std::string text;
    char buf[1 << 16];
    while (in) {
        in.read(buf, sizeof buf);
        const size_t got = static_cast<size_t>(in.gcount());
        if (const void* nul = std::memchr(buf, 0, got)) {
            const size_t at = static_cast<size_t>(static_cast<const char*>(nul) - buf);
            const long line = 1 + std::count(text.begin(), text.end(), '\n') + std::count(buf, buf + at, '\n');
            throw Error(path + ":" + std::to_string(line) + ": contains a NUL byte (offset " +
                        std::to_string(text.size() + at) + "), so it is not text; legal: a text file of '|'-separated rows");
        }
        text.append(buf, got);
        if (text.size() > kMaxBytes)
            throw Error(path + ": larger than " + std::to_string(kMaxBytes >> 20) + " MiB; legal: a catalog up to " +
                        std::to_string(kMaxBytes >> 20) + " MiB");
    }
    if (in.bad()) throw Error("cannot read catalog file '" + path + "': read error");
    return parse(text, path);
}

std::string_view Catalog::builtin_text() { return kBuiltinCatalogText; }

void Catalog::check_builtin() {
    parse(kBuiltinCatalogText, "core/catalog/instructions.txt", true);
    parse(kNvidiaCatalogText, "core/catalog/nvidia.txt", true);
    detail::blackwell_check();
}

const Catalog& Catalog::builtin(Family f) {
    // Read once and kept for the life of the process (never destroyed: a query's
    // exit does not spend time freeing rows). Only the family's lines are found;
    // a row is parsed when a name asks for it, all of them when they are listed.
    constexpr size_t kFamilies = static_cast<size_t>(Family::BlackwellGeForce) + 1;
    static std::once_flag once[kFamilies];
    static const Catalog* by_family[kFamilies];
    const size_t i = static_cast<size_t>(f);
    std::call_once(once[i], [f, i] {
        auto* cat = new Catalog();
        cat->partial_ = true;
        cat->lazy_ = std::make_shared<Lazy>();
        Lazy& z = *cat->lazy_;
        z.family = f;
        z.nvidia = vendor_of(f) == Vendor::NVIDIA;
        z.origin = z.nvidia ? "core/catalog/nvidia.txt" : "core/catalog/instructions.txt";
        const std::string_view text = z.nvidia ? kNvidiaCatalogText : kBuiltinCatalogText;
        for_each_row_line(text, [&](std::string_view line, int line_no) {
            if (text::list_has(line.substr(0, line.find('|')), family_name(f))) z.lines.push_back({line, line_no});
        });
        by_family[i] = cat;
    });
    return *by_family[i];
}

const Catalog& Catalog::builtin() {
    // Checked when lanescope_core is built (tools/check_catalog.cpp runs check_builtin()),
    // so a start-up only reads the rows.
    static const Catalog kCatalog = [] {
        Catalog amd = parse(kBuiltinCatalogText, "core/catalog/instructions.txt", false);
        Catalog nvidia = parse(kNvidiaCatalogText, "core/catalog/nvidia.txt", false);
        amd.rows_.reserve(amd.rows_.size() + nvidia.rows_.size());
        amd.rows_.insert(amd.rows_.end(), std::make_move_iterator(nvidia.rows_.begin()),
                         std::make_move_iterator(nvidia.rows_.end()));
        return amd;
    }();
    return kCatalog;
}

// ------------------------------------------------------------ suggestions ----

std::vector<std::string> closest(std::string_view word, const std::vector<std::string>& candidates, size_t max) {
    auto distance = [](std::string_view a, std::string_view b) {
        std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
        for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
        for (size_t i = 1; i <= a.size(); ++i) {
            cur[0] = i;
            for (size_t j = 1; j <= b.size(); ++j)
                cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            std::swap(prev, cur);
        }
        return prev[b.size()];
    };
    // (rank, distance, tie, name): a completion of what was typed (a truncated name:
    // v_mfma_f32_32x32x16_fp8 -> v_mfma_f32_32x32x16_fp8_fp8) ranks before any other
    // candidate, the shortest completion first and, among equals, one that repeats
    // what was typed (_fp8 -> _fp8_fp8) before one that adds something new (_fp8_bf8).
    struct Scored {
        int rank;
        size_t d;
        int tie;
        const std::string* c;
        bool operator<(const Scored& o) const {
            if (rank != o.rank) return rank < o.rank;
            if (d != o.d) return d < o.d;
            if (tie != o.tie) return tie < o.tie;
            return *c < *o.c;
        }
    };
    std::vector<Scored> scored;
    for (const auto& c : candidates) {
        const bool completes = word.size() >= 3 && c.size() > word.size() && c.compare(0, word.size(), word) == 0;
        if (completes) {
            const std::string_view added = std::string_view(c).substr(word.size());
            scored.push_back({0, added.size(), word.find(added) != std::string_view::npos ? 0 : 1, &c});
            continue;
        }
        size_t d = distance(word, c);
        // A substring match is a strong hint even when the edit distance is large.
        if (c.find(word) != std::string::npos && word.size() >= 3) d = std::min(d, c.size() - word.size());
        scored.push_back({1, d, 0, &c});
    }
    std::sort(scored.begin(), scored.end());
    std::vector<std::string> out;
    size_t limit = std::max<size_t>(3, word.size() / 2);
    for (const Scored& x : scored) {
        if ((x.rank == 1 && x.d > limit) || out.size() >= max) break;
        if (std::find(out.begin(), out.end(), *x.c) == out.end()) out.push_back(*x.c);
    }
    return out;
}

}  // namespace lanescope
