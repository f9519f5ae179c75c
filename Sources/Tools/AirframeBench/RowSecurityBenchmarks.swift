// Row-level security (figure 19, `sync-rls`): what the accounts' isolation costs a push and
// a pull, measured against the same server with row-level security switched off.
//
// The server: a `TemporaryPostgres` of the figure's own (Unix socket, fsync off), one
// database with the notes schema and one account, as the operator makes them. Each round,
// for each mode in turn (the order alternates between rounds): the operator switches
// row-level security on (enabled and forced on every table, as schema 4 has it) or off
// (disabled), empties the tables, then the account's `SyncServer` pushes
// `rowSecurityChanges` changes (a notebook and notes of about 300 bytes, one transaction,
// timed) and pulls them back (the notebooks' query and one page of notes, each version
// checked, timed). Everything else is the same: one connection, the same statements, the
// same rows; only the policies differ.

import Dispatch
import Foundation
import NotesCore
import NotesFixtures
import NotesServer

/// Figure 19: push and pull with row-level security on and off, or `nil` (with the reason
/// printed) when PostgreSQL cannot be started here.
@MainActor
func rowSecurityFigure(number: Int, scale: Scale, sink: Sink) throws -> Figure? {
  let server: TemporaryPostgres
  do {
    server = try TemporaryPostgres.start()
  } catch let failure as TemporaryPostgres.StartFailure {
    printError("airframe-bench: figure \(number) skipped: \(failure.description)")
    return nil
  }
  defer { server.stop() }
  let name = "notes_rls"
  let accountURL = try makeServerDatabase(name, on: server)
  let admin = try PostgresConnection(
    url: server.url.replacing("///postgres?", with: "///\(name)?"))
  defer { admin.close() }
  let device = try SyncServer(url: accountURL)
  defer { device.close() }

  let count = scale.repetitions == 1 ? 50 : 2_000
  var push: [Bool: [Double]] = [true: [], false: []]
  var pull: [Bool: [Double]] = [true: [], false: []]
  for round in 0...scale.repetitions {
    for secured in round.isMultiple(of: 2) ? [true, false] : [false, true] {
      try setRowSecurity(secured, on: admin)
      try admin.execute("TRUNCATE notes_entities, notes_changes, notes_devices")
      let changes = rowSecurityChanges(count)
      var start = DispatchTime.now().uptimeNanoseconds
      let outcomes = try device.push(changes, device: "d0000000-0000-4000-8000-000000000019")
      let pushed = DispatchTime.now().uptimeNanoseconds - start
      start = DispatchTime.now().uptimeNanoseconds
      let head = try device.head()
      let notebooks = try device.pull(.notebook, after: 0, upTo: head, limit: count)
      let notes = try device.pull(.note, after: 0, upTo: head, limit: count)
      let pulled = DispatchTime.now().uptimeNanoseconds - start
      let accepted = (notebooks + notes).filter { if case .accepted = $0 { true } else { false } }
      guard outcomes.count == count, accepted.count == count else {
        throw SyncBenchError(
          description: "row-level security \(secured ? "on" : "off"): pushed \(outcomes.count),"
            + " pulled \(accepted.count) valid of \(count)")
      }
      sink.count += accepted.count
      // Round 0 is the warm-up.
      if round > 0 {
        push[secured]?.append(Double(pushed) / Double(count))
        pull[secured]?.append(Double(pulled) / Double(count))
      }
    }
  }
  try setRowSecurity(true, on: admin)

  var figure = Figure(
    number: number,
    title: "Row-level security: one account pushes \(grouped(count)) changes (one transaction)"
      + " and pulls them back, with the accounts' policies on (forced) and off, same run",
    kind: .time(unit: "ns/change"))
  let target = 1.25
  var ratios: [String] = []
  for (what, samples) in [("push", push), ("pull", pull)] {
    let off = Stats(samples: samples[false] ?? [])
    let on = Stats(samples: samples[true] ?? [])
    let ratio = on.median / off.median
    ratios.append("\(what) \(formatted(ratio, digits: 2))×")
    for (secured, stats) in [(false, off), (true, on)] {
      figure.rows.append(
        Row(
          benchmark: "sync-rls", subject: "\(what), row-level security \(secured ? "on" : "off")",
          operations: count, repetitions: stats.samples.count, time: stats,
          ratioToBaseline: secured ? ratio : nil,
          extras: secured
            ? [("target_ratio", .double(target)), ("target_met", .bool(ratio <= target))] : [],
          comment: secured ? "\(formatted(ratio, digits: 2))× off" : "baseline"))
    }
  }
  let met = ratios.count == 2 && figure.rows.allSatisfy { ($0.ratioToBaseline ?? 0) <= target }
  figure.notes.append(
    "target: on within \(formatted(target, digits: 2))× of off: " + (met ? "met" : "MISSED")
      + " (\(ratios.joined(separator: ", ")))")
  return figure
}

/// Switches row-level security on (enabled and forced, as schema 4 has it) or off on every
/// table sync uses.
private func setRowSecurity(_ on: Bool, on admin: PostgresConnection) throws {
  for table in ServerSchema.securedTables {
    if on {
      try admin.execute("ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY")
      try admin.execute("ALTER TABLE \(table) FORCE ROW LEVEL SECURITY")
    } else {
      try admin.execute("ALTER TABLE \(table) NO FORCE ROW LEVEL SECURITY")
      try admin.execute("ALTER TABLE \(table) DISABLE ROW LEVEL SECURITY")
    }
  }
}

/// A new notebook and `count - 1` new notes in it, as a device pushes them.
private func rowSecurityChanges(_ count: Int) -> [OutgoingChange] {
  let notebook = UUID().uuidString.lowercased()
  let body = String(repeating: "a line of a note's text, ", count: 12)
  return (0..<count).map { index in
    let fields =
      index == 0
      ? SyncFields(title: "Notebook", created: 800_000_000)
      : SyncFields(
        title: "Note \(index)", body: body, notebook: notebook, created: 800_000_000,
        modified: 800_000_000 + Double(index))
    return OutgoingChange(
      changeID: UUID().uuidString.lowercased(), baseSeq: 0,
      record: SyncRecord(
        kind: index == 0 ? .notebook : .note,
        uid: index == 0 ? notebook : UUID().uuidString.lowercased(), fields: fields))
  }
}
