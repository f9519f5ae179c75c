// ConsistencyLog: with AIRFRAME_CONSISTENCY_LOG=PATH, the full-screen app checks after every key
// and every redraw that each View State Controller shows the model's revision and what a
// recomputation from the model gives, and appends one line per mismatch to PATH. The end-to-end
// tests set it and expect the file to stay empty; without the variable nothing is checked.

import Airframe
import Foundation
import NotesCore
import NotesPresentation
import NotesTerminalUI

/// A `ConsistencyCheck` over the app's View State Controllers that writes mismatches to a
/// file.
@MainActor
final class ConsistencyLog {
  private let check: ConsistencyCheck<NotesState>
  private let file: FileHandle

  /// The log named by `AIRFRAME_CONSISTENCY_LOG`, or `nil` when it is not set or the file
  /// cannot be created.
  init?(session: NotesSession, environment: [String: String]) {
    guard let path = environment["AIRFRAME_CONSISTENCY_LOG"], !path.isEmpty,
      FileManager.default.createFile(atPath: path, contents: nil),
      let file = FileHandle(forWritingAtPath: path)
    else { return nil }
    self.file = file
    check = session.makeConsistencyCheck()
    // Checked on demand, after each key and redraw: the check's own pass after every
    // commit would recompute every controller again with nobody reading its result.
    check.cancel()
  }

  /// Compares every controller with the model now and logs each one that disagrees.
  func verify(after step: String) {
    for mismatch in check.verify() {
      file.write(Data("after \(step): \(mismatch)\n".utf8))
    }
  }
}
