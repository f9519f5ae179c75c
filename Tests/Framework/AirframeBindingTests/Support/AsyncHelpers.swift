// Test helpers for asynchronous work.

struct TestFailure: Error, Equatable {
  let message: String
}
