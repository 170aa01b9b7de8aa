// Output that never lies and never clobbers: the one place where lanescope's
// front ends (CLI, figures, app) write files, directories and standard output.
//
//  * write_file / OutputFile: a regular (or new) file is replaced atomically:
//    the bytes go to a file with no name in the target's directory (Linux
//    O_TMPFILE; where the filesystem refuses it, a uniquely named temporary
//    beside the target), are fsynced, and are linked and renamed into place
//    only when complete, so readers and concurrent writers see the old or the
//    new bytes, never a mix. OutputFile takes the bytes as they are produced
//    (large output is streamed, never held whole in memory). A writer that
//    fails, is destroyed uncommitted, or is ended by SIGTERM, SIGINT, SIGHUP,
//    SIGQUIT or SIGXFSZ leaves no temporary behind (the named ones are unlinked by an
//    async-signal-safe handler that then re-raises the signal); an existing special
//    file (/dev/null, a FIFO, a terminal) is written through in place and is
//    never replaced; a directory is refused with a message that says so.
//  * DirectoryWriter: a whole directory built beside the target and swapped in
//    with one rename (RENAME_EXCHANGE when the target exists), so a killed or
//    concurrent writer leaves the old or the new directory, never a mix.
//  * write_stdout: every byte reaches standard output or an Error says why
//    (a full disk, a closed pipe).
// Every failure is a lanescope::Error naming the path and the real cause.
// POSIX (Linux) only.
#pragma once

#include "lanescope/lanescope.hpp"

#include <ostream>
#include <string>
#include <string_view>

namespace lanescope::files {

// Throws Error unless `path` could be written by write_file: its directory
// exists and is writable, and it is not a directory itself.
void check_writable(const std::string& path);
void write_file(const std::string& path, std::string_view bytes);
// The same for files that must be regular (settings, state): an existing
// special file (a FIFO, a device, a socket) or directory is refused without
// being opened, so nothing waits for a FIFO's reader.
void write_regular_file(const std::string& path, std::string_view bytes);

// One output written as it is produced: "-" or "" is standard output, an
// existing special file is written through, anything else is replaced
// atomically at commit(). Destroyed before commit(): the target is unchanged
// and nothing is left behind.
class OutputFile {
public:
    explicit OutputFile(const std::string& path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(std::string_view bytes);  // throws Error naming the path and the cause
    void commit();                       // makes the bytes the target's; throws Error
    bool unnamed() const { return fd_ >= 0 && tmp_.empty() && mode_ == Mode::Atomic; }  // O_TMPFILE in use (tests)

private:
    enum class Mode { Stdout, Through, Atomic };
    void fail(int err);
    std::string path_, tmp_;
    Mode mode_ = Mode::Stdout;
    int fd_ = -1;
    int slot_ = -1;  // the signal-cleanup slot of tmp_
    unsigned mode_bits_ = 0;
    bool done_ = false;
};
// Writes and flushes standard output; throws Error on any failure.
void write_stdout(std::string_view bytes);
// Writes standard error (a message: a failure to write it is not reported).
void write_stderr(std::string_view bytes);
// An std::ostream over write_stdout (for code that logs to a stream).
std::ostream& stdout_stream();

// ---------------------------------------------------------------- capture ----
// Standard output, error and input taken in process, for a front end that runs the CLI as a
// function (the Python module): while a Capture is installed, write_stdout, write_stderr,
// stdout_stream() and OutputFile("-") hand their bytes to it, and read_input_text() reads its
// input, on every thread; file descriptors 0, 1 and 2 are never touched, so what other code of
// the process writes meanwhile stays its own. One at a time: install() waits for the one before
// to be removed. Its out() may throw Error (e.g. out of memory): the write then fails with it.
class Capture {
public:
    Capture() = default;
    virtual ~Capture() = default;
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;
    virtual void out(std::string_view bytes) = 0;
    virtual void err(std::string_view bytes) = 0;
    std::string input;  // what "-" reads (read_input_text), once
};
// Installs `c` for the process while the Scope lives.
class CaptureScope {
public:
    explicit CaptureScope(Capture& c);
    ~CaptureScope();
    CaptureScope(const CaptureScope&) = delete;
    CaptureScope& operator=(const CaptureScope&) = delete;
};
bool captured();  // a Capture is installed
// "-" or "" means standard output, anything else write_file.
void write_output(const std::string& path, std::string_view bytes);

// ---------------------------------------------------------------- reading ----
// Input files (layouts, catalogs given by path) are read whole, at most
// kMaxInputBytes. Whatever `path` is, the answer is its bytes or an Error
// saying what it is and why not: "no such file", "a directory", a regular
// file or special file (/dev/zero, /dev/urandom, /proc files) larger than the
// limit (read no further than the limit + 1 byte), a read error (e.g.
// /proc/self/mem: "Input/output error"), a terminal (refused: it would wait
// for typing), a socket. A FIFO is opened without waiting for a writer: with
// none, it reads as no bytes (an Error says so); with one, its bytes up to the
// limit are read until the writer closes it. A device is read to at most
// kMaxInputBytes whatever the limit asked (no layout lanescope writes is one).
inline constexpr size_t kMaxInputBytes = size_t(64) << 20;  // 64 MiB
std::string read_file(const std::string& path, size_t limit = kMaxInputBytes);
// An input named on a command line: "-" is standard input (in process, the Capture's input;
// otherwise /dev/stdin, read as read_file reads it), anything else read_file(path, limit).
std::string read_input_text(const std::string& path, size_t limit = kMaxInputBytes);

class DirectoryWriter {
public:
    // `target` may be absent, an empty directory, or a directory holding
    // `marker` (one this program wrote before); anything else is refused.
    DirectoryWriter(const std::string& target, const std::string& marker);
    ~DirectoryWriter();  // removes the temporary directory unless committed
    DirectoryWriter(const DirectoryWriter&) = delete;
    DirectoryWriter& operator=(const DirectoryWriter&) = delete;

    const std::string& dir() const { return work_; }  // write the files here
    // Writes one file under dir() (name may contain '/' of existing subdirectories).
    void write(const std::string& name, std::string_view bytes) const;
    void make_subdir(const std::string& name) const;
    // Writes the marker, then swaps the directory into place and removes the old one.
    void commit();

private:
    std::string target_, marker_, work_;
    bool committed_ = false;
    int slot_ = -1;  // the signal-cleanup slot of work_
};

// The signal cleanup behind OutputFile and DirectoryWriter (exposed for tests).
namespace cleanup {
enum Kind { kFree = 0, kFile = 1, kDirectory = 2 };
// Tests: make OutputFile use named temporaries as on a filesystem without O_TMPFILE.
void use_named_temporaries(bool on);
// Installs the handler for SIGTERM, SIGINT, SIGHUP, SIGQUIT and SIGXFSZ where they are at their default action.
void install();
// Registers a named temporary for removal on those signals; returns its slot (-1: none free).
int claim(const std::string& path, int kind);
void release(int slot);
}  // namespace cleanup

}  // namespace lanescope::files
