/*
 * Driving a GPIO line low through the kernel's GPIO character-device uAPI with raw ioctls, for the
 * crash guardian (guardian.c): through a copy of the dying process's own request of the line, or by
 * requesting it once that request is gone.
 *
 * The guardian runs in a forked child of a multi-threaded process, where libgpiod (which allocates)
 * must not be called, and it has to work whichever libgpiod major version the binary was built
 * against; the uAPI is the kernel's and is the same for both. v2 (GPIO_V2_GET_LINE_IOCTL, Linux 5.10)
 * first; v1 (GPIO_GET_LINEHANDLE_IOCTL) when the kernel does not know v2. System calls only.
 */
#include "guardian_internal.h"

#include <errno.h>
#include <linux/gpio.h>
#include <string.h>
#include <sys/ioctl.h>

/* Shown by gpioinfo as the line's consumer while the guardian holds it. */
static const char guardian_consumer[] = HB_GPIO_CONSUMER "-guardian";
_Static_assert(sizeof guardian_consumer <= GPIO_MAX_NAME_SIZE, "consumer name too long for the uAPI");

static int request_v2(int chip_fd, uint32_t offset, int *line_fd) {
    struct gpio_v2_line_request request;
    memset(&request, 0, sizeof request);
    request.offsets[0] = offset;
    request.num_lines = 1;
    memcpy(request.consumer, guardian_consumer, sizeof guardian_consumer);
    request.config.flags = GPIO_V2_LINE_FLAG_OUTPUT;
    /* The output value is an attribute; without it the line would start at the kernel's default. */
    request.config.num_attrs = 1;
    request.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
    request.config.attrs[0].attr.values = 0;
    request.config.attrs[0].mask = 1;
    if (ioctl(chip_fd, GPIO_V2_GET_LINE_IOCTL, &request) < 0) return errno;
    *line_fd = request.fd;
    return 0;
}

static int request_v1(int chip_fd, uint32_t offset, int *line_fd) {
    struct gpiohandle_request request;
    memset(&request, 0, sizeof request);
    request.lineoffsets[0] = offset;
    request.lines = 1;
    request.flags = GPIOHANDLE_REQUEST_OUTPUT;
    request.default_values[0] = 0;
    memcpy(request.consumer_label, guardian_consumer, sizeof guardian_consumer);
    if (ioctl(chip_fd, GPIO_GET_LINEHANDLE_IOCTL, &request) < 0) return errno;
    *line_fd = request.fd;
    return 0;
}

int hb_guardian_drive_line_low(int chip_fd, uint32_t offset, int *line_fd) {
    int error = request_v2(chip_fd, offset, line_fd);
    /* ENOTTY: a kernel older than the v2 uAPI. Any other error (EBUSY above all) is the answer. */
    if (error == ENOTTY) error = request_v1(chip_fd, offset, line_fd);
    return error;
}

int hb_guardian_drive_held_line_low(int request_fd, int uapi_version) {
    /* The request holds one line, so it is bit (or value) 0. Outputs are never requested active-low,
     * so the logical 0 set here is the low level. */
    if (uapi_version == 2) {
        struct gpio_v2_line_values values = {.bits = 0, .mask = 1};
        return ioctl(request_fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &values) < 0 ? errno : 0;
    }
    if (uapi_version == 1) {
        struct gpiohandle_data data;
        memset(&data, 0, sizeof data);
        return ioctl(request_fd, GPIOHANDLE_SET_LINE_VALUES_IOCTL, &data) < 0 ? errno : 0;
    }
    return EINVAL;
}
