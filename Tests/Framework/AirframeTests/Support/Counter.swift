/// Counts calls of an Observation `onChange` closure.
///
/// `onChange` must be `@Sendable`; the tests call it only on the main actor (it runs
/// synchronously inside the write that changed a tracked value), so a plain counter is
/// safe there.
final class Counter: @unchecked Sendable {
  private(set) var value = 0
  func increment() { value += 1 }
}
