/// The lifetimes that belong to one owner, cancelled together.
///
/// Give each owner (a screen, a binder, a view-state controller) its own bag. When the
/// owner goes away, so does the bag, and every binding it held ends.
///
/// ```swift
/// final class NoteScreen {
///   let bag = LifetimeBag()
///   init(title: StateSource<String>, label: Label) {
///     title.observe { label.text = $0 }.store(in: bag)
///   }
/// }
/// ```
///
/// ## Guarantees
/// - A bag belongs to one owner (a screen, a binder, a controller). It holds lifetimes
///   strongly; cancelling or releasing the bag cancels every lifetime in it, in the order
///   they were inserted.
/// - A lifetime inserted into a bag that was already cancelled is cancelled at once, so a
///   late subscription cannot outlive its owner.
@MainActor
public final class LifetimeBag {
  private var lifetimes: [Lifetime] = []
  /// Whether ``close()`` was called: every later insertion is cancelled at once.
  public private(set) var isClosed = false

  /// The owner's name in the binding graph, such as `"NoteListScreen"`.
  public var label: String?

  /// Creates an empty bag.
  ///
  /// - Parameter label: The owner's name in the binding graph.
  public init(label: String? = nil) {
    self.label = label
  }

  /// The number of lifetimes in the bag that have not been cancelled.
  public var liveCount: Int { lifetimes.reduce(0) { $0 + ($1.isCancelled ? 0 : 1) } }

  /// Adds a lifetime to the bag; if the bag was cancelled, cancels the lifetime at once.
  ///
  /// - Parameter lifetime: A lifetime the bag will own.
  public func insert(_ lifetime: Lifetime) {
    guard !isClosed else {
      lifetime.cancel()
      return
    }
    lifetimes.append(lifetime)
    lifetime.ledger.lifetime(lifetime, isOwnedBy: label)
  }

  /// Cancels every lifetime in the bag and empties it; the bag stays usable.
  ///
  /// Use this to rebind: cancel everything the owner held, then insert new lifetimes.
  public func cancelAll() {
    let ending = lifetimes
    lifetimes = []
    for lifetime in ending { lifetime.cancel() }
  }

  /// Cancels every lifetime in the bag and closes it: later insertions cancel at once.
  public func close() {
    isClosed = true
    cancelAll()
  }

  // Nonisolated on purpose, like `Lifetime`'s: on the main actor it cancels before the
  // release returns, elsewhere on the main actor's next turn.
  deinit {
    let ending = lifetimes
    MainActorCheck.run {
      for lifetime in ending { lifetime.cancel() }
    }
  }
}
