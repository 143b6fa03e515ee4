/*
 * The crash guardian: a forked child that stops the chips when this process dies without saying
 * goodbye.
 *
 * SIGKILL, the OOM killer and a crash run no code of this process to the end, and a DRV2605 in RTP
 * mode keeps driving its last value for ever. What the kernel does for every dead process is close
 * its descriptors. So the guardian holds one end of a socket pair whose other end only this process
 * holds, and blocks in read(): a disarm byte is an orderly end (it exits touching nothing); end of
 * file without one means this process is gone, and it issues the stop steps (stop_steps.c), drives
 * every enable line low (gpio_line_low.c) and exits.
 *
 * End of file comes only once the kernel has torn down the dead process's address space, which
 * for a process with much memory locked takes tens of milliseconds or more; so the guardian also
 * watches an early warning (guardian_sentinel.c), a robust futex the kernel releases as soon as the
 * process starts to die. On it the guardian issues the stop steps at once and drives low the enable
 * lines whose requests it holds copies of (below); at end of file — when no thread of the dead
 * process can still be inside a bus transfer, and its line requests are gone — it issues the steps
 * again, to undo a write that was in flight when the process was killed (a chip whose EN is low
 * already takes no write, E2E 1174173), then drives every enable line low.
 *
 * The descriptor hand-over, which is the whole design:
 * - The channel is a socket pair, not a pipe, so that the disarm write cannot raise SIGPIPE in a
 *   process that is ending in good order (send with MSG_NOSIGNAL), and so that the parent can wait
 *   for the guardian's exit with poll() on its own end, which reads end of file once the guardian's
 *   end is closed by its exit: a bounded wait without a polling loop.
 * - Both ends are close-on-exec: a program this process spawns must never hold the parent's end,
 *   or the guardian would not see this process die. The parent closes the guardian's end after
 *   fork(); the guardian closes the parent's end (among everything else, below).
 * - The guardian keeps the bus descriptors of the stop steps: the same open i2c-dev files as the
 *   parent's. Per-file i2c-dev state (the I2C_SLAVE address of the SMBus path) is shared, but the
 *   guardian touches it only once the parent is gone, so the two never contend.
 * - The guardian keeps one descriptor per enable line's GPIO chip device, opened by the parent before
 *   fork() (where a missing permission is still an error the command can report) and closed there
 *   after it. A chip descriptor requests nothing by itself.
 * - The guardian keeps the parent's requests of the enable lines it was given (hb_guardian_line's
 *   request_fd), so that it can drive them low at the early warning, tens of milliseconds before the
 *   kernel would release the dead parent's requests. A line request lives as long as any descriptor
 *   of it is open, so the guardian's copy keeps the line requested while the guardian lives: until
 *   the parent's disarm, which the parent sends, and whose exit it waits for, before it lets go of
 *   its lines. A line given without a request is requested by the guardian itself, with raw uAPI
 *   ioctls, once the parent's request is gone.
 * - The guardian closes every other inherited descriptor, the parent's other GPIO line requests
 *   (buttons, encoders) above all: a copy would keep such a line requested after the parent let it
 *   go, and the parent, or the next command, would find it busy.
 *
 * Between fork() and _exit() the child of a multi-threaded process may only make async-signal-safe
 * calls (another thread may have held a lock that the child's copy of memory now holds for ever), so
 * everything the child needs is prepared before fork() in plain memory, and the child uses only
 * prctl, sigaction, sigprocmask, setsid, close, read, write, poll, futex, ioctl, nanosleep and _exit.
 */
#define _GNU_SOURCE
#include "guardian_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What an orderly end sends before closing its end of the channel. */
static const char disarm_byte = 'D';
/* What the guardian sends once it holds only its own descriptors and signals. */
static const char ready_byte = 'R';
/* How long the parent waits for that; set-up takes microseconds, but a loaded machine may stall. */
#define READY_TIMEOUT_MS 5000

/*
 * How long the guardian waits for the dead parent's request of an enable line to go away. That request
 * is released in the same teardown that closed the parent's end of the channel, but not necessarily
 * before it (each descriptor of a dying process is released on its own, in no promised order), so the
 * guardian's request may still meet it: EBUSY is retried every millisecond for up to half a second. A
 * line still busy then belongs to a process that requested it since, and is left alone.
 */
