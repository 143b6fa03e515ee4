/* The GPIO shim over libgpiod 1.x (Debian 12, Raspberry Pi OS bookworm). */
#include "cdrivers.h"
#include "gpio_api.h"

#if HB_LIBGPIOD_API_MAJOR == 1

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct hb_gpio_line {
    struct gpiod_chip *chip;
    struct gpiod_line *line;
    /* An output's uAPI v1 line handle, or -1 (see new_line_handle). */
    int request_fd;
};

/* Line handles looked for around one request; a board has far fewer enable lines. */
#define MAX_HANDLES 64

/*
 * The descriptors of this process's uAPI v1 line handles ("anon_inode:gpio-linehandle" in
 * /proc/self/fd), at most `capacity`; -1 when they cannot be listed. Output lines only: input lines
 * are line event descriptors ("gpio-event"), so a button requested meanwhile does not count.
 */
static int list_line_handles(int *fds, int capacity) {
    DIR *folder = opendir("/proc/self/fd");
    if (folder == NULL) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(folder)) != NULL && count < capacity) {
        char path[64], target[64];
        snprintf(path, sizeof path, "/proc/self/fd/%s", entry->d_name);
        ssize_t length = readlink(path, target, sizeof target - 1);
        if (length <= 0) continue;
        target[length] = 0;
        if (strcmp(target, "anon_inode:gpio-linehandle") == 0) fds[count++] = atoi(entry->d_name);
    }
    closedir(folder);
    return count;
}

/*
 * The line handle libgpiod 1.6 opened for an output request: it has no call that gives it (only
 * event requests have gpiod_line_event_get_fd), so it is the one handle that was not open before the
 * request (`before`, from list_line_handles). -1 when there is not exactly one.
 */
static int new_line_handle(const int *before, int before_count) {
    int after[MAX_HANDLES];
    int after_count = list_line_handles(after, MAX_HANDLES);
    if (before_count < 0 || after_count < 0) return -1;
    int found = -1;
    for (int index = 0; index < after_count; index++) {
        int seen = 0;
        for (int earlier = 0; earlier < before_count && !seen; earlier++) seen = before[earlier] == after[index];
        if (seen) continue;
        if (found >= 0) return -1;
        found = after[index];
    }
    return found;
}

int hb_gpio_libgpiod_api_major(void) { return 1; }

/* libgpiod reports failures through errno; a zero errno would read as success, so never pass it on. */
static int current_errno(void) { return errno != 0 ? errno : EIO; }

static int find_line(const char *chip_path, const char *line_name, unsigned int offset,
                     struct hb_gpio_line *found, hb_gpio_stage *stage) {
    errno = 0;
    if (line_name != NULL) {
        /* gpiod_line_find walks every chip and leaves the matching one open, owned by the line. */
        found->line = gpiod_line_find(line_name);
        if (found->line == NULL) {
            /* ENOENT: no chip has the name. Anything else came from opening a chip (EACCES, mostly). */
            int error = errno != 0 ? errno : ENOENT;
            *stage = error == ENOENT ? HB_GPIO_STAGE_LOOKUP : HB_GPIO_STAGE_CHIP_OPEN;
            return error;
        }
        found->chip = gpiod_line_get_chip(found->line);
        return 0;
    }
    found->chip = gpiod_chip_open(chip_path);
    if (found->chip == NULL) {
        *stage = HB_GPIO_STAGE_CHIP_OPEN;
        return current_errno();
    }
    /* An offset past the chip's end is a line that does not exist, as with libgpiod 2. */
    if (offset >= gpiod_chip_num_lines(found->chip)) {
        gpiod_chip_close(found->chip);
        *stage = HB_GPIO_STAGE_LOOKUP;
        return ENOENT;
    }
    found->line = gpiod_chip_get_line(found->chip, offset);
    if (found->line == NULL) {
        int error = current_errno();
        gpiod_chip_close(found->chip);
        *stage = HB_GPIO_STAGE_LOOKUP;
        return error;
    }
    return 0;
}

/* The 1.5+ request flags for `input`: bias and active level (uAPI v1 has no debounce). */
static int input_flags(const hb_gpio_input_settings *input) {
    if (input == NULL) return 0;
    int flags = input->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    switch (input->bias) {
    case HB_GPIO_BIAS_DISABLED: return flags | GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    case HB_GPIO_BIAS_PULL_UP: return flags | GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case HB_GPIO_BIAS_PULL_DOWN: return flags | GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    default: return flags;
    }
}

