/* ppoll, for nanosecond waits on input devices. */
#define _GNU_SOURCE
#include "cdrivers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

_Static_assert(HB_FF_BITS_BASE == FF_RUMBLE, "FF_RUMBLE moved");
_Static_assert(FF_AUTOCENTER - HB_FF_BITS_BASE < 64, "FF codes beyond 64 bits");

static void to_kernel(const hb_ff_effect *from, struct ff_effect *to) {
    memset(to, 0, sizeof(*to));
    to->type = from->type;
    to->id = from->id;
    to->direction = from->direction;
    to->trigger.button = from->trigger_button;
    to->trigger.interval = from->trigger_interval;
    to->replay.length = from->length;
    to->replay.delay = from->delay;
    struct ff_envelope envelope = {
        .attack_length = from->envelope.attack_length, .attack_level = from->envelope.attack_level,
        .fade_length = from->envelope.fade_length, .fade_level = from->envelope.fade_level,
    };
    switch (from->type) {
    case FF_RUMBLE:
        to->u.rumble.strong_magnitude = from->strong_magnitude;
        to->u.rumble.weak_magnitude = from->weak_magnitude;
        break;
    case FF_PERIODIC:
        to->u.periodic.waveform = from->waveform;
        to->u.periodic.period = from->period;
        to->u.periodic.magnitude = from->magnitude;
        to->u.periodic.offset = from->offset;
        to->u.periodic.phase = from->phase;
        to->u.periodic.envelope = envelope;
        break;
    case FF_CONSTANT:
        to->u.constant.level = from->level;
        to->u.constant.envelope = envelope;
        break;
    case FF_RAMP:
        to->u.ramp.start_level = from->start_level;
        to->u.ramp.end_level = from->end_level;
        to->u.ramp.envelope = envelope;
        break;
    default:
        break;
    }
}

static void from_kernel(const struct ff_effect *from, hb_ff_effect *to) {
    memset(to, 0, sizeof(*to));
    to->type = from->type;
    to->id = from->id;
    to->direction = from->direction;
    to->trigger_button = from->trigger.button;
    to->trigger_interval = from->trigger.interval;
    to->length = from->replay.length;
    to->delay = from->replay.delay;
    const struct ff_envelope *envelope = NULL;
    switch (from->type) {
    case FF_RUMBLE:
        to->strong_magnitude = from->u.rumble.strong_magnitude;
        to->weak_magnitude = from->u.rumble.weak_magnitude;
        break;
    case FF_PERIODIC:
        to->waveform = from->u.periodic.waveform;
        to->period = from->u.periodic.period;
        to->magnitude = from->u.periodic.magnitude;
        to->offset = from->u.periodic.offset;
        to->phase = from->u.periodic.phase;
        envelope = &from->u.periodic.envelope;
        break;
    case FF_CONSTANT:
        to->level = from->u.constant.level;
        envelope = &from->u.constant.envelope;
        break;
    case FF_RAMP:
        to->start_level = from->u.ramp.start_level;
        to->end_level = from->u.ramp.end_level;
        envelope = &from->u.ramp.envelope;
        break;
    default:
        break;
    }
    if (envelope) {
        to->envelope.attack_length = envelope->attack_length;
        to->envelope.attack_level = envelope->attack_level;
        to->envelope.fade_length = envelope->fade_length;
        to->envelope.fade_level = envelope->fade_level;
    }
}

