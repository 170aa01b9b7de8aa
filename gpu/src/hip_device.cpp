// HipDevice: the HIP runtime loaded with dlopen, so that nothing links against
// it and a machine without it (or without an AMD GPU) says so plainly. The
// probe kernel is compiled at run time (clang++ -x hip; which clang:
// find_hip_compiler) for the device's gfx target and loaded as a code object;
// only the launch differs from the software device.
#include "lanescope/gpu.hpp"

#include "process.hpp"

#include <cstdlib>
#include <dirent.h>
#include "dynlib.hpp"

#include <dlfcn.h>
#include <fstream>
#include <map>
#include <sstream>

namespace lanescope::gpu {

using detail::bind;
using detail::run_process;

struct HipDevice::Api {
    void* lib = nullptr;
    int (*GetDeviceCount)(int*) = nullptr;
    const char* (*GetErrorString)(int) = nullptr;
    int (*ModuleLoad)(void**, const char*) = nullptr;
    int (*ModuleUnload)(void*) = nullptr;
    int (*ModuleGetFunction)(void**, void*, const char*) = nullptr;
    int (*Malloc)(void**, size_t) = nullptr;
    int (*Free)(void*) = nullptr;
    int (*MemcpyHtoD)(void*, void*, size_t) = nullptr;
    int (*MemcpyDtoH)(void*, void*, size_t) = nullptr;
    int (*ModuleLaunchKernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                              void**, void**) = nullptr;
    int (*DeviceSynchronize)() = nullptr;
    std::map<std::string, std::pair<void*, void*>> kernels;  // probe source -> (module, function)
    std::string workdir;
    HipCompilerChoice compiler;  // found when the device is opened

