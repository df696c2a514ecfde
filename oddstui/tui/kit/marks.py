"""The mark a board shows next to a suspect row (the rule itself is `book.suspect`)."""

#: The mark shown next to a suspect row's profit.
SUSPECT_MARK = "⚠"
