// A posted change set is never mutated again; it holds key paths (not declared Sendable)
// and `EntityChanges` values stored as `Any`.
extension ChangeSet: @unchecked Sendable {}
