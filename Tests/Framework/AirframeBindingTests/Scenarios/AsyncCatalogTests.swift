// The fallible asynchronous catalog: zones loaded through an injected service that two
// screens share, with loading, failure, refresh and stale completions made explicit.

import AirframeBinding
import AirframeTesting
import Testing

/// What one catalog screen shows.
struct CatalogDisplay: Equatable {
  var status: String
  var rows: [ZoneRow]
}

/// The injected service: one fetch shared by every screen that asks at the same time.
@MainActor
final class ZoneCatalogService {
  let gate = Gate<[ZoneChoice]>()
  let fetch: SharedOperation<[ZoneChoice]>
  /// Set by the fetch if it saw its task cancelled when it finished.
  let cancellation = CancellationProbe()

  let scheduler: TestScheduler

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
    let gate = gate
    let cancellation = cancellation
    fetch = SharedOperation(scheduler: scheduler) {
      let zones = try await gate.wait()
      await cancellation.record(Task.isCancelled)
      return zones
    }
  }
}

actor CancellationProbe {
  private(set) var sawCancellation: [Bool] = []
  func record(_ cancelled: Bool) { sawCancellation.append(cancelled) }
}

/// One screen's model: the async zones, a selection, and the rows to display.
///
/// The selection is validated against every source it comes from: a user's choice
/// (``select(_:)``) and each refresh, which clears a selection whose zone it no longer
/// lists. A refresh in flight or one that failed keeps it, with the rows it was made on.
@MainActor
final class CatalogScreenModel {
  let zones: AsyncProjection<[ZoneChoice]>
  let selectedID = StateSource<String?>(nil)
  let display: DerivedState<CatalogDisplay>
  private let service: ZoneCatalogService
  /// Follows the zones to drop a selection a refresh left behind; released with the model.
  private var refreshes: Lifetime?

  init(service: ZoneCatalogService) {
    self.service = service
    zones = AsyncProjection(scheduler: service.scheduler)
    display = DerivedState(combining: zones, selectedID) { phase, selectedID in
      let rows = (phase.latestValue ?? []).map {
        ZoneRow(id: $0.id, text: $0.title, isSelected: $0.id == selectedID)
      }
      switch phase {
      case .idle: return CatalogDisplay(status: "idle", rows: rows)
      case .loading: return CatalogDisplay(status: "loading", rows: rows)
      case .loaded: return CatalogDisplay(status: "ready", rows: rows)
      case .failed(let error, _):
        return CatalogDisplay(
          status: "failed: \((error as? TestFailure)?.message ?? "?")", rows: rows)
      }
    }
    refreshes = zones.observe { [weak self] phase in
      guard let self, case .loaded(let zones) = phase, let id = selectedID.value,
        !zones.contains(where: { $0.id == id })
      else { return }
      selectedID.set(nil)
    }
  }

  func refresh() {
    let fetch = service.fetch
    zones.load { try await fetch.value() }
  }

  /// Selects a zone the catalog has loaded; anything else is rejected.
  @discardableResult
  func select(_ id: String) -> Bool {
    guard zones.value.latestValue?.contains(where: { $0.id == id }) == true else { return false }
    selectedID.set(id)
    return true
  }
}

/// A screen: a list bound to its model.
@MainActor
final class CatalogScreen {
  let list = ListControl<ZoneRow>()
  let status = LabelControl()
  let binder = Binder()

  func bind(to model: CatalogScreenModel) {
    binder.bind { connect in
      connect.render(model.display) { [list, status] display in
        status.render(display.status)
        list.render(display.rows)
      }
      connect.forward(list.selection) { [weak model] in model?.select($0) }
    }
  }
}

@Suite(.noLiveBindings, .timeLimit(.minutes(10)))
@MainActor
struct AsyncCatalogTests {
  let scheduler = TestScheduler()
  let zones = [ZoneChoice(id: "a", title: "Amman"), ZoneChoice(id: "b", title: "Berlin")]

  @Test func loadingThenLoaded() async {
    let service = ZoneCatalogService(scheduler: scheduler)
    let model = CatalogScreenModel(service: service)
    let screen = CatalogScreen()
    screen.bind(to: model)
    #expect(screen.status.text == "idle")
    model.refresh()
    #expect(screen.status.text == "loading")
    #expect(await service.gate.waitForWaiters(1))
    await service.gate.open(returning: zones)
    await scheduler.runUntilIdle()
    #expect(screen.status.text == "ready")
    #expect(screen.list.rows.map(\.id) == ["a", "b"])
    screen.binder.cancel()
  }

  @Test func failureIsShownAndKeepsNothingHalfLoaded() async {
    let service = ZoneCatalogService(scheduler: scheduler)
    let model = CatalogScreenModel(service: service)
    let screen = CatalogScreen()
    screen.bind(to: model)
    model.refresh()
    #expect(await service.gate.waitForWaiters(1))
    await service.gate.open(with: .failure(TestFailure(message: "offline")))
    await scheduler.runUntilIdle()
    #expect(screen.status.text == "failed: offline")
    #expect(screen.list.rows.isEmpty)
    screen.list.userSelects("a")
    #expect(model.selectedID.value == nil)
    screen.binder.cancel()
  }

