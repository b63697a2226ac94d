#!/usr/bin/env python3
"""Drives onthemap-server's web page in real headless Chromium, as a person would, at 1400x900 and on
a phone (390x844 and 844x390, with touch events).

    python3 Tests/Browser/web_app_check.py BASE_URL OUT_DIR --db FILE --server PROGRAM [--bench]

BASE_URL is the server's root (http://127.0.0.1:PORT/), started with `--web-poll-seconds 1`,
`--signup-url https://signup.onthemap.example/join` and `--max-login-failures 3`, on the SQLite file
FILE seeded with the demo data, and accounts grace@onthemap.example (password-grace) and
limited@onthemap.example (password-limited); PROGRAM is the onthemap-server executable (for
`session revoke`). The check writes pins of its own, some of them hostile (straight into FILE, as
an older server or an import could have), so give it a database of its own.

With --bench, the server shows 10,000 pins (`--web-pins 10000`) and the check measures frames while
the map pans and zooms.

Prints one line per check ("ok   …" or "FAIL …"), figures as "measure NAME VALUE UNIT", and exits 0
when all pass, 1 when one fails, 77 (skip) when Selenium, Chromium or chromedriver is missing.
Screenshots of failures go to OUT_DIR (fail-N.png), with web-app.png and web-app-phone.png for the
README. Run by OnTheMapServerTests' WebAppBrowserTests.
"""

import gzip
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

# Skips (exit 77) without Selenium, Chromium or chromedriver, as every browser check does.
from browser_support import CHROMIUM, DRIVER, By, Service, api_json, poll_until, webdriver
from browser_support import http as base_http
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin

BASE = sys.argv[1].rstrip("/") + "/"
OUT = sys.argv[2]
ARGS = sys.argv[3:]
DB = ARGS[ARGS.index("--db") + 1]
SERVER = ARGS[ARGS.index("--server") + 1]
BENCH = "--bench" in ARGS
# Timings are judged against their targets only when asked (--judge-timings: a benchmark run on a
# machine kept quiet for it); in the test suite they are printed as "time …" lines and as figures: a
# busy machine (other tests, a build beside) makes any frame late, and a test must not fail for that.
JUDGE_TIMINGS = "--judge-timings" in ARGS
ORIGIN = BASE[:BASE.index("/", len("http://"))]
DEMO = ("demo@onthemap.example", "onthemap-demo")
GRACE = ("grace@onthemap.example", "password-grace")
LIMITED = ("limited@onthemap.example", "password-limited")
SIGNUP = "https://signup.onthemap.example/join"
# The place "Springfield" the check posts, named as GeocodeResult.label names it (docs/GEOCODING.md).
ILLINOIS = "Springfield, Illinois, United States"
os.makedirs(OUT, exist_ok=True)
for stale in [name for name in os.listdir(OUT) if name.startswith("fail-") and name.endswith(".png")]:
    os.remove(os.path.join(OUT, stale))  # from an earlier run: only this run's failures are left to look at
failures = []
requested = []  # every URL the browser asked for, from Chromium's network log
list_answers = []  # (Content-Encoding, Content-Length) of each list answer the page got, from the same log


def timing(condition, what):
    """A timed figure against its target: judged like a check with --judge-timings, reported otherwise."""
    if JUDGE_TIMINGS:
        check(condition, what)
    else:
        print("time " + what + (" (within the target)" if condition else " (over the target; judged only by --judge-timings)"), flush=True)


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)
        try:
            driver.save_screenshot(os.path.join(OUT, "fail-%d.png" % len(failures)))
            print("     screenshot: fail-%d.png" % len(failures))
        except Exception:
            pass
    return condition


def measure(name, value, unit):
    print("measure %s %s %s" % (name, value, unit), flush=True)


def wait(condition, timeout=10.0):
    return poll_until(condition, timeout)


def by_id(testid):
    return driver.find_element(By.CSS_SELECTOR, '[data-testid="%s"]' % testid)


def alert_text():
    return driver.find_element(By.ID, "alert-text").text if shown("alert") else ""


def all_by_id(testid):
    return driver.find_elements(By.CSS_SELECTOR, '[data-testid="%s"]' % testid)


def shown(testid):
    found = all_by_id(testid)
    return bool(found) and found[0].is_displayed()


def js(script, *arguments):
    return driver.execute_script(script, *arguments)


def rect(element):
    return js("var r=arguments[0].getBoundingClientRect();return {x:r.left,y:r.top,w:r.width,h:r.height,"
              "right:r.right,bottom:r.bottom};", element)


def viewport():
    return js("return {w:innerWidth,h:innerHeight}")


def view_box():
    return js("var v=document.getElementById('map').view;return {x:v.x,y:v.y,w:v.width,h:v.height}")


def drain_network():
    """Moves Chromium's network log into `requested`; returns the new entries as (method, params)."""
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"].startswith("Network."):
            events.append((message["method"], message["params"]))
            # The page's own requests: not those of a tab a link opened, nor of Chromium's error page.
            if message["method"] == "Network.requestWillBeSent" and message["params"].get("documentURL", "").startswith(ORIGIN):
                requested.append(message["params"]["request"]["url"])
            # How each list answer came: its Content-Encoding and, when plain, its length.
            if message["method"] == "Network.responseReceived" and "/StudentLocation" in message["params"]["response"]["url"]:
                headers = {k.lower(): v for k, v in message["params"]["response"].get("headers", {}).items()}
                list_answers.append((headers.get("content-encoding"), int(headers.get("content-length") or 0)))
    return events


def http(method, path, body=None, headers=None):
    """A request of the check's own (not the browser's): (status, headers, bytes)."""
    return base_http(BASE, method, path, body, headers)


def api_login(account):
    status, _, data = http("POST", "v1/session", {"udacity": {"username": account[0], "password": account[1]}})
    assert status == 200, (status, data)
    answer = api_json(data)
    return answer["session"]["id"], answer["account"]["key"]


def own_pin(key):
    _, _, data = http("GET", "v1/StudentLocation?uniqueKey=%s&limit=5&order=-updatedAt" % key)
    return api_json(data)["results"]


def size(width, height, phone):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5 if phone else 1})


