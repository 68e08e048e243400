#if canImport(Glibc)
import Glibc
#endif

/// Gives freed heap memory back to the system.
///
/// Reading a portfolio scenario builds its JSON tree, about ten times the file's size, and drops it
/// once the scenario is decoded; glibc's allocator keeps those pages. A run then grows into them
/// unevenly, so a 1000-flat year's peak was the tree plus the run. Trimming after decoding returns
/// the free pages at once (`malloc_trim`); elsewhere this does nothing.
enum HeapTrim {
    static func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = glibcMallocTrim(0)
        #endif
    }
}

#if canImport(Glibc)
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
