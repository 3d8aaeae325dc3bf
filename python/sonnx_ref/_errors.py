"""The exceptions of sonnx_ref (raised by the C++ module for the library's sonnx::SpecError)."""


class Refused(ValueError):
    """An input refused by a clause of the spec.

    ``.clause`` is the clause's ID (``"Graph.feed.dtype"``, ``"Common.tensor.index"``, ...);
    ``str(e)`` is the line the CLI prints, ``"error: [ID] message"``.
    """

    def __init__(self, message: str, clause: str) -> None:
        super().__init__(message)
        self.clause = clause


class IOFailure(OSError):
    """A file or folder that could not be found, read, created or written at all (its content was
    never judged). ``.clause`` is the clause under which it was to be read or written; ``str(e)`` is
    the CLI's ``"error: [ID] message"``."""

    def __init__(self, message: str, clause: str) -> None:
        super().__init__(message)
        self.clause = clause