def tap(element):
    """A finger's tap in the middle of the element (CDP touch events: pointer events and a click follow)."""
    r = rect(element)
    point = {"x": r["x"] + r["w"] / 2, "y": r["y"] + r["h"] / 2, "id": 1}
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def touch_path(points_per_finger):
    """Fingers moving together: a list of frames, each a list of (x, y) per finger."""
    first = points_per_finger[0]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [
        {"x": x, "y": y, "id": i + 1} for i, (x, y) in enumerate(first)]})
    for frame in points_per_finger[1:]:
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x, "y": y, "id": i + 1} for i, (x, y) in enumerate(frame)]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def network(up):
    """The network down or up for the page. Chromium's offline emulation leaves the service worker's
    own requests out, so the page goes past it while the network is down (its list request reached
    the server through it, which then looked reachable)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": not up})
    driver.set_network_conditions(offline=not up, latency=0, download_throughput=-1, upload_throughput=-1)


def open_page():
    driver.get(BASE)
    wait(lambda: js("return document.readyState") == "complete")
    wait(lambda: shown("login-username") or shown("map-tab"))


def log_in(account, phone=False):
    if shown("map-tab"):
        return
    for testid, value in (("login-username", account[0]), ("login-password", account[1])):
        field = by_id(testid)
        field.clear()
        field.send_keys(value)
    if phone:
        tap(by_id("login-submit"))
    else:
        by_id("login-submit").click()
    wait(lambda: shown("map-tab") or (shown("login-error") and by_id("login-error").text))


def refresh_and_wait():
    """Refresh, then wait until the pins are drawn anew."""
    js("window.__before=document.getElementById('markers').firstChild")
    by_id("refresh").click()
    wait(lambda: js("return document.getElementById('markers').firstChild!==window.__before"))
    wait(lambda: not shown("busy"))


def markers():
    return all_by_id("marker")


def visible_markers():
    return js("""return Array.from(document.querySelectorAll('[data-testid=marker]')).filter(function(m){
        var r=m.querySelector('circle').getBoundingClientRect(),s=document.getElementById('map').getBoundingClientRect();
        return m.getClientRects().length&&r.left>=s.left+20&&r.right<=s.right-20&&r.top>=s.top+20&&r.bottom<=s.bottom-60;})""")


def show_all_requested_are_same_origin(where):
    drain_network()
    others = [u for u in requested if not (u.startswith(ORIGIN + "/") or u == ORIGIN)]
    check(requested and not others, "%s: all %d requests went to %s, none elsewhere %s" % (where, len(requested), ORIGIN, others[:3]))


def console_errors():
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


options = webdriver.ChromeOptions()
options.binary_location = CHROMIUM
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900",
             # No name resolves and no proxy works: anything the page fetched from elsewhere would fail.
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--proxy-server=127.0.0.1:9", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]:
    options.add_argument(flag)
options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
driver = webdriver.Chrome(service=Service(DRIVER), options=options)
# Before any script of the page: what a successful injection would call.
driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
    window.__injected=0;['alert','confirm','prompt'].forEach(function(n){var f=window[n];window[n]=function(){window.__injected++;};});
    window.__violations=[];document.addEventListener('securitypolicyviolation',function(e){window.__violations.push(e.violatedDirective+' '+e.blockedURI);});"""})


def headers_and_weight():
    """The page's answers as curl would see them: policy headers, gzip, validators, weight."""
    status, headers, body = http("GET", "")
    check(status == 200 and headers.get("Content-Type", "").startswith("text/html"), "GET / answers the page (%d)" % status)
    check(headers.get("Content-Security-Policy") == "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
          "with Content-Security-Policy: %s" % headers.get("Content-Security-Policy"))
    check(headers.get("X-Content-Type-Options") == "nosniff" and headers.get("Referrer-Policy") == "no-referrer",
          "nosniff and Referrer-Policy: no-referrer")
    text = body.decode()
    check("<script>" not in text and " style=" not in text and "<style" not in text and " on" + "click" not in text,
          "no inline script or style in the page")
    sites = set(re.findall(r"https?://[^\s\"'<>…]+", text)) - {"http://www.w3.org/2000/svg", SIGNUP}
    check(not sites, "the page names no other site (but the sign-up link): %s" % sorted(sites))
    check("{{" not in text, "every placeholder of the page's template is filled in")
    total, zipped = 0, 0
    files = page_files(text)
    for path in [f for f in files if f.endswith(".png")]:
        status, headers, _ = http("GET", path, headers={"Accept-Encoding": "gzip"})
        check(status == 200 and headers.get("Content-Type") == "image/png" and not headers.get("Content-Encoding"),
              "/%s: a PNG, sent as it is (compressed already); an installed app's icon, not a file the page loads" % path)
    for path in [""] + [f for f in files if not f.endswith(".png")]:
        plain_status, plain_headers, plain = http("GET", path, headers={"Accept-Encoding": "identity"})
        zip_status, zip_headers, packed = http("GET", path, headers={"Accept-Encoding": "gzip, deflate, br"})
        etag = zip_headers.get("ETag")
        again, again_headers, empty = http("GET", path, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
        check(plain_status == 200 and zip_headers.get("Content-Encoding") == "gzip" and gzip.decompress(packed) == plain
              and again == 304 and not empty and again_headers.get("Content-Security-Policy"),
              "/%s: gzip when asked (%d → %d bytes), 304 for its ETag, headers on both" % (path, len(plain), len(packed)))
        total += len(plain)
        zipped += len(packed)
    measure("page_weight_uncompressed", total, "bytes")
    measure("page_weight_gzip", zipped, "bytes")
    check(total <= 500 * 1024, "the page weighs %.0f KB uncompressed (≤ 500), %.0f KB gzipped" % (total / 1024, zipped / 1024))


def page_files(page):
    """The files the page names (style sheets, icon, its module) and every module those import."""
    files = re.findall(r'(?:href|src)="(assets/[0-9a-f]{16}/[^"]+)"', page)
    modules = [f for f in files if f.endswith(".mjs")]
    while modules:
        module = modules.pop()
        _, _, source = http("GET", module)
        for name in re.findall(r'^import .* from "\./([a-z-]+\.mjs)";$', source.decode(), re.M):
            path = module.rsplit("/", 1)[0] + "/" + name
            if path not in files:
                files.append(path)
                modules.append(path)
    return files


def login_screen():
    size(1400, 900, False)
    open_page()
    check(shown("login-username") and shown("login-password") and shown("login-submit") and not shown("map-tab"),
          "the page opens on the login screen")
    check(by_id("map").is_displayed() and not markers(), "with the world behind it and no pins")
    signup = driver.find_elements(By.ID, "signup")
    check(signup and signup[0].get_attribute("href") == SIGNUP and signup[0].get_attribute("rel") == "noopener noreferrer",
          "a sign-up link goes where the server was told (%s)" % (signup[0].get_attribute("href") if signup else None))
    by_id("login-submit").click()
    check(wait(lambda: by_id("login-error").text == "Enter your email and password."), "an empty form says what is missing")
    log_in((DEMO[0], "not-the-password"))
    check(wait(lambda: "invalid credentials" in by_id("login-error").text),
          "a wrong password says so: %s" % by_id("login-error").text)
    # No answer at all: the network, not the password.
    network(False)
    log_in(DEMO)
    check(wait(lambda: by_id("login-error").text.startswith("Cannot reach the server")),
          "with the network down it says the server cannot be reached: %s" % by_id("login-error").text)
    network(True)
    # The server allows 3 failures per account: the 4th attempt waits, and the page says how long in words.
    for _ in range(4):
        log_in((LIMITED[0], "wrong"))
        time.sleep(0.2)
    message = by_id("login-error").text
    # The pause lasts what is left of the minute: "1 minute", or seconds.
    check(re.fullmatch(r"Too many login attempts\. Try again in (1 minute|\d+ seconds?)\.", message) is not None,
          "the rate limit's wait in words: %s" % message)
    log_in(DEMO)
    check(wait(lambda: shown("map-tab")), "the right password opens the map")
    check(wait(lambda: len(markers()) == 100), "with the newest 100 pins: %d markers" % len(markers()))
    storage = js("return [sessionStorage.getItem('onthemap.session'), document.cookie, JSON.stringify(localStorage)]")
    # localStorage holds one time, when the pins shown were last known current (for the offline
    # banner after a reload), and nothing of the session.
    kept = json.loads(storage[2])
    check(storage[0] and "XSRF" not in storage[1] and set(kept) <= {"onthemap.pins-current"}
          and all(re.fullmatch(r"\d+", v) for v in kept.values()),
          "the session is kept in this tab's sessionStorage, no cookie, and localStorage holds no more than a time: %s" % kept)


def map_screen():
    ids = [m.get_attribute("data-object-id") for m in markers()]
    check(all(ids) and len(set(ids)) == len(ids), "every marker has its own data-object-id")
    # The page's own list requests came gzipped (through its service worker too): none of 1 KB or
    # more came plain.
    drain_network()
    zipped = [a for a in list_answers if a[0] == "gzip"]
    plain = [a for a in list_answers if a[0] is None and a[1] >= 1024]
    check(zipped and not plain, "the page's student lists came gzipped (%d answers gzipped, plain ones of 1 KB or more: %s)"
          % (len(zipped), plain))
    _, _, data = http("GET", "v1/StudentLocation?limit=100&order=-updatedAt")
    newest = [s["objectId"] for s in api_json(data)["results"]]
    check(set(ids) == set(newest), "the markers are the server's 100 newest pins")
    clusters = all_by_id("cluster")
    loose = [m for m in markers() if m.is_displayed()]
    counted = sum(int(c.get_attribute("data-count")) for c in clusters)
    check(clusters and counted + len(loose) == 100, "at world zoom, %d clusters and %d markers hold all 100" % (len(clusters), len(loose)))
    mapr, stage = rect(by_id("map")), rect(driver.find_element(By.ID, "stage"))
    box = view_box()
    check(abs(mapr["w"] - stage["w"]) < 1 and abs(mapr["h"] - stage["h"]) < 1
          and abs(box["w"] / box["h"] - mapr["w"] / mapr["h"]) < 0.01, "the map fills the window under the bar")
    # A popup: name, place, and the link.
    target = next(m for m in markers() if m.is_displayed())
    ActionChains(driver).move_to_element(target).click().perform()
    popup = driver.find_element(By.ID, "popup")
    check(wait(popup.is_displayed), "a click on a marker opens its popup")
    _, _, data = http("GET", "v1/StudentLocation?limit=100&order=-updatedAt")
    student = next(s for s in api_json(data)["results"] if s["objectId"] == target.get_attribute("data-object-id"))
    items = popup.find_elements(By.CSS_SELECTOR, "#popup-list li")
    link = items[0].find_element(By.TAG_NAME, "a") if items else None
    check(len(items) == 1 and items[0].find_element(By.CSS_SELECTOR, ".name").text == "%s %s" % (student["firstName"], student["lastName"])
          and items[0].find_element(By.CSS_SELECTOR, ".place").text == student["mapString"],
          "it names the student and the place")
    check(link is not None and link.get_dom_attribute("href") == student["mediaURL"] and link.get_attribute("target") == "_blank"
          and link.get_attribute("rel") == "noopener noreferrer", "and links to %s in a new tab, no referrer" % student["mediaURL"])
    # Wheel, drag and keys.
    before = view_box()
    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(by_id("map")), 0, -300).perform()
    zoomed = wait(lambda: view_box()["w"] < before["w"] * 0.9 and view_box())
    check(zoomed, "the wheel zooms in (%.0f → %.0f units wide)" % (before["w"], (zoomed or before)["w"]))
    js("document.activeElement.blur()")
    driver.find_element(By.TAG_NAME, "body").send_keys("-")
    js("document.dispatchEvent(new KeyboardEvent('keydown',{key:'-'}))")
    start = view_box()
    area = rect(by_id("map"))
    ActionChains(driver).move_by_offset(0, 0).perform()
    ActionChains(driver).move_to_element_with_offset(by_id("map"), -int(area["w"] / 2) + 30, int(area["h"] / 2) - 60) \
        .click_and_hold().move_by_offset(80, -40).move_by_offset(80, -40).release().perform()
    dragged = view_box()
    check(dragged["x"] < start["x"] - 1 and dragged["y"] > start["y"] + 1 and abs(dragged["w"] - start["w"]) < 1,
          "dragging pans (the view moved %.0f, %.0f units)" % (dragged["x"] - start["x"], dragged["y"] - start["y"]))
    js("document.dispatchEvent(new KeyboardEvent('keydown',{key:'+'}))")
    keyed = view_box()
    js("document.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight'}))")
    check(keyed["w"] < dragged["w"] and view_box()["x"] > keyed["x"], "+ zooms in and the arrow keys pan")
    js("document.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}))")
    # A cluster's click zooms in to it.
    js("for(var i=0;i<10;i++)document.dispatchEvent(new KeyboardEvent('keydown',{key:'-'}))")
    cluster = wait(lambda: all_by_id("cluster"))
    width = view_box()["w"]
    js("arguments[0].dispatchEvent(new MouseEvent('click',{bubbles:true}))", cluster[0])
    check(view_box()["w"] < width, "a click on a cluster zooms in to it")
    js("for(var i=0;i<10;i++)document.dispatchEvent(new KeyboardEvent('keydown',{key:'-'}))")
    # Search by name and by place.
    name = student["firstName"]
    search = driver.find_element(By.ID, "search")
    search.send_keys(name)
    count = driver.find_element(By.ID, "count").text
    left = js("""return Array.from(document.querySelectorAll('[data-testid=marker]:not(.hidden) .student')).map(function(s){return s.dataset.name;})""")
    check(left and all(name.lower() in n.lower() for n in left) and count.startswith("%d of 100 newest students" % len(left)),
          "searching \"%s\" leaves %d: %s" % (name, len(left), count))
    search.clear()
    search.send_keys(student["mapString"].split(",")[0])
    places = js("""return Array.from(document.querySelectorAll('[data-testid=marker]:not(.hidden) .student')).map(function(s){return s.dataset.place;})""")
    check(places and all(student["mapString"].split(",")[0].lower() in p.lower() for p in places),
          "searching a place leaves its %d students" % len(places))
    search.clear()
    js("document.getElementById('search').dispatchEvent(new Event('input'))")
    check(driver.find_element(By.ID, "count").text.startswith("100 newest students"), "an empty search shows all again")


