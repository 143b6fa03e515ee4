#define _GNU_SOURCE
#include "cdrivers.h"

#include <alloca.h>
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* CAP_IPC_LOCK from linux/capability.h, which is not needed for anything else. */
#define CAP_IPC_LOCK_BIT 14

/* ---------------------------------------------------------------- real-time thread set-up */

int hb_rt_set_current_thread_fifo(int priority) {
    struct sched_param param = {.sched_priority = priority};
    /* pthread_setschedparam returns the error number instead of setting errno. */
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
}

int hb_rt_set_current_thread_cpu(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    /* Like pthread_setschedparam, this returns the error number (EINVAL: no such CPU online or allowed). */
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int hb_rt_set_current_thread_timer_slack(unsigned long nanoseconds) {
    /* prctl is variadic, which Swift cannot call; this is the reason the shim exists. */
    if (prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0) < 0) return errno;
    return 0;
}

/* CAP_IPC_LOCK in the effective set, from the CapEff line of /proc/self/status (no libcap needed). */
static int has_ipc_lock_capability(void) {
    FILE *status = fopen("/proc/self/status", "re");
    if (status == NULL) return 0;
    char line[256];
    unsigned long long effective = 0;
    int found = 0;
    while (fgets(line, sizeof line, status) != NULL) {
        if (sscanf(line, "CapEff: %llx", &effective) == 1) {
            found = 1;
            break;
        }
    }
    fclose(status);
    return found && (effective & (1ULL << CAP_IPC_LOCK_BIT)) != 0;
}

int hb_rt_lock_memory_on_fault(uint64_t *memlock_limit) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_MEMLOCK, &limit) < 0) return errno;
    *memlock_limit = limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)limit.rlim_cur;
    /*
     * Under a finite RLIMIT_MEMLOCK, MCL_FUTURE makes every later mmap fail once the limit is
     * reached (malloc, thread stacks): a process that locked itself could not allocate any more.
     * Lock only when the lock is unbounded.
     */
    if (limit.rlim_cur != RLIM_INFINITY && !has_ipc_lock_capability()) return EPERM;
#ifdef MCL_ONFAULT
    if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) < 0) return errno;
    return 0;
#else
    return EINVAL;
#endif
}

/* Not inlined, so the touched frame lies below every caller's. */
__attribute__((noinline)) void hb_rt_prefault_stack(size_t bytes) {
    volatile unsigned char *frame = alloca(bytes);
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) page = 4096;
    for (size_t offset = 0; offset < bytes; offset += (size_t)page) frame[offset] = 0;
    frame[bytes - 1] = 0;
}

int hb_rt_priority_limit(uint64_t *soft_limit) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_RTPRIO, &limit) < 0) return errno;
    *soft_limit = limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)limit.rlim_cur;
    return 0;
}

/* ---------------------------------------------------------------- interruptible absolute sleep */

int hb_deadline_sleeper_open(int *timer_fd, int *wake_fd) {
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (timer < 0) return errno;
    int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake < 0) {
        int error = errno;
        close(timer);
        return error;
    }
    *timer_fd = timer;
    *wake_fd = wake;
    return 0;
}

