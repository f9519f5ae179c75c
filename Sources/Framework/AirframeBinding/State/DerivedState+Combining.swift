extension DerivedState {
  /// Creates a value derived from every input in `inputs`, recomputed when any of them
  /// delivers a new value.
  ///
  /// - Parameters:
  ///   - inputs: The projections the transform reads.
  ///   - transform: Computes the derived value from the inputs' current values.
  @inlinable
  public convenience init<each Input: StateProjection>(
    combining inputs: repeat each Input,
    transform: @escaping (repeat (each Input).Value) -> Value
  ) {
    self.init(inputs: repeat each inputs, transform: transform, isDuplicate: nil)
  }

  /// Creates a value derived from two inputs, recomputed when either delivers a new
  /// value.
  ///
  /// The same as the variadic `init(combining:transform:)`, with code specialized for two
  /// inputs: the common case gets no parameter-pack machinery on its write path.
  ///
  /// - Parameters:
  ///   - first: The first projection the transform reads.
  ///   - second: The second projection the transform reads.
  ///   - transform: Computes the derived value from the inputs' current values.
  @inlinable
  public convenience init<First: StateProjection, Second: StateProjection>(
    combining first: First,
    _ second: Second,
    transform: @escaping (First.Value, Second.Value) -> Value
  ) {
    self.init(first, second, transform: transform, isDuplicate: nil)
  }

  @inlinable
  convenience init<each Input: StateProjection>(
    inputs: repeat each Input,
    transform: @escaping (repeat (each Input).Value) -> Value,
    isDuplicate: ((Value, Value) -> Bool)?
  ) {
    var links: [DerivationLink] = []
    for input in repeat each inputs {
      links.append(DerivationLink(input))
    }
    let readers = (repeat DerivationLink.reader(each inputs))
    let compute = { transform(repeat (each readers)()) }
    let output = StateSource.derived(UntrackedReads.perform(compute), isDuplicate: isDuplicate)
    self.init(output: output, inputs: links) {
      output.store(compute(), unlessDuplicateBy: isDuplicate)
    }
  }

  @inlinable
  convenience init<First: StateProjection, Second: StateProjection>(
    _ first: First,
    _ second: Second,
    transform: @escaping (First.Value, Second.Value) -> Value,
    isDuplicate: ((Value, Value) -> Bool)?
  ) {
    guard let firstSource = DerivationLink.source(of: first),
      let secondSource = DerivationLink.source(of: second)
    else {
      self.init(inputs: first, second, transform: transform, isDuplicate: isDuplicate)
      return
    }
    let output = StateSource.derived(
      UntrackedReads.perform { transform(firstSource.stored, secondSource.stored) },
      isDuplicate: isDuplicate)
    self.init(output: output, inputs: [DerivationLink(first), DerivationLink(second)]) {
      output.store(
        transform(firstSource.stored, secondSource.stored), unlessDuplicateBy: isDuplicate)
    }
  }
}

extension DerivedState where Value: Equatable {
  /// Creates a value derived from every input in `inputs`; equal results are not
  /// delivered again.
  ///
  /// - Parameters:
  ///   - inputs: The projections the transform reads.
  ///   - transform: Computes the derived value from the inputs' current values.
  @inlinable
  public convenience init<each Input: StateProjection>(
    combining inputs: repeat each Input,
    transform: @escaping (repeat (each Input).Value) -> Value
  ) {
    self.init(inputs: repeat each inputs, transform: transform, isDuplicate: { $0 == $1 })
  }

  /// Creates a value derived from two inputs; equal results are not delivered again.
  ///
  /// The same as the variadic `init(combining:transform:)`, specialized for two inputs.
  ///
  /// - Parameters:
  ///   - first: The first projection the transform reads.
  ///   - second: The second projection the transform reads.
  ///   - transform: Computes the derived value from the inputs' current values.
  @inlinable
  public convenience init<First: StateProjection, Second: StateProjection>(
    combining first: First,
    _ second: Second,
    transform: @escaping (First.Value, Second.Value) -> Value
  ) {
    self.init(first, second, transform: transform, isDuplicate: { $0 == $1 })
  }
}
