#ifndef HAPTICBOARD_CDRIVERS_H
#define HAPTICBOARD_CDRIVERS_H
/* Thin C shims over i2c-dev/libi2c, libgpiod and ALSA. Each returns 0 or a negative errno. */
#endif
