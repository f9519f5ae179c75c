// AccessibleNode: the window as AT-SPI reports it (role, name, text, states, frame), read
// by Support/accessible-tree.py.

/// One node of the accessible tree.
struct AccessibleNode: Decodable {
  var role: String
  var name: String
  var text: String?
  var states: [String]
  /// A text's caret, as a character offset.
  var caret: Int?
  /// A text's selection: start and end character offsets.
  var selection: [Int]?
  /// Where the caret's character is in the window: x, y, width, height.
  var caretFrame: [Int]?
  /// x, y, width, height in its window.
  var frame: [Int]?
  var children: [AccessibleNode]?

  /// Every node below this one, depth first, this one included.
  var all: [AccessibleNode] { [self] + (children ?? []).flatMap(\.all) }

  /// The first node with `role` and, if given, `name`.
  func first(_ role: String, named name: String? = nil) -> AccessibleNode? {
    all.first { $0.role == role && (name == nil || $0.name == name) }
  }

  /// The first lines of a list's rows (each row's label: a notebook, a note's title), in
  /// order.
  var rowLabels: [String] {
    rowTexts.map { $0.split(separator: "\n").first.map(String.init) ?? "" }
  }

  /// The whole texts of a list's rows, in order (a note's second line is its preview).
  var rowTexts: [String] {
    (children ?? []).filter { $0.role == "list item" }.map { item in
      item.first("label")?.name ?? ""
    }
  }

  /// The first line of the selected row of a list.
  var selectedRow: String? {
    (children ?? []).first { $0.role == "list item" && $0.states.contains("selected") }?
      .first("label")?.name.split(separator: "\n").first.map(String.init)
  }

  /// The centre of the node in its window.
  var centre: (x: Int, y: Int)? {
    guard let frame, frame.count == 4 else { return nil }
    return (frame[0] + frame[2] / 2, frame[1] + frame[3] / 2)
  }
}
