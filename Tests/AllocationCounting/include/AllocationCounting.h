#ifndef HAPTICBOARD_ALLOCATION_COUNTING_H
#define HAPTICBOARD_ALLOCATION_COUNTING_H

/*
 * Counts the allocations of one thread, as the malloc interposer's allocation hook: the hook runs
 * on the allocating thread, and a thread-local counter leaves out whatever other threads of the
 * test process allocate meanwhile. Swift has no thread-local storage that does not itself allocate.
 */

/* The hook: counts one allocation when the calling thread is counting. */
void hb_count_allocation(long size);
/* Starts counting the calling thread's allocations from zero. */
void hb_allocation_counting_begin(void);
/* Stops counting and returns how many allocations the calling thread made since the begin. */
long long hb_allocation_counting_end(void);

#endif
