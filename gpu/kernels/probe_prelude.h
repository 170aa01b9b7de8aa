// Prelude of every lanescope probe kernel (the functions after it are generated
// per instruction by gpu/src/probe.cpp). Valid HIP, and plain C for the amdgcn
// target: the conformance check compiles the C form, HipDevice the HIP form.
#ifdef __HIP__
#define LANESCOPE_PROBE extern "C" __attribute__((global)) __attribute__((amdgpu_flat_work_group_size(1, 64)))
#else
#define LANESCOPE_PROBE
#endif
typedef __INT64_TYPE__ i64;
typedef float f32;
typedef double f64;
typedef int i32;
#define LANESCOPE_VECTORS(base, name)                                  \
    typedef base v2##name __attribute__((ext_vector_type(2)));        \
    typedef base v4##name __attribute__((ext_vector_type(4)));        \
    typedef base v8##name __attribute__((ext_vector_type(8)));        \
    typedef base v16##name __attribute__((ext_vector_type(16)));      \
    typedef base v32##name __attribute__((ext_vector_type(32)));
LANESCOPE_VECTORS(float, f32)
LANESCOPE_VECTORS(double, f64)
LANESCOPE_VECTORS(_Float16, f16)
LANESCOPE_VECTORS(__bf16, bf16)
LANESCOPE_VECTORS(short, i16)
LANESCOPE_VECTORS(int, i32)
LANESCOPE_VECTORS(i64, i64)
