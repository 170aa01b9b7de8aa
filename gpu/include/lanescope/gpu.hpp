// lanescope GPU backend: checks the catalog's layouts against a device (an AMD
// GPU through the HIP runtime, or the software device that executes the probe
// with the catalog's semantics) and against the real AMD compiler.
//
//   lanescope::gpu::SoftwareDevice dev;                      // or HipDevice
//   auto report = lanescope::gpu::verify(ins, target, mods, dev);
//   if (!report.passed) for (auto& m : report.mismatches) puts(m.text().c_str());
//
// The probe (which values go into which registers, and how D's registers are
// read back) is the same code for every device; only `Device::run` differs.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace lanescope::gpu {

// The 32-bit registers of one operand for every lane: word(reg, lane).
struct RegisterFile {
    int lanes = 0, regs = 0;
    std::vector<uint32_t> words;  // lane-major: lane * regs + reg (one lane's vector is contiguous)
    RegisterFile() = default;
    RegisterFile(int lanes_, int regs_) : lanes(lanes_), regs(regs_), words(size_t(lanes_) * regs_, 0u) {}
    uint32_t& at(int reg, int lane) { return words[size_t(lane) * regs + reg]; }
    uint32_t at(int reg, int lane) const { return words[size_t(lane) * regs + reg]; }
};

// One execution of the instruction: the input registers (A, B, C, and K / SA /
// SB where the instruction has them) and what D must look like in size.
struct ProbeLaunch {
    const Instruction* ins = nullptr;
    const Target* target = nullptr;
    ResolvedModifiers mods;
    std::vector<std::pair<Operand, RegisterFile>> inputs;
    int d_regs = 0, lanes = 64;
    // ldmatrix / stmatrix: the 16-byte rows in shared memory (4-byte words) and
    // the byte offset each of the 32 lanes supplies as its row address. For
    // stmatrix `run` returns the rows after the store, as RegisterFile(1, words).
    std::vector<uint32_t> shared_rows, lane_address;
    const RegisterFile& input(Operand op) const;
};

// Executes probes. Everything but `run` is shared by all devices.
class Device {
public:
    virtual ~Device() = default;
    virtual std::string name() const = 0;
    // Whether the device can run `ins` on `t` (false + reason if not).
    virtual bool supports(const Instruction& ins, const Target& t, std::string* why) const = 0;
    // Returns D's registers; throws lanescope::Error on failure.
    virtual RegisterFile run(const ProbeLaunch& launch) = 0;
    // One line: how probe kernels are compiled on this device ("" when not at all).
    virtual std::string toolchain() const { return ""; }
};

// Executes a probe with the catalog's semantics: gathers A/B/C (K, SA, SB) from
// the registers through core's layouts, multiplies in the declared types, and
// scatters D through core's D layout.
class SoftwareDevice : public Device {
public:
    std::string name() const override { return "software device (catalog semantics)"; }
    bool supports(const Instruction&, const Target&, std::string*) const override { return true; }
    RegisterFile run(const ProbeLaunch& launch) override;

private:
    struct Cache;  // core's layouts of the instruction last run
    std::shared_ptr<Cache> cache_;
};

// An AMD GPU through the HIP runtime, loaded at run time with dlopen (no link
// dependency). `open` returns nullptr and sets *why ("no AMD GPU found: ...")
// when there is no runtime or no device.
class HipDevice : public Device {
public:
    static std::unique_ptr<HipDevice> open(std::string* why);
    ~HipDevice() override;
    std::string name() const override;
    bool supports(const Instruction& ins, const Target& t, std::string* why) const override;
    RegisterFile run(const ProbeLaunch& launch) override;
    std::string toolchain() const override;  // which compiler, and why earlier candidates were skipped
    const std::string& gfx() const { return gfx_; }

private:
    HipDevice() = default;
    struct Api;
    std::unique_ptr<Api> api_;
    std::string gfx_, device_name_;
};

