import Airframe
import Foundation
import NotesApp
import NotesCore

/// A fixed clock for the app's modification dates.
let fixedDate = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// The app over the sample library, with an instant sync service and a fixed clock.
@MainActor
func makeApp(state: NotesState = SampleLibrary.state(now: fixedDate)) -> NotesApplication {
  NotesApplication(
    model: Model(state), syncService: SimulatedSyncService(steps: 2, stepDelay: .zero),
    now: { fixedDate })
}

extension NotesApplication {
  /// Types each key in order.
  func press(_ keys: Key...) {
    for key in keys { handle(key) }
  }

  /// Types a string character by character.
  func type(_ text: String) {
    for character in text { handle(.character(character)) }
  }

  /// The screen's lines at the standard test size.
  func screen(width: Int = 100, height: Int = 24) -> [String] {
    render(width: width, height: height).lines
  }
}
