// ReferenceNotes: a deliberately simple model of the Notes app, written independently of
// NotesCore's actions, undo history, controllers and coordinators.
//
// - Content is two dictionaries; every rule (trimming, empty, length, control characters,
//   uniqueness ignoring case, existence) is re-stated here over Unicode scalars.
// - Undo keeps full snapshots of the content: undo puts the snapshot back and keeps the
//   replaced content for redo. What is not undoable (the largest assigned id, the sync
//   status) lives outside the snapshots. A typing save that continues the typing run on
//   top of the undo stack adds no snapshot: the one there already reverts the whole run.
// - View state (selections, filters, editor draft, window title, status message, pending
//   confirmations, sync and asynchronous runs) is plain stored properties, updated after
//   each commit by comparing the content before and after it.
// - Validation failures are predicted as the list of fields the issues name, in order,
//   not as message text, so wording changes in NotesCore do not break the model.
// - It states the documented guarantees, never the app's current behaviour: a
//   disagreement is fixed in the app, never mirrored here (the regression tests in
//   ModelBasedTests and BadInputTests keep the ones it found).

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore

/// What a step produced: predicted by the reference, reported by the app.
enum StepResult: Equatable, CustomStringConvertible {
  case committed(revision: Int)
  case unchanged
  case invalid(fields: [String])
  case failed(String)
  case rejected
  case cancelled
  case superseded
  /// A selection was taken (`true`) or refused.
  case accepted(Bool)
  /// A sync or an asynchronous run started (`true`) or was refused.
  case started(Bool)

  init(_ outcome: ActionOutcome) {
    switch outcome {
    case .committed(let revision, _): self = .committed(revision: revision)
    case .unchanged: self = .unchanged
    case .invalid(let result): self = .invalid(fields: result.issues.map(\.field))
    case .failed(let message): self = .failed(message)
    case .rejected: self = .rejected
    case .cancelled: self = .cancelled
    case .superseded: self = .superseded
    }
  }

  var isCommitted: Bool { if case .committed = self { true } else { false } }

  var description: String {
    switch self {
    case .committed(let revision): "committed(\(revision))"
    case .unchanged: "unchanged"
    case .invalid(let fields): "invalid(\(fields.joined(separator: ", ")))"
    case .failed(let message): "failed(\(message))"
    case .rejected: "rejected"
    case .cancelled: "cancelled"
    case .superseded: "superseded"
    case .accepted(let taken): "accepted(\(taken))"
    case .started(let started): "started(\(started))"
    }
  }
}

struct ReferenceNotes {
  struct Content: Equatable {
    var notebooks: [NotebookID: Notebook] = [:]
    var notes: [NoteID: Note] = [:]
    /// Recently Deleted: each deleted note as it was, with its notebook's title.
    var deleted: [NoteID: DeletedNote] = [:]
    /// How many days Recently Deleted keeps notes.
    var keptDays = 30

    /// Moves note `id` into Recently Deleted.
    mutating func delete(_ id: NoteID) {
      guard let note = notes.removeValue(forKey: id) else { return }
      deleted[id] = DeletedNote(
        note: note, notebookTitle: notebooks[note.notebookID]?.title ?? "",
        deleted: deletionDate)
    }
  }

  struct UndoStep {
    var name: String
    var content: Content
    /// How many commits the step's first action or group made.
    var firstCommits = 1
    /// Whether later typing saves joined this step.
    var joined = false
  }

  /// The coalescing key of a typing run: saves with equal keys in a row are one undo step.
  struct TypingKey: Equatable {
    var run: Int
    var note: NoteID
  }

  struct Confirmation: Equatable {
    var id: Int
    var notebook: NotebookID
    var message: String
  }

  struct Run {
    let token: Int
    let op: ResolvedOp
    /// Whether its work has started: at once, except for a queued run behind another.
    var started: Bool
    var cancelled = false
    /// `nil` until released; then whether the work succeeds.
    var succeeds: Bool?
  }

  /// A deliberate mistake, injected only to prove that the shrinker works.
  enum Fault {
    /// Undoing a pin or an unpin leaves every note's pin as it is.
    case undoKeepsPins
  }

  static let undoLimit = 100
  static let asyncFailure = "Offline."

  var fault: Fault?

