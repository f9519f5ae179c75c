import Testing

@Suite struct NotesCommandLinePlaceholder {}
