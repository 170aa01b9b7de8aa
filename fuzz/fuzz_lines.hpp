// The fuzz input as lines of option text: split at '\n', then padded or cut to
// `count` lines (missing options are empty).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

inline std::vector<std::string> fuzz_lines(const uint8_t* data, size_t size, size_t count) {
    std::vector<std::string> lines(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') lines.emplace_back();
        else lines.back() += static_cast<char>(data[i]);
    }
    lines.resize(count);
    return lines;
}
