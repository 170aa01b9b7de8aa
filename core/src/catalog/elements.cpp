// The element-type table (lanescope/elements.hpp): small-float formats and their codec.
#include "lanescope/elements.hpp"

#include <cmath>

namespace lanescope {

Fp8Flavor fp8_flavor(Family f) { return f == Family::CDNA3 ? Fp8Flavor::Fnuz : Fp8Flavor::Ocp; }

std::optional<MiniFloat> minifloat_of(ElemType t, Fp8Flavor flavor) {
    const bool fnuz = flavor == Fp8Flavor::Fnuz;
    switch (t) {
        case ElemType::F16: return MiniFloat{5, 10, 15, true, FloatSpecials::Ieee};
        case ElemType::BF16: return MiniFloat{8, 7, 127, true, FloatSpecials::Ieee};
        case ElemType::FP8:
            return fnuz ? MiniFloat{4, 3, 8, true, FloatSpecials::Fnuz} : MiniFloat{4, 3, 7, true, FloatSpecials::OcpE4M3};
        case ElemType::BF8:
            return fnuz ? MiniFloat{5, 2, 16, true, FloatSpecials::Fnuz} : MiniFloat{5, 2, 15, true, FloatSpecials::Ieee};
        case ElemType::E4M3: return MiniFloat{4, 3, 7, true, FloatSpecials::OcpE4M3};  // NVIDIA fp8: OCP
        case ElemType::E5M2: return MiniFloat{5, 2, 15, true, FloatSpecials::Ieee};
        case ElemType::UE4M3: return MiniFloat{4, 3, 7, false, FloatSpecials::OcpE4M3};
        case ElemType::FP6: return MiniFloat{2, 3, 1, true, FloatSpecials::None};
        case ElemType::BF6: return MiniFloat{3, 2, 3, true, FloatSpecials::None};
        case ElemType::FP4: return MiniFloat{2, 1, 1, true, FloatSpecials::None};
        case ElemType::XF32:
        case ElemType::TF32: return MiniFloat{8, 10, 127, true, FloatSpecials::Ieee};  // values; registers hold f32 bits
        default: return std::nullopt;
    }
}

double MiniFloat::max_finite() const {
    int e = (1 << exp_bits) - 1;                 // the largest exponent field
    double man = (1 << man_bits) - 1;            // and mantissa field
    if (specials == FloatSpecials::Ieee) e -= 1;  // all-ones is inf/NaN
    if (specials == FloatSpecials::OcpE4M3) man -= 1;  // S.1111.111 is NaN
    return std::ldexp(1.0 + man / (1 << man_bits), e - bias);
}

double decode_minifloat(const MiniFloat& f, std::uint32_t code) {
    const std::uint32_t e_max = (1u << f.exp_bits) - 1, m_max = (1u << f.man_bits) - 1;
    const bool sign = f.sign && ((code >> (f.exp_bits + f.man_bits)) & 1u);
    const std::uint32_t e = (code >> f.man_bits) & e_max, m = code & m_max;
    switch (f.specials) {
        case FloatSpecials::Ieee:
            if (e == e_max) return m ? std::nan("") : (sign ? -INFINITY : INFINITY);
            break;
        case FloatSpecials::OcpE4M3:
            if (e == e_max && m == m_max) return std::nan("");
            break;
        case FloatSpecials::Fnuz:
            if (sign && e == 0 && m == 0) return std::nan("");
            break;
        case FloatSpecials::None: break;
    }
    const double mag = e == 0 ? std::ldexp(double(m), 1 - f.bias - f.man_bits)
                              : std::ldexp(double(m + (1u << f.man_bits)), int(e) - f.bias - f.man_bits);
    return sign ? -mag : mag;
}

double round_minifloat(const MiniFloat& f, double x) {
    if (x == 0 || std::isnan(x)) return 0;
    if (!f.sign && x < 0) return 0;
    const double max = f.max_finite(), a = std::fabs(x);
    if (a >= max) return std::copysign(max, x);  // saturates, infinities included
    const int e = std::max(std::ilogb(a), 1 - f.bias);  // below the normal range: subnormal spacing
    const double step = std::ldexp(1.0, e - f.man_bits);
    const double r = std::min(std::nearbyint(a / step) * step, max);  // default rounding mode: ties to even
    return std::copysign(r, x);
}

std::optional<std::uint32_t> encode_minifloat(const MiniFloat& f, double x) {
    if (std::isnan(x)) return std::nullopt;
    const std::uint32_t sign = std::signbit(x) ? 1u : 0u;
    if (sign && !f.sign) return std::nullopt;
    const double a = std::fabs(x);
    std::uint32_t E = 0, M = 0;
    if (std::isinf(a)) {
        if (f.specials != FloatSpecials::Ieee) return std::nullopt;
        E = (1u << f.exp_bits) - 1;
    } else if (a != 0) {
        const int e = std::ilogb(a);
        double man;
        if (e < 1 - f.bias) {
            man = a / std::ldexp(1.0, 1 - f.bias - f.man_bits);  // subnormal
        } else {
            E = static_cast<std::uint32_t>(e + f.bias);
            man = (a / std::ldexp(1.0, e) - 1.0) * std::ldexp(1.0, f.man_bits);
        }
        if (man != std::floor(man) || E >= (1u << f.exp_bits)) return std::nullopt;
        M = static_cast<std::uint32_t>(man);
    } else if (sign && f.specials == FloatSpecials::Fnuz) {
        return 0;  // FNUZ has no -0: 0x80 is NaN, so -0 is written as +0
    }
    const std::uint32_t code = (sign << (f.exp_bits + f.man_bits)) | E << f.man_bits | M;
    const double back = decode_minifloat(f, code);
    if (std::isnan(back) || back != x) return std::nullopt;  // NaN codes and out-of-range exponents
    return code;
}

std::string_view c_type(ElemType t) {
    switch (t) {
        case ElemType::F64: return "double";
        case ElemType::F32:
        case ElemType::XF32:
        case ElemType::TF32: return "float";
        case ElemType::F16: return "_Float16";
        case ElemType::BF16: return "__bf16";
        case ElemType::I32:
        case ElemType::S32: return "int";
        case ElemType::I8:
        case ElemType::S8: return "signed char";
        case ElemType::B16: return "unsigned short";
        default: return "unsigned char";  // 8-bit codes (fp8/bf8/iu8); narrower types: one code per entry
    }
}

}  // namespace lanescope
