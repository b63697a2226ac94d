"""What the browser checks share (web_keyboard_check.py, web_offline_check.py, web_scale_check.py):
headless Chromium driven by Selenium with no way out of this machine, checks printed one a line, and
axe-core run in the page (export_map_check.py runs it too, through `axe_violations`).

A check prints "ok   …" or "FAIL …" (a screenshot of a failure goes to the output folder), a figure
"measure NAME VALUE UNIT", and a timing "time …" — judged like a check only with --judge-timings
(scripts/bench-web.sh), since a busy machine delays every frame.
"""

import json
import os
import shutil
import sys
import time
import urllib.error
import urllib.request

# Selenium's usage statistics would go to the internet.
os.environ.setdefault("SE_AVOID_STATS", "true")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    print("SKIP selenium is not installed (pip install selenium)")
    sys.exit(77)

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not CHROMIUM or not os.path.exists(DRIVER):
    print("SKIP chromium or chromedriver is not installed (apt-get install chromium chromium-driver)")
    sys.exit(77)

AXE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor", "axe-core", "axe.min.js")
DEMO = ("demo@onthemap.example", "onthemap-demo")


class Browser:
    def __init__(self, base, out, judge_timings=False, profile=None):
        self.base = base.rstrip("/") + "/"
        self.out = out
        self.judge = judge_timings
        self.failures = []
        self.dark_on = False
        os.makedirs(out, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900",
                 # No name resolves and no proxy works: anything the page fetched from elsewhere would fail.
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--proxy-server=127.0.0.1:9", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
        if profile:
            flags.append("--user-data-dir=" + profile)
        for flag in flags:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(DRIVER), options=options)
        self.driver.set_script_timeout(120)

    # Checks and figures.
    def check(self, condition, what):
        print(("ok   " if condition else "FAIL ") + what, flush=True)
        if not condition:
            self.failures.append(what)
            try:
                self.driver.save_screenshot(os.path.join(self.out, "fail-%s-%d.png" % (self.name(), len(self.failures))))
            except Exception:
                pass
        return condition

    def name(self):
        return os.path.splitext(os.path.basename(sys.argv[0]))[0]

    def timing(self, condition, what):
        if self.judge:
            self.check(condition, what)
        else:
            print("time " + what + (" (within the target)" if condition else " (over the target; judged only by --judge-timings)"),
                  flush=True)

    @staticmethod
    def measure(name, value, unit):
        print("measure %s %s %s" % (name, value, unit), flush=True)

    # The page.
    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def wait(self, condition, timeout=15.0):
        return poll_until(condition, timeout)

    def by_id(self, testid):
        return self.driver.find_element(By.CSS_SELECTOR, '[data-testid="%s"],#%s' % (testid, testid))

    def shown(self, element_id):
        return self.js("var e=document.getElementById(arguments[0]);return !!e&&e.getClientRects().length>0&&!e.closest('[hidden]')",
                       element_id)

    def active(self):
        """The focused element: its id, test id, class, role, name (aria-label or text), tag."""
        return self.js("""var a=document.activeElement;if(!a||a===document.body)return {tag:'body'};
            return {id:a.id,testid:a.getAttribute('data-testid'),cls:a.getAttribute('class')||'',role:a.getAttribute('role'),
            label:a.getAttribute('aria-label')||a.textContent.slice(0,80),tag:a.tagName.toLowerCase(),
            object:a.getAttribute('data-object-id')||(a.dataset&&a.dataset.objectId)||null,
            visible:a.getClientRects().length>0}""")

    def size(self, width, height, phone):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5 if phone else 1})

    def dark(self, on):
        self.dark_on = on
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})

    def open(self, path=""):
        self.driver.get(self.base + path)
        self.wait(lambda: self.js("return document.readyState") == "complete")
        self.wait(lambda: self.shown("login-username") or self.shown("bar"))

    def key(self, key, times=1):
        """Keys pressed as a person would, to whatever has the focus."""
        actions = webdriver.ActionChains(self.driver)
        for _ in range(times):
            actions.send_keys(key)
        actions.perform()

    def type(self, text):
        webdriver.ActionChains(self.driver).send_keys(text).perform()

    def select_all(self):
        webdriver.ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()

    def tab_to(self, matches, limit=80, backwards=False):
        """Presses Tab (Shift+Tab) until the focused element satisfies `matches`; how many presses, or None."""
        for n in range(1, limit + 1):
            if backwards:
                webdriver.ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
            else:
                self.key(Keys.TAB)
            if matches(self.active()):
                return n
        return None

    def log_in_by_keyboard(self, account=DEMO):
        """Types the email and password and presses Enter, the focus starting where the page put it."""
        self.wait(lambda: self.active().get("id") == "login-username")
        self.select_all()  # the email of the last login stays in the field
        self.type(account[0])
        self.key(Keys.TAB)
        self.select_all()
        self.type(account[1])
        self.key(Keys.ENTER)
        return self.wait(lambda: self.shown("bar"), 20)

    # axe-core.
    def axe(self, where, context=None):
        """Runs axe-core (4.12, vendored) in the page, light and dark (the device's setting, switched
        in place: the page follows it without a reload); checks that it finds no violation in either."""
        found = []
        first = self.dark_on
        for dark in (first, not first):
            if dark != self.dark_on:
                self.dark(dark)
                # The styles of the other scheme applied: two frames later.
                self.driver.execute_async_script(
                    "var done=arguments[0];requestAnimationFrame(function(){requestAnimationFrame(function(){done();});});")
            result = axe_violations(self.driver, context)
            label = where if dark == first else "%s (%s)" % (where, "dark" if dark else "light")
            self.check(not result, "%s: axe-core finds no violation %s" % (label, json.dumps(result)[:900] if result else ""))
            found += result
        self.dark(first)  # back to the scheme the check was in
        return found

    def console_errors(self):
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]]

    def finish(self):
        try:
            self.driver.quit()
        finally:
            sys.exit(1 if self.failures else 0)