def list_ids():
    """Every row of the list in order, scrolling it from its top to its end (only the rows on the
    screen are made); the most rows made at once."""
    found, most = {}, 0
    js("document.getElementById('list-view').scrollTop=0")
    for _ in range(400):
        time.sleep(0.05)
        rows = js("""return Array.from(document.querySelectorAll('#student-list li')).map(function(r){
            return [+r.getAttribute('aria-posinset'), r.getAttribute('data-object-id')];})""")
        most = max(most, len(rows))
        found.update({p: i for p, i in rows})
        if js("var v=document.getElementById('list-view');var end=v.scrollTop+v.clientHeight>=v.scrollHeight-1;"
              "v.scrollTop+=v.clientHeight*0.8;return end"):
            break
    js("document.getElementById('list-view').scrollTop=0")
    return [found[p] for p in sorted(found)], most


def list_screen():
    by_id("list-tab").click()
    rows = wait(lambda: all_by_id("list-row"))
    _, _, data = http("GET", "v1/StudentLocation?limit=100&order=-updatedAt")
    newest = api_json(data)["results"]
    ids, most = list_ids()
    check(rows and ids == [s["objectId"] for s in newest], "the list holds the same %d pins, newest first" % len(ids))
    check(most < len(newest), "only the rows on the screen are made (at most %d of %d)" % (most, len(newest)))
    check(driver.current_url.endswith("#/list"), "the list has its address: %s" % driver.current_url)

    def first_row():
        # The list draws its rows again after list_ids scrolled it back to the top, in a frame of
        # its own: rows read before then are gone (stale), so the first one is looked for until found.
        row = driver.find_element(By.CSS_SELECTOR, '#student-list li[aria-posinset="1"] [data-testid="list-row"]')
        return row, [row.find_element(By.CSS_SELECTOR, c).text for c in (".name", ".place", ".link", ".updated")]
    first, parts = wait(first_row) or (None, [""] * 4)
    check(parts[0] == "%s %s" % (newest[0]["firstName"], newest[0]["lastName"]) and parts[1] == newest[0]["mapString"]
          and parts[2] == newest[0]["mediaURL"] and parts[3], "a row shows name, place, link and when: %s" % parts)
    tabs = len(driver.window_handles)
    first.click()
    opened = wait(lambda: len(driver.window_handles) == tabs + 1)
    check(opened, "tapping a row opens its link in a new tab")
    if opened:
        main = driver.current_window_handle
        driver.switch_to.window([h for h in driver.window_handles if h != main][0])
        try:
            opener = js("return window.opener===null")
        except Exception:  # the link's site does not resolve here: Chromium's error page may refuse scripts
            opener = None
        check(opener is not False, "which cannot reach back to the page (noopener): %s" % opener)
        driver.close()
        driver.switch_to.window(main)
    by_id("map-tab").click()
    check(wait(lambda: not driver.find_element(By.ID, "list-view").is_displayed() and by_id("map").is_displayed()),
          "the map tab goes back to the map")


