"""lanescope's exceptions (the C++ side raises these; see lanescope.Error)."""


class Error(Exception):
    """Every failure lanescope reports: the message is lanescope-cli's, saying what is legal."""


class UsageError(Error, ValueError):
    """A malformed argument: a wrong type, an unknown keyword, an empty or ill-formed value
    (lanescope-cli's usage errors, exit status 2)."""


class QueryError(Error, ValueError):
    """A well-formed request the engine refuses: an unknown architecture, instruction or
    operand, an illegal modifier value, a tile past the limits (lanescope-cli's exit status 1)."""


class InternalError(Error, RuntimeError):
    """A bug in lanescope (lanescope-cli's exit status 3); please report it with the call."""
