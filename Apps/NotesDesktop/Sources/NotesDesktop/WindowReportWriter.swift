import AirframeBinding
import Foundation
import NotesDesktopWindow

/// Writes what the windows forwarded to the session and dropped to a file when the library
/// closes: the report the desktop tests ask for with `NOTES_DESKTOP_REPORT`.
///
/// The tests read it to check that a render's echo never reaches the session, that every
/// user input reaches it once, and that recycled rows drop superseded previews.
@MainActor
final class WindowReportWriter: DesktopObserver {
  /// The report, as JSON.
  struct Report: Encodable {
    /// How many inputs of each kind reached the session.
    struct Forwarded: Encodable {
      var notebookChoices = 0
      var noteChoices = 0
      var bodyEdits = 0
      var cursorMoves = 0
      var titleCommits = 0
      var searchEdits = 0
    }
    /// Inputs that reached the session, by kind.
    var forwarded = Forwarded()
    /// Renders that made GTK emit a user's signal, dropped by the slots.
    var droppedEchoes = 0
    /// Previews computed for a note a recycled row no longer showed, and dropped.
    var droppedPreviews = 0
    /// The bindings still alive once the library closed.
    var liveBindings = 0
    /// How many windows were opened.
    var windowsOpened = 0
  }

  /// Where the report goes.
  private let path: String
  /// What windows forwarded and dropped so far, closed windows' counts included.
  private var report = Report()
  /// The previews dropped by rows the open windows' lists released, by window.
  private var releasedRowPreviews: [ObjectIdentifier: Int] = [:]

  /// A writer of the report to `path`.
  ///
  /// - Parameter path: The file the report is written to.
  init(path: String) {
    self.path = path
  }

  func windowShown(_ window: DesktopWindow) {
    report.windowsOpened += 1
    releasedRowPreviews[ObjectIdentifier(window)] = 0
  }

  func inputForwarded(_ input: DesktopInput, by window: DesktopWindow) {
    switch input {
    case .notebookChoice: report.forwarded.notebookChoices += 1
    case .noteChoice: report.forwarded.noteChoices += 1
    case .bodyEdit: report.forwarded.bodyEdits += 1
    case .cursorMove: report.forwarded.cursorMoves += 1
    case .titleCommit: report.forwarded.titleCommits += 1
    case .searchEdit: report.forwarded.searchEdits += 1
    }
  }

  func noteRowReleased(droppedPreviews: Int, by window: DesktopWindow) {
    // Rows GTK releases as it destroys a closed window were counted when it closed.
    releasedRowPreviews[ObjectIdentifier(window)]? += droppedPreviews
  }

  func windowClosed(_ window: DesktopWindow) {
    report = adding(window, to: report)
    releasedRowPreviews[ObjectIdentifier(window)] = nil
  }

  func libraryClosed(_ application: DesktopApplication) {
    var report = application.windows.reduce(report) { adding($1, to: $0) }
    report.liveBindings = BindingLedger.shared.liveCount
    if let data = try? JSONEncoder().encode(report) {
      _ = FileManager.default.createFile(atPath: path, contents: data)
    }
  }

  /// `report` with what `window` dropped added.
  private func adding(_ window: DesktopWindow, to report: Report) -> Report {
    var report = report
    report.droppedEchoes += window.droppedEchoes
    report.droppedPreviews +=
      window.droppedPreviewsOfHeldRows + (releasedRowPreviews[ObjectIdentifier(window)] ?? 0)
    return report
  }
}
