import CMallocInfo

/// The bytes the allocator has handed out and not taken back (glibc mallinfo2 uordblks + hblkhd):
/// the difference across a loop is what the loop kept.
func heapBytesInUse() -> Int {
    Int(patchbay_heap_bytes_in_use())
}
