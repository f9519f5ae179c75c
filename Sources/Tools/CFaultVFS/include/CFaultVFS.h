// CFaultVFS: an SQLite VFS for tests that fails chosen I/O calls, as SQLite's own test
// suite does. Not thread-safe: one test at a time arms it, and the connections using it are
// used from one thread.

#ifndef CFAULTVFS_H
#define CFAULTVFS_H

/// The VFS name to open a database with.
#define AIRFRAME_FAULT_VFS_NAME "airframe-fault"

/// The kinds of I/O call a fault applies to (a bit mask).
enum {
  AIRFRAME_FAULT_WRITE = 1,
  AIRFRAME_FAULT_SYNC = 2,
  AIRFRAME_FAULT_TRUNCATE = 4,
  AIRFRAME_FAULT_SHM_MAP = 8,
};

/// Registers the VFS (once, never as the default); returns SQLITE_OK or SQLite's error code.
///
/// The VFS wraps the default VFS and forwards every call unchanged, so a database opened
/// through it behaves exactly as without it until a fault is armed.
int airframe_fault_vfs_register(void);

/// Arms a fault: the `nth` counted call of `kinds` from now on fails with `code`, and so
/// does every later one if `persistent` is non-zero. Resets the count.
///
/// Counted calls are xWrite, xSync and xTruncate on files opened through the VFS (the
/// database, its -wal and -journal files), and xShmMap, which maps (and on first use grows)
/// the memory-mapped -shm file. The fault fails the `nth` counted call of the chosen kinds
/// (1 = the first call after arming) with `code`, such as SQLITE_IOERR_WRITE or
/// SQLITE_FULL, without performing it, and leaves `errno` as a failed system call would:
/// EIO, or the value given to `airframe_fault_vfs_arm_errno` (ENOSPC for a full disk that
/// SQLite reports as an I/O error). A persistent fault also fails every later call of those
/// kinds, as a full disk does, until it is disarmed.
void airframe_fault_vfs_arm(int kinds, long nth, int code, int persistent);

/// Arms a fault as `airframe_fault_vfs_arm` does, whose failed calls leave `errno` set to
/// `systemError` (such as ENOSPC) instead of EIO.
void airframe_fault_vfs_arm_errno(int kinds, long nth, int code, int persistent, int systemError);

/// Disarms any fault and resets the count; every call is forwarded again.
void airframe_fault_vfs_disarm(void);

/// How many calls of the armed kinds were made since arming (failed ones included).
long airframe_fault_vfs_calls(void);

/// How many calls failed because of the fault since arming.
long airframe_fault_vfs_failures(void);

#endif
