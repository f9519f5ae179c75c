/// Where an asynchronous load stands, with the last good value kept across refreshes.
public enum AsyncPhase<Value> {
  /// Nothing has been requested.
  case idle
  /// A request is running; `previous` is the last loaded value, if any, for views that
  /// keep showing it during a refresh.
  case loading(previous: Value?)
  /// The latest request succeeded.
  case loaded(Value)
  /// The latest request failed; `previous` is the last loaded value, if any.
  case failed(any Error, previous: Value?)

  /// The value a view can show: the loaded value, or the previous one while loading or
  /// after a failure.
  public var latestValue: Value? {
    switch self {
    case .idle: nil
    case .loading(let previous): previous
    case .loaded(let value): value
    case .failed(_, let previous): previous
    }
  }

  /// Whether a request is running.
  public var isLoading: Bool {
    if case .loading = self { true } else { false }
  }

  /// The error of a failed request, if this is a failure.
  public var error: (any Error)? {
    if case .failed(let error, _) = self { error } else { nil }
  }
}

extension AsyncPhase: Sendable where Value: Sendable {}
