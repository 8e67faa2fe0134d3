"""The one error an engine raises for a refused move: it names the rule that forbids it."""


class IllegalMove(ValueError):
    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule

    def __repr__(self) -> str:
        return f"IllegalMove({self.rule!r}, {str(self)!r})"