  private(set) var content = Content()
  private(set) var lastAssignedID: Int64
  private(set) var sync: SyncStatus
  private(set) var revision = 0
  private(set) var undoStack: [UndoStep] = []
  private(set) var redoStack: [UndoStep] = []
  private var openGroup: (name: String, key: TypingKey?, content: Content, commits: Int)?
  /// The key of the typing run the top undo step can still absorb.
  private var runKey: TypingKey?
  /// How many typing saves joined the step before them.
  private(set) var typingSavesJoined = 0

  private(set) var confirmations: [Confirmation] = []
  private var confirmationCount = 0

  private(set) var sidebarSelection: NotebookID?
  var listNotebook: NotebookID?
  var search = ""
  var sort = NoteSort.modified
  private(set) var listSelection: NoteID?
  var titleNote: NoteID?
  var titleNotebook: NotebookID?
  private(set) var editor = EditorState.closed
  private var editorBase: Note?
  private var typingRun = 0
  private var isSaving = false
  private(set) var statusMessage: String?

  private(set) var syncRunning = false
  private var syncCancelled = false
  private var syncStartedFrom: Date?

  private(set) var runs: [RunPolicy: [Run]] = [:]
  private var latestRun: [RunPolicy: Int] = [:]

  init(_ state: NotesState) {
    for notebook in state.notebooks.elements { content.notebooks[notebook.id] = notebook }
    for note in state.notes.elements { content.notes[note.id] = note }
    for entry in state.recentlyDeleted.elements { content.deleted[entry.id] = entry }
    content.keptDays = state.recentlyDeletedDays
    lastAssignedID = state.lastAssignedID
    sync = state.sync
  }

  /// The content as a `NotesState`, for comparing with the app's model.
  var state: NotesState {
    var state = NotesState(
      notebooks: Array(content.notebooks.values), notes: Array(content.notes.values),
      recentlyDeleted: Array(content.deleted.values), sync: sync)
    state.lastAssignedID = lastAssignedID
    state.recentlyDeletedDays = content.keptDays
    return state
  }

  var notebookIDs: [Int64] { content.notebooks.keys.map(\.rawValue).sorted() }
  var noteIDs: [Int64] { content.notes.keys.map(\.rawValue).sorted() }
  var deletedIDs: [Int64] { content.deleted.keys.map(\.rawValue).sorted() }
  var undoName: String? { undoStack.last?.name }
  var redoName: String? { redoStack.last?.name }

  // MARK: - Rules

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  static func trimmed(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars
    while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
    return String(Substring(scalars))
  }

  static func titleIssues(_ title: String, field: String) -> [String] {
    var fields: [String] = []
    if title.unicodeScalars.allSatisfy(\.properties.isWhitespace) { fields.append(field) }
    if title.count > NotesRules.titleLimit { fields.append(field) }
    if title.unicodeScalars.contains(where: isControl) { fields.append(field) }
    return fields
  }

  static func bodyIssues(_ body: String) -> [String] {
    var fields: [String] = []
    if body.utf8.count > NotesRules.bodyLimit, body.count > NotesRules.bodyLimit {
      fields.append("note body")
    }
    let allowed: Set<Unicode.Scalar> = ["\n", "\t", "\r"]
    if body.unicodeScalars.contains(where: { isControl($0) && !allowed.contains($0) }) {
      fields.append("note body")
    }
    return fields
  }

  func notebookTitleIssues(_ title: String, renaming: NotebookID? = nil) -> [String] {
    let issues = Self.titleIssues(title, field: "notebook title")
    guard issues.isEmpty else { return issues }
    let key = Self.trimmed(title).lowercased()
    let taken = content.notebooks.values.contains {
      $0.id != renaming && Self.trimmed($0.title).lowercased() == key
    }
    return taken ? ["notebook title"] : []
  }

  func issues(_ op: ResolvedOp) -> [String] {
    func notebook(_ id: NotebookID) -> [String] {
      content.notebooks[id] == nil ? ["notebook"] : []
    }
    func note(_ id: NoteID) -> [String] { content.notes[id] == nil ? ["note"] : [] }
    switch op {
    case .createNotebook(let title, _):
      return notebookTitleIssues(title)
    case .renameNotebook(let id, let title):
      let missing = notebook(id)
      return missing.isEmpty ? notebookTitleIssues(title, renaming: id) : missing
    case .deleteNotebook(let id, let deletingNotes):
      let missing = notebook(id)
      guard missing.isEmpty else { return missing }
      let hasNotes = content.notes.values.contains { $0.notebookID == id }
      return hasNotes && !deletingNotes ? ["confirmation"] : []
    case .createNote(let id, let title, let body, _):
      return notebook(id) + Self.titleIssues(title, field: "note title") + Self.bodyIssues(body)
    case .renameNote(let id, let title, _):
      return note(id) + Self.titleIssues(title, field: "note title")
    case .editBody(let id, let body, _): return note(id) + Self.bodyIssues(body)
    case .restoreVersion(let id, let title, let body, _):
      return note(id) + Self.titleIssues(title, field: "note title") + Self.bodyIssues(body)
    case .moveNote(let id, let target, _): return note(id) + notebook(target)
    case .setPinned(let id, _), .deleteNote(let id): return note(id)
    case .restoreNote(let id, _), .deleteForGood(let id?):
      return content.deleted[id] == nil ? ["note"] : []
    case .deleteForGood(nil): return []
    // From 1 to 365 days, written here on its own.
    case .keepDeletedNotes(let days): return (1...365).contains(days) ? [] : ["days"]
    }
  }

