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
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif
#if !defined(MSG_NOSIGNAL)
#define MSG_NOSIGNAL 0
#endif

// On Linux (x86-64 and arm64) the keeper is a process that shares the writer's memory
// (`clone` with `CLONE_VM`): starting it copies nothing, and the writer's pages do not become
// copy-on-write, as a `fork` would make them (each first write to one would then copy it).
// Sharing the writer's thread-local storage, the keeper may not touch `errno`: it makes its
// system calls itself. Elsewhere it is forked.
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define KEEPER_SHARES_MEMORY 1
#else
#define KEEPER_SHARES_MEMORY 0
#endif

#if KEEPER_SHARES_MEMORY
/// A system call: its result, or minus its error number.
__attribute__((no_stack_protector))
static long raw_call(long number, long a, long b, long c, long d, long e) {
#if defined(__x86_64__)
    long result;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return result;
#else
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory");
    return x0;
#endif
}
#define CALL(number, a, b, c, d, e) raw_call((number), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e))
#define RESULT(expression) (expression)
#else
#define CALL(number, a, b, c, d, e) (-1)
#define RESULT(expression) ((expression) < 0 ? -(long)errno : (long)(expression))
#endif

// The calls the keeper makes: results, or minus error numbers.
#if KEEPER_SHARES_MEMORY
#define KEEPER_PWRITE(file, bytes, count, offset) CALL(SYS_pwrite64, file, bytes, count, offset, 0)
#define KEEPER_RECV(socket, bytes, count) CALL(SYS_recvfrom, socket, bytes, count, 0, 0)
#define KEEPER_SEND(socket, bytes, count, flags) CALL(SYS_sendto, socket, bytes, count, flags, 0)
#define KEEPER_CLOSE(descriptor) CALL(SYS_close, descriptor, 0, 0, 0, 0)
#else
#define KEEPER_PWRITE(file, bytes, count, offset) RESULT(pwrite(file, bytes, count, (off_t)(offset)))
#define KEEPER_RECV(socket, bytes, count) RESULT(recv(socket, bytes, count, 0))
#define KEEPER_SEND(socket, bytes, count, flags) RESULT(send(socket, bytes, count, flags))
#define KEEPER_CLOSE(descriptor) RESULT(close(descriptor))
#endif

/// The committed bytes after which the writer asks the keeper to write out: large enough that
/// asking is rare, small enough that the keeper writes in step with the writer, leaving the rest
/// of the buffer to absorb the times the file system makes the keeper wait.
#define KEEPER_REQUEST_BYTES (256 * 1024)

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
    /// The keeper's stack, when it shares the writer's memory.
    void *stack;
    size_t stack_size;
    /// `committed` when the writer last asked for a write-out.
    uint64_t requested;
    /// Whether the keeper is gone, so that the writer writes the file itself.
    int gone;
};

/// Writes all of `bytes` at `offset`: 0, or the error number.
__attribute__((no_stack_protector))
static int pwrite_all(int file, const unsigned char *bytes, size_t count, uint64_t offset) {
    while (count > 0) {
        long done = KEEPER_PWRITE(file, bytes, count, offset);
        if (done == -EINTR) continue;
        if (done < 0) return (int)-done;
        if (done == 0) return EIO;
        bytes += done;
        count -= (size_t)done;
        offset += (uint64_t)done;
    }
    return 0;
}

/// Writes `[written, committed)` from the ring. It makes only system calls, as the keeper must.
__attribute__((no_stack_protector))
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

/// Closes the descriptors from `first` to `last`.
__attribute__((no_stack_protector))
static void close_range_of(int first, int last) {
    if (first > last) return;
#if defined(__linux__) && defined(SYS_close_range)
#if KEEPER_SHARES_MEMORY
    if (CALL(SYS_close_range, first, last, 0, 0, 0) == 0) return;
#else
    if (syscall(SYS_close_range, (unsigned)first, (unsigned)last, 0u) == 0) return;
#endif
#endif
    // Without close_range(2): the usual limit of open descriptors.
    if (last > 1023) last = 1023;
    for (int descriptor = first; descriptor <= last; descriptor++) KEEPER_CLOSE(descriptor);
}

/// Closes every descriptor but standard output and error, the file and the socket.
__attribute__((no_stack_protector))
static void close_all_but(int file, int socket) {
    int kept[] = {STDOUT_FILENO, STDERR_FILENO, file, socket};
    for (int i = 1; i < 4; i++) {
        for (int j = i; j > 0 && kept[j - 1] > kept[j]; j--) {
            int swap = kept[j];
            kept[j] = kept[j - 1];
            kept[j - 1] = swap;
        }
    }
    int next = 0;
    for (int i = 0; i < 4; i++) {
        close_range_of(next, kept[i] - 1);
        if (kept[i] + 1 > next) next = kept[i] + 1;
    }
    close_range_of(next, 0x7fffffff);
}

