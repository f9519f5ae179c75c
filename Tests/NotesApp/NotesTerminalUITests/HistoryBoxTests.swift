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
    let fixture = try SampleFile()
    defer { fixture.close() }
    let (app, database) = (fixture.app, fixture.database)

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

  @Test func aReplacedLineUnderlinesTheWordsThatChanged() throws {
    let fixture = try SampleFile()
    defer { fixture.close() }
    let app = fixture.app
    // Groceries, as the samples have it, is the version kept before history; one word of
    // one of its lines changes.
    let groceries = try #require(app.session.list.rows.first { $0.title == "Groceries" })
    #expect(app.session.noteSelected(groceries.id))
    let body = app.session.editorState.value.body
    #expect(body.contains("Coffee beans"))
    #expect(
      app.session.bodyTyped(
        body.replacingOccurrences(of: "Coffee beans", with: "Coffee grounds")
      ).isCommitted)
    app.press(.character("H"), .down)
    let screen = app.render(width: 100, height: 30)
    // Each word's cells: underlined where it changed, not where it stayed.
    func style(of word: String, after marker: String) -> [CellStyle]? {
      guard let row = screen.lines.firstIndex(where: { $0.contains(marker + word) }) else {
        return nil
      }
      let line = screen.lines[row]
      let start =
        line.distance(
          from: line.startIndex, to: line.range(of: marker + word)!.lowerBound) + marker.count
      return (start..<(start + word.count)).map { screen[row, $0].style }
    }
    let removed = try #require(
      style(of: "beans", after: "- Coffee "), "\(screen.lines.joined(separator: "\n"))")
    let added = try #require(style(of: "grounds", after: "+ Coffee "))
    #expect(removed.allSatisfy { $0.contains(.underline) })
    #expect(added.allSatisfy { $0.contains(.underline) })
    let kept = try #require(style(of: "Coffee", after: "+ "))
    #expect(kept.allSatisfy { !$0.contains(.underline) })
  }

  /// A terminal app over the sample library in a file of its own, whose history it keeps.
  @MainActor
  struct SampleFile {
    let folder: TemporaryFolder
    let database: NotesDatabase
    let library: LibrarySession
    let app: TerminalApplication

    init() throws {
      folder = try TemporaryFolder()
      database = try NotesDatabase(path: folder.file("notes.sqlite"))
      let model = Model(try database.loadState(), storage: database)
      try SampleLibrary.add(to: model, now: fixedDate)
      let sync = SyncDriver(
        model: model, service: SimulatedSyncService(steps: 2, stepDelay: .zero))
      library = LibrarySession(model: model, sync: sync, now: { fixedDate }, history: database)
      app = TerminalApplication(
        session: NotesSession(library: library, shortcut: TerminalApplication.shortcut))
    }

    /// Ends the app, the library and the file, in that order.
    func close() {
      app.shutdown()
      library.close()
      database.close()
      folder.remove()
    }
  }
}
