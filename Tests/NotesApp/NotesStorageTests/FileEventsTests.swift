// The file watch under the library watcher: woken by the library's own files, never by the
// other files of its folder, and still by a library file made after it started.

import Airframe
import AirframeTesting
import Foundation
import NotesCore
import NotesTestSupport
import Testing

@testable import NotesStorage

@Suite(.noLiveBindings)
@MainActor
struct FileEventsTests {
  let now = Date(timeIntervalSinceReferenceDate: 1_000)

  /// Counts the watch's wake-ups that were about the library.
  final class Wakes {
    var count = 0
  }

  /// Waits until `wakes` counts more than `count`; `false` after a bound that only keeps a
  /// broken watch from hanging the test (a file event comes when the kernel sends it).
  func wake(after count: Int, of wakes: Wakes) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while wakes.count <= count, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return wakes.count > count
  }

  /// Many libraries in one folder (a hundred devices of the load test, or a user's folder
  /// of other files): each library's watch must not be woken by the others' writes.
  @Test func writesToTheFoldersOtherFilesWakeNothing() async throws {
    #if os(Linux)
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let path = folder.file("notes.sqlite")
      let writer = try LibraryProcess(path: path)
      defer { writer.close() }
      let neighbour = folder.file("neighbour.log")
      #expect(FileManager.default.createFile(atPath: neighbour, contents: nil))
      let wakes = Wakes()
      let events = try #require(FileEvents.start(path: path) { wakes.count += 1 })
      defer { events.cancel() }

      let handle = try #require(FileHandle(forWritingAtPath: neighbour))
      for line in 0..<200 { try handle.write(contentsOf: Data("line \(line)\n".utf8)) }
      try handle.close()
      // The library's own commit comes after them: once it woke the watch, the kernel has
      // delivered every event before it.
      #expect(writer.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).isCommitted)
      #expect(await wake(after: 0, of: wakes))
      #expect(events.unrelatedEvents == 0, "the neighbour's writes reached the watch")
    #endif
  }

  @Test func aLibraryMadeAfterTheWatchStartedIsWatched() async throws {
    #if os(Linux)
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let path = folder.file("notes.sqlite")
      let wakes = Wakes()
      let events = try #require(FileEvents.start(path: path) { wakes.count += 1 })
      defer { events.cancel() }
      // The database and its log are made now: the folder's watch sees them arrive.
      let a = try LibraryProcess(path: path)
      let b = try LibraryProcess(path: path)
      defer {
        a.close()
        b.close()
      }
      #expect(await wake(after: 0, of: wakes))
      // And their writes wake it from then on.
      try await Task.sleep(for: .milliseconds(50))
      let before = wakes.count
      #expect(a.dispatcher.dispatch(CreateNotebook(title: "Home", now: now)).isCommitted)
      #expect(await wake(after: before, of: wakes))
      #expect(try b.catchUp())
    #endif
  }
}
