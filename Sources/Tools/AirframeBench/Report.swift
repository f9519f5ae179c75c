// Report: prints the measured figures, as a readable table or as JSON lines.
//
// Every row of every figure becomes one JSON object on its own line, with at least `benchmark`,
// `subject`, `ns_per_op` (median), `min_ns_per_op`, `p90_ns_per_op`, `operations` (operations per
// timed run), `repetitions` and `median_of`, plus the figure's ratios (`ratio_to_baseline`,
// `ratio_100k_to_1k`, each also as the ratio of the fastest runs, `min_ratio_…`) and, for the
// memory figure, `bytes_per_subscription`. The JSON is written by hand: the package does not depend
// on Foundation.

/// A JSON scalar.
enum JSONValue {
  case int(Int)
  case double(Double)
  case string(String)
  case bool(Bool)

  var json: String {
    switch self {
    case .int(let value): String(value)
    case .double(let value): value.isFinite ? formatted(value, digits: 3) : "null"
    case .bool(let value): value ? "true" : "false"
    case .string(let value): jsonQuoted(value)
    }
  }
}

/// One subject's result in a figure.
struct Row {
  /// The figure's machine-readable name, such as `fan-out` or `churn-100k`.
  var benchmark: String
  var subject: String
  /// Operations per timed run.
  var operations: Int
  var repetitions: Int
  /// Nanoseconds per operation.
  var time: Stats
  /// Bytes per subscription, for the memory figure.
  var bytes: Stats? = nil
  /// This subject's median divided by the baseline's median.
  var ratioToBaseline: Double? = nil
  /// More JSON fields, in order.
  var extras: [(key: String, value: JSONValue)] = []
  /// The table's last column.
  var comment = ""
}

/// A numbered figure: a title, its rows and the lines printed under them.
struct Figure {
  enum Kind {
    /// Rows are timed: the table shows ns per operation.
    case time(unit: String)
    /// Rows are timed; the table shows them in a larger unit, such as ms per load (the
    /// JSON keeps nanoseconds).
    case scaledTime(unit: String, nanosecondsPerUnit: Double)
    /// Rows are measured in bytes per subscription and ns per subscription.
    case memory
  }

  var number: Int
  var title: String
  var kind: Kind
  var rows: [Row] = []
  /// Targets and warnings, printed under the rows.
  var notes: [String] = []
}

/// Prints figures in the chosen format.
struct Reporter {
  var json: Bool

  func header(repetitions: Int, budgetSeconds: Double?, quick: Bool, build: String) {
    guard !json else { return }
    print("airframe-bench: \(build) build\(quick ? ", --quick" : "")")
    print(
      "Each subject: 1 warm-up run, then \(repetitions) timed run(s), interleaved with the"
        + " other subjects of its figure; median shown.")
    if let budgetSeconds {
      print(
        "A figure whose \(repetitions) rounds would take over"
          + " \(formatted(budgetSeconds, digits: 0)) s takes fewer (at least 3) and says so.")
    }
  }

  func emit(_ figure: Figure) {
    if json {
      for row in figure.rows { print(jsonLine(row)) }
    } else {
      print(table(figure))
    }
  }

  private func jsonLine(_ row: Row) -> String {
    var fields: [(String, JSONValue)] = [
      ("benchmark", .string(row.benchmark)),
      ("subject", .string(row.subject)),
      ("ns_per_op", .double(row.time.median)),
      ("min_ns_per_op", .double(row.time.min)),
      ("p90_ns_per_op", .double(row.time.p90)),
      ("operations", .int(row.operations)),
      ("repetitions", .int(row.repetitions)),
      ("median_of", .int(row.time.samples.count)),
      ("warmup_runs", .int(1)),
    ]
    if let bytes = row.bytes {
      fields.append(("bytes_per_subscription", .double(bytes.median)))
      fields.append(("min_bytes_per_subscription", .double(bytes.min)))
      fields.append(("p90_bytes_per_subscription", .double(bytes.p90)))
    }
    if let ratio = row.ratioToBaseline { fields.append(("ratio_to_baseline", .double(ratio))) }
    fields += row.extras.map { ($0.key, $0.value) }
    return "{" + fields.map { "\(jsonQuoted($0.0)):\($0.1.json)" }.joined(separator: ",") + "}"
  }

