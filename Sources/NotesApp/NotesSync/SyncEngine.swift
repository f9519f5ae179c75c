public import Foundation
public import NotesCore
public import NotesServer
public import NotesStorage

/// What one sync moved.
public struct SyncReport: Equatable, Sendable {
  /// Changes the server accepted from this device.
  public var pushed = 0
  /// Versions pulled from the server that were new here (not this device's own changes).
  public var pulled = 0
  /// Entities that changed in the library.
  public var applied = 0
  /// Conflict copies saved.
  public var conflictCopies = 0
  /// What the user is told.
  public var notices: [String] = []
  /// Changes still waiting for the server (another device kept pushing).
  public var pending = 0
  /// Versions from the server that broke the app's rules: kept aside, not applied (each
  /// once, however many pages brought it).
  public var keptAside: [RefusedVersion] = []
  /// When the sync finished, as the library records it (`notes sync status`, and the app's
  /// status after a restart); `nil` until it has.
  public var finished: Date?

  /// An empty report.
  public init() {}
}

/// One device's sync with the server.
///
/// It pushes what changed here, pulls what changed elsewhere, merges, and repeats until both sides
/// agree.
///
/// ```swift
/// let engine = try SyncEngine(libraryPath: path)   // the server set up with `notes sync setup`
/// let report = try engine.sync()
/// print("pushed \(report.pushed), pulled \(report.pulled)")
/// ```
///
/// ## Guarantees
///
/// - A sync is rounds of pull then push. Pull applies the server's versions in pages, each page one
///   local transaction with its cursor, merging them with what changed here. Push then sends every
///   pending change in batches of set-based statements (`SyncServer.push`), reporting progress
///   after each: a push of one batch or less in one server transaction; a larger one sends each
///   batch while the next is collected (`OutgoingBatches`), in server transactions of at least
///   `batchesPerTransaction` batches, the first committing only after the collection committed
///   here, and what each accepted is recorded while the next runs. Every transaction keeps the
///   push's order (notebooks, notes, deleted notebooks), so a device pulling between two never sees
///   a note without its notebook. Accepted ones become ancestors, refused ones (another device
///   pushed in between) are made again after the next round's pull merged them. A round whose push
///   was all accepted and left nothing pending ends the sync; at most `maximumRounds` rounds run.
/// - Nothing is lost by a failure at any point: pending changes stay pending until
///   acknowledged, a change pushed twice is applied once (its id), a page is applied with
///   its cursor or not at all.
/// - Every version pulled is held to the app's rules before it reaches the library
///   (`PulledVersion`, `IncomingVersions`): one that breaks them is kept aside with its
///   reasons and reported, the rest of its page applies and the cursor moves on. No version
///   a server sends can stop a sync.
/// - Never on the main actor: every call blocks on SQLite and the network. One engine, one
///   thread or serial queue.
public final class SyncEngine {
  /// Why a sync cannot start.
  public struct NotSetUp: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String {
      "sync is not set up for this library: run `notes sync setup URL` first"
    }
  }

  /// Progress through one sync: changes pushed and versions pulled, of those known.
  public struct Progress: Equatable, Sendable {
    /// Changes and versions moved so far.
    public var done: Int
    /// Changes and versions known to move.
    public var total: Int

    /// The fraction done, from 0 to 1.
    public var fraction: Double { total == 0 ? 1 : min(1, Double(done) / Double(total)) }
  }

  /// The most push–pull rounds one sync runs.
  public static let maximumRounds = 5
  /// How many notes one pulled page holds.
  public static let pageSize = 1_000

  let store: LibrarySyncStore
  /// The library file, for the second connection a large push collects its changes on.
  let libraryPath: String
  let server: SyncServer
  /// The server's settings and bounds, for the second connection a pull of several pages
  /// reads ahead on.
  let settings: ConnectionSettings
  let bounds: NetworkBounds
  /// How many notes one pulled page holds: ``pageSize``, fewer in tests.
  var notesPerPage = SyncEngine.pageSize
  /// How many changes one pushed batch holds at most, and how many pending entities make a
  /// push collect while it sends: `SyncServer.PushBatch.changeLimit`, fewer in tests.
  var changesPerBatch = SyncServer.PushBatch.changeLimit
  /// How many batches one server transaction of a push of several holds at least (the
  /// first holds every batch sent before the collection committed); fewer in tests.
  var batchesPerTransaction = 10

  /// Opens the library's sync side and connects to its server.
  ///
  /// A connection string stored by an older version with its password in it is rewritten
  /// without it once the server accepted it, the password going to libpq's password file.
  ///
  /// - Parameters:
  ///   - libraryPath: The library file, at the current schema version.
  ///   - serverURL: The server; the one set up for the library if `nil`.
  ///   - bounds: How long the connection waits on the network at each step.
  ///   - sender: The sender its pushes' signals name (`PushSignal`); give the one the
  ///     program's signal listener ignores. A new random one by default.
  /// - Throws: ``NotSetUp``, a `NotesStorageError` or a `PostgresError`.
  public init(
    libraryPath: String, serverURL: String? = nil, bounds: NetworkBounds = .standard,
    sender: String = PushSignal.newSender()
  ) throws {
    let store = try LibrarySyncStore(path: libraryPath)
    guard let url = try serverURL ?? store.server() else { throw NotSetUp() }
    let settings = try ConnectionSettings(url)
    self.store = store
    self.libraryPath = libraryPath
    self.settings = settings
    self.bounds = bounds
    self.server = try SyncServer(settings: settings, bounds: bounds, sender: sender)
    if serverURL == nil, settings.password != nil {
      // A library set up by an older version holds the password: it moves to the password
      // file, and the library keeps the connection string without it.
      _ = try server.storePassword(of: settings)
      try store.rewriteServer(settings.connectionString)
    }
  }

  /// This library's device id.
  public var deviceID: String { store.deviceID }

  /// The sender this engine's pushes' signals name.
  public var sender: String { server.sender }

  /// Closes the library and the server connection.
  public func close() {
    store.close()
    server.close()
  }

  /// Runs one sync: rounds of ``pull(pulled:)`` and ``push(progress:)`` until nothing is
  /// pending.
  ///
  /// - Parameter progress: Called after each page pulled, before each push and after each
  ///   batch of it, and after each push; an error it throws (such as `CancellationError`)
  ///   ends the sync there: a page is applied whole or not at all, and a push stopped
  ///   after a batch is rolled back on the server back to its last committed transaction
  ///   (see ``push(progress:)``), the rest of its changes still pending.
  /// - Returns: What moved.
  /// - Throws: A `NotesStorageError` or `PostgresError`, or what `progress` threw; what
  ///   was done before stays done.
  @discardableResult
  public func sync(progress: (Progress) throws -> Void = { _ in }) throws -> SyncReport {
    var report = SyncReport()
    var moved = 0
    // A push whose acknowledgement was lost: its outcome is learnt first, so the pull
    // merges against what the server really accepted.
    try resolveUnacknowledged()
    for _ in 0..<Self.maximumRounds {
      // Pull first: a change made here is merged with what is already on the server before
      // it is pushed, so most pushes are accepted the first time.
      let incoming = try server.count(after: try store.cursor())
      let pulled = try pull { count in
        try progress(Progress(done: moved + count, total: moved + max(incoming, count)))
      }
      moved += pulled.received
      report.pulled += pulled.received
      report.applied += pulled.applied
      report.conflictCopies += pulled.conflictCopies
      report.notices += pulled.notices
      Self.add(pulled.keptAside, to: &report.keptAside)
      let pushed = try push(keptAside: &report.keptAside) { step in
        try progress(Progress(done: moved + step.done, total: moved + step.total))
      }
      report.pushed += pushed.accepted
      moved += pushed.accepted + pushed.refused
      try progress(Progress(done: moved, total: moved))
      report.pending = try store.pendingCount()
      if pushed.refused == 0, report.pending == 0 { break }
    }
    // The one place the time of the last sync is written: the app's model takes this same
    // time from the report, so the status bar and `notes sync status` agree.
    let finished = Date()
    try store.recordSynced(at: finished)
    report.finished = finished
    return report
  }

  /// Pushes every pending change and records what was accepted.
  ///
  /// A push of up to a batch (1,000 changes) is one server transaction. A larger one is
  /// collected on a second connection while its batches go, in server transactions of at
  /// least ten batches; the first commits only once every change is collected, and each
  /// keeps the push's order, so a device pulling in between never sees a note without its
  /// notebook.
  ///
  /// - Parameter progress: Called with the changes the server has answered for, of those
  ///   pushed: before the first batch is sent, then after each (see
  ///   `SyncServer.push(_:device:progress:)`); an error it throws ends the push: a
  ///   server transaction still open is rolled back (a push of one batch or less has
  ///   committed by the time it is asked after its batch), the ones committed stay (and
  ///   are recorded here).
  /// - Returns: How many changes the server accepted and how many it refused (it had a
  ///   newer version: they are made again from the merge after the next pull).
  /// - Throws: A `NotesStorageError` or `PostgresError`, or what `progress` threw;
  ///   unacknowledged changes stay pending under their ids, so pushing again is safe.
  @discardableResult
  public func push(progress: (Progress) throws -> Void = { _ in }) throws -> (
    accepted: Int, refused: Int
  ) {
    var keptAside: [RefusedVersion] = []
    return try push(keptAside: &keptAside, progress: progress)
  }

  /// ``push(progress:)``, adding what the merge of refused changes kept aside to
  /// `keptAside`.
  private func push(
    keptAside: inout [RefusedVersion], progress: (Progress) throws -> Void
  ) throws -> (accepted: Int, refused: Int) {
    let pending = try store.pendingCount()
    guard pending > 0 else { return (0, 0) }
    let (changes, outcomes) =
      pending > changesPerBatch
      ? try pushWhileCollecting(pending: pending, progress: progress)
      : try pushCollectedFirst(progress: progress)
    let accepted = Self.accepted(changes[...], outcomes[...]).count
    let refused = zip(changes, outcomes).compactMap { change, outcome in
      outcome == .refused ? change : nil
    }
    try store.discardRefused(refused)
    if !refused.isEmpty {
      // Another device pushed in between: merge with the versions that beat these changes
      // now (the next round pushes the merge), whatever the cursor has seen.
      var current: [PulledVersion] = []
      for kind in SyncEntityKind.allCases {
        let uids = refused.filter { $0.record.kind == kind }.map(\.record.uid)
        current += try server.versions(kind, of: uids)
      }
      var incoming = IncomingVersions(server: server, store: store)
      let sorted = try incoming.sort(current)
      let applied = try store.apply(
        sorted.records, refused: sorted.refused, cursor: try store.cursor())
      Self.add(applied.keptAside, to: &keptAside)
    }
    return (accepted, refused.count)
  }

  /// The changes of `changes` the server accepted, with their sequence numbers.
  private static func accepted(
    _ changes: ArraySlice<OutgoingChange>, _ outcomes: ArraySlice<SyncServer.PushOutcome>
  ) -> [(OutgoingChange, seq: Int64)] {
    zip(changes, outcomes).compactMap { change, outcome in
      if case .accepted(let seq) = outcome { (change, seq) } else { nil }
    }
  }

  /// Collects every pending change, then sends them in one server transaction, and records
  /// what was accepted: a push of one batch or less.
  private func pushCollectedFirst(
    progress: (Progress) throws -> Void
  ) throws -> ([OutgoingChange], [SyncServer.PushOutcome]) {
    let changes = try store.outgoingChanges()
    guard !changes.isEmpty else { return ([], []) }
    try progress(Progress(done: 0, total: changes.count))
    // The server has committed by the time progress is reported: what it accepted is
    // recorded here before an error of `progress` (a cancellation) ends the sync.
    var stopped: (any Error)?
    let outcomes = try server.push(changes, device: store.deviceID) { answered in
      guard stopped == nil else { return }
      do { try progress(Progress(done: answered, total: changes.count)) } catch { stopped = error }
    }
    try store.acknowledge(Self.accepted(changes[...], outcomes[...]))
    if let stopped { throw stopped }
    return (changes, outcomes)
  }

  /// Sends each batch of pending changes while the next is collected (`OutgoingBatches`),
  /// and records what was accepted.
  ///
  /// The batches go in server transactions of at least ``batchesPerTransaction`` batches,
  /// the first committing only once the collection committed here; what each accepted is
  /// recorded on the collecting connection while the next runs. Each transaction follows
  /// the push's order (notebooks, notes, deleted notebooks), so a device pulling between
  /// two of them never sees a note without its notebook.
  private func pushWhileCollecting(
    pending: Int, progress: (Progress) throws -> Void
  ) throws -> ([OutgoingChange], [SyncServer.PushOutcome]) {
    let batches = try OutgoingBatches(libraryPath: libraryPath, changesPerBatch: changesPerBatch)
    defer { batches.close() }
    var changes: [OutgoingChange] = []
    var outcomes: [SyncServer.PushOutcome] = []
    var next = try batches.next()
    if next != nil { try progress(Progress(done: 0, total: pending)) }
    while next != nil {
      let first = changes.count
      try server.push(device: store.deviceID) { send in
        var sent = 0
        while let batch = next {
          changes += batch.changes
          outcomes += try send(batch)
          try progress(Progress(done: outcomes.count, total: max(pending, outcomes.count)))
          sent += 1
          next = try batches.next()
          // Never before the collection committed: until then the changes' ids are not
          // stored here.
          if sent >= batchesPerTransaction, batches.isCollected { break }
        }
      }
      batches.acknowledge(Self.accepted(changes[first...], outcomes[first...]))
    }
    try batches.acknowledged()
    return (changes, outcomes)
  }

  /// Adds each of `versions` to `list` unless the list has it (every page carries every
  /// notebook changed after the cursor, so one can be refused on several pages).
  private static func add(_ versions: [RefusedVersion], to list: inout [RefusedVersion]) {
    for version in versions where !list.contains(version) { list.append(version) }
  }

  /// Asks the server about every change pushed before whose acknowledgement never came,
  /// and records the ones it accepted.
  ///
  /// - Throws: A `NotesStorageError` or `PostgresError`.
  public func resolveUnacknowledged() throws {
    let waiting = try store.unacknowledgedChanges()
    guard !waiting.isEmpty else { return }
    let accepted = try server.accepted(waiting.map(\.changeID))
    try store.acknowledge(
      waiting.compactMap { change in accepted[change.changeID].map { (change, seq: $0) } })
  }

  /// Pulls, page by page, everything the server has after this library's cursor, and
  /// merges it in.
  ///
  /// - Parameter pulled: Called after each page (applied in its own transaction) with the
  ///   versions received so far; an error it throws ends the pull there.
  /// - Returns: What the pages did, added up.
  /// - Throws: A `NotesStorageError` or `PostgresError`, or what `pulled` threw; pages
  ///   applied stay applied.
  @discardableResult
  public func pull(pulled: (Int) throws -> Void = { _ in }) throws -> SyncApplyReport {
    // Every query is bounded by one head, read first: pushes commit in sequence order, so
    // everything up to it is there, and nothing committed meanwhile is half seen. The head
    // is the log's, never a version's own number.
    let head = try server.logHead()
    var numbers = PulledNumbers(start: try store.cursor(), head: head)
    var report = SyncApplyReport()
    do {
      try pullPages(checking: &numbers, into: &report, pulled: pulled)
    } catch {
      // What was seen is true whether or not the pull ended well.
      for notice in numbers.notices { try? store.keepNotice(notice) }
      throw error
    }
    for notice in numbers.notices {
      try store.keepNotice(notice)
      report.notices.append(notice)
    }
    return report
  }

  /// The pages of ``pull(pulled:)``, from `numbers`' start up to its head.
  private func pullPages(
    checking numbers: inout PulledNumbers, into report: inout SyncApplyReport,
    pulled: (Int) throws -> Void
  ) throws {
    let head = numbers.head
    guard numbers.start < head else { return }
    var page = try PulledPage.read(
      from: server, after: numbers.start, upTo: head, notesPerPage: notesPerPage)
    var isFirst = true
    var reader: PageReader?
    defer { reader?.close() }
    while true {
      numbers.check(page, isFirst: isFirst)
      isFirst = false
      if page.cursor < head {
        // The next page is read on a connection of its own while this one is applied.
        if reader == nil {
          reader = try PageReader(
            settings: settings, bounds: bounds, head: head, notesPerPage: notesPerPage)
        }
        reader?.read(after: page.cursor)
      }
      var incoming = IncomingVersions(server: server, store: store)
      let sorted = try incoming.sort(page.notebooks + page.notes)
      let applied = try store.apply(sorted.records, refused: sorted.refused, cursor: page.cursor)
      report.received += applied.received
      report.applied += applied.applied
      report.conflictCopies += applied.conflictCopies
      report.notices += applied.notices
      Self.add(applied.keptAside, to: &report.keptAside)
      try pulled(report.received)
      guard page.cursor < head, let reader else { break }
      page = try reader.next()
    }
  }
}
