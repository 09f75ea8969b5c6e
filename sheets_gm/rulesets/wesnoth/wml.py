"""A reader for the subset of Wesnoth's WML that unit, movetype and faction files use.

Two stages, as in the game: a preprocessor (``#define`` macros with positional and
``#arg`` optional arguments, ``{MACRO args}`` calls, ``#ifdef``/``#ifndef``/``#else``/
``#endif``, ``#undef``, comments) and a parser of the result (``[tag]``, ``[/tag]``,
``[+tag]``, ``key=value`` with quoted, translatable and ``+``-joined values, ``a,b=1,2``).
A call to a macro the reader was not given (sounds, animations) expands to nothing: none of
those carry the numbers the board game uses. A file inclusion (``{multiplayer/factions/x.cfg}``,
``{~add-ons/Era/factions}``) expands to the files an ``Includes`` function finds (an era's
factions are included that way), and to nothing without one.

Line numbers survive expansion: the text a macro call produces has its line breaks turned
into a separator the parser reads as one but does not count, and the call's own line breaks
follow it, so an error names the line of the file it is in.

>>> pre = Preprocessor()
>>> pre.define_from("#define HP N\\nhitpoints={N}#enddef", "macros.cfg")
>>> root = parse(pre.expand_file("[unit_type]\\n  id=Spearman\\n  {HP 36}\\n[/unit_type]", "x.cfg"), "x.cfg")
>>> root.first("unit_type").attrs
{'id': 'Spearman', 'hitpoints': '36'}
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

#: Stands for a line break that came out of a macro body: a line break to the parser, not a file line.
_SOFT_BREAK = "\x1e"
_NAME = re.compile(r"[A-Za-z0-9_]")
_WORD = re.compile(r"[A-Za-z0-9_]+")
_BLANKS = re.compile(r"[ \t\r]+")
#: Where the preprocessor's first stage stops its walk over plain text: a directive or comment, a quote, a line break.
_STRIPPER_STOP = re.compile(r'[#"\n]')
_NAMED_ARG = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)
_CONDITIONALS = ("#ifdef", "#ifndef", "#ifhave", "#ifnhave", "#ifver", "#ifnver")


class WmlError(ValueError):
    """A WML file that does not parse: the message names the file and the line."""


#: Finds the files of an inclusion ``{path}`` called from the file ``where``: each file's text and
#: name, in order, or None when nothing is there.
Includes = Callable[[str, str], list[tuple[str, str]] | None]


@dataclass(frozen=True, slots=True)
class Macro:
    """One ``#define``: its positional parameters, its optional (``#arg``) ones with defaults, its body."""

    name: str
    params: tuple[str, ...]
    optional: dict[str, str]
    body: str


@dataclass(slots=True)
class Node:
    """One WML tag: its attributes (the last value of a key wins) and its child tags in order."""

    tag: str
    line: int = 0
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)

    def all(self, tag: str) -> list[Node]:
        """The child tags named ``tag``, in order."""
        return [c for c in self.children if c.tag == tag]

    def first(self, tag: str) -> Node | None:
        """The first child tag named ``tag``, or None."""
        return next((c for c in self.children if c.tag == tag), None)

    def copy(self) -> Node:
        """A deep copy."""
        return Node(self.tag, self.line, dict(self.attrs), [c.copy() for c in self.children])

    def merge(self, other: Node) -> None:
        """Merge ``other`` in the way the game builds an inheriting variation: its attributes
        overwrite, its k-th ``[x]`` merges into our k-th ``[x]`` (or removes it with
        ``__remove=yes``), and its surplus children are appended."""
        self.attrs.update(other.attrs)
        merged: dict[str, int] = {}
        removed: list[Node] = []
        for child in self.children:
            theirs = other.all(child.tag)
            k = merged.get(child.tag, 0)
            if k < len(theirs):
                merged[child.tag] = k + 1
                if theirs[k].attrs.get("__remove") == "yes":
                    removed.append(child)
                else:
                    child.merge(theirs[k])
        self.children = [c for c in self.children if not any(c is r for r in removed)]
        seen: dict[str, int] = {}
        for child in other.children:
            k = seen.get(child.tag, 0)
            seen[child.tag] = k + 1
            if k >= merged.get(child.tag, 0):
                self.children.append(child.copy())


