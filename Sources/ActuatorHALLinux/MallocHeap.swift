import CDrivers

/// The C allocator's heap, for memory figures.
public enum MallocHeap {
    /// Bytes handed out and not yet freed, over every arena. Beside the resident size it tells a
    /// leak (this grows) from freed pages the allocator keeps (only the resident size grows).
    public static var bytesInUse: UInt64 { hb_malloc_heap_in_use() }
}
