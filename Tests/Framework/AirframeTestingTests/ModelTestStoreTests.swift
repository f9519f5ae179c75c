import Airframe
import AirframeTesting
import Testing

struct Card: Identifiable, Equatable, Sendable {
  let id: Int
  var text: String
}

struct Deck: Equatable, Sendable {
  var cards = EntityTable<Card>()
  var status = "idle"
}

struct AddCard: Action {
  let card: Card
  var name: String { "Add Card" }
  func validate(in state: Deck) -> ValidationResult {
    ValidatorList { NonEmptyText(field: "text") }.validate(card.text)
  }
  func perform(in transaction: inout Transaction<Deck>) throws -> any Action<Deck> {
    try transaction.insert(card, into: \.cards)
    return RemoveCard(id: card.id)
  }
}

struct RemoveCard: Action {
  let id: Int
  var name: String { "Remove Card" }
  func validate(in state: Deck) -> ValidationResult { ValidationResult() }
  func perform(in transaction: inout Transaction<Deck>) throws -> any Action<Deck> {
    AddCard(card: try transaction.remove(id, from: \.cards))
  }
}

/// Adds a card and, as a side effect the test might forget, changes the status.
struct AddCardNoisily: Action {
  let card: Card
  var name: String { "Add Card" }
  func validate(in state: Deck) -> ValidationResult { ValidationResult() }
  func perform(in transaction: inout Transaction<Deck>) throws -> any Action<Deck> {
    try transaction.insert(card, into: \.cards)
    transaction.set(\.status, to: "dirty")
    return RemoveCard(id: card.id)
  }
}

@Suite(.noLiveBindings)
@MainActor
struct ModelTestStoreTests {
  let card = Card(id: 1, text: "hello")

  @Test func passesWhenEveryChangeIsStated() {
    let store = ModelTestStore(initialState: Deck())
    store.send(AddCard(card: card), changes: [.table(\.cards, inserted: [1])]) {
      $0.cards = EntityTable([card])
    }
    store.undo(changes: [.table(\.cards, removed: [1])]) { $0.cards = EntityTable() }
    store.redo(changes: [.table(\.cards, inserted: [1])]) { $0.cards = EntityTable([card]) }
  }

  @Test func anInvalidActionExpectsNoChange() {
    let store = ModelTestStore(initialState: Deck())
    let outcome = store.send(AddCard(card: Card(id: 2, text: " ")))
    #expect(outcome.description == "The text must not be empty.")
  }

  @Test func failsOnAnUnstatedStateChangeWithADiff() {
    let store = ModelTestStore(initialState: Deck())
    withKnownIssue {
      store.send(
        AddCardNoisily(card: card), changes: [.table(\.cards, inserted: [1]), .value(\.status)]
      ) {
        $0.cards = EntityTable([card])
      }
    } matching: { issue in
      let text = issue.description
      return text.contains("differs from what the test stated") && text.contains("− ")
        && text.contains("+ ") && text.contains("dirty")
    }
  }

  @Test func failsOnAnUnstatedChangeSetEntry() {
    let store = ModelTestStore(initialState: Deck())
    withKnownIssue {
      store.send(AddCardNoisily(card: card), changes: [.table(\.cards, inserted: [1])]) {
        $0.cards = EntityTable([card])
        $0.status = "dirty"
      }
    } matching: { issue in
      issue.description.contains("status changed, but the test did not state it")
    }
  }

  @Test func failsWhenTheStatedIdsAreWrong() {
    let store = ModelTestStore(initialState: Deck())
    withKnownIssue {
      store.send(AddCard(card: card), changes: [.table(\.cards, updated: [1])]) {
        $0.cards = EntityTable([card])
      }
    } matching: { issue in
      issue.description.contains("expected inserted [], updated [1], removed []")
        && issue.description.contains("got inserted [1]")
    }
  }

  @Test func failsWhenChangesAreStatedForAStepThatCommittedNothing() {
    let store = ModelTestStore(initialState: Deck())
    withKnownIssue {
      store.send(AddCard(card: Card(id: 3, text: "")), changes: [.table(\.cards, inserted: [3])])
    } matching: { issue in
      issue.description.contains("committed nothing")
    }
  }
}
