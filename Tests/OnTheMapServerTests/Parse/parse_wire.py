"""What the Parse dialect's scripts share: the keys a Parse client sends, and one raw request."""
import json
import urllib.error
import urllib.request

# The keys the seed apps were built with (the server accepts them as any Parse client sends them).
APP_ID = "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAbIr"
REST_KEY = "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY"


def check(condition, message):
    if not condition:
        raise SystemExit("FAILED: " + message)


def request(method, url, body=None, headers=None):
    """A request as a Parse REST client makes it (a dict body sent as JSON, bytes as they are):
    (status, the decoded JSON reply), for errors too."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    outgoing = urllib.request.Request(url, method=method, data=data)
    outgoing.add_header("X-Parse-Application-Id", APP_ID)
    outgoing.add_header("X-Parse-REST-API-Key", REST_KEY)
    outgoing.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        outgoing.add_header(name, value)
    try:
        with urllib.request.urlopen(outgoing, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