  static func name(_ op: ResolvedOp) -> String {
    switch op {
    case .createNotebook: "New Notebook"
    case .renameNotebook: "Rename Notebook"
    case .deleteNotebook: "Delete Notebook"
    case .createNote: "New Note"
    case .renameNote: "Rename Note"
    case .editBody: "Edit Note"
    case .moveNote: "Move Note"
    case .setPinned(_, let pinned): pinned ? "Pin Note" : "Unpin Note"
    case .deleteNote: "Delete Note"
    case .restoreVersion: "Restore Version"
    case .keepDeletedNotes: "Keep Deleted Notes"
    case .restoreNote: "Restore Note"
    case .deleteForGood(let id): id == nil ? "Empty Recently Deleted" : "Delete for Good"
    }
  }

  // MARK: - Actions and undo

  private mutating func nextID() -> Int64 {
    lastAssignedID += 1
    return lastAssignedID
  }

  private mutating func apply(_ op: ResolvedOp) {
    switch op {
    case .createNotebook(let title, let now):
      let id = NotebookID(rawValue: nextID())
      content.notebooks[id] = Notebook(id: id, title: Self.trimmed(title), created: now)
    case .renameNotebook(let id, let title):
      content.notebooks[id]?.title = Self.trimmed(title)
    case .deleteNotebook(let id, _):
      for note in content.notes.values where note.notebookID == id { content.delete(note.id) }
      content.notebooks[id] = nil
    case .createNote(let notebook, let title, let body, let now):
      let id = NoteID(rawValue: nextID())
      content.notes[id] = Note(
        id: id, notebookID: notebook, title: Self.trimmed(title), body: body, created: now)
    case .renameNote(let id, let title, let now):
      let title = Self.trimmed(title)
      if content.notes[id]?.title != title {
        content.notes[id]?.title = title
        content.notes[id]?.modified = now
      }
    case .editBody(let id, let body, let now):
      if content.notes[id]?.body != body {
        content.notes[id]?.body = body
        content.notes[id]?.modified = now
      }
    case .restoreVersion(let id, let title, let body, let now):
      // The version's title and text, dated now, unless the note already says both.
      let title = Self.trimmed(title)
      if content.notes[id]?.title != title || content.notes[id]?.body != body {
        content.notes[id]?.title = title
        content.notes[id]?.body = body
        content.notes[id]?.modified = now
      }
    case .moveNote(let id, let notebook, let now):
      if content.notes[id]?.notebookID != notebook {
        content.notes[id]?.notebookID = notebook
        content.notes[id]?.modified = now
      }
    case .setPinned(let id, let pinned): content.notes[id]?.isPinned = pinned
    case .deleteNote(let id): content.delete(id)
    case .restoreNote(let id, let now):
      // Back in its notebook; else the one with its notebook's title (ignoring case and
      // surrounding white space); else a new notebook with that title ("Recovered notes"
      // for none).
      guard let entry = content.deleted.removeValue(forKey: id) else { return }
      var note = entry.note
      if content.notebooks[note.notebookID] == nil {
        let title =
          entry.notebookTitle.isEmpty ? "Recovered notes" : Self.trimmed(entry.notebookTitle)
        if let same = content.notebooks.values.first(where: {
          Self.trimmed($0.title).lowercased() == title.lowercased()
        }) {
          note.notebookID = same.id
        } else {
          let notebook = NotebookID(rawValue: nextID())
          content.notebooks[notebook] = Notebook(id: notebook, title: title, created: now)
          note.notebookID = notebook
        }
      }
      content.notes[id] = note
    case .deleteForGood(let id?): content.deleted[id] = nil
    case .deleteForGood(nil): content.deleted = [:]
    case .keepDeletedNotes(let days): content.keptDays = days
    }
  }