// The compiler for HIP probe kernels, found in this order (the first one that
// exists and knows the GPU's gfx target wins):
//   1. $LANESCOPE_HIP_CLANG (used as given)
//   2. $HIP_PATH/llvm/bin/clang++, $HIP_PATH/../llvm/bin/clang++
//   3. $ROCM_PATH/llvm/bin/clang++
//   4. `hipconfig --hipclangpath`/clang++ (hipconfig on PATH or in $ROCM_PATH/bin)
//   5. /opt/rocm/llvm/bin/clang++
//   6. clang++-22 on PATH (Debian's LLVM 22: every AMD target but gfx940/gfx941)
//   7. clang++-19 on PATH (Debian's; gfx940/gfx941, not gfx950)
struct HipCompilerChoice {
    std::string path;                   // empty when none was found
    std::string origin;                 // "ROCm's clang from ROCM_PATH"
    std::vector<std::string> skipped;   // "clang++-19: does not know gfx950", in search order
    std::string line() const;           // one line for the user
};
struct HipCompilerSearch {
    std::vector<std::pair<std::string, std::string>> env;  // the variables consulted (empty: the process's)
    bool use_process_env = true;
    std::string default_rocm = "/opt/rocm";
    // Whether `compiler` can compile for `gfx` (default: compile an empty
    // amdgcn file with -mcpu=gfx).
    std::function<bool(const std::string& compiler, const std::string& gfx)> knows;
};
HipCompilerChoice find_hip_compiler(const std::string& gfx, const HipCompilerSearch& search = {});

// An NVIDIA GPU through the CUDA driver API (libcuda.so.1, loaded with dlopen:
// no link dependency). Probe kernels are PTX generated from the catalog row and
// compiled by the driver's JIT (cuModuleLoadDataEx, its error log kept).
// `open` returns nullptr and sets *why ("no NVIDIA GPU found: ...").
class CudaDevice : public Device {
public:
    static std::unique_ptr<CudaDevice> open(std::string* why);
    ~CudaDevice() override;
    std::string name() const override;  // "NVIDIA H200 (sm_90, CUDA driver 13.0)"
    bool supports(const Instruction& ins, const Target& t, std::string* why) const override;
    RegisterFile run(const ProbeLaunch& launch) override;
    std::string toolchain() const override;  // the driver's PTX JIT
    int sm() const { return sm_; }                  // 90 for compute capability 9.0
    int driver_version() const { return driver_; }  // cuDriverGetVersion: 13000 for 13.0
    // Compiles a PTX module with the driver's JIT and runs its entry
    // "lanescope_probe(in, out)" on one block of `threads`; throws Error with
    // the JIT's log when the PTX is rejected.
    std::vector<uint32_t> run_ptx(const std::string& ptx, const std::vector<uint32_t>& in, size_t out_words,
                                  int threads);
    // A 2-D tensor map (cuTensorMapEncodeTiled) over `tensor` (width x height elements of
    // element_bytes, rows dense), box box_inner x box_outer, `swizzle` CUtensorMapSwizzle's value.
    struct TensorMap2D {
        int element_bytes = 2, width = 0, height = 0, box_inner = 0, box_outer = 0, swizzle = 0;
        std::vector<uint8_t> tensor;
    };
    // As run_ptx, the kernel taking a third parameter: the global address of that tensor map.
    // Throws Error with the driver's reason when the map cannot be encoded.
    std::vector<uint32_t> run_ptx_tma(const std::string& ptx, const std::vector<uint32_t>& in, size_t out_words,
                                      int threads, const TensorMap2D& map);

private:
    CudaDevice() = default;
    struct Api;
    struct Launcher;
    std::unique_ptr<Api> api_;
    std::string device_name_;
    int sm_ = 0, driver_ = 0;
};

// "software", "hip", "cuda" or "auto" (an AMD GPU through HIP, else an NVIDIA
// GPU through CUDA). Returns nullptr and *why when none is available.
std::unique_ptr<Device> make_device(const std::string& kind, std::string* why);

// The PTX probe kernel for an NVIDIA instruction (mma.sync, mma.sp, ldmatrix,
// stmatrix, wgmma.mma_async): the catalog's spelling with the catalog's
// register counts. Throws Error for an instruction that is not NVIDIA's.
std::string ptx_probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods);

