public import Airframe
public import Foundation

/// The sample notebooks and notes of a new library.
///
/// ## Guarantees
///
/// - Deterministic for a given date: the same ids, titles and bodies every time, so the
///   first screen of a new database is the same on every machine.
/// - Valid under `NotesRules`: every title and body passes the actions' validators, and
///   notebook titles are unique.
public enum SampleLibrary {
  /// A state holding the sample notebooks and notes.
  ///
  /// Three notebooks ("Home", "Ideas", "Work") and six notes; one note is pinned.
  ///
  /// - Parameter now: The creation date of every sample; notes are a minute apart.
  /// - Returns: The sample state.
  public static func state(now: Date) -> NotesState {
    let home = Notebook(id: NotebookID(rawValue: 1), title: "Home", created: now)
    let ideas = Notebook(id: NotebookID(rawValue: 2), title: "Ideas", created: now)
    let work = Notebook(id: NotebookID(rawValue: 3), title: "Work", created: now)
    let samples: [(NotebookID, String, String, Bool)] = [
      (work.id, "Welcome to Notes", welcome, true),
      (work.id, "Meeting agenda", "1. Status\n2. Release plan\n3. Questions", false),
      (home.id, "Groceries", "Milk\nEggs\nCoffee beans\nTomatoes", false),
      (home.id, "Weekend", "Fix the bike, call Anna.", false),
      (ideas.id, "Book list", "Dune\nThe Left Hand of Darkness\n三体", false),
      (ideas.id, "App ideas", "A terminal notes app where every pane agrees.", false),
    ]
    var notes: [Note] = []
    for (index, sample) in samples.enumerated() {
      let date = now.addingTimeInterval(Double(index - samples.count) * 60)
      notes.append(
        Note(
          id: NoteID(rawValue: Int64(index + 4)), notebookID: sample.0, title: sample.1,
          body: sample.2, created: date, modified: date, isPinned: sample.3))
    }
    return NotesState(notebooks: [home, ideas, work], notes: notes)
  }

  /// Adds the samples to an empty library, in one commit that is not undoable.
  ///
  /// - Parameters:
  ///   - model: The library's model; it should have no notebooks and no notes.
  ///   - now: The creation date of every sample.
  /// - Throws: What the model's storage throws; nothing is added then.
  @MainActor
  public static func add(to model: Model<NotesState>, now: Date) throws {
    let samples = state(now: now)
    try model.write(origin: .background("sample library")) { transaction in
      for notebook in samples.notebooks.elements {
        try transaction.insert(notebook, into: \.notebooks)
      }
      for note in samples.notes.elements { try transaction.insert(note, into: \.notes) }
      transaction.set(\.lastAssignedID, to: samples.lastAssignedID)
    }
  }

  private static let welcome = """
    Notes keeps notebooks and notes in one SQLite file.
    In the terminal: Tab moves between panes, ? lists every key, : opens the command palette.
    In the window: Ctrl-K or F1 opens the command palette.
    """
}