class _LineAt:
    """The line number of a position, counted only when a message shows it."""

    __slots__ = ("i", "text")

    def __init__(self, text: str, i: int) -> None:
        self.text, self.i = text, i

    def __str__(self) -> str:
        return str(self.text.count("\n", 0, self.i) + 1)


def _line_end(text: str, i: int) -> int:
    j = text.find("\n", i)
    return len(text) if j < 0 else j


class Preprocessor:
    """Macros read from files, and their expansion in other files."""

    def __init__(self, includes: Includes | None = None) -> None:
        self.macros: dict[str, Macro] = {}
        self.unknown: set[str] = set()
        self.includes = includes
        self.missing_includes: set[str] = set()  # inclusions that ``includes`` found nothing for

    def define_from(self, text: str, where: str) -> None:
        """Learn the ``#define``s of a macro file (its other text is dropped)."""
        self._strip(text, where)

    def expand_file(self, text: str, where: str) -> str:
        """A file's text with comments and conditionals applied and every macro call expanded; its own
        ``#define``s are known from then on, until it ``#undef``s them."""
        kept, undefs = self._strip(text, where)
        out = self._expand(kept, {}, where, 0, top=True)
        for name in undefs:
            self.macros.pop(name, None)
        return out

    # -- stage 1: comments, conditionals, definitions --------------------------------------
    def _strip(self, text: str, where: str) -> tuple[str, list[str]]:
        return _Stripper(self, text, where).run()

    @staticmethod
    def _skip(text: str, i: int, branches: list[bool], where: str) -> int:
        """Past an inactive branch: to its #else (if that makes it active) or its #endif."""
        depth = 0
        n = len(text)
        while i < n:
            j = _line_end(text, i)
            line = text[i:j].strip()
            if line.startswith(_CONDITIONALS):
                depth += 1
            elif line.startswith("#endif"):
                if depth == 0:
                    branches.pop()
                    return j
                depth -= 1
            elif line.startswith("#else") and depth == 0:
                branches[-1] = not branches[-1]
                if all(branches):
                    return j
            i = j + 1
        raise WmlError(f"{where}: an #ifdef is not closed by #endif")

    # -- stage 2: macro calls ------------------------------------------------------------
    def _expand(self, text: str, args: dict[str, str], where: str, depth: int, top: bool = False) -> str:
        if depth > 60:
            raise WmlError(f"{where}: macros nest more than 60 deep")
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            start = text.find("{", i)
            if start < 0:
                out.append(text[i:])
                break
            out.append(text[i:start])
            end = _closing_brace(text, start, where)
            call = text[start + 1:end]
            i = end + 1
            produced = self._call(call, args, where, depth)
            if top:  # keep the file's line count: the call's own breaks come after what it produced
                produced = produced.replace("\n", _SOFT_BREAK) + "\n" * call.count("\n")
            out.append(produced)
        return "".join(out)

    def _call(self, call: str, args: dict[str, str], where: str, depth: int) -> str:
        words = _split_call(call)
        if not words:
            return ""
        name, rest = words[0], words[1:]
        if name in args and not rest:
            return args[name]
        macro = self.macros.get(name)
        if macro is None:
            if "/" not in name and not name.endswith(".cfg"):
                self.unknown.add(name)
            elif self.includes is not None and not rest:
                return self._include(name, where, depth)
            return ""
        positional: list[str] = []
        named: dict[str, str] = {}
        for word in rest:
            m = _NAMED_ARG.match(word)
            if m and m.group(1) in macro.optional:
                named[m.group(1)] = _unwrap(m.group(2))
            else:
                positional.append(_unwrap(word))
        if len(positional) != len(macro.params):
            raise WmlError(f"{where}: macro {name} takes {len(macro.params)} arguments "
                           f"({' '.join(macro.params) or 'none'}), got {len(positional)}: {{{call[:80].strip()}}}")
        values = {p: self._expand(v, args, where, depth + 1) for p, v in zip(macro.params, positional, strict=True)}
        for p, default in macro.optional.items():
            if p in named:
                values[p] = self._expand(named[p], args, where, depth + 1)
            else:
                values[p] = self._expand(self._strip(default, where)[0], values, where, depth + 1)
        return self._expand(macro.body, values, where, depth + 1)

    def _include(self, name: str, where: str, depth: int) -> str:
        assert self.includes is not None
        found = self.includes(name, where)
        if not found:
            self.missing_includes.add(name)
            return ""
        out = []
        for text, file in found:
            kept, _undefs = self._strip(text, file)
            out.append(self._expand(kept, {}, file, depth + 1))
        return "\n".join(out)


