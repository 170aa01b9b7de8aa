// Run-time loading of a GPU vendor's driver library (no link-time dependency),
// shared by the HIP and CUDA devices. Internal to lanescope::gpu.
#pragma once

#include <dlfcn.h>

#include <initializer_list>
#include <string>

namespace lanescope::gpu::detail {

// The first of `names` that dlopen loads, or nullptr with the first loader
// error in `error` (for the one-line "no GPU found" message).
inline void* open_first_library(std::initializer_list<const char*> names, std::string* error) {
    for (const char* name : names) {
        if (void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return lib;
        const char* e = dlerror();
        if (error && error->empty() && e) *error = e;
    }
    return nullptr;
}

// Looks up `name` in `lib` as the function pointer type of `f`.
template <class F>
bool bind(void* lib, const char* name, F& f) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
}

}  // namespace lanescope::gpu::detail