int hb_deadline_sleeper_wait(int timer_fd, int wake_fd, int64_t deadline_ns, int *interrupted) {
    *interrupted = 0;
    if (deadline_ns <= 0) return 0;
    struct itimerspec spec = {
        .it_interval = {0, 0},
        .it_value = {.tv_sec = (time_t)(deadline_ns / 1000000000), .tv_nsec = (long)(deadline_ns % 1000000000)},
    };
    if (timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &spec, NULL) < 0) return errno;
    struct pollfd fds[2] = {{.fd = timer_fd, .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
    for (;;) {
        /* An infinite poll timeout: the timerfd carries the absolute deadline, so nothing drifts. */
        int ready = poll(fds, 2, -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        break;
    }
    uint64_t count;
    /* Both descriptors are non-blocking; draining them re-arms the next wait. EAGAIN means "not ready". */
    if (fds[1].revents & POLLIN) {
        if (read(wake_fd, &count, sizeof count) == (ssize_t)sizeof count) *interrupted = 1;
    }
    if (fds[0].revents & POLLIN) {
        (void)read(timer_fd, &count, sizeof count);
    } else {
        /* Disarm, so an expiry after an early wake cannot end the next sleep too soon. */
        struct itimerspec disarm = {{0, 0}, {0, 0}};
        (void)timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &disarm, NULL);
    }
    return 0;
}

int hb_deadline_sleeper_wake(int wake_fd) {
    uint64_t one = 1;
    for (;;) {
        if (write(wake_fd, &one, sizeof one) == (ssize_t)sizeof one) return 0;
        /* EAGAIN: the counter is saturated, so a wake is already pending. */
        if (errno == EAGAIN) return 0;
        if (errno != EINTR) return errno;
    }
}

void hb_deadline_sleeper_close(int timer_fd, int wake_fd) {
    close(timer_fd);
    close(wake_fd);
}

/* ---------------------------------------------------------------- futex sleep on a wake word */

/*
 * The word's three states. Only the sleeping thread moves it out of PENDING or into WAITING; any
 * thread moves it to PENDING. An interrupter makes a system call only when it finds WAITING.
 */
enum { HB_WAKE_IDLE = 0, HB_WAKE_PENDING = 1, HB_WAKE_WAITING = 2 };

int hb_wake_word_sleep(uint32_t *word, int64_t deadline_ns, int *interrupted) {
    _Atomic uint32_t *state = (_Atomic uint32_t *)word;
    *interrupted = 0;
    uint32_t expected = HB_WAKE_IDLE;
    if (!atomic_compare_exchange_strong(state, &expected, HB_WAKE_WAITING)) {
        /* PENDING: an interrupt sent while nobody slept ends this sleep at once. */
        atomic_store(state, HB_WAKE_IDLE);
        *interrupted = 1;
        return 0;
    }
    /* Absolute on CLOCK_MONOTONIC: FUTEX_WAIT_BITSET without FUTEX_CLOCK_REALTIME. A deadline at or
     * before the clock's origin is simply past. */
    int64_t clamped = deadline_ns > 0 ? deadline_ns : 0;
    struct timespec until = {.tv_sec = (time_t)(clamped / 1000000000), .tv_nsec = (long)(clamped % 1000000000)};
    for (;;) {
        long result = syscall(SYS_futex, word, FUTEX_WAIT_BITSET_PRIVATE, HB_WAKE_WAITING, &until, NULL, FUTEX_BITSET_MATCH_ANY);
        int error = result == 0 ? 0 : errno;
        if (error == 0 || error == EAGAIN || error == EINTR) {
            /* Woken, or the word had already changed, or a signal: an interrupt leaves PENDING;
             * anything else was spurious, and the wait goes on to the same deadline. */
            if (atomic_load(state) != HB_WAKE_PENDING) continue;
            atomic_store(state, HB_WAKE_IDLE);
            *interrupted = 1;
            return 0;
        }
        /* The deadline (ETIMEDOUT) or a refusal: leave WAITING; an interrupt that came meanwhile
         * was sent for this sleep, and it has ended. */
        if (atomic_exchange(state, HB_WAKE_IDLE) == HB_WAKE_PENDING) *interrupted = 1;
        return error == ETIMEDOUT ? 0 : error;
    }
}

void hb_wake_word_interrupt(uint32_t *word) {
    _Atomic uint32_t *state = (_Atomic uint32_t *)word;
    if (atomic_exchange(state, HB_WAKE_PENDING) == HB_WAKE_WAITING) {
        (void)syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
}

uint64_t hb_malloc_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
}

int hb_malloc_arena_count(void) {
    char *text = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&text, &size);
    if (stream == NULL) return -1;
    int failed = malloc_info(0, stream);
    fclose(stream);
    int count = -1;
    if (failed == 0) {
        /* One <heap nr="N"> element per arena, the main one included. */
        count = 0;
        for (const char *at = text; (at = strstr(at, "<heap nr=")) != NULL; at++) count++;
    }
    free(text);
    return count;
}

int hb_malloc_limit_arenas(int count) {
    /* mallopt returns 1 on success and 0 on error, and sets no errno. */
    return mallopt(M_ARENA_MAX, count) == 1 ? 0 : EINVAL;
}
