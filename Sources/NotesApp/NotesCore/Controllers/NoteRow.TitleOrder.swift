extension NoteRow {
  /// A sort title, ordered by its UTF-8 bytes (so by Unicode scalar values): "é" written
  /// with a combining accent or precomposed is one title, since both are composed first.
  ///
  /// Not `String`'s own order, which is not always the order of the composed scalars
  /// (Swift orders "e\u{301}" after "éa") and so could not start with a byte prefix.
  struct TitleOrder: Comparable {
    let text: String

    static func < (lhs: TitleOrder, rhs: TitleOrder) -> Bool {
      lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }

    static func == (lhs: TitleOrder, rhs: TitleOrder) -> Bool {
      lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }
  }
}
