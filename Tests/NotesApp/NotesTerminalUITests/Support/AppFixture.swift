import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesTerminalUI
import NotesTestSupport
import Testing

@testable import NotesPresentation

/// A fixed clock for the app's modification dates.
let fixedDate = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// The app over the sample library, with an instant sync service and a fixed clock.
@MainActor
func makeApp(state: NotesState = SampleLibrary.state(now: fixedDate)) -> TerminalApplication {
  TerminalApplication(
    model: Model(state), syncService: SimulatedSyncService(steps: 2, stepDelay: .zero),
    now: { fixedDate })
}

extension TerminalApplication {
  /// Types each key in order; after each, every View State Controller shows the model's
  /// revision (`ConsistencyCheck`).
  func press(_ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) {
    for key in keys {
      handle(key)
      expectConsistent(after: "\(key)", sourceLocation: sourceLocation)
    }
  }

  /// Types a string character by character, checking consistency after each.
  func type(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for character in text {
      handle(.character(character))
      expectConsistent(after: "typing \(character)", sourceLocation: sourceLocation)
    }
  }

  /// Records an issue for every View State Controller that does not show the session.model's
  /// revision now.
  func expectConsistent(after step: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let check = ConsistencyCheck(model: session.model)
    defer { check.cancel() }
    check.register("sidebar", session.sidebar)
    check.register("note list", session.noteList)
    check.register("editor", session.editor)
    check.register("window title", session.windowTitle)
    check.register("status bar", session.statusBar)
    let mismatches = check.verify()
    #expect(
      mismatches.isEmpty, "after \(step): \(mismatches.map(\.description))",
      sourceLocation: sourceLocation)
  }

  /// The screen's lines at the standard test size.
  func screen(width: Int = 100, height: Int = 24) -> [String] {
    render(width: width, height: height).lines
  }
}
