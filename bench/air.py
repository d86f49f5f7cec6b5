"""A home Wi-Fi between the phones and the server, emulated on 127.0.0.1 (bench/load.py --wifi).

    python bench/air.py --to 127.0.0.1:PORT [--delay-ms 15 --jitter-ms 5 --loss 0.01]

The kernel's netem is the usual tool, but this machine's kernel has no sch_netem (a VM
kernel without modules), so this relay does netem's job in user space: every TCP chunk,
each way, is held back by a one-way delay drawn uniformly from delay +- jitter (15 +- 5 ms
each way: a 30 ms round trip with about 10 ms of jitter), in order, as TCP delivers it; and
a chunk that would have lost one of its packets (1% each, a packet being 1448 bytes) is
held back again by a retransmission: 200 ms, Linux's smallest retransmission timeout (the
worst case of a lost last packet; a loss in mid-stream is resent sooner).

A phone at 127.0.0.N keeps its own address on the server's side too (the relay's outgoing
connection is bound to it), so the server's per-phone rate limit still applies per phone.
It listens on 127.0.0.1 and connects to 127.0.0.1 only, and prints its port on stdout.
"""
from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import time

MSS = 1448


class Air:
    def __init__(self, delay: float, jitter: float, loss: float, penalty: float, seed: int):
        self.delay, self.jitter, self.loss, self.penalty = delay, jitter, loss, penalty
        self.rng = random.Random(seed)

    def hold(self, size: int) -> float:
        d = self.delay + self.rng.uniform(-self.jitter, self.jitter)
        packets = max(1, math.ceil(size / MSS))
        if self.rng.random() < 1 - (1 - self.loss) ** packets:
            d += self.penalty
        return d

    async def pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver():
            while True:
                at, data = await queue.get()
                if data is None:
                    break
                wait = at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()

        sender = asyncio.get_running_loop().create_task(deliver())
        last = 0.0
        try:
            while data := await reader.read(65536):
                last = max(time.monotonic() + self.hold(len(data)), last)    # in order
                queue.put_nowait((last, data))
        except (ConnectionError, OSError):
            pass
        queue.put_nowait((0.0, None))
        try:
            await sender
            writer.write_eof()
        except (ConnectionError, OSError, RuntimeError):
            pass

    async def serve(self, host: str, port: int, reader, writer) -> None:
        ip = writer.get_extra_info("peername")[0]
        try:
            up_r, up_w = await asyncio.open_connection(host, port, local_addr=(ip, 0))
        except OSError:
            writer.close()
            return
        await asyncio.gather(self.pump(reader, up_w), self.pump(up_r, writer),
                             return_exceptions=True)
        for w in (writer, up_w):
            w.close()


async def main_async(args) -> None:
    host, port = args.to.rsplit(":", 1)
    if not host.startswith("127."):
        raise SystemExit("bench/air.py relays to a loopback address only")
    air = Air(args.delay_ms / 1000, args.jitter_ms / 1000, args.loss, args.penalty_ms / 1000,
              args.seed)
    server = await asyncio.start_server(lambda r, w: air.serve(host, int(port), r, w),
                                        "127.0.0.1", 0, backlog=1024)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await asyncio.sleep(args.lifetime)      # bounded: it never outlives a benchmark


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--to", required=True, help="the server, 127.0.0.1:PORT")
    ap.add_argument("--delay-ms", type=float, default=15.0, help="one way [15]")
    ap.add_argument("--jitter-ms", type=float, default=5.0, help="one way, +- [5]")
    ap.add_argument("--loss", type=float, default=0.01, help="per packet, each way [0.01]")
    ap.add_argument("--penalty-ms", type=float, default=200.0,
                    help="a lost packet's retransmission [200]")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lifetime", type=float, default=3600.0, help="seconds before it stops")
    asyncio.run(main_async(ap.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
