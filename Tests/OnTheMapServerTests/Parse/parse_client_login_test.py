"""A Parse client living on the Parse dialect alone: parse-client 0.1.2 (PyPI, `pip install
parse-client==0.1.2`) logs in through the Parse path (its GET /login), reads /users/me, writes and
queries pins with its session token, and logs out; then raw requests check POST /login, the error
shapes and $regex. Nothing here uses /v1/session.

Arguments: server root (http://HOST:PORT), Parse prefix (/parse or /1), email, password, account key.
Prints "ok" last."""
import json
import os
import sys
import urllib.parse

from parse_wire import APP_ID, REST_KEY, check, request

ROOT, PREFIX, EMAIL, PASSWORD, KEY = sys.argv[1:6]

# parse-client reads its API root from the environment when it is imported.
os.environ["PARSE_API_ROOT"] = ROOT + PREFIX
from parse_client.connection import SessionToken, register  # noqa: E402
from parse_client.core import ResourceRequestBadRequest, ResourceRequestNotFound  # noqa: E402
from parse_client.datatypes import Object  # noqa: E402
from parse_client.user import User  # noqa: E402

register(APP_ID, REST_KEY)


class StudentLocation(Object):
    pass



def parse_error(exception):
    return json.loads(exception.args[0])


# A wrong password: Parse Server's 404 with code 101, which parse-client raises as not found.
try:
    User.login(EMAIL, "not-the-password")
    raise SystemExit("FAILED: a wrong password logged in")
except ResourceRequestNotFound as error:
    check(parse_error(error)["code"] == 101, "wrong password: %r" % (error.args,))

user = User.login(EMAIL, PASSWORD)
check(user.objectId == KEY, "login gives the account's key as objectId: %r" % user.objectId)
check(user.username == EMAIL and user.sessionToken, "login gives the username and a session token")
token = user.sessionToken

with SessionToken(token):
    me = User.current_user()
    check(me.objectId == KEY and me.email == EMAIL, "/users/me: %r" % me.__dict__)
    pin = StudentLocation(uniqueKey=KEY, firstName="Grace", lastName="Hopper", mapString="Arlington, VA",
                          mediaURL="https://example.com/grace", latitude=38.88, longitude=-77.1)
    pin.save()
    check(pin.objectId and len(pin.objectId) == 10, "save with the Parse session gives an objectId")
    found = list(StudentLocation.Query.filter(firstName__regex="^Gra"))
    check(pin.objectId in [p.objectId for p in found], "$regex ^Gra finds the pin")
    check(all(p.firstName.startswith("Gra") for p in found), "$regex ^Gra: only names that start so")
    pin.mapString = "Washington, DC"
    pin.save()
    check(StudentLocation.Query.get(objectId=pin.objectId).mapString == "Washington, DC", "update with the session")
    user.logout()

# The session ended: /users/me with its token is Parse's 209.
with SessionToken(token):
    try:
        User.current_user()
        raise SystemExit("FAILED: the session still works after logout")
    except ResourceRequestBadRequest as error:
        check(parse_error(error)["code"] == 209, "after logout: %r" % (error.args,))


# Raw requests: what parse-client does not send.
def call(method, path, body=None, headers=None, query=None):
    url = ROOT + PREFIX + path + ("?" + urllib.parse.urlencode(query) if query else "")
    return request(method, url, body, headers)


status, body = call("POST", "/login", {"username": EMAIL, "password": PASSWORD})
check(status == 200 and body["objectId"] == KEY and body["sessionToken"], "POST /login: %r %r" % (status, body))
session = body["sessionToken"]
status, body = call("GET", "/users/me", headers={"X-Parse-Session-Token": session})
check(status == 200 and body["username"] == EMAIL and body["sessionToken"] == session, "GET /users/me: %r" % body)
status, body = call("POST", "/login", {"username": EMAIL})
check(status == 400 and body["code"] == 201, "no password: %r %r" % (status, body))
status, body = call("POST", "/login", {"password": PASSWORD})
check(status == 400 and body["code"] == 200, "no username: %r %r" % (status, body))
status, body = call("POST", "/login", b"{not json")
check(status == 400 and body["code"] == 107, "login body not JSON: %r %r" % (status, body))
status, body = call("GET", "/users/me", headers={"X-Parse-Session-Token": "1700000000Sdeadbeef"})
check(status == 400 and body["code"] == 209, "unknown token: %r %r" % (status, body))
status, body = call("GET", "/users/me")
check(status == 400 and body["code"] == 209, "no token: %r %r" % (status, body))
status, body = call("POST", "/logout", headers={"X-Parse-Session-Token": "1700000000Sdeadbeef"})
check(status == 400 and body["code"] == 209, "logout, unknown token: %r %r" % (status, body))

# Unknown Parse paths speak Parse: {"code","error"}, never the Udacity paths' {"status"}.
for method, path in [("GET", "/nowhere"), ("POST", "/functions/hello"), ("GET", "/classes/Other"),
                     ("PATCH", "/classes/StudentLocation"), ("GET", "/users/someone")]:
    status, body = call(method, path, body={} if method != "GET" else None)
    check(status == 404 and body.get("code") == 101 and "error" in body and "status" not in body,
          "unknown Parse path %s %s: %r %r" % (method, path, status, body))
    check(PREFIX + "/login" in body["error"], "the 404 names what is offered: %r" % body)


def where(condition):
    return call("GET", "/classes/StudentLocation", query={"where": json.dumps(condition), "limit": "1000"})


names = lambda results: sorted({r["firstName"] for r in results})  # noqa: E731
status, body = where({"firstName": {"$regex": "^gra", "$options": "i"}})
check(status == 200 and names(body["results"]) == ["Grace"], "$regex with $options i: %r" % body)
status, body = where({"firstName": {"$regex": "^gra"}})
check(status == 200 and body["results"] == [], "$regex is case-sensitive without i: %r" % body)
status, body = where({"lastName": {"$regex": "\\Qopper\\E$"}})
check(status == 200 and [r["lastName"] for r in body["results"]] == ["Hopper"], "endsWith as Parse's SDKs send it: %r" % body)
status, body = where({"lastName": {"$regex": "\\QHop\\E$"}})
check(status == 200 and body["results"] == [], "endsWith: only at the end: %r" % body)
status, body = where({"mapString": {"$regex": "\\QWashington, \\E"}})
check(status == 200 and len(body["results"]) >= 1, "contains as Parse's SDKs send it: %r" % body)
status, body = where({"mediaURL": {"$regex": "^https://example\\.com/grace$"}})
check(status == 200 and len(body["results"]) == 1, "escaped dot, both anchors: %r" % body)
for pattern in ["(a+)+$", "^(a|aa)+$", "^.*$", "^[A-Z]", "a{1,99999}", "\\d+"]:
    status, body = where({"firstName": {"$regex": pattern}})
    check(status == 400 and body["code"] == 102 and "literal text" in body["error"],
          "a pattern beyond literal text is refused and explained: %r %r %r" % (pattern, status, body))
status, body = where({"firstName": {"$regex": "^" + "a" * 300}})
check(status == 400 and body["code"] == 102 and "256" in body["error"], "a pattern too long: %r" % body)
status, body = where({"firstName": {"$regex": "^G", "$options": "x"}})
check(status == 400 and body["code"] == 102, "an option other than i: %r" % body)
status, body = where({"latitude": {"$regex": "^3"}})
check(status == 400 and body["code"] == 102, "$regex on a number: %r" % body)
print("ok")
