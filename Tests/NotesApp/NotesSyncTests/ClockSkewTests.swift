// Clock skew between devices does not change what sync merges to. Devices stamp dates and
// make time-ordered uids by their own clocks; a clock hours ahead or behind must leave the
// merged libraries exactly as they are with every clock right (dates aside: each records
// the clock of the device that wrote it).
//
// Where a date enters a merge (SyncMerge, LibrarySyncStore): a merged note's `modified` is
// the later of the two and its `created` the ancestor's (dates only, never a choice of
// content); a conflict copy and a notebook brought back are stamped by the merging
// device's clock (dates only); two same-named notebooks are joined when one never reached
// the server (no clock involved).
//
// Not covered, because it is not true yet: when two same-named notebooks both reached the
// server, the one whose uid sorts last is numbered, and a uid's first 48 bits are the
// creating device's clock, so a skewed clock changes which one keeps the name (both
// devices still agree). Deciding it by server order needs each notebook's first sequence
// number in the library.

import Airframe
import Foundation
@_spi(Instrumentation) import NotesCore
import NotesServer
import NotesTestSupport
import Testing

@testable import NotesStorage
@testable import NotesSync

@Suite(.serialized, .sharedPostgres, .timeLimit(.minutes(10)))
@MainActor
struct ClockSkewTests {
  /// A library as a person compares two: every notebook by title with its notes' titles,
  /// bodies and pins; no uids, no dates.
  struct Library: Equatable, CustomStringConvertible {
    var notebooks: [String: [String]] = [:]

    var description: String {
      notebooks.keys.sorted().map { "\($0): \(notebooks[$0] ?? [])" }.joined(separator: "\n")
    }
  }

  /// How far each of the devices A, B and C is off, in hours.
  static let skews: [[Double]] = [[0, 0, 0], [5, -5, 3], [-5, 5, -3], [-12, 12, 0]]

  @Test func skewedClocksMergeToTheLibrariesRightClocksMergeTo() async throws {
    let right = try await play(clocksOff: Self.skews[0])
    for skew in Self.skews.dropFirst() {
      let skewed = try await play(clocksOff: skew)
      #expect(skewed == right, "clocks off by \(skew) h:\n\(skewed)\nclocks right:\n\(right)")
    }
  }

  /// Plays one scenario that meets every merge rule with the devices' clocks `hours` off,
  /// and returns the library every device ends with.
  func play(clocksOff hours: [Double]) async throws -> Library {
    let fixture = try await SyncFixture.make()
    do {
      let library = try await play(clocksOff: hours, fixture: fixture)
      await fixture.database.drop()
      return library
    } catch {
      await fixture.database.drop()
      throw error
    }
  }

  private func play(clocksOff hours: [Double], fixture: SyncFixture) async throws -> Library {
    let folder = try TemporaryFolder(prefix: "skew")
    defer { folder.remove() }
    let time = Timeline()
    var devices: [SyncDevice] = []
    for (name, offset) in zip(["A", "B", "C"], hours) {
      devices.append(
        try await SyncDevice.make(
          name: name, folder: folder, serverURL: fixture.accountURL,
          clock: DeviceClock(timeline: time, skew: offset * 3_600)))
    }
    defer { for device in devices { device.close() } }
    let (a, b, c) = (devices[0], devices[1], devices[2])
    // What every device starts from.
    try a.createNotebook("Inbox")
    try a.createNote("Plan", body: "one\ntwo\nthree\nfour\nfive", in: "Inbox")
    try a.createNote("List", body: "milk\neggs\nbread", in: "Inbox")
    try a.createNote("Old", body: "keep me", in: "Inbox")
    for device in devices { try await device.sync() }

    // Offline on all three, a minute apart: lines of one note, the same line of another,
    // an edit against a delete, a rename on two devices, a pin, and the same new notebook
    // on two devices.
    let steps: [(SyncDevice, @MainActor (SyncDevice) throws -> Void)] = [
      (a, { try $0.edit("Plan") { $0.body = "ONE\ntwo\nthree\nfour\nfive" } }),
      (b, { try $0.edit("Plan") { $0.body = "one\ntwo\nthree\nfour\nFIVE" } }),
      (a, { try $0.edit("List") { $0.body = "milk\nEGGS\nbread" } }),
      (b, { try $0.edit("List") { $0.body = "milk\nham\nbread" } }),
      (a, { try $0.delete("Old") }),
      (b, { try $0.edit("Old") { $0.body = "kept" } }),
      (c, { try $0.edit("Plan") { $0.title = "Plan C" } }),
      (b, { try $0.edit("List") { $0.title = "List B" } }),
      (a, { try $0.edit("Plan") { $0.isPinned = true } }),
      (a, { try $0.createNotebook("Work") }),
      (a, { try $0.createNote("A's task", in: "Work") }),
      (b, { try $0.createNotebook("Work") }),
      (b, { try $0.createNote("B's task", in: "Work") }),
      (c, { try $0.createNotebook("Ideas") }),
      (c, { try $0.createNote("C's idea", in: "Ideas") }),
    ]
    for (device, step) in steps {
      time.advance(by: 60)
      try step(device)
    }
    // A's changes reach the server first; B pulls them before it pushes (so its notebook
    // named Work joins A's), then everyone syncs until nothing moves.
    try await a.push()
    for _ in 0..<3 {
      for device in [b, c, a] { try await device.sync() }
    }
    try await expectConverged(devices, fixture)
    let libraries = devices.map(Self.library)
    for (device, library) in zip(devices, libraries) {
      #expect(library == libraries[0], "\(device.name) differs from A")
    }
    return libraries[0]
  }

  static func library(of device: SyncDevice) -> Library {
    var library = Library()
    for notebook in device.model.state.notebooks.elements {
      library.notebooks[notebook.title] = []
    }
    for note in device.model.state.notes.elements {
      let line = "\(note.title)\(note.isPinned ? " (pinned)" : ""): \(note.body.debugDescription)"
      library.notebooks[device.notebookTitle(of: note) ?? "?", default: []].append(line)
    }
    for title in library.notebooks.keys { library.notebooks[title]?.sort() }
    return library
  }
}