  private func table(_ figure: Figure) -> String {
    var lines = ["", "\(figure.number). \(figure.title)"]
    let subjectWidth = max(34, figure.rows.map(\.subject.count).max() ?? 0)
    let headers: [String]
    let cells: [[String]]
    switch figure.kind {
    case .time(let unit):
      headers = [unit, "min", "p90", ""]
      cells = figure.rows.map { row in
        [row.time.median, row.time.min, row.time.p90].map { formatted($0, digits: 2) }
          + [row.comment]
      }
    case .scaledTime(let unit, let nanosecondsPerUnit):
      headers = [unit, "min", "p90", ""]
      cells = figure.rows.map { row in
        [row.time.median, row.time.min, row.time.p90].map {
          formatted($0 / nanosecondsPerUnit, digits: 2)
        } + [row.comment]
      }
    case .memory:
      headers = ["bytes/sub", "min", "p90", "ns/sub", ""]
      cells = figure.rows.map { row in
        let bytes = row.bytes ?? Stats(samples: [.nan])
        return [bytes.median, bytes.min, bytes.p90].map { formatted($0, digits: 1) }
          + [formatted(row.time.median, digits: 1), row.comment]
      }
    }
    let widths = headers.indices.map { column in
      max(headers[column].count, cells.map { $0[column].count }.max() ?? 0, 9)
    }
    func line(_ subject: String, _ values: [String]) -> String {
      var text = "   " + pad(subject, subjectWidth, right: false)
      for (column, value) in values.enumerated() {
        let isLast = column == values.count - 1
        text += "  " + (isLast ? value : pad(value, widths[column], right: true))
      }
      return text
    }
    lines.append(line("subject", headers))
    for (row, rowCells) in zip(figure.rows, cells) { lines.append(line(row.subject, rowCells)) }
    lines += figure.notes.map { "   " + $0 }
    return lines.map { trimmedTrailingSpaces($0) }.joined(separator: "\n")
  }
}

/// `value` with exactly `digits` decimals (no Foundation `String(format:)`).
func formatted(_ value: Double, digits: Int) -> String {
  guard value.isFinite else { return value.isNaN ? "n/a" : (value < 0 ? "-inf" : "inf") }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = (abs(value) * scale).rounded()
  guard scaled < 9e18 else { return String(value) }
  let integer = Int(scaled)
  let sign = value < 0 && integer != 0 ? "-" : ""
  let whole = String(integer / Int(scale))
  guard digits > 0 else { return sign + whole }
  let fraction = String(integer % Int(scale))
  return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}

/// `value` formatted as a ratio such as `1.23×`.
func ratioText(_ value: Double) -> String { formatted(value, digits: 2) + "×" }

/// `count` with thousands separators, such as `1,000,000`.
func grouped(_ count: Int) -> String {
  let digits = Array(String(count))
  var text = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index).isMultiple(of: 3) { text += "," }
    text.append(digit)
  }
  return text
}

private func pad(_ text: String, _ width: Int, right: Bool) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return right ? padding + text : text + padding
}

private func trimmedTrailingSpaces(_ text: String) -> String {
  var text = text
  while text.last == " " { text.removeLast() }
  return text
}

private func jsonQuoted(_ text: String) -> String {
  var quoted = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": quoted += "\\\""
    case "\\": quoted += "\\\\"
    case "\n": quoted += "\\n"
    case "\t": quoted += "\\t"
    case "\r": quoted += "\\r"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        quoted.unicodeScalars.append(scalar)
      }
    }
  }
  return quoted + "\""
}
