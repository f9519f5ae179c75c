/// Where an asynchronous load stands, with the last good value kept across refreshes.
///
/// A view usually shows ``latestValue`` (the loaded value, or the one kept during a
/// refresh or after a failure) and a spinner while ``isLoading``.
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

  /// The value of a successful load, or `nil` in every other phase.
  ///
  /// Use ``latestValue`` to keep showing the previous value during a refresh.
  public var value: Value? {
    if case .loaded(let value) = self { value } else { nil }
  }

  /// Whether nothing has been requested.
  public var isIdle: Bool {
    if case .idle = self { true } else { false }
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

extension AsyncPhase: Equatable where Value: Equatable {
  /// Whether two phases are the same case with equal values.
  ///
  /// Errors are not `Equatable`; two failures are equal when their errors have the same
  /// type and the same description, and their previous values are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.idle, .idle): true
    case (.loading(let a), .loading(let b)): a == b
    case (.loaded(let a), .loaded(let b)): a == b
    case (.failed(let errorA, let a), .failed(let errorB, let b)):
      a == b && type(of: errorA) == type(of: errorB)
        && String(reflecting: errorA) == String(reflecting: errorB)
    default: false
    }
  }
}
