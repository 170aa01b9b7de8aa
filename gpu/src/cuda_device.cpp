// CudaDevice: the CUDA driver API (libcuda.so.1) loaded with dlopen, so that
// nothing links against it and a machine without it says so plainly. Probe
// kernels are PTX text generated from the catalog row (gpu/src/ptx.cpp) and
// compiled by the driver's JIT; no CUDA toolkit is needed where it runs.
#include "lanescope/gpu.hpp"

#include "nvidia.hpp"
#include "ptx.hpp"

#include "dynlib.hpp"

#include <dlfcn.h>
#include <map>

namespace lanescope::gpu {

using detail::bind;
using detail::NvClass;

namespace {
// Values from the driver API's cuda.h (stable ABI).
constexpr int kAttrCcMajor = 75, kAttrCcMinor = 76;
constexpr int kJitInfoLog = 3, kJitInfoLogSize = 4, kJitErrorLog = 5, kJitErrorLogSize = 6;
}  // namespace

struct CudaDevice::Api {
    void* lib = nullptr;
    int (*Init)(unsigned) = nullptr;
    int (*DriverGetVersion)(int*) = nullptr;
    int (*DeviceGetCount)(int*) = nullptr;
    int (*DeviceGet)(int*, int) = nullptr;
    int (*DeviceGetName)(char*, int, int) = nullptr;
    int (*DeviceGetAttribute)(int*, int, int) = nullptr;
    int (*PrimaryCtxRetain)(void**, int) = nullptr;
    int (*CtxSetCurrent)(void*) = nullptr;
    int (*CtxSynchronize)() = nullptr;
    int (*ModuleLoadDataEx)(void**, const void*, unsigned, int*, void**) = nullptr;
    int (*ModuleUnload)(void*) = nullptr;
    int (*ModuleGetFunction)(void**, void*, const char*) = nullptr;
    int (*MemAlloc)(unsigned long long*, size_t) = nullptr;
    int (*MemFree)(unsigned long long) = nullptr;
    int (*MemcpyHtoD)(unsigned long long, const void*, size_t) = nullptr;
    int (*MemcpyDtoH)(void*, unsigned long long, size_t) = nullptr;
    int (*LaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                        void**) = nullptr;
    int (*GetErrorName)(int, const char**) = nullptr;
    int (*GetErrorString)(int, const char**) = nullptr;
    // cuTensorMapEncodeTiled (CUDA 12+): optional, TMA probes only.
    int (*TensorMapEncodeTiled)(void*, int, unsigned, void*, const unsigned long long*, const unsigned long long*,
                                const unsigned*, const unsigned*, int, int, int, int) = nullptr;
    int device = 0;
    void* ctx = nullptr;
    std::map<std::string, std::pair<void*, void*>> kernels;  // PTX -> (module, function)

