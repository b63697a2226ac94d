#!/usr/bin/env python3
"""Drives onthemap-server's web page by the keyboard alone, in real headless Chromium, and runs axe-core
on every screen, at 1400x900 and on a phone (390x844, touch), light and dark (issue 41, point 2).

    python3 Tests/Browser/web_keyboard_check.py BASE_URL OUT_DIR [--pins N]

BASE_URL is the server's root, started with `--web-poll-seconds 1 --web-pins N` on a database of its
own with the demo data (N students; 240 by default) and the account grace@onthemap.example
(password-grace), without a pin; above 1,000 students also lin@onthemap.example (password-lin), whose
pin is the lone one opened there. The check logs in as the demo account (as Grace on the phone),
opens the list, opens a link, copies a pin's address, posts a pin, moves it and logs out with keys
only (Tab, arrows, Enter, Escape, typing), checking at each step where the focus went; only what is
on the screen takes the focus. Above 1,000 students the clipboard's and the dark theme's own steps
are left to the run with fewer (they do not change with the count). Prints one line per check; exits
0 when all pass, 1 when one fails, 77 (skip) without Selenium, Chromium or chromedriver. Run by
OnTheMapServerTests' WebAppBrowserTests.
"""

import re
import sys
import time

from browser_support import DEMO, MARKER_AT_PLACE, Browser, Keys, api_json, http, move_pin, webdriver

GRACE = ("grace@onthemap.example", "password-grace")
# Among more than 1,000 students: a third account, whose pin is the lone one opened.
LONE = ("lin@onthemap.example", "password-lin")
lone_pin = [None]

BASE = sys.argv[1]
OUT = sys.argv[2]
PINS = int(sys.argv[sys.argv.index("--pins") + 1]) if "--pins" in sys.argv else 240
b = Browser(BASE, OUT)
check, js, wait, active, key = b.check, b.js, b.wait, b.active, b.key

# Focus may only land on what a person sees: on the screen, not under another screen (inert), not
# hidden, and not covered (what is at its centre is it: a button under the phone's post sheet is not
# seen). Every Tab stop is checked against this.
VISIBLE = """var a=document.activeElement;if(!a||a===document.body)return true;
    var r=a.getBoundingClientRect();if(!r.width&&!r.height)return false;if(a.closest('[inert],[hidden]'))return false;
    var x=Math.min(Math.max(r.left+r.width/2,0),innerWidth-1),y=Math.min(Math.max(r.top+r.height/2,0),innerHeight-1);
    if(!(r.bottom>0&&r.right>0&&r.top<innerHeight&&r.left<innerWidth))return false;
    var e=document.elementFromPoint(x,y);return !!e&&(e===a||a.contains(e))"""


def tab_cycle(where, limit=60):
    """Tabs through the page once from where the focus is; every stop must be visible. The stops' names."""
    first, stops, hidden = None, [], []
    for _ in range(limit):
        key(Keys.TAB)
        now = active()
        name = now.get("testid") or now.get("id") or now.get("cls") or now.get("tag")
        if first is not None and name == first and stops:
            break
        first = first or name
        stops.append(name)
        if not js("return (function(){" + VISIBLE + "})()"):
            hidden.append(name)
    check(not hidden, "%s: every Tab stop is on the screen (%d stops; hidden: %s)" % (where, len(stops), hidden))
    return stops


PARSE_KEYS = {"X-Parse-Application-Id": "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAbIr",
              "X-Parse-REST-API-Key": "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY"}
moves = [0]


def other_moves(other):
    """Another student's pin moves (posted through the API, as their own app would); True once the
    page has drawn it where it went (it polls every second)."""
    moves[0] += 1
    posted, object_id, session, place = move_pin(BASE, other, "Other", "Student", "https://other.example", moves[0])
    other_pins[other[0]] = (object_id, session)
    return posted and wait(lambda: js(MARKER_AT_PLACE, object_id, place), 15)


other_pins = {}


def other_leaves(other):
    """The pin `other_moves` made goes again (Parse's DELETE, with that student's session)."""
    if other[0] in other_pins:
        object_id, session = other_pins.pop(other[0])
        http(BASE, "DELETE", "parse/classes/StudentLocation/" + object_id, None, dict(PARSE_KEYS, **{"X-Parse-Session-Token": session}))


def popup_state():
    """The popup: shown, its name, and the text of the element focused in it (None: the focus is elsewhere)."""
    return js("""var p=document.getElementById('popup'),a=document.activeElement;
        return [!p.hidden,p.getAttribute('aria-label'),p.contains(a)?(a.textContent||a.getAttribute('aria-label')):null]""")


def pin_focused():
    return js("return !!(document.activeElement.closest&&document.activeElement.closest('.marker,.cluster'))")


