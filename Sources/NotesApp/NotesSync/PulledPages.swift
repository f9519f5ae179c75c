// PulledPages: the pages of one pull, each read from the server while the engine applies
// the one before it to the library.

internal import Foundation
internal import NotesCore
internal import NotesServer

/// One page of a pull: the notebooks and notes after a cursor, and the cursor after it.
struct PulledPage {
  /// Every notebook after the cursor, up to the pull's head.
  let notebooks: [PulledVersion]
  /// Up to a page of notes after the cursor, up to the pull's head.
  let notes: [PulledVersion]
  /// Where the next page starts: the page's last note, or the head when this is the last.
  let cursor: Int64

  /// Reads the page after `cursor` through `server`.
  static func read(
    from server: SyncServer, after cursor: Int64, upTo head: Int64, notesPerPage: Int
  ) throws -> PulledPage {
    let notebooks = try server.pull(.notebook, after: cursor, upTo: head, limit: Int(Int32.max))
    let notes = try server.pull(.note, after: cursor, upTo: head, limit: notesPerPage)
    // Every notebook newer than the cursor comes with each page, so a note never arrives
    // before its notebook; the cursor stops at the page's last note.
    let next = notes.count == notesPerPage ? notes[notes.count - 1].seq : head
    return PulledPage(notebooks: notebooks, notes: notes, cursor: next)
  }
}

/// Reads a pull's later pages ahead of the engine, on a connection and a queue of its own.
///
/// Why: a page is partly the server's queries and partly one SQLite transaction here; read
/// ahead, the two run side by side instead of one after the other (the README has the
/// figures).
///
/// ## Guarantees
///
/// - A page (``PulledPage``) is every notebook after the cursor up to the pull's head, and up
///   to a page of notes after it; the next page starts after the page's last note, or the
///   pull ends at the head.
/// - The first page is read on the engine's own connection. Only a pull with a second page
///   opens a second connection (with the engine's settings), reads each later page on a
///   queue of its own while the engine applies the page before, and closes it at the end:
///   a pull of a few changes opens no second connection.
/// - One page is read ahead at most, and only after the page before it was read; pages are
///   handed over in order. `close()` waits for a read in flight, so no connection is
///   closed while in use. An error reading ahead is thrown by `next()`, where the page would
///   have been.
final class PageReader: @unchecked Sendable {
  // `server` is used only on `queue`; `result` only under `lock`, and `ready` says when it
  // holds the page read ahead.
  private let server: SyncServer
  private let queue = DispatchQueue(label: "notes.sync.pull-ahead")
  private let head: Int64
  private let notesPerPage: Int
  private let lock = NSLock()
  private let ready = DispatchSemaphore(value: 0)
  private var result: Result<PulledPage, any Error>?
  private var isReading = false

  /// Connects with `settings` and `bounds`, for the pages of a pull up to `head`.
  init(
    settings: ConnectionSettings, bounds: NetworkBounds, head: Int64, notesPerPage: Int
  ) throws {
    server = try SyncServer(settings: settings, bounds: bounds)
    self.head = head
    self.notesPerPage = notesPerPage
  }

  /// Starts reading the page after `cursor`.
  func read(after cursor: Int64) {
    lock.withLock {
      precondition(!isReading, "one page is read ahead at a time")
      isReading = true
    }
    queue.async { [self] in
      let page = Result {
        try PulledPage.read(from: server, after: cursor, upTo: head, notesPerPage: notesPerPage)
      }
      lock.withLock { result = page }
      ready.signal()
    }
  }

  /// The page being read, once it is read.
  ///
  /// - Throws: What reading it threw.
  func next() throws -> PulledPage {
    ready.wait()
    let page = lock.withLock {
      isReading = false
      defer { result = nil }
      return result
    }
    guard let page else { preconditionFailure("a page was taken without being read") }
    return try page.get()
  }

  /// Closes the connection, after the read in flight (if any) ends.
  func close() {
    queue.sync { server.close() }
  }
}
