/// The outcome of merging one entity.
public struct SyncMergeResult: Equatable, Sendable {
  /// What the library keeps: the merged fields, or `nil` if the entity stays deleted.
  public var fields: SyncFields?
  /// For a body conflict, the other device's version, to save as a new note beside it.
  public var conflictCopy: SyncFields?
  /// What the user should be told, one sentence each; empty when the merge was silent.
  public var notices: [String]

  /// Creates a result.
  ///
  /// - Parameters:
  ///   - fields: What the library keeps.
  ///   - conflictCopy: A conflict copy to save, if any.
  ///   - notices: What to tell the user.
  public init(fields: SyncFields?, conflictCopy: SyncFields? = nil, notices: [String] = []) {
    self.fields = fields
    self.conflictCopy = conflictCopy
    self.notices = notices
  }
}

/// The merge rules of sync.
///
/// They decide how a change made on this device and a change made elsewhere to the same entity
/// become one, without losing either.
///
/// ```swift
/// let result = SyncMerge.merge(.note, ancestor: base, local: mine, remote: theirs)
/// // result.fields: what the library keeps; result.conflictCopy: a note to add, if any
/// ```
///
/// ## Guarantees
///
/// - One side unchanged: if this device's version equals the ancestor (the last version the
///   server accepted that this device knows), the other device's version is taken whole, and
///   the other way round. Both sides equal: kept as is.
/// - Edit against delete: the edit wins and the entity stays (or comes back); a notice says
///   so. Both deleted: deleted.
/// - Both changed a note's body: the bodies are merged line by line against the ancestor
///   (`LineMerge`), and lines both changed again word by word. Changes to different lines,
///   or to different words of one line (an unchanged token between them), both survive.
///   Changes that overlap or touch, or that the word merge cannot prove clean, keep this
///   device's text in the note and return the other version as a conflict copy: a new note
///   beside it, titled "<title> (conflict copy)" (the title shortened to keep the title
///   limit), which the caller saves; a notice names it. A merged body past the body limit
///   is a conflict too: the merge never makes what the app's rules refuse.
/// - Both changed the title, the notebook or the pin: server order decides. The other
///   device's change is already on the server; this device's is pushed after it, so this
///   device's value wins — the last change the server accepts is the one that stays, on
///   every device. A losing title or notebook is named in a notice (a pin, true or false,
///   needs none).
/// - `modified` becomes the later of the two; `created` never changes.
/// - The merge is a pure function of its three inputs: every device that merges the same
///   versions gets the same result.
public enum SyncMerge {
  /// The suffix of a conflict copy's title.
  public static let conflictCopySuffix = " (conflict copy)"

  /// Merges this device's version and the other device's version of one entity.
  ///
  /// The rules are in the file's header: one side unchanged takes the other; an edit beats
  /// a delete; bodies merge line by line, then word by word, overlapping changes making a
  /// conflict copy; other fields changed on both sides take this device's value (last in
  /// server order).
  ///
  /// - Parameters:
  ///   - kind: Notebook or note.
  ///   - ancestor: The last version the server accepted that this device knows; `nil` if
  ///     it knows none (both sides are then treated as changes).
  ///   - local: This device's version, `nil` if deleted here.
  ///   - remote: The server's version, `nil` if deleted there.
  /// - Returns: What to keep, a conflict copy to add, and what to tell the user.
  public static func merge(
    _ kind: SyncEntityKind, ancestor: SyncFields?, local: SyncFields?, remote: SyncFields?
  ) -> SyncMergeResult {
    if local == remote { return SyncMergeResult(fields: local) }
    if local == ancestor { return SyncMergeResult(fields: remote) }
    if remote == ancestor { return SyncMergeResult(fields: local) }
    switch (local, remote) {
    case (nil, let remote?):
      return SyncMergeResult(
        fields: remote,
        notices: [
          "\(sentence(kind, remote.title)) was deleted here but changed on another device:"
            + " it is back."
        ])
    case (let local?, nil):
      return SyncMergeResult(
        fields: local,
        notices: [
          "\(sentence(kind, local.title)) was deleted on another device but changed here:"
            + " it is kept."
        ])
    case (let local?, let remote?):
      return mergeFields(kind, ancestor: ancestor, local: local, remote: remote)
    case (nil, nil):
      return SyncMergeResult(fields: nil)
    }
  }

  /// Both sides changed a live entity: field by field.
  private static func mergeFields(
    _ kind: SyncEntityKind, ancestor: SyncFields?, local: SyncFields, remote: SyncFields
  ) -> SyncMergeResult {
    var merged = local
    var notices: [String] = []
    var conflictCopy: SyncFields?
    let name = describe(kind, local.title)

    func pick<Value: Equatable>(
      _ field: WritableKeyPath<SyncFields, Value>, losing: (Value) -> String?
    ) {
      let mine = local[keyPath: field]
      let theirs = remote[keyPath: field]
      guard mine != theirs else { return }
      if let ancestor, mine == ancestor[keyPath: field] {
        merged[keyPath: field] = theirs
      } else if let ancestor, theirs == ancestor[keyPath: field] {
        merged[keyPath: field] = mine
      } else if let notice = losing(theirs) {
        notices.append(notice)
      }
    }

    pick(\.title) { "Another device renamed \(name) to “\($0)”; the name set here is kept." }
    pick(\.notebook) { _ in "Another device moved \(name) to another notebook; it stays here." }
    pick(\.isPinned) { _ in nil }
    merged.created = ancestor?.created ?? min(local.created, remote.created)
    merged.modified = max(local.modified, remote.modified)

    if kind == .note, local.body != remote.body {
      let base = ancestor?.body ?? ""
      if local.body == base {
        merged.body = remote.body
      } else if remote.body == base {
        merged.body = local.body
      } else {
        switch LineMerge.merge(ancestor: base, ours: local.body, theirs: remote.body) {
        case .merged(let text) where NotesRules.bodyIssues(text).isEmpty:
          merged.body = text
        case .merged, .conflict:
          // A merge the body rules refuse (both sides' additions together past the length
          // limit) is a conflict too: no device may hold a body a user could not type.
          var copy = remote
          copy.title = NotesRules.title(remote.title, endingWith: conflictCopySuffix)
          copy.notebook = merged.notebook
          copy.isPinned = false
          conflictCopy = copy
          notices.append(
            "\(sentence(kind, local.title)) was changed here and on another device in the same"
              + " lines: the other version is saved as “\(copy.title)”.")
        }
      }
    }
    return SyncMergeResult(fields: merged, conflictCopy: conflictCopy, notices: notices)
  }

  private static func describe(_ kind: SyncEntityKind, _ title: String) -> String {
    switch kind {
    case .note: "the note “\(title)”"
    case .notebook: "the notebook “\(title)”"
    }
  }

  private static func sentence(_ kind: SyncEntityKind, _ title: String) -> String {
    let text = describe(kind, title)
    return text.prefix(1).uppercased() + text.dropFirst()
  }
}
