#define _GNU_SOURCE
#include "session_keeper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif
#if !defined(MSG_NOSIGNAL)
#define MSG_NOSIGNAL 0
#endif

/// The memory both processes see. Offsets are the file's: the byte at offset `x` is kept at
/// `ring[x % capacity]`. The writer only overwrites bytes the file already holds.
typedef struct shared_tail {
    /// Where the committed bytes end; stored by the writer.
    _Atomic uint64_t committed;
    /// Up to where the file holds the bytes; stored by whoever writes the file.
    _Atomic uint64_t written;
    /// The first `errno` of a failed write by the keeper, or 0.
    _Atomic int failure;
    uint64_t capacity;
    unsigned char ring[];
} shared_tail;

struct pb_keeper {
    shared_tail *tail;
    size_t mapped;
    int file;
    /// The writer's end of the socket: a byte asks for a write-out, the keeper answers with a
    /// byte when it is done; closing it (or dying) ends the keeper.
    int socket;
    pid_t pid;
    /// `committed` when the writer last asked for a write-out.
    uint64_t requested;
    /// Whether the keeper is gone, so that the writer writes the file itself.
    int gone;
};

static int pwrite_all(int file, const unsigned char *bytes, size_t count, uint64_t offset) {
    while (count > 0) {
        ssize_t done = pwrite(file, bytes, count, (off_t)offset);
        if (done < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (done == 0) return EIO;
        bytes += done;
        count -= (size_t)done;
        offset += (uint64_t)done;
    }
    return 0;
}

/// Writes `[written, committed)` from the ring. Async-signal-safe, as the keeper needs.
static int write_out(shared_tail *tail, int file) {
    uint64_t to = atomic_load_explicit(&tail->committed, memory_order_acquire);
    uint64_t from = atomic_load_explicit(&tail->written, memory_order_acquire);
    while (from < to) {
        uint64_t at = from % tail->capacity;
        uint64_t run = tail->capacity - at;
        if (run > to - from) run = to - from;
        int failure = pwrite_all(file, tail->ring + at, (size_t)run, from);
        if (failure) return failure;
        from += run;
        atomic_store_explicit(&tail->written, from, memory_order_release);
    }
    return 0;
}

static void close_range_of(int first, int last) {
    if (first > last) return;
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)first, (unsigned)last, 0u) == 0) return;
#endif
    struct rlimit limit;
    int end = last;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && (rlim_t)end >= limit.rlim_cur) {
        end = (int)limit.rlim_cur - 1;
    }
    if (end > 65535) end = 65535;
    for (int descriptor = first; descriptor <= end; descriptor++) close(descriptor);
}

/// Closes every descriptor but standard output and error, the file and the socket.
static void close_all_but(int file, int socket) {
    int kept[] = {STDOUT_FILENO, STDERR_FILENO, file, socket};
    for (size_t i = 1; i < 4; i++) {
        for (size_t j = i; j > 0 && kept[j - 1] > kept[j]; j--) {
            int swap = kept[j];
            kept[j] = kept[j - 1];
            kept[j - 1] = swap;
        }
    }
    int next = 0;
    for (size_t i = 0; i < 4; i++) {
        close_range_of(next, kept[i] - 1);
        if (kept[i] + 1 > next) next = kept[i] + 1;
    }
    close_range_of(next, 0x7fffffff);
}

/// The keeper: writes out when asked, and once more when the writer is gone, then exits.
static void keep(shared_tail *tail, int file, int socket) {
    setsid();
#if defined(__linux__)
    prctl(PR_SET_NAME, "patchbay-keeper", 0, 0, 0);
#endif
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) sigaction(ignored[i], &ignore, NULL);
    close_all_but(file, socket);

    char requests[256];
    for (;;) {
        ssize_t count = recv(socket, requests, sizeof requests, 0);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        int failure = write_out(tail, file);
        int none = 0;
        if (failure) atomic_compare_exchange_strong(&tail->failure, &none, failure);
        send(socket, "w", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    write_out(tail, file);
    _exit(0);
}

pb_keeper *pb_keeper_start(int file, uint64_t offset, size_t capacity) {
    if (capacity == 0) {
        errno = EINVAL;
        return NULL;
    }
    pb_keeper *keeper = calloc(1, sizeof *keeper);
    if (!keeper) return NULL;
    keeper->file = file;
    keeper->requested = offset;
    keeper->mapped = sizeof(shared_tail) + capacity;
    void *memory = mmap(NULL, keeper->mapped, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        int failure = errno;
        free(keeper);
        errno = failure;
        return NULL;
    }
    keeper->tail = memory;
    keeper->tail->capacity = capacity;
    atomic_store(&keeper->tail->committed, offset);
    atomic_store(&keeper->tail->written, offset);
    atomic_store(&keeper->tail->failure, 0);

    int ends[2];
#if defined(SOCK_CLOEXEC)
    int paired = socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends);
#else
    int paired = socketpair(AF_UNIX, SOCK_STREAM, 0, ends);
    if (paired == 0) {
        fcntl(ends[0], F_SETFD, FD_CLOEXEC);
        fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    }
#endif
    if (paired != 0) {
        int failure = errno;
        munmap(memory, keeper->mapped);
        free(keeper);
        errno = failure;
        return NULL;
    }
    pid_t pid = fork();
    if (pid == 0) keep(keeper->tail, file, ends[1]);
    int failure = errno;
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        munmap(memory, keeper->mapped);
        free(keeper);
        errno = failure;
        return NULL;
    }
    keeper->socket = ends[0];
    keeper->pid = pid;
    return keeper;
}

