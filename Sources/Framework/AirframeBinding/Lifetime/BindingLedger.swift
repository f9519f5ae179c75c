/// What an ``InputSlot`` does with input sent while a render is in progress.
public enum EchoPolicy: Sendable {
  /// Drop the input, count it, and stop a debug build with an assertion failure.
  case trap
  /// Drop the input and count it; never stop.
  case count
}

/// A count of live bindings and render echoes, for tests and diagnostics.
///
/// A test that wants to prove it leaves no binding behind runs its body with a fresh
/// ledger as the current one and checks ``liveCount`` at the end; `AirframeTesting`
/// wraps this in a trait. Code outside any scope is counted by ``shared``.
///
/// ## Guarantees
/// - Every `Lifetime` is counted by exactly one ledger: `BindingLedger.current` when the
///   lifetime was created, or `BindingLedger.shared` when no ledger is current. The count
///   goes up when the lifetime is created and down once, when it is cancelled or released.
/// - Every input sent while a render is in progress (an echo) is counted by the current
///   ledger and dropped; with `EchoPolicy.trap` it also stops a debug build.
/// - `current` is a task-local value, so concurrently running tests each count only the
///   bindings they created.
@MainActor
public final class BindingLedger {
  /// The ledger that new lifetimes and echoes are counted by in the current task.
  @TaskLocal public static var current: BindingLedger?

  /// The ledger that counts everything created outside a ``withCurrent(_:isolation:)`` scope.
  public static let shared = BindingLedger(name: "shared")

  /// Counts the links that stand in for a connection before it exists (see
  /// `Lifetime.linked`); the connection itself is counted by the current ledger, so a
  /// linked binding counts once.
  static let uncounted = BindingLedger(name: "links")

  /// A name for messages and the binding-graph description.
  public let name: String

  /// What input slots do with an echo counted by this ledger.
  public var echoPolicy: EchoPolicy

  /// The number of lifetimes created under this ledger that are not yet cancelled.
  public private(set) var liveCount = 0

  /// The number of lifetimes ever created under this ledger.
  public private(set) var createdCount = 0

  /// The number of inputs sent while a render was in progress (each one dropped).
  public private(set) var echoCount = 0

  /// Creates a ledger.
  ///
  /// - Parameters:
  ///   - name: A name for messages.
  ///   - echoPolicy: What to do with an echo; ``EchoPolicy/trap`` by default.
  public init(name: String, echoPolicy: EchoPolicy = .trap) {
    self.name = name
    self.echoPolicy = echoPolicy
  }

  /// Runs `body` with this ledger as the current one, so that it counts what `body`
  /// creates, including inside tasks that `body` starts.
  ///
  /// - Parameters:
  ///   - body: The work to count.
  ///   - isolation: The actor `body` runs on; the caller's, by default.
  /// - Returns: What `body` returns.
  public func withCurrent<Result>(
    _ body: () async throws -> Result,
    isolation: isolated (any Actor)? = #isolation
  ) async rethrows -> Result {
    try await BindingLedger.$current.withValue(self, operation: body, isolation: isolation)
  }

  /// Whether lifetimes created under this ledger are recorded for ``graphDescription``.
  ///
  /// Off by default: recording costs a dictionary entry per live binding.
  public var recordsGraph = false

  private struct Edge {
    var source: String
    var owner: String?
  }

  private var edges: [ObjectIdentifier: Edge] = [:]

  func lifetimeStarted(_ lifetime: Lifetime, target: LifetimeTarget) {
    liveCount += 1
    createdCount += 1
    if recordsGraph {
      edges[ObjectIdentifier(lifetime)] = Edge(source: target.graphLabel, owner: nil)
    }
  }

  func lifetime(_ lifetime: Lifetime, isOwnedBy owner: String?) {
    guard recordsGraph, let owner else { return }
    edges[ObjectIdentifier(lifetime)]?.owner = owner
  }

  func lifetimeEnded(_ lifetime: ObjectIdentifier) {
    liveCount -= 1
    if recordsGraph { edges[lifetime] = nil }
  }

  /// A readable description of the live bindings recorded while ``recordsGraph`` was on:
  /// each observed source, and which owners hold how many bindings to it.
  ///
  /// ```
  /// note title [String] ← EditorScreen ×1, NoteListScreen ×2
  /// selection [Optional<Int>] ← (no owner) ×1
  /// ```
  public var graphDescription: String {
    var bySource: [String: [String: Int]] = [:]
    for edge in edges.values {
      bySource[edge.source, default: [:]][edge.owner ?? "(no owner)", default: 0] += 1
    }
    return bySource.keys.sorted().map { source in
      let owners = bySource[source, default: [:]].sorted { $0.key < $1.key }
        .map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
      return "\(source) ← \(owners)"
    }.joined(separator: "\n")
  }

  func echoCaught(description: @autoclosure () -> String) {
    echoCount += 1
    if echoPolicy == .trap {
      assertionFailure("Input sent while rendering (an echo): \(description())")
    }
  }
}
