/// One committed write: the new revision, what changed, and the state after it.
public struct Commit<State> {
  /// The model's revision after this commit; the first commit is revision 1.
  public let revision: Int
  /// What the commit changed.
  public let changes: ChangeSet<State>
  /// The state after the commit.
  ///
  /// Keeping a commit keeps its state alive: the model's next write then copies each table
  /// it changes instead of changing it in place. Keep the ids and values you need instead.
  public let state: State
  /// Who wrote it: the user's action, a background task, or an external source.
  public let origin: CommitOrigin
}

extension Commit: Sendable where State: Sendable {}

/// Persists commits inside a model's write funnel.
///
/// A conformer must make a commit durable before returning, or throw and leave storage as
/// it was: the model applies the commit only after ``persist(_:)`` returns.
@MainActor
public protocol ModelStorage<State>: AnyObject {
  /// The model state this storage persists.
  associatedtype State

  /// Makes `commit` durable, or throws and changes nothing.
  ///
  /// - Parameter commit: The commit about to be applied.
  /// - Throws: Any error; the model then reports ``ModelError/storageFailed(_:)`` and keeps
  ///   its state. A ``StorageBehindError`` whose `isBehind` is true makes the model catch
  ///   up with ``externalChanges()`` and run the write again (up to three times, the last
  ///   inside ``holdingWriteLock(_:)``).
  func persist(_ commit: Commit<State>) throws

  /// What other writers stored since this storage last caught up, or `nil` if nothing.
  ///
  /// A storage that nobody else writes keeps the default, which returns `nil`.
  ///
  /// - Returns: The changes to apply as one external commit.
  /// - Throws: Any error reading the storage; the model's state is then unchanged.
  func externalChanges() throws -> ExternalChanges<State>?

  /// Runs `body` while no other writer can change the storage, for a write's last try.
  ///
  /// A write whose storage was behind twice runs its third and last try inside this call:
  /// it catches up with ``externalChanges()`` and persists its commit with no other writer
  /// able to commit in between, so writers that keep committing cannot starve it. The
  /// ``persist(_:)`` that `body` makes must still be durable when it returns (a SQLite
  /// storage holds its write lock from here and commits inside `persist`); if `body`
  /// throws, nothing it began stays. A storage that nobody else writes keeps the default,
  /// which only calls `body`.
  ///
  /// - Parameter body: The catch-up and the write's last try.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or an error taking the storage's lock.
  func holdingWriteLock<Result>(_ body: () throws -> Result) throws -> Result
}

extension ModelStorage {
  /// Returns `nil`: nobody else writes this storage.
  ///
  /// - Returns: `nil`.
  public func externalChanges() throws -> ExternalChanges<State>? { nil }

  /// Calls `body`: nobody else writes this storage, so there is no lock to hold.
  ///
  /// - Parameter body: The catch-up and the write's last try.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func holdingWriteLock<Result>(_ body: () throws -> Result) throws -> Result {
    try body()
  }
}

