/// A seeded random number generator for reproducible randomized tests (SplitMix64).
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 42)
/// let steps = (0..<200).map { _ in Int.random(in: 0..<10, using: &random) }
/// ```
///
/// ## Guarantees
/// - The same seed gives the same sequence on every machine and every run (SplitMix64), so
///   a randomized test that prints its seed can be replayed exactly.
/// - Not for cryptography or for anything but tests and benchmarks.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is determined by `seed`.
  ///
  /// - Parameter seed: Any value; print it with a failure to replay the run.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  ///
  /// - Returns: A value determined by the seed and the number of earlier calls.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
