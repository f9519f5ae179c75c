import Testing

@Suite struct NotesTerminalPlaceholder {}
