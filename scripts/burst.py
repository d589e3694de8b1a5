#!/usr/bin/env python3
"""Bursts of simultaneous requests against `ajedrecista serve` (issue 57,
item 9): every client connects first, then all send at once; each must
get an answer, 200 or 503 with JSON, and none a reset.

    python3 scripts/burst.py BINARY [--clients 1000] [--bursts 4] [--path /api/strategies]

Starts `BINARY serve` on a free loopback port with an empty table folder,
prints one line a burst (answers by status, resets, other failures) and
exits 1 if any client got no answer.
"""

import argparse
import asyncio
import json
import re
import resource
import subprocess
import sys
import tempfile


async def client(port, path, ready, go):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as err:
        ready.release()
        return f"connect: {err.__class__.__name__}"
    ready.release()
    await go.wait()
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nhost: b\r\nconnection: close\r\n\r\n".encode())
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout=120)
    except ConnectionResetError:
        return "reset"
    except (OSError, asyncio.TimeoutError) as err:
        return f"failed: {err.__class__.__name__}"
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    match = re.match(rb"HTTP/1\.1 (\d{3})", head)
    if not match:
        return "no answer"
    status = match.group(1).decode()
    if status != "200":
        try:
            json.loads(body)["error"]
        except (ValueError, KeyError):
            return f"{status} without JSON"
    return status


async def burst(port, clients, path):
    ready = asyncio.Semaphore(0)
    go = asyncio.Event()
    tasks = [asyncio.create_task(client(port, path, ready, go)) for _ in range(clients)]
    for _ in range(clients):
        await ready.acquire()
    go.set()
    outcomes = {}
    for outcome in await asyncio.gather(*tasks):
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--bursts", type=int, default=4)
    parser.add_argument("--path", default="/api/strategies")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.clients)), hard))
    with tempfile.TemporaryDirectory() as tables:
        server = subprocess.Popen(
            [args.binary, "serve", "--addr", "127.0.0.1:0", "--tables", tables],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            line = server.stderr.readline()
            port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", line).group(1))
            failed = 0
            for number in range(1, args.bursts + 1):
                outcomes = asyncio.run(burst(port, args.clients, args.path))
                bad = sum(n for k, n in outcomes.items() if k not in ("200", "503"))
                failed += bad
                shown = ", ".join(f"{k}: {n}" for k, n in sorted(outcomes.items()))
                print(f"burst {number}: {args.clients} clients: {shown}")
        finally:
            server.terminate()
            server.wait()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
