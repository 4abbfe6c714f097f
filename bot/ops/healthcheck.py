"""``python -m bot.ops.healthcheck``: exit 0 when this host's Parlour answers /healthz with 200.

For container health checks (the image has no curl). It asks ``PARLOUR_HTTP``'s port on the
loopback address when the server listens on every address (``0.0.0.0`` or ``::``).
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

from bot.config import ConfigError, http_address

_ANY = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


def url(host: str, port: int) -> str:
    host = _ANY.get(host, host)
    return f"http://[{host}]:{port}/healthz" if ":" in host else f"http://{host}:{port}/healthz"


def main(env: dict[str, str] | None = None, timeout: float = 3.0) -> int:
    env = dict(os.environ if env is None else env)
    try:
        address = http_address(env)
    except ConfigError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1
    if address is None:
        print("unhealthy: PARLOUR_HTTP is not set, so there is no /healthz", file=sys.stderr)
        return 1
    try:
        with urllib.request.urlopen(url(*address), timeout=timeout) as response:
            print(response.read().decode())
            return 0
    except urllib.error.HTTPError as exc:
        print(f"unhealthy: {exc.code} {exc.read().decode()}", file=sys.stderr)
    except OSError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
