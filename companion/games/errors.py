"""The one error every game engine raises for a refused move. The message is written for the players; `rule`
names the rule that forbids the move (a short id such as "placement.torso-needs-legs") where the engine has one."""


class IllegalMove(ValueError):
    def __init__(self, rule: str, message: str | None = None):
        if message is None:  # IllegalMove("message"): an engine that does not name its rules
            rule, message = "", rule
        super().__init__(message)
        self.rule = rule

    def __repr__(self) -> str:
        return f"IllegalMove({self.rule!r}, {str(self)!r})"
