public import Airframe
public import Foundation

/// Notebooks and notes to add to the library in one step.
///
/// Notebooks and notes added in one step, all or nothing — what `notes import` and `notes add` do,
/// through the same dispatcher as every gesture.
///
/// ## Guarantees
///
/// - Each item is validated by the Notes actions (`CreateNotebook`, `CreateNote`, so by
///   `NotesRules`) against the state as the import has changed it so far: a note may go to
///   a notebook the same import creates, and two imported notebooks of one title are one.
/// - A notebook whose title (ignoring case and surrounding white space) is taken merges
///   into the existing notebook; notes keep their titles, bodies, both dates and pins, and
///   get new ids.
/// - Every refused item is reported with its label (`notes[3]: …`, or a file's path), and
///   then nothing is saved: `perform` throws `ActionRefusal` with every reason, so the
///   dispatcher discards the write and reports the import as invalid.
/// - One undo step: the inverse removes exactly what the import created; undoing that puts
///   it back.
/// - Cost: O(items) — each created id is learnt from the insertion journal
///   (`Transaction.creating`), never by reading the whole change set.
public struct ImportNotes: Action {
  /// A notebook to create, or to merge into an existing one of the same title.
  public struct NotebookItem: Sendable {
    /// The notebook's id in the import (notes refer to it); not kept in the library.
    public var key: Int64
    /// The title.
    public var title: String
    /// When it was created; the import's time when `nil`.
    public var created: Date?
    /// How messages name it, such as `notebooks[0]` or a folder's path; empty for none
    /// (a single item needs no name).
    public var label: String

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - key: The notebook's id in the import.
    ///   - title: The title.
    ///   - created: When it was created.
    ///   - label: How messages name it.
    public init(key: Int64, title: String, created: Date?, label: String) {
      self.key = key
      self.title = title
      self.created = created
      self.label = label
    }
  }

  /// A note to create in one of the import's notebooks.
  public struct NoteItem: Sendable {
    /// The ``NotebookItem/key`` of its notebook.
    public var notebook: Int64
    /// The title.
    public var title: String
    /// The text.
    public var body: String
    /// When it was created; the import's time when `nil`.
    public var created: Date?
    /// When it last changed; `created` when `nil`.
    public var modified: Date?
    /// Whether it is pinned.
    public var isPinned: Bool
    /// How messages name it, such as `notes[3]` or a file's path; empty for none.
    public var label: String

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - notebook: The key of its notebook in the import.
    ///   - title: The title.
    ///   - body: The text.
    ///   - created: When it was created.
    ///   - modified: When it last changed.
    ///   - isPinned: Whether it is pinned.
    ///   - label: How messages name it.
    public init(
      notebook: Int64, title: String, body: String, created: Date?, modified: Date?,
      isPinned: Bool, label: String
    ) {
      self.notebook = notebook
      self.title = title
      self.body = body
      self.created = created
      self.modified = modified
      self.isPinned = isPinned
      self.label = label
    }
  }

  /// The notebooks, in order.
  public let notebooks: [NotebookItem]
  /// The notes, in order.
  public let notes: [NoteItem]
  /// The time of the import, for dates the items leave out.
  public let now: Date
  /// The name of the undo step, such as "Import" or "Add Note".
  public let name: String

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - notebooks: The notebooks to create or merge into.
  ///   - notes: The notes to create.
  ///   - now: The time for dates the items leave out.
  ///   - name: The name of the undo step.
  public init(
    notebooks: [NotebookItem], notes: [NoteItem], now: Date, name: String = "Import"
  ) {
    self.notebooks = notebooks
    self.notes = notes
    self.now = now
    self.name = name
  }

  /// Nothing to check up front: each item is judged against the state the import has
  /// made so far, while performing.
  public func validate(in state: NotesState) -> ValidationResult { ValidationResult() }