// Blackwell (no Blackwell GPU was available to lanescope: these say so, and ship the probes).
// Why `ins` on `t` needs a Blackwell GPU that a GPU of sm_<device_sm> is not, in one line
// ("Blackwell entries need a Blackwell GPU: ..."); "" for entries that are not Blackwell's.
std::string blackwell_need(const Instruction& ins, const Target& t, int device_sm);
// The tcgen05.st/ld round trip of tagged values a B200 would run for a tcgen05.ld or
// tcgen05.st row (PTX for t, entry "lanescope_probe", 128 threads): store the thread's tagged
// registers with the row's shape, read the cells back as 32x32b (thread = TMEM lane, register =
// column) and with the row's shape. Throws Error for other rows.
std::string tcgen05_ldst_probe_source(const Instruction& ins, const Target& t);
// The one-hot scale-factor probe an RTX 50 would run for a dense block-scaled mma.sync row of
// sm_120 (PTX for t, a warp): A, B, C and each thread's SFA / SFB word from the input, the
// {byte-id, thread-id} selectors of `mods` (sf_byte_a, sf_thread_a, ...), D to the output.
std::string mma_block_scale_probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods);
// The one-hot D probe a B200 would run for tcgen05.mma.cta_group::1.kind::f16 (M = 64, 128: D layouts D
// and F): A and B copied from the input (their shared-memory images, as the canonical layouts of
// smem_operand place them) into shared memory, the MMA issued by thread 0 with D = A * B, committed to
// an mbarrier, and D read back by the four warps as 32x32b (thread = TMEM lane, register = column).
std::string tcgen05_mma_probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods);

class CudaDevice;
struct Report;
// The host side of that round trip on a Blackwell datacenter GPU: launches the probe with tagged
// registers, compares every TMEM cell (32x32b read-back) with core's claim of where each register
// went, and every round-tripped register with what was stored. Throws Error with blackwell_need's
// line on any other GPU (none was available: this is compiled, never run here).
Report verify_tcgen05_ldst(CudaDevice& dev, const Instruction& ins, const Target& t);
// The host side of the one-hot tcgen05.mma probe (kind::f16, f32 D, M = 64 / 128): A and B images
// placed by core's smem_operand, D[m][n] = (m + 1) + 256 (n + 1), every TMEM cell compared with
// core's D layout in Tensor Memory. Throws Error with blackwell_need's line on any other GPU.
Report verify_tcgen05_mma(CudaDevice& dev, const Instruction& ins, const Target& t, const ResolvedModifiers& mods);

// ----------------------------------------------------------------- probe ---

// The layout the probe uses to encode inputs and decode D: the claim under
// test. By default core's; tests substitute a corrupted one.
struct ClaimedLayout {
    Operand operand = Operand::A;
    int blocks = 1, rows = 0, cols = 0, lanes = 64, regs = 0;
    ElemType type = ElemType::F32;
    std::vector<Entry> entries;
};
ClaimedLayout claimed_from_core(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods);
// The operands a probe feeds and reads: core's, plus wgmma's B, which lives in
// shared memory rather than registers.
std::vector<Operand> probe_operands(const Instruction& ins);
// The layout the device reads `op` with: core's, or for wgmma's B the
// shared-memory image behind its descriptor (one "lane", 32-bit words as
// registers; K-major, no swizzle).
ClaimedLayout probe_layout(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods);
using LayoutSource = std::function<ClaimedLayout(Operand)>;

struct Mismatch {
    std::string probe;       // which probe found it: "C", "A", "B", "K", "SA", "SB"
    Element d;               // the D element whose slot disagreed
    Location at;             // where the claimed D layout puts it
    double expected = 0, found = 0;
    std::string explanation; // what the device did instead, in element terms
    std::string text() const;
};

// A cell of one operand that the probe shows to be misplaced (for the app).
struct CellIssue {
    Operand operand;
    Element element;
    std::string note;  // what the hardware did
};

struct Report {
    std::string instruction, target, modifiers, device;
    bool passed = false;
    int probes = 0;                    // device executions
    long long slots_checked = 0;       // D slots compared over all probes
    long long mismatch_count = 0;
    std::vector<Mismatch> mismatches;  // the first ones of each probe series (up to max_mismatches each)
    std::vector<Operand> checked;      // operands whose every cell the probes exercised
    std::vector<CellIssue> issues;     // cells found wrong
    double seconds = 0;
    std::string summary() const;       // "PASS v_mfma_... on gfx942 (12 probes, 3072 slots)"
};

struct VerifyOptions {
    LayoutSource claimed;   // empty: core's layouts
    size_t max_mismatches = 16;          // per probe series
    bool stop_at_first_failure = false;  // skip the K / scale series once C, A or B disagreed
};
Report verify(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, Device& dev,
              const VerifyOptions& opts = {});

// The probe kernel for one instruction: valid HIP (a __global__ kernel) and,
// without __HIP__, plain C for the amdgcn target (the conformance check compiles
// that form). Registers are read from `in` operand after operand (A, B, C, then
// K / SA / SB), lane-major, and D is stored to `out` lane-major.
std::string probe_prelude();
std::string probe_function(const Instruction& ins, const Target& t, const ResolvedModifiers& mods,
                           const std::string& name);
