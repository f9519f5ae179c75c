// notes-load-device: one device of the sync load test. It opens a library set
// up for sync (`notes sync setup`) as the app does, with live sync, commits edits as fast
// as it can for a bounded time, logs each committed edit and each other device's edit it
// sees arrive, then says it is done and waits until every device has said so.
//
// Usage: see `LoadArguments.usage`. Steps:
// 1. After `--delay` seconds (a device that joins late), the library is opened and started
//    (`NotesLibrary`: watcher, live sync); the device waits for the shared notes the test
//    put on the server ("Shared 1" …) to arrive, and creates its notebook and notes.
// 2. For `--seconds` it commits edits (`LoadDevice.edit()`), yielding the main actor after
//    each so that live sync, the watcher and the commit notifications run between them
//    (with `--rate`, it sleeps between edits instead, aiming at that many a second).
//    During `--offline FROM:TO` the library is closed and reopened without live sync, and
//    at TO reopened with it: the edits made meanwhile wait as pending changes. With
//    `--crash-after S` the process kills itself S seconds in, wherever it is (the test
//    then starts it again on the same library with `--first-sequence`).
// 3. It waits until nothing is pending, creates the note "NAME done", then waits until the
//    library holds every device's "done" note and nothing is pending. A device makes no
//    change after its "done" note was accepted, so then the server holds every device's
//    final content and this library has pulled all of it.
// 4. It prints `edits N refused R unsaved U seen M` and exits 0.
//
// Every wait is bounded: a step that does not finish in time ends the program with status
// 1 and the reason on standard error; past `--deadline` seconds it ends with status 3
// whatever it is doing, so a test never waits on a hung device. A bad command line exits
// 64 with the usage.

import Foundation
import NotesCore

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `message` to standard error.
func complain(_ message: String) {
  FileHandle.standardError.write(Data("notes-load-device: \(message)\n".utf8))
}

/// Waits, checking every 50 ms, until `condition` holds or `timeout` passes.
///
/// The conditions are other processes' work (the server, the other devices) arriving here,
/// which no notification of this process announces as a whole, so this polls; between
/// checks the main actor runs sync, the watcher and the commit notifications. Not more
/// often: a check reads the library (the changes pending) and every note's title, and a
/// hundred devices checking every few milliseconds would take the cores the syncs need.
///
/// - Returns: Whether `condition` held in time.
@MainActor
func wait(upTo timeout: Duration, until condition: () throws -> Bool) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try condition() { return true }
    try? await Task.sleep(for: .milliseconds(50))
  }
  return try condition()
}

@MainActor
func run(_ arguments: LoadArguments) async throws {
  let settle = Duration.seconds(max(60, arguments.deadline / 2))
  if arguments.delay > 0 { try await Task.sleep(for: .seconds(arguments.delay)) }
  let device = try LoadDevice(arguments)
  // A device started again in its offline window opens its library offline.
  var isOnline = !(arguments.offline?.contains(0) ?? false)
  try device.open(live: isOnline)
  defer { device.close() }
  let arrived = await wait(upTo: settle) {
    device.sharedTitles.allSatisfy { device.note(titled: $0) != nil }
  }
  guard arrived else { throw LoadDevice.Failure(description: "the shared notes never arrived") }
  try device.createOwnNotes()

  let clock = ContinuousClock()
  let start = clock.now
  if let crashAfter = arguments.crashAfter {
    DispatchQueue.global().asyncAfter(deadline: .now() + crashAfter) {
      _ = kill(getpid(), SIGKILL)
    }
  }
  let end = start + .seconds(arguments.seconds)
  while clock.now < end {
    if let offline = arguments.offline {
      let elapsed = (clock.now - start) / .seconds(1)
      let shouldBeOnline = !offline.contains(elapsed)
      if shouldBeOnline != isOnline {
        device.close()
        try device.open(live: shouldBeOnline)
        isOnline = shouldBeOnline
      }
    }
    try device.edit()
    if arguments.rate > 0 {
      try await Task.sleep(for: .seconds(1 / arguments.rate))
    } else {
      await Task.yield()
    }
  }
  if !isOnline {
    device.close()
    try device.open(live: true)
  }

  // Everything edited here reaches the server first: from then on this library makes no
  // change of its own (a pull into a library with nothing pending takes the server's
  // versions as they are), so once the "done" note is accepted the server holds this
  // device's final content. Not while a sync runs: between dropping a refused change and
  // saving its merge, nothing is pending for a moment.
  let pushed = try await wait(upTo: settle) {
    guard !device.isSyncing else { return false }
    return try device.pendingCount() == 0
  }
  guard pushed else {
    throw LoadDevice.Failure(description: "\(try device.pendingCount()) changes never pushed")
  }
  try device.finish()
  let settled = try await wait(upTo: settle) {
    guard device.devicesNotDone.isEmpty else { return false }
    return try device.pendingCount() == 0
  }
  guard settled else {
    throw LoadDevice.Failure(
      description: "not settled: no done note from \(device.devicesNotDone),"
        + " \(try device.pendingCount()) changes pending")
  }
  print(
    "edits \(device.edits) refused \(device.refused) unsaved \(device.unsaved)"
      + " seen \(device.seenCount)")
}

let arguments: LoadArguments
do {
  arguments = try LoadArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
  complain("\(error)")
  FileHandle.standardError.write(Data((LoadArguments.usage + "\n").utf8))
  exit(64)
}
// The last word on time: whatever the main actor is doing (or stuck in), the process ends.
DispatchQueue.global().asyncAfter(deadline: .now() + arguments.deadline) {
  complain("still running after \(arguments.deadline) s: stopped")
  _exit(3)
}
do {
  try await run(arguments)
  exit(0)
} catch {
  complain("\(error)")
  exit(1)
}
