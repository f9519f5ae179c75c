public import Airframe
public import Foundation
public import NotesCore

extension LibraryDocument {
  /// The action that adds the document's notebooks and notes to a library, in one step.
  ///
  /// A notebook merges into one of the same title (ignoring case); each entry's label, which
  /// the action's refusals name, is its ``NoteEntry/source`` when it has one (the file a
  /// Markdown import read it from), else its place in the document, such as `notes[3]`.
  ///
  /// - Parameter now: The date of entries without one.
  /// - Returns: The action; dispatching it imports everything or nothing.
  public func importAction(now: Date) -> ImportNotes {
    ImportNotes(
      notebooks: notebooks.enumerated().map { index, entry in
        ImportNotes.NotebookItem(
          key: entry.id, title: entry.title, created: entry.created,
          label: entry.source ?? "notebooks[\(index)]")
      },
      notes: notes.enumerated().map { index, entry in
        ImportNotes.NoteItem(
          notebook: entry.notebookID, title: entry.title, body: entry.body ?? "",
          created: entry.created, modified: entry.modified, isPinned: entry.pinned ?? false,
          label: entry.source ?? "notes[\(index)]")
      }, now: now)
  }

  /// What importing the document did, given what its action created.
  ///
  /// - Parameter created: The entities the committed ``importAction(now:)`` created.
  /// - Returns: How many notes and notebooks it created, and how many of the document's
  ///   notebooks merged into existing ones.
  public func summary(of created: CreatedEntities) -> ImportSummary {
    let newNotebooks = created.ids(in: \NotesState.notebooks).count
    return ImportSummary(
      notes: created.ids(in: \NotesState.notes).count, newNotebooks: newNotebooks,
      mergedNotebooks: Set(notebooks.map(\.id)).count - newNotebooks)
  }
}

/// What an import added to a library.
public struct ImportSummary: Equatable, Sendable {
  /// How many notes it created.
  public var notes: Int
  /// How many notebooks it created.
  public var newNotebooks: Int
  /// How many of the document's notebooks it merged into notebooks of the same title.
  public var mergedNotebooks: Int

  /// A summary.
  public init(notes: Int, newNotebooks: Int, mergedNotebooks: Int) {
    self.notes = notes
    self.newNotebooks = newNotebooks
    self.mergedNotebooks = mergedNotebooks
  }
}

extension LibraryDocument {
  /// Reads what an import of `path` adds: the notes of a folder (see ``MarkdownImport``),
  /// else the JSON export in a file.
  ///
  /// Runs on any thread; it reads only the file system.
  ///
  /// - Parameters:
  ///   - path: A folder or a file, as the user gave it (messages show it).
  ///   - fileRead: For a folder, told how many note files were read so far.
  /// - Returns: The document, and how many files and folders a folder's import skipped.
  /// - Throws: ``FileFailure``: ``FileFailure/Kind/notFound`` for a file that is missing
  ///   or cannot be read, ``FileFailure/Kind/invalidData`` for bytes that are not UTF-8, a
  ///   document that is not a version 1 export or a folder with a file that cannot be read.
  public static func read(
    contentsOf path: String, fileRead: @escaping (Int) -> Void = { _ in }
  ) throws(FileFailure) -> (document: LibraryDocument, skipped: [MarkdownImport.Skipped]) {
    if MarkdownImport.isFolder(path) {
      return try MarkdownImport.read(folder: path, fileRead: fileRead)
    }
    let source = DisplayText.quoted(path, limit: .max)
    return (try LibraryDocument(json: try text(ofFile: path, shown: source), from: source), [])
  }

  /// The text of the file at `path`.
  ///
  /// - Throws: ``FileFailure``: ``FileFailure/Kind/notFound`` if it is missing, a folder
  ///   or cannot be read; ``FileFailure/Kind/invalidData`` if it is not UTF-8.
  public static func text(ofFile path: String, shown: String) throws(FileFailure) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw FileFailure(.notFound, "no such file: \(shown)")
    }
    if isDirectory.boolValue {
      throw FileFailure(.notFound, "\(shown) is a folder, not a file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw FileFailure(.notFound, "cannot read \(shown): \(error)")
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      throw FileFailure(.invalidData, "\(shown) is not valid UTF-8; nothing was saved")
    }
    return text
  }
}
