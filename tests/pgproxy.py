"""A TCP proxy on 127.0.0.1 in front of the PostgreSQL test server, to take the database away
without touching the shared server: :meth:`Proxy.drop` closes every connection and refuses new
ones (what a server restart looks like from the bot), :meth:`Proxy.restore` listens again on
the same port; :meth:`Proxy.stall` forwards nothing more (a server that hangs)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit


class Proxy:
    """Forwards 127.0.0.1:``port`` to the server of ``url``; :meth:`url_for` rewrites a URL."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._flowing = asyncio.Event()
        self._flowing.set()

    def url_for(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        parts = urlsplit(url)
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@127.0.0.1:{self.port}" if auth else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await source.read(65536):
                await self._flowing.wait()
                sink.write(data)
                await sink.drain()
        sink.close()
        self._writers.discard(sink)

    async def drop(self) -> None:
        """Close every connection and stop listening: the server is gone."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        for task in list(self._pipes):
            task.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)
        if server is not None:
            await server.wait_closed()

    def stall(self) -> None:
        """Keep every connection open but forward nothing more: a server that accepts
        connections and queries and never answers."""
        self._flowing.clear()

    def unstall(self) -> None:
        """Forward again what was held, and what follows."""
        self._flowing.set()

    async def restore(self) -> None:
        """Listen again on the same port: the server is back."""
        await self.start()


@contextlib.asynccontextmanager
async def proxied(url: str) -> AsyncIterator[tuple[Proxy, str]]:
    """A running proxy in front of ``url``'s server, and ``url`` going through it."""
    proxy = Proxy(url)
    await proxy.start()
    try:
        yield proxy, proxy.url_for(url)
    finally:
        await proxy.drop()