def screens(where, phone, account, other):
    """Login, map, popup, list, post, overwrite and logout, by the keyboard, with axe-core on each; the
    account has no pin yet. `other` moves a pin meanwhile (the page draws the change within a poll:
    the focus and the popup stay where they were)."""
    b.size(*((390, 844, True) if phone else (1400, 900, False)))
    b.open()
    check(active().get("id") == "login-username", "%s: the login screen opens with the focus in Email" % where)
    b.axe("%s: the login screen" % where)
    # A wrong password from the Log in button: the focus goes back to the password, not the page.
    b.select_all()  # the email of the last login stays in the field
    b.type(account[0])
    key(Keys.TAB)
    b.type("not the password")
    key(Keys.TAB)
    key(Keys.ENTER)
    check(wait(lambda: b.by_id("login-error").text and active().get("id") == "login-password"),
          "%s: a wrong password from the Log in button says so, the focus back in the password: %s" % (where, active()))
    b.axe("%s: a login error" % where)
    js("document.getElementById('login-username').value='';document.getElementById('login-password').value='';"
       "document.getElementById('login-username').focus()")
    check(b.log_in_by_keyboard(account), "%s: typing the email, Tab, the password and Enter logs in" % where)
    check(wait(lambda: active().get("id") == "map-tab"), "%s: after login the focus is on the selected tab, Map: %s" % (where, active()))
    # Its ring is drawn inside it (the tabs' corners clip what is outside), in a colour its own is not.
    ring = js("""var t=document.activeElement,c=getComputedStyle(t);return [t.matches(':focus-visible'),c.outlineStyle,
        parseFloat(c.outlineOffset),c.outlineColor,c.backgroundColor]""")
    check(ring[0] and ring[1] == "solid" and ring[2] <= -2 and ring[3] != ring[4],
          "%s: the focused tab's ring is inside it, unlike its background: %s" % (where, ring))
    wait(lambda: len(b.driver.find_elements("css selector", '[data-testid="marker"]')) >= PINS, 30)
    time.sleep(0.5)
    b.axe("%s: the map" % where)
    stops = tab_cycle("%s: the map" % where)
    pins = [s for s in stops if s in ("marker", "cluster") or "marker" in s or "cluster" in s]
    check(len(pins) == 1, "%s: of %d students, one pin or cluster is a Tab stop (a roving tabindex): %s" % (where, PINS, stops))

    # The pins: Tab from the tabs reaches one; arrows move between them; Enter opens a popup with the
    # focus in it; Escape brings the focus back.
    js("document.getElementById('map-tab').focus()")
    presses = b.tab_to(lambda a: "marker" in a.get("cls", "") or "cluster" in a.get("cls", ""), 12)
    check(presses is not None and presses <= 6, "%s: from the Map tab, %s Tabs reach the map's pins" % (where, presses))
    if PINS > 1000:
        lone_pin_from_the_list(where)
    else:
        lone_pin_by_the_keys()
    check("marker" in active().get("cls", "") and pin_focused(),
          "%s: the keys reach a student's own pin (%s), the focus on it: %s"
          % (where, "from the List" if PINS > 1000 else "the arrows, + and Enter on clusters", active().get("label")))
    before = active()
    key(Keys.ENTER)
    inside = wait(lambda: js("return document.getElementById('popup').contains(document.activeElement)"), 5)
    name = js("return document.getElementById('popup').getAttribute('aria-label')")
    check(inside and name, "%s: Enter opens its popup, named \"%s\", with the focus in it" % (where, name))
    check(re.search(r"#/pin/.+", b.driver.current_url), "%s: the popup has its pin's address: %s" % (where, b.driver.current_url))
    b.axe("%s: a pin's popup" % where)
    # Back and Forward: whatever the address hides, the focus goes to what stays (its pin, the tab).
    pin_url = b.driver.current_url
    b.driver.back()
    check(wait(lambda: not b.shown("popup") and active().get("object") == before.get("object")),
          "%s: Back closes the popup, the focus back on its pin: %s" % (where, active()))
    b.driver.forward()
    check(wait(lambda: popup_state()[0] and popup_state()[2] is not None),
          "%s: Forward opens it again, the focus in it: %s" % (where, active()))
    js("document.getElementById('list-tab').click()")
    wait(lambda: b.shown("list-view"))
    b.driver.back()
    wait(lambda: b.driver.current_url == pin_url and popup_state()[2] is not None)
    b.driver.forward()
    check(wait(lambda: b.shown("list-view") and active().get("id") == "list-tab"),
          "%s: Forward from an open popup into #/list puts the focus on the List tab: %s" % (where, active()))
    b.driver.back()
    wait(lambda: b.driver.current_url == pin_url and popup_state()[2] is not None)
    js("location.hash='#/pin/nonexistent'")
    check(wait(lambda: b.driver.current_url.endswith("#/") and not b.shown("popup") and active().get("object") == before.get("object")),
          "%s: an unknown pin's address from an open popup shows the map, the popup closed, the focus on its pin: %s, %s"
          % (where, b.driver.current_url, active()))
    wait(lambda: not b.shown("toast"))  # its toast says so for a few seconds, over the map's corner
    key(Keys.ENTER)
    wait(lambda: popup_state()[2] is not None, 5)
    key(Keys.ESCAPE)
    check(wait(lambda: not b.shown("popup") and active().get("object") == before.get("object")),
          "%s: Escape closes it and the focus is back on its pin" % where)
    # Tab leaves an open popup for the zoom buttons: Escape there closes it too.
    key(Keys.ENTER)
    wait(lambda: popup_state()[2] is not None, 5)
    js("document.getElementById('zoom-in').focus()")
    key(Keys.ESCAPE)
    check(wait(lambda: not b.shown("popup")), "%s: Escape on the zoom buttons closes the popup" % where)
    focus_object(before.get("object"))
    # Escape takes off the address's entry the popup added, as Back would (Back then did nothing
    # visible): Forward opens the popup again.
    key(Keys.ENTER)
    wait(lambda: popup_state()[2] is not None, 5)
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("popup") and "#/pin/" not in b.driver.current_url)
    b.driver.forward()
    check(wait(lambda: b.shown("popup") and "#/pin/" in b.driver.current_url),
          "%s: Escape takes off the popup's entry, as Back would: Forward opens it again" % where)
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("popup") and active().get("object") == before.get("object"))
    if not phone:
        # A pin opened while the post form is open leaves the form, as its address says.
        js("document.getElementById('post-open').focus()")
        key(Keys.ENTER)
        wait(lambda: active().get("testid") == "post-place")
        focus_object(before.get("object"))
        key(Keys.ENTER)
        check(wait(lambda: b.shown("popup") and not b.shown("post") and "#/pin/" in b.driver.current_url),
              "%s: a pin opened from the post form leaves the form, as its address says" % where)
        key(Keys.ESCAPE)
        wait(lambda: not b.shown("popup") and active().get("object") == before.get("object"))
    # Another student's pin moves: the page draws the change, and the focus stays on this pin; an
    # open popup stays open, the focus where it was in it.
    moved = other_moves(other)
    check(moved and wait(lambda: active().get("object") == before.get("object")) and pin_focused(),
          "%s: another student's pin moves; the focus stays on the pin it was on: %s" % (where, active()))
    key(Keys.ENTER)
    wait(lambda: popup_state()[2] is not None, 5)
    opened = popup_state()
    moved = other_moves(other)
    time.sleep(1.5)  # a poll more: the popup must stay, not just come back
    check(moved and popup_state() == opened, "%s: and again: the open popup stays open, the focus in it where it was: %s, then %s"
          % (where, opened, popup_state()))
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("popup"))
    # The same pin moved (PUT, not a new one): its open popup says where it went, not where it was.
    object_id, session = other_pins[other[0]]
    js("location.hash='#/pin/'+arguments[0]", object_id)
    wait(lambda: b.shown("popup"))
    place = "Moved in place %d" % moves[0]
    status, _, _ = http(BASE, "PUT", "v1/StudentLocation/" + object_id, {
        "uniqueKey": login_api(other), "firstName": "Other", "lastName": "Student", "mapString": place,
        "mediaURL": "https://other.example/moved", "latitude": -30.5, "longitude": 24.5}, {"X-OnTheMap-Session": session})
    said = lambda: js("var e=document.querySelector('#popup li .place');return e&&e.textContent")
    check(status == 200 and wait(lambda: said() == place, 15),
          "%s: a pin moved in place: its open popup says where it went (%s): %s" % (where, place, said()))
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("popup"))
    focus_object(before.get("object"))
    moved = None
    for arrow in (Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_DOWN, Keys.ARROW_UP):
        key(arrow)
        now = active()
        if pin_focused() and now.get("label") != before.get("label"):
            moved = now
            break
    check(moved is not None and js("return document.activeElement.getAttribute('tabindex')") == "0",
          "%s: an arrow key moves the focus to another pin, which becomes the Tab stop" % where)
    key("0")  # the whole world again

    # The tabs: arrows move between them and show theirs; the list, by the keyboard.
    js("document.getElementById('map-tab').focus()")
    key(Keys.ARROW_RIGHT)
    check(wait(lambda: b.shown("list-view") and active().get("id") == "list-tab"
               and js("return document.getElementById('list-tab').getAttribute('aria-selected')") == "true"),
          "%s: ArrowRight on the Map tab selects and focuses the List tab, and shows the list" % where)
    check(b.driver.current_url.endswith("#/list"), "%s: the list has its address" % where)
    check(js("return document.getElementById('map-panel').inert&&document.getElementById('list-tab').tabIndex===0"
             "&&document.getElementById('map-tab').tabIndex===-1"), "%s: the map under the list is inert; one tab is a Tab stop" % where)
    covered = js("""return ['zoom-in','zoom-world','count'].map(function(id){var r=document.getElementById(id).getBoundingClientRect();
        var e=document.elementFromPoint(r.left+r.width/2,r.top+r.height/2);return !r.width||!!(e&&e.closest('#list-view'));})""")
    check(all(covered), "%s: the list covers the map's buttons and count %s" % (where, covered))
    b.axe("%s: the list" % where)
    presses = b.tab_to(lambda a: a.get("testid") == "list-row", 10)
    check(presses is not None and presses <= 5 and js("return document.activeElement.closest('li').getAttribute('aria-posinset')") == "1",
          "%s: from the List tab, %s Tabs reach the first row, no pin on the way" % (where, presses))
    # The row focused is a link to a screen reader (its computed role, as Chromium tells assistive
    # technology), named by what it shows, in an item of the list; a row with no link says it opens nothing.
    focused = b.driver.switch_to.active_element
    role, name = focused.aria_role, focused.accessible_name
    parent = js("var a=document.activeElement,li=a.parentNode;return [li.tagName,li.parentNode.id,a.hasAttribute('href')||a.getAttribute('aria-disabled')]")
    check(role == "link" and name and parent == ["LI", "student-list", True],
          "%s: a row is a link (role %s, named \"%s\") in an item of the list: %s" % (where, role, (name or "")[:60], parent))
    key(Keys.ARROW_DOWN)
    key(Keys.ARROW_DOWN)
    check(js("return document.activeElement.closest('li').getAttribute('aria-posinset')") == "3", "%s: ArrowDown moves down the rows" % where)
    key(Keys.END)
    last = js("var a=document.activeElement,l=a.closest('li'),r=a.getBoundingClientRect();return [l.getAttribute('aria-posinset'),l.getAttribute('aria-setsize'),"
              "r.bottom<=innerHeight+1&&r.top>=0]")
    check(last[0] == last[1] == str(PINS) and last[2], "%s: End goes to the last row (%s of %s), on the screen" % (where, last[0], last[1]))
    key(Keys.HOME)
    check(js("return document.activeElement.closest('li').getAttribute('aria-posinset')") == "1", "%s: Home goes back to the first" % where)
    key(Keys.ARROW_DOWN)
    row = active()
    moved = other_moves(other)
    check(moved and wait(lambda: active().get("object") == row.get("object") and active().get("testid") == "list-row"),
          "%s: another student's pin moves to the top of the list; the focus stays on the row it was on (%s): %s"
          % (where, row.get("label"), active()))
    order = js("return Array.from(document.querySelectorAll('#student-list li')).map(function(li){return +li.getAttribute('aria-posinset');})")
    check(order == sorted(order), "%s: and the rows are in the page in the order they are seen, as a screen reader reads them: %s"
          % (where, order[:12]))
    if not phone:
        # Narrower than 640 px (a phone turned, a window made narrow) the rows are taller: all are placed again.
        b.size(390, 844, True)
        gaps = lambda: js("""var r=Array.from(document.querySelectorAll('#student-list li')).sort(function(a,b){
            return a.getAttribute('aria-posinset')-b.getAttribute('aria-posinset');}).map(function(li){return li.getBoundingClientRect();});
            return r.slice(1).map(function(x,i){return Math.round(x.top-r[i].top-r[i].height);});""")
        narrow = wait(lambda: gaps() and set(gaps()) == {0}, 5)
        b.size(1400, 900, False)
        wide = wait(lambda: gaps() and set(gaps()) == {0}, 5)
        check(narrow and wide, "%s: the rows are placed again when the screen's width changes their height: %s" % (where, gaps()))
    key(Keys.HOME)
    handles = len(b.driver.window_handles)
    key(Keys.ENTER)
    opened = wait(lambda: len(b.driver.window_handles) == handles + 1, 5)
    check(opened, "%s: Enter on a row opens its link in a new tab" % where)
    if opened:
        close_other_tab()
    # Space opens it too, and leaves the list where it was (it scrolled the list away from the row).
    js("document.querySelector('#student-list li[aria-posinset=\"2\"] [data-testid=\"list-row\"]').focus()")
    scrolled = js("return document.getElementById('list-view').scrollTop")
    key(Keys.SPACE)
    opened = wait(lambda: len(b.driver.window_handles) == handles + 1, 5)
    check(opened and js("return document.getElementById('list-view').scrollTop") == scrolled,
          "%s: Space on a row opens its link, the list left where it was" % where)
    if opened:
        close_other_tab()
    # Tab from the row reaches its Map button, the list's other stop; Enter there shows that student on
    # the map: the pin's address, its popup open with the student in it and the focus in it. Back
    # returns to the list.
    student = js("return document.activeElement.closest('li').student.name")
    key(Keys.TAB)
    button = active()
    check(button.get("testid") == "list-on-map" and button.get("label") == "Show %s on the map" % student,
          "%s: Tab from a row reaches its Map button: %s" % (where, button))
    key(Keys.ENTER)
    shown = wait(lambda: not b.shown("list-view") and "#/pin/" in b.driver.current_url
                 and popup_state()[2] is not None, 5)
    names = js("return Array.from(document.querySelectorAll('#popup .name')).map(function(n){return n.textContent;})")
    check(shown and student in names, "%s: Enter on it shows %s's pin on the map, its popup open, the focus in it: %s, %s"
          % (where, student, names[:5], popup_state()))
    b.driver.back()
    check(wait(lambda: b.shown("list-view") and b.driver.current_url.endswith("#/list")),
          "%s: Back returns to the list" % where)
    # The search, then one that matches nothing.
    js("document.getElementById('search').focus()")
    b.type("qqzzxx")
    check(wait(lambda: b.shown("list-empty") and "qqzzxx" in b.by_id("list-empty").text),
          "%s: a search that matches nothing says so: %s" % (where, b.by_id("list-empty").text))
    b.axe("%s: the list, nothing found" % where)
    key(Keys.BACKSPACE, 6)
    check(wait(lambda: not b.shown("list-empty")), "%s: clearing the search shows the rows again" % where)
    # Back and Forward.
    b.driver.back()
    check(wait(lambda: not b.shown("list-view") and re.search(r"/(#/)?$", b.driver.current_url)), "%s: Back returns to the map" % where)
    b.driver.forward()
    check(wait(lambda: b.shown("list-view")), "%s: Forward shows the list again" % where)
    # Back with the focus on the List tab: it goes to the Map tab, the one selected (Enter on the
    # List tab, no longer selected, went straight back to the list).
    js("document.getElementById('list-tab').focus()")
    b.driver.back()
    check(wait(lambda: not b.shown("list-view") and active().get("id") == "map-tab"),
          "%s: Back from the List tab puts the focus on the Map tab: %s" % (where, active()))
    b.driver.forward()
    wait(lambda: b.shown("list-view"))
    js("document.getElementById('list-tab').focus()")
    key(Keys.ARROW_LEFT)
    wait(lambda: not b.shown("list-view"))

    # Post by the keyboard: a new pin, then move it.
    key_of = login_api(account)
    check(not own_pins(key_of), "%s: %s has no pin yet" % (where, account[0]))
    # On a phone the form is a sheet over the map's bottom. The map's Tab stop is first put low on the
    # map, where the sheet will cover it: Tab to it, then Up, which goes to the next pin above or, with
    # none there, pans a quarter of the screen (the pin, still focused, moves down), until it is low.
    # With the sheet open the stop must be above it, or there is none (no pin above it to stop at).
    stop_low = None
    if phone:
        b.tab_to(lambda a: "marker" in a.get("cls", "") or "cluster" in a.get("cls", ""), 12)
        low = "var r=document.activeElement.getBoundingClientRect();return r.top+r.height/2"
        for _ in range(40):
            y = js(low)
            if y > 0.75 * js("return innerHeight"):
                break
            key(Keys.ARROW_UP)
            if js(low) == y:
                key("+")  # Up pans no further (the world's top is on the screen): zoomed in, it can
        stop_low = js(low)
    presses = b.tab_to(lambda a: a.get("testid") == "post-open", 8, backwards=phone)
    check(presses is not None, "%s: Tab reaches Post" % where)
    key(Keys.ENTER)
    check(wait(lambda: active().get("testid") == "post-place"), "%s: Post opens the form with the focus in Place" % where)
    check(b.driver.current_url.endswith("#/post"), "%s: the form has its address" % where)
    if phone:
        sheet = js("return document.getElementById('post').getBoundingClientRect().top")
        check(stop_low > sheet, "%s: the map's Tab stop was put where the sheet opens (%s px; the sheet from %s px)"
              % (where, stop_low, sheet))
        # A pin is on the screen by its point, the centre of its circle (markers.mjs, onScreen).
        stop = ("var s=document.querySelector('#map [tabindex=\"0\"]');if(!s)return -1;"
                "var r=s.querySelector('circle:not(.hit)').getBoundingClientRect();return r.top+r.height/2")
        check(wait(lambda: js(stop) <= sheet), "%s: with the sheet open, the map's Tab stop is a pin above it, or "
              "none (its centre at %s px, -1: none; the sheet from %s px)" % (where, js(stop), sheet))
    tab_cycle("%s: the post form" % where)
    js("document.getElementById('post-place').focus()")
    b.axe("%s: the post form" % where)
    b.type("Lima, Peru")
    key(Keys.TAB)
    js("document.getElementById('post-link').value=''")
    b.type("https://" + "x" * 2100 + ".example")
    key(Keys.ENTER)
    check(wait(lambda: "2,048" in (b.by_id("alert-text").text if b.shown("alert") else "")) and active().get("testid") == "post-link",
          "%s: a link over 2,048 characters is refused at Find, in words, the focus back on it" % where)
    b.axe("%s: an alert" % where)
    # A link the server would refuse after the place was found (a port no connection can use): refused here.
    js("document.getElementById('post-link').value=''")
    b.type("https://example.com:99999/me")
    key(Keys.ENTER)
    check(wait(lambda: "not an address a browser can open" in (b.by_id("alert-text").text if b.shown("alert") else ""))
          and active().get("testid") == "post-link", "%s: a link with a port no connection uses is refused at Find, the focus on it" % where)
    # A link with a space in it: the space is what is wrong, not the site's name or its port.
    js("document.getElementById('post-link').value=''")
    b.type("https://example.com/my page")
    key(Keys.ENTER)
    said = wait(lambda: b.shown("alert") and "space" in b.by_id("alert-text").text and b.by_id("alert-text").text)
    check(said and "port" not in said and active().get("testid") == "post-link",
          "%s: a link with a space is refused at Find as having a space, the focus on it: %s"
          % (where, said or (b.by_id("alert-text").text if b.shown("alert") else "")))
    js("document.getElementById('post-link').value=''")
    b.type("https://ada.example")
    # A place that matches nothing, from the Find button: the focus goes back to the place, not the page.
    js("document.getElementById('post-place').value='qqzzxx plugh'")
    js("document.getElementById('post-find').focus()")
    key(Keys.ENTER)
    check(wait(lambda: "No place matches" in (b.by_id("alert-text").text if b.shown("alert") else "")
               and active().get("testid") == "post-place"),
          "%s: Find on a place that matches nothing says so, the focus back in Place: %s" % (where, active()))
    # The same from Enter in the link: the place is still what to change.
    js("document.getElementById('post-link').focus()")
    key(Keys.ENTER)
    check(wait(lambda: "No place matches" in (b.by_id("alert-text").text if b.shown("alert") else "")
               and active().get("testid") == "post-place"),
          "%s: Enter in Link on a place that matches nothing puts the focus in Place: %s" % (where, active()))
    # A control character pasted with the place is named, never looked up (it split the words).
    js("document.getElementById('post-place').value='Pa\\u001b]0;x\\u0007ris'")
    js("document.getElementById('post-link').focus()")
    key(Keys.ENTER)
    check(wait(lambda: "control character (U+001B)" in (b.by_id("alert-text").text if b.shown("alert") else "")
               and active().get("testid") == "post-place"),
          "%s: a place with a control character is refused, named, the focus in Place: %s" % (where, active()))
    # The alert's ×, by the keyboard: the focus goes back to the field, not to the page.
    js("document.getElementById('alert-close').focus()")
    key(Keys.ENTER)
    check(wait(lambda: not b.shown("alert") and active().get("testid") == "post-place"),
          "%s: the alert's \u00d7 closes it, the focus back in Place: %s" % (where, active()))
    # Several places: the chosen one is the stop before Cancel, two Shift+Tabs from Finish (it was six
    # for five places, one a place), and the arrow keys choose another.
    js("document.getElementById('post-place').value='Springfield'")
    js("document.getElementById('post-link').focus()")
    key(Keys.ENTER)
    wait(lambda: active().get("testid") == "post-finish")
    steps = b.tab_to(lambda a: a.get("testid") == "post-candidate", 2, backwards=True)
    pressed = "return [document.activeElement.getAttribute('aria-pressed'),document.activeElement.textContent]"
    first = steps == 2 and js(pressed)
    key(Keys.ARROW_DOWN)
    second = wait(lambda: active().get("testid") == "post-candidate" and js(pressed)[1] != first[1] and js(pressed))
    check(first and first[0] == "true" and second and second[0] == "true"
          and js("return document.querySelectorAll('[data-testid=post-candidate][aria-pressed=true]').length") == 1,
          "%s: the chosen place is two Shift+Tabs from Finish, and Down chooses the next: %s, %s" % (where, first, second))
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("post"))
    js("document.getElementById('post-open').focus()")
    key(Keys.ENTER)
    wait(lambda: active().get("testid") == "post-place")
    js("document.getElementById('post-link').value='https://ada.example'")
    js("document.getElementById('post-place').value='Lima, Peru'")
    js("document.getElementById('post-link').focus()")
    key(Keys.ENTER)
    check(wait(lambda: active().get("testid") == "post-finish"), "%s: Find on map shows the place, the focus on Finish" % where)
    labels = [e.text for e in b.driver.find_elements("css selector", '[data-testid="post-candidate"] strong')]
    check(len(labels) == len(set(labels)), "%s: no candidate twice: %s" % (where, labels))
    b.axe("%s: the place found" % where)
    key(Keys.ENTER)
    posted = wait(lambda: own_pins(key_of), 10)
    check(posted and wait(lambda: js("return document.getElementById('popup').contains(document.activeElement)"), 10),
          "%s: Finish posts the pin; its popup opens with the focus in it" % where)
    check(wait(lambda: posted and b.driver.current_url.endswith("#/pin/" + posted[0]["objectId"])),
          "%s: the address is the new pin's: %s" % (where, b.driver.current_url))
    wait(lambda: js("return document.getElementById('popup').contains(document.activeElement)"), 10)
    key(Keys.ESCAPE)
    # Down from the new pin to the last pin below, then on: the map pans, and the focus goes with the Tab
    # stop to a pin still on the screen, or to the map itself when none is; never to a pin out of sight.
    # The focus on its pin or cluster; on the map's Tab stop, or the map, while a new list is grouped.
    check(wait(lambda: re.search(r"\b(marker|cluster)\b", active().get("cls", "")) or active().get("id") == "map"),
          "%s: Escape closes the new pin's popup, the focus back on the map: %s" % (where, active()))
    if active().get("id") == "map":
        key(Keys.TAB)  # from the map itself to its Tab stop
    for _ in range(30):
        last = active()
        key(Keys.ARROW_DOWN)
        if active() == last:
            break
    key(Keys.ARROW_DOWN, 8)  # two screens on: the last pin is out of sight
    now = active()
    check(now != last and (now.get("id") == "map" or (("marker" in now.get("cls", "") or "cluster" in now.get("cls", ""))
                                                      and js("return (function(){" + VISIBLE + "})()"))),
          "%s: Down past the last pin pans; the focus goes on the screen, to a pin or the map: %s (from %s)"
          % (where, now, last.get("label")))
    # Up pans back: once a pin is on the screen again the focus is on one, not left on the map. (Down
    # went on until the focus was on the map: a pin further south takes it on the way.)
    for _ in range(20):
        if active().get("id") == "map":
            break
        key(Keys.ARROW_DOWN)
    on_map = active().get("id") == "map"
    for _ in range(12):
        if pin_focused():
            break
        key(Keys.ARROW_UP)
    check(on_map and pin_focused() and js("return (function(){" + VISIBLE + "})()"),
          "%s: Up pans back, and the focus is on a pin on the screen again (from %s): %s"
          % (where, "the map" if on_map else "a pin: the map never had it", active().get("label")))
    if not phone:
        clicking_the_map_then_the_arrows(where)
    key("0")  # the first view again
    # Move it: Finish asks first; the dialog covers neither the place nor the map beside it.
    find_place("Oslo, Norway")
    key(Keys.ENTER)
    check(wait(lambda: js("return document.getElementById('overwrite').open&&document.getElementById('overwrite').contains(document.activeElement)")),
          "%s: with a pin already there, Finish asks, the focus in the question" % where)
    covered = js("""var d=document.getElementById('overwrite').getBoundingClientRect(),p=document.querySelector('#preview .candidate path').getBoundingClientRect();
        return d.left<p.right&&p.left<d.right&&d.top<p.bottom&&p.top<d.bottom""")
    check(covered is False, "%s: the question does not cover the place it asks about" % where)
    b.axe("%s: replace your pin?" % where)
    key(Keys.ENTER)  # the focused default: Keep my pin
    check(wait(lambda: not js("return document.getElementById('overwrite').open") and active().get("testid") == "post-finish"),
          "%s: Keep my pin leaves it, the focus back on Finish" % where)
    key(Keys.ENTER)
    wait(lambda: js("return document.getElementById('overwrite').open"))
    key(Keys.TAB)
    key(Keys.ENTER)  # Replace it
    moved = wait(lambda: [p for p in own_pins(key_of) if p["mapString"].startswith("Oslo")], 10)
    check(moved and len(own_pins(key_of)) == 1, "%s: Replace it moves the pin (one pin, now in %s)" % (where, moved and moved[0]["mapString"]))
    check(wait(lambda: b.shown("toast")), "%s: a toast says so" % where)
    wait(lambda: js("return document.getElementById('popup').contains(document.activeElement)"), 10)
    key(Keys.ESCAPE)
    # Escape in the form: back to the map, the focus on Post.
    check(b.tab_to(lambda a: a.get("testid") == "post-open", 20) is not None, "%s: from the map, Tab reaches Post" % where)
    key(Keys.ENTER)
    wait(lambda: active().get("testid") == "post-place")
    key(Keys.ESCAPE)
    check(wait(lambda: not b.shown("post") and active().get("testid") == "post-open"), "%s: Escape closes the form, the focus back on Post" % where)
    # Cancel, reached by Tab: the same.
    key(Keys.ENTER)
    wait(lambda: active().get("testid") == "post-place")
    check(b.tab_to(lambda a: a.get("testid") == "post-cancel", 6) is not None, "%s: Tab reaches Cancel in the form" % where)
    key(Keys.ENTER)
    check(wait(lambda: not b.shown("post") and active().get("testid") == "post-open"), "%s: Cancel closes the form, the focus back on Post" % where)

    # Log out by the keyboard, the toast of the move still up: it goes with the session.
    find_place("Lima, Peru")
    key(Keys.ENTER)
    wait(lambda: js("return document.getElementById('overwrite').open"))
    key(Keys.TAB)
    key(Keys.ENTER)
    wait(lambda: b.shown("toast"))
    wait(lambda: js("return document.getElementById('popup').contains(document.activeElement)"), 10)
    # Your row says "you" and when, as it shows them; the map's count names you only while your pin is
    # among those the search leaves.
    key(Keys.ESCAPE)
    # The tabs are one Tab stop, the selected one's; the arrow keys move between them.
    check(b.tab_to(lambda a: a.get("id") == "map-tab", 20) is not None, "%s: from the map, Tab reaches the Map tab" % where)
    key(Keys.ARROW_RIGHT)
    mine = wait(lambda: js("""var r=Array.from(document.querySelectorAll('#student-list li')).filter(function(li){
        return !li.querySelector('.you').hidden;})[0];return r&&[r.querySelector('.row').getAttribute('aria-label'),r.querySelector('.updated').textContent]"""))
    check(mine and ", you," in mine[0] and mine[1] and mine[1] in mine[0],
          "%s: your row's name says you and when (\"%s\")" % (where, mine and mine[0]))
    key(Keys.ARROW_LEFT)
    check(wait(lambda: not b.shown("list-view") and active().get("id") == "map-tab"), "%s: Left on the List tab shows the map" % where)
    check(b.tab_to(lambda a: a.get("id") == "search", 20) is not None, "%s: Tab reaches the search" % where)
    b.type("qqzzxx")
    count = wait(lambda: b.by_id("count").text.endswith("\u201cqqzzxx\u201d.") and b.by_id("count").text)
    check(count and "you" not in count, "%s: a search that leaves out your pin: the count does not name you (%s)" % (where, count))
    check(count == "No student\u2019s name or place holds \u201cqqzzxx\u201d.",
          "%s: a map search that matches no one says so in words: %s" % (where, count))
    key(Keys.BACKSPACE, 6)
    wait(lambda: "you" in b.by_id("count").text)
    # A draft left in the post form: the next person to log in here must not find it.
    js("document.getElementById('post-place').value='My draft place';document.getElementById('post-link').value='https://draft.example'")
    check(b.tab_to(lambda a: a.get("id") == "logout", 20) is not None, "%s: Tab reaches Log out" % where)
    key(Keys.ENTER)
    check(wait(lambda: b.shown("login") and active().get("id") == "login-username") and not b.shown("toast"),
          "%s: Log out returns to the login screen, the focus in Email, and the toast is gone" % where)
    check(js("return document.getElementById('post-place').value+document.getElementById('post-link').value") == "",
          "%s: and the post form's draft is gone with the session" % where)


