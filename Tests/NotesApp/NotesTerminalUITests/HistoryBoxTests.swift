import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesStorage
import NotesTerminalUI
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// The history box (H) over a real library file: what it lists, the differences it shows,
/// and a restore from it.
@Suite(.noLiveBindings, .timeLimit(.minutes(2)))
@MainActor
struct HistoryBoxTests {
  @Test func theBoxListsVersionsShowsWhatChangedAndRestoresTheHighlightedOne() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let database = try NotesDatabase(path: folder.file("notes.sqlite"))
    defer { database.close() }
    let model = Model(try database.loadState(), storage: database)
    try SampleLibrary.add(to: model, now: fixedDate)
    let sync = SyncDriver(model: model, service: SimulatedSyncService(steps: 2, stepDelay: .zero))
    let library = LibrarySession(model: model, sync: sync, now: { fixedDate }, history: database)
    defer { library.close() }
    let app = TerminalApplication(
      session: NotesSession(library: library, shortcut: TerminalApplication.shortcut))
    defer { app.shutdown() }

    // A note never changed has no version yet: H says so.
    app.press(.character("H"))
    #expect(app.interaction == .browsing)
    #expect(app.screen().last?.contains("No earlier version of this note is kept yet.") == true)

    let original = app.session.editorState.value.body
    #expect(app.session.bodyTyped(original + "\nA line added").isCommitted)
    app.press(.character("H"))
    guard case .history(let box) = app.interaction else {
      Issue.record("H did not open the history: \(app.interaction)")
      return
    }
    #expect(box.versions.map(\.origin) == [.thisDevice, .beforeHistory])
    var shown = app.screen(height: 30)
    #expect(shown.contains { $0.contains("History (Enter restores, Esc closes)") })
    #expect(shown.contains { $0.contains("— before history was kept —") })
    #expect(shown.contains { $0.contains("Its text is the note's text now.") })
    // The older version: what changed since is marked.
    app.press(.down)
    shown = app.screen(height: 30)
    #expect(shown.contains { $0.contains("From this version to the text now:") })
    #expect(shown.contains { $0.contains("+ A line added") })

    app.press(.enter)
    #expect(app.interaction == .browsing)
    #expect(app.session.editorState.value.body == original)
    #expect(app.screen().last?.contains("Restored the version of") == true)
    #expect(try database.history(of: box.note).first?.origin == .restoredVersion)
    app.expectPanesAgree()
  }
}
