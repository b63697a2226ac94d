#!/usr/bin/env python3
"""onthemap-server's web page as an app a phone installs, and without its server, in real headless
Chromium (issue 41, points 3 and 6): the manifest and icons, the service worker, what it keeps and
what it never keeps, the last map shown when the server cannot be reached (since when, said), the
banner while the server is down, gone by itself once it is back; after Log out, no map kept at all.

    python3 Tests/Browser/web_offline_check.py OUT_DIR --server PROGRAM --db FILE [--pins N]

The check starts PROGRAM (onthemap-server) itself on the SQLite FILE (seeded with N demo students,
240 by default, and the account grace@onthemap.example, password-grace, without a pin), stops it and
starts it again on the same port. Prints one line per check; exits 0 when all pass, 1 when one fails,
77 (skip) without Selenium, Chromium or chromedriver. Run by OnTheMapServerTests' WebAppBrowserTests.
"""

import json
import math
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time

from browser_support import DEMO, Browser, Keys, api_json, http

OUT = sys.argv[1]
SERVER = sys.argv[sys.argv.index("--server") + 1]
DB = sys.argv[sys.argv.index("--db") + 1]
PINS = int(sys.argv[sys.argv.index("--pins") + 1]) if "--pins" in sys.argv else 240
GRACE = ("grace@onthemap.example", "password-grace")
LOG = os.path.join(tempfile.mkdtemp(), "server.log")


