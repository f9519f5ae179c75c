// What one load device is told to do, read from its command line.

import Foundation

/// The command line of `notes-load-device`.
///
/// ```
/// notes-load-device --library PATH --name NAME --log PATH --seconds S --devices A,B,...
///                   [--delay S] [--offline FROM:TO] [--own N] [--shared N] [--rate N]
///                   [--crash-after S] [--first-sequence N] [--deadline S]
/// ```
struct LoadArguments {
  /// The library file (set up for sync with `notes sync setup` beforehand).
  var library = ""
  /// This device's name: it prefixes its tokens and its notes' titles.
  var name = ""
  /// Where every committed edit and every token seen from another device is logged.
  var log = ""
  /// How long to edit.
  var seconds = 0.0
  /// Every device of the run, this one included: the device waits for each one's "done"
  /// note before it ends.
  var devices: [String] = []
  /// How long to wait before opening the library (a device that joins late).
  var delay = 0.0
  /// Seconds into the editing during which live sync is off (the library is open without
  /// it, as when the app runs with no network).
  var offline: ClosedRange<Double>?
  /// How many notes of its own the device edits.
  var own = 4
  /// How many shared notes ("Shared 1" …) the server holds before the run.
  var shared = 3
  /// Edits a second to aim for; 0 (the default) for as many as the device can commit.
  var rate = 0.0
  /// Seconds into the editing at which the process kills itself (SIGKILL, from another
  /// thread: at whatever point the main actor is), as a crash would end it.
  var crashAfter: Double?
  /// The first edit's sequence number: a device started again on its library continues
  /// past the numbers it used before, so its tokens stay unique.
  var firstSequence = 1
  /// After this many seconds the process ends with status 3 whatever it is doing.
  var deadline = 120.0

  static let usage = """
    usage: notes-load-device --library PATH --name NAME --log PATH --seconds S --devices A,B,...
                             [--delay S] [--offline FROM:TO] [--own N] [--shared N] [--rate N]
                             [--crash-after S] [--first-sequence N] [--deadline S]
    """

  /// A bad command line, with the reason.
  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  /// Reads `words` (the arguments after the program's name).
  ///
  /// - Throws: ``Invalid`` naming the first word that is wrong or the option missing.
  init(_ words: [String]) throws {
    var index = 0
    func value(_ option: String) throws -> String {
      index += 1
      guard index < words.count else { throw Invalid(description: "\(option) needs a value") }
      return words[index]
    }
    func number(_ option: String) throws -> Double {
      let text = try value(option)
      guard let number = Double(text), number >= 0, number.isFinite else {
        throw Invalid(description: "\(option) takes a number of seconds, not '\(text)'")
      }
      return number
    }
    func count(_ option: String) throws -> Int {
      let text = try value(option)
      guard let count = Int(text), count > 0 else {
        throw Invalid(description: "\(option) takes a positive count, not '\(text)'")
      }
      return count
    }
    while index < words.count {
      let option = words[index]
      switch option {
      case "--library": library = try value(option)
      case "--name": name = try value(option)
      case "--log": log = try value(option)
      case "--seconds": seconds = try number(option)
      case "--delay": delay = try number(option)
      case "--deadline": deadline = try number(option)
      case "--rate": rate = try number(option)
      case "--crash-after": crashAfter = try number(option)
      case "--first-sequence": firstSequence = try count(option)
      case "--own": own = try count(option)
      case "--shared": shared = try count(option)
      case "--devices":
        devices = try value(option).split(separator: ",").map(String.init)
      case "--offline":
        let text = try value(option)
        let bounds = text.split(separator: ":").compactMap { Double($0) }
        guard bounds.count == 2, bounds[0] >= 0, bounds[0] <= bounds[1] else {
          throw Invalid(description: "--offline takes FROM:TO in seconds, not '\(text)'")
        }
        offline = bounds[0]...bounds[1]
      default:
        throw Invalid(description: "unknown option '\(option)'")
      }
      index += 1
    }
    for (option, text) in [("--library", library), ("--name", name), ("--log", log)]
    where text.isEmpty {
      throw Invalid(description: "\(option) is missing")
    }
    guard name.allSatisfy({ $0.isLetter || $0.isNumber }) else {
      throw Invalid(description: "--name takes letters and digits only, not '\(name)'")
    }
    // Opening would create a missing library, one that no server was set up for.
    guard FileManager.default.fileExists(atPath: library) else {
      throw Invalid(description: "no library at \(library): set it up with `notes sync setup`")
    }
    guard devices.contains(name) else {
      throw Invalid(description: "--devices must name this device (\(name)) too")
    }
  }
}
