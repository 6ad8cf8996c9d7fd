#ifndef PATCHBAY_CMALLOCINFO_H
#define PATCHBAY_CMALLOCINFO_H

#include <stddef.h>

/// The bytes the allocator has handed out and not taken back: glibc's mallinfo2 uordblks +
/// hblkhd (arena and mmapped blocks), or the default zone's size_in_use on Darwin.
size_t patchbay_heap_bytes_in_use(void);

#endif
