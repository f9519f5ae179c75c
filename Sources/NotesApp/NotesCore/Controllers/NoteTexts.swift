// NoteTexts: where the note list keeps its rows' texts, so that a row holds no reference of
// its own.
//
// Why: the note list copies rows often (a search key lists up to 100,000 of them, a sort
// toggle gathers every one). If each row held its own box of strings, every copy would be a
// reference-count write to a box somewhere in memory. Rows point at a shared chunk of 64
// rows' texts instead, so copying 100,000 rows touches about 1,600 chunks, which stay in
// cache.

import Foundation

/// Up to 64 rows' texts, each written once, with their gram signatures.
///
/// ## Guarantees
///
/// - A slot is written once, before any row points at it, and never changed: a row's texts
///   are those of the note it was made from, for as long as the row exists (the row keeps
///   its chunk alive). Reading a slot needs no lock, from any thread.
/// - Each slot has its texts' gram signature: one bit for every ASCII letter or digit
///   (case folded) and one for every pair of them side by side in the title or the body,
///   stored by gram (a word per gram, a bit per slot), so that testing a gram for 64 rows
///   reads one word. A word whose letters and digits are not all in a row's signature is
///   not in its ASCII text; for a word of one or two letters or digits the signature is the
///   exact answer.
final class NoteTextChunk: @unchecked Sendable {
  /// The texts of one row.
  struct Entry {
    let title: String
    let body: String
    /// The title lowercased, in canonical composition: the title order's key.
    let sortTitle: String
    /// Whether title and body are all ASCII.
    let isASCII: Bool
  }

  /// The slots a chunk of the note list holds.
  static let listCapacity = 64

  /// The most slots this chunk holds.
  let capacity: Int
  /// The slots, initialized up to `count`.
  private let entries: UnsafeMutablePointer<Entry>
  /// One word per gram, whose bit `slot` says whether that slot's texts have the gram:
  /// grouped by gram, so testing one gram for the 64 rows of a chunk reads one word.
  private let signatures: UnsafeMutablePointer<UInt64>
  /// The note of each written slot.
  private let notes: UnsafeMutablePointer<NoteID>
  /// The number of written slots; changed only by the chunk's one writer.
  private(set) var count = 0
  /// How many of the written slots hold their note's current row; kept by the store that
  /// fills the chunk (on the main actor), unused otherwise.
  var current = 0

  /// Creates an empty chunk of `capacity` slots.
  init(capacity: Int) {
    self.capacity = capacity
    entries = .allocate(capacity: capacity)
    notes = .allocate(capacity: capacity)
    precondition(capacity <= 64, "a note text chunk holds at most 64 slots")
    signatures = .allocate(capacity: GramSignature.bits)
    signatures.initialize(repeating: 0, count: GramSignature.bits)
  }

  deinit {
    entries.deinitialize(count: count)
    entries.deallocate()
    notes.deallocate()
    signatures.deallocate()
  }

  /// Whether every slot is written.
  var isFull: Bool { count == capacity }

  /// Writes the next slot with `note`'s texts and returns it.
  ///
  /// Must not be called on a full chunk, nor by two threads at once.
  ///
  /// - Parameters:
  ///   - note: The note.
  ///   - grams: Whether to write the slot's grams now; if not, ``writeGrams(upTo:)`` must
  ///     run before the chunk is searched.
  /// - Returns: The slot written.
  func append(_ note: Note, grams: Bool = true) -> Int {
    precondition(count < capacity, "a note text chunk is full")
    let slot = count
    if grams { writeGrams(of: note.title, note.body, in: slot) }
    let isASCII = GramSignature.isASCII(note.title) && GramSignature.isASCII(note.body)
    let lowercased = note.title.lowercased()
    // ASCII is its own canonical composition.
    let sortTitle =
      isASCII || GramSignature.isASCII(lowercased)
      ? lowercased : lowercased.precomposedStringWithCanonicalMapping
    (entries + slot).initialize(
      to: Entry(title: note.title, body: note.body, sortTitle: sortTitle, isASCII: isASCII))
    (notes + slot).initialize(to: note.id)
    count += 1
    return slot
  }

  /// The texts in `slot`, which must be written.
  @inline(__always)
  func entry(_ slot: Int) -> Entry { entries[slot] }