std::string probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods);

// ----------------------------------------------------------- conformance ---

struct ConformanceOptions {
    std::vector<std::string> targets;  // empty: gfx908 gfx90a gfx942 gfx950 gfx1100 gfx1200 gfx1250; "all": every AMD target
    // Empty: each target's compiler witness (Target::compiler: clang-22, or
    // clang-19 for gfx940/gfx941) with its llvm-objdump; where clang-22 is not
    // installed, clang-19 if it knows the target. A given --clang is used for
    // every target (and --objdump, when empty, follows its version suffix).
    std::string clang, objdump;
    int jobs = 2;
    bool keep = false;                  // keep the work directory
    std::string workdir;                // empty: a fresh temp dir
    bool verbose = false;
    // Each compiler or disassembler run is killed after this many seconds (a
    // hanging tool is a failure with that reason, not a wait).
    double tool_seconds = 300;
};

// The signal (SIGINT, SIGTERM, SIGHUP) that stopped the last run_conformance
// (or HIP probe compile), 0 if none: run_conformance then threw Error after
// removing its temporary files, and the caller ends with that signal.
int interrupted_signal();

struct ConformanceCheck {
    std::string target, builtin, mnemonic, modifiers;
    bool negative = false;  // must not compile
    bool passed = false;
    std::string detail;     // why it failed, or the disassembly line
};

struct TargetSummary {
    std::string target;
    std::string compiler, objdump;           // what judged this target ("" when skipped)
    bool skipped = false;
    bool no_compiler = false;                // skipped because its witness is not installed here (not a failure)
    std::string skip_reason;
    int builtins = 0, builtins_passed = 0;   // positive cases (builtin x wave x modifiers)
    int negatives = 0, negatives_passed = 0; // must-not-compile cases
};

struct ConformanceResult {
    std::vector<TargetSummary> targets;
    std::vector<ConformanceCheck> checks;
    bool passed() const;
    int failures() const;
};

// One line of llvm-objdump output (mnemonic, operands, "// ADDR: DWORDS") judged
// against the catalog row: what disagrees, in words (empty: it conforms). The
// opcode is read from the matrix word (the last instruction word; earlier ones
// are prefixes such as v_mfma_scale_*'s ld_scale), with the family's opcode width.
std::vector<std::string> judge_disassembly(const Instruction& ins, const Target& t, const ResolvedModifiers& mods,
                                           const std::string& line);

// Compiles every catalog builtin for each target with the real compiler,
// disassembles, and compares mnemonic, opcode, modifier fields and register
// counts with the catalog. Progress and the per-target counts go to `log`.
ConformanceResult run_conformance(const Catalog& cat, const ConformanceOptions& opts, std::ostream& log);

// ptxas as the NVIDIA witness (conformance --ptxas): every PTX spelling of the
// catalog (every NVIDIA row and alias, every wgmma N, every Blackwell template's
// spelling) is assembled for each NVIDIA target, one ptxas call per target; each
// must assemble exactly where claimed_on() says and be refused elsewhere. Without
// a ptxas the targets are skipped as "no compiler here" (said once; not a failure).
struct PtxasConformanceOptions {
    std::vector<std::string> targets;  // empty: every NVIDIA target lanescope knows
    std::string ptxas;                 // empty: $LANESCOPE_PTXAS, /usr/local/cuda/bin/ptxas, then PATH
    std::string workdir;               // empty: a fresh temp dir
    bool keep = false;
    bool verbose = false;
};
ConformanceResult run_ptxas_conformance(const Catalog& cat, const PtxasConformanceOptions& opts, std::ostream& log);

}  // namespace lanescope::gpu