class Server:
    """The server, started and stopped by the check (so it can be down while the page is open)."""

    def __init__(self):
        self.process, self.port = None, 0

    def start(self):
        log = open(LOG, "w")
        self.process = subprocess.Popen([SERVER, "serve", "--database", DB, "--port", str(self.port), "--web-poll-seconds", "1",
                                         "--web-pins", str(PINS), "--log-level", "info"], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/v1", open(LOG).read())
            if found:
                self.port = int(found.group(1))
                return "http://127.0.0.1:%d/" % self.port
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("the server did not start: " + open(LOG).read()[-2000:])

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(30)


server = Server()
BASE = server.start()
b = Browser(BASE, OUT, profile=tempfile.mkdtemp())
check, js, wait = b.check, b.js, b.wait


def png_size(data):
    return struct.unpack(">II", data[16:24]) if data[:8] == b"\x89PNG\r\n\x1a\n" else None


def installable():
    status, headers, data = http(BASE, "GET", "manifest.webmanifest")
    manifest = json.loads(data)
    check(status == 200 and headers.get("Content-Type") == "application/manifest+json",
          "the web app manifest is served (%d, %s)" % (status, headers.get("Content-Type")))
    check(manifest["display"] == "standalone" and manifest["name"] == "On The Map" and manifest["theme_color"]
          and manifest["start_url"] == "./", "it names the app, opens it standalone, with a theme colour")
    sizes = {}
    for icon in manifest["icons"]:
        status, headers, data = http(BASE, "GET", icon["src"])
        sizes[icon["src"].rsplit("/", 1)[-1]] = (status, png_size(data) if icon["type"] == "image/png" else icon["type"])
    check(sizes.get("icon-192.png") == (200, (192, 192)) and sizes.get("icon-512.png") == (200, (512, 512))
          and sizes.get("icon-maskable-512.png") == (200, (512, 512)) and sizes.get("icon.svg", (0,))[0] == 200,
          "its icons, from the project's pin: %s" % sizes)
    b.size(1400, 900, False)
    b.open()
    ready = b.driver.execute_async_script("""var done=arguments[arguments.length-1];
        navigator.serviceWorker.ready.then(function(r){done([r.active&&r.active.state,r.scope]);});""")
    check(ready and ready[1] == BASE, "the page's service worker runs, for the page's folder: %s" % ready)
    b.driver.refresh()
    wait(lambda: js("return !!navigator.serviceWorker.controller"))
    errors = b.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    check(not errors.get("installabilityErrors"), "Chromium finds the page installable: %s" % errors)
    meta = js("var m=document.querySelector('meta[name=theme-color]');return m&&m.content")
    check(meta, "the page has a theme colour: %s" % meta)


def kept():
    """What the service worker keeps: cache names and every URL (with the method)."""
    return b.driver.execute_async_script("""var done=arguments[arguments.length-1];
        caches.keys().then(function(names){return Promise.all(names.map(function(n){return caches.open(n).then(function(c){
        return c.keys().then(function(k){return k.map(function(r){return n+' '+r.method+' '+r.url;});});});}));})
        .then(function(all){done([].concat.apply([],all));});""")


def offline_with_a_session():
    b.log_in_by_keyboard(DEMO)
    check(wait(lambda: len(b.driver.find_elements("css selector", '[data-testid="marker"]')) >= PINS, 30), "logged in, %d pins" % PINS)
    # A place lookup and the user's own pin: neither may be kept.
    session = js("return JSON.parse(sessionStorage.getItem('onthemap.session')).id")
    js("fetch('v1/geocode?q=Oslo',{headers:{'X-OnTheMap-Session':arguments[0]}})", session)
    time.sleep(1.5)
    entries = kept()
    lists = [e for e in entries if "/v1/StudentLocation" in e]
    check(lists and all(e.split(" ")[1] == "GET" for e in entries), "it keeps the list seen: %s" % lists[:2])
    # Every page of it: the page asks for the newest PINS a thousand at a time (the poll's limit=1 aside).
    pages = sorted(e.split("?", 1)[1] for e in lists if not re.search(r"[?&]limit=1(&|$)", e))
    wanted = sorted("limit=%d&order=-updatedAt%s" % (min(1000, PINS - skip), "&skip=%d" % skip if skip else "")
                    for skip in range(0, PINS, 1000))
    check(pages == wanted, "its %d pages (%d of 1,000 at most): %s" % (len(pages), math.ceil(PINS / 1000), pages[:3]))
    never = [e for e in entries if re.search(r"/v1/(session|users|geocode)|uniqueKey=", e)]
    check(not never, "and never the session, a user, a place lookup or a pin's owner's query: %s" % never)
    check(any(e.endswith("/app.mjs") for e in entries) and any(e.endswith("/names.json") for e in entries),
          "and the page's files, names included")
    # A poll after the copy was kept finds nothing new: the pins shown are still the newest then, and
    # a page reloaded offline says so, not the copy's older time (the polls leave the copy alone).
    after_copy = js("return Date.now()")
    current = wait(lambda: (lambda t: t > after_copy + 500 and t)(js("return Number(localStorage.getItem('onthemap.pins-current'))||0")), 15)
    check(current, "a poll after the copy finds the pins current (%s ms after it)" % (current and current - after_copy))
    # The server stops: the map stays, a banner says so, and goes by itself once the server is back.
    server.stop()
    banner = wait(lambda: b.shown("offline") and b.by_id("offline-text").text, 10)
    check(banner and "Cannot reach the server since" in banner and ": showing the pins seen then." in banner and "This message goes away once the server answers again." in banner and len(b.driver.find_elements("css selector", '[data-testid="marker"]')) >= PINS,
          "the server stopped: the map stays, and a banner says so: %s" % banner)
    b.axe("1400x900: the banner")
    b.size(390, 844, True)
    wait(lambda: js("return innerWidth") == 390, 10)
    b.axe("390x844: the banner")
    b.size(1400, 900, False)
    # A place looked up meanwhile: an alert says it could not be, beside the banner, not over it.
    b.by_id("post-open").click()
    b.wait(lambda: b.active().get("testid") == "post-place")
    b.type("Oslo")
    b.tab_to(lambda a: a.get("testid") == "post-link")
    b.type("https://grace.example\n")
    alert = wait(lambda: b.shown("alert") and b.by_id("alert").text, 10)
    boxes = js("return ['alert','offline'].map(function(i){var r=document.getElementById(i).getBoundingClientRect();"
               "return [r.left,r.top,r.right,r.bottom];})")
    apart = boxes[0][3] <= boxes[1][1] or boxes[1][3] <= boxes[0][1] or boxes[0][2] <= boxes[1][0] or boxes[1][2] <= boxes[0][0]
    check(alert and alert.startswith("Could not look the place up") and b.shown("offline") and apart,
          "the lookup's alert and the banner both show, apart: %s %s" % (alert, boxes))
    b.key(Keys.ESCAPE)
    b.wait(lambda: not b.shown("post"))
    # Reloaded while the server is down: the last map, with the time it was seen.
    b.driver.refresh()
    shown = wait(lambda: len(b.driver.find_elements("css selector", '[data-testid="marker"]')) >= PINS and b.shown("offline"), 20)
    text = b.by_id("offline-text").text if b.shown("offline") else ""
    # The time of day, with its day when that was not today ("since Mon, Nov 30, 11:59 PM" after midnight).
    check(shown and re.search(r"since (\w+, \w+ \d{1,2}, )?\d{1,2}:\d\d", text),
          "reloaded without the server: the last map seen, offline since then: %s" % text)
    since = js("var t=document.querySelector('#offline-text time');return t?Date.parse(t.dateTime):0")
    check(current and since >= current, "since the last poll that found the pins current, not when the copy was made "
          "(%s ms after that poll)" % (current and since - current))
    # On a phone whose network is off (the browser itself offline, as in airplane mode), reloaded: the same.
    b.size(390, 844, True)
    wait(lambda: js("return innerWidth") == 390, 10)
    b.driver.execute_cdp_cmd("Network.enable", {})
    conditions = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    b.driver.execute_cdp_cmd("Network.emulateNetworkConditions", dict(conditions, offline=True))
    b.driver.refresh()
    check(wait(lambda: js("return navigator.onLine") is False, 10), "390x844: the browser is offline")
    shown = wait(lambda: len(b.driver.find_elements("css selector", '[data-testid="marker"]')) >= PINS and b.shown("offline"), 20)
    text = b.by_id("offline-text").text if b.shown("offline") else ""
    check(shown and re.search(r"since (\w+, \w+ \d{1,2}, )?\d{1,2}:\d\d", text),
          "390x844, the browser offline, reloaded: the last map seen, offline since then: %s" % text)
    b.axe("390x844: the last map, offline")
    b.driver.execute_cdp_cmd("Network.emulateNetworkConditions", dict(conditions, offline=False))
    b.size(1400, 900, False)
    # Back: the banner goes by itself, and a pin posted meanwhile shows without a Refresh.
    server.start()
    status, _, data = http(BASE, "POST", "v1/session", {"udacity": {"username": GRACE[0], "password": GRACE[1]}})
    grace = api_json(data)
    http(BASE, "POST", "v1/StudentLocation", {"uniqueKey": grace["account"]["key"], "firstName": "Grace", "lastName": "Hopper",
                                               "mapString": "Auckland, New Zealand", "mediaURL": "https://grace.example",
                                               "latitude": -36.85, "longitude": 174.76}, {"X-OnTheMap-Session": grace["session"]["id"]})
    gone = wait(lambda: not b.shown("offline"), 15)
    check(gone, "the server back, the banner goes by itself")
    check(wait(lambda: js("return Array.from(document.querySelectorAll('[data-testid=marker] .student')).some(function(s){"
                          "return s.dataset.name==='Grace Hopper';})"), 15), "and a pin posted meanwhile shows without a Refresh")


def markers():
    return len(b.driver.find_elements("css selector", '[data-testid="marker"]'))


def kept_lists():
    """The lists the service worker keeps (none: it could give no map to a page opened offline)."""
    return [e for e in kept() if e.startswith("onthemap-lists ")]


def logged_out_while_loading():
    """Log out pressed while the list is still loading (at once after Refresh, the server up): a page
    of the list that arrives after Log out is not kept again for the next person to find offline."""
    check(wait(lambda: markers() >= PINS and kept_lists(), 30), "logged in, the list kept")
    pages = math.ceil(PINS / 1000)
    # Log out once the first page has come, while the rest still load (the browser sends six at a
    # time, and Log out's request waits behind them: pressed at once, it is answered after them all).
    js("""performance.clearResourceTimings();performance.setResourceTimingBufferSize(1000);
        var out=function(){document.getElementById('logout').click();};
        if(arguments[0]<2){document.getElementById('refresh').click();out();return;}
        new PerformanceObserver(function(list,observer){if(list.getEntries().some(function(e){
          return /StudentLocation\\?limit=1000/.test(e.name);})){observer.disconnect();out();}}).observe({type:'resource'});
        document.getElementById('refresh').click();""", pages)
    check(wait(lambda: b.shown("login"), 20), "Refresh, then Log out while the list loads: the login screen")
    # Every page the Refresh asked for has come (the page's busy count is back to nought)...
    timings = """var all=performance.getEntriesByType('resource');
        var out=all.filter(function(e){return /\\/v1\\/session$/.test(e.name);}).map(function(e){return e.responseEnd;});
        var lists=all.filter(function(e){return /StudentLocation\\?limit=(?!1&)/.test(e.name)&&!/uniqueKey/.test(e.name);});
        return [lists.length,lists.filter(function(e){return e.responseEnd>Math.max.apply(null,out);}).length,
        document.body.getAttribute('aria-busy')];"""
    came = wait(lambda: (lambda t: t[0] >= pages and t[2] == "false" and t)(js(timings)), 30)
    # ...and the service worker has had time to keep the last of them: none was kept.
    back = wait(lambda: kept_lists(), 3)
    check(came and not back, "the %d page(s) asked for came (%s of them after Log out's answer), and none is kept "
          "after Log out: %s" % (pages, came and came[1], (back or [])[:2]))
    b.log_in_by_keyboard(DEMO)


def logged_out_offline():
    """Log out on a shared device, the server down: the page forgets the session all the same, and
    the list it kept, so whoever opens it next offline finds the login screen and no map."""
    server.stop()
    lists = kept_lists()
    check(lists, "logged in, the service worker keeps the list seen, for a page opened offline")
    js("document.getElementById('logout').click()")
    check(wait(lambda: b.shown("login") and "Logged out on this device" in b.by_id("login-error").text),
          "with the server down, Log out forgets the session here all the same, saying the server still holds it")
    check(wait(lambda: not kept_lists()), "and the list kept for offline use: %s" % kept_lists()[:2])
    b.driver.refresh()
    check(wait(lambda: b.shown("login")), "no server, no session: the page opens on its login screen")
    banner = wait(lambda: b.shown("offline") and b.by_id("offline-text").text, 15)
    # The page asks the service worker for the list once it knows the server is down: the check asks
    # too, after it, for the very address it kept before, and gets no copy either.
    copy = b.driver.execute_async_script("""var done=arguments[arguments.length-1];
        fetch(arguments[0]).then(function(a){done('a copy: '+a.status);},function(){done('none');});""",
        lists[0].split(" ", 2)[2] if lists else BASE)
    check(banner and "since" not in banner and copy == "none" and markers() == 0,
          "reloaded offline after Log out: the login screen alone, no map behind it, no copy (%s), the banner says no "
          "'since': %s" % (copy, banner))
    b.axe("1400x900: the login screen, offline, after Log out")
    server.start()
    check(wait(lambda: not b.shown("offline"), 20), "the server back, the banner goes by itself")


def offline_without_a_session():
    """Opened from the home screen with no server, no session in it (this tab never logged in, as an
    installed app opened again): the login screen over the last map, saying so."""
    b.log_in_by_keyboard(DEMO)
    check(wait(lambda: markers() >= PINS and kept_lists(), 30), "logged in again, %d pins, the list kept" % PINS)
    js("sessionStorage.clear()")
    server.stop()
    b.driver.refresh()
    check(wait(lambda: b.shown("login")), "no server, no session: the page opens on its login screen")
    shown = wait(lambda: markers() >= PINS and b.shown("offline"), 15)
    check(shown and not b.by_id("login-error").text,
          "and says at once, with nothing typed, that the server cannot be reached, over the last map seen: %s"
          % (b.by_id("offline-text").text if b.shown("offline") else "no banner"))
    b.log_in_by_keyboard(DEMO)
    error = wait(lambda: b.by_id("login-error").text, 10)
    shown = wait(lambda: markers() >= PINS and b.shown("offline"), 15)
    check(error.startswith("Cannot reach the server") and shown,
          "logging in says the server cannot be reached, over the last map seen: %s" % b.by_id("offline-text").text)
    b.axe("1400x900: the login screen, offline")
    b.size(390, 844, True)
    wait(lambda: js("return innerWidth") == 390, 10)
    b.axe("390x844: the login screen, offline")
    server.start()
    # Back: the banner and the login screen's sentence go by themselves, with nothing typed.
    check(wait(lambda: not b.shown("offline") and not b.shown("login-error"), 20),
          "the server back, the login screen's banner and its sentence go by themselves")


try:
    installable()
    offline_with_a_session()
    logged_out_while_loading()
    logged_out_offline()
    offline_without_a_session()
except Exception as error:
    import traceback
    traceback.print_exc()
    check(False, "the run stopped: %r" % error)
finally:
    server.stop()
b.finish()
