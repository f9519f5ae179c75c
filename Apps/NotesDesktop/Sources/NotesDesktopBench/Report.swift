// Report: figures as a table (default) or one JSON object per line (`--json`).

import Foundation

/// Samples of one measured path, in nanoseconds.
struct Samples {
  var values: [UInt64] = []

  mutating func append(_ nanoseconds: UInt64) { values.append(nanoseconds) }

  /// The nearest-rank percentile `fraction` (0.5 is the median), in milliseconds.
  func percentile(_ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
    return Double(sorted[min(rank, sorted.count) - 1]) / 1_000_000
  }

  var minimum: Double { Double(values.min() ?? 0) / 1_000_000 }
  var maximum: Double { Double(values.max() ?? 0) / 1_000_000 }
}

/// One row of the report.
struct Row: Codable {
  var figure: String
  var path: String
  var samples: Int
  var medianMilliseconds: Double
  var p99Milliseconds: Double
  var minMilliseconds: Double
  var maxMilliseconds: Double
  var target: String?
  var met: Bool?

  init(_ figure: String, _ path: String, _ samples: Samples, target: (String, Double)? = nil) {
    self.figure = figure
    self.path = path
    self.samples = samples.values.count
    medianMilliseconds = samples.percentile(0.5)
    p99Milliseconds = samples.percentile(0.99)
    minMilliseconds = samples.minimum
    maxMilliseconds = samples.maximum
    if let (text, bound) = target {
      self.target = text
      met = (text.hasPrefix("p99") ? p99Milliseconds : medianMilliseconds) <= bound
    }
  }
}

/// Prints rows as they come.
struct Reporter {
  var json: Bool

  func emit(_ row: Row) {
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      if let data = try? encoder.encode(row) { write(String(decoding: data, as: UTF8.self)) }
    } else {
      let target = row.target.map { "  target \($0): \(row.met == true ? "met" : "missed")" } ?? ""
      write(
        "\(row.figure) · \(row.path): median \(format(row.medianMilliseconds)) ms, "
          + "p99 \(format(row.p99Milliseconds)) ms (min \(format(row.minMilliseconds)), "
          + "max \(format(row.maxMilliseconds)), \(row.samples) samples)\(target)")
    }
  }

  func note(_ text: String) {
    if !json { write(text) }
  }

  /// Writes a line to standard output at once (no buffer between the figures and a pipe).
  private func write(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  private func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// Nanoseconds on the monotonic clock.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
