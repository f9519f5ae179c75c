import Airframe
import AirframeBinding
import CGtk
import Foundation
import NotesCore
import NotesPresentation

/// The tests' preview delay (`NOTES_DESKTOP_PREVIEW_DELAY`, milliseconds), if set.
private let previewDelay: Duration? = ProcessInfo.processInfo
  .environment["NOTES_DESKTOP_PREVIEW_DELAY"].flatMap(Int.init).map { .milliseconds($0) }

/// One row widget of the note list.
///
/// A recycled row: its label, its own `Binder`, and a preview computed off the main actor through
/// an `AsyncProjection`.
///
/// ## Guarantees
///
/// - GTK recycles row widgets for other notes (`bind`/`unbind` of GtkSignalListItemFactory).
///   Showing another note rebinds the row's binder, which ends the old note's connection
///   before the new one starts, and starts a new preview request, which supersedes the old
///   one: a preview computed for the note the row showed before never reaches it.
/// - While a preview loads, the row shows the title alone, never the preview of the note it
///   showed before (`loading(previous:)` may belong to that note); while the same note's
///   new preview loads (it was edited), its last preview stays.
/// - The user's text is isolated from the row's own (`BidiIsolation`): the title from the
///   pin's star, the first line from the counts after it, and each line reads left to right
///   (`leftToRight`), so right-to-left text cannot reorder them.
@MainActor
final class NoteRowView {
  /// The label GTK shows for the row.
  let label: UnsafeMutablePointer<GtkWidget>
  private let binder = Binder(label: "note row")
  private let preview = AsyncProjection<String>()
  /// The note the row shows, if bound.
  private(set) var note: NoteID?
  /// The note the last preview shown was computed for.
  private var previewNote: NoteID?

  /// Makes a row widget.
  init() {
    label = required(gtk_label_new(""), "label")
    gtk_label_set_xalign(cast(raw(label)), 0)
    gtk_label_set_ellipsize(cast(raw(label)), PANGO_ELLIPSIZE_END)
  }

  /// The number of previews computed for a note this row no longer showed, and dropped.
  var droppedPreviews: Int { preview.droppedCompletionCount }

  /// Shows `row`: its title now, its preview when computed.
  ///
  /// - Parameter row: The note's row.
  func show(_ row: NoteRow) {
    let id = row.id
    note = id
    let title = row.title
    let isPinned = row.isPinned
    let body = row.body
    // The request first: the binding's replay is then this request's loading phase, never
    // a finished preview of the note the row showed before.
    _ = preview.load { await Self.summary(of: body) }
    binder.bind { connect in
      connect.render(preview) { [unowned self] phase in
        switch phase {
        case .loaded(let summary):
          self.previewNote = id
          self.setText(Self.text(title: title, isPinned: isPinned, summary: summary))
        case .loading(let previous?) where self.previewNote == id:
          self.setText(Self.text(title: title, isPinned: isPinned, summary: previous))
        default:
          self.setText(Self.text(title: title, isPinned: isPinned, summary: nil))
        }
      }
    }
  }

  /// A row's text: the title (isolated, after a star if pinned), then the preview, each line
  /// reading left to right (`leftToRight`).
  ///
  /// - Parameters:
  ///   - title: The note's title.
  ///   - isPinned: Whether the note is pinned.
  ///   - summary: Its preview (see ``summaryText(of:isCancelled:)``), if computed.
  /// - Returns: The label's text.
  nonisolated static func text(title: String, isPinned: Bool, summary: String?) -> String {
    let first = (isPinned ? "★ " : "") + BidiIsolation.isolate(title)
    return leftToRight(summary.map { first + "\n" + $0 } ?? first)
  }

  /// Sets the label's text unless it shows it already: a new text makes GTK measure the
  /// list again.
  private func setText(_ text: String) {
    if let shown = gtk_label_get_text(cast(raw(label))), strcmp(shown, text) == 0 { return }
    gtk_label_set_text(cast(raw(label)), text)
  }

  /// Lets go of the note: no connection and no preview request is left.
  func clear() {
    note = nil
    previewNote = nil
    binder.cancel()
    preview.cancel()
  }

  /// A note's preview: its first line and its length, computed off the main actor.
  ///
  /// The work stops early when the request is cancelled (superseded by the row's next
  /// note, or by the next version of this note as it is typed into).
  ///
  /// - Parameter body: The note's text.
  /// - Returns: Such as `Milk · 4 lines, 5 words` (the first line isolated), or `Empty`;
  ///   `""` when cancelled.
  nonisolated static func summary(of body: String) async -> String {
    let work = Task.detached(priority: .userInitiated) { () -> String in
      // A delay the tests set (NOTES_DESKTOP_PREVIEW_DELAY, in milliseconds) so that rows
      // are recycled while their previews are still being computed.
      if let delay = previewDelay { try? await Task.sleep(for: delay) }
      return summaryText(of: body) { Task.isCancelled } ?? ""
    }
    return await withTaskCancellationHandler {
      await work.value
    } onCancel: {
      work.cancel()
    }
  }

  /// The preview of `body`, or `nil` once `isCancelled` says so (asked every 4,096
  /// characters).
  ///
  /// Lines are separated by "\n" alone, as everywhere in Notes; words are runs of
  /// characters that are not white space. One pass over the Unicode scalars, with no
  /// grapheme breaking: a note of 100,000 characters takes well under a millisecond.
  nonisolated static func summaryText(of body: String, isCancelled: () -> Bool) -> String? {
    if body.isEmpty { return "Empty" }
    var lines = 1
    var words = 0
    var inWord = false
    var scanned = 0
    for scalar in body.unicodeScalars {
      let isSpace =
        scalar.value < 0x80
        ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)
        : scalar.properties.isWhitespace
      if scalar.value == 0x0A { lines += 1 }
      if isSpace {
        inWord = false
      } else if !inWord {
        inWord = true
        words += 1
      }
      scanned += 1
      if scanned & 0xFFF == 0, isCancelled() { return nil }
    }
    let scalars = body.unicodeScalars
    let first = String(scalars[..<(scalars.firstIndex(of: "\n") ?? scalars.endIndex)])
    let shown = first.count > 60 ? String(first.prefix(60)) + "…" : first
    return "\(BidiIsolation.isolate(shown)) · \(lines) \(lines == 1 ? "line" : "lines"), "
      + "\(words) \(words == 1 ? "word" : "words")"
  }
}
