#include "cdrivers.h"

#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <sys/ioctl.h>
#include <unistd.h>

_Static_assert(HB_I2C_MAX_MESSAGES == I2C_RDWR_IOCTL_MAX_MSGS, "kernel message limit changed");
_Static_assert(HB_I2C_FUNC_I2C == I2C_FUNC_I2C, "I2C_FUNC_I2C");
_Static_assert(HB_I2C_FUNC_10BIT_ADDR == I2C_FUNC_10BIT_ADDR, "I2C_FUNC_10BIT_ADDR");
_Static_assert(HB_I2C_FUNC_PROTOCOL_MANGLING == I2C_FUNC_PROTOCOL_MANGLING, "I2C_FUNC_PROTOCOL_MANGLING");
_Static_assert(HB_I2C_FUNC_SMBUS_READ_BYTE_DATA == I2C_FUNC_SMBUS_READ_BYTE_DATA, "I2C_FUNC_SMBUS_READ_BYTE_DATA");
_Static_assert(HB_I2C_FUNC_SMBUS_WRITE_BYTE_DATA == I2C_FUNC_SMBUS_WRITE_BYTE_DATA, "I2C_FUNC_SMBUS_WRITE_BYTE_DATA");

int hb_i2c_open(const char *path, int *fd) {
    int opened;
    do {
        opened = open(path, O_RDWR | O_CLOEXEC);
    } while (opened < 0 && errno == EINTR);
    if (opened < 0) return errno;
    *fd = opened;
    return 0;
}

int hb_i2c_close(int fd) {
    /* Linux releases the descriptor even when close reports EINTR, so retrying would be wrong. */
    if (close(fd) < 0 && errno != EINTR) return errno;
    return 0;
}

int hb_i2c_transfer(int fd, hb_i2c_message *messages, size_t count) {
    if (count == 0 || count > HB_I2C_MAX_MESSAGES) return EINVAL;
    struct i2c_msg kernel_messages[HB_I2C_MAX_MESSAGES];
    for (size_t i = 0; i < count; i++) {
        kernel_messages[i].addr = messages[i].address;
        kernel_messages[i].flags = messages[i].is_read ? I2C_M_RD : 0;
        kernel_messages[i].len = messages[i].length;
        kernel_messages[i].buf = messages[i].buffer;
    }
    struct i2c_rdwr_ioctl_data transfer = {.msgs = kernel_messages, .nmsgs = (__u32)count};
    int result = ioctl(fd, I2C_RDWR, &transfer);
    if (result < 0) return errno;
    /* The kernel returns the number of messages it completed; fewer than asked is a failed transfer. */
    if ((size_t)result != count) return EIO;
    return 0;
}

/* i2c-dev keeps the SMBus address per open file, so a transfer to the address selected last needs
 * no I2C_SLAVE of its own: one syscall a transfer instead of two (about 30 µs each in the kernel
 * lane's emulated guest). Nothing else changes a descriptor's address while the process runs: the
 * stop steps (stop_steps.c) select theirs only as the process dies, in a fatal signal's handler or
 * in the guardian once the parent is gone. (What is no longer checked at every transfer: a kernel
 * driver binding the address after it was selected, which I2C_SLAVE refuses with EBUSY.) */
static int select_address(int fd, uint8_t address, int *selected) {
    if (*selected == address + 1) return 0;
    if (ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0) {
        int error = errno;
        *selected = 0;
        return error;
    }
    *selected = address + 1;
    return 0;
}

int hb_i2c_smbus_read_byte_data(int fd, uint8_t address, uint8_t reg, uint8_t *value, int *selected) {
    int error = select_address(fd, address, selected);
    if (error != 0) return error;
    __s32 result = i2c_smbus_read_byte_data(fd, reg);
    if (result < 0) return -result;
    *value = (uint8_t)result;
    return 0;
}

int hb_i2c_smbus_write_byte_data(int fd, uint8_t address, uint8_t reg, uint8_t value, int *selected) {
    int error = select_address(fd, address, selected);
    if (error != 0) return error;
    __s32 result = i2c_smbus_write_byte_data(fd, reg, value);
    if (result < 0) return -result;
    return 0;
}

int hb_i2c_functionality(int fd, unsigned long *functionality) {
    unsigned long funcs = 0;
    if (ioctl(fd, I2C_FUNCS, &funcs) < 0) return errno;
    *functionality = funcs;
    return 0;
}