static int open_retrying(const char *path, int flags) {
    int fd;
    do {
        fd = open(path, flags);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

/* ---------------------------------------------------------------- uinput */

int hb_uinput_create(const char *uinput_path, const char *name, uint16_t bustype, uint16_t vendor, uint16_t product,
                     uint16_t version, uint64_t ff_bits, uint32_t effects_max, int *fd, int *wake_fd,
                     const char **failed_step) {
    return hb_uinput_create_with_inputs(uinput_path, name, bustype, vendor, product, version, ff_bits, effects_max,
                                        NULL, 0, NULL, 0, fd, wake_fd, failed_step);
}

int hb_uinput_emit(int fd, uint16_t type, uint16_t code, int32_t value) {
    struct input_event events[2];
    memset(events, 0, sizeof(events));
    events[0].type = type;
    events[0].code = code;
    events[0].value = value;
    events[1].type = EV_SYN;
    events[1].code = SYN_REPORT;
    ssize_t written;
    do {
        written = write(fd, events, sizeof(events));
    } while (written < 0 && errno == EINTR);
    if (written < 0) return errno;
    return (size_t)written == sizeof(events) ? 0 : EIO;
}

int hb_uinput_create_with_inputs(const char *uinput_path, const char *name, uint16_t bustype, uint16_t vendor,
                                 uint16_t product, uint16_t version, uint64_t ff_bits, uint32_t effects_max,
                                 const uint16_t *keys, size_t key_count, const uint16_t *axes, size_t axis_count,
                                 int *fd, int *wake_fd, const char **failed_step) {
    *failed_step = "open";
    int device = open_retrying(uinput_path ? uinput_path : "/dev/uinput", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (device < 0) return errno;
    int error = 0;
    if (key_count > 0) {
        *failed_step = "UI_SET_EVBIT EV_KEY";
        if (ioctl(device, UI_SET_EVBIT, EV_KEY) < 0) goto failed;
        for (size_t index = 0; index < key_count; index++) {
            *failed_step = "UI_SET_KEYBIT";
            if (ioctl(device, UI_SET_KEYBIT, keys[index]) < 0) goto failed;
        }
    }
    if (axis_count > 0) {
        *failed_step = "UI_SET_EVBIT EV_REL";
        if (ioctl(device, UI_SET_EVBIT, EV_REL) < 0) goto failed;
        for (size_t index = 0; index < axis_count; index++) {
            *failed_step = "UI_SET_RELBIT";
            if (ioctl(device, UI_SET_RELBIT, axes[index]) < 0) goto failed;
        }
    }
    *failed_step = "UI_SET_EVBIT EV_FF";
    if (ioctl(device, UI_SET_EVBIT, EV_FF) < 0) goto failed;
    for (int bit = 0; bit < 64; bit++) {
        if (!(ff_bits & ((uint64_t)1 << bit))) continue;
        *failed_step = "UI_SET_FFBIT";
        if (ioctl(device, UI_SET_FFBIT, HB_FF_BITS_BASE + bit) < 0) goto failed;
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof(setup));
    setup.id.bustype = bustype;
    setup.id.vendor = vendor;
    setup.id.product = product;
    setup.id.version = version;
    snprintf(setup.name, sizeof(setup.name), "%s", name);
    setup.ff_effects_max = effects_max;
    *failed_step = "UI_DEV_SETUP";
    if (ioctl(device, UI_DEV_SETUP, &setup) < 0) goto failed;
    *failed_step = "UI_DEV_CREATE";
    if (ioctl(device, UI_DEV_CREATE) < 0) goto failed;
    *failed_step = "eventfd";
    int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake < 0) {
        error = errno;
        ioctl(device, UI_DEV_DESTROY);
        close(device);
        return error;
    }
    *failed_step = NULL;
    *fd = device;
    *wake_fd = wake;
    return 0;
failed:
    error = errno;
    close(device);
    return error;
}

int hb_uinput_event_node(int fd, char *path, size_t size) {
    char sysname[64];
    if (ioctl(fd, UI_GET_SYSNAME(sizeof(sysname)), sysname) < 0) return errno;
    char directory[160];
    snprintf(directory, sizeof(directory), "/sys/devices/virtual/input/%s", sysname);
    DIR *entries = opendir(directory);
    if (!entries) return errno;
    int error = ENOENT;
    struct dirent *entry;
    while ((entry = readdir(entries)) != NULL) {
        if (strncmp(entry->d_name, "event", 5) != 0) continue;
        error = (size_t)snprintf(path, size, "/dev/input/%s", entry->d_name) < size ? 0 : ENAMETOOLONG;
        break;
    }
    closedir(entries);
    return error;
}

int hb_uinput_wait(int fd, int wake_fd, int64_t timeout_ns, int *ready) {
    struct pollfd fds[2] = {{.fd = fd, .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
    int timeout_ms = timeout_ns < 0 ? -1 : (int)((timeout_ns + 999999) / 1000000);
    int result;
    do {
        result = poll(fds, 2, timeout_ms);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return errno;
    if (fds[1].revents & POLLIN) {
        uint64_t count;
        (void)!read(wake_fd, &count, sizeof(count));
    }
    if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) return ENODEV;
    *ready = (fds[0].revents & POLLIN) ? 1 : 0;
    return 0;
}

int hb_uinput_wake(int wake_fd) {
    uint64_t one = 1;
    if (write(wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN) return errno;
    return 0;
}

int hb_uinput_read(int fd, hb_input_event *event) {
    struct input_event raw;
    ssize_t count;
    do {
        count = read(fd, &raw, sizeof(raw));
    } while (count < 0 && errno == EINTR);
    if (count < 0) return errno;
    if (count != (ssize_t)sizeof(raw)) return EIO;
    event->type = raw.type;
    event->code = raw.code;
    event->value = raw.value;
    event->time_ns = (int64_t)raw.input_event_sec * 1000000000 + (int64_t)raw.input_event_usec * 1000;
    return 0;
}

int hb_uinput_begin_upload(int fd, uint32_t request_id, hb_ff_effect *effect, hb_ff_effect *old) {
    struct uinput_ff_upload upload;
    memset(&upload, 0, sizeof(upload));
    upload.request_id = request_id;
    if (ioctl(fd, UI_BEGIN_FF_UPLOAD, &upload) < 0) return errno;
    from_kernel(&upload.effect, effect);
    from_kernel(&upload.old, old);
    return 0;
}

int hb_uinput_end_upload(int fd, uint32_t request_id, int32_t retval) {
    struct uinput_ff_upload upload;
    memset(&upload, 0, sizeof(upload));
    upload.request_id = request_id;
    upload.retval = retval;
    if (ioctl(fd, UI_END_FF_UPLOAD, &upload) < 0) return errno;
    return 0;
}

int hb_uinput_begin_erase(int fd, uint32_t request_id, uint32_t *effect_id) {
    struct uinput_ff_erase erase;
    memset(&erase, 0, sizeof(erase));
    erase.request_id = request_id;
    if (ioctl(fd, UI_BEGIN_FF_ERASE, &erase) < 0) return errno;
    *effect_id = erase.effect_id;
    return 0;
}

int hb_uinput_end_erase(int fd, uint32_t request_id, int32_t retval) {
    struct uinput_ff_erase erase;
    memset(&erase, 0, sizeof(erase));
    erase.request_id = request_id;
    erase.retval = retval;
    if (ioctl(fd, UI_END_FF_ERASE, &erase) < 0) return errno;
    return 0;
}

void hb_uinput_destroy(int fd, int wake_fd) {
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    close(wake_fd);
}

/* ---------------------------------------------------------------- evdev clients */

int hb_evdev_open(const char *path, int writable, int *fd) {
    int device = open_retrying(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (device < 0) return errno;
    *fd = device;
    return 0;
}

#define BITS_PER_LONG (sizeof(long) * 8)
#define TEST_BIT(bits, bit) ((bits[(bit) / BITS_PER_LONG] >> ((bit) % BITS_PER_LONG)) & 1UL)

int hb_evdev_info(int fd, hb_input_info *info) {
    memset(info, 0, sizeof(*info));
    if (ioctl(fd, EVIOCGNAME(sizeof(info->name) - 1), info->name) < 0) return errno;
    struct input_id id;
    if (ioctl(fd, EVIOCGID, &id) < 0) return errno;
    info->bustype = id.bustype;
    info->vendor = id.vendor;
    info->product = id.product;
    info->version = id.version;
    unsigned long types[EV_CNT / BITS_PER_LONG + 1];
    memset(types, 0, sizeof(types));
    if (ioctl(fd, EVIOCGBIT(0, sizeof(types)), types) < 0) return errno;
    info->has_ff = TEST_BIT(types, EV_FF) ? 1 : 0;
    if (!info->has_ff) return 0;
    unsigned long ff[FF_CNT / BITS_PER_LONG + 1];
    memset(ff, 0, sizeof(ff));
    if (ioctl(fd, EVIOCGBIT(EV_FF, sizeof(ff)), ff) < 0) return errno;
    for (int code = HB_FF_BITS_BASE; code < HB_FF_BITS_BASE + 64 && code < FF_CNT; code++) {
        if (TEST_BIT(ff, code)) info->ff_bits |= (uint64_t)1 << (code - HB_FF_BITS_BASE);
    }
    int effects = 0;
    if (ioctl(fd, EVIOCGEFFECTS, &effects) < 0) return errno;
    info->effects_max = effects;
    return 0;
}

int hb_evdev_upload(int fd, hb_ff_effect *effect) {
    struct ff_effect kernel;
    to_kernel(effect, &kernel);
    if (ioctl(fd, EVIOCSFF, &kernel) < 0) return errno;
    effect->id = kernel.id;
    return 0;
}

int hb_evdev_effects(int fd, int *effects) {
    if (ioctl(fd, EVIOCGEFFECTS, effects) < 0) return errno;
    return 0;
}

int hb_evdev_erase(int fd, int effect_id) {
    if (ioctl(fd, EVIOCRMFF, effect_id) < 0) return errno;
    return 0;
}

int hb_evdev_write_ff(int fd, uint16_t code, int32_t value) {
    struct input_event event;
    memset(&event, 0, sizeof(event));
    event.type = EV_FF;
    event.code = code;
    event.value = value;
    ssize_t count;
    do {
        count = write(fd, &event, sizeof(event));
    } while (count < 0 && errno == EINTR);
    if (count < 0) return errno;
    return count == (ssize_t)sizeof(event) ? 0 : EIO;
}

void hb_evdev_close(int fd) {
    close(fd);
}

int hb_evdev_open_keys(const char *path, int *fd) {
    int device = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (device < 0) return errno;
    /* Key times on the clock the runtime schedules on, so edge → bus latency is one subtraction. */
    int clock = CLOCK_MONOTONIC;
    if (ioctl(device, EVIOCSCLOCKID, &clock) < 0) {
        int error = errno;
        close(device);
        return error;
    }
    *fd = device;
    return 0;
}

int hb_evdev_wait_key(int fd, int64_t timeout_ns, uint16_t *code, int32_t *value, int64_t *time_ns, int *got) {
    *got = 0;
    int waited = 0;
    for (;;) {
        struct input_event event;
        ssize_t length = read(fd, &event, sizeof(event));
        if (length == (ssize_t)sizeof(event)) {
            if (event.type != EV_KEY || event.value == 2) continue;
            *code = event.code;
            *value = event.value;
            *time_ns = (int64_t)event.input_event_sec * 1000000000 + (int64_t)event.input_event_usec * 1000;
            *got = 1;
            return 0;
        }
        if (length < 0 && errno == EINTR) continue;
        if (length < 0 && errno != EAGAIN) return errno;
        if (length >= 0 && length != (ssize_t)sizeof(event)) return EIO;
        if (waited) return 0;
        struct pollfd ready = {.fd = fd, .events = POLLIN};
        struct timespec timeout = {.tv_sec = timeout_ns > 0 ? timeout_ns / 1000000000 : 0,
                                   .tv_nsec = timeout_ns > 0 ? timeout_ns % 1000000000 : 0};
        int result = ppoll(&ready, 1, &timeout, NULL);
        if (result < 0 && errno == EINTR) continue;
        if (result < 0) return errno;
        if (result == 0) return 0;
        if (ready.revents & (POLLERR | POLLHUP | POLLNVAL)) return ENODEV;
        waited = 1;
    }
}