def busy_and_refresh():
    driver.set_network_conditions(offline=False, latency=600, download_throughput=-1, upload_throughput=-1)
    by_id("refresh").click()
    seen = wait(lambda: shown("busy"), 2)
    check(seen, "a busy bar shows while a request runs")
    check(wait(lambda: not shown("busy"), 10), "and goes once it is answered")
    network(True)


def automatic_reload():
    """Another student posts: the page shows the pin within a poll, and polls download no list meanwhile."""
    time.sleep(1.5)
    drain_network()
    session, key = api_login(GRACE)
    status, _, data = http("POST", "v1/StudentLocation", {
        "uniqueKey": key, "firstName": "Grace", "lastName": "Hopper", "mapString": "Auckland, New Zealand",
        "mediaURL": "https://grace.example", "latitude": -36.85, "longitude": 174.76}, {"X-OnTheMap-Session": session})
    object_id = json.loads(data)["objectId"]
    appeared = wait(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid=marker][data-object-id="%s"]' % object_id), 10)
    check(status == 201 and appeared, "a pin posted elsewhere appears without a reload (poll every second)")
    drain_network()
    # The page's own checks show no busy bar (nor set aria-busy): each one that did told of work no
    # one asked for, and cost the map a frame or two.
    js("""window.__busyShown=0;var b=document.getElementById('busy');new MutationObserver(function(){
        if(!b.hidden||document.body.getAttribute('aria-busy')==='true')window.__busyShown++;})
        .observe(document.body,{attributes:true,subtree:true,attributeFilter:['hidden','aria-busy']});""")
    time.sleep(5)
    events = drain_network()
    sent = {p["requestId"]: p["request"]["url"] for m, p in events if m == "Network.requestWillBeSent"}
    answers = [(sent.get(p["requestId"], ""), p["response"]["status"]) for m, p in events if m == "Network.responseReceived"]
    lists = [(u, s) for u, s in answers if "StudentLocation" in u and "uniqueKey" not in u]
    full = [(u, s) for u, s in lists if s == 200 and "limit=1&" not in u]
    check(len(lists) >= 3 and not full, "quiet for 5 s: %d checks for changes, %d full downloads (%s)"
          % (len(lists), len(full), sorted({"%s %d" % (u.split("/v1/")[1], s) for u, s in lists})))
    busy = js("return window.__busyShown")
    check(lists and busy == 0, "the checks show no busy bar (shown %d times in 5 s)" % busy)
    return object_id


def post_flow():
    session, key = api_login(DEMO)
    check(not own_pin(key), "the demo account has no pin yet")
    by_id("post-open").click()
    check(wait(lambda: shown("post-place") and shown("post-link") and shown("post-find")), "Post opens the form")
    by_id("post-find").click()
    check(wait(lambda: shown("alert") and "Enter your place" in alert_text()), "finding nothing says what to type")
    by_id("post-place").send_keys("Springfield")
    by_id("post-link").send_keys("javascript:alert(1)")
    by_id("post-find").click()
    check(wait(lambda: "http:// or https://" in alert_text()), "a link that is not a web address is refused")
    by_id("post-link").clear()
    by_id("post-link").send_keys("https://ada.example")
    by_id("post-find").click()
    candidates = wait(lambda: all_by_id("post-candidate"))
    labels = [c.find_element(By.TAG_NAME, "strong").text for c in candidates or []]
    check(len(labels) >= 2 and ILLINOIS in labels, "Find on map offers the Springfields: %s" % labels)
    _, _, data = http("GET", "v1/geocode?q=Springfield&limit=5", headers={"X-OnTheMap-Session": session})
    check(labels == [p["label"] for p in api_json(data)["results"]] and len(set(labels)) == len(labels),
          "each candidate is named exactly as /v1/geocode names it, and none twice")
    check(js("return document.getElementById('map').classList.contains('previewing')")
          and driver.find_element(By.CSS_SELECTOR, "#preview .candidate").is_displayed()
          and not any(m.is_displayed() for m in markers()), "the preview shows the place alone on the map")
    target = labels.index(ILLINOIS)
    candidates[target].click()
    check(candidates[target].get_attribute("aria-pressed") == "true"
          and driver.find_element(By.ID, "post-picked").get_attribute("textContent") == ILLINOIS,
          "another candidate can be picked")
    pin = driver.find_element(By.CSS_SELECTOR, "#preview .candidate path")
    r, m = rect(pin), rect(by_id("map"))
    check(m["x"] <= r["x"] and r["right"] <= m["right"] and m["y"] <= r["y"] and r["bottom"] <= m["bottom"], "and is shown")
    by_id("post-cancel").click()
    check(wait(lambda: not shown("post-finish")) and not own_pin(key)
          and not js("return document.getElementById('map').classList.contains('previewing')"),
          "Cancel goes back to the map and posts nothing")
    # Finish posts the picked place's label.
    by_id("post-open").click()
    wait(lambda: shown("post-place"))  # the form opens on the address's hashchange, a task later
    by_id("post-place").clear()
    by_id("post-place").send_keys(ILLINOIS)
    by_id("post-find").click()
    wait(lambda: shown("post-finish"))
    by_id("post-finish").click()
    mine = wait(lambda: own_pin(key))
    check(mine and mine[0]["mapString"] == ILLINOIS and mine[0]["mediaURL"] == "https://ada.example"
          and mine[0]["firstName"] == "Ada", "Finish posts the pin as \"%s\" (the label, not the text typed)" % ILLINOIS)
    own = wait(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid=marker].mine[data-object-id="%s"]' % (mine or [{}])[0].get("objectId")))
    check(own, "your pin appears on the map, marked as yours")
    legend = driver.find_element(By.ID, "count").text
    check("● you" in legend, "the count says which is you: %s" % legend)
    # A second post asks before it replaces the pin, then moves it.
    by_id("post-open").click()
    wait(lambda: shown("post-place"))  # the form opens on the address's hashchange, a task later
    by_id("post-place").clear()
    by_id("post-place").send_keys("Lima, Peru")
    by_id("post-find").click()
    wait(lambda: shown("post-finish"))
    by_id("post-finish").click()
    check(wait(lambda: shown("overwrite-confirm")) and ILLINOIS in driver.find_element(By.ID, "overwrite-text").text,
          "with a pin already there, Finish asks before replacing it")
    by_id("overwrite-confirm").click()
    moved = wait(lambda: own_pin(key)[0]["mapString"] == "Lima, Peru" and own_pin(key))
    check(moved and len(moved) == 1 and moved[0]["objectId"] == mine[0]["objectId"], "and then moves it (PUT): one pin, now in Lima")
    # Failures are alerts.
    by_id("post-open").click()
    wait(lambda: shown("post-place"))  # the form opens on the address's hashchange, a task later
    by_id("post-place").clear()
    by_id("post-place").send_keys("Qxzwvtplk Nowhere")
    by_id("post-find").click()
    check(wait(lambda: "No place matches" in alert_text()), "a place the gazetteer lacks is an alert: %s" % alert_text())
    by_id("post-place").clear()
    by_id("post-place").send_keys("Oslo, Norway")
    by_id("post-find").click()
    wait(lambda: shown("post-finish"))
    network(False)
    by_id("post-finish").click()
    if wait(lambda: shown("overwrite-confirm"), 5):  # it still knows the pin it would replace
        by_id("overwrite-confirm").click()
    check(wait(lambda: shown("alert") and "Cannot reach the server" in alert_text()),
          "Finish with the network down is an alert: %s" % alert_text())
    network(True)
    check(wait(lambda: not shown("alert")), "once the server answers again, that alert goes by itself")
    # A place looked up with the network down: the alert goes with the form (Cancel), and by itself
    # once the server answers again.
    by_id("post-cancel").click()
    for way in ("Cancel", "the server back"):
        by_id("post-open").click()
        wait(lambda: shown("post-place"))  # the form opens on the address's hashchange, a task later
        by_id("post-place").clear()
        by_id("post-place").send_keys("Oslo, Norway")
        network(False)
        by_id("post-find").click()
        said = wait(lambda: "Could not look the place up" in alert_text() and alert_text())
        if way == "Cancel":
            by_id("post-cancel").click()
            gone = wait(lambda: not shown("alert"), 5)
            network(True)
        else:
            network(True)
            gone = wait(lambda: not shown("alert"), 10)
            by_id("post-cancel").click()
        check(said and gone, "\"%s\" goes after %s" % (said, way))
        wait(lambda: not shown("offline"))
    js("for(var i=0;i<12;i++)document.dispatchEvent(new KeyboardEvent('keydown',{key:'-'}))")


