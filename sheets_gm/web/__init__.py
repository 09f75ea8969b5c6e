"""The match page: the public board as a web page, built from the engine's record of a match (the nobody-view the
board tabs show, and the public Log), written as static files (HTML, SVG, a little JavaScript) that any web server,
``sheets-gm serve --web`` or a browser opening the file serves. It reads no spreadsheet and writes nothing but its
folder."""
