// Shared pieces of lanescope-cli's subcommands.
#include "common.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace lscli {

namespace fs = std::filesystem;

const ls::Catalog& catalog(const Options& o) {
    static std::unique_ptr<ls::Catalog> loaded;
    if (o.catalog.empty()) return ls::Catalog::builtin();
    if (!loaded) loaded = std::make_unique<ls::Catalog>(ls::Catalog::load_file(o.catalog));
    return *loaded;
}

ls::Format parse_format(const std::string& s) {
    if (s == "table") return ls::Format::Table;
    if (s == "csv") return ls::Format::Csv;
    if (s == "markdown" || s == "md") return ls::Format::Markdown;
    if (s == "json") return ls::Format::Json;
    throw ls::Error("unknown format '" + s + "'; legal: table, csv, markdown, json");
}

ls::View parse_view(const std::string& s) {
    if (s == "matrix") return ls::View::Matrix;
    if (s == "registers" || s == "register") return ls::View::Registers;
    throw ls::Error("unknown view '" + s + "'; legal: matrix, registers");
}

ls::Operand parse_operand_or_throw(const std::string& s, const ls::Instruction& ins) {
    auto op = ls::parse_operand(s);
    if (!op) {
        std::string legal;
        for (auto o : ls::operands_of(ins)) legal += (legal.empty() ? "" : ", ") + std::string(ls::operand_name(o));
        throw ls::Error("unknown operand '" + s + "'; legal for " + ins.mnemonic + ": " + legal);
    }
    return *op;
}

Resolved resolve(const Options& o) {
    const ls::Catalog& cat = catalog(o);
    const ls::Target& t = cat.find_target(o.arch);
    int implied_wave = 0;
    const ls::Instruction& ins = cat.find_instruction(t, o.instruction, &implied_wave);
    ls::Modifiers m = o.mods;
    if (implied_wave) {
        if (m.wave >= 0 && m.wave != implied_wave)
            throw ls::Error("--wave " + std::to_string(m.wave) + " contradicts the builtin name " + o.instruction +
                            " (wave" + std::to_string(implied_wave) + ")");
        m.wave = implied_wave;
    }
    Resolved r{&t, &ins, {}};
    r.query.ins = &ins;
    r.query.target = &t;
    r.query.mods = ls::resolve_modifiers(ins, t, m);
    return r;
}

int emit(const Options& o, const std::string& text) {
    if (o.out.empty() || o.out == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    fs::path target(o.out);
    fs::path tmp = target;
    tmp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream f(tmp, std::ios::binary);
        if (!f) throw ls::Error("cannot write '" + o.out + "': the directory does not exist or is not writable");
        f << text;
        if (!f.flush()) {
            std::error_code ec;
            fs::remove(tmp, ec);
            throw ls::Error("cannot write '" + o.out + "': write failed (disk full?)");
        }
    }
    std::error_code ec;
    fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw ls::Error("cannot write '" + o.out + "': " + ec.message());
    }
    return 0;
}

void add_target_options(CLI::App* sub, Options& o, bool with_operand) {
    sub->add_option("-a,--arch", o.arch,
                     "architecture: family (cdna1..cdna4, rdna3, rdna3.5, rdna4, ampere, ada, hopper), gfx or sm id "
                     "(gfx942, sm_90) or product (mi300x, h100)")
        ->capture_default_str();
    sub->add_option("-i,--instruction", o.instruction,
                    "ISA mnemonic (either spelling) or builtin name; NVIDIA: PTX spelling or short name; case-insensitive")
        ->capture_default_str();
    if (with_operand)
        sub->add_option("-o,--operand", o.operand, "operand: A, B, C, D, K (sparse index), SA, SB (scales); layout: all")
            ->capture_default_str();
    sub->add_option("--cbsz", o.mods.cbsz, "CBSZ: A broadcast size (MFMA), A format (mfma_scale), index-set gate (SMFMAC)");
    sub->add_option("--abid", o.mods.abid, "ABID: broadcast block (MFMA), sparse index set (SMFMAC)");
    sub->add_option("--blgp", o.mods.blgp, "BLGP: B lane-group pattern 0-7 (MFMA), B format (mfma_scale), f64 negation");
    sub->add_option("--opsel", o.mods.opsel,
                    "OPSEL as encoded: 4 = op_sel:[0,0,1] (RDNA3 16-bit C/D high half), index_key (RDNA4 SWMMAC), "
                    "scale byte (mfma_scale)");
    sub->add_option("--opsel-a", o.mods.opsel_a, "mfma_scale: byte of the A-scale VGPR (0-3)");
    sub->add_option("--opsel-b", o.mods.opsel_b, "mfma_scale: byte of the B-scale VGPR (0-3)");
    sub->add_option("-w,--wave", o.mods.wave, "wave size on RDNA: 32 (default) or 64");
    sub->add_option("--selector", o.mods.selector, "NVIDIA mma.sp: sparsity selector (k16: 0-3, k32: 0-1)");
    sub->add_option("-f,--format", o.format, "output: table, csv, markdown, json")->capture_default_str();
    sub->add_option("--out", o.out, "write to this file instead of stdout");
}

}  // namespace lscli
