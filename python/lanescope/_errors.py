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


class StatusError(Error):
    """lanescope-cli answered, with a failure status that is not an error of the request:
    ``status`` (4: no device, 5: a check failed), ``output`` (its standard output, e.g. check's
    explanation of how the layouts differ); the message holds both the CLI's message and that output."""

    def __init__(self, message, status=None, output=""):
        super().__init__(message)
        self.status = status
        self.output = output


class NoDeviceError(StatusError):
    """lanescope-cli's exit status 4: no GPU for ``verify`` (the message says which was looked for)."""


class MismatchError(StatusError):
    """lanescope-cli's exit status 5: a check failed (``check``: the layouts differ; ``verify``,
    ``conformance``: a layout disagrees with the device or the compiler)."""
