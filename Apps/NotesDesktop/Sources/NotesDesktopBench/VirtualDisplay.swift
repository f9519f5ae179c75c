// VirtualDisplay: an X server of the benchmark's own (Xvfb) when no display is set.

import Foundation

/// An Xvfb the benchmark started.
final class VirtualDisplay {
  private let process: Process

  private init(process: Process) { self.process = process }

  /// Starts Xvfb on a free display and sets `DISPLAY`, unless `DISPLAY` is set already.
  ///
  /// - Returns: The display started, or `nil` when one was set.
  /// - Throws: ``BenchError`` when Xvfb is missing or does not start.
  static func ensure() throws -> VirtualDisplay? {
    if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty {
      return nil
    }
    guard
      let number = (90..<190).first(where: {
        !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)")
          && !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock")
      })
    else { throw BenchError("no free X display number") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
    process.arguments = [":\(number)", "-screen", "0", "1280x800x24", "-nolisten", "tcp"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw BenchError("Xvfb could not start (apt-get install xvfb): \(error)")
    }
    for _ in 0..<250 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
      usleep(20_000)
    }
    setenv("DISPLAY", ":\(number)", 1)
    return VirtualDisplay(process: process)
  }

  /// Stops the server.
  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}