def clicking_the_map_then_the_arrows(where):
    """A click on the map's background gives the map the focus, and the arrows then pan it, as on any
    web map: the focus stays on the map, not handed to a pin (that is only for a focus the map holds
    because no pin was on the screen)."""
    spot = js("""var m=document.getElementById('map').getBoundingClientRect();for(var y=m.top+60;y<m.bottom-60;y+=37){
        for(var x=m.left+60;x<m.right-60;x+=41){var e=document.elementFromPoint(x,y);
        if(e&&e.closest('#map')&&!e.closest('.marker,.cluster,text'))return [Math.round(x-m.left-m.width/2),Math.round(y-m.top-m.height/2)];}}
        return null""")
    webdriver.ActionChains(b.driver).move_to_element_with_offset(b.by_id("map"), spot[0], spot[1]).click().perform()
    view = "var v=document.getElementById('map').view;return [Math.round(v.x),Math.round(v.y)]"
    clicked, before = active().get("id"), js(view)
    key(Keys.ARROW_RIGHT)
    once = js(view)
    key(Keys.ARROW_RIGHT)
    twice = js(view)
    check(clicked == "map" and before[0] < once[0] < twice[0] and active().get("id") == "map",
          "%s: after a click on the map, the arrows pan it twice, the focus left on it: %s, %s, %s; the focus on %s"
          % (where, before, once, twice, active().get("id") or active().get("label")))


