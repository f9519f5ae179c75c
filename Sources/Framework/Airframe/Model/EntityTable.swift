/// The entities of one kind in a model's state, by stable id.
///
/// A table is a value: it lives inside the app's state struct and changes only through a
/// ``Transaction`` inside ``Model/write(origin:_:)``, which records each change in the commit's
/// ``ChangeSet``.
///
/// - Complexity: Lookup, insertion, update and removal are O(1) on average.
public struct EntityTable<Element: Identifiable & Equatable>: Equatable {
  /// The entities by id.
  public private(set) var byID: [Element.ID: Element] = [:]

  /// Creates an empty table.
  public init() {}

  /// Creates a table holding `elements`.
  ///
  /// - Parameter elements: Entities with distinct ids; a later duplicate replaces an
  ///   earlier one.
  public init(_ elements: some Sequence<Element>) {
    byID.reserveCapacity(elements.underestimatedCount)
    for element in elements { byID[element.id] = element }
  }

  /// The entity with `id`, if present.
  public subscript(id: Element.ID) -> Element? { byID[id] }

  /// The number of entities.
  public var count: Int { byID.count }

  /// Whether an entity with `id` exists.
  public func contains(_ id: Element.ID) -> Bool { byID[id] != nil }

  /// The entities, in no particular order.
  public var elements: Dictionary<Element.ID, Element>.Values { byID.values }

  mutating func store(_ element: Element) { byID[element.id] = element }

  mutating func removeValue(for id: Element.ID) -> Element? { byID.removeValue(forKey: id) }
}

extension EntityTable: Sendable where Element: Sendable, Element.ID: Sendable {}
