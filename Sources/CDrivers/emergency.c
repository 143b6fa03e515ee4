/*
 * Emergency stop on a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT).
 *
 * When the process crashes, nothing in Swift may run: the handler below only walks a table of
 * pre-built register writes and hands each to the kernel with one I2C_RDWR ioctl on a descriptor
 * that is already open, then restores the default action and re-raises the signal so the process
 * still dies with its core dump and exit status. No allocation, no locks, no stdio: only ioctl,
 * sigaction and raise, which are plain system calls.
 *
 * This file keeps global state on purpose (a signal handler can reach nothing else): a fixed table
 * filled by hb_emergency_arm before a device is published by incrementing the count.
 */
#include "cdrivers.h"

#include <errno.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>

typedef struct emergency_device {
    int fd;
    uint16_t address;
    size_t write_count;
    uint8_t writes[HB_EMERGENCY_MAX_WRITES][2];
} emergency_device;

static emergency_device devices[HB_EMERGENCY_MAX_DEVICES];
static volatile sig_atomic_t device_count = 0;
static volatile sig_atomic_t handlers_installed = 0;
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
#define FATAL_SIGNAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])

static void emergency_handler(int signal_number) {
    sig_atomic_t count = device_count;
    for (sig_atomic_t device = 0; device < count; device++) {
        emergency_device *entry = &devices[device];
        if (entry->fd < 0) continue;
        for (size_t index = 0; index < entry->write_count; index++) {
            struct i2c_msg message = { .addr = entry->address, .flags = 0, .len = 2, .buf = entry->writes[index] };
            struct i2c_rdwr_ioctl_data transfer = { .msgs = &message, .nmsgs = 1 };
            /* A failure cannot be reported from here; the next write is still worth trying. */
            (void)ioctl(entry->fd, I2C_RDWR, &transfer);
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

int hb_emergency_arm(int fd, uint16_t address, const uint8_t *register_value_pairs, size_t write_count) {
    if (fd < 0 || register_value_pairs == NULL || write_count == 0 || write_count > HB_EMERGENCY_MAX_WRITES) return EINVAL;
    sig_atomic_t count = device_count;
    if (count >= HB_EMERGENCY_MAX_DEVICES) return ENOSPC;
    emergency_device *entry = &devices[count];
    entry->fd = fd;
    entry->address = address;
    entry->write_count = write_count;
    for (size_t index = 0; index < write_count; index++) {
        entry->writes[index][0] = register_value_pairs[2 * index];
        entry->writes[index][1] = register_value_pairs[2 * index + 1];
    }
    int error = install_handlers();
    if (error != 0) return error;
    /* Published last: the handler never sees a half-filled entry. */
    device_count = count + 1;
    return 0;
}

void hb_emergency_disarm(int fd) {
    /* Entries are disabled, not removed, so a concurrent handler never reads a moved entry. */
    sig_atomic_t count = device_count;
    for (sig_atomic_t device = 0; device < count; device++) {
        if (devices[device].fd == fd) devices[device].fd = -1;
    }
}

size_t hb_emergency_armed_count(void) {
    size_t armed = 0;
    sig_atomic_t count = device_count;
    for (sig_atomic_t device = 0; device < count; device++) {
        if (devices[device].fd >= 0) armed++;
    }
    return armed;
}
