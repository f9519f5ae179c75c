// FirstWindow: figure D1 — a whole `notes-desktop-bench --first-window` process, from its
// start until its window's first frame is painted.

import CGtk
import Foundation
import NotesDesktopWindow
import NotesHost

/// One start of the program, measured from outside.
enum FirstWindow {
  /// Starts this program on `library` and waits for its first painted frame.
  ///
  /// - Parameter library: The library file.
  /// - Returns: Nanoseconds from starting the process until it reported the frame.
  /// - Throws: ``BenchError`` when the process fails.
  static func launch(library: String) throws -> UInt64 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--first-window", library]
    let output = Pipe()
    process.standardOutput = output
    let start = now()
    try process.run()
    // The child writes one line when its first frame is painted, then quits.
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let painted = now()
    process.waitUntilExit()
    guard process.terminationStatus == 0, String(decoding: line, as: UTF8.self).hasPrefix("painted")
    else {
      throw BenchError(
        "the first-window run ended with \(process.terminationStatus): "
          + String(decoding: line, as: UTF8.self))
    }
    return painted - start
  }

  /// The child's side: opens the library and a window, reports its first painted frame on
  /// standard output, and quits.
  ///
  /// - Parameter library: The library file.
  /// - Returns: The exit status.
  static func run(library: String) -> Int32 {
    let path = library
    return MainActor.assumeIsolated { () -> Int32 in
      let library: NotesLibrary
      do {
        library = try NotesLibrary.open(path: path, samples: .never)
      } catch {
        FileHandle.standardError.write(Data("cannot open the library: \(error)\n".utf8))
        return 74
      }
      let application = DesktopApplication(library: library)
      application.observer = WindowShown { window in
        guard let clock = gtk_widget_get_frame_clock(window.window) else { return }
        var reported = false
        Signal.connect(GPointer(clock), "after-paint") {
          guard !reported else { return }
          reported = true
          FileHandle.standardOutput.write(Data("painted\n".utf8))
          application.quit()
        }
      }
      return application.run()
    }
  }
}
