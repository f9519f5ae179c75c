import Foundation
import Testing

@testable import NotesStorage

/// The ids that name rows across devices: version 7 UUIDs, time-ordered, lower-case.
struct UIDTests {
  @Test func aUIDIsAVersion7UUIDStartingWithItsMillisecond() throws {
    let now = Date(timeIntervalSince1970: 1_700_000_000.123)
    var seen: Set<String> = []
    for _ in 0..<10_000 {
      let uid = SyncBookkeeping.newUID(now: now)
      let groups = uid.split(separator: "-", omittingEmptySubsequences: false)
      #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(uid)")
      #expect(uid.allSatisfy { "0123456789abcdef-".contains($0) }, "\(uid)")
      // 48 bits of Unix milliseconds, then version 7, then the variant 10xx.
      #expect(UInt64(groups[0] + groups[1], radix: 16) == 1_700_000_000_123)
      #expect(groups[2].first == "7")
      #expect("89ab".contains(groups[3].first!))
      seen.insert(uid)
    }
    #expect(seen.count == 10_000)
  }

  @Test func laterMillisecondsSortLater() {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let uids = (0..<100).map {
      SyncBookkeeping.newUID(now: start.addingTimeInterval(Double($0) / 100))
    }
    #expect(uids == uids.sorted())
  }
}
