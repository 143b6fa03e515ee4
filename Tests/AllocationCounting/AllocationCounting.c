#include "AllocationCounting.h"

static __thread long long allocations;
static __thread int counting;

void hb_count_allocation(long size) {
    (void)size;
    if (counting) allocations++;
}

void hb_allocation_counting_begin(void) {
    allocations = 0;
    counting = 1;
}

long long hb_allocation_counting_end(void) {
    counting = 0;
    return allocations;
}
