extension NoteListController {
  /// What a note-list filter keeps: the notebook (or every note) and the searched words.
  struct FilterKey: Hashable {
    let notebook: NotebookID?
    let words: [String]

    /// Whether every note this key keeps is kept by `other`, except notes with non-ASCII
    /// text: same notebook, ASCII words only, and each of `other`'s words inside one of
    /// these words (ignoring ASCII case), as the next key typed into a search makes.
    func narrows(_ other: FilterKey) -> Bool {
      guard notebook == other.notebook, !words.isEmpty, self != other else { return false }
      guard words.allSatisfy(Self.isASCII), other.words.allSatisfy(Self.isASCII) else {
        return false
      }
      let mine = words.map { $0.lowercased() }
      return other.words.allSatisfy { word in
        let word = word.lowercased()
        return mine.contains { $0.contains(word) }
      }
    }

    private static func isASCII(_ word: String) -> Bool {
      word.utf8.allSatisfy { $0 < 0x80 }
    }
  }
}
