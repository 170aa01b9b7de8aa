// Output that never lies and never clobbers: the one place where lanescope's
// front ends (CLI, figures, app) write files, directories and standard output.
//
//  * write_file: a regular (or new) file is replaced atomically (a uniquely
//    named temporary beside it, fsync, rename), so readers and concurrent
//    writers see the old or the new bytes, never a mix; an existing special
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

#include <string>
#include <string_view>

namespace lanescope::files {

// Throws Error unless `path` could be written by write_file: its directory
// exists and is writable, and it is not a directory itself.
void check_writable(const std::string& path);
void write_file(const std::string& path, std::string_view bytes);
// Writes and flushes standard output; throws Error on any failure.
void write_stdout(std::string_view bytes);
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
// limit are read until the writer closes it.
inline constexpr size_t kMaxInputBytes = size_t(64) << 20;  // 64 MiB
std::string read_file(const std::string& path, size_t limit = kMaxInputBytes);

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
};

}  // namespace lanescope::files
