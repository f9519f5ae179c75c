/// Which rows a ``ListLens`` shows: a predicate over one row, part of the lens's view state.
///
/// ```swift
/// lens.filter = .search(searchText, in: \.title)          // case-insensitive substring
/// lens.filter = ListFilter { $0.notebookID == selectedNotebook }
/// ```
///
/// ## Guarantees
///
/// - A filter is a pure predicate over one row: the same row always gets the same answer,
///   so a lens can decide a changed row's membership from that row alone.
/// - `all` is recognised by the lens and costs no call per row.
/// - A filter made with a `key` keeps the same rows as every filter with an equal key (the
///   caller promises it); a lens may then show rows it computed for that key earlier,
///   while no commit has changed the table since. See ``ListLens`` for the reuse rule.
/// - A filter marked ``narrowing(_:reconsidering:)`` keeps no row that the filter with
///   that key leaves out, except rows whose ids it names (the caller promises it); a lens
///   showing that filter then checks only its listed rows and the named ones.
///
/// Search as you type is the case for both: each key narrows the previous search, and
/// each backspace returns to a search the lens has already computed.
///
/// ```swift
/// let previous = lens.filter
/// lens.filter = ListFilter(key: "tion") { $0.title.contains("tion") }
///   .narrowing("tio")  // "tion" keeps only rows that "tio" keeps
/// ```
public struct ListFilter<Row> {
  /// Returns `true` for a row the list shows; `nil` means every row.
  @usableFromInline let isIncluded: ((Row) -> Bool)?
  /// What the filter keeps, if the caller named it: equal keys keep equal rows.
  let key: AnyHashable?
  /// The key of a filter whose rows include this filter's, except the rows whose ids are
  /// `reconsidered` (an array of the rows' ids; `nil`: no exceptions).
  let narrowed: (key: AnyHashable, reconsidered: Any?)?

  /// Creates a filter from a predicate.
  ///
  /// - Parameter isIncluded: Returns `true` for rows to show; it must depend only on the
  ///   row (and on values captured when the filter was made).
  public init(_ isIncluded: @escaping (Row) -> Bool) {
    self.isIncluded = isIncluded
    key = nil
    narrowed = nil
  }

  /// Creates a filter from a predicate, named by what it keeps.
  ///
  /// - Parameters:
  ///   - key: Identifies the rows the filter keeps: every filter made with an equal key
  ///     must keep the same rows, so a lens can reuse rows it computed for it.
  ///   - isIncluded: Returns `true` for rows to show; it must depend only on the row.
  public init(key: some Hashable, _ isIncluded: @escaping (Row) -> Bool) {
    self.isIncluded = isIncluded
    self.key = AnyHashable(key)
    narrowed = nil
  }

  private init(all: Void) {
    self.isIncluded = nil
    key = nil
    narrowed = nil
  }

  private init(
    _ isIncluded: ((Row) -> Bool)?, key: AnyHashable?,
    narrowed: (key: AnyHashable, reconsidered: Any?)?
  ) {
    self.isIncluded = isIncluded
    self.key = key
    self.narrowed = narrowed
  }

  /// This filter, marked as keeping no row the filter named `key` leaves out.
  ///
  /// A lens that shows the filter named `key` then computes this one from its listed rows
  /// instead of from every row.
  ///
  /// - Parameter key: The key of the filter this one narrows.
  /// - Returns: The marked filter.
  public func narrowing(_ key: some Hashable) -> ListFilter {
    ListFilter(isIncluded, key: self.key, narrowed: (AnyHashable(key), nil))
  }

  /// The filter that shows every row.
  public static var all: ListFilter { ListFilter(all: ()) }

  /// Shows the rows whose `field` contains `text`, ignoring case; empty text shows all.
  ///
  /// - Parameters:
  ///   - text: The search text, such as a search field's contents.
  ///   - field: Reads the searched text from a row; a key path such as `\.title` works.
  /// - Returns: The filter.
  public static func search(_ text: String, in field: @escaping (Row) -> String) -> ListFilter {
    let needle = text.lowercased()
    guard !needle.isEmpty else { return .all }
    return ListFilter { field($0).lowercased().contains(needle) }
  }

  /// A filter that shows a row only if both this filter and `other` show it.
  ///
  /// The combined filter has no key (see ``init(key:_:)``) unless one of the two is `all`.
  ///
  /// - Parameter other: Another filter.
  /// - Returns: The combined filter.
  public func and(_ other: ListFilter) -> ListFilter {
    guard let first = isIncluded else { return other }
    guard let second = other.isIncluded else { return self }
    return ListFilter { first($0) && second($0) }
  }

  /// Whether the filter shows `row`.
  ///
  /// - Parameter row: A row.
  /// - Returns: `true` if the list shows it.
  public func includes(_ row: Row) -> Bool { isIncluded?(row) ?? true }
}

extension ListFilter where Row: Identifiable {
  /// This filter, marked as keeping no row the filter named `key` leaves out, except rows
  /// whose ids are in `reconsidered`.
  ///
  /// A lens that shows the filter named `key` then computes this one from its listed rows
  /// plus the rows named in `reconsidered` (ids of rows no longer in the table, or listed
  /// already, are skipped), instead of from every row. Naming the exceptions by id, rather
  /// than by a predicate, is what keeps the work proportional to the list: a predicate
  /// would have to be asked about every row of the table.
  ///
  /// - Parameters:
  ///   - key: The key of the filter this one narrows.
  ///   - reconsidered: Ids of rows the narrower filter may keep although the filter named
  ///     `key` leaves them out; more ids than needed are allowed, at one lookup each.
  /// - Returns: The marked filter.
  public func narrowing(_ key: some Hashable, reconsidering reconsidered: [Row.ID])
    -> ListFilter
  {
    ListFilter(
      isIncluded, key: self.key,
      narrowed: (AnyHashable(key), reconsidered.isEmpty ? nil : reconsidered))
  }
}