def hostile_data():
    """Students as an attacker would name them, written straight into the database."""
    now = datetime.now(timezone.utc)
    stamp = now.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (now.microsecond // 1000)
    long_name = "W" * 10240
    rows = [
        ("hostile-img", "<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "\"><svg onload=alert(3)>",
         "javascript:alert(1)", 48.1, 11.5),
        ("hostile-rlo", "Mallory \u202eevil\u202c", "\u202eReversed", "\u202eLima, Peru", "data:text/html,<script>alert(4)</script>", -12.0, -77.0),
        ("hostile-long", long_name, "L" * 10240, ("very long place " * 700).strip(), "https://" + "x" * 10000 + ".example", 35.7, 139.7),
        ("hostile-case", "Eve", "Case", "Berlin, Germany", " JaVaScRiPt:alert(5)", 52.5, 13.4),
        ("hostile-quote", "Quote", "Attr", "Paris, France", "https://ok.example/\"onmouseover=\"alert(6)", 48.85, 2.35),
        ("hostile-bidi", "Eve\u001b[2J", "Turn\u202e", "Rome\r\nFAKE", "https://ok.example/\u202egnp.exe", 41.9, 12.5),
    ]
    with sqlite3.connect(DB, timeout=10) as db:
        for object_id, first, last, place, url, lat, lon in rows:
            db.execute("INSERT INTO studentLocation (objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, "
                       "longitude, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (object_id, "9" + object_id, first, last, place, url, lat, lon, stamp, stamp))
    for width, height, phone in ((1400, 900, False), (390, 844, True)):
        where = "%dx%d" % (width, height)
        size(width, height, phone)
        refresh_and_wait()
        check(wait(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid=marker][data-object-id="hostile-long"]')),
              "%s: hostile students are on the map" % where)
        for object_id in ["hostile-img", "hostile-rlo", "hostile-long", "hostile-case", "hostile-quote", "hostile-bidi"]:
            marker = driver.find_element(By.CSS_SELECTOR, '[data-testid=marker][data-object-id="%s"]' % object_id)
            js("arguments[0].dispatchEvent(new MouseEvent('click',{bubbles:true}))", marker)
            popup = driver.find_element(By.ID, "popup")
            pr, vp = rect(popup), viewport()
            check(popup.is_displayed() and pr["x"] >= 0 and pr["right"] <= vp["w"] + 1 and pr["bottom"] <= vp["h"] + 1,
                  "%s: %s's popup stays on the screen (%.0fx%.0f at %.0f,%.0f)" % (where, object_id, pr["w"], pr["h"], pr["x"], pr["y"]))
        # A place of 11,000 characters is cut at a few whole lines, as the name is: the popup stays short.
        marker = driver.find_element(By.CSS_SELECTOR, '[data-testid=marker][data-object-id="hostile-long"]')
        js("arguments[0].dispatchEvent(new MouseEvent('click',{bubbles:true}))", marker)
        cut = wait(lambda: js("""var p=document.querySelector('#popup .place'),n=document.querySelector('#popup .name');
            if(!p||document.getElementById('popup').hidden)return null;var lh=parseFloat(getComputedStyle(p).lineHeight);
            return [p.getBoundingClientRect().height/lh,n.getBoundingClientRect().height/parseFloat(getComputedStyle(n).lineHeight),
            p.textContent.length,document.getElementById('popup').getBoundingClientRect().height,
            document.getElementById('popup-heading').getBoundingClientRect().height/lh]"""))
        check(cut and cut[0] <= 3.05 and abs(cut[0] - round(cut[0])) < 0.05 and cut[1] <= 4.05 and abs(cut[1] - round(cut[1])) < 0.05
              and cut[2] > 10000 and cut[3] < 400 and cut[4] <= 3.05,
              "%s: a very long place is cut at whole lines in its popup, as the name is, its text whole in the page "
              "(lines of place, name; characters; popup px; lines of heading): %s" % (where, cut))
        js("document.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}))")
        names = js("""return Array.from(document.querySelectorAll('[data-testid=marker] .student')).map(function(s){return s.dataset.name;})""")
        check("<img src=x onerror=alert(1)> <script>alert(2)</script>" in names, "%s: a name with markup is kept as text" % where)
        by_id("list-tab").click()

        def hostile_rows():
            # Read again until the list holds still: a list arriving as it opens draws its rows anew,
            # and rows read before that are gone from the page (a stale element).
            rows = {r.get_attribute("data-object-id"): r for r in all_by_id("list-row")}
            found = {k: r for k, r in rows.items() if k and k.startswith("hostile")}
            return (found, {k: rect(r)["h"] for k, r in found.items()}) if len(found) == 6 else None
        hostile, heights = wait(hostile_rows) or ({}, {})
        check(len(hostile) == 6 and max(heights.values(), default=0) < 200, "%s: hostile rows keep a row's height: %s" % (where, heights))
        check(hostile["hostile-img"].find_element(By.CSS_SELECTOR, ".name").text.startswith("<img src=x onerror=alert(1)>"),
              "%s: the list shows the markup as text" % where)
        hrefs = js("return Array.from(document.querySelectorAll('a[href]')).map(function(a){return a.getAttribute('href');})")
        check(all(h.startswith("https://") or h.startswith("http://") for h in hrefs if h != "icon.svg"),
              "%s: only http(s) links are links (%d links)" % (where, len(hrefs)))
        check(all(not hostile[k].find_elements(By.TAG_NAME, "a") and hostile[k].get_attribute("href") is None
                  and hostile[k].get_attribute("aria-disabled") == "true" for k in ("hostile-img", "hostile-rlo", "hostile-case")),
              "%s: javascript: and data: links are text, in rows that say they open nothing" % where)
        bidi = hostile["hostile-bidi"]
        shown = js("return [arguments[0].querySelector('.name').textContent, arguments[0].querySelector('.place').textContent,"
                   "arguments[0].querySelector('.link').textContent]", bidi)
        check(not bidi.find_elements(By.TAG_NAME, "a") and bidi.get_attribute("href") is None and not any(c in "".join(shown) for c in "\u001b\u202e\r\n")
              and shown[0].startswith("Eve\ufffd[2J"),
              "%s: a link with a bidi override is text, and controls show as the terminal shows them: %r" % (where, shown))
        quote = [hostile["hostile-quote"]]
        check(quote[0].get_attribute("href") and quote[0].get_attribute("onmouseover") is None, "%s: a quote in a link does not add an attribute" % where)
        tabs = len(driver.window_handles)
        js("arguments[0].dispatchEvent(new MouseEvent('click',{bubbles:true}))", hostile["hostile-img"])
        time.sleep(0.3)
        check(len(driver.window_handles) == tabs, "%s: tapping a row whose link is javascript: opens nothing" % where)
        rlo = hostile["hostile-rlo"]
        check(js("return getComputedStyle(arguments[0].querySelector('.name')).unicodeBidi", rlo) == "isolate"
              and js("return getComputedStyle(arguments[0].querySelector('.place')).unicodeBidi", rlo) == "isolate",
              "%s: names and places are isolated (a right-to-left override stays inside)" % where)
        overflow = js("return [document.scrollingElement.scrollWidth, innerWidth, document.getElementById('list-view').scrollWidth,"
                      "document.getElementById('list-view').clientWidth]")
        check(overflow[0] <= overflow[1] and overflow[2] <= overflow[3], "%s: nothing is wider than the screen %s" % (where, overflow))
        by_id("map-tab").click()
        try:
            driver.switch_to.alert
            dialog = True
        except NoAlertPresentException:
            dialog = False
        injected = js("return [window.__injected, document.querySelectorAll('img,iframe,object,embed').length,"
                      "document.scripts.length, Array.from(document.querySelectorAll('*')).filter(function(e){"
                      "return Array.from(e.attributes).some(function(a){return /^on/i.test(a.name);});}).length, window.__violations]")
        check(not dialog and injected[0] == 0 and injected[1] == 0 and injected[2] == 1 and injected[3] == 0,
              "%s: nothing ran: no alert, no element or handler from the data %s" % (where, injected))
        check(not injected[4], "%s: no Content-Security-Policy violation: %s" % (where, injected[4][:3]))
    size(1400, 900, False)
    with sqlite3.connect(DB, timeout=10) as db:
        db.execute("DELETE FROM studentLocation WHERE objectId LIKE 'hostile-%'")
    refresh_and_wait()
    wait(lambda: not driver.find_elements(By.CSS_SELECTOR, '[data-object-id^="hostile"]'))


def phone(width, height):
    where = "%dx%d" % (width, height)
    size(width, height, True)
    js("document.getElementById('post-cancel').click();document.getElementById('alert').hidden=true;"
       "document.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}))")
    time.sleep(0.3)
    bar, mapr, vp = rect(driver.find_element(By.ID, "bar")), rect(by_id("map")), viewport()
    box = view_box()
    check(bar["h"] <= 56 and abs(mapr["y"] - bar["bottom"]) < 1 and abs(mapr["bottom"] - vp["h"]) < 1 and abs(mapr["w"] - vp["w"]) < 1,
          "%s: one bar of %.0f px, the map fills the rest (%.0fx%.0f)" % (where, bar["h"], mapr["w"], mapr["h"]))
    check(abs(box["w"] / box["h"] - mapr["w"] / mapr["h"]) < 0.01 and box["y"] >= -1 and box["y"] + box["h"] <= 65536,
          "%s: the world fills the map, no letterboxing (view %.0fx%.0f from y %.0f)" % (where, box["w"], box["h"], box["y"]))
    controls = [by_id(t) for t in ("map-tab", "list-tab", "refresh", "post-open", "logout")]
    sizes = [(rect(c)["w"], rect(c)["h"]) for c in controls]
    check(all(w >= 36 and h >= 34 for w, h in sizes) and all(rect(c)["right"] <= vp["w"] for c in controls),
          "%s: the bar's buttons are thumb-sized and on screen: %s" % (where, ["%.0fx%.0f" % s for s in sizes]))
    check(js("return document.scrollingElement.scrollWidth<=innerWidth"), "%s: nothing scrolls sideways" % where)
    # Every student reachable: a drag with one finger pans to each edge of the world.
    centre = (mapr["x"] + mapr["w"] / 2, mapr["y"] + mapr["h"] / 2)
    start = view_box()
    touch_path([[(centre[0] - 100, centre[1])], [(centre[0] - 40, centre[1])], [(centre[0] + 100, centre[1])]])
    west = view_box()
    touch_path([[(centre[0] + 100, centre[1])], [(centre[0] + 40, centre[1])], [(centre[0] - 100, centre[1])]])
    east = view_box()
    # One of the two moves, whichever edge of the world the view was at.
    check(start["x"] - west["x"] > 100 or east["x"] - west["x"] > 100,
          "%s: a finger's drag pans the map (%.0f, %.0f, %.0f)" % (where, start["x"], west["x"], east["x"]))
    for _ in range(30):
        touch_path([[(centre[0] + 150, centre[1])], [(centre[0] - 150, centre[1])]])
    east = visible_markers()
    zealand = js("""return Array.from(document.querySelectorAll('[data-testid=marker],[data-testid=cluster]')).filter(function(m){
        if(!m.getClientRects().length)return false;var r=m.querySelector('circle').getBoundingClientRect(),s=document.getElementById('map').getBoundingClientRect();
        var names=m.members?m.members.map(function(x){return x.querySelector('.student').dataset.place;}):[m.querySelector('.student').dataset.place];
        return names.some(function(p){return /New Zealand/.test(p);})&&r.left>=s.left&&r.right<=s.right&&r.top>=s.top&&r.bottom<=s.bottom;}).length""")
    check(zealand > 0, "%s: panned east, New Zealand's pins are whole on the screen" % where)
    # Two fingers spreading zoom in.
    before = view_box()["w"]
    touch_path([[(centre[0] - 40 - s, centre[1]), (centre[0] + 40 + s, centre[1])] for s in range(0, 130, 20)])
    check(before / view_box()["w"] > 2, "%s: spreading two fingers zooms in (%.0f → %.0f units)" % (where, before, view_box()["w"]))
    for _ in range(3):
        touch_path([[(centre[0] - 150, centre[1]), (centre[0] + 150, centre[1])], [(centre[0] - 30, centre[1]), (centre[0] + 30, centre[1])]])
    target = (visible_markers() or [None])[0]
    if check(target is not None, "%s: a marker on screen to tap" % where):
        tap(target)
        check(wait(lambda: driver.find_element(By.ID, "popup").is_displayed()), "%s: tapping a marker opens its popup" % where)
        pr = rect(driver.find_element(By.ID, "popup"))
        check(pr["x"] >= 0 and pr["right"] <= vp["w"] + 1, "%s: the popup fits the screen" % where)
    # The list, with a thumb.
    tap(by_id("list-tab"))
    rows = wait(lambda: all_by_id("list-row"))
    heights = [rect(r)["h"] for r in rows[:10]]
    check(rows and min(heights) >= 44 and all(rect(r)["right"] <= vp["w"] + 1 for r in rows[:10]),
          "%s: list rows are at least 44 px tall (%.0f–%.0f) and fit the width" % (where, min(heights), max(heights)))
    tap(by_id("map-tab"))
    # The post form, with a thumb: a sheet at the bottom (portrait) with big fields.
    tap(by_id("post-open"))
    wait(lambda: shown("post-place"))
    form = rect(driver.find_element(By.ID, "post"))
    fields = [rect(by_id(t)) for t in ("post-place", "post-link", "post-find", "post-cancel")]
    check(all(f["h"] >= 40 and f["x"] >= 0 and f["right"] <= vp["w"] for f in fields) and form["bottom"] <= vp["h"] + 1,
          "%s: the post form's fields and buttons are thumb-sized and on screen" % where)
    by_id("post-place").clear()
    by_id("post-place").send_keys("Springfield")
    if not by_id("post-link").get_attribute("value"):
        by_id("post-link").send_keys("https://ada.example")
    tap(by_id("post-find"))
    found = wait(lambda: shown("post-finish") and all_by_id("post-candidate"))
    pin = driver.find_elements(By.CSS_SELECTOR, "#preview .candidate path")
    if check(found and pin, "%s: Find on map previews the place" % where):
        r, f = rect(pin[0]), rect(driver.find_element(By.ID, "post"))
        free_bottom = f["y"] if f["w"] >= vp["w"] * 0.9 else vp["h"]
        check(r["y"] >= mapr["y"] and r["bottom"] <= free_bottom and r["x"] >= (f["right"] if f["w"] < vp["w"] * 0.9 else 0),
              "%s: the previewed place is in the part of the map the form leaves" % where)
    tap(by_id("post-cancel"))
    wait(lambda: not shown("post-place"))


def screenshots():
    """One for the README: the map on a desktop with a popup, and one on a phone."""
    size(1400, 900, False)
    driver.find_element(By.ID, "search").clear()
    js("document.getElementById('search').dispatchEvent(new Event('input'))")
    js("document.dispatchEvent(new KeyboardEvent('keydown',{key:'0'}))")
    time.sleep(0.5)
    spot = js("""return Array.from(document.querySelectorAll('[data-testid=marker].mine,[data-testid=cluster].mine')).filter(function(m){
        return m.getClientRects().length;})[0]""")
    if spot:
        js("arguments[0].dispatchEvent(new MouseEvent('mouseenter'));arguments[0].dispatchEvent(new MouseEvent('mouseover',{bubbles:true}))", spot)
    driver.save_screenshot(os.path.join(OUT, "web-app.png"))
    size(390, 844, True)
    time.sleep(0.3)
    js("document.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape'}))")
    driver.save_screenshot(os.path.join(OUT, "web-app-phone.png"))
    size(1400, 900, False)
    check(os.path.getsize(os.path.join(OUT, "web-app.png")) > 20000, "screenshots saved in %s" % OUT)


def idle_frames(count=30):
    """The longest gap between `count` frames of a page doing nothing: how busy the machine is."""
    stamps = driver.execute_async_script("""var done=arguments[0],t=[];function f(ts){t.push(ts);
        if(t.length<arguments[1])requestAnimationFrame(f);else done(t);}requestAnimationFrame(f);""".replace("arguments[1]", str(count)))
    return max(b - a for a, b in zip(stamps, stamps[1:]))


# A machine busy with other work (other tests, builds) delays every frame, a page's or not: timings are
# judged only from runs that began with frames coming on time (a page at rest, no gap over 25 ms).
CALM = 25


def first_render():
    """Navigation Timing: from the start of the page's load to 100 pins drawn, logged in."""
    calm, busy = [], []
    for _ in range(8):
        quiet = idle_frames()
        driver.refresh()
        mark = wait(lambda: js("var m=performance.getEntriesByName('pins-drawn');return m.length&&m[0].startTime"), 10) or 99999
        (calm if quiet <= CALM else busy).append(mark)
        measure("first_render_100_pins", "%.0f" % mark, "ms" if quiet <= CALM else "ms (machine busy: idle frames up to %.0f ms)" % quiet)
        if len(calm) >= 3:
            break
    if calm:
        timing(statistics.median(calm) <= 300, "100 pins drawn %.0f ms after the page began to load (median of %s; ≤ 300)"
              % (statistics.median(calm), ["%.0f" % t for t in calm]))
    else:
        print("skip 100 pins drawn %s ms after the page began to load, not judged: the machine was busy (idle frames over %d ms)"
              % (["%.0f" % t for t in busy], CALM))


def expired_session():
    """Revoked by the operator: the next check sends the page to the login screen, with a message."""
    result = subprocess.run([SERVER, "session", "revoke", "--user", DEMO[0], "--yes", "--database", DB],
                            capture_output=True, text=True, timeout=60)
    check(result.returncode == 0, "onthemap-server session revoke --user %s: %s" % (DEMO[0], (result.stdout + result.stderr).strip()))
    back = wait(lambda: shown("login-username") and by_id("login-error").text, 10)
    check(back and "session has ended" in back, "a revoked session returns to the login screen saying so: %s" % back)
    check(not markers() and not js("return sessionStorage.getItem('onthemap.session')"), "and forgets the pins and the session")


def logout():
    log_in(DEMO)
    wait(lambda: len(markers()) == 100)
    stored = json.loads(js("return sessionStorage.getItem('onthemap.session')"))
    by_id("logout").click()
    check(wait(lambda: shown("login-username")) and not js("return sessionStorage.getItem('onthemap.session')"),
          "Log out returns to the login screen and forgets the session")
    status, _, _ = http("GET", "v1/session", headers={"X-OnTheMap-Session": stored["id"]})
    check(status == 401, "and the server ended it (GET /v1/session answers %d)" % status)


def in_view():
    """Markers whose point is in the view, how many of them are not on screen (alone or in a drawn
    cluster), how many markers and clusters are in the map's SVG, and how many of those lie more
    than a screen beyond the view."""
    return js("""var svg=document.getElementById('map'),v=svg.view,s=svg.parentNode.getBoundingClientRect(),
        all=Array.from(document.querySelectorAll('[data-testid=marker]')),drawn=Array.from(svg.querySelectorAll('.marker,.cluster')),
        held=new Set();drawn.forEach(function(c){if(c.members)c.members.forEach(function(m){held.add(m);});});
        var seen=all.filter(function(m){var a=m.at;return a.x>=v.x&&a.x<=v.x+v.width&&a.y>=v.y&&a.y<=v.y+v.height;});
        return {seen:seen.length,missing:seen.filter(function(m){return !m.getClientRects().length&&!held.has(m);}).length,
        drawn:drawn.length,far:drawn.filter(function(e){var r=e.getBoundingClientRect();
        return r.right<s.left-2*s.width||r.left>s.right+2*s.width||r.bottom<s.top-2*s.height||r.top>s.bottom+2*s.height;}).length,
        total:all.length};""")


def drawn_where_seen():
    """Only what is near the view is drawn (ten thousand markers in the SVG made every frame slow), and
    what comes into view is drawn: after a zoom, keys' pans, and mid-way through a long drag."""
    key = "document.dispatchEvent(new KeyboardEvent('keydown',{key:arguments[0]}))"
    js(key, "0")
    for _ in range(6):
        js(key, "+")
    states = [("zoomed in", in_view())]
    for _ in range(8):
        js(key, "ArrowRight")
    states.append(("8 quarter-screens east", in_view()))
    js("""var svg=document.getElementById('map'),r=svg.getBoundingClientRect(),x=r.left+r.width/2,y=r.top+r.height/2;
        function p(type,dx){svg.dispatchEvent(new PointerEvent(type,{pointerId:7,clientX:x+dx,clientY:y,bubbles:true,isPrimary:true,
        pointerType:'mouse',button:0,buttons:type==='pointerup'?0:1}));}
        p('pointerdown',0);for(var dx=-20;dx>=-1000;dx-=20)p('pointermove',dx);""")
    states.append(("mid-way through a drag of 1,000 px", in_view()))
    js("""var svg=document.getElementById('map'),r=svg.getBoundingClientRect();svg.dispatchEvent(new PointerEvent('pointerup',
        {pointerId:7,clientX:r.left+r.width/2-1000,clientY:r.top+r.height/2,bubbles:true,isPrimary:true,pointerType:'mouse',button:0,buttons:0}));""")
    states.append(("after it", in_view()))
    js(key, "0")
    # Some of the panned-to views may fall on the sea; the first is where most pins are.
    check(states[0][1]["seen"] and any(s["seen"] for _, s in states[1:])
          and all(not s["missing"] and not s["far"] and s["drawn"] < s["total"] / 4 and s["total"] == 10000 for _, s in states),
          "10,000 pins: what is in view is drawn, and little else: %s" % "; ".join(
              "%s: %d in view, %d of them missing, %d drawn, %d far off" % (w, s["seen"], s["missing"], s["drawn"], s["far"]) for w, s in states))


def zoom_worked_out_ahead():
    """A wheel zoom's markers, drawn anew mid-gesture when it has doubled their size, find their
    clusters worked out ahead in idle time: working out ten thousand markers' clusters then and
    there made that frame miss two or three of the screen's."""
    key = "document.dispatchEvent(new KeyboardEvent('keydown',{key:arguments[0]}))"
    js(key, "0")
    js(key, "+")  # a zoom the frames' runs above did not start from: its clusters are not kept from them
    time.sleep(1)  # the page at rest, as between two turns of a wheel: idle time to work ahead
    counts = driver.execute_async_script("""
        var done=arguments[arguments.length-1],svg=document.getElementById('map'),r=svg.getBoundingClientRect(),
        before=Object.assign({},svg.groupings),notches=0;
        function notch(){svg.dispatchEvent(new WheelEvent('wheel',{deltaY:-120,clientX:r.left+r.width/2,clientY:r.top+r.height/2,
            bubbles:true,cancelable:true}));
            if(++notches<5)requestAnimationFrame(notch);else done({before:before,after:Object.assign({},svg.groupings)});}
        requestAnimationFrame(notch);""")
    before, after = counts["before"], counts["after"]
    check(after["found"] > before["found"] and after["late"] == before["late"],
          "10,000 pins: a wheel's 5 notches drew the markers anew with clusters worked out ahead "
          "(%d found kept, %d worked out in the frame)" % (after["found"] - before["found"], after["late"] - before["late"]))
    js(key, "0")


def bench():
    size(1400, 900, False)
    open_page()
    log_in(DEMO)
    loaded = wait(lambda: len(markers()) == 10000, 60)
    check(loaded, "10,000 pins on the map (%d markers)" % len(markers()))
    driver.set_script_timeout(300)
    # The first drawing done (the world's, the first clusters'), as a person would wait for it.
    wait(lambda: not shown("busy"), 30)
    time.sleep(2)
    # Frames while the map pans (a drag, one step a frame) and zooms (a wheel notch a frame), timed by
    # requestAnimationFrame: a frame over 50 ms is one the page made wait. Judged on the first of up to
    # five runs that begins with the machine calm.
    judged = False
    for attempt in range(5):
        quiet = idle_frames(60)
        frames = driver.execute_async_script("""
            var done=arguments[arguments.length-1],svg=document.getElementById('map'),r=svg.getBoundingClientRect(),
            cx=r.left+r.width/2,cy=r.top+r.height/2,stamps={pan:[],zoom:[]};
            function pointer(type,x,y){svg.dispatchEvent(new PointerEvent(type,{pointerId:1,clientX:x,clientY:y,bubbles:true,
                isPrimary:true,pointerType:'mouse',button:0,buttons:type==='pointerup'?0:1}));}
            function pan(t){stamps.pan.push(t);var step=stamps.pan.length,dx=(step%60<30?-12:12)*(step%30),dy=(step%20<10?4:-4)*(step%10);
                if(step===1)pointer('pointerdown',cx,cy);else pointer('pointermove',cx+dx,cy+dy);
                if(step<120)requestAnimationFrame(pan);else{pointer('pointerup',cx+dx,cy+dy);requestAnimationFrame(zoom);}}
            function zoom(t){stamps.zoom.push(t);var step=stamps.zoom.length;
                svg.dispatchEvent(new WheelEvent('wheel',{deltaY:step%40<20?-120:120,clientX:cx,clientY:cy,bubbles:true,cancelable:true}));
                if(step<80)requestAnimationFrame(zoom);else done(stamps);}
            requestAnimationFrame(function(){requestAnimationFrame(pan);});""")
        results = []
        for kind in ("pan", "zoom"):
            gaps = [b - a for a, b in zip(frames[kind], frames[kind][1:])]
            results.append((kind, len(gaps), max(gaps), sorted(gaps)[int(len(gaps) * 0.95)]))
        print("     run %d: idle frames up to %.0f ms; %s" % (attempt + 1, quiet, "; ".join(
            "%s: %d frames, longest %.1f ms, p95 %.1f" % r for r in results)))
        if quiet > CALM:
            continue
        for kind, count, worst, p95 in results:
            measure("frames_10000_%s_max" % kind, "%.1f" % worst, "ms")
            measure("frames_10000_%s_p95" % kind, "%.1f" % p95, "ms")
            # To the millisecond: three frames of a 60 Hz screen are 50 ms, which the clock gives as
            # 49.9–50.1 ms; a frame that waited longer shows as 66.7.
            timing(round(worst) <= 50, "10,000 pins: %d frames of %s, the longest %.1f ms (p95 %.1f; ≤ 50)" % (count, kind, worst, p95))
        judged = True
        break
    if not judged:
        print("skip 10,000 pins' frames not judged: the machine was busy in all 5 runs (idle frames over %d ms)" % CALM)
    grouped = js("return document.getElementById('map').groupings")
    print("     clusters of a zoom level worked out in idle time %(ahead)d times, found kept %(found)d, worked out when needed %(late)d" % grouped)
    zoom_worked_out_ahead()
    drawn_where_seen()
    times = []
    for _ in range(3):
        driver.refresh()
        mark = wait(lambda: js("var m=performance.getEntriesByName('pins-drawn');return m.length&&m[0].startTime"), 60)
        times.append(mark or 99999)
    measure("first_render_10000_pins", "%.0f" % statistics.median(times), "ms")


try:
    if BENCH:
        bench()
    else:
        headers_and_weight()
        login_screen()
        map_screen()
        list_screen()
        busy_and_refresh()
        automatic_reload()
        post_flow()
        hostile_data()
        phone(390, 844)
        phone(844, 390)
        screenshots()
        first_render()
        expired_session()
        logout()
        show_all_requested_are_same_origin("the whole run")
        errors = [e for e in console_errors() if "Failed to load resource" not in e["message"]]
        check(not errors, "no errors in the console: %s" % [e["message"][:160] for e in errors[:3]])
except Exception as error:  # a step that could not go on: report it, with a screenshot, as a failure
    import traceback
    traceback.print_exc()
    check(False, "the run stopped: %r" % error)
finally:
    driver.quit()

sys.exit(1 if failures else 0)
