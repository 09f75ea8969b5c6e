"""The rich consoles the commands print through: unwrapped off a terminal, quiet when the reader leaves."""

from __future__ import annotations

from rich.console import Console

#: How wide tables are drawn when the output is a pipe or a file (text is never wrapped there).
PIPED_WIDTH = 160


class CommandConsole(Console):
    """A rich Console for a command's output.

    Off a terminal (a pipe, a log file, cron) no line is wrapped at 80 columns: a printed hash or
    path stays on its line, and tables are drawn :data:`PIPED_WIDTH` wide. When the reader stops
    reading (``sheets-gm demo | head -1``) the BrokenPipeError goes up to the command line, which
    ends quietly with exit code 0, where rich's own handling would exit 1."""

    def __init__(self, *, stderr: bool = False) -> None:
        super().__init__(stderr=stderr)
        if not self.is_terminal:
            self.soft_wrap = True
            self.width = PIPED_WIDTH

    def on_broken_pipe(self) -> None:
        """Print nothing more, and let the command line end as for any closed pipe."""
        self.quiet = True
        raise BrokenPipeError
