// Heap bytes per live subscription (figure 5), and the time to create one.
//
// Heap in use is read from glibc's `mallinfo2()`: `uordblks` (bytes in use in the malloc
// arenas) plus `hblkhd` (bytes in blocks glibc serves with mmap, which is where large
// arrays such as an observer list's slots end up once they pass the mmap threshold;
// `uordblks` alone would miss them). The Glibc module does not import <malloc.h>, so the
// function is looked up with `dlsym` (see `heapBytesInUse`). Each repetition creates a
// fresh source (or model), reserves the array that keeps the lifetimes beforehand so the
// array is not counted, reads the heap, creates `memorySubscriptions` live subscriptions,
// reads the heap again and divides the difference by the count. The observer list's own
// growth is counted: it is part of what a subscription costs (its slot array grows by
// doubling, so the figure depends on where the count falls between two capacities).
// Subjects:
// - `StateSource<Int>` with an observer closure that captures nothing (it adds to a
//   static counter), so the closure itself needs no heap context;
// - `StateSource<Int>` with an observer closure capturing one class reference (Swift
//   uses a lone captured object as the closure's context, so this allocates nothing
//   more than the non-capturing case);
// - `StateSource<Int>` with an observer capturing two class references, which needs a
//   heap-allocated closure context, to show what a typical capturing observer adds;
// - Observation: one `withObservationTracking` registration of `model.value` per
//   observer, its onChange capturing one class reference (onChange must capture
//   something to do any work).
// The ns column is the time to create one subscription, from the same runs (the first
// run of each subject is a warm-up, as in every figure).

import AirframeBinding
import Observation

#if canImport(Glibc)
  import Glibc
#endif

/// Bytes of heap in use (`uordblks + hblkhd`), or nil where glibc's `mallinfo2` (or the
/// older `mallinfo`) cannot be found.
///
/// Swift's Glibc module does not import <malloc.h>, and this package has no C target, so
/// the function is found with `dlsym` and called through a C function type. Its result,
/// `struct mallinfo2` (ten `size_t`s) or `struct mallinfo` (ten `int`s), is larger than 16
/// bytes, so the C ABI of x86-64 and arm64 returns it through a caller-provided buffer;
/// any imported C struct that is at least as large and also made of integers has the
/// same calling convention. `struct rusage` (144 bytes of integers) is used as that
/// buffer, and the fields are read from its bytes.
func heapBytesInUse() -> Int? {
  #if canImport(Glibc)
    switch mallinfoFunction {
    case .mallinfo2(let function):
      let info = function()
      return withUnsafeBytes(of: info) { bytes in
        // struct mallinfo2: arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks,
        // uordblks, fordblks, keepcost.
        bytes.load(fromByteOffset: 7 * 8, as: Int.self)
          + bytes.load(fromByteOffset: 4 * 8, as: Int.self)
      }
    case .mallinfo(let function):
      let info = function()
      return withUnsafeBytes(of: info) { bytes in
        // struct mallinfo: the same fields as ints, which wrap past 2 GiB.
        Int(UInt32(bitPattern: bytes.load(fromByteOffset: 7 * 4, as: Int32.self)))
          + Int(UInt32(bitPattern: bytes.load(fromByteOffset: 4 * 4, as: Int32.self)))
      }
    case nil:
      return nil
    }
  #else
    return nil
  #endif
}

#if canImport(Glibc)
  /// A C function with no parameters that returns a large integer struct in memory.
  private typealias MallinfoSignature = @convention(c) () -> rusage

  private enum Mallinfo {
    case mallinfo2(MallinfoSignature)
    case mallinfo(MallinfoSignature)
  }

  private let mallinfoFunction: Mallinfo? = {
    guard MemoryLayout<rusage>.size >= 10 * MemoryLayout<Int>.size,
      let program = dlopen(nil, RTLD_NOW)
    else { return nil }
    if let symbol = dlsym(program, "mallinfo2") {
      return .mallinfo2(unsafeBitCast(symbol, to: MallinfoSignature.self))
    }
    if let symbol = dlsym(program, "mallinfo") {
      return .mallinfo(unsafeBitCast(symbol, to: MallinfoSignature.self))
    }
    return nil
  }()
#endif

/// The target of the non-capturing observer.
@MainActor
enum StaticSink {
  static var total = 0
}

/// Registrations of `model.value` that stay live until the model's value is written.
///
/// `@unchecked Sendable` for the same reason as `RetrackingObservers`: onChange must be
/// `@Sendable`, and everything (registration, writes, onChange) runs on the main thread.
final class TrackingRegistrations: @unchecked Sendable {
  let model = ObservedModel()
  private(set) var changes = 0
  private(set) var total = 0

  func register() {
    total &+= withObservationTracking {
      model.value
    } onChange: { [self] in
      changes += 1
    }
  }
}

