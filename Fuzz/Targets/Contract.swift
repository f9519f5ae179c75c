// Contract checks for the fuzz targets: a broken contract is a crash libFuzzer reports,
// with the message on standard error and the input saved.

import Foundation

/// Stops the process with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

/// Stops the process with `message`; libFuzzer saves the input that caused it.
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("contract broken: \(message)\n".utf8))
  abort()
}
