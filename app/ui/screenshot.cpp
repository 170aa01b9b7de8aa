// PNG output for screenshots and exports: written to a temporary file next to
// the target, then renamed, so a failed write never leaves half a file.
#include "ui/app.hpp"

#include <stb/stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace lsapp {

bool path_writable(const std::string& path, std::string* error) {
    if (path.empty()) {
        *error = "no output path given";
        return false;
    }
    const auto slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    if (access(dir.c_str(), W_OK) != 0) {
        *error = "cannot write " + path + ": directory " + dir + " " +
                 (errno == ENOENT ? "does not exist" : "is not writable (" + std::string(std::strerror(errno)) + ")");
        return false;
    }
    return true;
}

bool write_png(const std::string& path, const std::vector<unsigned char>& rgba, int w, int h, std::string* error) {
    if (!path_writable(path, error)) return false;
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    if (!stbi_write_png(tmp.c_str(), w, h, 4, rgba.data(), w * 4)) {
        *error = "cannot write " + path + " (PNG encoding or disk write failed)";
        std::remove(tmp.c_str());
        return false;
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        *error = "cannot replace " + path + ": " + std::strerror(errno);
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

}  // namespace lsapp
