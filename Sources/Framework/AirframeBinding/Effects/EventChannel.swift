/// A stream of transient events, such as a toast or an animation trigger, that nobody
/// needs to see again.
///
/// An event reaches the observers present when it is sent. If nobody is listening, the
/// event is dropped (and counted in ``droppedCount``): use ``DurableOutcomes`` for
/// effects that must not be lost, and ``StateSource`` for anything that should replay.
///
/// ```swift
/// let toasts = EventChannel<String>()
/// toasts.send("Saved")                     // nobody listening: dropped
/// let lifetime = toasts.observe { print($0) }
/// toasts.send("Saved")                     // prints "Saved"
/// ```
///
/// ## Guarantees
/// - No replay: observing delivers nothing until the next event is sent.
/// - Delivery: each event goes synchronously to the observers registered when it is
///   sent, in registration order. Equal events are all delivered.
/// - Nobody listening: the event is dropped and counted in `droppedCount`. It is never
///   kept for a later observer; an effect that must survive a detached view belongs in
///   `DurableOutcomes`.
/// - Sends during delivery are queued and delivered after the current pass, in order;
///   an observer added during a pass does not get the event being delivered.
/// - Cancelling during delivery: the cancelled observer is not called again.
@MainActor
public final class EventChannel<Event> {
  private let observers = ObserverList<Event>()
  private let queued = Backlog<Event>()

  /// The number of events sent while no observer was registered.
  public private(set) var droppedCount = 0

  /// Creates a channel with no observers.
  public init() {}

  /// The name of this source in the binding graph (see `BindingLedger.graphDescription`).
  public var label: String? {
    get { observers.label }
    set { observers.label = newValue }
  }

  /// The number of live observers.
  public var observerCount: Int { observers.count }

  /// Calls `observer` with each event sent from now on; nothing is replayed.
  ///
  /// - Parameter observer: Called synchronously on the main actor.
  /// - Returns: The lifetime of the observation.
  public func observe(_ observer: @escaping (Event) -> Void) -> Lifetime {
    observers.add(observer)
  }

  /// Delivers `event` to every current observer, or drops it if there is none.
  ///
  /// - Parameter event: The event.
  public func send(_ event: Event) {
    if observers.isDelivering {
      queued.append(event)
      return
    }
    deliver(event)
    queued.drain(deliver)
  }

  private func deliver(_ event: Event) {
    guard observers.count > 0 else {
      droppedCount += 1
      return
    }
    observers.deliver(event)
  }
}
