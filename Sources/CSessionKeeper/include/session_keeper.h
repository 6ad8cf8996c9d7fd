#ifndef PATCHBAY_SESSION_KEEPER_H
#define PATCHBAY_SESSION_KEEPER_H

#include <stddef.h>
#include <stdint.h>

/// The tail of a file being appended to, held in memory shared with a keeper process.
///
/// The writer commits bytes to a ring buffer; the keeper, a process started for the purpose,
/// writes them to the file when asked (on another core, while the writer goes on), and when
/// the writer's process ends in any way (a crash, `kill -9`) it writes what was committed and
/// not yet written, then exits. The keeper runs no Swift code: it waits in `recv(2)` on a
/// socket whose other end only the writer holds, writes with `pwrite(2)` and exits. It runs in
/// a session of its own with every signal blocked, so that Ctrl-C or a `kill` of the process
/// group cannot lose the lines it keeps, and it keeps standard output and error open until it
/// has written, so that whoever reads the writer's output to its end also waits for the file.
///
/// Only the keeper writes the file while it lives; if it is gone (killed on its own), the
/// writer writes the file itself from then on.
typedef struct pb_keeper pb_keeper;

/// Starts a keeper for `file`, whose first `offset` bytes are already written, with a buffer
/// of `capacity` bytes. Returns NULL, with `errno` set, when the shared memory, the socket or
/// the process cannot be created.
pb_keeper *pb_keeper_start(int file, uint64_t offset, size_t capacity);

/// Appends and commits `count` bytes, waiting for the keeper to make room when the buffer is
/// full; bytes that do not fit in an empty buffer go straight to the file. Asks the keeper to
/// write out every 256 KB committed. Returns 0, or the `errno` of a failed write of the file.
int pb_keeper_append(pb_keeper *keeper, const void *bytes, size_t count);

/// Asks the keeper to write out what is committed, without waiting. Returns 0, or the `errno`
/// of an earlier failed write of the file.
int pb_keeper_request(pb_keeper *keeper);

/// Writes out what is committed and waits until the file holds it. Returns 0, or the `errno`
/// of a failed write of the file.
int pb_keeper_write_out(pb_keeper *keeper);

/// The keeper's process id.
int pb_keeper_process(const pb_keeper *keeper);

/// Ends the keeper as the end of the writer's process would, without writing anything
/// itself: the keeper writes what is held, exits, and is waited for; the memory is freed.
void pb_keeper_stop(pb_keeper *keeper);

#endif
