# The CLI's sources: the CLI library (cli/library.cmake) that lanescope-cli, the Python
# module, the web page's engine and the argument fuzzers link; main() is cli_main.cpp.
set(LANESCOPE_CLI_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/main.cpp
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_figure.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_verify.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_load.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cmd_smem.cpp)
