#ifndef HAPTICBOARD_GUARDIAN_INTERNAL_H
#define HAPTICBOARD_GUARDIAN_INTERNAL_H
/* What guardian.c uses from its sibling files; not part of the CDrivers API. */
#include "cdrivers.h"

/*
 * Requests line `offset` of the GPIO chip open on `chip_fd` as an output driven low; the request's
 * descriptor goes to *line_fd (the line stays low while it is open). Returns 0 or errno (EBUSY: the
 * line is held). System calls only.
 */
int hb_guardian_drive_line_low(int chip_fd, uint32_t offset, int *line_fd);

/*
 * Drives low the one line of the request open on `request_fd` (uAPI `uapi_version`: 1, a line
 * handle; 2, a line request), a copy of another process's request. Returns 0 or errno. System
 * calls only.
 */
int hb_guardian_drive_held_line_low(int request_fd, int uapi_version);

/*
 * The early warning of guardian_sentinel.c: a thread holding a robust, process-shared mutex whose
 * futex word the kernel marks FUTEX_OWNER_DIED (and wakes) when the thread starts to die.
 * hb_sentinel_start returns once the thread holds the lock; 0 or errno.
 */
typedef struct hb_sentinel hb_sentinel;
int hb_sentinel_start(hb_sentinel **sentinel);
/* The mutex's futex word, in a MAP_SHARED page that a fork() child shares. */
volatile uint32_t *hb_sentinel_word(hb_sentinel *sentinel);
/* Ends the thread holding the lock, as a dying one does (tests); hb_sentinel_release still frees. */
void hb_sentinel_abandon(hb_sentinel *sentinel);
/* Ends the thread letting go of the lock (unless abandoned), then frees everything. */
void hb_sentinel_release(hb_sentinel *sentinel);

#endif
