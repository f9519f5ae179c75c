// The window's labels that put right-to-left text beside its own words, laid out by Pango as
// GTK lays them out, with no window: the words, counts and dashes keep their places around
// the user's text, which reads in its own direction.

import Airframe
import CGtk
import Foundation
import NotesCore
import NotesHost
import NotesPresentation
import Testing

@testable import NotesDesktopWindow

@Suite
struct LabelDirectionTests {
  /// Arabic for "my notebook 2"; Hebrew for "shopping list" and "hello world".
  static let notebook = "دفتري 2"
  static let note = "רשימת קניות"
  static let firstLine = "שלום עולם"

  /// Where each character of a text is on its line, as Pango lays the text out.
  struct Layout {
    let text: String
    /// The left and right edges (Pango units) of the character at each UTF-8 offset.
    let edges: [Int: (left: Int32, right: Int32)]

    init(_ text: String) {
      self.text = text
      let context = pango_font_map_create_context(pango_cairo_font_map_get_default())
      let layout = pango_layout_new(context)
      defer {
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
      }
      pango_layout_set_text(layout, text, -1)
      var edges: [Int: (Int32, Int32)] = [:]
      var offset = 0
      for scalar in text.unicodeScalars {
        var rectangle = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(offset), &rectangle)
        let ends = [rectangle.x, rectangle.x + rectangle.width]
        edges[offset] = (ends.min()!, ends.max()!)
        offset += String(scalar).utf8.count
      }
      self.edges = edges
    }

    /// The leftmost and rightmost edges of the first occurrence of `part`'s visible
    /// characters.
    func span(of part: String) -> (left: Int32, right: Int32)? {
      guard let range = text.range(of: part) else { return nil }
      let start = text.utf8.distance(from: text.utf8.startIndex, to: range.lowerBound)
      let end = start + part.utf8.count
      let inside = edges.filter { $0.key >= start && $0.key < end && $0.value.0 != $0.value.1 }
      guard let left = inside.map(\.value.0).min(), let right = inside.map(\.value.1).max()
      else { return nil }
      return (left, right)
    }

    /// Whether `first` is wholly left of `second`.
    func isLeft(_ first: String, of second: String) -> Bool {
      guard let a = span(of: first), let b = span(of: second) else { return false }
      return a.right <= b.left
    }
  }

  @Test func aNotebooksCountStaysRightOfItsTitle() {
    let row = DesktopWindow.sidebarText(title: Self.notebook, count: 7)
    let layout = Layout(row)
    #expect(layout.isLeft(Self.notebook, of: "  7"), "\(row.debugDescription)")
  }

  @Test func aNotesPreviewKeepsItsCountsTogetherAfterItsFirstLine() {
    let summary = NoteRowView.summaryText(of: Self.firstLine + "\nsecond") { false } ?? ""
    let text = NoteRowView.text(title: Self.note, isPinned: true, summary: summary)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    let title = Layout(lines[0])
    #expect(title.isLeft("★", of: Self.note), "\(lines[0].debugDescription)")
    let preview = Layout(lines[1])
    #expect(preview.isLeft(Self.firstLine, of: "·"), "\(lines[1].debugDescription)")
    #expect(preview.isLeft("·", of: "2"), "\(lines[1].debugDescription)")
    #expect(preview.isLeft("2", of: "lines"), "\(lines[1].debugDescription)")
  }

  @Test @MainActor func theWindowTitleKeepsItsOrder() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("label-direction-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = try NotesLibrary.open(
      path: folder.appendingPathComponent("notes.sqlite").path, samples: .never)
    defer { library.close() }
    let imported = library.session.notesImported(
      ImportNotes(
        notebooks: [.init(key: 1, title: Self.notebook, created: nil, label: "notebook")],
        notes: [
          .init(
            notebook: 1, title: Self.note, body: "", created: nil, modified: nil,
            isPinned: false, label: "note")
        ],
        now: Date()))
    try #require(imported.isCommitted, "\(imported)")
    let note = try #require(library.session.list.rows.first)
    #expect(library.session.noteSelected(note.id))
    // The title as the window shows it (DesktopWindow+Binding).
    let composed = library.session.title.value
    let layout = Layout(leftToRight(composed))
    #expect(layout.isLeft(Self.notebook, of: "—"), "\(composed.debugDescription)")
    #expect(layout.isLeft("—", of: Self.note), "\(composed.debugDescription)")
  }
}