/// The single home of an app's state, changed only through ``write(origin:_:)``.
///
/// ```swift
/// struct Library { var notes = EntityTable<Note>() }
/// let model = Model(Library())
/// let lifetime = model.observeCommits { commit in
///   print(commit.revision, commit.changes.changes(in: \.notes).inserted)
/// }
/// try model.write(origin: .background("import")) {
///   try $0.insert(Note(id: 1, title: "Groceries"), into: \.notes)
/// }
/// // prints: 1 [1]
/// ```
///
/// ## Guarantees
///
/// - `state` changes only inside ``write(origin:_:)``. The body changes the state in place through
///   a `Transaction` (no table is copied); if the body or the storage hook fails, the transaction's
///   log reverts every change before the write returns. While a write runs, `state` shows its
///   changes so far, as a database transaction reads its own writes.
/// - All or nothing: if the body throws or the storage hook throws, the state, the revision
///   and the storage are exactly as before, and nothing is posted.
/// - A write that changes nothing is not a commit: no storage call, no new revision, no
///   notification.
/// - Each commit, in order: the storage hook persists it; the state is replaced; the
///   revision goes up by one; exactly one notification carrying the change set and the new
///   revision is delivered, synchronously, to every commit observer in registration order,
///   including the one whose gesture caused the write.
/// - Every commit carries the ``CommitOrigin`` its write named: the user's action (an
///   ``ActionDispatcher`` writes those), a background task, or an external source such as
///   another process or a sync server. Every write names its origin.
/// - Other writers (several processes on one storage): a storage that another writer changed
///   since it last caught up refuses the write with a ``StorageBehindError``. The model
///   then rolls back, applies the other writers' changes as one external commit
///   (``catchUpWithStorage()``: not persisted again, never an undo step, observed like
///   any other commit) and runs the body again against the new state, at most three
///   times. A body that validates therefore refuses what the other change made invalid,
///   with its reason, instead of overwriting it unseen.
/// - Re-entrancy rule: rejected. A write started inside a write's body, inside the storage
///   hook, or while a commit notification is being delivered throws
///   `ModelError.reentrantWrite` and changes nothing. An observer that must write in
///   response schedules the write (for example in a main-actor task), so every observer has
///   seen commit N before commit N + 1 exists.
/// - The model is main-actor isolated: work on another executor reaches it only by
///   returning to the main actor with `await`.
@MainActor
public final class Model<State> {
  /// The current state; read freely, change only through ``write(origin:_:)``.
  ///
  /// While a write is running (in its body or its storage hook), this is the state with the
  /// write's changes so far.
  public var state: State {
    if let inFlight { return inFlight.state }
    guard let storedState else { preconditionFailure("Model state missing outside a write") }
    return storedState
  }

  /// The number of commits so far.
  public private(set) var revision = 0

  /// Optional only so a write can take the state out and change it in place, uniquely
  /// referenced; `nil` exactly while `inFlight` holds it.
  private var storedState: State?
  private var inFlight: TransactionStorage<State>?
  private let storage: (any ModelStorage<State>)?
  private let commits = EventChannel<Commit<State>>()
  private var isWriting = false
  private var isPosting = false

  /// Creates a model.
  ///
  /// - Parameters:
  ///   - initialState: The state at revision 0.
  ///   - storage: Persists each commit inside the funnel; `nil` keeps state in memory only.
  public init(_ initialState: State, storage: (any ModelStorage<State>)? = nil) {
    self.storedState = initialState
    self.storage = storage
  }

  /// Whether a write or a commit notification is in progress (a write now would be
  /// rejected).
  public var isBusy: Bool { isWriting || isPosting }

  /// Changes the state through one transaction, persists it, then notifies observers once.
  ///
  /// - Parameters:
  ///   - origin: Who is writing: ``CommitOrigin/user(_:)`` for a change the user made here
  ///     (an ``ActionDispatcher`` writes those, and only those become undo steps),
  ///     ``CommitOrigin/background(_:)`` for a task of the app,
  ///     ``CommitOrigin/external(_:)`` for another writer. Every call names it, so no write
  ///     is silently unnamed in the log or left out of undo.
  ///   - body: Makes the changes; throwing discards all of them.
  /// - Returns: What `body` returns.
  /// - Throws: ``ModelError/reentrantWrite`` if another write or a notification is running;
  ///   ``ModelError/storageFailed(_:)`` if persisting failed; any error `body` throws. In
  ///   every case the state is unchanged.
  @discardableResult
  public func write<Result>(
    origin: CommitOrigin,
    _ body: (inout Transaction<State>) throws -> Result
  ) throws -> Result {
    for _ in 1..<Self.attempts {
      do {
        return try commit(origin: origin, persisting: true, body)
      } catch let error as any StorageBehindError where error.isBehind {
        try catchUpWithStorage()
      }
    }
    // The last try holds the storage's write lock through the catch-up and the commit:
    // writers that commit in every gap between the two cannot make it fail.
    guard let storage else { return try commit(origin: origin, persisting: true, body) }
    do {
      return try storage.holdingWriteLock {
        try catchUpWithStorage()
        return try commit(origin: origin, persisting: true, body)
      }
    } catch let error as any StorageBehindError where error.isBehind {
      throw ModelError.storageFailed(
        "other writers kept changing the storage; tried \(Self.attempts) times")
    }
  }

