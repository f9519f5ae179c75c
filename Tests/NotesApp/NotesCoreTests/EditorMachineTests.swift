import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

/// The editor's rules as a value: events in, effects and state out, with no model.
struct EditorMachineTests {
  let note = Note(
    id: NoteID(rawValue: 7), notebookID: NotebookID(rawValue: 1), title: "Plan",
    body: "Ship it", created: Date(timeIntervalSince1970: 0))

  func opened() -> EditorMachine {
    var machine = EditorMachine()
    #expect(machine.handle(.opened(note)) == nil)
    return machine
  }

  @Test func openingShowsTheNoteWithTheCursorAtTheEnd() {
    let machine = opened()
    #expect(machine.phase == .editing)
    #expect(machine.state.body == "Ship it")
    #expect(machine.cursor == 7)
    #expect(!machine.isDirty)
    var closed = machine
    _ = closed.handle(.opened(nil))
    #expect(closed.state == .closed)
    #expect(closed.phase == .closed)
  }

  @Test func aTypedKeyAsksForOneSaveOfWhatChangedBasedOnWhatWasSeen() {
    var machine = opened()
    _ = machine.handle(.bodyEdited("Ship it now", cursor: 11))
    #expect(machine.isDirty)
    guard case .save(let save)? = machine.handle(.saveRequested(asTyping: true)) else {
      Issue.record("no save")
      return
    }
    #expect(save.body == "Ship it now")
    #expect(save.expectedBody == "Ship it")
    #expect(save.typingRun == machine.typingRun)
    // Nothing to save: no effect.
    var clean = opened()
    #expect(clean.handle(.saveRequested(asTyping: false)) == nil)
  }

  @Test func aSavedDraftFollowsTheStoredNoteAndKeepsItsCursor() {
    var machine = opened()
    _ = machine.handle(.bodyEdited("Ship it now", cursor: 4))
    var stored = note
    stored.body = "Ship it now"
    _ = machine.handle(
      .saveFinished(.committed(revision: 2, created: CreatedEntities()), stored: stored))
    #expect(!machine.isDirty)
    #expect(machine.base == stored)
    #expect(machine.cursor == 4)
  }

  @Test func aChangeElsewhereRefreshesACleanDraftAndBecomesAConflictForADirtyOne() {
    var theirs = note
    theirs.body = "Ship"
    var clean = opened()
    _ = clean.handle(.changedElsewhere(stored: theirs))
    #expect(clean.phase == .editing)
    #expect(clean.body == "Ship")
    #expect(clean.cursor == 4)  // clamped to the shorter text
    var dirty = opened()
    _ = dirty.handle(.bodyEdited("Mine", cursor: 4))
    let run = dirty.typingRun
    _ = dirty.handle(.changedElsewhere(stored: theirs))
    #expect(dirty.phase == .conflict(theirs: theirs))
    #expect(dirty.body == "Mine")
    #expect(dirty.handle(.saveRequested(asTyping: true)) == nil)
    #expect(dirty.saveRefusal != nil)
    var kept = dirty
    _ = kept.handle(.keptMine)
    #expect(kept.phase == .editing)
    #expect(kept.base == theirs)
    #expect(kept.body == "Mine")
    #expect(kept.typingRun > run)
    var taken = dirty
    _ = taken.handle(.tookTheirs)
    #expect(taken.phase == .editing)
    #expect(taken.body == "Ship")
    #expect(!taken.isDirty)
  }

  @Test func aCleanDraftFollowingAChangeElsewhereKeepsTheCursorOnItsText() {
    var machine = EditorMachine()
    var original = note
    original.body = "alpha\nbeta\ngamma"
    _ = machine.handle(.opened(original))
    // The cursor before "gamma"; another writer adds a line above and edits "alpha".
    _ = machine.handle(.cursorMoved("alpha\nbeta\n".utf8.count))
    var theirs = original
    theirs.body = "ALPHA!\nnew line\nbeta\ngamma"
    _ = machine.handle(.changedElsewhere(stored: theirs))
    #expect(machine.body == theirs.body)
    #expect(!machine.isDirty)
    let rest = String(decoding: Array(machine.body.utf8)[machine.cursor...], as: UTF8.self)
    #expect(rest == "gamma")
  }

