import Airframe
import AirframeTesting
import Testing

/// Every commit says who wrote it; undo records and reverts only the user's own steps, and
/// never overwrites what another writer changed since.
@Suite(.noLiveBindings)
@MainActor
struct CommitOriginTests {
  func makeDispatcher() -> ActionDispatcher<Library> {
    ActionDispatcher(
      model: Model(Library(notes: EntityTable([Note(id: 1, title: "a"), Note(id: 2, title: "b")]))))
  }

  @Test func everyCommitCarriesItsOrigin() throws {
    let dispatcher = makeDispatcher()
    let origins = ValueRecorder<CommitOrigin> { record in
      dispatcher.model.observeCommits { record($0.origin) }
    }
    dispatcher.dispatch(RenameNote(id: 1, title: "x"))
    dispatcher.undo()
    dispatcher.redo()
    try dispatcher.model.write(origin: .external("sync server")) {
      try $0.update(2, in: \.notes) { $0.title = "from the server" }
    }
    try dispatcher.model.write(origin: .background("sync status")) {
      $0.set(\.syncStatus, to: "syncing")
    }
    dispatcher.dispatch(RenameNote(id: 2, title: "y"), origin: .background("import"))
    #expect(
      origins.values == [
        .user("Rename Note"), .user("Undo Rename Note"), .user("Redo Rename Note"),
        .external("sync server"), .background("sync status"), .background("import"),
      ])
    #expect(dispatcher.log.entries.last?.origin == .background("import"))
    origins.cancel()
  }

  @Test func onlyTheUsersOwnActionsBecomeUndoSteps() {
    let dispatcher = makeDispatcher()
    dispatcher.dispatch(RenameNote(id: 1, title: "mine"))
    dispatcher.dispatch(RenameNote(id: 2, title: "theirs"), origin: .external("other process"))
    #expect(dispatcher.undoAvailability.value.undoName == "Rename Note")
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.model.state.notes[1]?.title == "a")
    #expect(dispatcher.model.state.notes[2]?.title == "theirs")
    #expect(dispatcher.undo() == .rejected("Nothing to undo."))
  }

  @Test func anUndoAfterABackgroundWriteToTheSameFieldFailsAndChangesNothing() throws {
    let dispatcher = makeDispatcher()
    dispatcher.dispatch(RenameNote(id: 2, title: "older step"))
    dispatcher.dispatch(RenameNote(id: 1, title: "mine"))
    try dispatcher.model.write(origin: .background("sync")) {
      try $0.update(1, in: \.notes) { $0.title = "synced" }
    }
    let before = (dispatcher.model.state, dispatcher.model.revision)
    let outcome = dispatcher.undo()
    #expect(
      outcome.description
        == "Undo Rename Note would overwrite a later change: notes 1 has changed since.")
    #expect(dispatcher.model.state == before.0)
    #expect(dispatcher.model.revision == before.1)
    #expect(dispatcher.log.entries.last?.outcome == outcome)
    // The history stays usable: the refused step is dropped, the older one still undoes.
    #expect(dispatcher.undoAvailability.value.undoName == "Rename Note")
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.model.state.notes[2]?.title == "b")
    #expect(dispatcher.model.state.notes[1]?.title == "synced")
  }

  @Test func anUndoAppliesWhenOtherWritersChangedOnlyWhatItDoesNotRestore() throws {
    let dispatcher = makeDispatcher()
    dispatcher.dispatch(RenameNote(id: 1, title: "mine"))
    dispatcher.dispatch(AddNote(note: Note(id: 3, title: "new")))
    try dispatcher.model.write(origin: .external("other process")) {
      try $0.update(2, in: \.notes) { $0.title = "theirs" }
      $0.set(\.syncStatus, to: "synced")
    }
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.model.state.notes.elements.map(\.title).sorted() == ["a", "theirs"])
  }

  @Test func aRedoAfterAnExternalWriteToTheSameRowFailsAndChangesNothing() throws {
    let dispatcher = makeDispatcher()
    dispatcher.dispatch(RenameNote(id: 1, title: "mine"))
    dispatcher.undo()
    try dispatcher.model.write(origin: .external("other process")) {
      try $0.update(1, in: \.notes) { $0.title = "theirs" }
    }
    let revision = dispatcher.model.revision
    #expect(!dispatcher.redo().isCommitted)
    #expect(dispatcher.model.revision == revision)
    #expect(dispatcher.model.state.notes[1]?.title == "theirs")
    #expect(dispatcher.undoAvailability.value == .init(undoName: nil, redoName: nil))
  }

  @Test func aCoalescedRunComparesWithWhatItsLastStepLeft() {
    let dispatcher = makeDispatcher()
    dispatcher.dispatch(RenameNote(id: 1, title: "t"), coalescingKey: "typing")
    dispatcher.dispatch(RenameNote(id: 1, title: "ty"), coalescingKey: "typing")
    dispatcher.dispatch(RenameNote(id: 1, title: "typ"), coalescingKey: "typing")
    #expect(dispatcher.undo().isCommitted)
    #expect(dispatcher.model.state.notes[1]?.title == "a")
  }
}