/// What the keeper starts with, at the top of its stack (or in its copy of the writer's memory).
typedef struct keeper_start {
    shared_tail *tail;
    int file;
    int socket;
} keeper_start;

/// The keeper: writes out when asked, and once more when the writer is gone, then exits. It
/// starts with every signal blocked (SIGKILL aside), in a session of its own.
__attribute__((no_stack_protector))
static int keep(void *argument) {
    keeper_start start = *(keeper_start *)argument;
#if KEEPER_SHARES_MEMORY
    CALL(SYS_setsid, 0, 0, 0, 0, 0);
    CALL(SYS_prctl, PR_SET_NAME, "patchbay-keeper", 0, 0, 0);
#else
    setsid();
#endif
    close_all_but(start.file, start.socket);
    char requests[256];
    for (;;) {
        long count = KEEPER_RECV(start.socket, requests, sizeof requests);
        if (count == -EINTR) continue;
        if (count <= 0) break;
        int failure = write_out(start.tail, start.file);
        int none = 0;
        if (failure) atomic_compare_exchange_strong(&start.tail->failure, &none, failure);
        KEEPER_SEND(start.socket, "w", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    write_out(start.tail, start.file);
#if KEEPER_SHARES_MEMORY
    for (;;) CALL(SYS_exit, 0, 0, 0, 0, 0);
#else
    _exit(0);
#endif
}

/// Starts `keep` in a process of its own with every signal blocked; its pid, or -1 with errno.
static pid_t start_keeper(keeper_start *start, void **stack, size_t *stack_size) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = -1;
    int failure = 0;
#if KEEPER_SHARES_MEMORY
    *stack_size = 64 * 1024;
    *stack = mmap(NULL, *stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (*stack == MAP_FAILED) {
        failure = errno;
        *stack = NULL;
    } else {
        keeper_start *copy = (keeper_start *)((char *)*stack + *stack_size) - 1;
        *copy = *start;
        // The stack grows down from below the copy, 16-byte aligned.
        void *top = (void *)((uintptr_t)copy & ~(uintptr_t)15);
        pid = clone(keep, top, CLONE_VM | SIGCHLD, copy);
        if (pid < 0) failure = errno;
    }
#else
    *stack = NULL;
    *stack_size = 0;
    pid = fork();
    if (pid == 0) keep(start);
    if (pid < 0) failure = errno;
#endif
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (pid < 0) errno = failure;
    return pid;
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
    keeper_start start = {keeper->tail, file, ends[1]};
    pid_t pid = start_keeper(&start, &keeper->stack, &keeper->stack_size);
    int failure = errno;
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        if (keeper->stack) munmap(keeper->stack, keeper->stack_size);
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

/// The keeper is gone (its end of the socket closed when it died, so it writes no more): from
/// now on the writer writes the file itself, starting with what the keeper left.
static int take_over(pb_keeper *keeper) {
    keeper->gone = 1;
    return write_out(keeper->tail, keeper->file);
}

int pb_keeper_request(pb_keeper *keeper) {
    uint64_t committed = atomic_load_explicit(&keeper->tail->committed, memory_order_relaxed);
    if (keeper->gone) return write_out(keeper->tail, keeper->file);
    if (committed == keeper->requested) return failure_of(keeper);
    keeper->requested = committed;
    for (;;) {
        ssize_t sent = send(keeper->socket, "w", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent == 1 || (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))) break;  // EAGAIN: requests wait already
        if (sent < 0 && errno == EINTR) continue;
        if (sent < 0 && errno != EPIPE && errno != ECONNRESET) return errno;
        return take_over(keeper);
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
        if (count < 0 && errno != ECONNRESET) return errno;
        return take_over(keeper);
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
    if (committed + count - keeper->requested >= KEEPER_REQUEST_BYTES) return pb_keeper_request(keeper);
    return 0;
}

int pb_keeper_process(const pb_keeper *keeper) {
    return (int)keeper->pid;
}

void pb_keeper_stop(pb_keeper *keeper) {
    close(keeper->socket);
    while (waitpid(keeper->pid, NULL, 0) < 0 && errno == EINTR) {}
    if (keeper->stack) munmap(keeper->stack, keeper->stack_size);
    munmap(keeper->tail, keeper->mapped);
    free(keeper);
}