namespace lanescope::gpu {

// A deliberately wrong claim, for demonstrations and tests: the probe encodes
// and decodes with it while the device keeps the true layout.
struct Corruption {
    enum Kind { SwapLanes, ShiftRegisters } kind = SwapLanes;
    Operand operand = Operand::A;
    int lane_a = 0, lane_b = 1;  // SwapLanes
};
// "A:swap-lanes:0:1" or "D:shift-regs"; throws Error naming the legal forms.
Corruption parse_corruption(const std::string& text);
std::string describe(const Corruption& c);
// Core's layouts, with `c` applied to one operand.
LayoutSource corrupted_layouts(const Instruction& ins, const Target& t, const ResolvedModifiers& mods,
                               const Corruption& c);
// Whether applying `c` changes which elements the operand's slots hold.
bool changes_layout(const ClaimedLayout& original, const Corruption& c);
// "" where `c` changes the operand's claim; otherwise why it moves nothing
// (replicated lanes, one register) and a corruption that would move an element
// of this operand, or that none can: a corruption that moves nothing is no test.
std::string why_nothing_moves(const ClaimedLayout& original, const Corruption& c);
ClaimedLayout apply(const ClaimedLayout& original, const Corruption& c);

}  // namespace lanescope::gpu

#include "lanescope/smem.hpp"

namespace lanescope::gpu {

// ------------------------------------------------ shared-memory probes ---
// `verify --device cuda --smem`: the hardware reports where it reads each element of a wgmma
// operand in shared memory (B with A = [I16; 0] in registers, so D[k][n] = B[k][n]; A in the SS
// form with B = I16, so D[m][k] = A[m][k]) out of a buffer whose every halfword holds a distinct
// f16 tag, and where a TMA tiled copy (cp.async.bulk.tensor.2d, a tensor map from
// cuTensorMapEncodeTiled) puts each element of its box from a tagged global tensor. Both are
// compared element by element with core's claims (smem_operand, tma_entries) at the buffer's
// absolute shared-memory address.
struct SmemCase {
    enum Kind { WgmmaB, WgmmaA, Tma } kind = WgmmaB;
    std::string name;         // "K 128B, base offset 3"
    std::string instruction;  // WgmmaB / WgmmaA: the wgmma row (f16: the transpose exists for 16-bit types)
    Modifiers mods;           // major, swizzle, lbo, sbo, base_offset; smem_address relative to the buffer
    std::uint64_t raw_bits = 0;  // bits the hardware ignores, ORed into the descriptor: a raw-descriptor case
    TmaBox box;               // Tma: smem_address relative to the buffer
};
// Every swizzle, K- and MN-major, B and SS A, CUTLASS's and other LBO/SBO, starts off the swizzle
// period, base offsets, ignored LBOs, raw descriptors with ignored bits set; TMA boxes at every swizzle.
std::vector<SmemCase> smem_cases();

// A deliberately wrong shared-memory claim (`--corrupt` with --smem): the probe must catch it.
enum class SmemCorruption { None, NoSwizzle, BaseOffsetAdded, StartAnchored, SwapStrides, NoPadding };
SmemCorruption parse_smem_corruption(const std::string& text);  // "no-swizzle", ...; throws listing the legal ones
std::string describe(SmemCorruption c);

struct SmemCaseResult {
    SmemCase c;
    std::string descriptor;         // the 64-bit value the probe used ("" for TMA)
    long long elements = 0, equal = 0;
    std::string skipped;            // why it was not run (the corruption moves nothing here, ...)
    std::vector<std::string> mismatches;  // the first few, in words
};
struct SmemReport {
    std::string device;
    std::uint32_t buffer_address = 0;  // the probe buffer's shared-memory address
    SmemCorruption corruption = SmemCorruption::None;
    std::vector<SmemCaseResult> cases;
    long long elements = 0, equal = 0;
    int run = 0, failed = 0, skipped = 0;
    bool passed() const { return run > 0 && failed == 0; }
};

// The claim for one element of a case (core's, or corrupted): (row, col) of the operand / box ->
// absolute shared-memory byte address. Exposed so that tests can hold it against independent formulas.
struct SmemClaim {
    int rows = 0, cols = 0;
    std::vector<std::uint32_t> address;  // row-major; UINT32_MAX where the corruption cannot say
    std::uint64_t descriptor = 0;
    std::string why_unmoved;             // the corruption moves no element here (and why)
};
SmemClaim smem_claim(const SmemCase& c, std::uint32_t buffer_address, SmemCorruption corruption = SmemCorruption::None);

// The PTX module of each probe kind (entry "lanescope_probe"): assembled by ptxas in the tests.
std::string smem_probe_ptx(SmemCase::Kind kind, const Instruction& ins);
SmemReport verify_smem(CudaDevice& dev, const std::vector<SmemCase>& cases, SmemCorruption corruption = SmemCorruption::None,
                       size_t max_mismatches = 4);
std::string render_smem_report(const SmemReport& r, bool json);

}  // namespace lanescope::gpu