def lone_pin_by_the_keys():
    """A lone student's marker to open: the arrows look for one on the screen; meanwhile Enter on a
    cluster zooms into it, the focus on what its first student's marker became (+ alone may zoom into
    the sea, where the focus rests on the map until + and the arrows bring a pin back), and one
    zooming cannot split opens its list, which Escape closes."""
    for _ in range(16):
        for arrow in (None, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_LEFT, Keys.ARROW_UP):
            if arrow:
                key(arrow)
            if "marker" in active().get("cls", ""):
                return
        if "cluster" in active().get("cls", ""):
            key(Keys.ENTER)
            time.sleep(0.3)
            if b.shown("popup"):
                key(Keys.ESCAPE)
                key("+")
        else:
            key("+")
        time.sleep(0.3)


def lone_pin_from_the_list(where):
    """Among 10,000 students every demo city's are one cluster even at the closest zoom (a few
    kilometres apart; Enter on one lists them): the lone pin to open is a third student's (not the
    one `other_moves` moves: their popup follows their pin), just posted far from the cities, found
    as a person finds one among thousands: first in the List (newest first), its Map button, Enter
    (its popup, the focus in it), Escape (the focus on its pin)."""
    login = api_login(LONE)
    # Posted once, then written again: the newest, and still one pin, alone on the world's view.
    method, path = ("PUT", "v1/StudentLocation/" + lone_pin[0]) if lone_pin[0] else ("POST", "v1/StudentLocation")
    status, _, data = http(BASE, method, path, {
        "uniqueKey": login["account"]["key"], "firstName": "Lone", "lastName": "Student", "mapString": "Easter Island, Chile",
        "mediaURL": "https://lone.example", "latitude": -27.12, "longitude": -109.35}, {"X-OnTheMap-Session": login["session"]["id"]})
    lone_pin[0] = lone_pin[0] or api_json(data)["objectId"]
    check(status in (200, 201), "%s: a third student posts a pin far from the cities (%d)" % (where, status))
    js("document.getElementById('map-tab').focus()")
    key(Keys.ARROW_RIGHT)
    # The page shows it within a poll: first in the list.
    wait(lambda: b.shown("list-view") and (js("var r=document.querySelector('#student-list li[aria-posinset=\"1\"] .row');"
                                                "return r&&r.getAttribute('aria-label')") or "").startswith("Lone Student"), 15)
    b.tab_to(lambda a: a.get("testid") == "list-row", 10)
    key(Keys.TAB)
    label = active().get("label")
    key(Keys.ENTER)
    opened = wait(lambda: not b.shown("list-view") and popup_state()[2] is not None, 10)
    popup_name = popup_state()[1]
    key(Keys.ESCAPE)
    check(opened and label == "Show Lone Student on the map" and popup_name == "Lone Student, Easter Island, Chile"
          and wait(lambda: active().get("object") == lone_pin[0]),
          "%s: of %d students, the newest row's Map button shows its pin; Escape puts the focus on it: %s, %s"
          % (where, PINS, label, active().get("label")))


