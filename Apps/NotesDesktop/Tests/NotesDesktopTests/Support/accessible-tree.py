# Prints the accessible tree of one running application as JSON: one object per node with
# its role, name, text (for text roles), states and children. Read through AT-SPI, the way
# assistive technology reads the window; the desktop tests compare it with the database.
#
# Usage: /usr/bin/python3 accessible-tree.py APPLICATION-NAME
import json
import sys

import pyatspi


def text_of(node):
    try:
        text = node.queryText()
        return text.getText(0, -1)
    except NotImplementedError:
        return None


def describe(node, depth=0):
    if depth > 40:
        return None
    entry = {"role": node.getRoleName(), "name": node.name}
    text = text_of(node)
    if text is not None:
        entry["text"] = text
    try:
        extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        entry["frame"] = [extents.x, extents.y, extents.width, extents.height]
    except NotImplementedError:
        pass
    states = node.getState()
    entry["states"] = sorted(
        pyatspi.stateToString(state)
        for state in (pyatspi.STATE_SELECTED, pyatspi.STATE_FOCUSED, pyatspi.STATE_SENSITIVE)
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
            print(json.dumps(describe(application), ensure_ascii=False))
            return 0
    print(json.dumps({"error": "no application named " + wanted}))
    return 1


sys.exit(main())