def axe_violations(driver, context=None):
    """axe-core (4.12, vendored) run in the page driver shows, loaded there first if need be; its
    violations, each with up to three of the elements it found."""
    if not driver.execute_script("return !!window.axe"):
        with open(AXE, encoding="utf-8") as source:
            driver.execute_script(source.read() + ";window.axe=axe;")
    return driver.execute_async_script("""var done=arguments[arguments.length-1];
        axe.run(arguments[0]||document,{resultTypes:['violations']}).then(function(r){done(r.violations.map(function(v){
        return {id:v.id,impact:v.impact,nodes:v.nodes.slice(0,3).map(function(n){return n.target.join(' ')+': '+n.failureSummary.slice(0,160);})};}));},
        function(e){done([{id:'axe failed',impact:String(e),nodes:[]}]);});""", context)


def poll_until(condition, timeout):
    """Polls `condition` until it holds (returns its value) or `timeout` seconds pass (returns it once more)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.05)
    try:
        return condition()
    except Exception:
        return None


def http(base, method, path, body=None, headers=None):
    """A request of the check's own (not the browser's): (status, headers, bytes)."""
    request = urllib.request.Request(base.rstrip("/") + "/" + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers=dict({"Content-Type": "application/json"}, **(headers or {})))
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def api_json(data):
    text = data.decode()
    return json.loads(text[5:] if text.startswith(")]}'\n") else text)


def move_pin(base, account, first, last, link, step):
    """`account` (email, password) posts its pin at a new place through the API, as its own app
    would: the `step`th move goes a little further. (posted, objectId, session id, the place's name)."""
    place = "Moved here %d" % step
    _, _, data = http(base, "POST", "v1/session", {"udacity": {"username": account[0], "password": account[1]}})
    login = api_json(data)
    status, _, data = http(base, "POST", "v1/StudentLocation", {
        "uniqueKey": login["account"]["key"], "firstName": first, "lastName": last, "mapString": place,
        "mediaURL": link, "latitude": -33.9 + step * 0.7, "longitude": 18.4 + step * 0.9},
        {"X-OnTheMap-Session": login["session"]["id"]})
    return status == 201, api_json(data)["objectId"], login["session"]["id"], place


# Script for `execute_script`: whether the marker of student arguments[0] is drawn, its name naming
# the place arguments[1] (the page has drawn a pin where it moved).
MARKER_AT_PLACE = """var m=document.querySelector('.marker[data-object-id="'+arguments[0]+'"]');
    return !!m&&m.getAttribute('aria-label').indexOf(arguments[1])>=0"""
