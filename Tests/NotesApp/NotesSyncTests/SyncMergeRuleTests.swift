// Every merge rule of sync, each on its own, between devices synced through a real
// PostgreSQL server that the test starts and stops.

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
struct SyncMergeRuleTests {
  let body = "one\ntwo\nthree\nfour\nfive"

  /// A and B both hold note “Plan” in notebook “Work”, synced.
  func withSharedNote(
    _ names: [String] = ["A", "B"], _ test: ([SyncDevice], SyncFixture) async throws -> Void
  ) async throws {
    try await withDevices(names) { devices, server in
      try devices[0].createNotebook("Work")
      try devices[0].createNote("Plan", body: body, in: "Work")
      for device in devices { try await device.sync() }
      for device in devices { #expect(device.note(titled: "Plan")?.body == body) }
      try await test(devices, server)
    }
  }

  @Test func whatOneDeviceCreatesArrivesOnTheOther() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      let note = try #require(b.note(titled: "Plan"))
      #expect(b.notebookTitle(of: note) == "Work")
      try await expectConverged(devices, server)
      // Nothing is pending once both sides agree, and a further sync moves nothing.
      let again = try await a.sync()
      #expect(again.pushed == 0 && again.pulled == 0 && again.pending == 0)
    }
  }

  @Test func editsToDifferentLinesOfOneNoteBothSurvive() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.body = "ONE\ntwo\nthree\nfour\nfive" }
      try b.edit("Plan") { $0.body = "one\ntwo\nthree\nfour\nFIVE" }
      try await a.sync()
      let merged = try await b.sync()
      #expect(merged.conflictCopies == 0)
      try await a.sync()
      for device in devices {
        #expect(device.note(titled: "Plan")?.body == "ONE\ntwo\nthree\nfour\nFIVE")
      }
      #expect(try a.notices().isEmpty && b.notices().isEmpty)
      try await expectConverged(devices, server)
    }
  }

  @Test func editsToDifferentSentencesOfOneParagraphBothSurviveWithoutACopy() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      let paragraph = "We meet on Monday. Bring the slides. Lunch is at noon."
      try a.edit("Plan") { $0.body = paragraph }
      try await a.sync()
      try await b.sync()
      // The issue's case: A changes the first sentence, B the third, both offline.
      try a.edit("Plan") { $0.body = "We meet on Tuesday. Bring the slides. Lunch is at noon." }
      try b.edit("Plan") { $0.body = "We meet on Monday. Bring the slides. Lunch is at one." }
      try await a.sync()
      let merged = try await b.sync()
      #expect(merged.conflictCopies == 0)
      try await a.sync()
      for device in devices {
        #expect(
          device.note(titled: "Plan")?.body
            == "We meet on Tuesday. Bring the slides. Lunch is at one.")
        #expect(device.note(titled: "Plan (conflict copy)") == nil)
      }
      #expect(try a.notices().isEmpty && b.notices().isEmpty)
      try await expectConverged(devices, server)
    }
  }

  @Test func overlappingEditsKeepThisDevicesTextAndSaveTheOtherAsAConflictCopy() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.body = "one\nTWO from A\nthree\nfour\nfive" }
      try b.edit("Plan") { $0.body = "one\nTWO from B\nthree\nfour\nfive" }
      try await a.sync()
      let report = try await b.sync()
      #expect(report.conflictCopies == 1)
      try await a.sync()
      for device in devices {
        // B merged, so B's text stays in the note and A's is the copy, on both devices.
        #expect(device.note(titled: "Plan")?.body == "one\nTWO from B\nthree\nfour\nfive")
        let copy = try #require(device.note(titled: "Plan (conflict copy)"))
        #expect(copy.body == "one\nTWO from A\nthree\nfour\nfive")
        #expect(device.notebookTitle(of: copy) == "Work")
      }
      #expect(try b.notices().count == 1)
      #expect(try b.notices().first?.contains("“Plan (conflict copy)”") == true)
      try await expectConverged(devices, server)
    }
  }

  @Test func aTitleChangedOnBothSidesKeepsTheLastPushedAndNamesTheOther() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.title = "Plan A" }
      try b.edit("Plan") { $0.title = "Plan B" }
      try await a.sync()
      try await b.sync()
      try await a.sync()
      for device in devices { #expect(device.note(titled: "Plan B") != nil) }
      #expect(
        try b.notices() == [
          "Another device renamed the note “Plan B” to “Plan A”; the name set here is kept."
        ])
      try await expectConverged(devices, server)
    }
  }

  @Test func fieldsChangedOnOneSideEachTakeThatSide() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try b.createNotebook("Home")
      try await b.sync()
      try await a.sync()
      try a.edit("Plan") { $0.isPinned = true }
      let home = try #require(b.notebookID(titled: "Home"))
      try b.edit("Plan") {
        $0.notebookID = home
        $0.title = "Plan at home"
      }
      try await a.sync()
      try await b.sync()
      try await a.sync()
      for device in devices {
        let note = try #require(device.note(titled: "Plan at home"))
        #expect(note.isPinned)
        #expect(device.notebookTitle(of: note) == "Home")
      }
      try await expectConverged(devices, server)
    }
  }

  @Test func anEditBeatsADeleteMadeElsewhere() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.delete("Plan")
      try b.edit("Plan") { $0.body += "\nsix" }
      try await a.sync()
      try await b.sync()
      try await a.sync()
      for device in devices { #expect(device.note(titled: "Plan")?.body == body + "\nsix") }
      #expect(try b.notices().count == 1)
      try await expectConverged(devices, server)
    }
  }

  @Test func anEditMadeElsewhereBringsBackANoteDeletedHere() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.body += "\nsix" }
      try b.delete("Plan")
      try await a.sync()
      try await b.sync()
      try await a.sync()
      for device in devices { #expect(device.note(titled: "Plan")?.body == body + "\nsix") }
      #expect(
        try b.notices() == [
          "The note “Plan” was deleted here but changed on another device: it is back."
        ])
      try await expectConverged(devices, server)
    }
  }

  @Test func aDeleteOfAnUnchangedNoteReachesEveryDevice() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.delete("Plan")
      try await a.sync()
      try await b.sync()
      #expect(b.note(titled: "Plan") == nil)
      try await expectConverged(devices, server)
    }
  }

  @Test func twoDevicesCreatingTheSameNotebookEndWithOneAndEveryNote() async throws {
    try await withDevices(["A", "B"]) { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Ideas")
      try a.createNote("From A", in: "Ideas")
      try b.createNotebook(" ideas ")
      try b.createNote("From B", in: "ideas")
      try await a.sync()
      try await b.sync()
      try await a.sync()
      for device in devices {
        #expect(device.model.state.notebooks.count == 1)
        for title in ["From A", "From B"] {
          let note = try #require(device.note(titled: title))
          #expect(device.notebookTitle(of: note) == "Ideas")
        }
      }
      try await expectConverged(devices, server)
    }
  }

  @Test func sameNamedNotebooksThatBothReachedTheServerAreNumberedAlikeEverywhere() async throws {
    try await withDevices(["A", "B"]) { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.createNotebook("Ideas")
      try a.createNote("From A", in: "Ideas")
      try b.createNotebook("Ideas")
      try b.createNote("From B", in: "Ideas")
      try await a.push()
      try await b.push()  // before B saw A's notebook
      for _ in 0..<2 {
        try await a.sync()
        try await b.sync()
      }
      for device in devices {
        let titles = Set(device.model.state.notebooks.elements.map(\.title))
        #expect(titles == ["Ideas", "Ideas 2"])
        #expect(device.note(titled: "From A") != nil && device.note(titled: "From B") != nil)
      }
      try await expectConverged(devices, server)
    }
  }

  @Test func aNotebookDeletedElsewhereIsKeptWhileItHoldsANoteAddedHere() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      let work = try #require(a.notebookID(titled: "Work"))
      let outcome = ActionDispatcher(model: a.model).dispatch(
        DeleteNotebook(id: work, deletingNotes: true))
      #expect(outcome.isCommitted)
      try b.createNote("Late", in: "Work")
      try await a.sync()
      try await b.sync()
      try await a.sync()
      for device in devices {
        let late = try #require(device.note(titled: "Late"))
        #expect(device.notebookTitle(of: late) == "Work")
        #expect(device.note(titled: "Plan") == nil)
      }
      try await expectConverged(devices, server)
    }
  }

  @Test func aPushRetriedAfterALostAcknowledgementIsAppliedOnce() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.body += "\nsix" }
      try await a.pushLosingTheAcknowledgement()
      // The same change again, under the same id: the server acknowledges it with the
      // number it gave the first time and applies nothing twice.
      let retry = try a.engine.push()
      #expect(retry == (accepted: 1, refused: 0))
      try await b.sync()
      #expect(b.note(titled: "Plan")?.body == body + "\nsix")
      let changes = try PostgresConnection(url: server.adminURL)
      defer { changes.close() }
      // Created notebook and note, then one edit: three changes, not four.
      #expect(try changes.execute("SELECT count(*) FROM notes_changes").singleValue == "3")
      #expect(try a.notices().isEmpty && b.notices().isEmpty)
      try await expectConverged(devices, server)
    }
  }

  @Test func aLostAcknowledgementIsLearntBeforeAnotherDevicesChangeIsMerged() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.title = "Plan by A" }
      try await a.pushLosingTheAcknowledgement()
      // B builds on A's change before A hears back.
      try await b.sync()
      try b.edit("Plan by A") { $0.title = "Plan by B, after A" }
      try await b.sync()
      try await a.sync()
      for device in devices { #expect(device.note(titled: "Plan by B, after A") != nil) }
      // No conflict: A's change was the ancestor of B's.
      #expect(try a.notices().isEmpty && b.notices().isEmpty)
      try await expectConverged(devices, server)
    }
  }

  @Test func pendingChangesSurviveARestart() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.title = "Offline plan" }
      try await a.restart()
      #expect(try LibrarySyncStore(path: a.path).pendingCount() == 1)
      try await a.sync()
      try await b.sync()
      #expect(b.note(titled: "Offline plan") != nil)
      try await expectConverged(devices, server)
    }
  }

  @Test func anUnreachableServerFailsTheSyncAndKeepsEveryChangePending() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.body += "\nwritten offline" }
      let folder = try TemporaryFolder(prefix: "no-server")
      defer { folder.remove() }
      let nowhere = "postgresql:///postgres?host=\(folder.path)&user=postgres"
      #expect(throws: PostgresError.self) {
        _ = try SyncEngine(libraryPath: a.path, serverURL: nowhere)
      }
      let service = ServerSyncService(libraryPath: a.path, serverURL: nowhere)
      let store = try LibrarySyncStore(path: a.path)
      defer { store.close() }
      do {
        _ = try await service.sync { _ in }
        Issue.record("a sync with no server succeeded")
      } catch let offline as ServerSyncService.Offline {
        #expect(offline.reason.hasPrefix("cannot connect to the server:"))
        #expect(offline.retryIn == .seconds(1))
        #expect(offline.pending == 1)
        #expect(offline.isUnreachable)
        #expect(offline.description.hasPrefix("offline, 1 change pending, retrying in 1 s: "))
      }
      #expect(service.retryDelay == .seconds(1))
      _ = try? await service.sync { _ in }
      #expect(service.retryDelay == .seconds(2))
      #expect(try store.pendingCount() == 1)
      // Back online: the change arrives.
      let online = ServerSyncService(libraryPath: a.path, serverURL: server.accountURL)
      _ = try await online.sync { _ in }
      #expect(online.retryDelay == nil)
      #expect(try store.pendingCount() == 0)
      try await b.sync()
      #expect(b.note(titled: "Plan")?.body == body + "\nwritten offline")
      try await expectConverged(devices, server)
    }
  }

  @Test func aServerThatAnswersAndRefusesIsNotCalledOffline() async throws {
    try await withSharedNote { devices, server in
      let a = devices[0]
      try a.edit("Plan") { $0.body += "\nwritten with a wrong password" }
      let refused = server.database.url(user: SyncFixture.account, password: "not the password")
      let service = ServerSyncService(libraryPath: a.path, serverURL: refused)
      do {
        _ = try await service.sync { _ in }
        Issue.record("a sync with a wrong password succeeded")
      } catch let failure as ServerSyncService.Offline {
        #expect(!failure.isUnreachable)
        #expect(failure.reason.contains("password authentication failed"), "\(failure.reason)")
        #expect(failure.description.hasPrefix("1 change pending, retrying in 1 s: "))
      }
      let store = try LibrarySyncStore(path: a.path)
      defer { store.close() }
      #expect(try store.pendingCount() == 1)
    }
  }

  @Test func aCancelledSyncEndsWithoutACrashAndKeepsItsChangesPending() async throws {
    try await withSharedNote { devices, server in
      let (a, b) = (devices[0], devices[1])
      try a.edit("Plan") { $0.body += "\nwritten before quitting" }
      let service = ServerSyncService(libraryPath: a.path, serverURL: server.accountURL)
      let store = try LibrarySyncStore(path: a.path)
      defer { store.close() }
      // Cancelled as soon as it reports its start, as quitting the app does: the engine is
      // still connecting, and stops at its first step. (A progress loop that ends early
      // must not leave a result unset for a later step to force-unwrap.)
      // In a task of its own: cancelling the test's task would end the test there.
      await #expect(throws: CancellationError.self) {
        _ = try await Task {
          try await service.sync { _ in withUnsafeCurrentTask { $0?.cancel() } }
        }
        .value
      }
      #expect(service.retryDelay == nil, "a cancellation is not a failure")
      #expect(try store.pendingCount() == 1)
      // The same service syncs again, and the change arrives.
      _ = try await service.sync { _ in }
      #expect(try store.pendingCount() == 0)
      try await b.sync()
      #expect(b.note(titled: "Plan")?.body == body + "\nwritten before quitting")
      try await expectConverged(devices, server)
    }
  }

  @Test func threeDevicesEditingAtOnceConverge() async throws {
    try await withSharedNote(["A", "B", "C"]) { devices, server in
      try devices[0].edit("Plan") { $0.body = "one A\ntwo\nthree\nfour\nfive" }
      try devices[1].edit("Plan") { $0.body = "one\ntwo\nthree B\nfour\nfive" }
      try devices[2].edit("Plan") { $0.body = "one\ntwo\nthree\nfour\nfive C" }
      try devices[2].createNote("From C", in: "Work")
      for _ in 0..<2 { for device in devices { try await device.sync() } }
      for device in devices {
        #expect(device.note(titled: "Plan")?.body == "one A\ntwo\nthree B\nfour\nfive C")
        #expect(device.note(titled: "From C") != nil)
      }
      try await expectConverged(devices, server)
    }
  }
}
