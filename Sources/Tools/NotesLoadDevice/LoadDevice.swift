import Airframe
import Foundation
import NotesCore
@_spi(Instrumentation) import NotesHost
import NotesPresentation
import NotesStorage

#if canImport(Glibc)
  import Glibc
#endif

/// The words by which the app says an edit was not made because of another writer.
enum NotesLoadDevice {
  /// The field of the issue by which `EditNoteBody` refuses an edit whose note changed
  /// since the text it was based on (`NotesRules.changedElsewhere`).
  static let changedElsewhere = "changed elsewhere"
  /// What a write that found the storage behind on each of its tries fails with
  /// (`Model.write`).
  static let writersKeptWriting = "other writers kept changing the storage"
}

/// One device of the load test.
///
/// One device of the sync load test — a library opened as the app opens it, edited as fast as the
/// main actor allows, watching for the other devices' edits.
///
/// ## Guarantees
///
/// - Only the app's own layers: the library is opened and started by `NotesLibrary` (the
///   watcher, the sync service and live sync, as `notes` runs them), every edit is an
///   `EditNoteBody` dispatched through the model's funnel with the text it was based on, as
///   the editor sends it, and what arrives from elsewhere is seen through the model's commit
///   notification, as every view sees it.
/// - Every edit puts one token on a line of its own: `~NAME.SEQ.MICROS`, the device's name,
///   a sequence number and the wall-clock time (microseconds since 1970) just before the
///   edit was dispatched. A token is logged (`edit TOKEN MICROS TITLE`, the time after the
///   commit returned) only once its commit returned, so every logged token is durable here.
///   Tokens are unique, and none is a prefix of another (the "." after each field).
/// - Own notes get tokens appended; shared notes get them inserted at a random line, so
///   concurrent edits of one note meet the merge: lines apart merge, a line both inserted at
///   becomes a conflict copy (which holds the other side's tokens).
/// - A token of another device is logged (`seen TOKEN MICROS`) the first time a commit from
///   another writer (sync, through the watcher) brings a note that holds it.
/// - A sync that fails is logged (`failed MICROS MESSAGE`): live sync then waits before it
///   tries again, which shows in the figures.
/// - The log is written one line a `write`, unbuffered: what is logged survives a kill.
@MainActor
final class LoadDevice {
  let arguments: LoadArguments
  private let log: Int32
  private var library: NotesLibrary?
  private var dispatcher: ActionDispatcher<NotesState>?
  private var commits: Lifetime?
  private var seen: Set<String> = []
  private var sequence: Int
  private var generator = SystemRandomNumberGenerator()
  /// Edits committed and logged.
  private(set) var edits = 0
  /// Edits refused because the note changed underneath (see ``edit()``).
  private(set) var refused = 0
  /// Edits the model could not save because sync kept committing to the file between its
  /// tries (see ``edit()``).
  private(set) var unsaved = 0
  /// Tokens of other devices seen arriving.
  var seenCount: Int { seen.count }

  /// Why the device stopped early.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init(_ arguments: LoadArguments) throws {
    self.arguments = arguments
    sequence = arguments.firstSequence - 1
    log = Glibc.open(arguments.log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard log >= 0 else { throw Failure(description: "cannot open the log \(arguments.log)") }
  }

  /// The open library's model.
  private var model: Model<NotesState> {
    guard let library else { preconditionFailure("the library is not open") }
    return library.model
  }

  /// Opens the library, with live sync or without (offline).
  func open(live: Bool) throws {
    let library = try NotesLibrary.open(path: arguments.library, samples: .never)
    self.library = library
    dispatcher = ActionDispatcher(model: library.model)
    // What the file holds already counts as seen now: sync may have written it after the
    // last notification of the model closed before.
    look(at: library.model.state.notes.elements)
    commits = library.model.observeCommits { [weak self] commit in
      if commit.changes.changed(\.sync), case .failed(let message, _) = commit.state.sync {
        self?.write("failed \(Self.micros()) \(message.replacing("\n", with: " "))")
      }
      if case .user = commit.origin { return }
      let changes = commit.changes.changes(in: \.notes)
      self?.look(at: changes.inserted.union(changes.updated).compactMap { commit.state.notes[$0] })
    }
    if live { library.start() }
  }

  /// Closes the library (as quitting the app does).
  func close() {
    commits?.cancel()
    commits = nil
    dispatcher = nil
    library?.close()
    library = nil
  }

