// Atomic files and directories, special files written through, checked stdout;
// and the bounded reading of input files (read_file).
#include "lanescope/files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <ctime>
#include <mutex>
#include <utility>
#include <streambuf>

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


std::string temporary_name(const std::string& path) {
    return parent_of(path) + "/." + fs::path(path).filename().string() + ".tmp-XXXXXX";
}

}  // namespace

// ------------------------------------------------- cleanup on signals ----
//
// The named temporaries in flight, in fixed buffers a signal handler may read:
// on SIGTERM, SIGINT, SIGHUP, SIGQUIT or SIGXFSZ (when the program left them at their
// default action) each is unlinked (a directory: emptied and removed) with
// plain system calls, then the signal is raised again with its default action.
namespace cleanup {

namespace {

constexpr int kSlots = 16;
constexpr size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
volatile sig_atomic_t g_kind[kSlots];
std::mutex g_claim;
std::atomic<bool> g_named_only{false};
// SIGXFSZ: a write past the file-size limit (ulimit -f) ends the program as these do.
const int kSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGXFSZ};

// Removes everything under the open directory `dir` (depth-limited), with system calls only.
void empty_tree(int dir, int depth) {
    struct Dirent64 {
        unsigned long long ino;
        long long off;
        unsigned short reclen;
        unsigned char type;
        char name[1];
    };
#ifdef __EMSCRIPTEN__
    // The web page's engine (docs/web.md): no signal reaches it and no raw system call exists there.
    (void)dir;
    (void)depth;
#else
    alignas(8) char buf[4096];
    for (int pass = 0; pass < 64; ++pass) {
        ::lseek(dir, 0, SEEK_SET);
        bool removed = false;
        for (;;) {
            const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
            if (n <= 0) break;
            for (long off = 0; off < n;) {
                const auto* d = reinterpret_cast<const Dirent64*>(buf + off);
                off += d->reclen;
                const char* name = d->name;
                if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
                if (d->type == DT_DIR && depth < 8) {
                    const int sub = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                    if (sub >= 0) {
                        empty_tree(sub, depth + 1);
                        ::close(sub);
                    }
                    removed |= ::unlinkat(dir, name, AT_REMOVEDIR) == 0;
                } else {
                    removed |= ::unlinkat(dir, name, 0) == 0;
                }
            }
        }
        if (!removed) return;
    }
#endif
}

void on_signal(int sig) {
    const int saved = errno;
    for (int i = 0; i < kSlots; ++i) {
        if (g_kind[i] == kFile) {
            ::unlink(g_paths[i]);
        } else if (g_kind[i] == kDirectory) {
            const int d = ::open(g_paths[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (d >= 0) {
                empty_tree(d, 0);
                ::close(d);
            }
            ::rmdir(g_paths[i]);
        }
    }
    ::signal(sig, SIG_DFL);
    errno = saved;
    ::raise(sig);  // delivered with its default action when the handler returns
}

}  // namespace

void use_named_temporaries(bool on) { g_named_only = on; }
bool named_only() { return g_named_only; }

void install() {
    // Checked at every temporary: a handler a program sets later (or resets) is respected.
    {
        for (int sig : kSignals) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) != 0) continue;
            // Only where nobody else chose: an ignored signal stays ignored, a program's handler stays.
            if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
            struct sigaction sa {};
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            for (int other : kSignals) sigaddset(&sa.sa_mask, other);
            sa.sa_flags = SA_RESTART;
            ::sigaction(sig, &sa, nullptr);
        }
    }
}

int claim(const std::string& path, int kind) {
    if (path.size() >= kPathMax) return -1;
    std::lock_guard<std::mutex> lock(g_claim);
    for (int i = 0; i < kSlots; ++i)
        if (g_kind[i] == kFree) {
            std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
            std::atomic_signal_fence(std::memory_order_seq_cst);
            g_kind[i] = kind;
            return i;
        }
    return -1;  // more than kSlots at once: still removed on every ordinary path
}

void release(int slot) {
    if (slot < 0 || slot >= kSlots) return;
    std::lock_guard<std::mutex> lock(g_claim);
    g_kind[slot] = kFree;
}

}  // namespace cleanup

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
    OutputFile out(path);
    out.write(bytes);
    out.commit();
}

// ------------------------------------------------------------ OutputFile ----

OutputFile::OutputFile(const std::string& path) : path_(path) {
    if (path.empty() || path == "-") {
        std::fflush(stdout);  // anything printf'ed before goes first
        return;
    }
    check_writable(path);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // /dev/null, a FIFO, a terminal: write through, never replace the node.
        mode_ = Mode::Through;
        fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd_ < 0) throw Error("cannot write '" + path + "': " + why(errno));
        return;
    }
    mode_ = Mode::Atomic;
    // Keep the permissions a plain create would give (or the replaced file's).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode_bits_ = (S_ISREG(st.st_mode) ? st.st_mode : 0666 & ~mask) & 07777;
    cleanup::install();
