import Foundation

/// The encoding of dates in one database file.
///
/// How a notes file's REAL date columns map to `Date`.
///
/// ## Guarantees
///
/// - From schema version 3 on, a column holds `timeIntervalSinceReferenceDate` (seconds
///   since 2001-01-01 UTC), the very `Double` a `Date` is made of, so every date reads back
///   equal to the one written. Earlier versions held seconds since 1970, which round to
///   about a quarter of a microsecond; only files being built for migration tests are still
///   written that way.
struct StoredDates {
  /// Seconds added to `timeIntervalSinceReferenceDate` to get the stored value.
  let offset: Double

  /// The encoding a file at `schemaVersion` uses.
  init(schemaVersion: Int32) {
    offset =
      schemaVersion >= Migration.storeDatesExactly.rawValue
      ? 0 : Date.timeIntervalBetween1970AndReferenceDate
  }

  /// The stored value of `date`.
  func value(_ date: Date) -> Double { date.timeIntervalSinceReferenceDate + offset }

  /// The date a stored value stands for.
  func date(_ value: Double) -> Date { Date(timeIntervalSinceReferenceDate: value - offset) }
}
