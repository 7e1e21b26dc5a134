from scoring.engine import EngineError


class ConsoleError(EngineError):
    """A Trung Quân's or a device's mistake (bad seat, unknown signal, closed sitting): HTTP 400."""

    code = "console_refused"