def focus_object(object_id):
    """The focus on the pin of `object_id`, by script (what a person left it on)."""
    js("var e=document.querySelector('[data-object-id=\"'+arguments[0]+'\"]');if(e)e.focus()", object_id)


def close_other_tab():
    """Closes the tab a link opened, back on the page."""
    main = b.driver.current_window_handle
    b.driver.switch_to.window([h for h in b.driver.window_handles if h != main][0])
    b.driver.close()
    b.driver.switch_to.window(main)


def find_place(place):
    """Post (from its button), the place typed, Enter (Find on map): the focus on Finish."""
    js("document.getElementById('post-open').focus()")
    key(Keys.ENTER)
    wait(lambda: active().get("testid") == "post-place")
    b.type(place)
    key(Keys.ENTER)
    wait(lambda: active().get("testid") == "post-finish")


def api_login(account):
    """A login of the check's own, through the API: its account (key) and session (id)."""
    _, _, data = http(BASE, "POST", "v1/session", {"udacity": {"username": account[0], "password": account[1]}})
    return api_json(data)


def login_api(account):
    """The account's key, from a login of the check's own."""
    return api_login(account)["account"]["key"]


def own_pins(account):
    _, _, data = http(BASE, "GET", "v1/StudentLocation?uniqueKey=%s&limit=5&order=-updatedAt" % account)
    return api_json(data)["results"]