  /// Writes the grams of slots `0..<end`, which were appended without them.
  ///
  /// May run on another thread than the writer's once those slots are written, provided
  /// nothing searches the chunk until it returns.
  func writeGrams(upTo end: Int) {
    for slot in 0..<end { writeGrams(of: entries[slot].title, entries[slot].body, in: slot) }
  }

  private func writeGrams(of title: String, _ body: String, in slot: Int) {
    GramSignature.add(title, to: signatures, slot: slot)
    GramSignature.add(body, to: signatures, slot: slot)
  }

  /// The note whose texts are in `slot`, which must be written.
  func note(in slot: Int) -> NoteID { notes[slot] }

  /// Whether the texts in `slot` have every gram of `grams`.
  ///
  /// A chunk's gram words are written as its slots fill, so for a chunk that is still
  /// filling call it only where the chunk is filled: the note list fills its chunks and
  /// searches them on the main actor.
  @inline(__always)
  func has(_ grams: GramSignature.Requirement, in slot: Int) -> Bool {
    grams.grams.withUnsafeBufferPointer { grams in
      for gram in grams where signatures[Int(gram)] >> UInt64(slot) & 1 == 0 { return false }
      return true
    }
  }
}

/// The gram signature of a text: which ASCII letters and digits it holds, alone and in
/// adjacent pairs, ignoring case.
enum GramSignature {
  /// The classes: a...z (0...25, either case) and 0...9 (26...35).
  static let classes = 36
  /// Grams: one per class, then one per ordered pair of classes.
  static let bits = classes + classes * classes

  /// The class of an ASCII letter or digit, or `nil`.
  @inline(__always)
  static func gramClass(_ byte: UInt8) -> Int? {
    let letter = (byte | 0x20) &- 0x61
    if letter < 26 { return Int(letter) }
    let digit = byte &- 0x30
    return digit < 10 ? 26 + Int(digit) : nil
  }

  /// Sets bit `slot` of the word of each gram of `text` in `signature`.
  static func add(_ text: String, to signature: UnsafeMutablePointer<UInt64>, slot: Int) {
    let bit: UInt64 = 1 << UInt64(slot)
    var text = text
    text.withUTF8 { bytes in
      var previous = -1
      for byte in bytes {
        guard let gram = gramClass(byte) else {
          previous = -1
          continue
        }
        signature[gram] |= bit
        if previous >= 0 { signature[classes + previous * classes + gram] |= bit }
        previous = gram
      }
    }
  }

  /// Whether `text` is all ASCII, checked eight bytes at a time.
  static func isASCII(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard let start = UnsafeRawPointer(bytes.baseAddress) else { return true }
      var offset = 0
      while offset + 8 <= bytes.count {
        let word = start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { return false }
        offset += 8
      }
      while offset < bytes.count {
        if bytes[offset] >= 0x80 { return false }
        offset += 1
      }
      return true
    }
  }

  /// The grams a text must have to contain a word.
  struct Requirement: Sendable {
    /// The grams, each once.
    let grams: [UInt16]
    /// Whether having the bits is also enough: the word is one or two letters or digits.
    let isExact: Bool

    /// What a text must have to contain `word`, the bytes of an ASCII word (any case).
    init(word: some Collection<UInt8>) {
      var required: Set<UInt16> = []
      var previous = -1
      var allGrams = true
      for byte in word {
        guard let gram = gramClass(byte) else {
          allGrams = false
          previous = -1
          continue
        }
        required.insert(UInt16(gram))
        if previous >= 0 { required.insert(UInt16(classes + previous * classes + gram)) }
        previous = gram
      }
      grams = required.sorted()
      isExact = allGrams && !word.isEmpty && word.count <= 2
    }
  }
}

/// The chunks whose grams a background thread writes, let go as soon as they are written
/// (not when the dispatched block is freed, which may be after the group is left): once
/// ``NoteTextStore/waitForGrams()`` returns, the thread keeps no chunk alive.
private final class GramWork: @unchecked Sendable {
  /// Touched only by the thread that runs `run()`, after creation.
  private var chunks: [NoteTextChunk]

  init(_ chunks: [NoteTextChunk]) { self.chunks = chunks }

