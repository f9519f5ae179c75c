// LineDiff: a readable line diff of two values' dumps, for failure messages.

/// Builds a line-by-line difference of two values' `dump` output.
enum LineDiff {
  /// The lines that differ, with `−` for expected-only and `+` for actual-only lines, and a
  /// little context around each change.
  static func describe<Value>(expected: Value, actual: Value) -> String {
    var expectedDump = ""
    var actualDump = ""
    dump(expected, to: &expectedDump)
    dump(actual, to: &actualDump)
    return diff(
      expectedDump.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
      actualDump.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
  }

  /// A longest-common-subsequence diff; past 4,000 lines a side, it prints both dumps.
  static func diff(_ old: [String], _ new: [String]) -> String {
    guard old.count <= 4_000, new.count <= 4_000 else {
      return (old.map { "− " + $0 } + new.map { "+ " + $0 }).joined(separator: "\n")
    }
    var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        table[i][j] =
          old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var lines: [String] = []
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        lines.append("  " + old[i])
        i += 1
        j += 1
      } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
        lines.append("+ " + new[j])
        j += 1
      } else {
        lines.append("− " + old[i])
        i += 1
      }
    }
    return lines.joined(separator: "\n")
  }
}
