"""Reading YAML files with the line of every key, so errors can name where they are."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml

from sheets_gm.lined import LinedDict

if TYPE_CHECKING:  # pydantic is imported by the reader of a model (whose model is one): a game's rules need none
    from pydantic import BaseModel


class YamlError(ValueError):
    """A YAML file that cannot be read, with its path and line."""


class _LineLoader(yaml.SafeLoader):
    pass


# The same loader on libyaml's parser where PyYAML was built with it (about ten times faster: a Coalition map is read
# each time its rules are made); a text it refuses is read again by the pure-Python loader, whose messages we give.
_FastLoader: type[yaml.SafeLoader] = _LineLoader
if getattr(yaml, "__with_libyaml__", False):
    class _CLineLoader(yaml.CSafeLoader):
        pass

    _FastLoader = _CLineLoader  # type: ignore[assignment]  # CSafeLoader is SafeLoader's twin, not its subclass


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LinedDict:
    mapping = LinedDict()
    mapping.lines = {}
    mapping.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, str | int | float | bool) and key is not None:
            raise YamlError(f"line {line}: a key must be a plain word")
        key = str(key)
        if key in mapping:
            raise YamlError(f"line {line}: key {key!r} appears twice (first on line {mapping.lines[key]})")
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.lines[key] = line
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_FastLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml_text(text: str, where: str) -> Any:
    """Parse YAML text; errors name ``where`` and the line."""
    try:
        try:
            return yaml.load(text, Loader=_FastLoader)  # a SafeLoader (or its libyaml twin) subclass
        except yaml.YAMLError:
            if _FastLoader is _LineLoader:
                raise
        return yaml.load(text, Loader=_LineLoader)  # what libyaml refused, with the pure-Python loader's words
    except YamlError as exc:
        raise YamlError(f"{where}: {exc}") from None
    except yaml.YAMLError as exc:
        # An unclosed quote or bracket is reported at the end of the file; its start is the context.
        context = getattr(exc, "context_mark", None)
        mark = context if context is not None and "end of stream" in str(getattr(exc, "problem", "")) else None
        mark = mark or getattr(exc, "problem_mark", None)
        line = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlError(f"{where}: {line}not valid YAML ({problem})") from None


def load_yaml_file(path: Path) -> Any:
    """Read and parse a YAML file; errors name the file and the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise YamlError(f"{path}: cannot read the file ({exc})") from None
    return load_yaml_text(text, str(path))


ModelT = TypeVar("ModelT", bound="BaseModel")


def load_yaml_model(path: Path, model: type[ModelT]) -> ModelT:
    """Read a YAML file into a pydantic model; YamlError naming the file, the field and, where known, the line."""
    from pydantic import ValidationError

    data = load_yaml_file(path)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        line = ""
        node: Any = data
        for part in first["loc"]:
            if isinstance(node, LinedDict) and isinstance(part, str) and part in node:
                line = f"line {node.line_of(part)}: "
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                break
        raise YamlError(f"{path}: {line}{where}: {first['msg']}") from None