  @Test func previousRowsAndSelectionStayVisibleDuringRefreshAndAfterAFailedRefresh() async {
    let service = ZoneCatalogService(scheduler: scheduler)
    let model = CatalogScreenModel(service: service)
    let screen = CatalogScreen()
    screen.bind(to: model)
    model.refresh()
    #expect(await service.gate.waitForWaiters(1))
    await service.gate.open(returning: zones)
    await scheduler.runUntilIdle()
    #expect(screen.status.text == "ready")
    screen.list.userSelects("b")

    model.refresh()
    #expect(screen.status.text == "loading")
    #expect(screen.list.rows.map(\.isSelected) == [false, true])

    #expect(await service.gate.waitForWaiters(1))
    await service.gate.open(with: .failure(TestFailure(message: "timeout")))
    await scheduler.runUntilIdle()
    #expect(screen.status.text == "failed: timeout")
    #expect(screen.list.rows.map(\.id) == ["a", "b"])
    #expect(screen.list.rows.map(\.isSelected) == [false, true])
    screen.binder.cancel()
  }

  @Test func aRefreshThatDropsTheSelectedZoneClearsTheSelection() async {
    let service = ZoneCatalogService(scheduler: scheduler)
    let model = CatalogScreenModel(service: service)
    let screen = CatalogScreen()
    screen.bind(to: model)
    model.refresh()
    #expect(await service.gate.waitForWaiters(1))
    await service.gate.open(returning: zones)
    await scheduler.runUntilIdle()
    screen.list.userSelects("b")
    #expect(model.selectedID.value == "b")

    // Berlin is gone from the next load: nothing points at it any more.
    model.refresh()
    #expect(await service.gate.waitForWaiters(1))
    await service.gate.open(returning: [zones[0]])
    await scheduler.runUntilIdle()
    #expect(screen.status.text == "ready")
    #expect(model.selectedID.value == nil)
    #expect(screen.list.rows.map(\.id) == ["a"])
    #expect(screen.list.rows.map(\.isSelected) == [false])
    // Nor does it come back selected when a later load lists it again.
    model.refresh()
    #expect(await service.gate.waitForWaiters(1))
    await service.gate.open(returning: zones)
    await scheduler.runUntilIdle()
    #expect(screen.list.rows.map(\.isSelected) == [false, false])
    screen.binder.cancel()
  }

  @Test func aStaleCompletionIsRejectedEvenWhenItsWorkIgnoresCancellation() async {
    let projection = AsyncProjection<String>(scheduler: scheduler)
    let recorder = ValueRecorder(projection)
    let slow = Gate<String>()
    let fast = Gate<String>()
    let first = projection.load { try await slow.wait() }
    let second = projection.load { try await fast.wait() }
    #expect(first != second)
    #expect(projection.currentRequest == second)
    #expect(await slow.waitForWaiters(1))
    #expect(await fast.waitForWaiters(1))

    // The superseded request still waits at its gate, so the scheduler cannot be idle
    // yet: wait for the fresh phase itself to be delivered instead.
    var phases = projection.values(bufferingPolicy: .unbounded).makeAsyncIterator()
    await fast.open(returning: "fresh")
    while let phase = await phases.next(), phase.value != "fresh" {}
    #expect(projection.value.latestValue == "fresh")
    await slow.open(returning: "stale")
    await scheduler.runUntilIdle()
    #expect(projection.droppedCompletionCount == 1)
    #expect(projection.value.latestValue == "fresh")
    #expect(recorder.values.compactMap(\.latestValue) == ["fresh"])
  }

  @Test func cancellingOneScreensBinderStopsItsUpdatesButNotTheSharedLoad() async {
    let service = ZoneCatalogService(scheduler: scheduler)
    var leftModel: CatalogScreenModel? = CatalogScreenModel(service: service)
    let rightModel = CatalogScreenModel(service: service)
    let left = CatalogScreen()
    let right = CatalogScreen()
    left.bind(to: leftModel!)
    right.bind(to: rightModel)
    leftModel?.refresh()
    rightModel.refresh()
    // Both requests' tasks ran before the shared run reached its gate.
    #expect(await service.gate.waitForWaiters(1))
    #expect(service.fetch.waiterCount == 2)
    #expect(service.fetch.startCount == 1)

    // The left screen goes away: its binder is cancelled and its model released.
    left.binder.cancel()
    leftModel = nil
    scheduler.drain()
    #expect(service.fetch.waiterCount == 1)
    #expect(service.fetch.isRunning)

    await service.gate.open(returning: zones)
    await scheduler.runUntilIdle()
    #expect(right.status.text == "ready")
    #expect(right.list.rows.map(\.id) == ["a", "b"])
    #expect(left.status.text == "loading")
    #expect(left.list.rows.isEmpty)
    #expect(await service.cancellation.sawCancellation == [false])
    right.binder.cancel()
  }
}
