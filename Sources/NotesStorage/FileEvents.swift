// FileEvents: a wake-up when a library's files are written — the database and its
// write-ahead log — by this process or any other, without polling.
//
// Guarantees
// - Linux: one inotify watch on the library's folder, for writes, creations and renames of
//   the database file and its `-wal`; the descriptor is read by a main-queue dispatch
//   source, and `changed` runs there, once per batch of events. Another process's commit
//   appends to the `-wal` file (WAL mode), so every commit wakes it.
// - Apple platforms: dispatch file-system sources on the database file and its `-wal` file
//   (written or extended). The `-wal` file lasts while this process has the library open,
//   since SQLite removes it only when the last connection closes.
// - An event says only "look again": the caller asks SQLite (`PRAGMA data_version`) whether
//   another connection committed. Events for this process's own writes are harmless.
// - `start` returns `nil` where no watch can be made (no inotify, a folder that cannot be
//   watched); the caller polls instead.
// - `cancel()`, or releasing the watch, closes the descriptors; nothing runs after it.

internal import Dispatch
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A watch of a library's files that can be stopped.
@MainActor
protocol FileWatch: AnyObject {
  /// Stops watching.
  func cancel()
}

/// Wake-ups for writes to one library's files.
@MainActor
final class FileEvents: FileWatch {
  private var sources = WatchSources()
  private let changed: @MainActor () -> Void

  private init(changed: @escaping @MainActor () -> Void) {
    self.changed = changed
  }

  /// Starts watching the library at `path`.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - changed: Runs on the main queue after writes to the file or its log.
  /// - Returns: The watch, or `nil` if none can be made here.
  static func start(path: String, changed: @escaping @MainActor () -> Void) -> FileEvents? {
    let events = FileEvents(changed: changed)
    #if os(Linux)
      guard events.watchFolder(of: path) else { return nil }
    #elseif canImport(Darwin)
      guard events.watchFiles([path, path + "-wal"]) else { return nil }
    #else
      return nil
    #endif
    return events
  }

  deinit {
    // Dispatch sources may be cancelled from any thread.
    for source in sources.all { source.cancel() }
  }

  /// Stops watching.
  func cancel() {
    for source in sources.all { source.cancel() }
    sources.all.removeAll()
  }

  #if os(Linux)
    /// One inotify watch on the folder, filtered to the database's two files.
    private func watchFolder(of path: String) -> Bool {
      let url = URL(fileURLWithPath: path)
      let folder = url.deletingLastPathComponent().path
      let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return false }
      let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
      guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
        close(descriptor)
        return false
      }
      let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
      source.setEventHandler { [weak self] in
        MainActor.assumeIsolated {
          if Self.drain(descriptor, touching: names) { self?.changed() }
        }
      }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      sources.all.append(source)
      return true
    }

    /// Reads every pending event; whether one names a file of `names`.
    private static func drain(_ descriptor: Int32, touching names: Set<String>) -> Bool {
      var touched = false
      let capacity = 16 * 1_024
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, capacity)
        guard count > 0 else { break }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          let nameStart = offset + MemoryLayout<inotify_event>.size
          if event.len > 0 {
            let name = String(cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self))
            if names.contains(name) { touched = true }
          }
          offset = nameStart + Int(event.len)
        }
      }
      return touched
    }
  #endif

  #if canImport(Darwin)
    /// A file-system source on each file that exists.
    private func watchFiles(_ paths: [String]) -> Bool {
      for path in paths {
        let descriptor = open(path, O_EVTONLY)
        guard descriptor >= 0 else { continue }
        let source = DispatchSource.makeFileSystemObjectSource(
          fileDescriptor: descriptor, eventMask: [.write, .extend], queue: .main)
        source.setEventHandler { [weak self] in
          MainActor.assumeIsolated { self?.changed() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        sources.all.append(source)
      }
      return !sources.all.isEmpty
    }
  #endif
}

/// The dispatch sources of one watch.
private struct WatchSources {
  var all: [any DispatchSourceProtocol] = []
}

// Dispatch sources are thread-safe; the one use off the main actor is `cancel()` in deinit.
extension WatchSources: @unchecked Sendable {}
