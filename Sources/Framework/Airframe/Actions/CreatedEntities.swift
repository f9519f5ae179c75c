/// The ids of the entities a step created, per table: what an action produced.
///
/// An ``ActionOutcome/committed(revision:created:)`` outcome carries them, so the view that
/// sent "New Note" can select the new note without scanning the model or reading an id
/// counter:
///
/// ```swift
/// let outcome = dispatcher.dispatch(CreateNote(title: "Groceries"))
/// if let id = outcome.createdID(in: \Library.notes) { noteList.select(id) }
/// ```
///
/// ## Guarantees
///
/// - The ids are those the commit inserted (the change set's `inserted` ids, so an entity
///   inserted and removed in the same write is not there). An undo that puts a deleted
///   entity back creates it again, and its outcome says so.
/// - A value: it never changes after the outcome is made, which is why it is `Sendable`
///   although it holds key paths and type-erased ids.
public struct CreatedEntities: Equatable, @unchecked Sendable {
  private var ids: [AnyKeyPath: Set<AnyHashable>]

  /// No entities.
  public init() { ids = [:] }

  init<State>(_ changes: ChangeSet<State>) { ids = changes.insertedIDs }

  init(ids: [AnyKeyPath: Set<AnyHashable>]) { self.ids = ids }

  /// Whether nothing was created.
  public var isEmpty: Bool { ids.values.allSatisfy(\.isEmpty) }

  /// The ids created in the table at `table`.
  ///
  /// - Parameter table: The key path of an ``EntityTable`` in the state.
  /// - Returns: The created ids; empty if none.
  public func ids<State, Element>(
    in table: KeyPath<State, EntityTable<Element>>
  ) -> Set<Element.ID> {
    Set((ids[table] ?? []).compactMap { $0.base as? Element.ID })
  }

  /// The id created in the table at `table`, when exactly one was.
  ///
  /// - Parameter table: The key path of an ``EntityTable`` in the state.
  /// - Returns: The one created id, or `nil` if none or several were created there.
  public func id<State, Element>(in table: KeyPath<State, EntityTable<Element>>) -> Element.ID? {
    let created = ids(in: table)
    return created.count == 1 ? created.first : nil
  }

  /// The ids in this value that are not in `earlier`, per table.
  ///
  /// To learn what one part of a longer write created, prefer
  /// ``Transaction/creating(_:)``, which costs only that part's inserts.
  ///
  /// - Parameter earlier: What was created before.
  /// - Returns: What was created since.
  public func subtracting(_ earlier: CreatedEntities) -> CreatedEntities {
    var result = CreatedEntities()
    for (table, created) in ids {
      let new = created.subtracting(earlier.ids[table] ?? [])
      if !new.isEmpty { result.ids[table] = new }
    }
    return result
  }
}

extension ActionOutcome {
  /// The ids the step created in the table at `table`; empty unless it committed.
  ///
  /// - Parameter table: The key path of an ``EntityTable`` in the state.
  /// - Returns: The created ids.
  public func createdIDs<State, Element>(
    in table: KeyPath<State, EntityTable<Element>>
  ) -> Set<Element.ID> {
    guard case .committed(_, let created) = self else { return [] }
    return created.ids(in: table)
  }

  /// The id the step created in the table at `table`, when it committed and created
  /// exactly one there.
  ///
  /// - Parameter table: The key path of an ``EntityTable`` in the state.
  /// - Returns: The one created id, or `nil`.
  public func createdID<State, Element>(
    in table: KeyPath<State, EntityTable<Element>>
  ) -> Element.ID? {
    guard case .committed(_, let created) = self else { return nil }
    return created.id(in: table)
  }
}

extension Transaction {
  /// The ids this write has inserted so far, per table.
  ///
  /// To learn what one action created inside a longer write, use ``creating(_:)``:
  /// reading this before and after each action costs the whole write every time, which
  /// for an import of 100,000 notes in one write is quadratic.
  public var created: CreatedEntities { CreatedEntities(changes) }

  /// Runs `body` on this write and returns the entities it created: what it inserted that
  /// the write still holds as inserted when it returns.
  ///
  /// ```swift
  /// let created = try transaction.creating { try action.perform(in: &$0) }
  /// let id = created.id(in: \Library.notes)
  /// ```
  ///
  /// - Parameter body: Changes the write.
  /// - Returns: The ids `body` created, per table.
  /// - Throws: What `body` throws.
  /// - Complexity: O(*k*) for *k* inserts made by `body`, whatever the write did before.
  public mutating func creating<Failure: Error>(
    _ body: (inout Transaction) throws(Failure) -> Void
  ) throws(Failure) -> CreatedEntities {
    let start = storage.insertions.count
    try body(&self)
    var ids: [AnyKeyPath: Set<AnyHashable>] = [:]
    for (table, id) in storage.insertions[start...]
    where storage.changes.isInserted(id, in: table) {
      ids[table, default: []].insert(id)
    }
    return CreatedEntities(ids: ids)
  }
}
