/* The GPIO shim over libgpiod 2.x (Debian 13, Raspberry Pi OS trixie, bookworm-backports). */
#include "cdrivers.h"
#include "gpio_api.h"

#if HB_LIBGPIOD_API_MAJOR == 2

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_gpio_line {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
    /* The chip's device path, kept because the chip handle is closed once the line is requested. */
    char *chip_path;
};

int hb_gpio_libgpiod_api_major(void) { return 2; }

/* libgpiod reports failures through errno; a zero errno would read as success, so never pass it on. */
static int current_errno(void) { return errno != 0 ? errno : EIO; }

/*
 * libgpiod 2 has no system-wide name lookup (1.x had gpiod_line_find), so walk /dev/gpiochip*
 * ourselves. A chip that cannot be opened is remembered: if the name is found nowhere, that error
 * (EACCES, typically) explains more than ENOENT would.
 */
static int find_named_line(const char *line_name, struct gpiod_chip **chip, unsigned int *offset,
                           hb_gpio_stage *stage) {
    DIR *devices = opendir("/dev");
    if (devices == NULL) {
        *stage = HB_GPIO_STAGE_LOOKUP;
        return current_errno();
    }
    int open_error = 0;
    struct dirent *entry;
    while ((entry = readdir(devices)) != NULL) {
        if (strncmp(entry->d_name, "gpiochip", 8) != 0) continue;
        char path[sizeof "/dev/" + sizeof entry->d_name];
        snprintf(path, sizeof path, "/dev/%s", entry->d_name);
        errno = 0;
        struct gpiod_chip *candidate = gpiod_chip_open(path);
        if (candidate == NULL) {
            if (open_error == 0) open_error = current_errno();
            continue;
        }
        int found = gpiod_chip_get_line_offset_from_name(candidate, line_name);
        if (found >= 0) {
            closedir(devices);
            *chip = candidate;
            *offset = (unsigned int)found;
            return 0;
        }
        gpiod_chip_close(candidate);
    }
    closedir(devices);
    if (open_error != 0) {
        *stage = HB_GPIO_STAGE_CHIP_OPEN;
        return open_error;
    }
    *stage = HB_GPIO_STAGE_LOOKUP;
    return ENOENT;
}

static enum gpiod_line_bias line_bias(hb_gpio_bias bias) {
    switch (bias) {
    case HB_GPIO_BIAS_DISABLED: return GPIOD_LINE_BIAS_DISABLED;
    case HB_GPIO_BIAS_PULL_UP: return GPIOD_LINE_BIAS_PULL_UP;
    case HB_GPIO_BIAS_PULL_DOWN: return GPIOD_LINE_BIAS_PULL_DOWN;
    default: return GPIOD_LINE_BIAS_AS_IS;
    }
}

static struct gpiod_line_request *request_line(struct gpiod_chip *chip, unsigned int offset, int is_output,
                                               int initial_value, const hb_gpio_input_settings *input) {
    struct gpiod_line_request *request = NULL;
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    if (settings == NULL || line_config == NULL || request_config == NULL) goto done;

    if (is_output) {
        if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) < 0) goto done;
        if (gpiod_line_settings_set_output_value(settings, initial_value ? GPIOD_LINE_VALUE_ACTIVE
                                                                         : GPIOD_LINE_VALUE_INACTIVE) < 0)
            goto done;
    } else {
        if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) < 0) goto done;
        if (gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) < 0) goto done;
        /* Edge timestamps must share CLOCK_MONOTONIC with SystemMonotonicClock. */
        if (gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) < 0) goto done;
        if (input != NULL) {
            if (gpiod_line_settings_set_bias(settings, line_bias(input->bias)) < 0) goto done;
            gpiod_line_settings_set_active_low(settings, input->active_low != 0);
            gpiod_line_settings_set_debounce_period_us(settings, input->debounce_us);
        }
    }
    if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) < 0) goto done;
    gpiod_request_config_set_consumer(request_config, HB_GPIO_CONSUMER);
    request = gpiod_chip_request_lines(chip, request_config, line_config);

done:
    {
        int saved = errno;
        gpiod_request_config_free(request_config);
        gpiod_line_config_free(line_config);
        gpiod_line_settings_free(settings);
        errno = saved;
    }
    return request;
}