/// The memory figure's subjects, and what their observers accumulated.
@MainActor
private final class SubscriptionFootprint {
  static let kinds = [
    "StateSource<Int>, non-capturing observer",
    "StateSource<Int>, observer capturing 1 reference",
    "StateSource<Int>, observer capturing 2 references",
    "Observation (withObservationTracking)",
  ]

  let count: Int
  /// Reserved once, so that the array holding the lifetimes is never counted.
  private var lifetimes: [Lifetime] = []
  private(set) var observedTotal = 0
  private(set) var observationChanges = 0
  private(set) var observationTotal = 0

  init(count: Int) {
    self.count = count
    lifetimes.reserveCapacity(count)
  }

  /// Creates `count` live subscriptions of kind `kind` from a fresh source, then ends them.
  ///
  /// - Returns: Heap bytes and nanoseconds per subscription created.
  func run(_ kind: Int) -> (bytes: Double, nanoseconds: Double) {
    switch kind {
    case 0:
      let source = StateSource(0)
      return measure {
        lifetimes.append(source.observe { StaticSink.total &+= $0 })
      } teardown: {
        lifetimes.removeAll(keepingCapacity: true)
      }
    case 1:
      let source = StateSource(0)
      let observerSink = Sink()
      let result = measure {
        lifetimes.append(source.observe { [observerSink] in observerSink.total &+= $0 })
      } teardown: {
        lifetimes.removeAll(keepingCapacity: true)
      }
      observedTotal &+= observerSink.total
      return result
    case 2:
      let source = StateSource(0)
      let observerSink = Sink()
      let otherSink = Sink()
      let result = measure {
        lifetimes.append(
          source.observe { [observerSink, otherSink] in
            observerSink.total &+= $0
            otherSink.count += 1
          })
      } teardown: {
        lifetimes.removeAll(keepingCapacity: true)
      }
      observedTotal &+= observerSink.total &+ otherSink.count
      return result
    default:
      let registrations = TrackingRegistrations()
      let result = measure {
        registrations.register()
      } teardown: {
        // Observation has no cancel: a write ends every registration of `model.value`.
        registrations.model.value += 1
      }
      observationChanges += registrations.changes
      observationTotal &+= registrations.total
      return result
    }
  }

  private func measure(
    _ subscribe: () -> Void,
    teardown: () -> Void
  ) -> (bytes: Double, nanoseconds: Double) {
    let before = heapBytesInUse() ?? 0
    let nanoseconds = timeNanoseconds {
      for _ in 0..<count { subscribe() }
    }
    let after = heapBytesInUse() ?? 0
    teardown()
    return (Double(after - before) / Double(count), nanoseconds / Double(count))
  }
}

/// Figure 5, or nil when the heap cannot be measured on this platform.
@MainActor
func memoryFigure(number: Int, scale: Scale, sink: Sink) -> Figure? {
  guard heapBytesInUse() != nil else { return nil }
  let count = scale.memorySubscriptions
  let kinds = SubscriptionFootprint.kinds
  let footprint = SubscriptionFootprint(count: count)

  for kind in kinds.indices { _ = footprint.run(kind) }
  var bytes = Array(repeating: [Double](), count: kinds.count)
  var times = Array(repeating: [Double](), count: kinds.count)
  for _ in 0..<scale.repetitions {
    for kind in kinds.indices {
      let (perSubscription, nanoseconds) = footprint.run(kind)
      bytes[kind].append(perSubscription)
      times[kind].append(nanoseconds)
    }
  }

  var figure = Figure(
    number: number,
    title: "heap bytes per live subscription, \(grouped(count)) live subscriptions"
      + " (mallinfo2 uordblks + hblkhd)",
    kind: .memory)
  for (kind, name) in kinds.enumerated() {
    let byteStats = Stats(samples: bytes[kind])
    var row = Row(
      benchmark: "memory",
      subject: name,
      operations: count,
      repetitions: scale.repetitions,
      time: Stats(samples: times[kind]),
      bytes: byteStats,
      extras: [("unit", .string("bytes/subscription; ns_per_op is ns per subscription created"))])
    if kind < 2 {
      row.extras.append(("target_bytes_per_subscription", .double(100)))
      row.extras.append(("target_met", .bool(byteStats.median <= 100)))
    }
    figure.rows.append(row)
  }
  for kind in 0..<2 {
    let median = figure.rows[kind].bytes?.median ?? .nan
    figure.notes.append(
      "target: \(kinds[kind]) ≤ 100 bytes: " + (median <= 100 ? "met" : "MISSED")
        + " (\(formatted(median, digits: 1)))")
  }
  let expectedChanges = (scale.repetitions + 1) * count
  if footprint.observationChanges != expectedChanges {
    figure.notes.append(
      "WARNING: Observation registrations fired \(grouped(footprint.observationChanges)) times on"
        + " teardown, expected \(grouped(expectedChanges))")
  }

  sink.total &+= footprint.observedTotal &+ StaticSink.total &+ footprint.observationTotal
  sink.count += footprint.observationChanges
  return figure
}
