#ifndef HAPTICBOARD_GPIO_API_H
#define HAPTICBOARD_GPIO_API_H
/*
 * Picks the libgpiod implementation from the header on the include path. The 1.x header declares
 * the line-bulk API (GPIOD_LINE_BULK_MAX_LINES) that 2.0 removed together with struct gpiod_line,
 * and 2.x has no version macro of its own, so that is the reliable tell.
 */
#include <gpiod.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define HB_LIBGPIOD_API_MAJOR 1
#else
#define HB_LIBGPIOD_API_MAJOR 2
#endif

#endif
