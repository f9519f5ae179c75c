/// The merge itself: the two sides' hunks grouped into regions, and each region taken from
/// one side, merged token by token, or found in conflict (the rules are ``LineMerge``'s).
extension LineMerge {
  /// The merge itself, without the shortcuts for unchanged or equal sides.
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version.
  ///   - theirs: The other side's version.
  ///   - cursor: A UTF-8 offset into `ours` (at most `ours.utf8.count`), or `nil`.
  ///   - refining: Whether a region in conflict is merged again token by token
  ///     (`mergeTokens`); `false` gives the line merge alone.
  /// - Returns: The merged text and the mapped cursor (0 if `cursor` is `nil`), or `nil` on
  ///   conflict.
  static func threeWay(
    ancestor: String, ours: String, theirs: String, cursor: Int?, refining: Bool = true
  ) -> (text: String, cursor: Int)? {
    var fallback: TokenFallback?
    return threeWay(
      ancestor: ancestor, ours: ours, theirs: theirs, cursor: cursor, refining: refining,
      fallback: &fallback)
  }

  /// The merge itself, reporting why a region in conflict stayed in conflict.
  ///
  /// - Parameters:
  ///   - ancestor: The version both sides were edited from.
  ///   - ours: This side's version.
  ///   - theirs: The other side's version.
  ///   - cursor: A UTF-8 offset into `ours` (at most `ours.utf8.count`), or `nil`.
  ///   - refining: Whether a region in conflict is merged again token by token.
  ///   - fallback: Set, on a conflict found with `refining`, to why the region that
  ///     conflicted could not be merged token by token.
  /// - Returns: The merged text and the mapped cursor (0 if `cursor` is `nil`), or `nil` on
  ///   conflict.
  static func threeWay(
    ancestor: String, ours: String, theirs: String, cursor: Int?, refining: Bool,
    fallback: inout TokenFallback?
  ) -> (text: String, cursor: Int)? {
    let base = Lines(ancestor)
    let mine = Lines(ours)
    let other = Lines(theirs)
    var table: [LineKey: Int] = [:]
    let baseIDs = base.ids(interning: &table)
    let mineIDs = mine.ids(interning: &table)
    let otherIDs = other.ids(interning: &table)
    let mineHunks = editScript(from: baseIDs, to: mineIDs)
    let otherHunks = editScript(from: baseIDs, to: otherIDs)

    var output = Output(cursor: cursor.map { mine.position(ofOffset: $0) })
    // Our lines before this index are written.
    var mineDone = 0
    for region in Regions(mine: mineHunks, other: otherHunks) {
      // Unchanged lines before the region: the same bytes on every side; take ours.
      output.appendOurs(mine, mineDone..<region.mine.lowerBound)
      mineDone = region.mine.upperBound
      if region.otherChanges.isEmpty {
        output.appendOurs(mine, region.mine)
      } else if region.mineChanges.isEmpty {
        output.appendTheirs(other, region.other, over: region.mine)
      } else if mineIDs[region.mine] == otherIDs[region.other] {
        output.appendOurs(mine, region.mine)
      } else if refining {
        // The cursor's offset in our lines of the region, if it is in them.
        let regionCursor = output.cursor.flatMap { cursor in
          region.mine.contains(cursor.line)
            ? mine.bounds[cursor.line] - mine.bounds[region.mine.lowerBound] + cursor.column
            : nil
        }
        let outcome = mergeTokens(
          base: Tokens(base, region.ancestor), mine: Tokens(mine, region.mine),
          other: Tokens(other, region.other), cursor: regionCursor)
        switch outcome {
        case .merged(let bytes, let mapped):
          output.appendRegion(bytes, cursor: mapped)
        case .fallback(let reason):
          fallback = reason
          return nil
        }
      } else {
        return nil
      }
    }
    output.appendOurs(mine, mineDone..<mine.count)
    return (String(decoding: output.bytes, as: UTF8.self), output.finalCursor)
  }
}