/// The keeper's write failure, or 0.
static int failure_of(pb_keeper *keeper) {
    return atomic_load_explicit(&keeper->tail->failure, memory_order_acquire);
}

int pb_keeper_request(pb_keeper *keeper) {
    uint64_t committed = atomic_load_explicit(&keeper->tail->committed, memory_order_relaxed);
    if (keeper->gone) return write_out(keeper->tail, keeper->file);
    if (committed == keeper->requested) return failure_of(keeper);
    keeper->requested = committed;
    for (;;) {
        ssize_t sent = send(keeper->socket, "w", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent == 1 || (sent < 0 && errno == EAGAIN)) break;  // EAGAIN: requests are waiting already
        if (sent < 0 && errno == EINTR) continue;
        keeper->gone = 1;
        return write_out(keeper->tail, keeper->file);
    }
    return failure_of(keeper);
}

/// Waits for the keeper to answer a request; when it is gone, writes out instead.
static int await_keeper(pb_keeper *keeper) {
    char answers[256];
    for (;;) {
        ssize_t count = recv(keeper->socket, answers, sizeof answers, 0);
        if (count > 0) return failure_of(keeper);
        if (count < 0 && errno == EINTR) continue;
        keeper->gone = 1;
        return write_out(keeper->tail, keeper->file);
    }
}

int pb_keeper_write_out(pb_keeper *keeper) {
    shared_tail *tail = keeper->tail;
    uint64_t target = atomic_load_explicit(&tail->committed, memory_order_relaxed);
    int failure = pb_keeper_request(keeper);
    while (!failure && atomic_load_explicit(&tail->written, memory_order_acquire) < target) {
        failure = keeper->gone ? write_out(tail, keeper->file) : await_keeper(keeper);
    }
    return failure;
}

int pb_keeper_append(pb_keeper *keeper, const void *bytes, size_t count) {
    shared_tail *tail = keeper->tail;
    uint64_t committed = atomic_load_explicit(&tail->committed, memory_order_relaxed);
    int failure = failure_of(keeper);
    if (failure) return failure;
    if (count > tail->capacity) {
        // Too large for the ring: once the file holds everything before it, straight to the file.
        failure = pb_keeper_write_out(keeper);
        if (!failure) failure = pwrite_all(keeper->file, bytes, count, committed);
        if (failure) return failure;
        // `written` first: a keeper that sees `committed` moved must not write the ring there.
        atomic_store_explicit(&tail->written, committed + count, memory_order_release);
        atomic_store_explicit(&tail->committed, committed + count, memory_order_release);
        keeper->requested = committed + count;
        return 0;
    }
    while (!failure && committed + count - atomic_load_explicit(&tail->written, memory_order_acquire) > tail->capacity) {
        failure = pb_keeper_request(keeper);
        if (!failure) failure = keeper->gone ? write_out(tail, keeper->file) : await_keeper(keeper);
    }
    if (failure) return failure;
    uint64_t at = committed % tail->capacity;
    size_t first = (size_t)(tail->capacity - at);
    if (first > count) first = count;
    memcpy(tail->ring + at, bytes, first);
    memcpy(tail->ring, (const unsigned char *)bytes + first, count - first);
    atomic_store_explicit(&tail->committed, committed + count, memory_order_release);
    if (committed + count - keeper->requested >= tail->capacity / 4) return pb_keeper_request(keeper);
    return 0;
}

int pb_keeper_process(const pb_keeper *keeper) {
    return (int)keeper->pid;
}

void pb_keeper_stop(pb_keeper *keeper) {
    close(keeper->socket);
    while (waitpid(keeper->pid, NULL, 0) < 0 && errno == EINTR) {}
    munmap(keeper->tail, keeper->mapped);
    free(keeper);
}