  @Test func aChangeElsewhereToOtherLinesMergesIntoTheDraftAndTheCursorStaysOnItsText() {
    var machine = EditorMachine()
    var open = note
    open.body = "one\ntwo\nthree"
    _ = machine.handle(.opened(open))
    // Typing at the end of "three": the cursor sits after "three!".
    _ = machine.handle(.bodyEdited("one\ntwo\nthree!", cursor: 14))
    let run = machine.typingRun
    var theirs = open
    theirs.body = "ONE, edited elsewhere\ntwo\nthree"
    theirs.title = "Renamed elsewhere"
    _ = machine.handle(.changedElsewhere(stored: theirs))
    #expect(machine.phase == .editing)
    #expect(machine.body == "ONE, edited elsewhere\ntwo\nthree!")
    #expect(machine.title == "Renamed elsewhere")
    #expect(machine.base == theirs)
    #expect(machine.isDirty)
    // Still right after "three!", though the text before it grew.
    #expect(machine.cursor == machine.body.utf8.count)
    #expect(machine.typingRun > run)
    // The save that follows is based on the note as stored now.
    guard case .save(let save) = machine.handle(.saveRequested(asTyping: true)) else {
      Issue.record("no save")
      return
    }
    #expect(save.expectedBody == theirs.body)
    #expect(save.body == "ONE, edited elsewhere\ntwo\nthree!")
  }

  @Test func aChangeElsewhereInTheSameParagraphMergesWordByWordAndTheCursorStaysOnItsText() {
    var machine = EditorMachine()
    var open = note
    open.body = "We meet on Monday. Bring the slides. Lunch is at noon."
    _ = machine.handle(.opened(open))
    // Typing "all " before "the slides": the cursor sits after it, before "the".
    let typed = "We meet on Monday. Bring all the slides. Lunch is at noon."
    let afterAll = Array(typed.utf8).count - " the slides. Lunch is at noon.".utf8.count + 1
    _ = machine.handle(.bodyEdited(typed, cursor: afterAll))
    var theirs = open
    theirs.body = "We all meet on Tuesday 🙂. Bring the slides. Lunch is at one."
    _ = machine.handle(.changedElsewhere(stored: theirs))
    #expect(machine.phase == .editing)
    #expect(machine.body == "We all meet on Tuesday 🙂. Bring all the slides. Lunch is at one.")
    #expect(machine.base == theirs)
    #expect(machine.isDirty)
    // Still before "the slides", though the text before it grew by other words.
    let rest = String(decoding: Array(machine.body.utf8)[machine.cursor...], as: UTF8.self)
    #expect(rest == "the slides. Lunch is at one.")
    // Both changing one word is still the user's choice.
    var other = theirs
    other.body = "We all meet on Wednesday 🙂. Bring all the slides. Lunch is at one."
    _ = machine.handle(.bodyEdited(machine.body.replacing("Tuesday", with: "Friday"), cursor: 0))
    _ = machine.handle(.changedElsewhere(stored: other))
    #expect(machine.phase == .conflict(theirs: other))
  }

  @Test func aTitleChangedElsewhereIsShownEvenInAConflict() {
    var machine = opened()
    _ = machine.handle(.bodyEdited("Mine", cursor: 4))
    var renamed = note
    renamed.title = "Renamed"
    _ = machine.handle(.changedElsewhere(stored: renamed))
    #expect(machine.phase == .editing)
    #expect(machine.title == "Renamed")
    #expect(machine.body == "Mine")
    #expect(machine.isDirty)
    // Their body too, in the same words: a conflict, still under the stored title.
    var theirs = renamed
    theirs.title = "Theirs"
    theirs.body = "Theirs"
    _ = machine.handle(.changedElsewhere(stored: theirs))
    #expect(machine.phase == .conflict(theirs: theirs))
    #expect(machine.title == "Theirs")
    #expect(machine.body == "Mine")
  }

  @Test func aDeletedNoteRefusesSavesUntilItComesBackWithItsConflict() {
    var theirs = note
    theirs.body = "Theirs"
    var machine = opened()
    _ = machine.handle(.bodyEdited("Mine", cursor: 4))
    _ = machine.handle(.changedElsewhere(stored: theirs))
    _ = machine.handle(.changedElsewhere(stored: nil))
    #expect(machine.phase == .deleted(conflict: theirs))
    #expect(machine.saveRefusal == .rejected("The note was deleted."))
    #expect(machine.state.isDeleted)
    #expect(machine.state.conflict == theirs)
    // Taking the other version of a deleted note leaves it deleted.
    var taken = machine
    _ = taken.handle(.tookTheirs)
    #expect(taken.phase == .deleted(conflict: nil))
    // The deletion is undone: the conflict is back.
    _ = machine.handle(.changedElsewhere(stored: theirs))
    #expect(machine.phase == .conflict(theirs: theirs))
  }

  @Test func theCursorStaysOnACharacterBoundary() {
    var machine = opened()
    let text = "a👩‍👩‍👧b"  // a, a family emoji of 18 bytes, b
    _ = machine.handle(.bodyEdited(text, cursor: 5))  // inside the emoji
    #expect(machine.cursor == 1)
    _ = machine.handle(.cursorMoved(1_000))
    #expect(machine.cursor == text.utf8.count)
    _ = machine.handle(.cursorMoved(-3))
    #expect(machine.cursor == 0)
  }
}
