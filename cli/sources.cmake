# The CLI's sources, shared by lanescope-cli (cli/CMakeLists.txt) and the
# argument fuzzer (fuzz/CMakeLists.txt), which compiles them without main().
set(LANESCOPE_CLI_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_figure.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_verify.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_load.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_smem.cpp)
