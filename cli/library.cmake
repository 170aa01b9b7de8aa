# The CLI as a library: its option parser, subcommands and output behind lanescope_cli_main()
# (cli/main.cpp). lanescope-cli is a main() over it (cli/CMakeLists.txt); the Python module
# (python/), the web page's engine (web/) and the argument fuzzers (fuzz/) call it in process.
# One library, so each build compiles the CLI's sources once, not once per user.
if(TARGET lanescope_cli_lib)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
add_library(lanescope_cli_lib STATIC ${LANESCOPE_CLI_SOURCES})
# Position-independent: the Python module is a shared object.
set_target_properties(lanescope_cli_lib PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(lanescope_cli_lib PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(lanescope_cli_lib PUBLIC lanescope::core)
if(EMSCRIPTEN)
  # Header-only CLI11 where Debian puts it (its directory alone, not all of /usr/include,
  # which would shadow emscripten's C library).
  find_path(LANESCOPE_CLI11_INCLUDE CLI/CLI.hpp REQUIRED)
  target_include_directories(lanescope_cli_lib SYSTEM PUBLIC ${LANESCOPE_CLI11_INCLUDE})
else()
  find_package(CLI11 CONFIG REQUIRED)
  target_link_libraries(lanescope_cli_lib PUBLIC CLI11::CLI11)
endif()
# Optional parts: their subcommands are compiled in when the part was built.
if(TARGET lanescope::figures)
  target_link_libraries(lanescope_cli_lib PUBLIC lanescope::figures)
  target_compile_definitions(lanescope_cli_lib PRIVATE LANESCOPE_HAVE_FIGURES=1)
endif()
if(TARGET lanescope::gpu)
  target_link_libraries(lanescope_cli_lib PUBLIC lanescope::gpu)
  target_compile_definitions(lanescope_cli_lib PRIVATE LANESCOPE_HAVE_GPU=1)
endif()
target_compile_options(lanescope_cli_lib PRIVATE -Wall -Wextra)
if(TARGET lanescope_catalog_checked)
  add_dependencies(lanescope_cli_lib lanescope_catalog_checked)
endif()
