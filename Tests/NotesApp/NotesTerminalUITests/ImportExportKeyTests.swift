import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// E exports and I imports, each through a path prompt, with the session's policies.
@Suite(.noLiveBindings, .timeLimit(.minutes(5)))
@MainActor
struct ImportExportKeyTests {
  func statusLine(_ app: TerminalApplication) -> String {
    app.screen()[23].trimmingCharacters(in: .whitespaces)
  }

  /// The status bar's message, as the session has it.
  func message(_ app: TerminalApplication) -> String {
    app.session.status.value.message ?? ""
  }

  /// Waits, yielding to the runs, until the status bar's message starts with `prefix`; the
  /// screen's status line shows it then.
  func waitForMessage(_ app: TerminalApplication, startingWith prefix: String) async throws {
    for _ in 0..<3_000 where !message(app).hasPrefix(prefix) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(message(app).hasPrefix(prefix), "message: \(message(app))")
    #expect(statusLine(app).contains(prefix), "status line: \(statusLine(app))")
  }

  @Test func exportWithEThenImportWithIThroughTheirPrompts() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let app = makeApp()
    let exported = folder.file("export")

    app.press(.character("E"))
    app.type(exported)
    #expect(app.screen()[22].hasPrefix(" Export as Markdown to the new folder: "))
    app.press(.enter)
    #expect(app.interaction == .browsing)
    // A second E while the first export runs is refused with the reason.
    #expect(message(app) == "Exporting to \"\(exported)\"…")
    app.press(.character("E"))
    #expect(app.interaction == .browsing)
    #expect(message(app) == "Already running.")
    // The export commits nothing, yet its report asks for a redraw: no key is needed to
    // see it.
    var redraws = 0
    app.onNeedsDisplay = { redraws += 1 }
    try await waitForMessage(app, startingWith: "Exported 6 notes in 3 notebooks")
    #expect(redraws > 0)
    #expect(FileManager.default.fileExists(atPath: exported + "/Work/.notebook.md"))

    app.press(.character("I"))
    app.type(exported)
    app.press(.enter)
    try await waitForMessage(app, startingWith: "Imported 6 notes from")
    #expect(app.session.model.state.notes.count == 12)
    // Each notebook merged into the one of the same title.
    #expect(app.session.model.state.notebooks.count == 3)
    app.expectPanesAgree()
    app.shutdown()
  }
}
