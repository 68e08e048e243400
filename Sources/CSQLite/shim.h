// The system SQLite library (Debian/Ubuntu: libsqlite3-dev), exposed to Swift as `CSQLite`.
#include <sqlite3.h>
