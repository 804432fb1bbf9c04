"""How many connections the server holds, and for how long one may stay silent.

uvicorn answers 503 past ``limit_concurrency`` requests, and closes a kept-alive
connection ``timeout_keep_alive`` seconds after its last answer; but it keeps a
connection that never sends a request open for ever, and accepts connections
until the process runs out of file descriptors (1,024 by default): a thousand idle
sockets starve every page. :func:`protocol` is uvicorn's HTTP protocol with both
closed: a connection beyond :data:`MAX_CONNECTIONS` is closed as soon as it is
accepted, and one with no request in progress for :data:`IDLE_SECONDS` (before its
first request, between two, or while a request's headers trickle in) is closed.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from uvicorn.protocols.http.h11_impl import RequestResponseCycle

#: connections held at once (a browser opens at most 6 to one server; each page keeps one for its event stream)
MAX_CONNECTIONS = 64
#: seconds a connection may stay open with no request in progress
IDLE_SECONDS = 10


def protocol(max_connections: int = MAX_CONNECTIONS, idle_seconds: float = IDLE_SECONDS) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol class with a connection limit and an idle timeout (module docstring)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Bounded(H11Protocol):
        _idle: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()  # over the limit: it holds no file descriptor for long
                return
            self._arm()

        def _arm(self) -> None:
            if self._idle is not None:
                self._idle.cancel()
            self._idle = self.loop.call_later(idle_seconds, self._drop_if_idle, self.cycle)

        def _drop_if_idle(self, cycle: RequestResponseCycle | None) -> None:
            # no request began since the timer was armed, and none is being answered (an event stream is kept)
            if self.cycle is cycle and (cycle is None or cycle.response_complete) and not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._idle is not None:
                self._idle.cancel()
            super().connection_lost(exc)

    return Bounded
