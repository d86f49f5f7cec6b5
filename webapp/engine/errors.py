"""The engine's errors. Each message is plain words a player can read (`baraha replay` and
the API show it as it is); some also carry what they say as data, so that the edge can
word them again with names (webapp/words): `code` names the refusal and `facts` holds
its fields (seats 0-based, cards as text)."""


class EngineError(Exception):
    """Base class for everything the engine refuses."""

    def __init__(self, message: str, *, code: str | None = None, **facts):
        super().__init__(message)
        self.code, self.facts = code, facts


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now ('7H is not in your hand')."""


class BadCard(EngineError, ValueError):
    """Text that is not a card."""


class BadAction(EngineError, ValueError):
    """An action that is not well formed: unknown `do`, missing or wrong-typed field.

    `field` names the place inside the action ('card', 'onto.meld') so that callers can
    prefix their own location ('actions[4].card').
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class BadSetup(EngineError, ValueError):
    """A hand that cannot be set up: bad options, wrong hand sizes, a card dealt twice."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field
