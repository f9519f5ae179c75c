// CFaultVFS: see include/CFaultVFS.h for what it guarantees.

#include "CFaultVFS.h"

#include <errno.h>
#include <sqlite3.h>
#include <string.h>

/// A file of the fault VFS: its methods, then the real file of the wrapped VFS.
typedef struct FaultFile {
  sqlite3_file base;
  sqlite3_file *real;
} FaultFile;

static sqlite3_vfs faultVFS;
static sqlite3_vfs *realVFS;

static int armedKinds;
static long armedNth;
static int armedCode;
static int armedPersistent;
static long calls;
static long failures;

static int armedErrno = EIO;

void airframe_fault_vfs_arm_errno(int kinds, long nth, int code, int persistent,
                                  int systemError) {
  armedKinds = kinds;
  armedNth = nth;
  armedCode = code;
  armedPersistent = persistent;
  armedErrno = systemError;
  calls = 0;
  failures = 0;
}

void airframe_fault_vfs_arm(int kinds, long nth, int code, int persistent) {
  airframe_fault_vfs_arm_errno(kinds, nth, code, persistent, EIO);
}

void airframe_fault_vfs_disarm(void) { airframe_fault_vfs_arm(0, 0, 0, 0); }

long airframe_fault_vfs_calls(void) { return calls; }

long airframe_fault_vfs_failures(void) { return failures; }

/// Counts a call of `kind`; returns the code it fails with, or SQLITE_OK to perform it.
static int fault(int kind) {
  if (!(armedKinds & kind)) return SQLITE_OK;
  calls += 1;
  if (calls == armedNth || (armedPersistent && armedNth > 0 && calls > armedNth)) {
    failures += 1;
    // As the failed system call would have left it, for sqlite3_system_errno.
    errno = armedErrno;
    return armedCode;
  }
  return SQLITE_OK;
}

#define REAL(file) (((FaultFile *)(file))->real)

static int faultClose(sqlite3_file *file) {
  int rc = REAL(file)->pMethods ? REAL(file)->pMethods->xClose(REAL(file)) : SQLITE_OK;
  file->pMethods = 0;
  return rc;
}

static int faultRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
  return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int faultWrite(sqlite3_file *file, const void *buffer, int amount,
                      sqlite3_int64 offset) {
  int rc = fault(AIRFRAME_FAULT_WRITE);
  if (rc != SQLITE_OK) return rc;
  return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}

static int faultTruncate(sqlite3_file *file, sqlite3_int64 size) {
  int rc = fault(AIRFRAME_FAULT_TRUNCATE);
  if (rc != SQLITE_OK) return rc;
  return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int faultSync(sqlite3_file *file, int flags) {
  int rc = fault(AIRFRAME_FAULT_SYNC);
  if (rc != SQLITE_OK) return rc;
  return REAL(file)->pMethods->xSync(REAL(file), flags);
}

static int faultFileSize(sqlite3_file *file, sqlite3_int64 *size) {
  return REAL(file)->pMethods->xFileSize(REAL(file), size);
}

static int faultLock(sqlite3_file *file, int lock) {
  return REAL(file)->pMethods->xLock(REAL(file), lock);
}

static int faultUnlock(sqlite3_file *file, int lock) {
  return REAL(file)->pMethods->xUnlock(REAL(file), lock);
}

static int faultCheckReservedLock(sqlite3_file *file, int *result) {
  return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}

static int faultFileControl(sqlite3_file *file, int op, void *argument) {
  return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}

static int faultSectorSize(sqlite3_file *file) {
  return REAL(file)->pMethods->xSectorSize(REAL(file));
}

static int faultDeviceCharacteristics(sqlite3_file *file) {
  return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}

static int faultShmMap(sqlite3_file *file, int region, int size, int extend,
                       void volatile **memory) {
  int rc = fault(AIRFRAME_FAULT_SHM_MAP);
  if (rc != SQLITE_OK) {
    *memory = 0;
    return rc;
  }
  return REAL(file)->pMethods->xShmMap(REAL(file), region, size, extend, memory);
}

static int faultShmLock(sqlite3_file *file, int offset, int count, int flags) {
  return REAL(file)->pMethods->xShmLock(REAL(file), offset, count, flags);
}

static void faultShmBarrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }

static int faultShmUnmap(sqlite3_file *file, int deleteFlag) {
  return REAL(file)->pMethods->xShmUnmap(REAL(file), deleteFlag);
}

static int faultFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
  return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, pointer);
}

static int faultUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
  return REAL(file)->pMethods->xUnfetch(REAL(file), offset, pointer);
}