def _closing_brace(text: str, i: int, where: str) -> int:
    depth = 0
    in_quote = False
    for j in range(i, len(text)):
        c = text[j]
        if c == '"':
            in_quote = not in_quote
        elif in_quote:
            continue
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j
    line = text.count("\n", 0, i) + 1
    raise WmlError(f"{where}:{line}: a '{{' is never closed by '}}'")


def _split_call(call: str) -> list[str]:
    """A macro call's words: whitespace separates them except inside (...), {...} and "..."."""
    words: list[str] = []
    current: list[str] = []
    parens = braces = 0
    in_quote = False
    for c in call:
        if in_quote:
            current.append(c)
            in_quote = c != '"'
            continue
        if c == '"':
            in_quote = True
        elif c == "(":
            parens += 1
        elif c == ")":
            parens -= 1
        elif c == "{":
            braces += 1
        elif c == "}":
            braces -= 1
        elif c.isspace() and parens == 0 and braces == 0:
            if current:
                words.append("".join(current))
                current = []
            continue
        current.append(c)
    if current:
        words.append("".join(current))
    return words


def _unwrap(word: str) -> str:
    return word[1:-1] if word.startswith("(") and word.endswith(")") else word


# -- the parser ----------------------------------------------------------------------------
Token = tuple[str, str, int]  # kind, text, line


def _tokens(text: str, where: str) -> list[Token]:
    """Words, quoted strings, line breaks, the translation mark and single characters, with lines."""
    out: list[Token] = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c in " \t\r":
            blanks = _BLANKS.match(text, i)
            i = blanks.end() if blanks else i + 1
        elif c == "\n" or c == _SOFT_BREAK:
            out.append(("lf", "\n", line))
            line += c == "\n"
            i += 1
        elif c == '"':
            parts: list[str] = []
            j = i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    raise WmlError(f"{where}:{line}: a quoted text is never closed")
                parts.append(text[j:k])
                if k + 1 < n and text[k + 1] == '"':
                    parts.append('"')
                    j = k + 2
                    continue
                break
            value = "".join(parts)
            out.append(("q", value, line))
            line += value.count("\n")
            i = k + 1
        elif c == "<" and text.startswith("<<", i):
            k = text.find(">>", i + 2)
            if k < 0:
                raise WmlError(f"{where}:{line}: a << text is never closed by >>")
            out.append(("q", text[i + 2:k], line))
            line += text.count("\n", i, k)
            i = k + 2
        elif c == "_" and (i + 1 >= n or not _NAME.match(text[i + 1])):
            out.append(("_", "_", line))
            i += 1
        elif (word := _WORD.match(text, i)) is not None:
            out.append(("word", word.group(), line))
            i = word.end()
        else:
            out.append((c, c, line))
            i += 1
    return out


