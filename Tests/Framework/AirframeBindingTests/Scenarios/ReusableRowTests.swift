// A reusable row rebound from one item's model to another's, with both models alive.

import AirframeBinding
import AirframeTesting
import Testing

@Suite(.noLiveBindings)
@MainActor
struct ReusableRowTests {
  /// One list item's model: a title the row shows and edits.
  @MainActor
  final class ItemModel {
    let title: StateSource<String>
    private(set) var edits: [String] = []
    init(_ title: String) { self.title = StateSource(title) }
    func rename(_ title: String) {
      edits.append(title)
      self.title.set(title)
    }
  }

  /// A reusable row and its one binder, rebound for each item it shows.
  @MainActor
  final class Row {
    let field = TextFieldControl()
    let binder = Binder()
    func show(_ item: ItemModel) {
      binder.bind { connect in
        connect.render(item.title) { [field] in field.render($0) }
        connect.forward(field.edits) { [weak item] in item?.rename($0) }
      }
    }
  }

  @Test func theOldModelNoLongerReachesTheRowAndInputReachesOnlyTheNewModel() {
    let first = ItemModel("Groceries")
    let second = ItemModel("Reading list")
    let row = Row()
    row.show(first)
    #expect(row.field.text == "Groceries")
    row.show(second)
    #expect(row.field.text == "Reading list")

    first.title.set("Groceries (old item changed)")
    #expect(row.field.text == "Reading list")

    row.field.userTypes("Books")
    #expect(second.edits == ["Books"])
    #expect(first.edits.isEmpty)
    #expect(first.title.value == "Groceries (old item changed)")
    #expect(first.title.observerCount == 0)
    row.binder.cancel()
  }

  @Test func rebindingManyTimesLeavesOneLiveConnectionPerDirection() {
    let items = (0..<50).map { ItemModel("item \($0)") }
    let row = Row()
    for item in items { row.show(item) }
    #expect(items.dropLast().allSatisfy { $0.title.observerCount == 0 })
    #expect(items.last?.title.observerCount == 1)
    #expect(row.field.edits.replacementCount == 0)
    row.binder.cancel()
  }

  /// An item whose thumbnail loads asynchronously, owned by the item, not by the row.
  @MainActor
  final class PhotoItem {
    let thumbnail: AsyncProjection<String>
    init(scheduler: any WorkScheduler) { thumbnail = AsyncProjection(scheduler: scheduler) }
  }

  @Test func anOldItemsAsynchronousWorkNeverReachesTheRowAfterItShowsANewItem() async {
    let scheduler = TestScheduler()
    let old = PhotoItem(scheduler: scheduler)
    let new = PhotoItem(scheduler: scheduler)
    let label = LabelControl()
    var shown: [String] = []
    let binder = Binder()
    func show(_ item: PhotoItem) {
      binder.bind { connect in
        connect.render(item.thumbnail) { phase in
          let text = phase.latestValue ?? "placeholder"
          shown.append(text)
          label.render(text)
        }
      }
    }
    let gate = Gate<String>()
    show(old)
    old.thumbnail.load { try await gate.wait() }
    #expect(await gate.waitForWaiters(1))
    show(new)
    new.thumbnail.load { "new thumbnail" }
    await gate.openOne(returning: "old thumbnail")
    await scheduler.runUntilIdle()
    #expect(old.thumbnail.value.value == "old thumbnail")  // the old item has it …
    #expect(label.text == "new thumbnail")  // … the row never showed it
    #expect(!shown.contains("old thumbnail"))
    #expect(old.thumbnail.observerCount == 0)
    binder.cancel()
  }
}
