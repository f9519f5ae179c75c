public import Airframe

/// All application state of the Notes app: the single value its `Model` holds.
///
/// View state (selection, sort order, search text) is not here; it lives in the view-state
/// controller of each presentation.
public struct NotesState: Equatable, Sendable {
  /// Every notebook.
  public var notebooks = EntityTable<Notebook>()
  /// Every note.
  public var notes = EntityTable<Note>()
  /// The notes in Recently Deleted, by their ids (which no note of ``notes`` has).
  public var recentlyDeleted = EntityTable<DeletedNote>()
  /// Synchronization status.
  public var sync = SyncStatus.idle(lastSynced: nil)
  /// How many versions from the sync server the library keeps aside unread, because they
  /// broke the app's rules (as of the last sync); `notes sync status` lists them.
  public var syncKeptAside = 0
  /// The largest id ever given to a notebook or a note; new ids are larger.
  public var lastAssignedID: Int64 = 0
  /// How many days the library keeps a deleted note before it goes for good: a setting of
  /// the library (not synced), ``RecentlyDeleted/defaultDays`` unless changed with
  /// `KeepDeletedNotes`.
  public var recentlyDeletedDays = RecentlyDeleted.defaultDays

  /// Creates a state.
  ///
  /// - Parameters:
  ///   - notebooks: The notebooks.
  ///   - notes: The notes.
  ///   - recentlyDeleted: The notes in Recently Deleted.
  ///   - sync: The sync status.
  ///   - lastAssignedID: The largest id already used; computed from the entities if `nil`.
  public init(
    notebooks: [Notebook] = [],
    notes: [Note] = [],
    recentlyDeleted: [DeletedNote] = [],
    sync: SyncStatus = .idle(lastSynced: nil),
    lastAssignedID: Int64? = nil
  ) {
    self.notebooks = EntityTable(notebooks)
    self.notes = EntityTable(notes)
    self.recentlyDeleted = EntityTable(recentlyDeleted)
    self.sync = sync
    let largest = max(
      notebooks.map(\.id.rawValue).max() ?? 0, notes.map(\.id.rawValue).max() ?? 0,
      recentlyDeleted.map(\.id.rawValue).max() ?? 0)
    self.lastAssignedID = max(lastAssignedID ?? 0, largest)
  }
}