  mutating func dispatch(_ op: ResolvedOp) -> StepResult {
    let fields = issues(op)
    guard fields.isEmpty else { return .invalid(fields: fields) }
    let before = content
    let idBefore = lastAssignedID
    apply(op)
    guard content != before || lastAssignedID != idBefore else { return .unchanged }
    committed(from: before)
    redoStack.removeAll()
    if openGroup != nil {
      openGroup?.commits += 1
    } else {
      Self.push(UndoStep(name: Self.name(op), content: before), onto: &undoStack)
      runKey = nil
    }
    return .committed(revision: revision)
  }

  mutating func group(named name: String, _ ops: [ResolvedOp]) -> [StepResult] {
    openGroup = (name, nil, content, 0)
    let results = ops.map { dispatch($0) }
    endGroup()
    return results
  }

  private mutating func endGroup() {
    if let group = openGroup, group.commits > 0 {
      // A typing save right after one of the same run joins it: the step on top already
      // holds the content from before the run.
      if group.key == nil || group.key != runKey || undoStack.isEmpty {
        Self.push(
          UndoStep(name: group.name, content: group.content, firstCommits: group.commits),
          onto: &undoStack)
        runKey = group.key
      } else {
        undoStack[undoStack.count - 1].joined = true
        typingSavesJoined += 1
      }
    }
    openGroup = nil
  }

  mutating func undo() -> StepResult {
    runKey = nil
    guard let step = undoStack.popLast() else { return .rejected }
    let before = content
    content = step.content
    if fault == .undoKeepsPins, step.name == "Pin Note" || step.name == "Unpin Note" {
      for (id, note) in before.notes { content.notes[id]?.isPinned = note.isPinned }
    }
    committed(from: before)
    Self.push(UndoStep(name: step.name, content: before), onto: &redoStack)
    return .committed(revision: revision)
  }

  mutating func redo() -> StepResult {
    runKey = nil
    guard let step = redoStack.popLast() else { return .rejected }
    let before = content
    content = step.content
    committed(from: before)
    Self.push(UndoStep(name: step.name, content: before), onto: &undoStack)
    return .committed(revision: revision)
  }

  private static func push(_ step: UndoStep, onto stack: inout [UndoStep]) {
    stack.append(step)
    if stack.count > undoLimit { stack.removeFirst(stack.count - undoLimit) }
  }

  /// A commit: the revision goes up and every piece of view state reacts to it.
  private mutating func committed(from before: Content) {
    revision += 1
    // A question about a notebook that is gone is withdrawn.
    confirmations.removeAll { content.notebooks[$0.notebook] == nil }
    if let selected = sidebarSelection, content.notebooks[selected] == nil {
      sidebarSelection = nil
    }
    if let note = titleNote, before.notes[note] != nil, content.notes[note] == nil {
      titleNote = nil
    }
    if let notebook = titleNotebook, before.notebooks[notebook] != nil,
      content.notebooks[notebook] == nil
    {
      titleNotebook = nil
    }
    guard !isSaving, let id = editor.noteID else { return }
    let old = before.notes[id]
    let new = content.notes[id]
    if old != nil, new == nil {
      editor.isDeleted = true
    } else if let theirs = new, theirs != old {
      if old == nil { editor.isDeleted = false }
      guard theirs != editorBase else {
        // Back to the draft's base (an undo): its title, and no conflict with what is gone.
        editor.title = theirs.title
        editor.conflict = nil
        return
      }
      if editor.isDirty {
        mergeDraft(with: theirs)
      } else {
        // The cursor goes through the change as text does (LineMerge, tested on its own,
        // as for the merge of a draft below).
        typingRun += 1
        let mapped = LineMerge.offset(
          editor.cursor, mappedThrough: LineMerge.replacements(from: editor.body, to: theirs.body))
        show(theirs, cursor: mapped)
      }
    }
  }

  // MARK: - View state

  /// Clears the list selection if its row is no longer listed.
  mutating func listChanged(rows: [NoteRow]) {
    if let selected = listSelection, !rows.contains(where: { $0.id == selected }) {
      listSelection = nil
    }
  }

  mutating func selectNotebook(_ id: NotebookID?) -> StepResult {
    guard id == nil || content.notebooks[id!] != nil else { return .accepted(false) }
    sidebarSelection = id
    return .accepted(true)
  }

