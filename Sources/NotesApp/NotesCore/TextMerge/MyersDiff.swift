/// Myers' O((N+M)·D) diff in linear space (the bisection of Neil Fraser's diff-match-patch):
/// the matches of a shortest edit script between two sequences of numbers (interned lines
/// or tokens), which `LineMerge.editScript` turns into hunks.
///
/// ## Guarantees
/// - O((N + M)·D) time and O(N + M) memory (N, M: the lengths, D: elements that differ):
///   the common prefix and suffix are trimmed, then the middle is bisected.
struct MyersDiff {
  let a: [Int]
  let b: [Int]
  /// The matched pairs `(index in a, index in b)`, in increasing order.
  var matches: [(Int, Int)] = []

  init(a: [Int], b: [Int]) {
    self.a = a
    self.b = b
  }

  /// Appends the matches of a shortest edit script from `a[aLow..<aHigh]` to
  /// `b[bLow..<bHigh]`.
  mutating func diff(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) {
    var aLow = aLow
    var bLow = bLow
    while aLow < aHigh, bLow < bHigh, a[aLow] == b[bLow] {
      matches.append((aLow, bLow))
      aLow += 1
      bLow += 1
    }
    var aEnd = aHigh
    var bEnd = bHigh
    while aEnd > aLow, bEnd > bLow, a[aEnd - 1] == b[bEnd - 1] {
      aEnd -= 1
      bEnd -= 1
    }
    if aLow < aEnd, bLow < bEnd, let point = split(aLow, aEnd, bLow, bEnd) {
      diff(aLow, point.x, bLow, point.y)
      diff(point.x, aEnd, point.y, bEnd)
    }
    for offset in 0..<(aHigh - aEnd) {
      matches.append((aEnd + offset, bEnd + offset))
    }
  }

  /// A point on a shortest edit path through the given ranges where the forward and the
  /// reverse searches meet, strictly inside the ranges; `nil` only if none is found.
  ///
  /// The ranges are non-empty and their first elements differ, as do their last.
  private func split(
    _ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int
  ) -> (x: Int, y: Int)? {
    let n = aHigh - aLow
    let m = bHigh - bLow
    let maxD = (n + m + 1) / 2
    let offset = maxD
    let length = 2 * maxD + 2
    // For each diagonal k (x - y), the furthest x reached: forward from the start, and
    // backward from the end (x counted from the end).
    var forward = [Int](repeating: -1, count: length)
    var backward = forward
    forward[offset + 1] = 0
    backward[offset + 1] = 0
    let delta = n - m
    // With an odd delta the paths meet in a forward step, otherwise in a backward one.
    let meetForward = delta % 2 != 0
    var forwardStart = 0
    var forwardEnd = 0
    var backwardStart = 0
    var backwardEnd = 0
    for d in 0..<maxD {
      var k = -d + forwardStart
      while k <= d - forwardEnd {
        let index = offset + k
        var x =
          k == -d || (k != d && forward[index - 1] < forward[index + 1])
          ? forward[index + 1] : forward[index - 1] + 1
        var y = x - k
        while x < n, y < m, a[aLow + x] == b[bLow + y] {
          x += 1
          y += 1
        }
        forward[index] = x
        if x > n {
          forwardEnd += 2
        } else if y > m {
          forwardStart += 2
        } else if meetForward {
          let other = offset + delta - k
          if other >= 0, other < length, backward[other] != -1, x >= n - backward[other] {
            return (aLow + x, bLow + y)
          }
        }
        k += 2
      }
      k = -d + backwardStart
      while k <= d - backwardEnd {
        let index = offset + k
        var x =
          k == -d || (k != d && backward[index - 1] < backward[index + 1])
          ? backward[index + 1] : backward[index - 1] + 1
        var y = x - k
        while x < n, y < m, a[aHigh - 1 - x] == b[bHigh - 1 - y] {
          x += 1
          y += 1
        }
        backward[index] = x
        if x > n {
          backwardEnd += 2
        } else if y > m {
          backwardStart += 2
        } else if !meetForward {
          let other = offset + delta - k
          if other >= 0, other < length, forward[other] != -1 {
            let forwardX = forward[other]
            let forwardY = offset + forwardX - other
            if forwardX >= n - x {
              return (aLow + forwardX, bLow + forwardY)
            }
          }
        }
        k += 2
      }
    }
    return nil
  }
}
