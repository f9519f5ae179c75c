// Counts: numbers in messages, written as a person reads them.

/// How messages write a number of things: thousands grouped, the noun agreeing.
public enum Counts {
  /// `number` with thousands separated by commas: `20,001`.
  public static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index).isMultiple(of: 3) { result.append(",") }
      result.append(digit)
    }
    return number < 0 ? "-" + result : result
  }

  /// `number`, grouped, and `noun`, in the plural unless the number is 1: `1 change`,
  /// `20,001 changes`, `2 conflict copies`.
  public static func phrase(_ number: Int, _ noun: String) -> String {
    if number == 1 { return "1 \(noun)" }
    let plural = noun.hasSuffix("y") ? noun.dropLast() + "ies" : noun + "s"
    return "\(grouped(number)) \(plural)"
  }
}
