internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Telling a full disk from other I/O errors.
///
/// Whether a failed read or write of the library was a full disk.
///
/// ## Guarantees
///
/// - An error whose system cause is `ENOSPC` (no space left) or `EDQUOT` (the user's quota
///   is used up) is a full disk. So is any I/O error on a file system with less free space
///   for this user than `minimum`: SQLite reports some failed writes (growing its `-shm`
///   file) as plain I/O errors, and the `errno` behind them may have been replaced by the
///   time it is read.
enum DiskSpace {
  /// The free space, in bytes, below which a file system counts as full: less than the
  /// region SQLite adds to a `-shm` file at once, and a few pages.
  static let minimum: UInt64 = 64 * 1_024

  /// Whether an I/O error with the system's `systemError` (0 for none) on the file at
  /// `path` comes from a full disk or quota.
  static func isFull(systemError: Int32, near path: String) -> Bool {
    if systemError == ENOSPC || systemError == EDQUOT { return true }
    var info = statvfs()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard statvfs(folder, &info) == 0 else { return false }
    // Root may use the blocks the file system keeps back from other users.
    let blocks = UInt64(geteuid() == 0 ? info.f_bfree : info.f_bavail)
    return blocks * UInt64(info.f_frsize) < minimum
  }
}
