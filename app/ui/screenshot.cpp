// PNG output for screenshots and exports: encoded in memory, then written by
// the shared atomic writer (temporary file beside the target, then renamed; a
// special file such as /dev/null is written through, never replaced).
#include "ui/app.hpp"

#include "lanescope/files.hpp"

#include <stb/stb_image_write.h>

namespace lsapp {

bool path_writable(const std::string& path, std::string* error) {
    try {
        lanescope::files::check_writable(path);
        return true;
    } catch (const lanescope::Error& e) {
        *error = e.what();
        return false;
    }
}

bool write_png(const std::string& path, const std::vector<unsigned char>& rgba, int w, int h, std::string* error) {
    std::string png;
    auto append = [](void* into, void* data, int size) {
        static_cast<std::string*>(into)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    if (w <= 0 || h <= 0 || !stbi_write_png_to_func(append, &png, w, h, 4, rgba.data(), w * 4)) {
        *error = "cannot write " + path + ": PNG encoding failed";
        return false;
    }
    try {
        lanescope::files::write_file(path, png);
        return true;
    } catch (const lanescope::Error& e) {
        *error = e.what();
        return false;
    }
}

}  // namespace lsapp
