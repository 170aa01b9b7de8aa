// Triton 3.6's own layouts (tests/data/triton: AMD ones dumped by scripts/triton-layouts.py, the
// tcgen05.ld register layouts by scripts/triton-tmem-layouts.py): one JSON record per line,
// gzipped. Each dump is read once per test process through zlib.
#pragma once

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <string>
#include <vector>

namespace lstest {

inline std::vector<nlohmann::json> read_triton_dump(const char* path) {
        std::vector<nlohmann::json> out;
        gzFile f = gzopen(path, "rb");
        REQUIRE(f != nullptr);
        std::string line;
        char buf[1 << 16];
        int n;
        while ((n = gzread(f, buf, sizeof buf)) > 0)
            for (int i = 0; i < n; ++i) {
                if (buf[i] != '\n') {
                    line += buf[i];
                } else if (!line.empty()) {
                    out.push_back(nlohmann::json::parse(line));
                    line.clear();
                }
            }
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
        gzclose(f);
        return out;
}

inline const std::vector<nlohmann::json>& triton_records() {
    static const std::vector<nlohmann::json> records = read_triton_dump(LANESCOPE_TRITON_DUMP);
    return records;
}

}  // namespace lstest
