"""`baraha announce TEXT`: a message on every table page of every process.

It is Flask-SocketIO's documented way to emit from an external process (a `SocketIO` made
with `message_queue=URL` only): the event `announce` with `{"text": TEXT}`, on the queue's
default channel, to no room, so each server process that joined the queue (`baraha serve --message-queue URL`) sends it to
every socket it holds, and each page shows it until it is tapped away (static/js/ui/
bridge.js). `--fil` adds the same message in Filipino (`"fil"`) for the pages shown in
Filipino. Any program may emit the same event the same way (docs/API.md, "Push").

The words are the host's own, shown as plain text: one line, at most MOST characters.
"""
from __future__ import annotations

import re
import unicodedata

MOST = 140                  # a phone of 320 px shows it in four lines at most
CHANNEL = "flask-socketio"  # Flask-SocketIO's default channel, the servers' too


class AnnounceError(Exception):
    def __init__(self, message: str, bad_input: bool = False):
        super().__init__(message)
        self.bad_input = bad_input


def clean(text: str, what: str = "the message") -> str:
    """One line of visible words: control and format characters dropped, white space made
    single spaces. AnnounceError when nothing is left, or too much."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    kept = re.sub(r" +", " ", kept).strip()
    if not kept:
        raise AnnounceError(f"{what} is empty: write the words to show", bad_input=True)
    if len(kept) > MOST:
        raise AnnounceError(f"{what} has {len(kept)} characters; a phone shows {MOST} at most",
                            bad_input=True)
    return kept


def announce(text: str, url: str, filipino: str | None = None) -> int:
    """Send it; how many server processes were listening on the queue."""
    message = {"text": clean(text)}
    if filipino is not None:
        message["fil"] = clean(filipino, "the Filipino message")
    if not url.startswith(("redis://", "rediss://")):
        raise AnnounceError(f"{url!r} is not a Redis URL (like redis://127.0.0.1:6379/0)",
                            bad_input=True)
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        (_, listening), = client.pubsub_numsub(CHANNEL)
        client.close()
    except ValueError as e:
        raise AnnounceError(f"{url!r} is not a Redis URL ({e})", bad_input=True) from None
    except redis.RedisError as e:
        raise AnnounceError(f"the message queue {url} does not answer ({e}): is redis-server "
                            "running, and is this the URL the servers were started with?") from None
    from flask_socketio import SocketIO

    # to=None: every page of every process, the one emit that names no room, on purpose.
    SocketIO(message_queue=url).emit("announce", message, to=None)
    return int(listening)
