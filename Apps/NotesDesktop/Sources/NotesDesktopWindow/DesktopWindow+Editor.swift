// DesktopWindow+Editor: the note's title and text, rendered without disturbing the user.

import CGtk
import NotesCore
import NotesPresentation

extension DesktopWindow {
  /// Shows the session's editor state in the title entry and the text view.
  ///
  /// ## Guarantees
  ///
  /// - In place: when the session's text differs from the buffer (another process, sync, a
  ///   merge into the draft), only the characters of the lines that changed are replaced
  ///   (`LineMerge.replacements`); a line nobody changed is never touched, so a selection on
  ///   it and the view's scroll position stay.
  /// - The cursor goes where the session's editor state puts it (it maps the cursor through
  ///   every change); the window tells the session of each cursor move, so the two agree.
  /// - A note deleted elsewhere, which the session keeps open, shows read-only: its text can
  ///   be selected and copied, and no key reaches any note.
  /// - Offsets: the session counts UTF-8 bytes, GTK counts characters (Unicode scalars); the
  ///   conversions are in this file and nowhere else.
  func showEditor(_ editor: EditorState) {
    gtk_widget_set_sensitive(textView, editor.noteID == nil ? 0 : 1)
    // A note deleted elsewhere stays on show, its text selectable but no longer editable:
    // no key goes into it, nor into a note the user did not choose.
    gtk_text_view_set_editable(cast(raw(textView)), editor.isDeleted ? 0 : 1)
    gtk_widget_set_sensitive(titleEntry, editor.noteID == nil || editor.isDeleted ? 0 : 1)
    if entryText() != editor.title {
      gtk_editable_set_text(OpaquePointer(titleEntry), editor.title)
    }
    let shown = bufferText()
    let changed = !Self.sameBytes(shown, editor.body)
    if changed { replace(shown, with: editor.body) }
    // The session maps the cursor through every change; a selection the user holds on
    // unchanged text stays as it is.
    if changed || gtk_text_buffer_get_has_selection(buffer) == 0 {
      placeCursor(atUTF8: editor.cursor, in: editor.body)
    }
  }

  /// Makes the buffer hold `body` by replacing only what changed since `shown`.
  private func replace(_ shown: String, with body: String) {
    let changes = LineMerge.replacements(from: shown, to: body)
    let offsets = Self.characterOffsets(
      ofUTF8: changes.flatMap { [$0.range.lowerBound, $0.range.upperBound] }, in: shown)
    // Last first, so the offsets of the earlier changes still hold.
    for (index, change) in changes.enumerated().reversed() {
      var start = GtkTextIter()
      var end = GtkTextIter()
      gtk_text_buffer_get_iter_at_offset(buffer, &start, Int32(offsets[2 * index]))
      gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(offsets[2 * index + 1]))
      if !change.range.isEmpty { gtk_text_buffer_delete(buffer, &start, &end) }
      if !change.text.isEmpty {
        gtk_text_buffer_insert(buffer, &start, change.text, Int32(change.text.utf8.count))
      }
    }
  }

  /// Puts the cursor at a UTF-8 offset into `body` (the buffer's text), unless it is there.
  private func placeCursor(atUTF8 offset: Int, in body: String) {
    let wanted = Self.characterOffsets(ofUTF8: [offset], in: body)[0]
    var iter = GtkTextIter()
    gtk_text_buffer_get_iter_at_mark(buffer, &iter, gtk_text_buffer_get_insert(buffer))
    guard Int(gtk_text_iter_get_offset(&iter)) != wanted else { return }
    gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(wanted))
    gtk_text_buffer_place_cursor(buffer, &iter)
  }

  /// The character (Unicode scalar) offsets of increasing UTF-8 offsets into `text`.
  nonisolated static func characterOffsets(ofUTF8 offsets: [Int], in text: String) -> [Int] {
    func count(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
      var result: [Int] = []
      result.reserveCapacity(offsets.count)
      var characters = 0
      var index = 0
      for offset in offsets {
        // Every byte that does not continue a scalar starts one.
        let end = min(max(offset, index), bytes.count)
        while index < end {
          if bytes[index] & 0xC0 != 0x80 { characters += 1 }
          index += 1
        }
        result.append(characters)
      }
      return result
    }
    if let result = text.utf8.withContiguousStorageIfAvailable(count) { return result }
    var copy = text
    copy.makeContiguousUTF8()
    // A contiguous string always lends its storage.
    return copy.utf8.withContiguousStorageIfAvailable(count)!
  }

  /// Inserts `text` at the cursor as a key press in the text view does (for the benchmark,
  /// which types without a keyboard).
  ///
  /// - Parameter text: The typed text.
  package func typeAtCursor(_ text: String) {
    gtk_text_buffer_insert_interactive_at_cursor(buffer, text, Int32(text.utf8.count), 1)
  }

  func bufferText() -> String {
    var start = GtkTextIter()
    var end = GtkTextIter()
    gtk_text_buffer_get_bounds(buffer, &start, &end)
    guard let text = gtk_text_buffer_get_text(buffer, &start, &end, 1) else { return "" }
    defer { g_free(text) }
    return String(cString: text)
  }

  func entryText() -> String {
    gtk_editable_get_text(OpaquePointer(titleEntry)).map { String(cString: $0) } ?? ""
  }

  /// The cursor as a UTF-8 offset into the buffer's text.
  func cursorUTF8Offset() -> Int {
    var start = GtkTextIter()
    var cursor = GtkTextIter()
    gtk_text_buffer_get_start_iter(buffer, &start)
    gtk_text_buffer_get_iter_at_mark(buffer, &cursor, gtk_text_buffer_get_insert(buffer))
    // GTK's text is UTF-8: the bytes before the cursor are its offset.
    guard let before = gtk_text_buffer_get_text(buffer, &start, &cursor, 1) else { return 0 }
    defer { g_free(before) }
    return strlen(before)
  }

  /// Whether two texts are the same bytes (not only canonically equivalent).
  static func sameBytes(_ first: String, _ second: String) -> Bool {
    var first = first
    var second = second
    return first.withUTF8 { a in
      second.withUTF8 { b in
        guard a.count == b.count, let left = a.baseAddress, let right = b.baseAddress else {
          return a.count == b.count
        }
        return memcmp(left, right, a.count) == 0
      }
    }
  }
}
