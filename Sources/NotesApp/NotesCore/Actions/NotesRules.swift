public import Airframe
import Foundation

/// The limits and rules of the Notes app's data.
///
/// ## Guarantees
///
/// - Titles: not empty once trimmed, at most `titleLimit` characters, no control characters,
///   and none of the characters that change how a title reads unseen (bidi controls,
///   invisible characters, noncharacters: `NoInvisibleCharacters`).
/// - Notebook titles are unique among notebooks, ignoring case and surrounding white space.
/// - Bodies: at most `bodyLimit` characters; newlines and tabs are allowed, other control
///   characters are not. Bidi controls, invisible characters and noncharacters are allowed
///   in bodies (a right-to-left document needs its marks); presentations draw them safely
///   (the terminal app draws each as a visible U+FFFD).
/// - A change based on a value another writer has replaced since (compare and set) is
///   refused with an issue in the `changed elsewhere` field.
/// - Every rule returns all its issues, each with a message naming the field.
public enum NotesRules {
  /// The longest title, in characters.
  public static let titleLimit = 200
  /// The longest note body, in characters.
  public static let bodyLimit = 1_000_000

  /// A title as stored: trimmed of surrounding white space.
  ///
  /// - Parameter title: What the user typed.
  /// - Returns: The normalized title.
  public static func normalizedTitle(_ title: String) -> String {
    // The same scalars as `trimmingCharacters(in: .whitespacesAndNewlines)`, without its
    // round trip through NSString on Linux, which was the largest single cost of importing
    // many notes (every title is normalized by its validation and by its action).
    let scalars = title.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSurroundingSpace($0) }),
      let last = scalars.lastIndex(where: { !isSurroundingSpace($0) })
    else { return "" }
    if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex {
      return title
    }
    return String(scalars[first...last])
  }

  /// Whether `scalar` is white space or a newline (`CharacterSet.whitespacesAndNewlines`).
  ///
  /// - Parameter scalar: A scalar at either end of a title.
  /// - Returns: `true` for white space, a newline or U+0085.
  private static func isSurroundingSpace(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value > 0x20, scalar.value < 0x7F { return false }
    return CharacterSet.whitespacesAndNewlines.contains(scalar)
  }

  /// The issues of a note or notebook title.
  ///
  /// - Parameters:
  ///   - title: The title, before normalization.
  ///   - field: The field name for messages, such as `"note title"`.
  /// - Returns: Every issue.
  public static func titleIssues(_ title: String, field: String) -> [ValidationIssue] {
    titleRules(field: field).issues(in: title)
  }

  /// The rules of a title.
  ///
  /// Emptiness and length are judged on the title as it would be stored (trimmed), so a title that
  /// trims to nothing, such as a lone U+200B, is refused rather than stored empty; control and
  /// invisible characters on what the user typed.
  ///
  /// - Parameter field: The field name for messages, such as `"note title"`.
  /// - Returns: The rules, in the order their issues are reported.
  public static func titleRules(field: String) -> ValidatorList<String> {
    ValidatorList {
      NonEmptyText(field: field).applied(to: normalizedTitle)
      MaximumLength(field: field, limit: titleLimit).applied(to: normalizedTitle)
      NoControlCharacters(field: field)
      NoInvisibleCharacters(field: field)
    }
  }

  /// `title` followed by `suffix`, the title shortened (by whole characters, trailing white
  /// space dropped) so the result keeps the title limit, as the names sync makes do ("Plan
  /// (conflict copy)", "Work 2").
  ///
  /// - Parameters:
  ///   - title: A valid, stored title.
  ///   - suffix: What to append, shorter than the limit.
  /// - Returns: A title of at most ``titleLimit`` characters ending with `suffix`.
  public static func title(_ title: String, endingWith suffix: String) -> String {
    let room = titleLimit - suffix.count
    guard title.count > room else { return title + suffix }
    return normalizedTitle(String(title.prefix(max(room, 0)))) + suffix
  }

  /// `title`, or the first of "title 2", "title 3", … that no notebook has, each number
  /// kept within the title limit by ``title(_:endingWith:)``.
  ///
  /// The one rule for a notebook title that must not clash: sync uses it when two
  /// notebooks on the server share a title and for the notebook it recovers notes into.
  /// Whether a title is taken is the caller's question (the library file's notebooks, for
  /// sync), asked with the same key as ``notebookTitleIssues(_:in:renaming:)``
  /// (``notebookTitleKey(_:)``).
  ///
  /// - Parameters:
  ///   - title: A valid, stored title.
  ///   - isTaken: Whether a notebook has a title whose ``notebookTitleKey(_:)`` is the
  ///     given key.
  /// - Returns: A title no notebook has.
  /// - Throws: What `isTaken` throws.
  public static func freeNotebookTitle<Failure: Error>(
    _ title: String, isTaken: (_ key: String) throws(Failure) -> Bool
  ) throws(Failure) -> String {
    guard try isTaken(notebookTitleKey(title)) else { return title }
    var number = 2
    while try isTaken(notebookTitleKey(self.title(title, endingWith: " \(number)"))) {
      number += 1
    }
    return self.title(title, endingWith: " \(number)")
  }

  /// The issues of a notebook title, including uniqueness among the other notebooks.
  ///
  /// - Parameters:
  ///   - title: The proposed title.
  ///   - state: The current state.
  ///   - renaming: The notebook being renamed, which may keep its own title.
  /// - Returns: Every issue.
  public static func notebookTitleIssues(
    _ title: String,
    in state: NotesState,
    renaming: NotebookID? = nil
  ) -> [ValidationIssue] {
    let others = state.notebooks.elements.filter { $0.id != renaming }.map(\.title)
    let unique = UniqueWithin(field: "notebook title", existing: others, key: notebookTitleKey)
    let issues = titleIssues(title, field: "notebook title")
    return issues.isEmpty ? unique.issues(in: normalizedTitle(title)) : issues
  }

  /// What makes two notebook titles the same: the title as stored, ignoring case.
  ///
  /// - Parameter title: A notebook title, as typed or stored.
  /// - Returns: The key under which notebook titles are unique.
  public static func notebookTitleKey(_ title: String) -> String {
    normalizedTitle(title).lowercased()
  }

  /// The issues of a note body.
  ///
  /// - Parameter body: The proposed body.
  /// - Returns: Every issue.
  public static func bodyIssues(_ body: String) -> [ValidationIssue] {
    var issues = MaximumLength(field: "note body", limit: bodyLimit).issues(in: body)
    if NoControlCharacters.containsControlCharacter(in: body, allowing: ["\n", "\t", "\r"]) {
      issues.append(
        ValidationIssue(
          field: "note body",
          message:
            "The note body must not contain control characters other than tabs and line breaks."
        ))
    }
    return issues
  }

  /// An issue if no notebook has `id`.
  static func notebookExists(_ id: NotebookID, in state: NotesState) -> [ValidationIssue] {
    state.notebooks.contains(id)
      ? [] : [ValidationIssue(field: "notebook", message: "There is no notebook with id \(id).")]
  }

  /// An issue if no note has `id`.
  static func noteExists(_ id: NoteID, in state: NotesState) -> [ValidationIssue] {
    state.notes.contains(id)
      ? [] : [ValidationIssue(field: "note", message: "There is no note with id \(id).")]
  }

  /// A reason to refuse a change based on a value another writer has changed since.
  ///
  /// - Parameters:
  ///   - id: The note.
  ///   - field: The note's field the change was based on.
  ///   - expected: The value it was based on; `nil` checks nothing.
  ///   - target: The value the change sets; a field that already holds it is no conflict.
  ///   - state: The current state.
  /// - Returns: One issue if the note exists and `field` is neither `expected` nor
  ///   `target`.
  static func unchangedElsewhere(
    _ id: NoteID, _ field: KeyPath<Note, String>, expected: String?, target: String,
    in state: NotesState
  ) -> [ValidationIssue] {
    // Already what the change would make it (this writer's own earlier step): no conflict.
    guard let expected, let note = state.notes[id], note[keyPath: field] != expected,
      note[keyPath: field] != target
    else { return [] }
    return [
      ValidationIssue(field: changedElsewhere) { user in
        "\"\(user(note.title))\" was changed elsewhere meanwhile."
      }
    ]
  }

  /// The field of the issue ``unchangedElsewhere(_:_:expected:target:in:)`` reports, so the
  /// editor can tell that refusal (a conflict) from invalid input.
  static let changedElsewhere = "changed elsewhere"

  /// The next unused id, recorded in the transaction.
  static func assignID(in transaction: inout Transaction<NotesState>) -> Int64 {
    let id = transaction.state.lastAssignedID + 1
    transaction.set(\.lastAssignedID, to: id)
    return id
  }
}
