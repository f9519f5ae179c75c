# Prints the accessible tree of one running application as JSON: one object per node with
# its role, name, text (for text roles), states and children. Read through AT-SPI, the way
# assistive technology reads the window; the desktop tests compare it with the database.
#
# For a text node it also reports the caret, the selection and where the caret's character
# is in the window (to tell whether the view scrolled).
#
# Usage: /usr/bin/python3 accessible-tree.py APPLICATION-NAME
#        /usr/bin/python3 accessible-tree.py APPLICATION-NAME --caret TEXT-NAME OFFSET
#          (puts the caret of the text node named TEXT-NAME at OFFSET, as assistive
#          technology does, and prints the tree)
import json
import sys

import pyatspi


def text_of(node):
    try:
        text = node.queryText()
        # An end of -1 ("to the end") reads nothing from GTK 4.8's entries.
        return text.getText(0, text.characterCount)
    except NotImplementedError:
        return None


def caret_of(node):
    try:
        text = node.queryText()
    except NotImplementedError:
        return None
    entry = {"caret": text.caretOffset}
    if text.getNSelections() > 0:
        entry["selection"] = list(text.getSelection(0))
    try:
        extents = text.getCharacterExtents(text.caretOffset, pyatspi.WINDOW_COORDS)
        entry["caretFrame"] = [extents[0], extents[1], extents[2], extents[3]]
    except Exception:
        pass
    return entry


def find(node, role, name, depth=0):
    if depth > 40 or node is None:
        return None
    if node.getRoleName() == role and node.name == name:
        return node
    for index in range(node.childCount):
        found = find(node.getChildAtIndex(index), role, name, depth + 1)
        if found is not None:
            return found
    return None


def describe(node, depth=0):
    if depth > 40:
        return None
    entry = {"role": node.getRoleName(), "name": node.name}
    text = text_of(node)
    if text is not None:
        entry["text"] = text
        if node.getRoleName() == "text":
            entry.update(caret_of(node) or {})
    try:
        # Relative to the node's window: GTK 4 cannot tell where a window is on the screen,
        # and warns for every position asked in screen coordinates.
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        entry["frame"] = [extents.x, extents.y, extents.width, extents.height]
    except NotImplementedError:
        pass
    states = node.getState()
    entry["states"] = sorted(
        pyatspi.stateToString(state)
        for state in (
            pyatspi.STATE_SELECTED,
            pyatspi.STATE_FOCUSED,
            pyatspi.STATE_SENSITIVE,
            pyatspi.STATE_EDITABLE,
        )
        if states.contains(state)
    )
    children = []
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            described = describe(child, depth + 1)
            if described is not None:
                children.append(described)
    if children:
        entry["children"] = children
    return entry


def main():
    wanted = sys.argv[1]
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        application = desktop.getChildAtIndex(index)
        if application is not None and application.name == wanted:
            if len(sys.argv) == 5 and sys.argv[2] == "--caret":
                target = find(application, "text", sys.argv[3])
                if target is None:
                    print(json.dumps({"error": "no text named " + sys.argv[3]}))
                    return 1
                target.queryText().setCaretOffset(int(sys.argv[4]))
            print(json.dumps(describe(application), ensure_ascii=False))
            return 0
    print(json.dumps({"error": "no application named " + wanted}))
    return 1


sys.exit(main())
