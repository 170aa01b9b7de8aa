// Triton 3.6's own AMD layouts (tests/data/triton, dumped by scripts/triton-layouts.py): one JSON
// record per line, gzipped. Read once per test process through zlib.
#pragma once

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <string>
#include <vector>

namespace lstest {

inline const std::vector<nlohmann::json>& triton_records() {
    static const std::vector<nlohmann::json> records = [] {
        std::vector<nlohmann::json> out;
        gzFile f = gzopen(LANESCOPE_TRITON_DUMP, "rb");
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
    }();
    return records;
}

}  // namespace lstest
