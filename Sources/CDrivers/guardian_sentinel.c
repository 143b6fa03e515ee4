/*
 * The crash guardian's early warning: a thread of this process that holds a robust, process-shared
 * mutex in a page it shares with the guardian, and never lets go until the guardian is disarmed.
 *
 * Why: the guardian's channel reads end of file only when the kernel closes the dead process's
 * descriptors, and do_exit() does that after it has torn down the whole address space. For a
 * process that locked its memory for real-time work that takes tens of milliseconds on a small
 * board, and 55–165 ms in the kernel lane's emulated guest for the ~90 MB `play` keeps locked —
 * all the while the chip keeps driving. A robust futex is released earlier: each exiting thread's
 * robust list is walked before its share of the address space is dropped, so the kernel marks the
 * mutex FUTEX_OWNER_DIED and wakes the guardian as soon as the sentinel thread starts to die —
 * which, since it never ends on its own, means the process is dying (SIGKILL, the OOM killer, a
 * crash). The guardian then stops the chips at once, and again at end of file (see guardian.c).
 */
#define _GNU_SOURCE
#include "guardian_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What the parent sends the sentinel: let go of the lock and end, or end holding it (tests). */
static const char release_byte = 'L';
static const char abandon_byte = 'A';

/* Enough for a thread that blocks in read() and calls pthread_mutex_(un)lock. */
#define SENTINEL_STACK_BYTES (64 * 1024)

struct hb_sentinel {
    /* The mutex, in a MAP_SHARED page: fork() leaves it shared with the guardian. */
    pthread_mutex_t *lock;
    /* The parent writes release_byte or abandon_byte to [1]; the sentinel reads [0]. */
    int commands[2];
    /* Posted once the sentinel holds the lock. */
    sem_t holding;
    int holding_initialised;
    int lock_error;
    pthread_t thread;
    int running;
};

static void *sentinel_main(void *argument) {
    hb_sentinel *sentinel = argument;
    sentinel->lock_error = pthread_mutex_lock(sentinel->lock);
    sem_post(&sentinel->holding);
    if (sentinel->lock_error != 0) return NULL;
    char command = 0;
    ssize_t got;
    do {
        got = read(sentinel->commands[0], &command, 1);
    } while (got < 0 && errno == EINTR);
    /* Anything but an explicit abandon (end of file included) lets go, so the guardian is never
     * told of a death that did not happen. */
    if (!(got == 1 && command == abandon_byte)) pthread_mutex_unlock(sentinel->lock);
    return NULL;
}

static int init_shared_lock(pthread_mutex_t *lock) {
    pthread_mutexattr_t attributes;
    int error = pthread_mutexattr_init(&attributes);
    if (error != 0) return error;
    error = pthread_mutexattr_setpshared(&attributes, PTHREAD_PROCESS_SHARED);
    if (error == 0) error = pthread_mutexattr_setrobust(&attributes, PTHREAD_MUTEX_ROBUST);
    if (error == 0) error = pthread_mutex_init(lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
    return error;
}

/* Starts the thread with every signal blocked, so no process-directed signal is ever handled on it. */
static int start_thread(hb_sentinel *sentinel) {
    pthread_attr_t attributes;
    int error = pthread_attr_init(&attributes);
    if (error != 0) return error;
    error = pthread_attr_setstacksize(&attributes, SENTINEL_STACK_BYTES);
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    if (error == 0) error = pthread_create(&sentinel->thread, &attributes, sentinel_main, sentinel);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    pthread_attr_destroy(&attributes);
    return error;
}

static void end_thread(hb_sentinel *sentinel, char command) {
    if (!sentinel->running) return;
    ssize_t sent;
    do {
        sent = write(sentinel->commands[1], &command, 1);
    } while (sent < 0 && errno == EINTR);
    /* Without the byte, closing the pipe below ends the read with end of file: a release. */
    close(sentinel->commands[1]);
    sentinel->commands[1] = -1;
    pthread_join(sentinel->thread, NULL);
    sentinel->running = 0;
}

int hb_sentinel_start(hb_sentinel **started) {
    hb_sentinel *sentinel = calloc(1, sizeof *sentinel);
    if (sentinel == NULL) return ENOMEM;
    sentinel->commands[0] = sentinel->commands[1] = -1;
    int error = 0;
    void *page = mmap(NULL, sizeof(pthread_mutex_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        free(sentinel);
        return errno;
    }
    sentinel->lock = page;
    if (pipe2(sentinel->commands, O_CLOEXEC) != 0) error = errno;
    if (error == 0) {
        if (sem_init(&sentinel->holding, 0, 0) != 0) error = errno;
        else sentinel->holding_initialised = 1;
    }
    if (error == 0) error = init_shared_lock(sentinel->lock);
    if (error == 0) error = start_thread(sentinel);
    if (error == 0) {
        sentinel->running = 1;
        while (sem_wait(&sentinel->holding) != 0 && errno == EINTR) {}
        error = sentinel->lock_error;
    }
    if (error != 0) {
        hb_sentinel_release(sentinel);
        return error;
    }
    *started = sentinel;
    return 0;
}

volatile uint32_t *hb_sentinel_word(hb_sentinel *sentinel) {
    /* glibc keeps a mutex's futex word, for a robust one the owner's TID and the FUTEX_* bits,
     * in __data.__lock: the word the kernel's robust-list walk updates. */
    return (volatile uint32_t *)&sentinel->lock->__data.__lock;
}

void hb_sentinel_abandon(hb_sentinel *sentinel) {
    end_thread(sentinel, abandon_byte);
}

void hb_sentinel_release(hb_sentinel *sentinel) {
    if (sentinel == NULL) return;
    end_thread(sentinel, release_byte);
    if (sentinel->commands[0] >= 0) close(sentinel->commands[0]);
    if (sentinel->commands[1] >= 0) close(sentinel->commands[1]);
    if (sentinel->holding_initialised) sem_destroy(&sentinel->holding);
    munmap(sentinel->lock, sizeof(pthread_mutex_t));
    free(sentinel);
}
