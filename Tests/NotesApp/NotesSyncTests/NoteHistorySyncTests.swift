// Note history between devices: a pulled version is kept with where it came from, a merge
// says so, and a version restored on one device reaches the others.

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
struct NoteHistorySyncTests {
  func dispatch(_ action: some Action<NotesState>, on device: SyncDevice) -> ActionOutcome {
    ActionDispatcher(model: device.model).dispatch(action)
  }

  @Test func aPulledVersionIsKeptAndAVersionRestoredOnOneDeviceReachesTheOther() async throws {
    try await withDevices(["A", "B"]) { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Work")
      let onA = try a.createNote("Plan", body: "one", in: "Work")
      for device in devices { try await device.sync() }
      let onB = try #require(b.note(titled: "Plan")).id

      try a.edit("Plan") { $0.body = "one\ntwo" }
      try await a.sync()
      try await b.sync()
      let onBHistory = try b.database.history(of: onB)
      #expect(onBHistory.map(\.body) == ["one\ntwo", "one"])
      #expect(onBHistory.map(\.origin) == [.anotherDevice, .beforeHistory])

      // B brings back the first version: a new edit, which A pulls.
      #expect(
        dispatch(RestoreNoteVersion(version: onBHistory[1], now: b.now), on: b).isCommitted)
      #expect(try b.database.history(of: onB).first?.origin == .restoredVersion)
      try await b.sync()
      try await a.sync()
      #expect(a.model.state.notes[onA]?.body == "one")
      let onAHistory = try a.database.history(of: onA)
      #expect(onAHistory.map(\.body) == ["one", "one\ntwo", "one"])
      #expect(onAHistory.map(\.origin) == [.anotherDevice, .thisDevice, .beforeHistory])
      try await expectConverged(devices, server)
    }
  }

  @Test func aMergedVersionSaysItIsAMerge() async throws {
    try await withDevices(["A", "B"]) { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Work")
      _ = try a.createNote("Plan", body: "one\ntwo\nthree", in: "Work")
      for device in devices { try await device.sync() }
      let onB = try #require(b.note(titled: "Plan")).id

      try a.edit("Plan") { $0.body = "ONE\ntwo\nthree" }
      try b.edit("Plan") { $0.body = "one\ntwo\nTHREE" }
      try await a.sync()
      try await b.sync()
      #expect(b.model.state.notes[onB]?.body == "ONE\ntwo\nTHREE")
      let history = try b.database.history(of: onB)
      #expect(history.first?.origin == .merge)
      #expect(history.first?.body == "ONE\ntwo\nTHREE")
      #expect(history.dropFirst().first?.body == "one\ntwo\nTHREE", "B's own edit before it")
      try await a.sync()
      try await expectConverged(devices, server)
    }
  }
}
