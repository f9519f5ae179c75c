// Soak: open and close the editor's bindings and rebind list rows many times over one
// Notes model; live bindings return to zero and resident memory stays flat.
//
// It is a leak check, not a benchmark: nothing here is timed. By default it runs 100,000
// iterations, the figure the reliability issue asks for. AIRFRAME_SOAK_ITERATIONS=N runs N
// instead (AIRFRAME_SOAK=1 runs 1,000,000). Memory is read from /proc/self/statm after a
// warm-up, so allocator pools and caches that fill once are not counted as growth; the
// bound is generous (64 MiB), because other suites may allocate in the same process.

import Airframe
import AirframeTesting
import Foundation
@_spi(Instrumentation) import NotesCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The resident memory of this process, or `nil` where /proc is not available.
func residentBytes() -> Int? {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return nil
  }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  #if canImport(Glibc)
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
    return pages * 4_096
  #endif
}

/// Bytes as mebibytes with one decimal, as in "61.2 MiB".
func mebibytes(_ bytes: Int) -> String {
  String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
}

/// An editor screen: two text fields bound two-way to the EditorController.
@MainActor
final class SoakEditorScreen {
  let bodyField = InputSlot<String>()
  private(set) var shownTitle = ""
  private(set) var shownBody = ""
  private let binder = Binder(label: "editor screen")

  func show(_ editor: EditorController) {
    binder.bind { connect in
      connect.render(editor.state) { [weak self] state in
        self?.shownTitle = state.title
        self?.shownBody = state.body
      }
      connect.forward(bodyField) { editor.userEditedBody($0) }
    }
  }

  func close() { binder.cancel() }
}

/// A reusable note-list row, rebound to whichever note it shows next.
@MainActor
final class SoakRowCell {
  let taps = InputSlot<Void>()
  private(set) var text = ""
  let binder = Binder(label: "note row")

  func show(_ id: NoteID, in list: NoteListController) {
    let lens = list.lens
    binder.bind { connect in
      connect.render(lens.updates) { [weak self] _ in self?.text = lens.row(for: id)?.title ?? "" }
      connect.forward(taps) { _ in lens.select(id) }
    }
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(20)))
@MainActor
struct SoakTests {
  static var iterations: Int {
    let environment = ProcessInfo.processInfo.environment
    if let count = environment["AIRFRAME_SOAK_ITERATIONS"].flatMap(Int.init) { return count }
    return environment["AIRFRAME_SOAK"] == "1" ? 1_000_000 : 100_000
  }

  @Test func openingEditorBindingsAndRebindingListRowsLeavesNoBindingAndNoGrowth() throws {
    let ledger = try #require(BindingLedger.current, "the .noLiveBindings trait sets a ledger")
    var state = SampleLibrary.state(now: t0)
    for number in 100..<300 {
      let id = NoteID(rawValue: Int64(number))
      state.notes = EntityTable(
        Array(state.notes.elements) + [
          Note(
            id: id, notebookID: NotebookID(rawValue: Int64(number % 3 + 1)),
            title: "Soak \(number)", body: "body \(number)", created: t0)
        ])
    }
    state.lastAssignedID = 300
    let app = NotesPresentations(state: state)
    let ids = app.model.state.notes.elements.map(\.id).sorted()
    let screen = SoakEditorScreen()
    let cells = (0..<12).map { _ in SoakRowCell() }
    let baseline = ledger.liveCount
    var mostLive = baseline
    var saves = 0

    func iterate(_ count: Int) {
      for index in 0..<count {
        app.editor.open(ids[index % ids.count])
        screen.show(app.editor)
        if index % 16 == 0 {
          screen.bodyField.send("soak \(index)")
          if app.editor.save().isCommitted { saves += 1 }
        }
        let cell = cells[index % cells.count]
        cell.show(app.list.lens.row(at: index % app.list.lens.count).id, in: app.list)
        if index % 7 == 0 { cell.taps.send(()) }
        mostLive = max(mostLive, ledger.liveCount)
        screen.close()
      }
    }

    let total = Self.iterations
    let warmUp = min(total, 2_000)
    iterate(warmUp)
    let before = residentBytes()
    iterate(total - warmUp)
    let after = residentBytes()
    app.editor.open(nil)
    for cell in cells { cell.binder.cancel() }
    let liveAfter = ledger.liveCount - baseline

    #expect(liveAfter == 0)
    // The editor screen (3 connections) and the twelve row cells (2 each), no more.
    #expect(mostLive <= baseline + 3 + 2 * cells.count)
    #expect(saves > 0)
    #expect(ledger.echoCount == 0)
    var memory = "resident memory not available"
    // Under AddressSanitizer resident memory also holds its quarantine of freed blocks
    // (up to 256 MiB), which fills during the run whatever the code does, so the bound
    // says nothing there; the live-binding counts above still hold.
    let isAddressSanitized = ProcessInfo.processInfo.environment["AIRFRAME_SANITIZER"] == "address"
    if isAddressSanitized { memory = "resident memory not checked under AddressSanitizer" }
    if let before, let after, !isAddressSanitized {
      memory =
        "resident memory \(mebibytes(before)) after the warm-up, \(mebibytes(after)) at the end "
        + "(\(after >= before ? "+" : "−")\(mebibytes(abs(after - before))))"
      #expect(after - before < 64 << 20, "resident memory grew by \(mebibytes(after - before))")
    }
    print(
      "soak: \(grouped(total)) iterations (editor bindings opened and closed, list rows "
        + "rebound, \(grouped(saves)) saves); live bindings \(liveAfter) at the end "
        + "(at most \(mostLive - baseline) during); \(memory)")
    app.cancel()
  }
}
