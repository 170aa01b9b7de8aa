// The modifier options of every front end (lanescope/options.hpp).
#include "lanescope/options.hpp"

#include "lanescope/numbers.hpp"

#include <charconv>

namespace lanescope {

std::string ModifierOption::flag() const {
    const size_t comma = names.find_last_of(',');
    return std::string(comma == std::string_view::npos ? names : names.substr(comma + 1));
}

const std::vector<ModifierOption>& modifier_options() {
    using V = OptionValue;
    constexpr std::uint64_t kBytes = (1u << 18) - 1;  // the descriptor's 14-bit fields, in bytes (<< 4)
    static const std::vector<ModifierOption> kOptions = {
        // Wide ranges here; each instruction's legal values are checked (and listed) by resolve_modifiers.
        {"--cbsz", "cbsz", V::Integer, 0, 255, "CBSZ: A broadcast size (MFMA), A format (mfma_scale), index-set gate (SMFMAC)", "INT", "amd"},
        {"--abid", "abid", V::Integer, 0, 255, "ABID: broadcast block (MFMA), sparse index set (SMFMAC)", "INT", "amd"},
        {"--blgp", "blgp", V::Integer, 0, 255, "BLGP: B lane-group pattern 0-7 (MFMA), B format (mfma_scale), f64 negation", "INT", "amd"},
        {"--opsel", "opsel", V::Integer, 0, 255,
         "OPSEL as encoded: 4 = op_sel:[0,0,1] (RDNA3 16-bit C/D high half), index_key (RDNA4 SWMMAC), scale byte (mfma_scale)",
         "INT", "amd"},
        {"--opsel-a", "opsel_a", V::Integer, 0, 255, "mfma_scale: byte of the A-scale VGPR (0-3)", "INT", "amd"},
        {"--opsel-b", "opsel_b", V::Integer, 0, 255, "mfma_scale: byte of the B-scale VGPR (0-3)", "INT", "amd"},
        {"-w,--wave", "wave", V::Integer, 32, 128,
         "wave size: 32 (RDNA default) or 64 on RDNA; 128 names an NVIDIA warpgroup (wgmma); each instruction's legal sizes "
         "are checked after",
         "INT", "amd"},
        {"--selector", "selector", V::Integer, 0, 255, "NVIDIA mma.sp: sparsity selector (k16: 0-3, k32: 0-1)", "INT", "amd"},
        // gfx1250's controls, spelled as LLVM's assembler writes the fields: a name or a number.
        {"--matrix-a-fmt", "matrix_a_fmt", V::Named, 0, 255, "gfx1250 f8f6f4: A's data format (matrix_a_fmt)", "NAME|INT", "gfx1250"},
        {"--matrix-b-fmt", "matrix_b_fmt", V::Named, 0, 255, "gfx1250 f8f6f4: B's data format (matrix_b_fmt)", "NAME|INT", "gfx1250"},
        {"--matrix-a-scale", "matrix_a_scale", V::Named, 0, 255,
         "gfx1250 wmma_scale*: which half-wave gives A's scales (matrix_a_scale; the builtin's a_scale_sel)", "NAME|INT", "gfx1250"},
        {"--matrix-b-scale", "matrix_b_scale", V::Named, 0, 255,
         "gfx1250 wmma_scale*: which half-wave gives B's scales (matrix_b_scale; b_scale_sel)", "NAME|INT", "gfx1250"},
        {"--matrix-a-scale-fmt", "matrix_a_scale_fmt", V::Named, 0, 255,
         "gfx1250 wmma_scale*: A's scale format (matrix_a_scale_fmt; a_scale_fmt)", "NAME|INT", "gfx1250"},
        {"--matrix-b-scale-fmt", "matrix_b_scale_fmt", V::Named, 0, 255,
         "gfx1250 wmma_scale*: B's scale format (matrix_b_scale_fmt; b_scale_fmt)", "NAME|INT", "gfx1250"},
        {"--index-key", "index_key", V::Integer, 0, 255, "gfx1250 SWMMAC: index_key", "INT", "gfx1250"},
        // NVIDIA Blackwell, Tensor Memory.
        {"--tmem-load", "tmem_load", V::Named, 0, 255,
         "tcgen05.mma D (or C): the registers after reading it back with this tcgen05.ld shape, as Triton 3.6's "
         "get_tmem_reg_layout numbers them (thread = 32*warp + lane)",
         "NAME|INT", "tcgen05"},
        {"--num-warps", "num_warps", V::Integer, 1, 64, "with --tmem-load: the warps that read D (4 or 8)", "INT", "tcgen05"},
        {"--sfa-id", "sfa_id", V::Integer, 0, 255,
         "block-scaled tcgen05.mma: SFA_ID, the byte of the scale word (1X 0-3, 2X 0 or 2, 4X 0)", "INT", "tcgen05"},
        {"--sfb-id", "sfb_id", V::Integer, 0, 255, "block-scaled tcgen05.mma: SFB_ID (as --sfa-id)", "INT", "tcgen05"},
        {"--half-split", "half_split", V::Integer, 0, 4096,
         "tcgen05.ld/st .16x32bx2: immHalfSplitoff, the second half's column offset (default: the columns of one half, as "
         "CUTLASS passes)",
         "INT", "tcgen05"},
        // sm_120 block-scaled mma.sync (PTX 9.7.14.3): the {byte-id, thread-id} selectors of the scale operands.
        {"--sf-byte-a", "sf_byte_a", V::Integer, 0, 3, "sm_120 block-scaled mma.sync: byte-id-a (the first SF_A byte)", "INT", "sm_120"},
        {"--sf-thread-a", "sf_thread_a", V::Integer, 0, 1, "sm_120 block-scaled mma.sync: thread-id-a (the lane pair supplying SF_A)",
         "INT", "sm_120"},
        {"--sf-byte-b", "sf_byte_b", V::Integer, 0, 3, "sm_120 block-scaled mma.sync: byte-id-b (the first SF_B byte)", "INT", "sm_120"},
        {"--sf-thread-b", "sf_thread_b", V::Integer, 0, 3,
         "sm_120 block-scaled mma.sync: thread-id-b (the lane of each quad supplying SF_B)", "INT", "sm_120"},
        // NVIDIA shared-memory descriptors (wgmma B and SS A, tcgen05.mma A/B): lanescope/smem.hpp.
        {"--major", "smem_major", V::Word, 0, 2, "shared-memory operands (wgmma, tcgen05.mma): K or MN (K-major default)", "K|MN", "smem"},
        {"--swizzle", "swizzle", V::Word, 0, 5,
         "shared-memory operands: the descriptor's swizzle none|32B|64B|128B|128B_base32B (default 128B)", "MODE", "smem"},
        {"--lbo", "lbo", V::Bytes, 0, kBytes, "shared-memory operands: leading byte offset (bytes)", "BYTES", "smem"},
        {"--sbo", "sbo", V::Bytes, 0, kBytes, "shared-memory operands: stride byte offset (bytes)", "BYTES", "smem"},
        {"--smem-address", "smem_address", V::Bytes, 0, kBytes,
         "shared-memory operands: the descriptor's start address (absolute byte; swizzles depend on it)", "BYTES", "smem"},
        {"--base-offset", "base_offset", V::Integer, 0, 7, "shared-memory operands: the descriptor's base offset", "INT", "smem"},
        {"--descriptor", "descriptor", V::Descriptor, 0, ~std::uint64_t{0},
         "shared-memory operands: a whole 64-bit matrix descriptor (0x...): decoded, and the operand laid out from it", "0xHEX", "smem"},
    };
    return kOptions;
}

const ModifierOption* find_modifier_option(std::string_view key) {
    for (const ModifierOption& o : modifier_options()) {
        if (o.field == key || o.flag() == key) return &o;
        if (key.size() == 2 && o.names.substr(0, 3) == std::string(key) + ",") return &o;  // "-w"
    }
    return nullptr;
}

std::string option_help(const ModifierOption& o) {
    const std::string help(o.help);
    if (o.value == OptionValue::Integer) return help + " (" + std::to_string(o.lo) + ".." + std::to_string(o.hi) + ")";
    if (o.value == OptionValue::Named) return help + "; legal: " + modifier_value_names(o.field);
    return help;
}

std::uint64_t parse_number64(std::string_view text, std::uint64_t hi, std::string_view flag) {
    const std::string t(text);
    const std::string refused = std::string(flag) + " '" + t + "' is not legal; legal: a whole number 0.." +
                                std::to_string(hi) + " in decimal or 0x hexadecimal";
    const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    const std::string digits = hex ? t.substr(2) : t;
    if (digits.empty() || digits.size() > (hex ? 16u : 20u)) throw Error(refused);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
    if (ec != std::errc() || end != digits.data() + digits.size() || v > hi) throw Error(refused);
    return v;
}

std::uint64_t parse_option_value(const ModifierOption& o, std::string_view text, std::string_view flag) {
    const std::string name(flag);
    switch (o.value) {
        case OptionValue::Integer:
            return static_cast<std::uint64_t>(parse_integer(text, static_cast<long long>(o.lo), static_cast<long long>(o.hi), name));
        case OptionValue::Named: {
            const std::optional<int> v = parse_modifier_value(o.field, text);
            if (!v || static_cast<std::uint64_t>(*v) > o.hi)
                throw Error(name + " '" + std::string(text) + "' is not a value, legal: " + modifier_value_names(o.field));
            return static_cast<std::uint64_t>(*v);
        }
        case OptionValue::Word: {
            const std::optional<int> v = parse_modifier_value(o.field, text);
            if (!v || static_cast<std::uint64_t>(*v) >= o.hi)
                throw Error(name + " '" + std::string(text) + "' is not legal; legal: " +
                            (o.field == "swizzle" ? "none, 32B, 64B, 128B, 128B_base32B (tcgen05)" : "K, MN"));
            return static_cast<std::uint64_t>(*v);
        }
        case OptionValue::Bytes:
        case OptionValue::Descriptor:
            return parse_number64(text, o.hi, name);
    }
    return 0;
}

void apply_option_value(Modifiers& m, const ModifierOption& o, std::uint64_t value) {
    if (o.value == OptionValue::Descriptor)
        m.descriptor = value;
    else
        set_modifier(m, o.field, static_cast<int>(value));
}

}  // namespace lanescope
