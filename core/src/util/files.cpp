// Atomic files and directories, special files written through, checked stdout;
// and the bounded reading of input files (read_file).
#include "lanescope/files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lanescope::files {

namespace fs = std::filesystem;

namespace {

std::string why(int err) { return std::strerror(err); }

std::string parent_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

// Writes all of `bytes` to `fd` (retrying short writes and EINTR); 0 or errno.
int write_all(int fd, std::string_view bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        done += static_cast<size_t>(n);
    }
    return 0;
}

// Moves `from` onto `to` atomically, exchanging when `to` exists (renameat2).
int rename_exchange(const std::string& from, const std::string& to) {
#ifdef SYS_renameat2
    if (::syscall(SYS_renameat2, AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), 2 /* RENAME_EXCHANGE */) == 0) return 0;
    return errno;
#else
    (void)from, (void)to;
    return ENOSYS;
#endif
}

}  // namespace

void check_writable(const std::string& path) {
    if (path.empty()) throw Error("no output file given; legal: a file name, or - for standard output");
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw Error("cannot write '" + path + "': it is a directory; legal: a file name inside it");
        if (!S_ISREG(st.st_mode)) {
            if (::access(path.c_str(), W_OK) != 0) throw Error("cannot write '" + path + "': " + why(errno));
            return;  // a special file: written through in place
        }
    }
    const std::string dir = parent_of(path);
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0)
        throw Error("cannot write '" + path + "': directory '" + dir + "' " +
                    (errno == ENOENT ? "does not exist" : why(errno)));
    if (!S_ISDIR(ds.st_mode)) throw Error("cannot write '" + path + "': '" + dir + "' is not a directory");
    if (::access(dir.c_str(), W_OK) != 0)
        throw Error("cannot write '" + path + "': directory '" + dir + "' is not writable (" + why(errno) + ")");
}

void write_file(const std::string& path, std::string_view bytes) {
    check_writable(path);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // /dev/null, a FIFO, a terminal: write through, never replace the node.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) throw Error("cannot write '" + path + "': " + why(errno));
        const int err = write_all(fd, bytes);
        const int cerr = ::close(fd) == 0 ? 0 : errno;
        if (err || cerr) throw Error("cannot write '" + path + "': " + why(err ? err : cerr));
        return;
    }
    // A unique temporary beside the target: concurrent writers never share one.
    std::string tmp = parent_of(path) + "/." + fs::path(path).filename().string() + ".tmp-XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) throw Error("cannot write '" + path + "': cannot create a temporary file beside it: " + why(errno));
    int err = write_all(fd, bytes);
    if (!err && ::fsync(fd) != 0 && errno != EINVAL) err = errno;
    // Keep the permissions a plain create would give (mkstemp makes 0600).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (!err && ::fchmod(fd, (S_ISREG(st.st_mode) ? st.st_mode : 0666 & ~mask) & 07777) != 0) err = errno;
    if (::close(fd) != 0 && !err) err = errno;
    if (!err && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
    if (err) {
        ::unlink(tmp.c_str());
        throw Error("cannot write '" + path + "': " + why(err));
    }
}

void write_stdout(std::string_view bytes) {
    std::fflush(stdout);  // anything printf'ed before goes first
    const int err = write_all(STDOUT_FILENO, bytes);
    if (err) throw Error("cannot write to standard output: " + why(err));
}

void write_output(const std::string& path, std::string_view bytes) {
    if (path.empty() || path == "-") write_stdout(bytes);
    else write_file(path, bytes);
}

// ------------------------------------------------------------ directories ----

