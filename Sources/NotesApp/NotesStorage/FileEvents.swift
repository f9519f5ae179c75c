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
///
/// A wake-up when a library's files are written — the database and its write-ahead log — by this
/// process or any other, without polling.
///
/// ## Guarantees
///
/// - Linux: one inotify descriptor with a watch on each of the database file and its
///   `-wal` for writes, and one on the library's folder for creations and renames only, which
///   watches a library file made anew (the `-wal` appears with the first connection). The
///   descriptor is read by a main-queue dispatch source, and `changed` runs there, once per
///   batch of events. Another process's commit appends to the `-wal` file (WAL mode), so
///   every commit wakes it.
/// - Writes to the folder's other files wake nothing: the kernel leaves them out, so a
///   process is not woken for every write of every library, log or file beside its own
///   only to find it is not its own (with many libraries open in one folder, those
///   wake-ups would grow with the square of their number).
/// - Apple platforms: dispatch file-system sources on the database file and its `-wal` file
///   (written or extended). The `-wal` file lasts while this process has the library open,
///   since SQLite removes it only when the last connection closes.
/// - An event says only "look again": the caller asks SQLite (`PRAGMA data_version`) whether
///   another connection committed. Events for this process's own writes are harmless.
/// - `start` returns `nil` where no watch can be made (no inotify, a folder that cannot be
///   watched); the caller polls instead.
/// - `cancel()`, or releasing the watch, closes the descriptors; nothing runs after it.
@MainActor
final class FileEvents: FileWatch {
  private var sources = WatchSources()
  private let changed: @MainActor () -> Void
  /// Events read that were about none of the library's files (tests look at it).
  private(set) var unrelatedEvents = 0
  #if os(Linux)
    /// The inotify descriptor, the folder's watch, and each file's watch with its name.
    private var descriptor: Int32 = -1
    private var folder = ""
    private var folderWatch: Int32 = -1
    private var fileWatches: [Int32: String] = [:]
    private var names: Set<String> = []
  #endif

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
    /// A watch on each of the database's two files for writes, and on the folder for the
    /// files made anew, all read through one inotify descriptor.
    private func watchFolder(of path: String) -> Bool {
      let url = URL(fileURLWithPath: path)
      folder = url.deletingLastPathComponent().path
      names = [url.lastPathComponent, url.lastPathComponent + "-wal"]
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return false }
      self.descriptor = descriptor
      folderWatch = inotify_add_watch(
        descriptor, folder, UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR))
      guard folderWatch >= 0 else {
        close(descriptor)
        return false
      }
      for name in names { watchFile(name) }
      let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
      source.setEventHandler { [weak self] in
        MainActor.assumeIsolated {
          guard let self else { return }
          if self.drain() { self.changed() }
        }
      }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      sources.all.append(source)
      return true
    }

    /// Watches the file `name` of the folder for writes, if it exists; a file made anew
    /// under the name gets a watch of its own (its inode is another).
    private func watchFile(_ name: String) {
      let watch = inotify_add_watch(
        descriptor, folder + "/" + name, UInt32(IN_MODIFY | IN_CLOSE_WRITE))
      if watch >= 0 { fileWatches[watch] = name }
    }

    /// Reads every pending event; whether one is about a file of the library.
    private func drain() -> Bool {
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
          offset = nameStart + Int(event.len)
          if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost, a write of the library's perhaps among them.
            touched = true
          } else if event.mask & UInt32(IN_IGNORED) != 0 {
            // The file is gone (or its watch replaced): the folder's watch sees the next.
            fileWatches[event.wd] = nil
          } else if fileWatches[event.wd] != nil {
            touched = true
          } else if event.wd == folderWatch, event.len > 0,
            case let name = String(
              cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self)),
            names.contains(name)
          {
            watchFile(name)
            touched = true
          } else {
            unrelatedEvents += 1
          }
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
