// lanescope-empty: an empty process, built with lanescope-cli's compiler and flags
// (cli/CMakeLists.txt). `lanescope-cli bench` times a query's start-up against it.
int main() { return 0; }