def dark(where, phone):
    """Dark, as the device asks: no contrast or other violation on the login screen, a login error, the
    map, a pin's popup, the list, the post form and an alert in it."""
    b.size(*((390, 844, True) if phone else (1400, 900, False)))
    b.dark(True)
    b.open()
    b.axe("%s, dark: the login screen" % where)
    b.wait(lambda: active().get("id") == "login-username")
    b.select_all()
    b.type(DEMO[0])
    key(Keys.TAB)
    b.select_all()
    b.type("not the password")
    key(Keys.ENTER)
    check(wait(lambda: b.by_id("login-error").text), "%s, dark: a wrong password says so" % where)
    b.axe("%s, dark: a login error" % where)
    js("document.getElementById('login-password').value='';document.getElementById('login-username').focus()")
    b.log_in_by_keyboard()
    wait(lambda: b.driver.find_elements("css selector", '#markers .marker'), 20)
    time.sleep(0.5)
    background = js("return getComputedStyle(document.getElementById('bar')).backgroundColor")
    check(background != "rgb(255, 255, 255)", "%s, dark: the page is dark (%s)" % (where, background))
    b.axe("%s, dark: the map" % where)
    js("document.querySelector('#markers .marker').focus()")
    key(Keys.ENTER)
    check(wait(lambda: popup_state()[2] is not None, 5), "%s, dark: Enter on a pin opens its popup" % where)
    b.axe("%s, dark: a pin's popup" % where)
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("popup"))
    js("document.getElementById('list-tab').click()")
    wait(lambda: b.shown("list-view"))
    b.axe("%s, dark: the list" % where)
    js("document.getElementById('map-tab').click()")
    wait(lambda: not b.shown("list-view"))
    js("document.getElementById('post-open').click()")
    check(wait(lambda: active().get("testid") == "post-place"), "%s, dark: Post opens the form" % where)
    b.axe("%s, dark: the post form" % where)
    js("document.getElementById('post-place').value='Lima, Peru';document.getElementById('post-link').value='https://example.com/my page';"
       "document.getElementById('post-link').focus()")
    key(Keys.ENTER)
    check(wait(lambda: b.shown("alert") and "space" in b.by_id("alert-text").text),
          "%s, dark: a link with a space is refused in an alert" % where)
    b.axe("%s, dark: an alert" % where)
    js("document.getElementById('post-place').value='';document.getElementById('post-link').value=''")
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("post"))
    js("document.getElementById('logout').click()")
    wait(lambda: b.shown("login"))
    b.dark(False)


def addresses():
    """A copied address opens its view after login: a pin's popup, the list, the post form."""
    b.size(1400, 900, False)
    _, _, data = http(BASE, "GET", "v1/StudentLocation?limit=100&order=-updatedAt")
    student = api_json(data)["results"][37]
    name = (student["firstName"] + " " + student["lastName"]).strip()
    b.driver.execute_script("sessionStorage.clear()")
    b.driver.get(BASE + "#/pin/" + student["objectId"])
    b.wait(lambda: b.shown("login"))
    b.log_in_by_keyboard()
    opened = wait(lambda: b.shown("popup") and name in (js("return document.getElementById('popup').textContent") or ""), 20)
    check(opened and js("return document.getElementById('popup').contains(document.activeElement)")
          and b.driver.current_url.endswith("#/pin/" + student["objectId"]),
          "a copied #/pin/ address opens that pin's popup after login (%s), the focus in it" % name)
    for hash_, shown in (("#/list", "list-view"), ("#/post", "post")):
        b.driver.get(BASE + hash_)
        check(wait(lambda: b.shown(shown), 15), "%s opens its view (the session kept in the tab)" % hash_)
    b.driver.get(BASE + "#/pin/no-such-pin")
    check(wait(lambda: b.shown("toast") and b.driver.current_url.endswith("#/"), 15),
          "an address of a pin not on the map says so and shows the map: %s" % (b.by_id("toast").text if b.shown("toast") else ""))
    # Log out leaves no view of this person's in the address: the next login on this tab (another
    # person, on a shared computer) starts on the map, not on the pin last opened.
    b.driver.get(BASE + "#/pin/" + student["objectId"])
    wait(lambda: b.shown("popup"), 15)
    js("document.getElementById('logout').click()")
    check(wait(lambda: b.shown("login")) and b.driver.current_url.endswith("#/"),
          "Log out leaves the map's address: %s" % b.driver.current_url.rsplit("/", 2)[-2:])
    b.log_in_by_keyboard()
    wait(lambda: len(b.driver.find_elements("css selector", '[data-testid="marker"]')) >= 2, 20)
    time.sleep(0.5)
    check(not b.shown("popup") and b.driver.current_url.endswith("#/"), "and the next login shows the map, no popup open")
    js("document.getElementById('logout').click()")
    wait(lambda: b.shown("login"))


