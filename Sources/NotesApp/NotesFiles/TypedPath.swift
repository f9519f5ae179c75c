import Foundation

/// A path a person typed into a prompt, read as a shell reads it.
public enum TypedPath {
  /// The path `typed` names: surrounding white space removed, and a leading `~/` (or a lone
  /// `~`) standing for the home folder (`HOME`; kept as typed where it is not set); `nil`
  /// when nothing was typed.
  ///
  /// - Parameter typed: The prompt's text.
  /// - Returns: The path, or `nil`.
  public static func resolved(_ typed: String) -> String? {
    let path = typed.trimmingCharacters(in: .whitespaces)
    guard !path.isEmpty else { return nil }
    // A typed `~` is a desktop shell's convention; an iOS app takes URLs from a picker.
    #if os(Linux) || os(macOS)
      guard path == "~" || path.hasPrefix("~/"),
        let home = ProcessInfo.processInfo.environment["HOME"]
      else { return path }
      return home + path.dropFirst()
    #else
      return path
    #endif
  }
}
