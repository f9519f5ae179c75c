import Testing

@Suite struct NotesAppTestsPlaceholder {}
