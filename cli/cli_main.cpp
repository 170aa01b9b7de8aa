// lanescope-cli: a main() over the CLI library (cli/library.cmake, lanescope_cli_main in main.cpp).
int lanescope_cli_main(int argc, char** argv);
namespace lscli {
void mark_own_process();  // cli/common.hpp: only here is /proc/self/exe lanescope-cli
}

int main(int argc, char** argv) {
    lscli::mark_own_process();
    return lanescope_cli_main(argc, argv);
}
