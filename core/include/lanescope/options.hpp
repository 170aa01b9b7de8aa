// The modifier options of every front end, written once: each option's names
// (as CLI11 spells them, "-w,--wave"), the Modifiers field it sets, its range or
// named values, its help and its value's type name. lanescope-cli, the app (and
// the Python and web front ends) add their flags from this table and parse each
// value with parse_option_value, so a flag means, takes and refuses the same
// text everywhere, with the same message.
//
// Values: Integer  a whole number in lo..hi (parse_integer's message);
//         Named    a name of modifier_value_names(field) or its index 0..names-1 (gfx1250's
//                  controls as LLVM's assembler spells them, tcgen05.ld shapes);
//         Word     a name only, below hi (--major K|MN, --swizzle none..128B_base32B): no number,
//                  since the descriptors number their swizzles differently (wgmma 1 = 128B,
//                  tcgen05 2 = 128B, a TMA map 1 = 32B);
// Every value is its text exactly: no surrounding space, no '+' (numbers.hpp's rule).
//         Bytes    a whole number 0..hi, decimal or 0x hexadecimal (descriptor fields);
//         Descriptor  a whole 64-bit matrix descriptor, decimal or 0x hexadecimal.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

enum class OptionValue { Integer, Named, Word, Bytes, Descriptor };

struct ModifierOption {
    std::string_view names;  // CLI11 names: "--cbsz", "-w,--wave"
    std::string_view field;  // the Modifiers field by set_modifier's name ("descriptor": Modifiers::descriptor)
    OptionValue value;
    std::uint64_t lo, hi;    // Integer: lo..hi; Word: values below hi; Bytes / Descriptor: 0..hi
    std::string_view help;   // what it is (without the range or legal names: option_help adds them)
    std::string_view type;   // the value's type name in help: INT, NAME|INT, K|MN, MODE, BYTES, 0xHEX
    std::string_view group;  // "amd", "gfx1250", "tcgen05", "sm_120" or "smem" (the shared-memory descriptor fields)
    std::string flag() const;  // the longest name, as messages give it: "--wave"
};

// Every modifier option, in the order lanescope-cli's help lists them: the AMD
// modifiers, gfx1250's controls, Blackwell's Tensor Memory and sm_120 scale
// selectors, then NVIDIA's shared-memory descriptor fields (--major ... --descriptor).
const std::vector<ModifierOption>& modifier_options();
// The option named `flag` ("--wave" or "-w") or setting `field` ("wave"); nullptr when none.
const ModifierOption* find_modifier_option(std::string_view flag_or_field);

// The help a front end shows: help plus " (lo..hi)" (Integer) or "; legal: names" (Named).
std::string option_help(const ModifierOption& o);
// Parses `text` given to `o` (named `flag` in the message, as the user typed it);
// throws Error saying what is legal.
std::uint64_t parse_option_value(const ModifierOption& o, std::string_view text, std::string_view flag);
// Sets o's field of `m` to a value parse_option_value returned.
void apply_option_value(Modifiers& m, const ModifierOption& o, std::uint64_t value);

// A whole number 0..hi in decimal or 0x hexadecimal; throws Error
// "<flag> '<text>' is not legal; legal: a whole number 0..hi in decimal or 0x hexadecimal".
std::uint64_t parse_number64(std::string_view text, std::uint64_t hi, std::string_view flag);

}  // namespace lanescope