def parse(text: str, where: str) -> Node:
    """The tags of preprocessed WML text under a root node; WmlError naming the file and line."""
    root = Node("", 0)
    stack = [root]
    toks = _tokens(text, where)
    i, n = 0, len(toks)
    while i < n:
        kind, value, line = toks[i]
        if kind == "lf":
            i += 1
            continue
        if kind == "[":
            j = i + 1
            name = ""
            while j < n and toks[j][0] != "]":
                if toks[j][0] == "lf":
                    break
                name += toks[j][1]
                j += 1
            if j >= n or toks[j][0] != "]":
                raise WmlError(f"{where}:{line}: a tag '[{name}' is not closed by ']'")
            i = j + 1
            if name.startswith("/"):
                if len(stack) == 1:
                    raise WmlError(f"{where}:{line}: [{name}] closes a tag that was never opened")
                closing = stack.pop()
                if closing.tag != name[1:]:
                    raise WmlError(f"{where}:{line}: [{closing.tag}] (line {closing.line}) is closed by [{name}]")
            elif name.startswith("+"):
                parent = stack[-1]
                found = [c for c in parent.children if c.tag == name[1:]]
                node = found[-1] if found else Node(name[1:], line)
                if not found:
                    parent.children.append(node)
                stack.append(node)
            else:
                node = Node(name, line)
                stack[-1].children.append(node)
                stack.append(node)
            continue
        if kind == "word":
            keys = [value]
            j = i + 1
            while j + 1 < n and toks[j][0] == ",":
                keys.append(toks[j + 1][1])
                j += 2
            if j >= n or toks[j][0] != "=":
                raise WmlError(f"{where}:{line}: expected key=value, found {value!r} with no '='")
            i, values = _value(toks, j + 1, len(keys))
            for key, v in zip(keys, values + [""] * (len(keys) - len(values)), strict=True):
                stack[-1].attrs[key] = v
            continue
        raise WmlError(f"{where}:{line}: unexpected {value!r}; a line is a [tag], a [/tag] or a key=value")
    if len(stack) > 1:
        raise WmlError(f"{where}:{stack[-1].line}: [{stack[-1].tag}] is never closed by [/{stack[-1].tag}]")
    return root


def _value(toks: list[Token], i: int, count: int) -> tuple[int, list[str]]:
    """The value(s) after '=' up to the end of the line (a '+' joins the next line)."""
    values: list[str] = []
    buf: list[str] = []
    after_word = joined = False
    n = len(toks)
    while i < n:
        kind, value, _ = toks[i]
        if kind == "lf":
            if not joined:
                break
            i += 1
            continue
        if kind == "+":
            joined, after_word = True, False
            i += 1
            continue
        joined = False
        if kind == "," and len(values) + 1 < count:
            values.append("".join(buf).strip())
            buf, after_word = [], False
        elif kind == "_":
            if i + 1 < n and toks[i + 1][0] == "q":
                buf.append(toks[i + 1][1].split("^", 1)[-1])
                i += 1
            else:
                buf.append("_")
            after_word = False
        elif kind == "q":
            buf.append(value)
            after_word = False
        elif kind == "word":
            if after_word:
                buf.append(" ")
            buf.append(value)
            after_word = True
        else:
            buf.append(value)
            after_word = False
        i += 1
    values.append("".join(buf).strip())
    return i, values


