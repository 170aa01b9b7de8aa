// The desktop app's command line (options.hpp).
#include "model/options.hpp"

#include "lanescope/numbers.hpp"
#include "lanescope/tile.hpp"

#include <charconv>
#include <cstdint>
#include <functional>
#include <optional>

namespace lsapp {

const std::vector<std::string_view>& modifier_fields() {
    static const std::vector<std::string_view> kFields = {
        "cbsz",          "abid",           "blgp",           "opsel",          "wave",
        "opsel_a",       "opsel_b",        "selector",       "matrix_a_fmt",   "matrix_b_fmt",
        "matrix_a_scale", "matrix_b_scale", "matrix_a_scale_fmt", "matrix_b_scale_fmt", "index_key"};
    return kFields;
}

int modifier_field(const ls::Modifiers& m, std::string_view name) {
    ls::ResolvedModifiers r;
    r.cbsz = m.cbsz, r.abid = m.abid, r.blgp = m.blgp, r.opsel = m.opsel, r.wave = m.wave;
    r.opsel_a = m.opsel_a, r.opsel_b = m.opsel_b, r.selector = m.selector;
    r.matrix_a_fmt = m.matrix_a_fmt, r.matrix_b_fmt = m.matrix_b_fmt;
    r.matrix_a_scale = m.matrix_a_scale, r.matrix_b_scale = m.matrix_b_scale;
    r.matrix_a_scale_fmt = m.matrix_a_scale_fmt, r.matrix_b_scale_fmt = m.matrix_b_scale_fmt;
    r.index_key = m.index_key;
    return ls::modifier_value(r, name);
}

void add_app_options(CLI::App& cli, AppArgs& a) {
    cli.add_option("-i,--instruction", a.instruction, "mnemonic or builtin name");
    cli.add_option("-a,--arch", a.arch, "gfx id, family or product (gfx942, cdna3, mi300x, rdna4, ...)");
    cli.add_option("--operand", a.operands, "show only these operands, comma-separated (A,B,D,K,SA,SB), or all");
    // Numbers are parsed strictly (no sign, no empty text, no trailing letters, in range).
    auto add_int = [&cli](const std::string& names, int& into, int lo, int hi, const std::string& help) {
        const std::string flag = names.substr(names.find_last_of(',') + 1);
        return cli
            .add_option_function<std::string>(
                names,
                [&into, lo, hi, flag](const std::string& text) {
                    try {
                        into = static_cast<int>(ls::parse_integer(text, lo, hi, flag));
                    } catch (const ls::Error& e) {
                        throw CLI::ValidationError(e.what());
                    }
                },
                help + " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")")
            ->type_name("INT");
    };
    add_int("--cbsz", a.mods.cbsz, 0, 255, "broadcast block size");
    add_int("--abid", a.mods.abid, 0, 255, "broadcast block id");
    add_int("--blgp", a.mods.blgp, 0, 255, "B lane group pattern");
    add_int("--opsel", a.mods.opsel, 0, 255, "operand select");
    add_int("-w,--wave", a.mods.wave, 32, 128, "wave size (32 or 64 on RDNA; 128 names an NVIDIA warpgroup)");
    add_int("--opsel-a", a.mods.opsel_a, 0, 255, "scale byte select of A (mfma_scale)");
    add_int("--opsel-b", a.mods.opsel_b, 0, 255, "scale byte select of B (mfma_scale)");
    add_int("--selector", a.mods.selector, 0, 255, "sparsity selector (NVIDIA mma.sp)");
    // gfx1250's controls as lanescope-cli takes them: a name as LLVM's assembler spells it, or a number.
    auto named = [&cli](const std::string& flag, const char* field, int& into, const std::string& help) {
        cli.add_option_function<std::string>(
               flag,
               [&into, field, flag](const std::string& text) {
                   const std::optional<int> v = ls::parse_modifier_value(field, text);
                   if (!v || *v > 255)
                       throw CLI::ValidationError(flag + " '" + text + "' is not a value, legal: " + ls::modifier_value_names(field));
                   into = *v;
               },
               help + "; legal: " + ls::modifier_value_names(field))
            ->type_name("NAME|INT");
    };
    named("--matrix-a-fmt", "matrix_a_fmt", a.mods.matrix_a_fmt, "gfx1250 f8f6f4: A's data format (matrix_a_fmt)");
    named("--matrix-b-fmt", "matrix_b_fmt", a.mods.matrix_b_fmt, "gfx1250 f8f6f4: B's data format (matrix_b_fmt)");
    named("--matrix-a-scale", "matrix_a_scale", a.mods.matrix_a_scale, "gfx1250 wmma_scale*: which half-wave gives A's scales");
    named("--matrix-b-scale", "matrix_b_scale", a.mods.matrix_b_scale, "gfx1250 wmma_scale*: which half-wave gives B's scales");
    named("--matrix-a-scale-fmt", "matrix_a_scale_fmt", a.mods.matrix_a_scale_fmt, "gfx1250 wmma_scale*: A's scale format");
    named("--matrix-b-scale-fmt", "matrix_b_scale_fmt", a.mods.matrix_b_scale_fmt, "gfx1250 wmma_scale*: B's scale format");
    add_int("--index-key", a.mods.index_key, 0, 255, "gfx1250 SWMMAC: index_key");
    // NVIDIA Blackwell (Tensor Memory, sm_120 scale selectors) and shared-memory descriptors, as
    // lanescope-cli takes them (the same Modifiers fields, resolved by core).
    named("--tmem-load", "tmem_load", a.mods.tmem_load, "tcgen05.mma D read back by this tcgen05.ld shape");
    add_int("--num-warps", a.mods.num_warps, 1, 64, "with --tmem-load: the warps that read D (4 or 8)");
    add_int("--sfa-id", a.mods.sfa_id, 0, 255, "block-scaled tcgen05.mma: SFA_ID");
    add_int("--sfb-id", a.mods.sfb_id, 0, 255, "block-scaled tcgen05.mma: SFB_ID");
    add_int("--half-split", a.mods.half_split, 0, 4096, "tcgen05.ld/st .16x32bx2: immHalfSplitoff (columns)");
    add_int("--sf-byte-a", a.mods.sf_byte_a, 0, 3, "sm_120 block-scaled mma.sync: byte-id-a");
    add_int("--sf-thread-a", a.mods.sf_thread_a, 0, 1, "sm_120 block-scaled mma.sync: thread-id-a");
    add_int("--sf-byte-b", a.mods.sf_byte_b, 0, 3, "sm_120 block-scaled mma.sync: byte-id-b");
    add_int("--sf-thread-b", a.mods.sf_thread_b, 0, 3, "sm_120 block-scaled mma.sync: thread-id-b");
    named("--major", "smem_major", a.mods.smem_major, "shared-memory operands (wgmma, tcgen05.mma): K or MN");
    // Byte fields and the descriptor: decimal or 0x hexadecimal, as lanescope-cli reads them.
    auto add_u64 = [&cli](const std::string& flag, std::uint64_t hi, std::function<void(std::uint64_t)> set, const std::string& help) {
        cli.add_option_function<std::string>(
               flag,
               [flag, hi, set](const std::string& text) {
                   const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
                   const std::string digits = hex ? text.substr(2) : text;
                   std::uint64_t v = 0;
                   const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
                   if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || v > hi)
                       throw CLI::ValidationError(flag + " '" + text + "' is not legal; legal: a whole number 0.." +
                                                  std::to_string(hi) + " in decimal or 0x hexadecimal");
                   set(v);
               },
               help)
            ->type_name("BYTES");
    };
    auto into = [](int& field) { return [&field](std::uint64_t v) { field = static_cast<int>(v); }; };
    add_u64("--lbo", (1u << 18) - 1, into(a.mods.lbo), "shared-memory operands: leading byte offset (bytes)");
    add_u64("--sbo", (1u << 18) - 1, into(a.mods.sbo), "shared-memory operands: stride byte offset (bytes)");
    add_u64("--smem-address", (1u << 18) - 1, into(a.mods.smem_address), "shared-memory operands: the descriptor's start address");
    add_int("--base-offset", a.mods.base_offset, 0, 7, "shared-memory operands: the descriptor's base offset");
    add_u64("--descriptor", ~std::uint64_t{0}, [&a](std::uint64_t v) { a.mods.descriptor = v; },
            "shared-memory operands: a whole 64-bit matrix descriptor (0x...)");
    cli.add_option_function<std::string>(
        "--tma-box",
        [](const std::string&) {
            throw CLI::ValidationError("--tma-box: the app does not compare a TMA box with a descriptor yet; "
                                       "lanescope-cli load --memory smem --tma-box D0xD1 answers it");
        },
        "lanescope-cli load's TMA comparison (refused here, with where it is answered)");
    cli.add_option("--screenshot", a.screenshot, "render one frame to this PNG and exit (no display needed)");
    cli.add_option("--size", a.size, "screenshot / benchmark size WxH (default 1400x900)");
    add_int("--bench-frames", a.bench_frames, 1, 1000000, "render N frames of the largest layout (or, with --waves/--tiles-per-wave/--shape, that tile) with a moving pointer; print timings");
    cli.add_option("--theme", a.theme, "light or dark")->check(CLI::IsMember({"light", "dark"}));
    cli.add_option("--color-by,--color", a.color_by, "lane, register or block")->check(CLI::IsMember({"lane", "register", "block"}));
    // lanescope-cli figure's --view matrix is the Layout tab here.
    cli.add_option("--tab,--view", a.tab, "layout (or matrix, as lanescope-cli figure --view), registers, compare, values, details or memory")
        ->check(CLI::IsMember({"layout", "matrix", "registers", "compare", "values", "details", "memory"}));
    // The Memory tab: the operand (the first of --operand, else B) as a tile in memory.
    cli.add_option("--memory", a.memory, "memory view: where the tile lies, lds or global")->check(CLI::IsMember({"lds", "global"}));
    cli.add_option("--order", a.order, "memory view: row or col (major)")->check(CLI::IsMember({"row", "col"}));
    add_int("--ld", a.ld, 1, 1 << 24, "memory view: leading dimension in elements (default: the contiguous extent)");
    add_int("--pad", a.pad, 0, 1 << 24, "memory view: padding elements after each line");
    cli.add_option("--swizzle", a.swizzle, "memory view: XOR swizzle VEC,PER_PHASE,MAX_PHASE (e.g. 8,2,8)");
    cli.add_flag("--transpose", a.transpose, "memory view: the transpose load (where one serves the operand)");
    cli.add_flag("--store", a.store, "memory view: stores of C/D instead of loads");
    cli.add_flag("--ld-shared", a.ld_shared, "memory view (NVIDIA): plain ld.shared / st.shared instead of ldmatrix / stmatrix");
    cli.add_flag("--no-side-by-side", a.no_side_by_side, "memory view: only the chosen load, not plain and transposed together");
    add_int("--issue", a.issue, 0, 1 << 20, "memory view: the wave-level instruction whose banks are shown");
    cli.add_option("--grouping", a.grouping, "memory view: the LDS pass grouping by name (as listed in the view)");
    add_int("--block", a.block, -1, 1 << 20, "show only this block (-1: all)");
    cli.add_option_function<std::string>(
           "--zoom",
           [&a](const std::string& text) {
               try {
                   if (!text.empty() && text.back() == '%')
                       a.zoom_percent = static_cast<float>(ls::parse_decimal(text.substr(0, text.size() - 1), 1, 400, "--zoom (percent)"));
                   else
                       a.zoom = static_cast<float>(ls::parse_decimal(text, 0.3, 3.0, "--zoom"));
               } catch (const ls::Error& e) {
                   throw CLI::ValidationError(e.what());
               }
           },
           "zoom factor relative to fit (1: the whole picture; 0.3 .. 3), or N% of the natural cell size (100%: every label "
           "in full; 1% .. 400%), centred on the --pin element when one is given")
        ->type_name("NUMBER");
    cli.add_option("--compare-arch", a.compare_arch, "compare with this architecture (opens the Compare tab)");
    cli.add_option("--compare-instruction", a.compare_instruction, "compare with this instruction (default: the same one)");
    add_int("--compare-wave", a.compare_wave, 32, 128, "wave size of the compared instruction");
    cli.add_option("--pin", a.pin, "pin the highlight of an element, OP,ROW,COL[,BLOCK] (e.g. D,3,5), or a lane, LANE,N");
    cli.add_option("--verify", a.verify,
                   "screenshot: run \"Verify on GPU\" first with this device: auto (the instruction vendor's GPU: HIP on AMD, CUDA on NVIDIA) or software");
    cli.add_option("--corrupt", a.corrupt,
                   "with --verify: check a deliberately wrong layout, OP:swap-lanes:L1:L2 or OP:shift-regs (shows red cells)");
    add_int("--quit-after-frames", a.quit_after, 1, 100000000, "interactive window: close after N frames (smoke tests)");
    cli.add_option("--waves", a.waves, "tile mode: wave grid WMxWN (Triton's warpsPerCTA), e.g. 2x2");
    cli.add_option("--tiles-per-wave", a.tiles_per_wave, "tile mode: instruction tiles per wave RMxRN (tilesPerWarp), e.g. 2x1");
    cli.add_option("--shape", a.shape, "tile mode: tensor shape TMxTN or TMxTNxTK (C/D is TMxTN, A TMxTK, B TKxTN)");
    cli.add_option_function<std::string>(
           "--k-width",
           [&a](const std::string& text) {
               try {
                   a.k_width = ls::parse_k_width(text);
               } catch (const ls::Error& e) {
                   throw CLI::ValidationError(e.what());
               }
           },
           "tile mode: Triton's kWidth of A and B (default the instruction's own)")
        ->type_name("N");
    cli.add_flag("--transposed", a.transposed, "tile mode: Triton's transposed C/D (lanes along M)");
    cli.add_flag("--panel", a.panel, "screenshot only the layout panel, not the whole window");
    cli.add_flag("--registers", a.registers, "show the register view beside the matrices");
    cli.add_flag("--no-labels", a.no_labels, "hide tile labels");
    cli.add_flag("--headless", a.headless, "render with EGL (no window system) even when a display exists");
    cli.add_flag("--no-settings", a.no_settings, "neither read nor write the settings file");
    cli.add_flag("-v,--verbose", a.verbose, "print timings (start to first frame)");
}

}  // namespace lsapp
