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
public struct ListFilter<Row> {
  /// Returns `true` for a row the list shows; `nil` means every row.
  @usableFromInline let isIncluded: ((Row) -> Bool)?

  /// Creates a filter from a predicate.
  ///
  /// - Parameter isIncluded: Returns `true` for rows to show; it must depend only on the
  ///   row (and on values captured when the filter was made).
  public init(_ isIncluded: @escaping (Row) -> Bool) {
    self.isIncluded = isIncluded
  }

  private init(all: Void) {
    self.isIncluded = nil
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
