// The C library's allocator controls (glibc: malloc_trim), exposed to Swift as `CMalloc`.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
