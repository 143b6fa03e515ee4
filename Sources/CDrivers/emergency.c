/*
 * Emergency stop on a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT).
 *
 * When the process crashes, nothing in Swift may run: the handler below only walks a table of
 * pre-built stop steps (a multiplexer's channel select, then the chip's writes; stop_steps.c issues
 * each with ioctls on a descriptor that is already open), then restores the default action and
 * re-raises the signal so the process still dies with its core dump and exit status. No allocation,
 * no locks, no stdio: only ioctl, sigaction and raise, which are plain system calls.
 *
 * This is the first line of defence for a crash; the crash guardian (guardian.c) is the one that
 * also covers SIGKILL and the OOM killer, and drives the enable lines low once the process is gone.
 *
 * This file keeps global state on purpose (a signal handler can reach nothing else): a fixed table
 * filled by hb_emergency_arm before a chip is published by incrementing the count.
 */
#include "cdrivers.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

typedef struct emergency_chip {
    /* The bus descriptor of every step; -1 once disarmed. */
    int bus_fd;
    size_t step_count;
    hb_stop_step steps[HB_STOP_MAX_CHIP_STEPS];
} emergency_chip;

static emergency_chip chips[HB_STOP_MAX_CHIPS];
static volatile sig_atomic_t chip_count = 0;
static volatile sig_atomic_t handlers_installed = 0;
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
#define FATAL_SIGNAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])

static void emergency_handler(int signal_number) {
    sig_atomic_t count = chip_count;
    for (sig_atomic_t chip = 0; chip < count; chip++) {
        emergency_chip *entry = &chips[chip];
        if (entry->bus_fd < 0) continue;
        for (size_t index = 0; index < entry->step_count; index++) {
            /* A failure cannot be reported from here; the next step is still worth trying. */
            (void)hb_stop_issue(&entry->steps[index]);
        }
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    (void)sigaction(signal_number, &fallback, NULL);
    (void)raise(signal_number);
}

static int install_handlers(void) {
    if (handlers_installed) return 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = emergency_handler;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < FATAL_SIGNAL_COUNT; index++) {
        if (sigaction(fatal_signals[index], &action, NULL) != 0) return errno;
    }
    handlers_installed = 1;
    return 0;
}

int hb_emergency_arm(const hb_stop_step *steps, size_t count) {
    if (steps == NULL || count == 0 || count > HB_STOP_MAX_CHIP_STEPS || steps[0].bus_fd < 0) return EINVAL;
    for (size_t index = 1; index < count; index++) {
        if (steps[index].bus_fd != steps[0].bus_fd) return EINVAL;
    }
    sig_atomic_t armed = chip_count;
    if (armed >= HB_STOP_MAX_CHIPS) return ENOSPC;
    emergency_chip *entry = &chips[armed];
    entry->bus_fd = steps[0].bus_fd;
    entry->step_count = count;
    memcpy(entry->steps, steps, count * sizeof *steps);
    int error = install_handlers();
    if (error != 0) return error;
    /* Published last: the handler never sees a half-filled entry. */
    chip_count = armed + 1;
    return 0;
}

void hb_emergency_disarm(int bus_fd) {
    /* Entries are disabled, not removed, so a concurrent handler never reads a moved entry. */
    sig_atomic_t count = chip_count;
    for (sig_atomic_t chip = 0; chip < count; chip++) {
        if (chips[chip].bus_fd == bus_fd) chips[chip].bus_fd = -1;
    }
}

size_t hb_emergency_armed_count(void) {
    size_t armed = 0;
    sig_atomic_t count = chip_count;
    for (sig_atomic_t chip = 0; chip < count; chip++) {
        if (chips[chip].bus_fd >= 0) armed++;
    }
    return armed;
}
