#!/usr/bin/env python3
"""Checks an `onthemap export --html` page in real headless Chromium, with the network off.

    python3 Tests/Browser/export_map_check.py PAGE.html EXPECTED_MARKERS SCREENSHOT.png

Prints one line per check and exits 0 when all pass, 1 when one fails, 77 (skip) when Selenium,
Chromium or chromedriver is missing. Run by OnTheMapCLITests' BrowserExportTests.
"""

import os
import shutil
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print("SKIP selenium is not installed (pip install selenium)")
    sys.exit(77)

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    print("SKIP chromium or chromedriver is not installed (apt-get install chromium chromium-driver)")
    sys.exit(77)

page, expected, screenshot = sys.argv[1], int(sys.argv[2]), sys.argv[3]
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


options = webdriver.ChromeOptions()
options.binary_location = CHROMIUM
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
             # No name resolves and no proxy works: anything the page fetched from elsewhere would fail.
             "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", "--no-first-run"]:
    options.add_argument(flag)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service(DRIVER), options=options)
try:
    driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    driver.get("file://" + os.path.abspath(page))
    markers = driver.find_elements(By.CSS_SELECTOR, "circle.marker")
    check(len(markers) == expected, "%d markers for %d students" % (len(markers), expected))
    ids = [m.get_attribute("data-object-id") for m in markers]
    check(all(ids) and len(set(ids)) == len(ids), "every marker has its own data-object-id")
    check(len(driver.find_elements(By.CSS_SELECTOR, "circle.marker.mine")) <= 1, "at most one marker is yours")
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    check(resources == [], "nothing loaded from anywhere: %s" % resources[:3])
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(errors == [], "no errors in the console: %s" % errors[:2])

    # A click opens the popup with the student's name, place and link.
    target = next(m for m in markers if m.is_displayed())
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
    popup = driver.find_element(By.ID, "popup")
    check(popup.is_displayed(), "a click opens the popup")
    check(driver.find_element(By.ID, "popup-name").text == target.get_attribute("data-name"), "the popup names the student")
    check(driver.find_element(By.ID, "popup-place").text == target.get_attribute("data-place"), "and the place")
    link = driver.find_element(By.ID, "popup-link")
    url = target.get_attribute("data-url")
    check(link.text == url and (not url.startswith("http") or link.get_attribute("href") == url), "and a clickable link")

    # The wheel zooms in around the cursor.
    before = driver.execute_script("return document.getElementById('map').viewBox.baseVal.width")
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "map")).perform()
    driver.execute_script("""var m=document.getElementById('map'),r=m.getBoundingClientRect();
        for (var i=0;i<4;i++) m.dispatchEvent(new WheelEvent('wheel',{deltaY:-100,clientX:r.left+r.width/2,clientY:r.top+r.height/2,bubbles:true,cancelable:true}));""")
    after = driver.execute_script("return document.getElementById('map').viewBox.baseVal.width")
    check(after < before / 2, "the wheel zooms in (view %.0f → %.0f units wide)" % (before, after))
    driver.execute_script("""var m=document.getElementById('map');
        for (var i=0;i<4;i++) m.dispatchEvent(new WheelEvent('wheel',{deltaY:100,clientX:640,clientY:400,bubbles:true,cancelable:true}));""")

    # The search box filters markers by name.
    name = target.get_attribute("data-name")
    search = driver.find_element(By.ID, "search")
    search.send_keys(name)
    visible = [m for m in markers if "hidden" not in (m.get_attribute("class") or "")]
    check(0 < len(visible) < expected and all(name.lower() in m.get_attribute("data-name").lower() for m in visible),
          "searching \"%s\" leaves %d markers" % (name, len(visible)))
    search.clear()
    search.send_keys(" ")
    driver.execute_script("document.getElementById('search').dispatchEvent(new Event('input'))")
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", markers[0])
    driver.save_screenshot(screenshot)
    check(os.path.getsize(screenshot) > 10000, "screenshot saved to %s" % screenshot)
finally:
    driver.quit()

sys.exit(1 if failures else 0)