  /// Creates every item, or throws `ActionRefusal` with every item's reasons.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    var issues: [ValidationIssue] = []
    func refuse(_ message: String, _ label: String) {
      issues.append(
        ValidationIssue(field: label, message: label.isEmpty ? message : "\(label): \(message)"))
    }
    var byTitle: [String: NotebookID] = [:]
    for notebook in transaction.state.notebooks.elements {
      byTitle[NotesRules.notebookTitleKey(notebook.title)] = notebook.id
    }
    var byKey: [Int64: NotebookID] = [:]
    var listed: Set<Int64> = []
    var createdNotebooks: [NotebookID] = []
    for item in notebooks {
      guard listed.insert(item.key).inserted else {
        refuse("another notebook has the id \(item.key) too", item.label)
        continue
      }
      let key = NotesRules.notebookTitleKey(item.title)
      if let existing = byTitle[key] {
        byKey[item.key] = existing
        continue
      }
      let create = CreateNotebook(title: item.title, now: item.created ?? now)
      let result = create.validate(in: transaction.state)
      guard result.isValid else {
        for issue in result.issues { refuse(issue.message, item.label) }
        continue
      }
      guard
        let id = try transaction.creating({ _ = try create.perform(in: &$0) })
          .id(in: \NotesState.notebooks)
      else { continue }
      byTitle[key] = id
      byKey[item.key] = id
      createdNotebooks.append(id)
    }
    var createdNotes: [NoteID] = []
    createdNotes.reserveCapacity(notes.count)
    for item in notes {
      guard let notebook = byKey[item.notebook] else {
        if listed.contains(item.notebook) {
          // Its notebook was refused (and reported): still say what is wrong with the note.
          let own =
            NotesRules.titleIssues(item.title, field: "note title")
            + NotesRules.bodyIssues(item.body)
          for issue in own { refuse(issue.message, item.label) }
        } else {
          refuse("no notebook in the document has the id \(item.notebook)", item.label)
        }
        continue
      }
      let created = item.created ?? now
      let create = CreateNote(
        notebookID: notebook, title: item.title, body: item.body, now: created)
      let result = create.validate(in: transaction.state)
      guard result.isValid else {
        for issue in result.issues { refuse(issue.message, item.label) }
        continue
      }
      guard issues.isEmpty else { continue }  // nothing will be saved: skip the work
      guard
        let id = try transaction.creating({ _ = try create.perform(in: &$0) })
          .id(in: \NotesState.notes)
      else { continue }
      try transaction.update(id, in: \.notes) {
        $0.modified = item.modified ?? created
        $0.isPinned = item.isPinned
      }
      createdNotes.append(id)
    }
    if !issues.isEmpty { throw ActionRefusal(ValidationResult(issues)) }
    return RemoveImported(name: name, notebooks: createdNotebooks, notes: createdNotes)
  }
}

/// Removes what an import created (the inverse of ``ImportNotes``).
public struct RemoveImported: Action {
  /// The name of the step this undoes.
  public let name: String
  /// The notebooks the import created.
  public let notebooks: [NotebookID]
  /// The notes the import created.
  public let notes: [NoteID]

  /// Every note and notebook must still exist; the first missing one of each is named.
  public func validate(in state: NotesState) -> ValidationResult {
    var issues: [ValidationIssue] = []
    if let missing = notes.first(where: { !state.notes.contains($0) }) {
      issues += NotesRules.noteExists(missing, in: state)
    }
    if let missing = notebooks.first(where: { !state.notebooks.contains($0) }) {
      issues += NotesRules.notebookExists(missing, in: state)
    }
    return ValidationResult(issues)
  }

  /// Removes the notes, then the notebooks; the inverse puts them back as they are now.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    var removedNotes: [Note] = []
    removedNotes.reserveCapacity(notes.count)
    for id in notes { removedNotes.append(try transaction.remove(id, from: \.notes)) }
    var removedNotebooks: [Notebook] = []
    for id in notebooks {
      removedNotebooks.append(try transaction.remove(id, from: \.notebooks))
    }
    return RestoreImported(name: name, notebooks: removedNotebooks, notes: removedNotes)
  }
}

/// Puts back what undoing an import removed (the inverse of ``RemoveImported``).
public struct RestoreImported: Action {
  /// The name of the step this redoes.
  public let name: String
  /// The notebooks as they were.
  public let notebooks: [Notebook]
  /// The notes as they were.
  public let notes: [Note]

  /// The ids must be free.
  public func validate(in state: NotesState) -> ValidationResult {
    let taken =
      notebooks.contains { state.notebooks.contains($0.id) }
      || notes.contains { state.notes.contains($0.id) }
    return taken
      ? ValidationResult([
        ValidationIssue(
          field: "import", message: "Something \(name.lowercased()) made is back already.")
      ]) : ValidationResult()
  }

  /// Inserts the notebooks, then the notes; the inverse removes them again.
  public func perform(in transaction: inout Transaction<NotesState>) throws -> any Action<
    NotesState
  > {
    for notebook in notebooks { try transaction.insert(notebook, into: \.notebooks) }
    for note in notes { try transaction.insert(note, into: \.notes) }
    return RemoveImported(name: name, notebooks: notebooks.map(\.id), notes: notes.map(\.id))
  }
}
