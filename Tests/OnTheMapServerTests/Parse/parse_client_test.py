"""The Parse-era dialect, driven by a real Parse REST client (ParsePy, `pip install parsepy`) and by
raw requests. Arguments: server root (http://HOST:PORT), account key, session id. Prints "ok" last."""
import json
import sys
import urllib.request

from parse_wire import APP_ID, REST_KEY, check, request

ROOT, KEY, SESSION = sys.argv[1:4]

import parse_rest.connection as connection
import parse_rest.datatypes as datatypes

# ParsePy's API root is a module constant; the classes read it when they are defined.
connection.API_ROOT = datatypes.API_ROOT = ROOT + "/1"
connection.register(APP_ID, REST_KEY, session_token=SESSION)
from parse_rest.datatypes import Object  # noqa: E402
from parse_rest.query import QueryResourceDoesNotExist  # noqa: E402


class StudentLocation(Object):
    pass



# Through the client: create, query, update, count, delete.
pin = StudentLocation(uniqueKey=KEY, firstName="Grace", lastName="Hopper", mapString="Arlington, VA",
                      mediaURL="https://example.com/grace", latitude=38.88, longitude=-77.1)
pin.save()
check(pin.objectId and len(pin.objectId) == 10, "save gives an objectId")
mine = list(StudentLocation.Query.filter(uniqueKey=KEY))
check([p.objectId for p in mine] == [pin.objectId], "filter by uniqueKey finds the pin")
check(StudentLocation.Query.get(objectId=pin.objectId).mapString == "Arlington, VA", "get by objectId")
newest = list(StudentLocation.Query.all().order_by("updatedAt", descending=True).limit(5))
check(len(newest) == 5 and newest[0].objectId == pin.objectId, "order -updatedAt, limit 5: the new pin first")
north = list(StudentLocation.Query.filter(latitude__gte=38.0, latitude__lt=39.0))
check(pin.objectId in [p.objectId for p in north], "$gte / $lt on numbers")
check(all(38.0 <= p.latitude < 39.0 for p in north), "every result within the bounds")
named = list(StudentLocation.Query.filter(firstName__in=["Grace", "Nobody"], lastName__ne="Lovelace"))
check(pin.objectId in [p.objectId for p in named], "$in and $ne")
total = StudentLocation.Query.all().count()
check(total == 41, "count=1 counts every pin: %r" % total)
check(StudentLocation.Query.filter(uniqueKey__nin=[KEY]).count() == 40, "$nin")
check(StudentLocation.Query.filter(mediaURL__exists=True).count() == 41, "$exists")
pin.mapString = "Washington, DC"
pin.save()
check(StudentLocation.Query.get(objectId=pin.objectId).mapString == "Washington, DC", "save again updates")
pin.delete()
try:
    StudentLocation.Query.get(objectId=pin.objectId)
    raise SystemExit("FAILED: the deleted pin is gone")
except QueryResourceDoesNotExist:
    pass


# Raw requests: the wire shapes and errors.
def call(method, path, body=None, headers=None, root="/1"):
    return request(method, ROOT + root + "/classes/StudentLocation" + path, body, headers)


status, body = call("GET", "?limit=2&order=-updatedAt,objectId&count=1&keys=firstName", root="/parse")
check(status == 200 and len(body["results"]) == 2 and body["count"] == 40, "/parse root, count: %r" % body)
check(list(body) == ["results", "count"], "the list, then its count: %r" % list(body))
check(list(body["results"][0]) == ["createdAt", "firstName", "objectId", "updatedAt"],
      "keys projects, in Parse's order (alphabetical): %r" % list(body["results"][0]))
newest = body["results"][0]["updatedAt"]
where = json.dumps({"updatedAt": {"$gte": {"__type": "Date", "iso": newest}}})
status, body = call("GET", "?where=" + urllib.request.quote(where))
check(status == 200 and body["results"] and all(r["updatedAt"] >= newest for r in body["results"]), "dates compare")
status, body = call("GET", "?limit=1&skip=1&order=-updatedAt")
check(status == 200 and body["results"][0]["updatedAt"] <= newest, "skip")
check(list(body["results"][0]) == sorted(body["results"][0]) and len(body["results"][0]) == 10,
      "a whole pin, its keys in alphabetical order: %r" % list(body["results"][0]))

status, body = call("GET", "", headers={"X-Parse-Application-Id": "wrong"})
check(status == 401 and body["code"] == 119, "wrong application id: %r %r" % (status, body))
status, body = call("GET", "/NoSuchPin0")
check(status == 404 and body["code"] == 101, "missing object: %r" % body)
status, body = call("GET", "?where=" + urllib.request.quote('{"latitude":"north"}'))
check(status == 400 and body["code"] == 102, "invalid query: %r" % body)
status, body = call("GET", "?where=%7Bnot%20json")
check(status == 400 and body["code"] == 107, "where not JSON: %r" % body)
status, body = call("POST", "", body=b"{not json", headers={"X-Parse-Session-Token": SESSION})
check(status == 400 and body["code"] == 107, "invalid JSON body: %r" % body)
good = {"uniqueKey": KEY, "firstName": "Grace", "lastName": "Hopper", "mapString": "Paris",
        "mediaURL": "https://example.com", "latitude": 48.85, "longitude": 2.35}
status, body = call("POST", "", body=dict(good, latitude="north"), headers={"X-Parse-Session-Token": SESSION})
check(status == 400 and body["code"] == 111, "invalid type: %r" % body)
status, body = call("POST", "", body=good)
check(status == 400 and body["code"] == 209, "no session: %r" % body)
status, body = call("POST", "", body=good, headers={"X-Parse-Session-Token": "1700000000Sdeadbeef"})
check(status == 400 and body["code"] == 209, "unknown session: %r" % body)
status, body = call("POST", "", body=good, headers={"X-Parse-Session-Token": SESSION})
check(status == 201 and set(body) == {"createdAt", "objectId"}, "raw POST: %r" % body)
status, someone = call("GET", "?limit=1&where=" + urllib.request.quote(json.dumps({"uniqueKey": {"$ne": KEY}})))
other = someone["results"][0]["objectId"]
status, body = call("PUT", "/" + other, body={"mapString": "Mine now"}, headers={"X-Parse-Session-Token": SESSION})
check(status == 403 and body["code"] == 119, "someone else's pin, PUT: %r" % body)
status, body = call("DELETE", "/" + other, headers={"X-Parse-Session-Token": SESSION})
check(status == 403 and body["code"] == 119, "someone else's pin, DELETE: %r" % body)
print("ok")