#define LINE_RETRY_INTERVAL_NS 1000000L
#define LINE_RETRY_ATTEMPTS 500

/*
 * How often the guardian, waiting on the early warning, also looks at its channel: the kernel can
 * mark the sentinel's lock only while the dying process's robust list is intact, and a process that
 * corrupts its memory before it dies may have broken it. The channel's end of file always comes.
 */
#define CHANNEL_CHECK_INTERVAL_S 1

#define MAX_STEPS (HB_STOP_MAX_CHIPS * HB_STOP_MAX_CHIP_STEPS)

struct hb_guardian {
    pid_t pid;
    /* This process's end of the channel. */
    int channel_fd;
    hb_sentinel *sentinel;
};

/* Everything the guardian needs, prepared before fork() in memory the child gets a copy of. */
typedef struct guardian_plan {
    int channel_fd;
    /* The sentinel's lock word, in the page the guardian shares with this process. */
    volatile uint32_t *sentinel_word;
    /* -1, or the descriptor that receives what the guardian would do (tests). */
    int record_fd;
    size_t step_count;
    hb_stop_step steps[MAX_STEPS];
    size_t line_count;
    int line_chip_fds[HB_STOP_MAX_LINES];
    uint32_t line_offsets[HB_STOP_MAX_LINES];
    /* The parent's request of each line (-1: none) and the uAPI it speaks. */
    int line_request_fds[HB_STOP_MAX_LINES];
    int line_request_uapi[HB_STOP_MAX_LINES];
    /* Descriptors the guardian keeps, ascending (repeats allowed); it closes every other one. */
    size_t kept_count;
    int kept[2 + MAX_STEPS + 2 * HB_STOP_MAX_LINES];
    /* One past the highest descriptor number that can be open (RLIMIT_NOFILE), for old kernels. */
    unsigned int descriptor_limit;
} guardian_plan;

/* ------------------------------------------------------------------ the guardian (child) */

/* Closes descriptors first…last. */
static void close_range_of(unsigned int first, unsigned int last, unsigned int limit) {
    if (first > last) return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0) == 0) return;
#endif
    /* Kernels before 5.9 have no close_range: one close per number below the descriptor limit. */
    for (unsigned int fd = first; fd <= last && fd < limit; fd++) (void)close((int)fd);
}

static void close_inherited_descriptors(const guardian_plan *plan) {
    unsigned int next = 0;
    for (size_t index = 0; index < plan->kept_count; index++) {
        unsigned int kept = (unsigned int)plan->kept[index];
        if (kept > next) close_range_of(next, kept - 1, plan->descriptor_limit);
        if (kept + 1 > next) next = kept + 1;
    }
    close_range_of(next, UINT_MAX, plan->descriptor_limit);
}

/*
 * Every handler back to the default (the parent's handlers — its crash handler, the Swift runtime's —
 * expect the parent's threads and state), then the signals a terminal, a shell or a service manager
 * sends to stop a command ignored, then nothing blocked. Every signal is blocked from before fork()
 * until here, so one that arrives meanwhile (a Ctrl-C) waits, and is discarded if it is one now
 * ignored. SIGKILL and SIGSTOP refuse, as do the C library's own signals.
 */
static void take_own_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        int ignored = signal_number == SIGINT || signal_number == SIGTERM || signal_number == SIGHUP || signal_number == SIGPIPE;
        action.sa_handler = ignored ? SIG_IGN : SIG_DFL;
        (void)sigaction(signal_number, &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);
}

