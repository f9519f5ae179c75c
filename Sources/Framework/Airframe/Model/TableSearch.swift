import Foundation

/// Finds entity tables inside a value, so ``Transaction/set(_:to:)`` can refuse a value
/// whose rows it would otherwise change unrecorded.
///
/// The search walks the value's stored parts with `Mirror` (struct fields, tuple elements,
/// enum payloads, optionals, collection elements, class fields) and stops at the first
/// table. It never descends into a table, and skips the scalar types that cannot hold one.
/// A class graph with a cycle is walked once per object.
enum TableSearch {
  /// Whether `value` is an ``EntityTable`` or holds one anywhere inside.
  ///
  /// - Parameter value: A value about to be stored in the state.
  /// - Returns: `true` if a table was found.
  static func finds(in value: Any) -> Bool {
    var visited: Set<ObjectIdentifier> = []
    return finds(in: value, visited: &visited)
  }

  private static func finds(in value: Any, visited: inout Set<ObjectIdentifier>) -> Bool {
    if value is any RowReplacing { return true }
    if value is any TableFreeScalar { return false }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .class {
      let object = ObjectIdentifier(value as AnyObject)
      guard visited.insert(object).inserted else { return false }
    }
    var current: Mirror? = mirror
    while let level = current {
      for child in level.children where finds(in: child.value, visited: &visited) { return true }
      current = level.superclassMirror
    }
    return false
  }
}

/// A type whose values never contain an entity table, so the search skips them.
protocol TableFreeScalar {}

extension Bool: TableFreeScalar {}
extension Int: TableFreeScalar {}
extension Int8: TableFreeScalar {}
extension Int16: TableFreeScalar {}
extension Int32: TableFreeScalar {}
extension Int64: TableFreeScalar {}
extension UInt: TableFreeScalar {}
extension UInt8: TableFreeScalar {}
extension UInt16: TableFreeScalar {}
extension UInt32: TableFreeScalar {}
extension UInt64: TableFreeScalar {}
extension Double: TableFreeScalar {}
extension Float: TableFreeScalar {}
extension String: TableFreeScalar {}
extension Substring: TableFreeScalar {}
extension Character: TableFreeScalar {}
extension Date: TableFreeScalar {}
extension UUID: TableFreeScalar {}
extension Data: TableFreeScalar {}
extension URL: TableFreeScalar {}
