// NoteRowView: one recycled row of the note list — its label, its own Binder, and a preview
// computed off the main actor through an AsyncProjection.
//
// Guarantees
// - GTK recycles row widgets for other notes (`bind`/`unbind` of GtkSignalListItemFactory).
//   Showing another note rebinds the row's binder, which ends the old note's connection
//   before the new one starts, and starts a new preview request, which supersedes the old
//   one: a preview computed for the note the row showed before never reaches it.
// - While a preview loads, the row shows the title alone, never the preview of the note it
//   showed before (`loading(previous:)` belongs to that note).

import AirframeBinding
import CGtk
import Foundation
import NotesCore
import NotesPresentation

/// The tests' preview delay (`NOTES_DESKTOP_PREVIEW_DELAY`, milliseconds), if set.
private let previewDelay: Duration? = ProcessInfo.processInfo
  .environment["NOTES_DESKTOP_PREVIEW_DELAY"].flatMap(Int.init).map { .milliseconds($0) }

/// One row widget of the note list.
@MainActor
final class NoteRowView {
  /// The label GTK shows for the row.
  let label: UnsafeMutablePointer<GtkWidget>
  private let binder = Binder(label: "note row")
  private let preview = AsyncProjection<String>()
  /// The note the row shows, if bound.
  private(set) var note: NoteID?

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
    note = row.id
    let title = (row.isPinned ? "★ " : "") + row.title
    let body = row.body
    binder.bind { connect in
      connect.render(preview) { [unowned self] phase in
        if case .loaded(let summary) = phase {
          gtk_label_set_text(cast(raw(self.label)), title + "\n" + summary)
        } else {
          gtk_label_set_text(cast(raw(self.label)), title)
        }
      }
    }
    _ = preview.load { await Self.summary(of: body) }
  }

  /// Lets go of the note: no connection and no preview request is left.
  func clear() {
    note = nil
    binder.cancel()
    preview.cancel()
  }

  /// A note's preview: its first line and its length, computed off the main actor.
  ///
  /// - Parameter body: The note's text.
  /// - Returns: Such as `Milk · 4 lines, 5 words`, or `Empty`.
  nonisolated static func summary(of body: String) async -> String {
    await Task.detached(priority: .userInitiated) {
      // A delay the tests set (NOTES_DESKTOP_PREVIEW_DELAY, in milliseconds) so that rows
      // are recycled while their previews are still being computed.
      if let delay = previewDelay { try? await Task.sleep(for: delay) }
      if body.isEmpty { return "Empty" }
      let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
      let words = body.split(whereSeparator: { $0.isWhitespace }).count
      let first = lines.first.map(String.init) ?? ""
      let shown = first.count > 60 ? String(first.prefix(60)) + "…" : first
      return "\(shown) · \(lines.count) \(lines.count == 1 ? "line" : "lines"), "
        + "\(words) \(words == 1 ? "word" : "words")"
    }.value
  }
}
