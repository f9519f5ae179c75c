import AirframeBinding

/// What happens in a desktop application, told to whoever measures or tests it.
///
/// The window's own types keep no counts and no timings: a benchmark, or the program when
/// a test asks for a report, installs an observer as ``DesktopApplication/observer`` and
/// keeps what it needs. Every method has a default that does nothing.
@MainActor
package protocol DesktopObserver: AnyObject {
  /// A window was opened and shown: it is realized, and its frame clock exists.
  ///
  /// - Parameter window: The window.
  func windowShown(_ window: DesktopWindow)

  /// A user's input reached the session; a render's echo never does.
  ///
  /// - Parameters:
  ///   - input: What kind of input.
  ///   - window: The window it came from.
  func inputForwarded(_ input: DesktopInput, by window: DesktopWindow)

  /// GTK released a row of a window's note list.
  ///
  /// - Parameters:
  ///   - droppedPreviews: The previews the row computed for a note it no longer showed,
  ///     and dropped.
  ///   - window: The window whose list held the row.
  func noteRowReleased(droppedPreviews: Int, by window: DesktopWindow)

  /// A window closed: its bindings have ended, and its rows and slots count no more.
  ///
  /// - Parameter window: The window.
  func windowClosed(_ window: DesktopWindow)

  /// The library closed, after the last window: the program is about to end.
  ///
  /// - Parameter application: The application, with any window still open.
  func libraryClosed(_ application: DesktopApplication)
}

extension DesktopObserver {
  /// Does nothing.
  package func windowShown(_ window: DesktopWindow) {}
  /// Does nothing.
  package func inputForwarded(_ input: DesktopInput, by window: DesktopWindow) {}
  /// Does nothing.
  package func noteRowReleased(droppedPreviews: Int, by window: DesktopWindow) {}
  /// Does nothing.
  package func windowClosed(_ window: DesktopWindow) {}
  /// Does nothing.
  package func libraryClosed(_ application: DesktopApplication) {}
}

/// A kind of user input a window forwards to its session.
package enum DesktopInput: CaseIterable, Sendable {
  /// A notebook chosen in the sidebar.
  case notebookChoice
  /// A note chosen in the list.
  case noteChoice
  /// The note's text edited.
  case bodyEdit
  /// The cursor moved in the note's text.
  case cursorMove
  /// A title entered.
  case titleCommit
  /// The search text edited.
  case searchEdit
}

extension DesktopWindow {
  /// The application's observer, if one is installed.
  var observer: (any DesktopObserver)? { application?.observer }

  /// The echoes the window's input slots dropped: renders that made GTK emit a user's
  /// signal.
  package var droppedEchoes: Int {
    sidebarChoices.echoCount + noteChoices.echoCount + bodyEdits.echoCount
      + cursorMoves.echoCount + titleCommits.echoCount + titleFocuses.echoCount
      + paneFocuses.echoCount
      + searchEdits.echoCount
      + commands.runs.echoCount + deletedPane.restores.echoCount
      + deletedPane.deletions.echoCount + deletedPane.emptyings.echoCount
  }

  /// The previews that the note list's rows GTK still holds computed for a note they no
  /// longer showed, and dropped (a released row's are told to the observer).
  package var droppedPreviewsOfHeldRows: Int {
    noteRows.values.reduce(0) { $0 + $1.droppedPreviews }
  }
}
