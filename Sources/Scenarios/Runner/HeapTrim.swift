#if canImport(Glibc)
import CMalloc
#endif

/// Gives freed heap memory back to the system.
///
/// Reading a portfolio scenario builds its JSON tree, about ten times the file's size, and drops it
/// once the scenario is decoded; glibc's allocator keeps those pages, and a run then grows into them
/// unevenly. Trimming after decoding returns the free pages at once (glibc's `malloc_trim`);
/// elsewhere this does nothing.
enum HeapTrim {
    static func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