  func run() {
    for chunk in chunks { chunk.writeGrams(upTo: chunk.count) }
    chunks = []
  }
}

/// Fills chunks with the note list's row texts and keeps track of which slots hold each
/// note's current row.
///
/// ## Guarantees
///
/// - The note list's appender, on the main actor, fills chunks in order and knows which slot
///   holds each note's current row. A full chunk where at most a quarter of the slots are
///   current is reported as sparse, so the list can move those rows to fresh slots and let
///   the chunk (with its old texts) go.
@MainActor
final class NoteTextStore {
  /// The chunk being filled.
  private var filling = NoteTextChunk(capacity: NoteTextChunk.listCapacity)
  /// The chunk holding each note's current row.
  private var currentChunk: [NoteID: NoteTextChunk] = [:]
  /// Full chunks with at least one current slot but at most a quarter of them current.
  private var sparse: [ObjectIdentifier: NoteTextChunk] = [:]
  /// While set, slots are written without their grams and full chunks are collected here.
  private var gramless: [NoteTextChunk]?
  /// The grams of the chunks filled while loading, being written on another thread.
  private var gramWriting: DispatchGroup?

  /// Expects about `count` notes.
  func reserveCapacity(_ count: Int) { currentChunk.reserveCapacity(count) }

  /// Writes the following slots without their grams, until ``writeGramsInBackground()``.
  ///
  /// Loading a library then costs only its texts' ASCII check; the grams (a pass over every
  /// byte, a large share of building the list) are written on another core after the first
  /// screen.
  func deferGrams() {
    if gramless == nil { gramless = [filling] }
  }

  /// Writes the grams of the chunks filled since ``deferGrams()`` on another thread (those
  /// of the chunk still filling at once) and writes later slots' grams as they come.
  func writeGramsInBackground() {
    guard let chunks = gramless else { return }
    gramless = nil
    filling.writeGrams(upTo: filling.count)
    let full = chunks.filter { $0 !== filling }
    guard !full.isEmpty else { return }
    let group = DispatchGroup()
    let work = GramWork(full)
    DispatchQueue.global(qos: .userInitiated).async(group: group) { work.run() }
    gramWriting = group
  }

  /// Waits until every slot's grams are written; call before searching the chunks.
  func waitForGrams() {
    if gramless != nil { writeGramsInBackground() }
    gramWriting?.wait()
    gramWriting = nil
  }

  /// Writes `note`'s texts to a slot, which becomes the note's current one.
  func append(_ note: Note) -> (NoteTextChunk, Int) {
    if filling.isFull {
      filling = NoteTextChunk(capacity: NoteTextChunk.listCapacity)
      gramless?.append(filling)
    }
    let chunk = filling
    let slot = chunk.append(note, grams: gramless == nil)
    chunk.current += 1
    if let old = currentChunk.updateValue(chunk, forKey: note.id) { supersede(old) }
    return (chunk, slot)
  }

  /// Notes that `id` has no current row any more (its note was deleted).
  func remove(_ id: NoteID) {
    if let old = currentChunk.removeValue(forKey: id) { supersede(old) }
  }

  private func supersede(_ chunk: NoteTextChunk) {
    chunk.current -= 1
    guard chunk.isFull, chunk.current * 4 <= chunk.capacity else { return }
    // A chunk with no current slot has nothing to move; forgetting it here (and not at the
    // next commit) lets it go as soon as the last row pointing at it does.
    if chunk.current == 0 {
      sparse.removeValue(forKey: ObjectIdentifier(chunk))
    } else {
      sparse[ObjectIdentifier(chunk)] = chunk
    }
  }

  /// The notes whose current rows are in sparse chunks, which forgets those chunks.
  ///
  /// Giving these notes fresh rows lets each sparse chunk go once no older row points at it.
  func takeNotesInSparseChunks() -> [NoteID] {
    guard !sparse.isEmpty else { return [] }
    var ids: Set<NoteID> = []
    for chunk in sparse.values {
      for slot in 0..<chunk.count {
        let id = chunk.note(in: slot)
        if currentChunk[id] === chunk { ids.insert(id) }
      }
    }
    sparse = [:]
    return ids.sorted()
  }

  /// The number of notes with a current row; for tests.
  var currentCount: Int { currentChunk.count }
}