#ifdef O_TMPFILE
    // A file with no name until it is complete: nothing to clean up if we are killed.
    if (!cleanup::named_only()) {
        fd_ = ::open(parent_of(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        if (fd_ >= 0) return;
    }
#endif
    // The filesystem refuses O_TMPFILE: a unique temporary beside the target,
    // unlinked by the signal handler if we are ended before commit.
    tmp_ = temporary_name(path);
    fd_ = ::mkstemp(tmp_.data());
    if (fd_ < 0) {
        const int err = errno;
        tmp_.clear();
        throw Error("cannot write '" + path + "': cannot create a temporary file beside it: " + why(err));
    }
    ::fcntl(fd_, F_SETFD, FD_CLOEXEC);
    slot_ = cleanup::claim(tmp_, cleanup::kFile);
}

OutputFile::~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    cleanup::release(slot_);
}

void OutputFile::fail(int err) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    tmp_.clear();
    cleanup::release(slot_);
    slot_ = -1;
    done_ = true;
    if (mode_ == Mode::Stdout) throw Error("cannot write to standard output: " + why(err));
    throw Error("cannot write '" + path_ + "': " + why(err));
}

void OutputFile::write(std::string_view bytes) {
    if (done_) throw Error("internal: write after commit to '" + path_ + "'");
    if (mode_ == Mode::Stdout) return write_stdout(bytes);
    const int err = write_all(mode_ == Mode::Stdout ? STDOUT_FILENO : fd_, bytes);
    if (err) fail(err);
}

void OutputFile::commit() {
    if (done_) return;
    if (mode_ == Mode::Stdout) {
        done_ = true;
        return;
    }
    if (mode_ == Mode::Through) {
        const int err = ::close(fd_) == 0 ? 0 : errno;
        fd_ = -1;
        done_ = true;
        if (err) fail(err);
        return;
    }
    int err = 0;
    if (::fsync(fd_) != 0 && errno != EINVAL) err = errno;
    if (!err && ::fchmod(fd_, mode_bits_) != 0) err = errno;
    if (err) fail(err);
    if (tmp_.empty()) {
        // The unnamed file: link it in. Straight to the target when there is none
        // (one atomic step), otherwise to a named temporary that replaces it.
        char proc[64];
        std::snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd_);
        auto link_as = [&](const std::string& name) {
            if (::linkat(AT_FDCWD, proc, AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
            return errno;
        };
        int lerr = link_as(path_);
        if (lerr == 0) {
            ::close(fd_);
            fd_ = -1;
            done_ = true;
            return;
        }
        for (int attempt = 0; attempt < 100; ++attempt) {
            std::string name = temporary_name(path_);
            // XXXXXX -> letters from the pid, the attempt and the clock (a clash just retries).
            unsigned long long seed = static_cast<unsigned long long>(::getpid()) * 1000003ULL + attempt * 7919ULL +
                                      static_cast<unsigned long long>(std::clock());
            for (size_t i = name.size() - 6; i < name.size(); ++i, seed /= 26) name[i] = static_cast<char>('a' + seed % 26);
            slot_ = cleanup::claim(name, cleanup::kFile);
            tmp_ = name;
            lerr = link_as(name);
            if (lerr == 0) break;
            tmp_.clear();
            cleanup::release(slot_);
            slot_ = -1;
            if (lerr != EEXIST) break;
        }
        if (tmp_.empty()) {
            // No /proc (or linkat refused): copy the bytes into a named temporary.
            tmp_ = temporary_name(path_);
            const int out = ::mkstemp(tmp_.data());
            if (out < 0) {
                const int e = errno;
                tmp_.clear();
                fail(e);
            }
            slot_ = cleanup::claim(tmp_, cleanup::kFile);
            char buf[1 << 16];
            off_t at = 0;
            for (;;) {
                const ssize_t n = ::pread(fd_, buf, sizeof buf, at);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) {
                    if (n < 0) err = errno;
                    break;
                }
                if ((err = write_all(out, std::string_view(buf, static_cast<size_t>(n))))) break;
                at += n;
            }
            if (!err && ::fsync(out) != 0 && errno != EINVAL) err = errno;
            if (!err && ::fchmod(out, mode_bits_) != 0) err = errno;
            if (::close(out) != 0 && !err) err = errno;
            if (err) fail(err);
        }
    }
    if (::close(fd_) != 0) err = errno;
    fd_ = -1;
    if (!err && ::rename(tmp_.c_str(), path_.c_str()) != 0) err = errno;
    if (err) fail(err);
    tmp_.clear();
    cleanup::release(slot_);
    slot_ = -1;
    done_ = true;
}

// ------------------------------------------------------------ capture ----

