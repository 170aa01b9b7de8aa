// Fuzz target: the app's settings.ini parser. Any text must parse without a
// crash, and what it yields must survive a round trip through to_text.
#include "model/settings.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> warnings;
    const lsapp::Settings s = lsapp::from_text(text, &warnings);
    const std::string once = lsapp::to_text(s);
    std::vector<std::string> again;
    const std::string twice = lsapp::to_text(lsapp::from_text(once, &again));
    // A written settings file reads back the same and without complaint.
    if (once != twice || !again.empty()) std::abort();
    return 0;
}