  /// How often a write runs when its storage is behind other writers each time.
  private static var attempts: Int { 3 }

  /// Applies what other writers stored since this model last read its storage, as one
  /// commit with an ``CommitOrigin/external(_:)`` origin that is not persisted again.
  ///
  /// Call it when the storage reports another writer's commit (for a SQLite file, a
  /// changed `PRAGMA data_version`); ``write(origin:_:)`` calls it on its own when the
  /// storage refuses a write because it is behind. Observers get the commit like any
  /// other, so every view updates; undo history never records it.
  ///
  /// - Returns: Whether the storage had changes (even if they matched the state already).
  /// - Throws: ``ModelError/reentrantWrite`` inside a write or a notification; any error
  ///   reading the storage or applying its changes, with the state unchanged.
  @discardableResult
  public func catchUpWithStorage() throws -> Bool {
    guard !isBusy else { throw ModelError.reentrantWrite }
    guard let storage, let changes = try storage.externalChanges() else { return false }
    try commit(origin: .external(changes.source), persisting: false, changes.apply)
    changes.applied()
    return true
  }

  /// One attempt of a write: the body, the storage hook (unless `persisting` is false),
  /// the new state, one notification.
  private func commit<Result>(
    origin: CommitOrigin,
    persisting: Bool,
    _ body: (inout Transaction<State>) throws -> Result
  ) throws -> Result {
    guard !isBusy else { throw ModelError.reentrantWrite }
    isWriting = true
    let inFlight = TransactionStorage(state: takeStoredState())
    self.inFlight = inFlight
    var transaction = Transaction(storage: inFlight)
    let result: Result
    let commit: Commit<State>
    do {
      result = try body(&transaction)
      if let refusal = inFlight.refusal { throw refusal }
      if inFlight.changes.isEmpty {
        inFlight.rollBack()
        finishWrite(inFlight)
        return result
      }
      commit = Commit(
        revision: revision + 1, changes: inFlight.changes, state: inFlight.state, origin: origin)
      if persisting {
        do {
          try storage?.persist(commit)
        } catch let error as any StorageBehindError where error.isBehind {
          throw error
        } catch {
          throw ModelError.storageFailed(String(describing: error))
        }
      }
    } catch {
      inFlight.rollBack()
      finishWrite(inFlight)
      throw error
    }
    finishWrite(inFlight)
    revision = commit.revision
    isPosting = true
    defer { isPosting = false }
    commits.send(commit)
    return result
  }

  /// Calls `observer` with every later commit; nothing is replayed.
  ///
  /// Use ``state`` and ``revision`` for the current values when starting to observe.
  ///
  /// - Parameter observer: Called synchronously after each commit, on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observeCommits(_ observer: @escaping (Commit<State>) -> Void) -> Lifetime {
    commits.observe(observer)
  }

  /// Moves the state out, leaving `storedState` empty, so the write's changes do not copy.
  private func takeStoredState() -> State {
    defer { storedState = nil }
    guard let storedState else { preconditionFailure("Model state missing outside a write") }
    return storedState
  }

  /// Puts the state back: after the commit, before observers are told; or after a rollback.
  private func finishWrite(_ inFlight: TransactionStorage<State>) {
    storedState = inFlight.state
    self.inFlight = nil
    isWriting = false
  }
}