    std::string error(const std::string& what, int rc) const {
        const char* name = nullptr;
        const char* text = nullptr;
        if (GetErrorName) GetErrorName(rc, &name);
        if (GetErrorString) GetErrorString(rc, &text);
        return what + " failed: " + (name ? name : "CUDA error") + (text ? std::string(" (") + text + ")" : "") +
               " [" + std::to_string(rc) + "]";
    }
    void check(const std::string& what, int rc) const {
        if (rc != 0) throw Error(error(what, rc));
    }
};

std::unique_ptr<CudaDevice> CudaDevice::open(std::string* why) {
    auto fail = [&](const std::string& reason) {
        if (why) *why = "no NVIDIA GPU found: " + reason;
        return nullptr;
    };
    std::string errors;
    void* lib = detail::open_first_library({"libcuda.so.1", "libcuda.so"}, &errors);
    if (!lib)
        return fail("the CUDA driver library (libcuda.so.1) is not installed or cannot be loaded" +
                    (errors.empty() ? std::string() : " (" + errors + ")"));
    std::unique_ptr<CudaDevice> dev(new CudaDevice());
    dev->api_ = std::make_unique<Api>();
    Api& a = *dev->api_;
    a.lib = lib;
    const bool ok = bind(lib, "cuInit", a.Init) && bind(lib, "cuDriverGetVersion", a.DriverGetVersion) &&
                    bind(lib, "cuDeviceGetCount", a.DeviceGetCount) && bind(lib, "cuDeviceGet", a.DeviceGet) &&
                    bind(lib, "cuDeviceGetName", a.DeviceGetName) &&
                    bind(lib, "cuDeviceGetAttribute", a.DeviceGetAttribute) &&
                    bind(lib, "cuDevicePrimaryCtxRetain", a.PrimaryCtxRetain) &&
                    bind(lib, "cuCtxSetCurrent", a.CtxSetCurrent) && bind(lib, "cuCtxSynchronize", a.CtxSynchronize) &&
                    bind(lib, "cuModuleLoadDataEx", a.ModuleLoadDataEx) && bind(lib, "cuModuleUnload", a.ModuleUnload) &&
                    bind(lib, "cuModuleGetFunction", a.ModuleGetFunction) && bind(lib, "cuMemAlloc_v2", a.MemAlloc) &&
                    bind(lib, "cuMemFree_v2", a.MemFree) && bind(lib, "cuMemcpyHtoD_v2", a.MemcpyHtoD) &&
                    bind(lib, "cuMemcpyDtoH_v2", a.MemcpyDtoH) && bind(lib, "cuLaunchKernel", a.LaunchKernel) &&
                    bind(lib, "cuGetErrorName", a.GetErrorName) && bind(lib, "cuGetErrorString", a.GetErrorString);
    if (!ok) return fail("the CUDA driver library lacks a function lanescope needs (too old?)");
    if (!bind(lib, "cuTensorMapEncodeTiled", a.TensorMapEncodeTiled)) a.TensorMapEncodeTiled = nullptr;
    int rc = a.Init(0);
    if (rc != 0) return fail("the CUDA driver reports " + a.error("cuInit", rc));
    a.DriverGetVersion(&dev->driver_);
    int count = 0;
    rc = a.DeviceGetCount(&count);
    if (rc != 0) return fail(a.error("cuDeviceGetCount", rc));
    if (count == 0) return fail("the CUDA driver sees no device");
    if ((rc = a.DeviceGet(&a.device, 0)) != 0) return fail(a.error("cuDeviceGet", rc));
    char name[256] = {};
    a.DeviceGetName(name, sizeof name - 1, a.device);
    int major = 0, minor = 0;
    a.DeviceGetAttribute(&major, kAttrCcMajor, a.device);
    a.DeviceGetAttribute(&minor, kAttrCcMinor, a.device);
    dev->sm_ = major * 10 + minor;
    if ((rc = a.PrimaryCtxRetain(&a.ctx, a.device)) != 0) return fail(a.error("cuDevicePrimaryCtxRetain", rc));
    if ((rc = a.CtxSetCurrent(a.ctx)) != 0) return fail(a.error("cuCtxSetCurrent", rc));
    dev->device_name_ = std::string(name) + " (sm_" + std::to_string(dev->sm_) + ", CUDA driver " +
                        std::to_string(dev->driver_ / 1000) + "." + std::to_string(dev->driver_ % 1000 / 10) + ")";
    return dev;
}

CudaDevice::~CudaDevice() {
    if (!api_) return;
    for (auto& k : api_->kernels) api_->ModuleUnload(k.second.first);
    // The primary context and the library stay: the process is ending, and
    // unloading a driver library at exit gains nothing.
}

std::string CudaDevice::name() const { return device_name_; }

std::string CudaDevice::toolchain() const {
    return "probe kernels: PTX generated from the catalog, compiled by the CUDA driver's JIT (cuModuleLoadDataEx)";
}

namespace {
// Blackwell rows whose probes are generated (gpu.hpp) but not run here even on a Blackwell GPU.
bool is_blackwell_probe_only(const Instruction& ins) {
    return ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::Tcgen05LdSt || ins.kind == LayoutKind::Tcgen05Cp ||
           ins.kind == LayoutKind::MmaBlockScale;
}
}  // namespace

bool CudaDevice::supports(const Instruction& ins, const Target& t, std::string* why) const {
    const auto s = detail::nv_spelling(ins);
    const int want = detail::sm_number(t.gfx);
    std::string reason = blackwell_need(ins, t, sm_);
    if (!reason.empty()) {
    } else if (ins.kind == LayoutKind::Tcgen05LdSt && ins.mnemonic.find(".red") == std::string::npos) {
        // Its tcgen05.st/ld round trip runs here (verify_tcgen05_ldst): a Blackwell GPU of this target.
    } else if (ins.kind == LayoutKind::Tcgen05Mma && ins.mma_kind == "f16" && ins.cta_group == 1 && !ins.ws &&
               !ins.tcgen05_sparse && !ins.a_in_tmem && (ins.m == 64 || ins.m == 128) && elem_bits(ins.d_type()) == 32) {
        // Its one-hot D probe runs here (verify_tcgen05_mma): a Blackwell GPU of this target.
    } else if (is_blackwell_probe_only(ins)) {
        reason = ins.mnemonic + ": its Blackwell probe is generated and assembled by ptxas in lanescope's tests; running it "
                               "on this GPU is not wired yet";
    } else if (!s || want == 0) reason = ins.mnemonic + " is not an NVIDIA instruction";
    else if (want > sm_) reason = "the GPU here is sm_" + std::to_string(sm_) + "; it cannot run code for " + t.gfx;
    else if (s->cls == NvClass::Wgmma && sm_ != 90)
        reason = "wgmma exists only on sm_90a; the GPU here is sm_" + std::to_string(sm_);
    if (reason.empty()) return true;
    if (why) *why = reason;
    return false;
}

// The entry "lanescope_probe" of a PTX module (JIT-compiled once per text) and one block's launch.
struct CudaDevice::Launcher {
    static void* function(Api& a, const std::string& ptx) {
        auto it = a.kernels.find(ptx);
        if (it != a.kernels.end()) return it->second.second;
        std::string error_log(16384, '\0'), info_log(16384, '\0');
        int options[] = {kJitErrorLog, kJitErrorLogSize, kJitInfoLog, kJitInfoLogSize};
        void* values[] = {&error_log[0], reinterpret_cast<void*>(error_log.size() - 1), &info_log[0],
                          reinterpret_cast<void*>(info_log.size() - 1)};
        void* module = nullptr;
        const int rc = a.ModuleLoadDataEx(&module, ptx.c_str(), 4, options, values);
        if (rc != 0) {
            error_log.resize(error_log.find('\0'));
            throw Error(a.error("the driver's JIT (cuModuleLoadDataEx)", rc) + (error_log.empty() ? "" : ": " + error_log));
        }
        void* fn = nullptr;
        a.check("cuModuleGetFunction", a.ModuleGetFunction(&fn, module, "lanescope_probe"));
        a.kernels.emplace(ptx, std::make_pair(module, fn));
        return fn;
    }
    // Copies `in` to the device, launches one block with (in, out[, extra]) and copies `out` back.
    static std::vector<uint32_t> launch(Api& a, void* fn, const std::vector<uint32_t>& in, size_t out_words, int threads,
                                        const unsigned long long* extra) {
        std::vector<uint32_t> out(out_words, 0);
        unsigned long long din = 0, dout = 0;
        a.check("cuMemAlloc", a.MemAlloc(&din, std::max<size_t>(4, in.size() * 4)));
        int rc = a.MemAlloc(&dout, std::max<size_t>(4, out.size() * 4));
        if (rc == 0 && !in.empty()) rc = a.MemcpyHtoD(din, in.data(), in.size() * 4);
        unsigned long long third = extra ? *extra : 0;
        void* args[] = {&din, &dout, &third};
        if (rc == 0) rc = a.LaunchKernel(fn, 1, 1, 1, unsigned(threads), 1, 1, 0, nullptr, args, nullptr);
        if (rc == 0) rc = a.CtxSynchronize();
        if (rc == 0 && !out.empty()) rc = a.MemcpyDtoH(out.data(), dout, out.size() * 4);
        a.MemFree(din);
        if (dout) a.MemFree(dout);
        a.check("running the probe kernel", rc);
        return out;
    }
};

std::vector<uint32_t> CudaDevice::run_ptx(const std::string& ptx, const std::vector<uint32_t>& in, size_t out_words,
                                          int threads) {
    Api& a = *api_;
    a.check("cuCtxSetCurrent", a.CtxSetCurrent(a.ctx));
    return Launcher::launch(a, Launcher::function(a, ptx), in, out_words, threads, nullptr);
}

std::vector<uint32_t> CudaDevice::run_ptx_tma(const std::string& ptx, const std::vector<uint32_t>& in, size_t out_words,
                                              int threads, const TensorMap2D& m) {
    Api& a = *api_;
    if (!a.TensorMapEncodeTiled)
        throw Error("this CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or later is needed for TMA)");
    a.check("cuCtxSetCurrent", a.CtxSetCurrent(a.ctx));
    void* fn = Launcher::function(a, ptx);
    const int type = m.element_bytes == 1 ? 0 : m.element_bytes == 2 ? 1 : 2;  // CU_TENSOR_MAP_DATA_TYPE_UINT8/16/32
    unsigned long long tensor = 0, map = 0;
    a.check("cuMemAlloc", a.MemAlloc(&tensor, std::max<size_t>(16, m.tensor.size())));
    int rc = a.MemcpyHtoD(tensor, m.tensor.data(), m.tensor.size());
    alignas(64) unsigned char encoded[128] = {};
    const unsigned long long dims[2] = {static_cast<unsigned long long>(m.width), static_cast<unsigned long long>(m.height)};
    const unsigned long long strides[1] = {static_cast<unsigned long long>(m.width) * m.element_bytes};
    const unsigned box[2] = {static_cast<unsigned>(m.box_inner), static_cast<unsigned>(m.box_outer)};
    const unsigned element_strides[2] = {1, 1};
    if (rc == 0) {
        rc = a.TensorMapEncodeTiled(encoded, type, 2, reinterpret_cast<void*>(tensor), dims, strides, box, element_strides,
                                    0 /*interleave none*/, m.swizzle, 0 /*L2 promotion none*/, 0 /*OOB fill none*/);
        if (rc != 0) {
            a.MemFree(tensor);
            throw Error(a.error("cuTensorMapEncodeTiled", rc));
        }
    }
    if (rc == 0) rc = a.MemAlloc(&map, sizeof encoded);
    if (rc == 0) rc = a.MemcpyHtoD(map, encoded, sizeof encoded);
    std::vector<uint32_t> out;
    try {
        if (rc == 0) out = Launcher::launch(a, fn, in, out_words, threads, &map);
    } catch (...) {
        a.MemFree(tensor);
        if (map) a.MemFree(map);
        throw;
    }
    a.MemFree(tensor);
    if (map) a.MemFree(map);
    a.check("preparing the TMA probe", rc);
    return out;
}

RegisterFile CudaDevice::run(const ProbeLaunch& p) {
    const auto s = detail::nv_spelling(*p.ins);
    if (!s) throw Error(p.ins->mnemonic + " is not an NVIDIA instruction; the CUDA device cannot run it");
    detail::PtxRegs regs;
    auto regs_of = [&](Operand op) {
        for (const auto& in : p.inputs)
            if (in.first == op) return in.second.regs;
        return 0;
    };
    regs.a = regs_of(Operand::A);
    regs.b = regs_of(Operand::B);
    regs.c = regs_of(Operand::C);
    regs.e = regs_of(Operand::K);
    regs.d = s->cls == NvClass::StMatrix ? regs_of(Operand::D) : p.d_regs;
    const detail::PtxKernel k =
        detail::ptx_kernel(p.ins->mnemonic, *s, detail::ptx_target(*s, *p.target), regs, detail::sparsity_selector(p.mods));
    std::vector<uint32_t> in(size_t(k.in_words), 0u);
    for (const detail::PtxSegment& seg : k.inputs) {
        const std::vector<uint32_t>* src = nullptr;
        if (seg.kind == detail::PtxSegment::Registers || (seg.kind == detail::PtxSegment::SharedImage && s->cls == NvClass::Wgmma))
            src = &p.input(seg.operand).words;
        else if (seg.kind == detail::PtxSegment::SharedImage)
            src = &p.shared_rows;
        else
            src = &p.lane_address;
        const size_t words = seg.kind == detail::PtxSegment::Registers ? size_t(seg.lanes) * seg.regs : size_t(seg.regs);
        if (src->size() != words)
            throw Error("internal: probe input for " + p.ins->mnemonic + " has " + std::to_string(src->size()) +
                        " words where the kernel expects " + std::to_string(words));
        std::copy(src->begin(), src->end(), in.begin() + seg.offset);
    }
    RegisterFile out(k.out_lanes, k.out_regs);
    out.words = run_ptx(k.text, in, out.words.size(), k.threads);
    return out;
}

}  // namespace lanescope::gpu