static int request(const char *chip_path, const char *line_name, unsigned int offset, int is_output,
                   int initial_value, const hb_gpio_input_settings *input, hb_gpio_line **line, hb_gpio_stage *stage) {
    *stage = HB_GPIO_STAGE_NONE;
    if ((chip_path == NULL) == (line_name == NULL)) return EINVAL;

    struct gpiod_chip *chip = NULL;
    if (line_name != NULL) {
        int error = find_named_line(line_name, &chip, &offset, stage);
        if (error != 0) return error;
    } else {
        errno = 0;
        chip = gpiod_chip_open(chip_path);
        if (chip == NULL) {
            *stage = HB_GPIO_STAGE_CHIP_OPEN;
            return current_errno();
        }
        /* Report an offset past the chip's end as a missing line, not as the kernel's EINVAL. */
        errno = 0;
        struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
        if (info == NULL) {
            int error = current_errno();
            gpiod_chip_close(chip);
            *stage = HB_GPIO_STAGE_LOOKUP;
            return error;
        }
        size_t line_count = gpiod_chip_info_get_num_lines(info);
        gpiod_chip_info_free(info);
        if (offset >= line_count) {
            gpiod_chip_close(chip);
            *stage = HB_GPIO_STAGE_LOOKUP;
            return ENOENT;
        }
    }

    errno = 0;
    struct gpiod_line_request *request = request_line(chip, offset, is_output, initial_value, input);
    int error = request == NULL ? current_errno() : 0;
    char *path = request == NULL ? NULL : strdup(gpiod_chip_get_path(chip));
    /* A request holds its own descriptor and outlives the chip handle. */
    gpiod_chip_close(chip);
    if (request == NULL) {
        *stage = HB_GPIO_STAGE_REQUEST;
        return error;
    }

    struct hb_gpio_line *handle = malloc(sizeof *handle);
    struct gpiod_edge_event_buffer *events = is_output ? NULL : gpiod_edge_event_buffer_new(1);
    if (handle == NULL || path == NULL || (!is_output && events == NULL)) {
        free(handle);
        free(path);
        if (events != NULL) gpiod_edge_event_buffer_free(events);
        gpiod_line_request_release(request);
        *stage = HB_GPIO_STAGE_REQUEST;
        return ENOMEM;
    }
    handle->request = request;
    handle->events = events;
    handle->offset = offset;
    handle->chip_path = path;
    *line = handle;
    return 0;
}

int hb_gpio_output_request(hb_gpio_line *line, int *fd, int *uapi_version) {
    /* Input requests carry an edge-event buffer; outputs none. */
    if (line->events != NULL) return ENOENT;
    *fd = gpiod_line_request_get_fd(line->request);
    *uapi_version = 2;
    return *fd >= 0 ? 0 : ENOENT;
}

int hb_gpio_request(const char *chip_path, const char *line_name, unsigned int offset, int is_output,
                    int initial_value, hb_gpio_line **line, hb_gpio_stage *stage) {
    return request(chip_path, line_name, offset, is_output, initial_value, NULL, line, stage);
}

int hb_gpio_request_input(const char *chip_path, const char *line_name, unsigned int offset,
                          const hb_gpio_input_settings *settings, hb_gpio_line **line, hb_gpio_stage *stage,
                          unsigned int *debounce_us) {
    *debounce_us = 0;
    int error = request(chip_path, line_name, offset, 0, 0, settings, line, stage);
    if (error == 0) *debounce_us = settings->debounce_us;
    return error;
}

int hb_gpio_set_value(hb_gpio_line *line, int value) {
    errno = 0;
    if (gpiod_line_request_set_value(line->request, line->offset,
                                     value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) < 0)
        return current_errno();
    return 0;
}

int hb_gpio_get_value(hb_gpio_line *line, int *value) {
    errno = 0;
    int result = gpiod_line_request_get_value(line->request, line->offset);
    if (result < 0) return current_errno();
    *value = result == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
    return 0;
}

int hb_gpio_wait_edge(hb_gpio_line *line, int64_t timeout_ns, hb_gpio_edge *edge, uint64_t *timestamp_ns) {
    *edge = HB_GPIO_EDGE_NONE;
    if (line->events == NULL) return EINVAL;
    /* A negative timeout means "forever" to libgpiod 2; the shim's contract is a bounded wait. */
    if (timeout_ns < 0) timeout_ns = 0;
    errno = 0;
    int ready = gpiod_line_request_wait_edge_events(line->request, timeout_ns);
    if (ready < 0) return current_errno();
    if (ready == 0) return 0;

    errno = 0;
    if (gpiod_line_request_read_edge_events(line->request, line->events, 1) < 1) return current_errno();
    struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(line->events, 0);
    if (event == NULL) return EIO;
    *edge = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE ? HB_GPIO_EDGE_RISING
                                                                                   : HB_GPIO_EDGE_FALLING;
    *timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    return 0;
}

int hb_gpio_line_location(hb_gpio_line *line, char *chip_path, size_t size, unsigned int *offset) {
    int written = snprintf(chip_path, size, "%s", line->chip_path);
    if (written < 0 || (size_t)written >= size) return ENAMETOOLONG;
    *offset = line->offset;
    return 0;
}

void hb_gpio_release(hb_gpio_line *line) {
    if (line == NULL) return;
    gpiod_line_request_release(line->request);
    if (line->events != NULL) gpiod_edge_event_buffer_free(line->events);
    free(line->chip_path);
    free(line);
}

#endif