static void record(const guardian_plan *plan, const hb_stop_step *step) {
    const char *bytes = (const char *)step;
    size_t left = sizeof *step;
    while (left > 0) {
        ssize_t written = write(plan->record_fd, bytes, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        left -= (size_t)written;
    }
}

static int drive_line_low_once_free(int chip_fd, uint32_t offset) {
    struct timespec interval = {.tv_sec = 0, .tv_nsec = LINE_RETRY_INTERVAL_NS};
    for (int attempt = 1;; attempt++) {
        int line_fd;
        /* The request stays open until _exit releases it: the line is low while the guardian lives. */
        int error = hb_guardian_drive_line_low(chip_fd, offset, &line_fd);
        if (error != EBUSY || attempt >= LINE_RETRY_ATTEMPTS) return error;
        (void)nanosleep(&interval, NULL);
    }
}

/* The steps in order (multiplexer selects before the chips' writes); returns how many failed. */
static int stop_chips(const guardian_plan *plan) {
    int failures = 0;
    for (size_t index = 0; index < plan->step_count; index++) {
        if (plan->record_fd >= 0) {
            record(plan, &plan->steps[index]);
        } else if (hb_stop_issue(&plan->steps[index]) != 0) {
            failures++;
        }
    }
    return failures;
}

/* Drives line `index` low through the parent's request held here; returns 0 or errno. */
static int drive_held_line_low(const guardian_plan *plan, size_t index) {
    if (plan->record_fd >= 0) {
        hb_stop_step line = {.bus_fd = plan->line_request_fds[index], .address = (uint16_t)plan->line_offsets[index],
                             .protocol = HB_STOP_HELD_LINE_LOW, .length = 0, .bytes = {0, 0}};
        record(plan, &line);
        return 0;
    }
    return hb_guardian_drive_held_line_low(plan->line_request_fds[index], plan->line_request_uapi[index]);
}

/* At the early warning: the steps, then the lines whose requests are held here, low. */
static void stop_at_once(const guardian_plan *plan) {
    (void)stop_chips(plan);
    for (size_t index = 0; index < plan->line_count; index++) {
        if (plan->line_request_fds[index] >= 0) (void)drive_held_line_low(plan, index);
    }
}

/* The steps, then the enable lines: once the dead process's descriptors are closed. */
static int stop_everything(const guardian_plan *plan) {
    int failures = stop_chips(plan);
    /* After the steps: with EN low the chip would ignore them. */
    for (size_t index = 0; index < plan->line_count; index++) {
        if (plan->line_request_fds[index] >= 0) {
            if (drive_held_line_low(plan, index) != 0) failures++;
        } else if (plan->record_fd >= 0) {
            hb_stop_step line = {.bus_fd = plan->line_chip_fds[index], .address = (uint16_t)plan->line_offsets[index],
                                 .protocol = HB_STOP_LINE_LOW, .length = 0, .bytes = {0, 0}};
            record(plan, &line);
        } else if (drive_line_low_once_free(plan->line_chip_fds[index], plan->line_offsets[index]) != 0) {
            failures++;
        }
    }
    return failures == 0 ? HB_GUARDIAN_EXIT_STOPPED : HB_GUARDIAN_EXIT_STOP_INCOMPLETE;
}

/*
 * Waits until the sentinel's lock is marked FUTEX_OWNER_DIED (returns 1: the process is dying) or
 * until the channel has something to say, a disarm byte or end of file (returns 0). The sentinel lets
 * go of the lock only at the end of guarding, after the disarm byte was sent, so a released lock
 * means the same as a readable channel.
 */
static int wait_for_early_warning(const guardian_plan *plan) {
    volatile uint32_t *word = plan->sentinel_word;
    for (;;) {
        uint32_t value = __atomic_load_n(word, __ATOMIC_ACQUIRE);
        if (value & FUTEX_OWNER_DIED) return 1;
        if ((value & FUTEX_TID_MASK) == 0) return 0;
        /* FUTEX_WAITERS asks whoever releases the word — the kernel, or the sentinel's unlock — to
         * wake a waiter. */
        uint32_t waiting = value | FUTEX_WAITERS;
        if (value != waiting && !__atomic_compare_exchange_n(word, &value, waiting, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            continue;
        struct timespec interval = {.tv_sec = CHANNEL_CHECK_INTERVAL_S, .tv_nsec = 0};
        /* Not FUTEX_PRIVATE_FLAG: the word is shared with another process. */
        (void)syscall(SYS_futex, word, FUTEX_WAIT, waiting, &interval, NULL, 0);
        struct pollfd channel = {.fd = plan->channel_fd, .events = POLLIN, .revents = 0};
        if (poll(&channel, 1, 0) > 0) return 0;
    }
}

static void __attribute__((noreturn)) guardian_main(const guardian_plan *plan) {
    /* What ps and top show, and what the kernel lane finds in its trace. */
    (void)prctl(PR_SET_NAME, "hb-guardian", 0, 0, 0);
    take_own_signals();
    /* A session of its own: a terminal's Ctrl-C, its hang-up and a kill of the parent's process
     * group do not reach it. Cannot fail: a fresh child is never a process group leader. */
    (void)setsid();
    close_inherited_descriptors(plan);
    /* The parent's start returns only now, so it never races this set-up (a line request it
     * releases is never kept alive by a copy here, its tests see the guardian as it stays). */
    if (write(plan->channel_fd, &ready_byte, 1) != 1) _exit(stop_everything(plan));
    if (wait_for_early_warning(plan)) stop_at_once(plan);
    for (;;) {
        char byte;
        ssize_t got = read(plan->channel_fd, &byte, 1);
        if (got == 1 && byte == disarm_byte) _exit(HB_GUARDIAN_EXIT_DISARMED);
        if (got == 1 || (got < 0 && errno == EINTR)) continue;
        /* End of file: the parent is gone. A read error leaves no way to hear from it either, and
         * stopping a chip that should have kept playing is the side to err on. */
        break;
    }
    _exit(stop_everything(plan));
}

/* ------------------------------------------------------------------ the parent's side */

static void sort_ascending(int *values, size_t count) {
    for (size_t index = 1; index < count; index++) {
        int value = values[index];
        size_t position = index;
        for (; position > 0 && values[position - 1] > value; position--) values[position] = values[position - 1];
        values[position] = value;
    }
}

static void close_line_chips(guardian_plan *plan, size_t count) {
    for (size_t index = 0; index < count; index++) (void)close(plan->line_chip_fds[index]);
}

/* Milliseconds left until `deadline` on CLOCK_MONOTONIC (0 once it has passed). */
static int milliseconds_until(const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long left = (long long)(deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
    return left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left;
}

/* Waits until the parent's end of the channel is readable: the ready byte, or end of file once the
 * guardian's end is closed by its exit. */
static int wait_readable(int channel_fd, int timeout_ms) {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
    if (deadline.tv_nsec >= 1000000000) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000;
    }
    for (;;) {
        struct pollfd closed = {.fd = channel_fd, .events = POLLIN, .revents = 0};
        int ready = poll(&closed, 1, milliseconds_until(&deadline));
        if (ready > 0) return 0;
        if (ready == 0) return ETIMEDOUT;
        if (errno != EINTR) return errno;
    }
}

/* Reaps the guardian: *status is its exit status, 128 + the signal that ended it, or -1. */
static int reap(pid_t pid, int *status) {
    int wait_status = 0;
    pid_t reaped;
    do {
        reaped = waitpid(pid, &wait_status, 0);
    } while (reaped < 0 && errno == EINTR);
    if (reaped == pid) {
        *status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : -1;
        return 0;
    }
    /* ECHILD: SIGCHLD is ignored, so the kernel reaped it already. */
    *status = -1;
    return errno == ECHILD ? 0 : errno;
}

/* Waits for the guardian's ready byte; one that dies or hangs instead is reaped and reported. */
static int await_ready(int channel_fd, pid_t pid) {
    int error = wait_readable(channel_fd, READY_TIMEOUT_MS);
    if (error == 0) {
        char byte = 0;
        ssize_t got;
        do {
            got = read(channel_fd, &byte, 1);
        } while (got < 0 && errno == EINTR);
        if (got == 1 && byte == ready_byte) return 0;
        error = got < 0 ? errno : ECHILD;
    }
    (void)kill(pid, SIGKILL);
    int status;
    (void)reap(pid, &status);
    return error;
}

int hb_guardian_start(const hb_stop_step *steps, size_t step_count, const hb_guardian_line *lines, size_t line_count,
                      int record_fd, hb_guardian **started) {
    if (started == NULL || (steps == NULL && step_count > 0) || (lines == NULL && line_count > 0)
        || step_count > MAX_STEPS || line_count > HB_STOP_MAX_LINES)
        return EINVAL;
    guardian_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.record_fd = record_fd;
    plan.step_count = step_count;
    for (size_t index = 0; index < step_count; index++) {
        if (steps[index].bus_fd < 0) return EINVAL;
        plan.steps[index] = steps[index];
        plan.kept[plan.kept_count++] = steps[index].bus_fd;
    }
    for (size_t index = 0; index < line_count; index++) {
        if (lines[index].chip_path == NULL) return EINVAL;
        int held = lines[index].request_fd >= 0;
        if (held && lines[index].request_uapi != 1 && lines[index].request_uapi != 2) return EINVAL;
        plan.line_request_fds[index] = held ? lines[index].request_fd : -1;
        plan.line_request_uapi[index] = held ? lines[index].request_uapi : 0;
        if (held) plan.kept[plan.kept_count++] = lines[index].request_fd;
    }
    struct rlimit limit;
    plan.descriptor_limit = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < UINT_MAX ? (unsigned int)limit.rlim_cur : 65536;

    hb_guardian *guardian = calloc(1, sizeof *guardian);
    if (guardian == NULL) return ENOMEM;
    int error = hb_sentinel_start(&guardian->sentinel);
    if (error != 0) {
        free(guardian);
        return error;
    }
    plan.sentinel_word = hb_sentinel_word(guardian->sentinel);
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        error = errno;
        hb_sentinel_release(guardian->sentinel);
        free(guardian);
        return error;
    }
    plan.channel_fd = ends[1];
    plan.kept[plan.kept_count++] = ends[1];
    if (record_fd >= 0) plan.kept[plan.kept_count++] = record_fd;
    for (; plan.line_count < line_count; plan.line_count++) {
        int chip_fd;
        do {
            chip_fd = open(lines[plan.line_count].chip_path, O_RDWR | O_CLOEXEC);
        } while (chip_fd < 0 && errno == EINTR);
        if (chip_fd < 0) {
            error = errno;
            break;
        }
        plan.line_chip_fds[plan.line_count] = chip_fd;
        plan.line_offsets[plan.line_count] = lines[plan.line_count].offset;
        plan.kept[plan.kept_count++] = chip_fd;
    }
    pid_t pid = -1;
    if (error == 0) {
        sort_ascending(plan.kept, plan.kept_count);
        sigset_t all, previous;
        sigfillset(&all);
        (void)pthread_sigmask(SIG_SETMASK, &all, &previous);
        pid = fork();
        if (pid == 0) guardian_main(&plan);
        if (pid < 0) error = errno;
        (void)pthread_sigmask(SIG_SETMASK, &previous, NULL);
    }
    close_line_chips(&plan, plan.line_count);
    (void)close(ends[1]);
    if (error == 0) error = await_ready(ends[0], pid);
    if (error != 0) {
        (void)close(ends[0]);
        hb_sentinel_release(guardian->sentinel);
        free(guardian);
        return error;
    }
    guardian->pid = pid;
    guardian->channel_fd = ends[0];
    *started = guardian;
    return 0;
}

int hb_guardian_pid(const hb_guardian *guardian) {
    return guardian->pid;
}

void hb_guardian_abandon_sentinel(hb_guardian *guardian) {
    hb_sentinel_abandon(guardian->sentinel);
}

int hb_guardian_finish(hb_guardian *guardian, int disarm, int timeout_ms, int *status) {
    if (guardian == NULL || status == NULL || timeout_ms < 0) return EINVAL;
    int error = 0;
    if (disarm) {
        ssize_t sent;
        do {
            sent = send(guardian->channel_fd, &disarm_byte, 1, MSG_NOSIGNAL);
        } while (sent < 0 && errno == EINTR);
        /* EPIPE: the guardian was already gone (killed, or it stopped the chips); it is still reaped. */
        if (sent != 1) error = sent < 0 ? errno : EIO;
    }
    /* After the disarm byte, so that the guardian, woken by the released lock, finds it. */
    hb_sentinel_release(guardian->sentinel);
    /* After a disarm byte the guardian reads nothing more; without one, this end of file is what
     * this process's death would look like to it. */
    (void)shutdown(guardian->channel_fd, SHUT_WR);
    /* Its end of the channel closes when it exits, which makes ours read end of file. */
    int waited = wait_readable(guardian->channel_fd, timeout_ms);
    if (waited != 0) {
        /* It is disarmed or was told to stop already; one that hangs is not left behind. */
        (void)kill(guardian->pid, SIGKILL);
        if (error == 0) error = waited;
    }
    int reaped = reap(guardian->pid, status);
    if (error == 0) error = reaped;
    (void)close(guardian->channel_fd);
    free(guardian);
    return error;
}
