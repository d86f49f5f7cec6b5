"""The engine's errors. Each message is plain words a player can read."""


class EngineError(Exception):
    """Base class for everything the engine refuses."""


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