class _Stripper:
    """Stage 1 over one text: comments dropped, conditionals applied, ``#define``s learnt into the
    preprocessor's macros; ``run`` gives the text left and the names the text ``#undef``s."""

    def __init__(self, pre: Preprocessor, text: str, where: str) -> None:
        self.pre, self.text, self.where = pre, text, where
        self.out: list[str] = []
        self.sink = self.out
        self.body: list[str] = []
        self.arg_text: list[str] = []
        self.defining: tuple[str, tuple[str, ...], dict[str, str], _LineAt] | None = None
        self.arg_name: str | None = None
        self.branches: list[bool] = []
        self.undefs: list[str] = []

    def run(self) -> tuple[str, list[str]]:
        """Walk the text once; raise ``WmlError`` on a directive out of place."""
        text, where = self.text, self.where
        in_quote = False
        line_start = True
        i, n = 0, len(text)
        while i < n:
            stop = _STRIPPER_STOP.search(text, i)
            j = stop.start() if stop else n
            if j > i:  # a run of plain characters, kept whole
                run = text[i:j]
                self.sink.append(run)
                line_start = line_start and run.isspace()
                i = j
                continue
            c = text[i]
            if c == "#" and not in_quote:
                i = self._hash(i, line_start)
                continue
            if c == "\n":
                line_start = not in_quote
            else:  # a quote, or a '#' inside one
                in_quote, line_start = in_quote != (c == '"'), False
            self.sink.append(c)
            i += 1
        if self.defining is not None:
            raise WmlError(f"{where}:{self.defining[3]}: #define {self.defining[0]} has no #enddef")
        if self.branches:
            raise WmlError(f"{where}: an #ifdef is not closed by #endif")
        return "".join(self.out), self.undefs

    def _hash(self, i: int, line_start: bool) -> int:
        """A ``#`` outside quotes at ``i``: a directive or a comment; where the walk goes on."""
        text, where = self.text, self.where
        j = _line_end(text, i)
        words = text[i:j].split(None, 1)
        word = words[0]
        rest = words[1].strip() if len(words) > 1 else ""
        line = _LineAt(text, i)
        if word == "#enddef":
            if self.defining is None:
                raise WmlError(f"{where}:{line}: #enddef without #define")
            name, params, optional, _ = self.defining
            if all(self.branches):
                self.pre.macros[name] = Macro(name, params, optional, "".join(self.body))
            self.defining, self.sink = None, self.out
            return j
        if word == "#endarg" and self.defining is not None and self.arg_name is not None:
            self.defining[2][self.arg_name] = "".join(self.arg_text)
            self.arg_name, self.sink = None, self.body
            return j
        if line_start:
            found = self._line_directive(word, rest, line, j)
            if found is not None:
                return found
        return j  # any other '#' starts a comment to the end of the line

    def _line_directive(self, word: str, rest: str, line: _LineAt, j: int) -> int | None:
        """A directive that must start its line (conditionals, ``#define``, ``#arg``, ``#undef``): where the walk
        goes on, or None when ``word`` is none of them."""
        text, where, branches = self.text, self.where, self.branches
        if word in _CONDITIONALS:
            branches.append((word == "#ifdef" and rest in self.pre.macros)
                            or (word == "#ifndef" and rest not in self.pre.macros))
            return j if all(branches) else self.pre._skip(text, j, branches, where)
        if word == "#else":
            if not branches:
                raise WmlError(f"{where}:{line}: #else without #ifdef")
            branches[-1] = not branches[-1]
            return j if all(branches) else self.pre._skip(text, j, branches, where)
        if word == "#endif":
            if not branches:
                raise WmlError(f"{where}:{line}: #endif without #ifdef")
            branches.pop()
            return j
        if word == "#define":
            if self.defining is not None:
                raise WmlError(f"{where}:{line}: #define inside the #define of {self.defining[0]}")
            parts = rest.split()
            if not parts:
                raise WmlError(f"{where}:{line}: #define needs a macro name")
            self.defining = (parts[0], tuple(parts[1:]), {}, line)
            self.body = []
            self.sink = self.body
            return j + 1
        if word == "#arg" and self.defining is not None:
            self.arg_name, self.arg_text = rest, []
            self.sink = self.arg_text
            return j + 1
        if word == "#undef":
            if self.defining is None and all(branches):
                self.undefs.append(rest)
            return j
        return None
