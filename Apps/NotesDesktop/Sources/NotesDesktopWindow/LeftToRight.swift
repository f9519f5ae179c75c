// LeftToRight: the direction of the window's own labels, whatever the user's text in them.

/// The left-to-right mark (U+200E): an invisible letter that reads left to right.
let leftToRightMark: Character = "\u{200E}"

/// `text`, a label the window composes around a user's text, laid out left to right as the
/// window's words read: each line that does not start with one of those words (an ASCII
/// letter) starts with a left-to-right mark.
///
/// The user's text in it is isolated (`BidiIsolation`), so it cannot reorder the words
/// around it; but Pango takes a line's direction from its first strong letter, even one
/// inside an isolate, so a line that starts with a title in Arabic or Hebrew ("دفتري  2",
/// a note's first line before its counts) would be laid out right to left as a whole, its
/// count on the wrong side and its counts split. The mark makes the first strong letter
/// the window's.
///
/// - Parameter text: A label's text; lines are separated by "\n".
/// - Returns: The text with a mark before each line that needs one.
func leftToRight(_ text: String) -> String {
  var result = ""
  result.reserveCapacity(text.utf8.count + 3)
  var atLineStart = true
  for character in text {
    if atLineStart, !(character.isASCII && character.isLetter) { result.append(leftToRightMark) }
    result.append(character)
    atLineStart = character == "\n"
  }
  return result
}
