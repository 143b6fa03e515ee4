/*
 * Issuing one step of a stop table (hb_stop_step): the writes that stop a chip, as plain ioctls on an
 * i2c-dev descriptor that is already open.
 *
 * Callers are a fatal-signal handler (emergency.c) and a forked child of a multi-threaded process
 * (guardian.c), so this file makes system calls only: no libi2c (its SMBus helpers are not promised
 * to be async-signal-safe), no allocation, no locks, no stdio.
 */
#include "cdrivers.h"

#include <errno.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <string.h>
#include <sys/ioctl.h>

static int i2c_write(const hb_stop_step *step) {
    uint8_t bytes[2] = {step->bytes[0], step->bytes[1]};
    struct i2c_msg message = {.addr = step->address, .flags = 0, .len = step->length, .buf = bytes};
    struct i2c_rdwr_ioctl_data transfer = {.msgs = &message, .nmsgs = 1};
    if (ioctl(step->bus_fd, I2C_RDWR, &transfer) < 0) return errno;
    return 0;
}

/* An SMBus write: select the address on the descriptor, then one I2C_SMBUS command. */
static int smbus_write(const hb_stop_step *step, uint32_t size, uint8_t command, union i2c_smbus_data *data) {
    if (ioctl(step->bus_fd, I2C_SLAVE, (unsigned long)step->address) < 0) return errno;
    struct i2c_smbus_ioctl_data arguments = {.read_write = I2C_SMBUS_WRITE, .command = command, .size = size, .data = data};
    if (ioctl(step->bus_fd, I2C_SMBUS, &arguments) < 0) return errno;
    return 0;
}

int hb_stop_issue(const hb_stop_step *step) {
    if (step == NULL || step->bus_fd < 0) return EINVAL;
    switch (step->protocol) {
    case HB_STOP_I2C_WRITE:
        if (step->length < 1 || step->length > 2) return EINVAL;
        return i2c_write(step);
    case HB_STOP_SMBUS_WRITE_BYTE:
        /* "write byte" carries its one byte in the command field. */
        return smbus_write(step, I2C_SMBUS_BYTE, step->bytes[0], NULL);
    case HB_STOP_SMBUS_WRITE_BYTE_DATA: {
        union i2c_smbus_data data;
        memset(&data, 0, sizeof data);
        data.byte = step->bytes[1];
        return smbus_write(step, I2C_SMBUS_BYTE_DATA, step->bytes[0], &data);
    }
    default:
        return EINVAL;
    }
}