/// The methods of a fault file; versions above the real file's are left out (NULL).
static sqlite3_io_methods methodsForVersion(int version) {
  sqlite3_io_methods methods = {
      version,       faultClose,       faultRead,  faultWrite,
      faultTruncate, faultSync,        faultFileSize, faultLock,
      faultUnlock,   faultCheckReservedLock, faultFileControl, faultSectorSize,
      faultDeviceCharacteristics, faultShmMap, faultShmLock, faultShmBarrier,
      faultShmUnmap, faultFetch, faultUnfetch,
  };
  if (version < 3) {
    methods.xFetch = 0;
    methods.xUnfetch = 0;
  }
  if (version < 2) {
    methods.xShmMap = 0;
    methods.xShmLock = 0;
    methods.xShmBarrier = 0;
    methods.xShmUnmap = 0;
  }
  return methods;
}

static sqlite3_io_methods methods1, methods2, methods3;

static int faultOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags,
                     int *outFlags) {
  (void)vfs;
  FaultFile *faultFile = (FaultFile *)file;
  faultFile->real = (sqlite3_file *)&faultFile[1];
  int rc = realVFS->xOpen(realVFS, name, faultFile->real, flags, outFlags);
  if (faultFile->real->pMethods == 0) {
    file->pMethods = 0;
    return rc;
  }
  switch (faultFile->real->pMethods->iVersion) {
  case 1: file->pMethods = &methods1; break;
  case 2: file->pMethods = &methods2; break;
  default: file->pMethods = &methods3; break;
  }
  return rc;
}

static int faultDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
  (void)vfs;
  return realVFS->xDelete(realVFS, name, syncDirectory);
}

static int faultAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
  (void)vfs;
  return realVFS->xAccess(realVFS, name, flags, result);
}

static int faultFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *output) {
  (void)vfs;
  return realVFS->xFullPathname(realVFS, name, size, output);
}

static void *faultDlOpen(sqlite3_vfs *vfs, const char *name) {
  (void)vfs;
  return realVFS->xDlOpen(realVFS, name);
}

static void faultDlError(sqlite3_vfs *vfs, int size, char *message) {
  (void)vfs;
  realVFS->xDlError(realVFS, size, message);
}

static void (*faultDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
  (void)vfs;
  return realVFS->xDlSym(realVFS, handle, symbol);
}

static void faultDlClose(sqlite3_vfs *vfs, void *handle) {
  (void)vfs;
  realVFS->xDlClose(realVFS, handle);
}

static int faultRandomness(sqlite3_vfs *vfs, int size, char *output) {
  (void)vfs;
  return realVFS->xRandomness(realVFS, size, output);
}

static int faultSleep(sqlite3_vfs *vfs, int microseconds) {
  (void)vfs;
  return realVFS->xSleep(realVFS, microseconds);
}

static int faultCurrentTime(sqlite3_vfs *vfs, double *time) {
  (void)vfs;
  return realVFS->xCurrentTime(realVFS, time);
}

static int faultGetLastError(sqlite3_vfs *vfs, int size, char *message) {
  (void)vfs;
  return realVFS->xGetLastError ? realVFS->xGetLastError(realVFS, size, message) : 0;
}

static int faultCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *time) {
  (void)vfs;
  return realVFS->xCurrentTimeInt64(realVFS, time);
}

int airframe_fault_vfs_register(void) {
  if (realVFS) return SQLITE_OK;
  int rc = sqlite3_initialize();
  if (rc != SQLITE_OK) return rc;
  sqlite3_vfs *base = sqlite3_vfs_find(0);
  if (!base) return SQLITE_ERROR;
  methods1 = methodsForVersion(1);
  methods2 = methodsForVersion(2);
  methods3 = methodsForVersion(3);
  memset(&faultVFS, 0, sizeof faultVFS);
  faultVFS.iVersion = 2;
  faultVFS.szOsFile = (int)sizeof(FaultFile) + base->szOsFile;
  faultVFS.mxPathname = base->mxPathname;
  faultVFS.zName = AIRFRAME_FAULT_VFS_NAME;
  faultVFS.xOpen = faultOpen;
  faultVFS.xDelete = faultDelete;
  faultVFS.xAccess = faultAccess;
  faultVFS.xFullPathname = faultFullPathname;
  faultVFS.xDlOpen = faultDlOpen;
  faultVFS.xDlError = faultDlError;
  faultVFS.xDlSym = faultDlSym;
  faultVFS.xDlClose = faultDlClose;
  faultVFS.xRandomness = faultRandomness;
  faultVFS.xSleep = faultSleep;
  faultVFS.xCurrentTime = faultCurrentTime;
  faultVFS.xGetLastError = faultGetLastError;
  faultVFS.xCurrentTimeInt64 = faultCurrentTimeInt64;
  realVFS = base;
  rc = sqlite3_vfs_register(&faultVFS, 0);
  if (rc != SQLITE_OK) realVFS = 0;
  return rc;
}
