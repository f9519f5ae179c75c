// ListLens and Swift Observation: the registrar calls behind the Observation guarantees in
// ListLens's documentation.

public import Observation

extension ListLens: Observable {}

extension ListLens {
  func trackAccess() {
    mayBeTracked = true
    registrar.access(self, keyPath: revisionKeyPath)
  }

  @usableFromInline
  func notifyObservation() {
    guard mayBeTracked else { return }
    registrar.willSet(self, keyPath: revisionKeyPath)
    registrar.didSet(self, keyPath: revisionKeyPath)
  }
}
