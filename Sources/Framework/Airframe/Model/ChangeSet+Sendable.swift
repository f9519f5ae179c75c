// A posted change set is never mutated again; it holds key paths (not declared Sendable)
// and the boxes its transaction grew in place, which nothing writes after the commit.
extension ChangeSet: @unchecked Sendable {}
