import AirframeTesting
import Testing

@testable import Airframe

/// `Transaction.creating(_:)`: what one part of a longer write created.
@Suite(.noLiveBindings)
@MainActor
struct TransactionCreatingTests {
  @Test func itNamesOnlyWhatItsBodyInsertedAndTheWriteStillHolds() throws {
    let model = Model(Library(notes: EntityTable([Note(id: 1, title: "a")])))
    try model.write(origin: .background("test")) { transaction in
      try transaction.insert(Note(id: 2, title: "before"), into: \.notes)
      let created = try transaction.creating { transaction throws(ModelError) in
        try transaction.insert(Note(id: 3, title: "kept"), into: \.notes)
        try transaction.insert(Note(id: 4, title: "gone"), into: \.notes)
        try transaction.remove(4, from: \.notes)
        try transaction.update(1, in: \.notes) { $0.title = "renamed" }
      }
      #expect(created.ids(in: \Library.notes) == [3])
      #expect(created.id(in: \Library.notes) == 3)
      // The same answer as reading `created` before and after, for this body.
      let before = transaction.created
      let next = try transaction.creating { transaction throws(ModelError) in
        try transaction.insert(Note(id: 5, title: "next"), into: \.notes)
      }
      #expect(next == transaction.created.subtracting(before))
      let nothing = transaction.creating { _ in }
      #expect(nothing.isEmpty)
    }
  }
}
