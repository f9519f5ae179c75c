import Foundation

/// Exact ISO 8601 dates.
///
/// Dates as ISO 8601 text that reads back as the very `Date` written, for the front matter of
/// Markdown exports.
///
/// ## Guarantees
///
/// - `format` writes UTC, "2024-05-01T09:30:00.250Z", with at least three fractional digits
///   and as many more as the date needs: `parse(format(date)) == date` for every date the
///   library stores (SQLite keeps the `Date`'s own `Double`, so milliseconds would not do).
/// - `parse` reads the same, and also what people write by hand: a date alone
///   ("2024-05-01"), a time without seconds, a space instead of `T`, any number of
///   fractional digits, and `Z`, `±HH:MM` or `±HHMM` (no zone: UTC). It never consults the
///   calendar settings of the machine.
enum ExactDates {
  /// Seconds from 1970 to 2001, `Date`'s reference date.
  private static let referenceOffset: Int64 = 978_307_200

  /// `date` in UTC, with the fractional digits it needs to read back exactly.
  static func format(_ date: Date) -> String {
    let value = date.timeIntervalSinceReferenceDate
    guard value.isFinite else { return format(Date(timeIntervalSinceReferenceDate: 0)) }
    let whole = value.rounded(.down)
    let fraction = value - whole  // exact: both are doubles within a factor of two
    let seconds = Int64(whole) + referenceOffset
    let (days, secondOfDay) = floorDivision(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    let prefix =
      String(format: "%04lld-%02lld-%02lldT", year, month, day)
      + String(
        format: "%02lld:%02lld:%02lld", secondOfDay / 3600, secondOfDay / 60 % 60,
        secondOfDay % 60)
    var digits = "000"
    for count in 3...60 {
      let text = String(format: "%.*f", Int32(count), fraction)
      guard text.hasPrefix("0.") else { continue }  // rounded up to 1: more digits
      digits = String(text.dropFirst(2))
      if whole + (Double("0." + digits) ?? 0) == value { break }
    }
    return prefix + "." + digits + "Z"
  }

  /// The date `text` names, or `nil` if it is not one of the accepted forms.
  static func parse(_ text: String) -> Date? {
    var scanner = Scanner(Array(text.utf8))
    guard let year = scanner.number(minDigits: 4, maxDigits: 6), scanner.take("-"),
      let month = scanner.number(digits: 2), scanner.take("-"),
      let day = scanner.number(digits: 2), (1...12).contains(month),
      (1...daysIn(month: month, year: year)).contains(day)
    else { return nil }
    var seconds = (days(fromYear: year, month: month, day: day)) * 86_400
    var fraction = ""
    if scanner.take("T") || scanner.take("t") || scanner.take(" ") {
      guard let hour = scanner.number(digits: 2), scanner.take(":"),
        let minute = scanner.number(digits: 2), hour < 24, minute < 60
      else { return nil }
      var second: Int64 = 0
      if scanner.take(":") {
        guard let value = scanner.number(digits: 2), value < 60 else { return nil }
        second = value
        if scanner.take(".") || scanner.take(",") {
          fraction = scanner.digits()
          guard !fraction.isEmpty else { return nil }
        }
      }
      seconds += hour * 3600 + minute * 60 + second
      if scanner.take("Z") || scanner.take("z") {
      } else if let sign = scanner.sign() {
        guard let hours = scanner.number(digits: 2), hours < 24 else { return nil }
        _ = scanner.take(":")
        guard let minutes = scanner.number(digits: 2), minutes < 60 else { return nil }
        seconds -= sign * (hours * 3600 + minutes * 60)
      }
    }
    guard scanner.atEnd else { return nil }
    let whole = Double(seconds - referenceOffset)
    let part = fraction.isEmpty ? 0 : (Double("0." + fraction) ?? 0)
    return Date(timeIntervalSinceReferenceDate: whole + part)
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date, by Howard Hinnant's algorithm.
  private static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
    let shifted = month <= 2 ? year - 1 : year
    let era = floorDivision(shifted, 400).quotient
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day counted from 1970-01-01.
  private static func civil(fromDays count: Int64) -> (Int64, Int64, Int64) {
    let shifted = count + 719_468
    let era = floorDivision(shifted, 146_097).quotient
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
    var (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
    if remainder < 0 {
      quotient -= 1
      remainder += b
    }
    return (quotient, remainder)
  }

  /// Reads ASCII fields from the front of some bytes.
  private struct Scanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    /// Consumes `character` if it comes next.
    mutating func take(_ character: Unicode.Scalar) -> Bool {
      guard position < bytes.count, bytes[position] == UInt8(ascii: character) else {
        return false
      }
      position += 1
      return true
    }

    /// Consumes a `+` or `-` and returns 1 or -1.
    mutating func sign() -> Int64? {
      if take("+") { return 1 }
      if take("-") { return -1 }
      return nil
    }

    /// Consumes the ASCII digits that come next, at most `limit` of them.
    mutating func digits(limit: Int = .max) -> String {
      let start = position
      while position < bytes.count, position - start < limit,
        (0x30...0x39).contains(bytes[position])
      {
        position += 1
      }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Consumes exactly `digits` digits as a number.
    mutating func number(digits count: Int) -> Int64? {
      number(minDigits: count, maxDigits: count)
    }

    /// Consumes between `minDigits` and `maxDigits` digits as a number.
    mutating func number(minDigits: Int, maxDigits: Int) -> Int64? {
      let start = position
      let text = digits(limit: maxDigits)
      guard text.count >= minDigits else {
        position = start
        return nil
      }
      return Int64(text)
    }
  }
}
