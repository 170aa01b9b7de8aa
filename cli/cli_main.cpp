// lanescope-cli: a main() over the CLI library (cli/library.cmake, lanescope_cli_main in main.cpp).
int lanescope_cli_main(int argc, char** argv);

int main(int argc, char** argv) { return lanescope_cli_main(argc, argv); }