def copying_a_pins_link():
    """A pin's popup: Tab reaches its Copy link, Enter copies the pin's whole address and says so, and
    that address opens the pin's popup after login (an installed app has no address bar to copy it
    from). The clipboard is Chromium's own, read back through the page's clipboard API with the
    permissions a person would grant; a clipboard refused is said too."""
    b.size(1400, 900, False)
    b.open()
    b.log_in_by_keyboard()
    wait(lambda: b.driver.find_elements("css selector", "#markers .marker"), 30)
    origin = re.match(r"https?://[^/]+", BASE).group(0)
    b.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin,
                                                          "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    object_id = js("return document.querySelector('#markers .marker').getAttribute('data-object-id')")
    name = js("return document.querySelector('#markers .marker .student').dataset.name")
    focus_object(object_id)
    key(Keys.ENTER)
    wait(lambda: popup_state()[2] is not None, 5)
    # Next in the Tab order after the student's link, when they have one.
    linked = active().get("tag") == "a" and js("return document.activeElement.closest('#popup-list li')===document.querySelector('#popup-list li')")
    presses = b.tab_to(lambda a: "copy-link" in a.get("cls", ""), 4)
    label = active().get("label")
    check(presses == (1 if linked else presses) and presses is not None and label == "Copy link to the pin of " + name,
          "a pin's popup: Copy link is %s Tab press(es) after %s, named \"%s\"" % (presses, "the student's link" if linked else "the focus", label))
    # The toast is said through a status region that is always in the accessibility tree, and the
    # same words said again are a change a screen reader says again: emptied, then set.
    js("""var t=document.getElementById('toast');window.toastSeen=[];
        new MutationObserver(function(){window.toastSeen.push(t.textContent);}).observe(t,{childList:true,characterData:true,subtree:true});""")
    live = js("var t=document.getElementById('toast'),r=t.closest('[role=status]');return !!r&&!r.closest('[hidden]')")
    check(live, "the toast's status region is there before a toast shows (not hidden with it)")
    key(Keys.ENTER)
    said = wait(lambda: b.shown("toast") and b.by_id("toast").text, 5)
    copied = b.driver.execute_async_script("""var done=arguments[arguments.length-1];
        navigator.clipboard.readText().then(done,function(e){done('not read: '+e);});""")
    check(said == "Link copied." and copied == BASE.rstrip("/") + "/#/pin/" + object_id,
          "Enter on it copies the pin's address (%s) and says so: %s" % (copied, said))
    check("copy-link" in active().get("cls", "") and "copied" in active().get("cls", "") and popup_state()[0],
          "the popup stays open, the focus on Copy link, marked copied (on a phone the popup covers the toast): %s"
          % active().get("cls"))
    js("window.toastSeen=[]")
    key(Keys.ENTER)
    again = wait(lambda: (lambda seen: seen[-2:] == ["", "Link copied."] and seen)(js("return window.toastSeen")), 5)
    check(again, "pressed again, the toast's words are emptied and set again, so a screen reader says them again: %s"
          % js("return window.toastSeen"))
    b.axe("1400x900: a pin's link copied")
    # Refused (the person said no to the clipboard): said in the alert, above the popup (on a phone
    # it covers the toast), with the address to copy by hand.
    js("document.getElementById('toast').hidden=true")
    b.driver.execute_cdp_cmd("Browser.setPermission", {"origin": origin, "permission": {"name": "clipboard-write"}, "setting": "denied"})
    key(Keys.ENTER)
    refused = wait(lambda: b.shown("alert") and b.by_id("alert-text").text, 5)
    check(refused and refused.startswith("Could not copy the link: the browser did not allow the page to use the clipboard.")
          and refused.endswith(copied) and "copied" not in active().get("cls", ""),
          "a clipboard refused is said in the alert, with the address, the button no longer marked copied: %s" % refused)
    b.driver.execute_cdp_cmd("Browser.resetPermissions", {})
    js("document.getElementById('alert-close').click()")
    # No clipboard API (a page over plain http): the selected address is copied the older way; and
    # when that fails too, the alert says why in plain words and gives the address.
    b.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin,
                                                          "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    b.driver.execute_async_script("""var done=arguments[arguments.length-1];
        navigator.clipboard.writeText('nothing yet').then(function(){done(1);},function(){done(0);});""")
    js("Object.defineProperty(navigator,'clipboard',{value:undefined,configurable:true})")
    key(Keys.ENTER)
    said = wait(lambda: b.shown("toast") and b.by_id("toast").text, 5)
    js("delete navigator.clipboard")
    fallback = b.driver.execute_async_script("""var done=arguments[arguments.length-1];
        navigator.clipboard.readText().then(done,function(e){done('not read: '+e);});""")
    check(said == "Link copied." and fallback == copied and "copy-link" in active().get("cls", ""),
          "without a clipboard API, the address is copied all the same (%s), said, the focus kept: %s" % (fallback, said))
    js("Object.defineProperty(navigator,'clipboard',{value:undefined,configurable:true});document.execCommand=function(){return false;}")
    key(Keys.ENTER)
    told = wait(lambda: b.shown("alert") and b.by_id("alert-text").text, 5)
    js("delete navigator.clipboard;delete document.execCommand")
    check(told and told.startswith("Could not copy the link: this browser did not let the page copy it.") and told.endswith(copied),
          "and when that fails too, the alert says so and gives the address to copy by hand: %s" % told)
    js("document.getElementById('alert-close').click()")
    key(Keys.ESCAPE)
    wait(lambda: not b.shown("popup"))
    # The address copied, opened in a new page after Log out: the login, then that pin's popup.
    js("document.getElementById('logout').click()")
    wait(lambda: b.shown("login"))
    b.driver.get("about:blank")
    b.driver.get(copied)
    wait(lambda: b.shown("login"), 15)
    b.log_in_by_keyboard()
    opened = wait(lambda: b.shown("popup") and js("return document.querySelector('#popup-list li').student.dataset.objectId") == object_id, 20)
    check(opened and b.driver.current_url == copied, "the copied address opens that pin's popup after login (%s)" % name)
    js("document.getElementById('logout').click()")
    wait(lambda: b.shown("login"))


def crowded_place():
    """The demo place with the most students close enough to stay one cluster at the closest zoom (a
    few kilometres apart: within 8 map units, where a cluster reaches 10 at 1400 pixels), and their
    objectIds."""
    return js("""var places={};document.querySelectorAll('[data-testid=marker]').forEach(function(m){var s=m.querySelector('.student');
        (places[s.dataset.place]=places[s.dataset.place]||[]).push(m);});var best=null;Object.keys(places).forEach(function(p){
        var ms=places[p],a=ms[0].at;if(ms.length<2||!ms.every(function(m){return Math.abs(m.at.x-a.x)<=8&&Math.abs(m.at.y-a.y)<=8;}))return;
        if(!best||ms.length>best[1].length)best=[p,ms];});
        return best&&[best[0],best[1].map(function(m){return m.getAttribute('data-object-id');})]""")


def clusters(where, phone):
    """A cluster zooming cannot split: its name says how many are here, and Enter opens its list with
    the focus in it. A clustered pin's address opens that list with the student asked for first, their
    link focused and on the screen. On a phone, the popup is above the zoom buttons."""
    b.size(*((390, 844, True) if phone else (1400, 900, False)))
    b.open()
    b.log_in_by_keyboard()
    wait(lambda: len(b.driver.find_elements("css selector", '[data-testid="marker"]')) >= PINS, 30)
    place, ids = crowded_place()
    # The one its list shows last, when it is opened for another of them.
    js("location.hash='#/pin/'+encodeURIComponent(arguments[0])", ids[0])
    names = wait(lambda: js("return Array.from(document.querySelectorAll('#popup-list li .name')).map(function(n){return n.textContent;})")
                 if popup_state()[2] is not None else None, 15)
    name = names[-1]
    wanted = js("""var ids=arguments[0],name=arguments[1];return Array.from(document.querySelectorAll('[data-testid=marker]')).filter(function(m){
        return ids.indexOf(m.getAttribute('data-object-id'))>=0&&m.querySelector('.student').dataset.name===name;
        })[0].getAttribute('data-object-id')""", ids, name)
    key(Keys.ESCAPE)
    js("location.hash='#/pin/'+encodeURIComponent(arguments[0])", wanted)
    opened = wait(lambda: popup_state()[2] is not None and js("return document.querySelectorAll('#popup-list li').length") > 1, 15)
    first = js("""var li=document.querySelector('#popup-list li'),a=document.activeElement,u=document.getElementById('popup-list').getBoundingClientRect(),
        r=a.getBoundingClientRect();return [li.querySelector('.name').textContent,li.contains(a),r.top>=u.top-1&&r.bottom<=u.bottom+1,
        document.querySelectorAll('#popup-list li').length]""")
    check(opened and first[0] == name and first[1] and first[2],
          "%s: #/pin/ of a student in a cluster of %s (%s) lists them first, their link focused and in view: %s, %s"
          % (where, first[3], place, name, first))
    heading = js("return document.getElementById('popup-heading').textContent")
    check(heading == "%d students in %s" % (first[3], place),
          "%s: the popup of a cluster zooming cannot split names their place: \"%s\"" % (where, heading))
    b.axe("%s: a cluster's popup" % where)
    # The popup leaves the cluster it lists in sight: what is at the cluster's centre is the cluster
    # (on a phone the popup, kept inside the screen on its right, covered it).
    seen = js("""var c=document.querySelector('#clusters .cluster.selected');if(!c)return 'no cluster selected';
        var r=c.firstChild.getBoundingClientRect(),e=document.elementFromPoint((r.left+r.right)/2,(r.top+r.bottom)/2);
        return c.contains(e)?'seen':'covered by '+(e&&(e.id||e.closest('[id]').id));""")
    check(seen == "seen", "%s: the popup leaves its cluster in sight: %s" % (where, seen))
    b.driver.save_screenshot("%s/cluster-popup-%s.png" % (OUT, where))
    # Drawn over the zoom buttons (on a phone the popup is most of the screen's width), it takes them
    # out of the Tab order while it covers them: Tab from its list landed on buttons under it.
    covered = js("""var p=document.getElementById('popup').getBoundingClientRect(),z=document.querySelector('#map-panel .zoom'),
        r=z.getBoundingClientRect();return [p.left<r.right&&r.left<p.right&&p.top<r.bottom&&r.top<p.bottom,z.inert]""")
    check(covered[0] == covered[1], "%s: the zoom buttons are out of the Tab order exactly while the popup covers them "
          "(covered: %s, inert: %s)" % (where, covered[0], covered[1]))
    hidden, stops = [], []
    for _ in range(12):
        key(Keys.TAB)
        now = active()
        stops.append(now.get("testid") or now.get("id") or now.get("label") or now.get("tag"))
        if not js("return (function(){" + VISIBLE + "})()"):
            hidden.append(stops[-1])
    check(not hidden, "%s: Tab from a cluster's popup, 12 times: every stop is on the screen (%s; hidden: %s)" % (where, stops, hidden))
    js("document.querySelector('#popup-list a[href]').focus()")
    if phone:
        # Drawn where the zoom buttons are, the popup is above them, and above a toast.
        above = js("""var p=document.getElementById('popup'),z=document.getElementById('zoom-out').getBoundingClientRect(),
            m=document.getElementById('map').getBoundingClientRect();p.style.left=(z.right-m.left-p.offsetWidth)+'px';
            p.style.top=(z.top-m.top-20)+'px';var t=document.getElementById('toast');t.textContent='Your pin is on the map at Lima, Peru.';
            t.hidden=false;return ['zoom-in','zoom-out','zoom-world','toast'].map(function(id){
            var r=document.getElementById(id).getBoundingClientRect(),q=p.getBoundingClientRect(),
            x=(Math.max(r.left,q.left)+Math.min(r.right,q.right))/2,y=(Math.max(r.top,q.top)+Math.min(r.bottom,q.bottom))/2;
            if(Math.max(r.left,q.left)>=Math.min(r.right,q.right)||Math.max(r.top,q.top)>=Math.min(r.bottom,q.bottom))return id+': apart';
            return id+': '+(p.contains(document.elementFromPoint(x,y))?'under':'over');});""")
        js("document.getElementById('toast').hidden=true")
        check(all(a.endswith("under") for a in above[:3]) and not above[3].endswith("over"),
              "%s: the popup is above the zoom buttons and the toast: %s" % (where, above))
    key(Keys.ESCAPE)
    label = wait(lambda: "cluster" in active().get("cls", "") and active().get("label"), 5)
    check(label and label.endswith(" students in " + place) and "zoom in" not in label,
          "%s: Escape puts the focus on its cluster, which zooming cannot split: \"%s\"" % (where, label))
    key(Keys.ENTER)
    inside = wait(lambda: popup_state()[2] is not None, 5)
    time.sleep(0.5)
    check(inside and popup_state()[2] is not None, "%s: Enter on it opens its list, the focus in it: %s" % (where, active()))
    key(Keys.ESCAPE)
    leaving_a_pin_for_a_cluster(where, place)
    js("document.getElementById('logout').click()")
    wait(lambda: b.shown("login"))


# A single pin's marker, drawn or not, not in a cluster (among 10,000, the lone pin: every city's
# markers are clusters): clicked, its popup opens with its address.
OPEN_SINGLE_PIN = """var want=arguments[0],m=Array.from(document.querySelectorAll('#markers .marker')).concat(Array.from(document.querySelectorAll(
    '[data-testid=marker]'))).filter(function(m){return !m.cluster&&(!want||m.getAttribute('data-object-id')===want);})[0];
    m.dispatchEvent(new MouseEvent('click',{bubbles:true}));return m.getAttribute('data-object-id')"""


def leaving_a_pin_for_a_cluster(where, place):
    """A pin's popup open (its address #/pin/ID), then a cluster clicked: the address leaves the pin,
    whether the cluster's list opens (zooming cannot split it) or the map zooms in; Forward opens the
    pin again."""
    pin = js(OPEN_SINGLE_PIN, lone_pin[0])
    wait(lambda: b.driver.current_url.endswith("#/pin/" + pin), 5)
    js("""var place=arguments[0],c=Array.from(document.querySelectorAll('#clusters .cluster')).filter(function(c){
        return (c.getAttribute('aria-label')||'').endsWith(' students in '+place);})[0];
        c.dispatchEvent(new MouseEvent('click',{bubbles:true}))""", place)
    back = wait(lambda: b.driver.current_url.endswith("#/"), 5)
    time.sleep(0.5)
    listed = js("var p=document.getElementById('popup');return !p.hidden&&document.getElementById('popup-heading').textContent")
    check(back and b.driver.current_url.endswith("#/") and listed and listed.endswith(" students in " + place),
          "%s: a pin's popup left for a cluster's list: the address leaves the pin (%s), the list stays open (%s)"
          % (where, b.driver.current_url.rsplit("/", 2)[-2:], listed))
    b.driver.forward()
    name = js("return document.querySelector('[data-testid=marker][data-object-id=\"'+arguments[0]+'\"] .student').dataset.name", pin)
    # Its popup, or its cluster's at this zoom, with the student listed first.
    again = wait(lambda: b.driver.current_url.endswith("#/pin/" + pin) and popup_state()[0]
                 and js("var n=document.querySelector('#popup-list li .name');return n&&n.textContent") == name, 5)
    check(again, "%s: and Forward opens the pin's popup again: %s" % (where, popup_state()))
    key(Keys.ESCAPE)
    # A cluster zooming splits: the map zooms in, the popup closes, and so does its address.
    js("document.getElementById('zoom-world').click()")
    time.sleep(0.5)
    pin = js(OPEN_SINGLE_PIN, lone_pin[0])
    wait(lambda: b.driver.current_url.endswith("#/pin/" + pin), 5)
    # One whose students name several places: zooming to fit them parts them (among 10,000, one city's
    # students, merged as one at the closest zoom, would open their list instead).
    zoomed = js("""var c=Array.from(document.querySelectorAll('#clusters .cluster')).filter(function(c){
        var places={};c.members.forEach(function(m){m.querySelectorAll('.student').forEach(function(s){places[s.dataset.place]=1;});});
        return /zoom in$/.test(c.getAttribute('aria-label')||'')&&Object.keys(places).length>1;})[0];if(!c)return null;
        var label=c.getAttribute('aria-label');c.dispatchEvent(new MouseEvent('click',{bubbles:true}));return label""")
    back = wait(lambda: b.driver.current_url.endswith("#/"), 5)
    check(zoomed and back and not popup_state()[0],
          "%s: a pin's popup left for a cluster that zooms in (%s): the address leaves the pin: %s"
          % (where, zoomed, b.driver.current_url.rsplit("/", 2)[-2:]))


def touch_targets():
    """On a phone every control is at least 44 pixels a side; your pin, far from most, is whole on the
    first view."""
    # Yours far from where most students are (Honolulu): the first view shows the most students, and
    # must still show yours whole.
    login = api_login(DEMO)
    status, _, _ = http(BASE, "POST", "v1/StudentLocation", {
        "uniqueKey": login["account"]["key"], "firstName": "Ada", "lastName": "Lovelace",
        "mapString": "Honolulu, Hawaii", "mediaURL": "https://ada.example", "latitude": 21.31, "longitude": -157.86},
        {"X-OnTheMap-Session": login["session"]["id"]})
    check(status == 201, "the demo account's pin moved to Honolulu: %s" % status)
    b.size(390, 844, True)
    b.open()
    signup = wait(lambda: b.shown("signup") and js("var r=document.getElementById('signup').getBoundingClientRect();return [Math.round(r.width),Math.round(r.height)]"))
    check(signup and min(signup) >= 44, "390x844: the login's Sign up link is at least 44 px a side: %s" % signup)
    b.log_in_by_keyboard()
    wait(lambda: b.shown("map-tab"))
    sizes = js("""return ['map-tab','list-tab','refresh','post-open','logout','zoom-in','zoom-out','zoom-world','search'].map(function(id){
        var r=document.getElementById(id).getBoundingClientRect();return [id,Math.round(r.width),Math.round(r.height)];})""")
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    check(not small, "390x844: every control is at least 44 px a side: %s" % (small or sizes))
    wait(lambda: b.driver.find_elements("css selector", '#markers .marker') and b.driver.find_elements("css selector", '#clusters .cluster'), 20)
    # The first view after login keeps your pin, or the cluster holding it, whole on the narrow screen
    # (it was cut off at the left edge). The first answer that finds yours is the one judged: the
    # view does not move by itself, so waiting longer could only hide a cut.
    yours = wait(lambda: js("""var s=document.getElementById('map').getBoundingClientRect();
        return Array.from(document.querySelectorAll('.marker.mine,.cluster.mine'))
        .filter(function(e){return e.getClientRects().length;})
        .map(function(e){var r=e.querySelector('circle').getBoundingClientRect();
        return r.left>=s.left&&r.right<=s.right&&r.top>=s.top&&r.bottom<=s.bottom;})"""), 10)
    check(yours and all(yours),
          "390x844: your pin or the cluster holding it is whole on the first view after login: %s" % yours)
    pins = js("""function least(sel){var w=Array.from(document.querySelectorAll(sel)).map(function(e){var r=e.getBoundingClientRect();
        return Math.min(r.width,r.height);});return w.length?Math.round(Math.min.apply(null,w)):null;}
        return [least('#markers .marker'),least('#clusters .cluster')]""")
    check(pins[0] and pins[1] and min(pins) >= 44, "390x844: pins and clusters are touch targets of at least 44 px: %s" % pins)
    js("document.querySelector('#markers .marker').focus()")
    key(Keys.ENTER)
    close = wait(lambda: b.shown("popup") and js("var r=document.getElementById('close').getBoundingClientRect();return [Math.round(r.width),Math.round(r.height)]"))
    check(close and min(close) >= 44, "390x844: the popup's Close is at least 44 px a side: %s" % close)
    links = js("return Array.from(document.querySelectorAll('#popup a[href]')).map(function(a){var r=a.getBoundingClientRect();return [Math.round(r.width),Math.round(r.height)];})")
    check(links and all(min(l) >= 44 for l in links), "390x844: each link in the popup is at least 44 px a side: %s" % links)
    copy = js("return Array.from(document.querySelectorAll('#popup .copy-link')).map(function(a){var r=a.getBoundingClientRect();return [Math.round(r.width),Math.round(r.height)];})")
    check(copy and all(min(c) >= 44 for c in copy), "390x844: each Copy link in the popup is at least 44 px a side: %s" % copy)
    js("document.getElementById('logout').click()")
    wait(lambda: b.shown("login"))


try:
    screens("1400x900", False, DEMO, GRACE)
    other_leaves(GRACE)
    screens("390x844", True, GRACE, DEMO)
    clusters("1400x900", False)
    clusters("390x844", True)
    addresses()
    if PINS <= 1000:
        # The clipboard and the dark theme's own steps do not change with the count: among 10,000
        # the screens' axe-core runs, light and dark, stay.
        copying_a_pins_link()
        dark("1400x900", False)
        dark("390x844", True)
    touch_targets()
    errors = b.console_errors()
    check(not errors, "no errors in the console: %s" % [e["message"][:160] for e in errors[:3]])
except Exception as error:  # a step that could not go on: report it, with a screenshot, as a failure
    import traceback
    traceback.print_exc()
    check(False, "the run stopped: %r" % error)
b.finish()