  mutating func selectNote(_ id: NoteID?, rows: [NoteRow]) -> StepResult {
    guard id == nil || rows.contains(where: { $0.id == id }) else { return .accepted(false) }
    listSelection = id
    return .accepted(true)
  }

  mutating func report(_ expected: StepResult, description: String) {
    switch expected {
    case .committed, .unchanged: statusMessage = nil
    case .invalid, .failed, .rejected: statusMessage = description
    default: break
    }
  }

  // MARK: - Editor

  /// Shows `note` in the editor; the cursor stays where it was (or goes to `cursor`),
  /// clamped to the text and moved back to the start of its character, or goes to the end.
  private mutating func show(_ note: Note, cursorAtEnd: Bool = false, cursor given: Int? = nil) {
    var cursor =
      cursorAtEnd ? note.body.utf8.count : min(given ?? editor.cursor, note.body.utf8.count)
    while cursor > 0,
      note.body.utf8.index(note.body.utf8.startIndex, offsetBy: cursor)
        .samePosition(in: note.body) == nil
    {
      cursor -= 1
    }
    editorBase = note
    editor = .closed
    editor.noteID = note.id
    editor.title = note.title
    editor.body = note.body
    editor.cursor = cursor
  }

  /// The note changed elsewhere under an unsaved draft: the editor shows their title (it
  /// drafts only the body), bodies merge line by line (then word by word); what overlaps is
  /// the conflict.
  private mutating func mergeDraft(with theirs: Note) {
    guard let base = editorBase else { return }
    editor.title = theirs.title
    guard
      let merged = LineMerge.merge(
        ancestor: base.body, ours: editor.body, theirs: theirs.body, cursor: editor.cursor)
    else {
      editor.conflict = theirs
      return
    }
    typingRun += 1
    editorBase = theirs
    editor.conflict = nil
    editor.body = merged.text
    editor.cursor = merged.cursor
    editor.isDirty = merged.text != theirs.body
  }

  mutating func openEditor(_ id: NoteID?) {
    typingRun += 1
    if let id, let note = content.notes[id] {
      show(note, cursorAtEnd: true)
    } else {
      editorBase = nil
      editor = .closed
    }
  }

  mutating func type(body: String) {
    guard editor.noteID != nil, let base = editorBase else { return }
    editor.body = body
    editor.cursor = body.utf8.count
    editor.isDirty = editor.body != base.body
  }

  /// Ends the editor's typing run: the next typing save is an undo step of its own.
  mutating func endTypingRun() { typingRun += 1 }

  mutating func save(now: Date, typing: Bool = false) -> StepResult {
    guard let id = editor.noteID, let base = editorBase, !editor.isDeleted,
      editor.conflict == nil
    else { return .rejected }
    guard editor.isDirty else { return .unchanged }
    let draft = editor
    isSaving = true
    if !typing { typingRun += 1 }
    let key = typing ? TypingKey(run: typingRun, note: id) : nil
    openGroup = (typing ? "Typing" : "Edit Note", key, content, 0)
    let outcome =
      draft.body != base.body ? dispatch(.editBody(id, body: draft.body, now: now)) : .unchanged
    endGroup()
    isSaving = false
    if outcome.isCommitted || outcome == .unchanged, let saved = content.notes[id] {
      show(saved)
    }
    return outcome
  }

  mutating func keepMine() {
    guard let theirs = editor.conflict else { return }
    typingRun += 1
    editorBase = theirs
    editor.conflict = nil
    editor.title = theirs.title
    // Dirty is measured against the new base: a draft that already equals the other
    // version has nothing left to save.
    editor.isDirty = editor.body != theirs.body
  }

  mutating func takeTheirs() {
    guard let theirs = editor.conflict else { return }
    typingRun += 1
    // Taking the other version of a note deleted meanwhile leaves it deleted.
    let isDeleted = editor.isDeleted
    show(theirs)
    editor.isDeleted = isDeleted
  }

  // MARK: - Notebook deletion

  mutating func requestDeletion(_ id: NotebookID) -> StepResult {
    guard let notebook = content.notebooks[id] else {
      return dispatch(.deleteNotebook(id, deletingNotes: false))
    }
    let count = content.notes.values.filter { $0.notebookID == id }.count
    guard count > 0 else { return dispatch(.deleteNotebook(id, deletingNotes: false)) }
    guard !confirmations.contains(where: { $0.notebook == id }) else { return .unchanged }
    confirmationCount += 1
    let notes = count == 1 ? "its note" : "its \(count) notes"
    confirmations.append(
      Confirmation(
        id: confirmationCount, notebook: id,
        // The title between U+2068 and U+2069: isolated from the question around it.
        message: "Delete \"\u{2068}\(notebook.title)\u{2069}\" and \(notes)?"))
    return .unchanged
  }

