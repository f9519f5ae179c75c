import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

@testable import NotesPresentation

/// Random sequences of gestures on a session, each followed by a check of every projection
/// against a full recomputation (`expectProjectionsAgree`); a refused gesture changes
/// nothing.
@Suite(.noLiveBindings)
@MainActor
struct SessionRandomGestureTests {
  static let titles = [
    "Groceries", "groceries", "Trip", "", "   ", "Straße", "Notes 2", "x", "Ideas", "Work",
    String(repeating: "long ", count: 60), "Café", "e\u{301}clair",
  ]
  static let searches = ["", "gro", "e", "ß", "zz", "Work", "note", "a b", "\"body\""]

  @Test(arguments: [1, 2, 3, 4])
  func randomGesturesKeepEveryProjectionRight(seed: UInt64) {
    var random = SeededRandomNumberGenerator(seed: seed)
    let session = makeSession()
    var counts: [String: Int] = [:]
    for step in 0..<400 {
      let revision = session.model.revision
      let (name, outcome) = gesture(on: session, using: &random)
      counts[name, default: 0] += 1
      if let outcome, !outcome.isCommitted {
        #expect(
          session.model.revision == revision, "step \(step): refused \(name) changed the library")
      }
      session.expectProjectionsAgree(after: "step \(step): \(name)")
    }
    // Every kind of gesture ran.
    #expect(counts.count == 19, "gestures run: \(counts.keys.sorted())")
    session.close()
  }

  /// One random gesture; returns its name and its outcome, if it has one.
  private func gesture(
    on session: NotesSession, using random: inout SeededRandomNumberGenerator
  ) -> (String, ActionOutcome?) {
    func title() -> String { Self.titles.randomElement(using: &random)! }
    switch Int.random(in: 0..<19, using: &random) {
    case 0:
      let ids: [NotebookID?] = [nil] + session.notebooks.value.map(\.id)
      session.notebookSelected(ids.randomElement(using: &random)!)
      return ("select notebook", nil)
    case 1:
      if session.list.count > 0 {
        session.noteSelected(
          session.list.row(at: Int.random(in: 0..<session.list.count, using: &random)).id)
      }
      return ("select note", nil)
    case 2:
      session.searchTyped(Self.searches.randomElement(using: &random)!)
      return ("search", nil)
    case 3:
      session.sortToggled()
      return ("sort", nil)
    case 4: return ("new note", session.noteCreated(titled: title()))
    case 5: return ("new notebook", session.notebookCreated(titled: title()))
    case 6:
      session.noteRenameBegan()
      return ("rename note", session.noteRenamed(to: title()))
    case 7: return ("rename notebook", session.notebookRenamed(to: title()))
    case 8:
      let targets = session.selectedNote.value.map { session.moveTargets(for: $0) } ?? []
      guard let target = targets.randomElement(using: &random) else { return ("move", nil) }
      return ("move", session.noteMoved(to: target.id))
    case 9: return ("pin", session.pinToggled())
    case 10: return ("delete note", session.noteDeleted())
    case 11: return ("delete notebook", session.notebookDeletionRequested())
    case 12:
      guard let pending = session.confirmations.pending.first else { return ("answer", nil) }
      return (
        "answer", session.deletionAnswered(pending.id, confirmed: Bool.random(using: &random))
      )
    case 13:
      let body = session.editorState.value.body
      let typed = ["a", "\n", "é", " words", "👩‍👩‍👧"].randomElement(using: &random)!
      let edited =
        Bool.random(using: &random) || body.isEmpty ? body + typed : String(body.dropLast())
      return ("type", session.bodyTyped(edited))
    case 14:
      session.typingEnded()
      return ("end typing", nil)
    case 15: return ("undo", session.undoRequested())
    case 16:
      session.recentlyDeletedSelected()
      return ("select Recently Deleted", nil)
    case 17:
      guard session.recentlyDeletedCount > 0 else { return ("restore", nil) }
      let index = Int.random(in: 0..<session.recentlyDeletedCount, using: &random)
      return ("restore", session.deletedNoteRestored(session.recentlyDeletedEntry(at: index).id))
    default: return ("redo", session.redoRequested())
    }
  }
}
