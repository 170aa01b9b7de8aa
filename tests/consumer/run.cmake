# Installs the build tree into a temporary prefix, builds tests/consumer against
# it with the documented example from lanescope.hpp's top comment (and one call
# into each of tile.hpp, linear.hpp, check.hpp, cute.hpp and header.hpp), and runs it.
# -DBUILD=<build tree> -DSRC=<source root> -DWORK=<scratch directory> [-DSANITIZE=ON]
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()

# The example: the comment lines after "Typical use", between the next two bare "//".
file(STRINGS ${SRC}/core/include/lanescope/lanescope.hpp header)
set(state 0)
set(example "")
foreach(line IN LISTS header)
  if(state EQUAL 0 AND line MATCHES "Typical use")
    set(state 1)
  elseif(state EQUAL 1 AND line STREQUAL "//")
    set(state 2)
  elseif(state EQUAL 2)
    if(line STREQUAL "//")
      break()
    endif()
    string(REGEX REPLACE "^//   " "" code "${line}")
    string(APPEND example "    ${code}\n")
  endif()
endforeach()
if(example STREQUAL "")
  message(FATAL_ERROR "no example found in lanescope.hpp's top comment")
endif()

file(WRITE ${WORK}/build/consumer.cpp "#include <lanescope/lanescope.hpp>
#include <lanescope/check.hpp>
#include <lanescope/cute.hpp>
#include <lanescope/header.hpp>
#include <lanescope/linear.hpp>
#include <lanescope/tile.hpp>
#include <cstdio>

int main() {
${example}
    // A tile, its linear form, and a check of that form against the tile.
    lanescope::TileParams p;
    p.waves_m = 2;
    p.waves_n = 2;
    lanescope::TileLayout t(ins, gfx, lanescope::Operand::C, lanescope::resolve_modifiers(ins, gfx, {}), p);
    lanescope::LinearResult lin = lanescope::to_linear(t);
    if (!lin.layout) return 1;
    lanescope::GivenLayout given = lanescope::parse_layout_text(lanescope::render_linear(*lin.layout), \"linear\");
    lanescope::CheckResult r = lanescope::check_layout(t, given);
    std::printf(\"tile check: %s (%zu elements)\\n\", r.equal ? \"equal\" : \"differ\", r.elements);
    // The tile as a CuTe layout and as a generated header (closed forms, no tables).
    lanescope::CuteResult cute = lanescope::to_cute(t);
    const std::string header = lanescope::render_header(lanescope::Query{&ins, &gfx, lanescope::resolve_modifiers(ins, gfx, {})}, p, \"tile\");
    std::printf(\"cute: %s, header: %zu bytes\\n\", cute.layout ? cute.layout->text().c_str() : cute.why_not.c_str(), header.size());
    const bool closed = header.find(\"closed_form = false\") == std::string::npos;
    return r.equal && r.elements == 64u * 64u && cute.layout && closed ? 0 : 1;
}
")
# A sanitizer build installs an instrumented library: the consumer links the runtime too.
set(extra "")
if(SANITIZE)
  set(extra "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/tests/consumer -B ${WORK}/build -G Ninja
                        -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_BUILD_TYPE=Release ${extra}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${WORK}/build/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer failed (${rc}):\n${out}\n${err}")
endif()
file(REMOVE_RECURSE ${WORK})
