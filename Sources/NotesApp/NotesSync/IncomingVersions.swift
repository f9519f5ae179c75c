internal import NotesCore
internal import NotesServer
internal import NotesStorage

/// What a device does with one batch of versions from the server.
///
/// What the server sent, sorted into what the library may apply and what it keeps aside — the last
/// step of holding another writer to the app's rules.
///
/// ## Guarantees
///
/// - Every version was checked by the app's rules as it was read (`PulledVersion`); here a
///   note is checked against the notebooks: its notebook must be one the library knows of
///   (here, or ever sent by the server) or one that comes valid in the same batch. The
///   library is asked about each notebook once per batch, by uid.
///   Otherwise it refers to a notebook the server never had, and is refused.
/// - A refused version is kept aside and reported; the entity then takes its latest valid
///   version from the server's history, numbered as the refused one (so the device has
///   seen it, and its next push of the entity replaces it on the server). Without a valid
///   version in the last `historyLimit`, the entity stays as the library has it. Every
///   device that pulls the same versions makes the same choice, so devices still agree.
/// - Nothing here writes: the caller applies the records and keeps the refused versions in
///   one transaction with its cursor.
struct IncomingVersions {
  /// How many earlier versions of an entity are looked through for a valid one.
  static let historyLimit = 1_000
  /// How many of them one query reads.
  static let historyPage = 50

  let server: SyncServer
  let store: LibrarySyncStore
  /// What is known of the notebooks asked about so far: the library's answer, or the
  /// batch's valid notebooks (known).
  private var knownNotebooks: [String: Bool] = [:]

  /// Sorts versions for the library `store`, from `server`.
  init(server: SyncServer, store: LibrarySyncStore) {
    self.server = server
    self.store = store
  }

  /// Sorts `versions` into records to apply and versions to keep aside.
  ///
  /// - Parameter versions: One batch, in server order.
  /// - Returns: The records (a refused version's entity at its last valid version, if any)
  ///   and the refused versions, each with its reasons.
  /// - Throws: `PostgresError` if the server's history cannot be read.
  mutating func sort(_ versions: [PulledVersion]) throws -> (
    records: [PulledRecord], refused: [RefusedVersion]
  ) {
    var records: [PulledRecord] = []
    var refused: [RefusedVersion] = []
    // Notebooks first: a note in the batch may be in one of them.
    let ordered = versions.filter { $0.kind == .notebook } + versions.filter { $0.kind == .note }
    for version in ordered {
      switch try check(version) {
      case .accepted(let record):
        accept(record, into: &records)
      case .refused(let bad):
        refused.append(bad)
        if let fallback = try lastValidVersion(before: bad) { accept(fallback, into: &records) }
      }
    }
    return (records, refused)
  }

  private mutating func accept(_ record: PulledRecord, into records: inout [PulledRecord]) {
    if record.record.kind == .notebook { knownNotebooks[record.record.uid] = true }
    records.append(record)
  }

  /// Whether the library or the batch knows of the notebook `uid` (the library asked once).
  private mutating func knows(_ uid: String) throws -> Bool {
    if let known = knownNotebooks[uid] { return known }
    let known = try store.knowsNotebook(uid)
    knownNotebooks[uid] = known
    return known
  }

  /// `version`, refused if it is a note whose notebook the server never had.
  private mutating func check(_ version: PulledVersion) throws -> PulledVersion {
    guard case .accepted(let record) = version, record.record.kind == .note,
      let notebook = record.record.fields?.notebook, try !knows(notebook)
    else { return version }
    return .refused(
      RefusedVersion(
        kind: .note, uid: record.record.uid, seq: record.seq, changeID: record.changeID,
        reasons: ["The note refers to notebook \(notebook), which the server never had."]))
  }

  /// The entity's latest valid version before `bad`, numbered as `bad`; `nil` if there is
  /// none within ``historyLimit`` versions.
  private mutating func lastValidVersion(before bad: RefusedVersion) throws -> PulledRecord? {
    guard SyncRules.isUID(bad.uid) else { return nil }
    var before = bad.seq
    var looked = 0
    while looked < Self.historyLimit {
      let page = try server.history(bad.kind, of: bad.uid, before: before, limit: Self.historyPage)
      for older in page {
        if case .accepted(let record) = try check(older) {
          return PulledRecord(seq: bad.seq, changeID: record.changeID, record: record.record)
        }
      }
      guard page.count == Self.historyPage, let last = page.last else { return nil }
      looked += page.count
      before = last.seq
    }
    return nil
  }
}