namespace {
std::mutex g_one_capture;            // held by the CaptureScope in force
std::mutex g_capture_write;          // one write into the Capture at a time (any thread)
std::atomic<Capture*> g_capture{nullptr};

// The stream of stdout_stream(): each flush (or full buffer) goes to write_stdout.
class StdoutBuf : public std::streambuf {
    char buf_[1 << 14];
    bool drain() {
        const auto n = static_cast<size_t>(pptr() - pbase());
        setp(buf_, buf_ + sizeof buf_);
        if (n == 0) return true;
        try {
            write_stdout(std::string_view(buf_, n));
            return true;
        } catch (const Error&) {
            return false;
        }
    }
protected:
    int overflow(int c) override {
        if (!drain()) return traits_type::eof();
        if (c != traits_type::eof()) *pptr() = static_cast<char>(c), pbump(1);
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }
public:
    StdoutBuf() { setp(buf_, buf_ + sizeof buf_); }
};
}  // namespace

CaptureScope::CaptureScope(Capture& c) {
    g_one_capture.lock();
    stdout_stream().flush();
    g_capture.store(&c);
}

CaptureScope::~CaptureScope() {
    stdout_stream().flush();
    stdout_stream().clear();
    g_capture.store(nullptr);
    g_one_capture.unlock();
}

bool captured() { return g_capture.load() != nullptr; }

std::ostream& stdout_stream() {
    static StdoutBuf buf;
    static std::ostream stream(&buf);
    return stream;
}

void write_stdout(std::string_view bytes) {
    if (Capture* c = g_capture.load()) {
        std::lock_guard<std::mutex> lock(g_capture_write);
        c->out(bytes);
        return;
    }
    std::fflush(stdout);  // anything printf'ed before goes first
    const int err = write_all(STDOUT_FILENO, bytes);
    if (err) throw Error("cannot write to standard output: " + why(err));
}

void write_stderr(std::string_view bytes) {
    if (Capture* c = g_capture.load()) {
        std::lock_guard<std::mutex> lock(g_capture_write);
        c->err(bytes);
        return;
    }
    std::fflush(stderr);
    (void)write_all(STDERR_FILENO, bytes);
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
    // Checked before anything is built: what the finished directory could not replace.
    if (target_ == "-")
        throw Error("'-' names standard output, which cannot hold a directory; legal: a directory path (./- for a "
                    "directory named -)");
    struct stat st {};
    if (::lstat(target_.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        std::error_code ec;
        const fs::path to = fs::read_symlink(target_, ec);
        throw Error("cannot write into '" + target + "': it is a symbolic link" + (ec ? "" : " (to '" + to.string() + "')") +
                    ", and the finished directory replaces what the name is, not what it points to; legal: the "
                    "directory itself, a new path or a previously written directory");
    }
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
    cleanup::install();
    slot_ = cleanup::claim(work_, cleanup::kDirectory);
    ::chmod(work_.c_str(), 0777 & ~[] { mode_t m = ::umask(0); ::umask(m); return m; }());
}

DirectoryWriter::~DirectoryWriter() {
    if (!committed_ && !work_.empty()) {
        std::error_code ec;
        fs::remove_all(work_, ec);
    }
    cleanup::release(slot_);
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
                cleanup::release(slot_);
                slot_ = -1;
                return;
            }
        }
        throw Error("cannot move the finished directory into '" + target_ + "': " + why(err));
    }
    committed_ = true;
    cleanup::release(slot_);
    slot_ = -1;
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

void write_regular_file(const std::string& path, std::string_view bytes) {
    struct stat st {};
    // Never opened: a FIFO without a reader would hold the open forever, a device would take the bytes.
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw Error("cannot write '" + path + "': it is " + kind_of(st.st_mode) +
                    "; legal: a regular file (or a new one), which is replaced whole");
    write_file(path, bytes);
}

std::string read_file(const std::string& path, size_t limit) {
    const std::string cannot = "cannot read '" + path + "': ";
    if (path.empty()) throw Error("no input file given; legal: a file name");
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw Error(cannot + (errno == ENOENT || errno == ENOTDIR ? std::string("no such file") : why(errno)));
    if (S_ISDIR(st.st_mode)) throw Error(cannot + "it is a directory; legal: a file");
    if (S_ISSOCK(st.st_mode)) throw Error(cannot + "it is a socket; legal: a file, a FIFO or a device");
    // A device (/dev/zero, /dev/urandom) holds no file lanescope wrote: read at most the default limit of it.
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) limit = std::min(limit, kMaxInputBytes);
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

std::string read_input_text(const std::string& path, size_t limit) {
    if (path != "-") return read_file(path, limit);
    if (Capture* c = g_capture.load()) return std::exchange(c->input, std::string());  // read once, as a stream is
    return read_file("/dev/stdin", limit);
}

}  // namespace lanescope::files