    std::string error(const char* what, int rc) const {
        return std::string(what) + " failed: " + (GetErrorString ? GetErrorString(rc) : "") + " (error " +
               std::to_string(rc) + ")";
    }
    void check(const char* what, int rc) const {
        if (rc != 0) throw Error(error(what, rc));
    }
};

namespace {


// gfx target of the first GPU agent, from the kernel driver's topology
// (gfx_target_version 90402 -> gfx942).
std::string detect_gfx() {
    const std::string root = "/sys/class/kfd/kfd/topology/nodes";
    DIR* d = opendir(root.c_str());
    if (!d) return "";
    std::string gfx;
    while (dirent* e = readdir(d)) {
        std::ifstream f(root + "/" + e->d_name + "/properties");
        std::string key;
        long long value = 0;
        while (f >> key >> value)
            if (key == "gfx_target_version" && value > 0) {
                const char* hex = "0123456789abcdef";
                gfx = "gfx" + std::to_string(value / 10000) + hex[(value / 100) % 100 % 16] + hex[value % 100 % 16];
                break;
            }
        if (!gfx.empty()) break;
    }
    closedir(d);
    return gfx;
}

}  // namespace

std::unique_ptr<HipDevice> HipDevice::open(std::string* why) {
    auto fail = [&](const std::string& reason) {
        if (why) *why = "no AMD GPU found: " + reason;
        return nullptr;
    };
    std::string errors;
    void* lib = detail::open_first_library({"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}, &errors);
    if (!lib)
        return fail("the HIP runtime (libamdhip64.so) is not installed or cannot be loaded" +
                    (errors.empty() ? std::string() : " (" + errors + ")"));
    std::unique_ptr<HipDevice> dev(new HipDevice());
    dev->api_ = std::make_unique<Api>();
    Api& a = *dev->api_;
    a.lib = lib;
    bool ok = bind(lib, "hipGetDeviceCount", a.GetDeviceCount) && bind(lib, "hipGetErrorString", a.GetErrorString) &&
              bind(lib, "hipModuleLoad", a.ModuleLoad) && bind(lib, "hipModuleUnload", a.ModuleUnload) &&
              bind(lib, "hipModuleGetFunction", a.ModuleGetFunction) && bind(lib, "hipMalloc", a.Malloc) &&
              bind(lib, "hipFree", a.Free) && bind(lib, "hipMemcpyHtoD", a.MemcpyHtoD) &&
              bind(lib, "hipMemcpyDtoH", a.MemcpyDtoH) && bind(lib, "hipModuleLaunchKernel", a.ModuleLaunchKernel) &&
              bind(lib, "hipDeviceSynchronize", a.DeviceSynchronize);
    if (!ok) return fail("the HIP runtime lacks a function lanescope needs (too old?)");
    int count = 0;
    const int rc = a.GetDeviceCount(&count);
    if (rc != 0) return fail("the HIP runtime reports " + std::string(a.GetErrorString(rc)) + " (hipGetDeviceCount error " +
                             std::to_string(rc) + ")");
    if (count == 0) return fail("the HIP runtime sees no device");
    dev->gfx_ = detect_gfx();
    if (dev->gfx_.empty()) return fail("a HIP device exists but its gfx target could not be read from /sys/class/kfd");
    dev->device_name_ = "AMD GPU " + dev->gfx_ + " (HIP)";
    a.compiler = find_hip_compiler(dev->gfx_);
    return dev;
}

HipDevice::~HipDevice() {
    if (!api_) return;
    for (auto& k : api_->kernels) api_->ModuleUnload(k.second.first);
    if (!api_->workdir.empty()) detail::remove_tree(api_->workdir);
    // The runtime stays loaded: unloading HIP at exit is known to be fragile.
}

std::string HipDevice::name() const { return device_name_; }

std::string HipDevice::toolchain() const { return api_->compiler.line(); }

bool HipDevice::supports(const Instruction& ins, const Target& t, std::string* why) const {
    const Target* mine = nullptr;
    try {
        mine = &Catalog::builtin().find_target(gfx_);
    } catch (const Error&) {
    }
    if (!mine || mine->family != t.family || !ins.on(mine->family)) {
        if (why) *why = "the GPU here is " + gfx_ + (mine ? " (" + std::string(family_title(mine->family)) + ")" : "") +
                        "; it cannot run " + ins.mnemonic + " for " + t.gfx;
        return false;
    }
    return true;
}

RegisterFile HipDevice::run(const ProbeLaunch& p) {
    Api& a = *api_;
    const std::string src = probe_source(*p.ins, *p.target, p.mods);
    auto it = a.kernels.find(src);
    if (it == a.kernels.end()) {
        if (a.workdir.empty()) a.workdir = detail::make_temp_dir("lanescope-hip-");
        const std::string base = a.workdir + "/probe" + std::to_string(a.kernels.size());
        if (!detail::write_file_atomic(base + ".hip", src)) throw Error("cannot write " + base + ".hip");
        if (a.compiler.path.empty())
            throw Error(a.compiler.line() + "; install ROCm (its clang is $ROCM_PATH/llvm/bin/clang++) or clang-22 (clang-19 for gfx940/gfx941), or "
                                            "set LANESCOPE_HIP_CLANG");
        std::vector<std::string> argv = {a.compiler.path, "-x", "hip", "--offload-arch=" + gfx_,
                                         "--offload-device-only", "--no-gpu-bundle-output", "-nogpulib", "-nogpuinc",
                                         "-O2", "-c", base + ".hip", "-o", base + ".co"};
        if (p.mods.wave == 64 && !is_cdna(p.target->family)) argv.push_back("-mwavefrontsize64");
        std::string err;
        const int rc = run_process(argv, "", base + ".log", &err);
        if (rc != 0)
            throw Error("compiling the probe kernel for " + gfx_ + " failed" + (err.empty() ? "" : ": " + err) + "; see " +
                        base + ".log");
        void* module = nullptr;
        void* fn = nullptr;
        a.check("hipModuleLoad", a.ModuleLoad(&module, (base + ".co").c_str()));
        a.check("hipModuleGetFunction", a.ModuleGetFunction(&fn, module, "lanescope_probe"));
        it = a.kernels.emplace(src, std::make_pair(module, fn)).first;
    }
    std::vector<uint32_t> in;
    for (const auto& op : p.inputs) in.insert(in.end(), op.second.words.begin(), op.second.words.end());
    RegisterFile out(p.lanes, p.d_regs);
    void* din = nullptr;
    void* dout = nullptr;
    a.check("hipMalloc", a.Malloc(&din, in.size() * 4));
    int rc = a.Malloc(&dout, out.words.size() * 4);
    if (rc == 0) rc = a.MemcpyHtoD(din, in.data(), in.size() * 4);
    void* args[] = {&din, &dout};
    if (rc == 0) rc = a.ModuleLaunchKernel(it->second.second, 1, 1, 1, unsigned(p.lanes), 1, 1, 0, nullptr, args, nullptr);
    if (rc == 0) rc = a.DeviceSynchronize();
    if (rc == 0) rc = a.MemcpyDtoH(out.words.data(), dout, out.words.size() * 4);
    a.Free(din);
    if (dout) a.Free(dout);
    a.check("running the probe kernel", rc);
    return out;
}

std::unique_ptr<Device> make_device(const std::string& kind, std::string* why) {
    if (kind == "software") return std::make_unique<SoftwareDevice>();
    if (kind == "hip") return HipDevice::open(why);
    if (kind == "cuda") return CudaDevice::open(why);
    if (kind == "auto") {
        // An AMD GPU first (as before NVIDIA support existed), then an NVIDIA one.
        std::string amd, nvidia;
        if (auto dev = HipDevice::open(&amd)) return dev;
        if (auto dev = CudaDevice::open(&nvidia)) return dev;
        if (why) *why = amd + "; " + nvidia;
        return nullptr;
    }
    if (why) *why = "unknown device '" + kind + "'; legal: auto (an AMD GPU through HIP, else an NVIDIA GPU through CUDA), hip, cuda, software";
    return nullptr;
}

}  // namespace lanescope::gpu
