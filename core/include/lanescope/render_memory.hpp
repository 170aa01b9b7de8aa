// Text renderings of the memory answers (memory.hpp, transpose.hpp): `load`'s
// plan (table, CSV, Markdown, the JSON contract of docs/memory.md, HIP code),
// `load --sweep`'s ranking, and `info` for a transpose load.
#pragma once

#include "lanescope/memory.hpp"
#include "lanescope/render.hpp"
#include "lanescope/transpose.hpp"

#include <string>

namespace lanescope {

std::string render_memory(const Query& q, const MemoryRequest& r, Format format);
// HIP (and host C++ with clang) code: a function `namespace_name::fill(base, [wave,] lane, regs)` that
// issues the plan's loads (or `drain` for stores) for one lane. Compiles with clang-19 -x hip.
std::string render_memory_hip(const Query& q, const MemoryRequest& r, const std::string& namespace_name);
// The same for a plan at hand (the app's, or a test's).
std::string render_memory(const Query& q, const MemoryRequest& r, const MemoryPlan& plan, Format format);
// Addresses are closed forms of (wave, lane) where one fits (docs/memory.md); `tables` keeps the
// per-(wave, issue, lane) constexpr table instead, for host-side checks.
std::string render_memory_hip(const Query& q, const MemoryRequest& r, const MemoryPlan& plan,
                              const std::string& namespace_name, bool tables = false);

// Table, CSV, markdown or JSON (docs/memory.md). `command` is the load command the options of each
// row complete ("lanescope-cli load -a gfx942 -i ... --operand A ..."); `top` rows (0: all).
std::string render_sweep(const Query& q, const MemoryRequest& r, const SweepReport& s, Format format,
                         const std::string& command, int top);

// `info` for a transpose load: transpose_load_facts as a table, CSV, Markdown or JSON.
std::string render_transpose_info(const TransposeLoad& load, const Target& t, Format format);

}  // namespace lanescope
