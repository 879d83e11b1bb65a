"""Helpers for tests that hold a search's stream open: wait for it to run, read it out."""

from __future__ import annotations


async def running(search):
    """The stream of a search, once its first Info says it runs."""
    iterator = aiter(search)
    await anext(iterator)
    return iterator


async def drain(iterator) -> None:
    """Read a stream to its end."""
    async for _ in iterator:
        pass