  /// The time now, in microseconds since 1970.
  static func micros() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) }

  private func write(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(log, $0.baseAddress, $0.count) }
  }

  /// Logs each token of another device that `notes` hold and was not seen.
  private func look(at notes: some Collection<Note>) {
    guard !notes.isEmpty else { return }
    let now = Self.micros()
    let own = "~\(arguments.name)."
    for note in notes {
      for line in note.body.split(separator: "\n") where line.hasPrefix("~") && !line.hasPrefix(own)
      {
        let token = String(line)
        if seen.insert(token).inserted { write("seen \(token) \(now)") }
      }
    }
  }

  /// The note titled `title`, if the library has it.
  func note(titled title: String) -> Note? {
    model.state.notes.elements.first { $0.title == title }
  }

  /// The shared notes' titles.
  var sharedTitles: [String] { (1...arguments.shared).map { "Shared \($0)" } }
  /// This device's notes' titles.
  var ownTitles: [String] { (1...arguments.own).map { "\(arguments.name) note \($0)" } }

  /// Dispatches `action` through the model's funnel, as a user's gesture.
  private func dispatch(_ action: some Action<NotesState>) throws -> ActionOutcome {
    guard let dispatcher else { preconditionFailure("the library is not open") }
    let outcome = dispatcher.dispatch(action)
    guard outcome.isCommitted else { throw Failure(description: "not committed: \(outcome)") }
    return outcome
  }

  /// Creates this device's notebook and notes, unless the library has them.
  func createOwnNotes() throws {
    let title = "Device \(arguments.name)"
    if !model.state.notebooks.elements.contains(where: { $0.title == title }) {
      _ = try dispatch(CreateNotebook(title: title, now: Date()))
    }
    guard let notebook = model.state.notebooks.elements.first(where: { $0.title == title })
    else { throw Failure(description: "the notebook \(title) was not created") }
    for note in ownTitles where self.note(titled: note) == nil {
      _ = try dispatch(CreateNote(notebookID: notebook.id, title: note, now: Date()))
    }
  }

  /// Commits one edit: a token into one of the device's notes or a shared one; an edit the
  /// model refuses because the note changed underneath is counted in ``refused`` instead,
  /// one it could not save because sync kept writing in ``unsaved``.
  func edit() throws {
    let shared = Int.random(in: 0..<4, using: &generator) == 0
    let titles = shared ? sharedTitles : ownTitles
    let title = titles[Int.random(in: 0..<titles.count, using: &generator)]
    guard let note = note(titled: title) else { throw Failure(description: "no note \(title)") }
    sequence += 1
    let token = "~\(arguments.name).\(sequence).\(Self.micros())"
    var lines = note.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if note.body.isEmpty { lines = [] }
    let place = shared ? Int.random(in: 0...lines.count, using: &generator) : lines.count
    lines.insert(token, at: place)
    let edit = EditNoteBody(
      id: note.id, body: lines.joined(separator: "\n"), now: Date(), expectedBody: note.body)
    guard let dispatcher else { preconditionFailure("the library is not open") }
    let outcome = dispatcher.dispatch(edit)
    if case .invalid(let result) = outcome,
      result.issues.allSatisfy({ $0.field == NotesLoadDevice.changedElsewhere })
    {
      // Sync wrote the note between our read and the commit: the funnel caught up with the
      // file and the action, checked again, found the text it was based on gone. The editor
      // turns this into its conflict; here the edit is simply not made (nor logged).
      refused += 1
      return
    }
    if case .failed(let message) = outcome, message.contains(NotesLoadDevice.writersKeptWriting) {
      // The model caught up with the file and tried again, three times, and each time sync
      // had committed again in between: the write fails visibly and changes nothing. The
      // last try holds the write lock, so this should not happen; it is counted, and the
      // test requires none.
      unsaved += 1
      return
    }
    guard outcome.isCommitted else { throw Failure(description: "not committed: \(outcome)") }
    edits += 1
    write("edit \(token) \(Self.micros()) \(title)")
  }

  /// Creates the note that says this device has finished editing.
  func finish() throws {
    guard let notebook = note(titled: ownTitles[0])?.notebookID else {
      throw Failure(description: "the device's notes are gone")
    }
    _ = try dispatch(CreateNote(notebookID: notebook, title: "\(arguments.name) done", now: Date()))
  }

  /// The devices whose "done" note this library does not hold yet.
  var devicesNotDone: [String] {
    let titles = Set(model.state.notes.elements.map(\.title))
    return arguments.devices.filter { !titles.contains("\($0) done") }
  }

  /// Whether a sync runs (the session's status says so from the moment one starts).
  var isSyncing: Bool { library?.session.isSyncing ?? false }

  /// How many changes wait for the server.
  func pendingCount() throws -> Int {
    let store = try LibrarySyncStore(path: arguments.library)
    defer { store.close() }
    return try store.pendingCount()
  }
}
