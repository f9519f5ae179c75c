import Dispatch
import Foundation

/// How a main-actor object's `deinit` finds out whether it may finish its work right away.
///
/// Airframe's deinits are nonisolated: an `isolated deinit` needs the Swift 6.2 runtime,
/// and below the OS releases that ship it the back-deployment shim has aborted in adopters'
/// test suites. A deinit that runs on the main actor (the main thread, or the main queue
/// drained by a worker thread after `dispatchMain()`, as on Linux) finishes its work at
/// once through `MainActor.assumeIsolated`; one that runs elsewhere hands the work to the
/// main actor's next turn.
enum MainActorCheck {
  /// A marker set on the main queue, readable from any thread.
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs on the main actor's executor.
  static var isOnMainActor: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
  }

  /// Runs `work` on the main actor: now if the caller is on it, otherwise on its next turn.
  static func run(_ work: @escaping @MainActor @Sendable () -> Void) {
    if isOnMainActor {
      MainActor.assumeIsolated(work)
    } else {
      Task { @MainActor in work() }
    }
  }
}

/// The lifetimes released off the main actor whose cancellation has not run yet.
///
/// Such a lifetime is freed before its observer list hears of it, while the list still
/// keeps an unretained reference to it. Compaction, the only code that follows those
/// references, skips its pass while any such release is pending; the lock orders a
/// release that starts during a compaction after it.
enum OffMainReleases {
  static let lock = NSLock()
  nonisolated(unsafe) private static var pending = 0

  /// Records a release that will finish on the main actor and takes the lock, so the
  /// releasing deinit can read its handle while no compaction renumbers it; the deinit
  /// then calls ``unlock()``.
  static func begin() {
    lock.lock()
    pending += 1
  }

  /// Gives up the lock taken by ``begin()``.
  static func unlock() {
    lock.unlock()
  }

  /// Records that a release recorded by ``begin()`` has finished.
  static func end() {
    lock.lock()
    pending -= 1
    lock.unlock()
  }

  /// Runs `body` unless a release is pending; holds the lock while it runs.
  static func ifNonePending(_ body: () -> Void) {
    lock.lock()
    defer { lock.unlock() }
    if pending == 0 { body() }
  }
}
