// StyledScreen: the pane's text with each character's attributes (bold, dim, reverse,
// underline), read from `tmux capture-pane -e`, so a test can tell the selected row and the
// focused pane the way a user does, by their highlighting.

import Foundation

/// The attributes of one character on the screen.
struct TextStyle: OptionSet, Hashable, CustomStringConvertible {
  let rawValue: Int

  static let bold = TextStyle(rawValue: 1 << 0)
  static let dim = TextStyle(rawValue: 1 << 1)
  static let underline = TextStyle(rawValue: 1 << 2)
  static let reverse = TextStyle(rawValue: 1 << 3)

  /// Whether the style marks a selected row: reversed (in the focused pane) or bold.
  var isHighlighted: Bool { !isDisjoint(with: [.bold, .reverse]) }

  var description: String {
    let names: [(TextStyle, String)] = [
      (.bold, "bold"), (.dim, "dim"), (.underline, "underline"), (.reverse, "reverse"),
    ]
    let present = names.filter { contains($0.0) }.map(\.1)
    return present.isEmpty ? "plain" : present.joined(separator: "+")
  }
}

/// One character as drawn, with its attributes.
struct StyledCharacter: Equatable {
  /// The character.
  var character: Character
  /// Its attributes.
  var style: TextStyle
}

/// A run of styled characters: a row, or part of one.
struct StyledText: Equatable {
  /// The characters, left to right.
  var characters: [StyledCharacter]

  /// The plain text.
  var text: String { String(characters.map(\.character)) }

  /// The plain text without trailing spaces.
  var trimmedText: String {
    var text = text
    while text.last == " " { text.removeLast() }
    return text
  }

  /// The style of the first character (plain for an empty run).
  var firstStyle: TextStyle { characters.first?.style ?? [] }

  /// The run without its first `count` characters.
  func dropFirst(_ count: Int) -> StyledText {
    StyledText(characters: Array(characters.dropFirst(count)))
  }

  /// Splits the run at each character that satisfies `isSeparator`, dropping those.
  func split(where isSeparator: (StyledCharacter) -> Bool) -> [StyledText] {
    characters.split(omittingEmptySubsequences: false, whereSeparator: isSeparator)
      .map { StyledText(characters: Array($0)) }
  }

  /// Parses the rows `tmux capture-pane -p -e` prints.
  ///
  /// ## Guarantees
  ///
  /// - One row per pane row; each row holds the characters tmux reports, in order, each
  ///   with the attributes in effect where it is drawn. tmux carries attributes from one row
  ///   to the next in its output, and so does the parser.
  /// - Only SGR sequences (`ESC [ … m`) change attributes; colours are ignored, and any other
  ///   escape sequence is skipped.
  ///
  /// - Parameter output: What tmux printed.
  /// - Returns: One styled row per line.
  static func rows(fromCapture output: String) -> [StyledText] {
    var lines = output.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    var style = TextStyle()
    return lines.map { line in
      var characters: [StyledCharacter] = []
      var scalars = line.unicodeScalars[...]
      var pending = ""
      func flush() {
        characters += pending.map { StyledCharacter(character: $0, style: style) }
        pending = ""
      }
      while let scalar = scalars.popFirst() {
        guard scalar == "\u{1B}" else {
          pending.unicodeScalars.append(scalar)
          continue
        }
        flush()
        guard scalars.first == "[" else {
          scalars = scalars.dropFirst()
          continue
        }
        scalars = scalars.dropFirst()
        var parameters = ""
        while let next = scalars.first, !(0x40...0x7E).contains(next.value) {
          parameters.unicodeScalars.append(next)
          scalars = scalars.dropFirst()
        }
        let final = scalars.popFirst()
        if final == "m" { apply(parameters, to: &style) }
      }
      flush()
      return StyledText(characters: characters)
    }
  }

  /// Applies an SGR sequence's parameters to a style.
  private static func apply(_ parameters: String, to style: inout TextStyle) {
    let codes = parameters.split(separator: ";", omittingEmptySubsequences: false)
      .map { Int($0) ?? 0 }
    var index = codes.startIndex
    while index < codes.endIndex {
      switch codes[index] {
      case 0: style = []
      case 1: style.insert(.bold)
      case 2: style.insert(.dim)
      case 4: style.insert(.underline)
      case 7: style.insert(.reverse)
      case 22: style.subtract([.bold, .dim])
      case 24: style.remove(.underline)
      case 27: style.remove(.reverse)
      case 38, 48, 58:
        // An extended colour: 5;n or 2;r;g;b follow.
        if index + 1 < codes.endIndex { index += codes[index + 1] == 5 ? 2 : 4 }
      default: break
      }
      index += 1
    }
  }
}