static int request(const char *chip_path, const char *line_name, unsigned int offset, int is_output,
                   int initial_value, const hb_gpio_input_settings *input, hb_gpio_line **line, hb_gpio_stage *stage) {
    *stage = HB_GPIO_STAGE_NONE;
    if ((chip_path == NULL) == (line_name == NULL)) return EINVAL;
    struct hb_gpio_line found = {NULL, NULL, -1};
    int error = find_line(chip_path, line_name, offset, &found, stage);
    if (error != 0) return error;

    int handles[MAX_HANDLES];
    int handle_count = is_output ? list_line_handles(handles, MAX_HANDLES) : -1;
    errno = 0;
    int result = is_output ? gpiod_line_request_output(found.line, HB_GPIO_CONSUMER, initial_value ? 1 : 0)
                           : gpiod_line_request_both_edges_events_flags(found.line, HB_GPIO_CONSUMER, input_flags(input));
    found.request_fd = result == 0 && is_output ? new_line_handle(handles, handle_count) : -1;
    if (result < 0) {
        error = current_errno();
        gpiod_chip_close(found.chip);
        *stage = HB_GPIO_STAGE_REQUEST;
        return error;
    }
    struct hb_gpio_line *handle = malloc(sizeof *handle);
    if (handle == NULL) {
        gpiod_line_release(found.line);
        gpiod_chip_close(found.chip);
        *stage = HB_GPIO_STAGE_REQUEST;
        return ENOMEM;
    }
    *handle = found;
    *line = handle;
    return 0;
}

int hb_gpio_request(const char *chip_path, const char *line_name, unsigned int offset, int is_output,
                    int initial_value, hb_gpio_line **line, hb_gpio_stage *stage) {
    return request(chip_path, line_name, offset, is_output, initial_value, NULL, line, stage);
}

int hb_gpio_request_input(const char *chip_path, const char *line_name, unsigned int offset,
                          const hb_gpio_input_settings *settings, hb_gpio_line **line, hb_gpio_stage *stage,
                          unsigned int *debounce_us) {
    /* uAPI v1 cannot debounce: the caller does it in software. */
    *debounce_us = 0;
    return request(chip_path, line_name, offset, 0, 0, settings, line, stage);
}

int hb_gpio_set_value(hb_gpio_line *line, int value) {
    errno = 0;
    if (gpiod_line_set_value(line->line, value ? 1 : 0) < 0) return current_errno();
    return 0;
}

int hb_gpio_get_value(hb_gpio_line *line, int *value) {
    errno = 0;
    int result = gpiod_line_get_value(line->line);
    if (result < 0) return current_errno();
    *value = result;
    return 0;
}

int hb_gpio_wait_edge(hb_gpio_line *line, int64_t timeout_ns, hb_gpio_edge *edge, uint64_t *timestamp_ns) {
    *edge = HB_GPIO_EDGE_NONE;
    if (timeout_ns < 0) timeout_ns = 0;
    struct timespec timeout = {.tv_sec = (time_t)(timeout_ns / 1000000000), .tv_nsec = (long)(timeout_ns % 1000000000)};
    errno = 0;
    int ready = gpiod_line_event_wait(line->line, &timeout);
    if (ready < 0) return current_errno();
    if (ready == 0) return 0;

    struct gpiod_line_event event;
    errno = 0;
    if (gpiod_line_event_read(line->line, &event) < 0) return current_errno();
    *edge = event.event_type == GPIOD_LINE_EVENT_RISING_EDGE ? HB_GPIO_EDGE_RISING : HB_GPIO_EDGE_FALLING;
    *timestamp_ns = (uint64_t)event.ts.tv_sec * 1000000000u + (uint64_t)event.ts.tv_nsec;
    return 0;
}

int hb_gpio_output_request(hb_gpio_line *line, int *fd, int *uapi_version) {
    if (line->request_fd < 0) return ENOENT;
    *fd = line->request_fd;
    *uapi_version = 1;
    return 0;
}

int hb_gpio_line_location(hb_gpio_line *line, char *chip_path, size_t size, unsigned int *offset) {
    /* libgpiod 1.x knows the chip by its kernel name (gpiochip0), whose device node is /dev/<name>. */
    int written = snprintf(chip_path, size, "/dev/%s", gpiod_chip_name(line->chip));
    if (written < 0 || (size_t)written >= size) return ENAMETOOLONG;
    *offset = gpiod_line_offset(line->line);
    return 0;
}

void hb_gpio_release(hb_gpio_line *line) {
    if (line == NULL) return;
    gpiod_line_release(line->line);
    gpiod_chip_close(line->chip);
    free(line);
}

#endif
