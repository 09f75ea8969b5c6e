"""The README's test command spreads the tests over its workers with ``--dist loadgroup``: the tests of one
``xdist_group`` go to one worker by the group's name at the end of their ids (``tests/conftest.py``), so that a
costly fixture they share is built once a run, not once a worker."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("groups-check")
def test_a_grouped_test_carries_its_group_in_its_id_exactly_under_loadgroup(request: pytest.FixtureRequest) -> None:
    """Under pytest 9.2, pytest-xdist 3.8's own mark of the id did not take, and no group was kept together."""
    loadgroup = bool(getattr(request.config.option, "loadgroup", False))  # a --dist loadgroup worker's
    assert request.node.nodeid.endswith("@groups-check") is loadgroup, (request.node.nodeid, loadgroup)
