/// The identity of one request made through an ``AsyncProjection``.
public struct AsyncRequestID: Hashable, Sendable, CustomStringConvertible {
  let rawValue: Int
  /// A readable form, such as `request#3`.
  public var description: String { "request#\(rawValue)" }
}

/// A projection of an asynchronous load: idle, loading, loaded or failed, for the
/// latest request only.
///
/// ```swift
/// let zones = AsyncProjection<[Zone]>()
/// zones.load { try await catalog.zones() }      // phase: .loading(previous: nil)
/// zones.load { try await catalog.zones() }      // supersedes the first request
/// // Only the second completion can publish .loaded(...) or .failed(...).
/// ```
///
/// ## Guarantees
/// - Phases: idle, then `loading(previous:)` when a request starts, then `loaded(value)`
///   or `failed(error, previous:)` when the latest request completes.
/// - Identity: every request gets a new ``AsyncRequestID``. Only the completion of the
///   current request publishes. A completion of a superseded or cancelled request is
///   dropped and counted in ``droppedCompletionCount``, even when the work ignored
///   cancellation and finished normally.
/// - ``cancel()`` cancels the current request's task and restores the phase from before
///   it (`loaded` with the previous value if there was one, otherwise `idle`). Releasing
///   the projection cancels its task.
/// - Cancelling a request cancels this projection's own task only. Work shared with
///   another consumer through ``SharedOperation`` keeps running for that consumer.
/// - Observing follows ``StateSource``: replay of the current phase, then every phase
///   change, synchronously on the main actor. Phases are not deduplicated.
/// - Requests start through the projection's ``WorkScheduler``, so a test that passes a
///   test scheduler can wait until the request has completed instead of polling.
@MainActor
public final class AsyncProjection<Value: Sendable>: StateProjection {
  /// The phase type this projection publishes.
  public typealias Phase = AsyncPhase<Value>

  private let phase = StateSource<Phase>(.idle)
  private var task: Task<Void, Never>?
  private var nextRequest = 0
  private var phaseBeforeRequest: Phase = .idle

  /// The request whose completion may publish, or `nil` when none is running.
  public private(set) var currentRequest: AsyncRequestID?

  /// The number of completions dropped because their request was superseded or cancelled.
  public private(set) var droppedCompletionCount = 0

  private let scheduler: any WorkScheduler

  /// Creates an idle projection.
  ///
  /// - Parameter scheduler: Where requests start; plain main-actor tasks by default.
  public init(scheduler: any WorkScheduler = .mainActor) {
    self.scheduler = scheduler
  }

  /// The current phase.
  public var value: Phase { phase.value }

  /// The number of live observers of the phase.
  public var observerCount: Int { phase.observerCount }

  /// Replays the current phase, then delivers each phase change.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observe(_ observer: @escaping (Phase) -> Void) -> Lifetime {
    phase.observe(observer)
  }

  /// Starts a request, superseding any running one.
  ///
  /// The phase becomes `.loading(previous:)` at once. When `operation` finishes, its
  /// result is published only if this is still the current request.
  ///
  /// - Parameter operation: The work; it runs off the main actor.
  /// - Returns: The new request's identity.
  @discardableResult
  public func load(
    _ operation: @escaping @Sendable () async throws -> Value
  ) -> AsyncRequestID {
    task?.cancel()
    nextRequest += 1
    let request = AsyncRequestID(rawValue: nextRequest)
    if currentRequest == nil { phaseBeforeRequest = phase.value }
    currentRequest = request
    phase.set(.loading(previous: phase.value.latestValue))
    task = scheduler.startTask { [weak self] in
      let result: Result<Value, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self?.complete(request, with: result)
    }
    return request
  }

  /// Cancels the current request: its completion will not publish, and the phase
  /// returns to what it was before the request started.
  public func cancel() {
    guard currentRequest != nil else { return }
    currentRequest = nil
    task?.cancel()
    task = nil
    phase.set(phaseBeforeRequest)
  }

  private func complete(_ request: AsyncRequestID, with result: Result<Value, any Error>) {
    guard request == currentRequest else {
      droppedCompletionCount += 1
      return
    }
    currentRequest = nil
    task = nil
    switch result {
    case .success(let value):
      phase.set(.loaded(value))
    case .failure(let error):
      phase.set(.failed(error, previous: phase.value.latestValue))
    }
  }

  deinit {
    task?.cancel()
  }
}

extension AsyncProjection: DerivationInput {
  @usableFromInline
  var derivationSource: StateSource<Phase> { phase }

  @usableFromInline
  var derivationNode: GraphNode { phase.graphNode() }
}