DirectoryWriter::DirectoryWriter(const std::string& target, const std::string& marker) : marker_(marker) {
    target_ = target;
    while (target_.size() > 1 && target_.back() == '/') target_.pop_back();
    if (target_.empty()) throw Error("no output directory given");
    struct stat st {};
    if (::stat(target_.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            throw Error("cannot write into '" + target + "': it exists and is not a directory; legal: a new, empty or "
                        "previously written directory");
        std::error_code ec;
        const bool empty = fs::is_empty(target_, ec);
        if (!empty && !fs::exists(fs::path(target_) / marker_, ec))
            throw Error("refusing to replace '" + target +
                        "': it is a non-empty directory this program did not write (no " + marker_ +
                        "); legal: a new, empty or previously written directory");
    }
    const std::string dir = parent_of(target_);
    std::string work = dir + "/." + fs::path(target_).filename().string() + ".tmp-XXXXXX";
    if (!::mkdtemp(work.data()))
        throw Error("cannot write into '" + target + "': cannot create a directory in '" + dir + "': " + why(errno));
    work_ = work;
    ::chmod(work_.c_str(), 0777 & ~[] { mode_t m = ::umask(0); ::umask(m); return m; }());
}

DirectoryWriter::~DirectoryWriter() {
    if (!committed_ && !work_.empty()) {
        std::error_code ec;
        fs::remove_all(work_, ec);
    }
}

void DirectoryWriter::make_subdir(const std::string& name) const {
    const std::string p = work_ + "/" + name;
    if (::mkdir(p.c_str(), 0777) != 0 && errno != EEXIST) throw Error("cannot create '" + p + "': " + why(errno));
}

void DirectoryWriter::write(const std::string& name, std::string_view bytes) const {
    // The directory is private until commit: a plain create is enough here.
    const std::string p = work_ + "/" + name;
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw Error("cannot write '" + p + "': " + why(errno));
    int err = write_all(fd, bytes);
    if (::close(fd) != 0 && !err) err = errno;
    if (err) throw Error("cannot write '" + p + "': " + why(err));
}

void DirectoryWriter::commit() {
    write(marker_, "written by lanescope; the whole directory is replaced when it is written again\n");
    struct stat st {};
    int err = 0;
    if (::rename(work_.c_str(), target_.c_str()) != 0) {
        err = errno;
        // The target exists and is not empty (a previous or concurrent writer's): swap.
        if ((err == EEXIST || err == ENOTEMPTY) && ::stat(target_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
            err = rename_exchange(work_, target_);
            if (err == 0) {
                committed_ = true;
                std::error_code ec;
                fs::remove_all(work_, ec);  // now holds the old directory
                return;
            }
        }
        throw Error("cannot move the finished directory into '" + target_ + "': " + why(err));
    }
    committed_ = true;
}

// ---------------------------------------------------------------- reading ----

namespace {

std::string kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "a file";
}

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

std::string read_file(const std::string& path, size_t limit) {
    const std::string cannot = "cannot read '" + path + "': ";
    if (path.empty()) throw Error("no input file given; legal: a file name");
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw Error(cannot + (errno == ENOENT || errno == ENOTDIR ? std::string("no such file") : why(errno)));
    if (S_ISDIR(st.st_mode)) throw Error(cannot + "it is a directory; legal: a file");
    if (S_ISSOCK(st.st_mode)) throw Error(cannot + "it is a socket; legal: a file, a FIFO or a device");
    if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > limit)
        throw Error(cannot + "it has " + std::to_string(st.st_size) + " bytes, more than the input limit of " + mib(limit));
    // O_NONBLOCK: a FIFO with no writer does not hold the open; cleared before reading.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) throw Error(cannot + why(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    if (::isatty(fd)) throw Error(cannot + "it is a terminal; legal: a file, a FIFO or a device that ends");
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    std::string text;
    const size_t want = limit + 1;  // one byte past the limit tells "too large"
    while (text.size() < want) {
        const size_t chunk = std::min<size_t>(want - text.size(), size_t(1) << 20);
        const size_t old = text.size();
        text.resize(old + chunk);
        const ssize_t n = ::read(fd, text.data() + old, chunk);
        if (n < 0) {
            text.resize(old);
            if (errno == EINTR) continue;
            throw Error(cannot + why(errno) + (S_ISREG(st.st_mode) ? "" : " (it is " + kind_of(st.st_mode) + ")"));
        }
        text.resize(old + static_cast<size_t>(n));
        if (n == 0) break;
    }
    if (text.size() > limit)
        throw Error(cannot + (S_ISREG(st.st_mode) ? std::string("it grew past") : "it is " + kind_of(st.st_mode) +
                                                                                     " with more bytes than") +
                    " the input limit of " + mib(limit) + "; legal: a layout file of at most " + mib(limit));
    if (text.empty() && S_ISFIFO(st.st_mode))
        throw Error(cannot + "it is a FIFO and gave no bytes (no writer had it open); legal: a file, or a FIFO a "
                             "program writes the layout into");
    return text;
}

}  // namespace lanescope::files