  /// The id an `answerDeletion(index, …)` step answers: a pending one if any.
  func confirmationID(_ index: Int) -> Int {
    confirmations.isEmpty ? index : confirmations[index % confirmations.count].id
  }

  mutating func answer(_ id: Int, confirmed: Bool) -> StepResult {
    guard let index = confirmations.firstIndex(where: { $0.id == id }) else { return .rejected }
    let confirmation = confirmations.remove(at: index)
    guard confirmed else { return .unchanged }
    return dispatch(.deleteNotebook(confirmation.notebook, deletingNotes: true))
  }

  // MARK: - Sync

  private mutating func writeSync(_ status: SyncStatus) {
    guard status != sync else { return }
    let before = content
    sync = status
    committed(from: before)
  }

  mutating func startSync() -> StepResult {
    guard !syncRunning else { return .started(false) }
    syncRunning = true
    syncCancelled = false
    syncStartedFrom = sync.lastSynced
    writeSync(.syncing(progress: 0, lastSynced: syncStartedFrom))
    return .started(true)
  }

  private mutating func endSync(_ status: SyncStatus) {
    syncRunning = false
    writeSync(syncCancelled ? .idle(lastSynced: syncStartedFrom) : status)
  }

  mutating func syncProgress(_ progress: Double) {
    guard syncRunning else { return }
    if syncCancelled {
      endSync(.idle(lastSynced: syncStartedFrom))
    } else {
      writeSync(.syncing(progress: min(max(progress, 0), 1), lastSynced: syncStartedFrom))
    }
  }

  mutating func finishSync(at date: Date) {
    guard syncRunning else { return }
    endSync(.idle(lastSynced: date))
  }

  mutating func failSync(_ message: String) {
    guard syncRunning else { return }
    endSync(.failed(message: message, lastSynced: syncStartedFrom))
  }

  mutating func cancelSync() {
    if syncRunning { syncCancelled = true }
  }

  // MARK: - Asynchronous commands

  mutating func trigger(_ policy: RunPolicy, _ op: ResolvedOp) -> StepResult {
    if policy == .rejectWhileRunning, hasActiveRun(policy) { return .rejected }
    if policy == .cancelPrevious { cancelRuns(policy) }
    let token = latestRun[policy, default: 0] + 1
    latestRun[policy] = token
    let started = policy != .queue || runs[policy, default: []].isEmpty
    runs[policy, default: []].append(Run(token: token, op: op, started: started))
    return .started(true)
  }

  /// Whether a run of `policy` that can still commit (not cancelled) is in flight.
  func hasActiveRun(_ policy: RunPolicy) -> Bool {
    runs[policy, default: []].contains { !$0.cancelled }
  }

  /// The position, among all runs of `policy`, of the `index`-th run not yet released.
  func unreleasedRun(_ policy: RunPolicy, _ index: Int) -> Int? {
    let open = runs[policy, default: []].indices.filter { runs[policy]![$0].succeeds == nil }
    return open.isEmpty ? nil : open[index % open.count]
  }

  mutating func release(_ policy: RunPolicy, run position: Int, succeeds: Bool) -> [StepResult] {
    runs[policy]![position].succeeds = succeeds
    var results: [StepResult] = []
    if policy == .queue {
      // A run at the head finishes once released; one cancelled before its turn never
      // starts its work and finishes as soon as the run before it has.
      while let first = runs[policy]?.first, first.succeeds != nil || !first.started {
        runs[policy]!.removeFirst()
        results.append(finish(policy, first))
        if let next = runs[policy]?.first, !next.cancelled { runs[policy]![0].started = true }
      }
    } else {
      results.append(finish(policy, runs[policy]!.remove(at: position)))
    }
    return results
  }

  private mutating func finish(_ policy: RunPolicy, _ run: Run) -> StepResult {
    if run.cancelled {
      return policy == .cancelPrevious && run.token != latestRun[policy] ? .superseded : .cancelled
    }
    return run.succeeds == true ? dispatch(run.op) : .failed(Self.asyncFailure)
  }

  mutating func cancelRuns(_ policy: RunPolicy) {
    for index in runs[policy, default: []].indices { runs[policy]![index].cancelled = true }
  }
}
