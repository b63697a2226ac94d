#!/usr/bin/env python3
"""onthemap-server's web page with many students, in real headless Chromium, at 1400x900 and on a
phone (390x844, touch) (issue 41, points 1, 5 and 6). The map: names of countries and places (the
terminal map's), clear of the pins; clusters' counts inside their discs, above every disc; zoom
buttons. The list: only the rows on the screen are made, the search reads an index, the keyboard
reaches every row, axe-core checks it, and how long it takes.

    python3 Tests/Browser/web_scale_check.py BASE_URL OUT_DIR [--pins N] [--judge-timings]

BASE_URL is the server's root, started with `--web-pins N` on a database of its own with N demo
students (10,000 for the figures). Prints one line per check and the figures as "measure NAME VALUE
UNIT": the list opening (from the tab's click to the rows drawn, ≤ 200 ms), a keystroke in its search
(from the key to the next frame, ≤ 50 ms), and the longest task meanwhile, as the map follows the
search and as the first map after login is drawn (the worst of three logins) (Long Tasks API, ≤ 50
ms), judged only with --judge-timings (scripts/bench-web.sh). Exits 0 when all pass, 1 when one
fails, 77 (skip) without Selenium, Chromium or chromedriver. Run by OnTheMapServerTests' WebAppBrowserTests.
"""

import statistics
import sys
import time

from browser_support import MARKER_AT_PLACE, Browser, Keys, move_pin

GRACE = ("grace@onthemap.example", "password-grace")

BASE, OUT = sys.argv[1], sys.argv[2]
b = Browser(BASE, OUT, judge_timings="--judge-timings" in sys.argv)
check, js, wait = b.check, b.js, b.wait

# A frame every 16.7 ms when the page does nothing: how calm the machine is (timings from a busy one
# are reported, never judged).
CALM = 25


def idle_frames(count=30):
    stamps = b.driver.execute_async_script("""var done=arguments[arguments.length-1],t=[];function f(ts){t.push(ts);
        if(t.length<%d)requestAnimationFrame(f);else done(t);}requestAnimationFrame(f);""" % count)
    return max(y - x for x, y in zip(stamps, stamps[1:]))


def watch_long_tasks():
    js("""window.__long=[];if(!window.__observer){window.__observer=new PerformanceObserver(function(l){
        l.getEntries().forEach(function(e){window.__long.push(e.duration);});});window.__observer.observe({type:'longtask'});}""")


def longest_task():
    return max(js("return window.__long") or [0])


def open_list():
    """From the List tab's click to the frame after its rows are drawn, in ms."""
    return b.driver.execute_async_script("""var done=arguments[arguments.length-1],t0=performance.now();
        document.getElementById('list-tab').click();
        (function frame(){requestAnimationFrame(function(){var v=document.getElementById('list-view');
        if(!v.hidden&&document.querySelector('#student-list li'))requestAnimationFrame(function(){done(performance.now()-t0);});
        else frame();});})();""")


def keystrokes(text):
    """Types `text` into the search box, a key at a time; from each key's input event to the next frame, in ms."""
    js("""window.__keys=[];var s=document.getElementById('search');if(!s.__timed){s.__timed=true;
        s.addEventListener('input',function(e){var t=e.timeStamp;requestAnimationFrame(function(){window.__keys.push(performance.now()-t);});},true);}""")
    search = b.driver.find_element("id", "search")
    for character in text:
        search.send_keys(character)
        time.sleep(0.15)
    wait(lambda: len(js("return window.__keys")) >= len(text), 5)
    return js("return window.__keys")


moves = [0]


def grace_moves():
    """Grace's pin moves (through the API, as her own app would); True once the page has drawn it there
    (it polls every second)."""
    moves[0] += 1
    posted, object_id, _, place = move_pin(BASE, GRACE, "Grace", "Hopper", "https://grace.example", moves[0])
    return posted and wait(lambda: js(MARKER_AT_PLACE, object_id, place), 30)


def popup_state():
    return js("""var p=document.getElementById('popup'),a=document.activeElement;
        return [!p.hidden,p.getAttribute('aria-label'),p.contains(a)?a.textContent:null]""")


# Whether the map shows a view of its element's present size (its shape): the page has seen a resize.
SIZE_SEEN = """var m=document.getElementById('map'),r=m.getBoundingClientRect();
    return Math.abs(m.view.width/m.view.height-r.width/r.height)<0.001;"""


# The pins and clusters whose middle (a cluster's count) the map's own controls cover (the zoom
# buttons, the count), each as its students and place: none, or the map hid them (at 1400x900 New
# Zealand's cluster sat under the zoom buttons on the world's view).
UNDER_CONTROLS = """function box(e){var r=e.getBoundingClientRect();return [r.left,r.top,r.right,r.bottom];}
    var controls=Array.from(document.querySelectorAll('#map-panel .zoom,#count')).filter(function(c){return c.getClientRects().length;}).map(box);
    return Array.from(document.querySelectorAll('#markers .marker,#clusters .cluster')).filter(function(m){
        var c=m.querySelector('circle:not(.hit)');if(!c||!c.getClientRects().length)return false;var a=box(c),x=(a[0]+a[2])/2,y=(a[1]+a[3])/2;
        return controls.some(function(p){return x>=p[0]&&x<=p[2]&&y>=p[1]&&y<=p[3];});}).map(function(m){
        var s=m.querySelector('.student')||m.members[0].querySelector('.student');
        return (m.members?m.dataset.count+' students near ':'')+s.dataset.place;});"""


# The clusters whose disc the map's edge cuts, or the zoom buttons' column covers in part or whole,
# each as its name and box on the screen: none on the first view (at 390x844 among 10,000, Western
# Europe's was 2 pixels at the left edge, Perth's cut at the right, under the zoom buttons).
CUT_DISCS = """var m=document.getElementById('map').parentNode.getBoundingClientRect();
    var column=Array.from(document.querySelectorAll('#map-panel .zoom')).filter(function(c){return c.getClientRects().length;})
        .map(function(c){return c.getBoundingClientRect();});
    return Array.from(document.querySelectorAll('#clusters .cluster')).map(function(c){var r=c.firstChild.getBoundingClientRect();
        var off=r.right<=m.left||r.left>=m.right||r.bottom<=m.top||r.top>=m.bottom;
        var whole=r.left>=m.left&&r.right<=m.right&&r.top>=m.top&&r.bottom<=m.bottom&&!column.some(function(p){
            return r.right>p.left&&r.left<p.right&&r.bottom>p.top&&r.top<p.bottom;});
        return off||whole?null:c.getAttribute('aria-label')+' at '+[r.left,r.top,r.right,r.bottom].map(Math.round).join('…');})
        .filter(function(d){return d;});"""


def the_map(where, expected, phone):
    """Names, clusters' counts and the zoom buttons, on the first view of `expected` pins."""
    under = js(UNDER_CONTROLS)
    check(not under, "%s: the first view: no pin or cluster under the zoom buttons or the count %s" % (where, under[:4]))
    cut = js(CUT_DISCS)
    check(not cut, "%s: the first view: every cluster's disc whole on the map or off it, none under the zoom buttons %s"
          % (where, cut[:4]))
    b.driver.save_screenshot("%s/first-view-%s.png" % (OUT, where))
    count = b.by_id("count").text
    check(count.startswith("{:,} newest students".format(expected)), "%s: the map's count: %s" % (where, count))
    # A roving tabindex among them all: one pin or cluster in the Tab order, however many students.
    stops = js("""return Array.from(document.querySelectorAll('#markers [tabindex], #clusters [tabindex]'))
        .filter(function(e){return e.getAttribute('tabindex')!=='-1';}).length""")
    check(stops == 1, "%s: of %d students, one pin or cluster is a Tab stop: %s" % (where, expected, stops))
    found = js("""var s=document.getElementById('map').getBoundingClientRect();
        function box(e){var r=e.getBoundingClientRect();return [r.left,r.top,r.right,r.bottom];}
        var names=Array.from(document.querySelectorAll('#names text')).map(function(t){return {text:t.textContent,kind:t.getAttribute('class'),box:box(t)};});
        var pins=Array.from(document.querySelectorAll('#markers .marker circle:not(.hit),#clusters .cluster circle:not(.hit)')).filter(function(c){
            return c.getClientRects().length;}).map(box);
        var counts=Array.from(document.querySelectorAll('#clusters .cluster')).map(function(c){
            return {n:c.dataset.count,text:box(c.label),disc:box(c.firstChild)};});
        var order=Array.from(document.getElementById('view').children).map(function(e){return e.id;});
        return {names:names,pins:pins,counts:counts,order:order,inside:names.every(function(n){
            return n.box[0]>=s.left&&n.box[2]<=s.right&&n.box[1]>=s.top&&n.box[3]<=s.bottom;})};""")
    def overlap(a, b_):
        return a[0] < b_[2] - 1 and b_[0] < a[2] - 1 and a[1] < b_[3] - 1 and b_[1] < a[3] - 1
    countries = [n["text"] for n in found["names"] if "country" in n["kind"]]
    covering = [n["text"] for n in found["names"] if any(overlap(n["box"], p) for p in found["pins"])]
    check(len(countries) >= 3 and found["inside"] and not covering,
          "%s: the map names %d countries (%s …), inside the map, none over a pin or cluster %s"
          % (where, len(countries), ", ".join(countries[:3]), covering[:3]))
    spilled = [c["n"] for c in found["counts"] if c["text"][0] < c["disc"][0] or c["text"][2] > c["disc"][2]]
    longest = max([len(c["n"]) for c in found["counts"]] or [0])
    check(found["counts"] and not spilled and found["order"].index("counts") > found["order"].index("clusters"),
          "%s: every cluster's count (up to %d digits) fits its disc, and counts are drawn above every disc %s"
          % (where, longest, spilled[:3]))
    width = js("return document.getElementById('map').view.width")
    # The first view, not moved, follows the map's size (a phone turned, a window made narrower): the
    # band of latitudes across its height (or the world's width, if less), the same as before once back.
    turned = (844, 390) if phone else (1000, 900)
    b.size(turned[0], turned[1], phone)
    followed = wait(lambda: js(SIZE_SEEN)) and js("var v=document.getElementById('map').view;return [v.width,v.height]")
    b.size(390 if phone else 1400, 844 if phone else 900, phone)
    back = wait(lambda: js(SIZE_SEEN)) and js("return document.getElementById('map').view.width")
    check(followed and abs(followed[0] - width) > 1 and abs(back - width) < 1,
          "%s: turned to %dx%d and back, the first view follows the map's size (view widths %s, then %s)"
          % (where, turned[0], turned[1], followed, back))
    b.by_id("zoom-in").click()
    b.by_id("zoom-in").click()
    closer = js("return document.getElementById('map').view.width")
    b.by_id("zoom-out").click()
    b.by_id("zoom-world").click()
    whole = js("return document.getElementById('map').view")
    check(abs(width / closer - 4) < 0.01 and abs(whole["width"] - 65535) < 1 and abs(whole["x"]) < 1,
          "%s: the zoom buttons zoom in and out, and \"Whole world\" shows the world's width (view widths %s, %s, then %s from x %s)"
          % (where, width, closer, whole["width"], whole["x"]))
    b.driver.save_screenshot("%s/whole-world-%s.png" % (OUT, where))
    clear = wait(lambda: not js(UNDER_CONTROLS), 3)
    check(clear, "%s: the whole world: no pin or cluster under the zoom buttons or the count %s" % (where, [] if clear else js(UNDER_CONTROLS)[:4]))
    names_in_australia(where, phone)


# A wheel's notch over a map point (longitude, latitude), where it is on the screen now: the map
# zooms in by a quarter keeping it there. (Where it is from the map's box, not the SVG's: while the
# view moves, the SVG is moved by a transform.)
NOTCH_AT = """var lon=arguments[0],lat=arguments[1],map=document.getElementById('map'),v=map.view,r=map.parentNode.getBoundingClientRect();
    var W=65535,x=(lon+180)/360*W,c=lat*Math.PI/180,y=(1-Math.log(Math.tan(Math.PI/4+c/2))/Math.PI)/2*W;
    map.dispatchEvent(new WheelEvent('wheel',{deltaY:-120,clientX:r.left+(x-v.x)/v.width*r.width,
        clientY:r.top+(y-v.y)/v.height*r.height,bubbles:true,cancelable:true}));return v.width;"""


def names_in_australia(where, phone):
    """Zoomed by the wheel onto Sydney until Australia's east fills the map: the largest places in
    view are named (the students' pins and clusters sit on them), beside their pins, and the country
    too; the terminal names them so at that scale."""
    for _ in range(40):
        if js(NOTCH_AT, 151.21, -33.87) < (9000 if not phone else 4000):
            break
    want = ["Sydney", "Brisbane"] if not phone else ["Sydney"]
    names = wait(lambda: (lambda n: n if all(w in n for w in want) else None)(
        js("return Array.from(document.querySelectorAll('#names text')).map(function(t){return t.textContent;})")), 10) or \
        js("return Array.from(document.querySelectorAll('#names text')).map(function(t){return t.textContent;})")
    covering = js("""function box(e){var r=e.getBoundingClientRect();return [r.left,r.top,r.right,r.bottom];}
        var pins=Array.from(document.querySelectorAll('#markers .marker circle:not(.hit),#clusters .cluster circle:not(.hit),.zoom')).filter(function(c){
            return c.getClientRects().length;}).map(box);
        return Array.from(document.querySelectorAll('#names text')).filter(function(t){var a=box(t);return pins.some(function(p){
            return a[0]<p[2]-1&&p[0]<a[2]-1&&a[1]<p[3]-1&&p[1]<a[3]-1;});}).map(function(t){return t.textContent;})""")
    b.driver.save_screenshot("%s/australia-%s.png" % (OUT, where))
    check(all(w in names for w in want) and not covering,
          "%s: zoomed to Australia, its largest places are named (%s), none over a pin, a cluster or the zoom buttons %s: %s"
          % (where, ", ".join(want), covering, names[:12]))
    b.by_id("zoom-world").click()


# How many logins the first map after login is timed over (the worst judged): one login's longest task
# was noise on a loaded machine (63, 74, then 0 ms in three runs at 10,000 students).
LOGINS = 3

MARKERS = "return document.querySelectorAll('[data-testid=marker]').length"


def first_map(where, expected, again):
    """Logs in by keyboard (`again`: logs out first, by keyboard, and in again in the same page) and
    waits for the first map of `expected` pins, its markers made and grouped a slice at a time; the
    longest task (Long Tasks API) from the login to a second after that first drawing, or None when
    the pins did not come."""
    if again:
        out = b.tab_to(lambda a: a.get("id") == "logout", 20) is not None
        b.key(Keys.ENTER)
        # The markers of the session left are taken off the map: the logout's work, not the login's.
        check(out and wait(lambda: b.shown("login") and js(MARKERS) == 0, 30),
              "%s: Log out by the keyboard, to log in again" % where)
        idle_frames(5)
        js("performance.clearMarks('pins-drawn')")
    watch_long_tasks()
    b.log_in_by_keyboard()
    # Counted in the page: Selenium's elements for ten thousand markers were a task of 0.6–1.3 s in it.
    if not wait(lambda: js(MARKERS) >= expected, 90):
        return None
    wait(lambda: js("return performance.getEntriesByName('pins-drawn').length"), 30)
    time.sleep(1)
    return longest_task()


def run(where, phone, expected):
    b.size(*((390, 844, True) if phone else (1400, 900, False)))
    b.open()
    # The first map after login, `LOGINS` times (the page's first and logins after a logout): its
    # longest task each time, the worst judged.
    first_tasks = [first_map(where, expected, n > 0) for n in range(LOGINS)]
    loaded = None not in first_tasks
    check(loaded, "%s: %d pins on the map, at each of %d logins" % (where, expected, LOGINS))
    first_task = max(t or 0 for t in first_tasks)
    # The list's pages, a thousand pins each, asked for at once: each asked before the first came.
    pages = js("""return performance.getEntriesByType('resource').filter(function(e){return /StudentLocation\\?limit=\\d+&order/.test(e.name);})
        .map(function(e){return [e.startTime,e.responseEnd];})""")
    pages = sorted(pages)[:(expected + 999) // 1000]  # the load's, not a later check's
    if len(pages) > 1:
        first_end = min(end for _, end in pages)
        check(all(start < first_end for start, _ in pages), "%s: its %d pages were asked for at once" % (where, len(pages)))
    wait(lambda: not b.shown("busy"), 30)
    time.sleep(2)  # the first drawing and the work done ahead in idle time, as a person waits for the map
    the_map(where, expected, phone)
    # A pin's address among them all: zoomed in until it is a marker (or a cluster of one point), its popup open.
    pin = js("""var m=document.querySelectorAll('[data-testid=marker]'),s=m[Math.floor(m.length*0.43)].querySelector('.student');
        return [s.dataset.objectId,s.dataset.name]""")
    js("location.hash='#/pin/'+encodeURIComponent(arguments[0])", pin[0])
    check(wait(lambda: b.shown("popup") and pin[1] in js("return document.getElementById('popup').textContent")
               and js("return document.getElementById('popup').contains(document.activeElement)"), 15),
          "%s: #/pin/%s opens %s's popup, the focus in it" % (where, pin[0], pin[1]))
    # Another student's pin moves: the popup stays open, the focus where it was; the page takes the
    # change in tasks of its own (Long Tasks API: the longest, judged only by bench-web.sh).
    opened = popup_state()
    watch_long_tasks()
    moved = grace_moves()
    time.sleep(1.5)
    change_task = longest_task()
    check(moved and popup_state() == opened, "%s: a pin moved elsewhere: the popup stays open, the focus in it: %s, then %s"
          % (where, opened, popup_state()))
    b.key(Keys.ESCAPE)
    b.driver.back()
    b.key("0")
    quiet = idle_frames()
    watch_long_tasks()
    opened = open_list()
    made = js("return document.querySelectorAll('#student-list li').length")
    check(b.shown("list-view") and 0 < made <= 80, "%s: the list of %d shows its first rows, %d made" % (where, expected, made))
    summary = b.by_id("list-summary").text
    check(summary.startswith("{:,} students".format(expected)), "%s: it says how many: %s" % (where, summary))
    # Every row reachable: End, then Home, by the keyboard.
    js("document.querySelector('#student-list li[aria-posinset=\"1\"] .row').focus()")
    b.key(Keys.END)
    last = js("var a=document.activeElement,r=a.getBoundingClientRect();return [a.closest('li').getAttribute('aria-posinset'),r.bottom<=innerHeight+1&&r.top>=0]")
    check(last == [str(expected), True], "%s: End reaches row %s of %d, on the screen" % (where, last[0], expected))
    b.key(Keys.HOME)
    check(js("return document.activeElement.closest('li').getAttribute('aria-posinset')") == "1", "%s: Home the first" % where)
    b.key(Keys.ARROW_DOWN)
    row = js("return document.activeElement.dataset.objectId")
    watch_long_tasks()
    moved = grace_moves()
    time.sleep(1)
    change_task = max(change_task, longest_task())
    check(moved and js("return document.activeElement.dataset.objectId") == row,
          "%s: a pin moved elsewhere: the focus stays on its row (%s): %s" % (where, row, js("return document.activeElement.dataset.objectId")))
    b.key(Keys.HOME)
    # axe-core's own work is no task of the page's: the long tasks are counted around it.
    longest = longest_task()
    started = time.time()
    b.axe("%s: the list of %d" % (where, expected))
    # How long axe-core takes follows the rows made (a few dozen, checked above) and the machine's
    # load: a time, judged only by bench-web.sh (it could not finish 10,000 rows in 60 s).
    checked = time.time() - started
    b.timing(checked < 30, "%s: axe-core checked the list in %.1f s (≤ 30)" % (where, checked))
    watch_long_tasks()
    # The search: the list answers each key; the map follows when it is shown again.
    keys = keystrokes("ana")
    left = js("return document.querySelectorAll('#student-list li').length")
    summary = b.by_id("list-summary").text
    check(left and " of {:,} students".format(expected) in summary, "%s: searching \"ana\" leaves %s" % (where, summary))
    keys += keystrokes("qqz")
    check(b.shown("list-empty"), "%s: a search that matches nothing says so: %s" % (where, b.by_id("list-empty").text))
    search = b.driver.find_element("id", "search")
    for _ in range(6):
        search.send_keys(Keys.BACKSPACE)
    wait(lambda: not b.shown("list-empty"))
    longest = max(longest, longest_task())
    # The map again, the search "ana" still in the box: its ten thousand markers follow it then, with
    # no task over 50 ms either.
    keystrokes("ana")
    watch_long_tasks()
    js("document.getElementById('map-tab').click()")
    wait(lambda: not b.shown("list-view"))
    time.sleep(1)
    back = longest_task()
    shown = js("return document.querySelectorAll('[data-testid=marker]:not(.hidden)').length")
    check(0 < shown < expected, "%s: back on the map, the search leaves %d markers" % (where, shown))
    search = b.driver.find_element("id", "search")
    for _ in range(3):
        search.send_keys(Keys.BACKSPACE)
    # Back to the list, as a person returns to it (it took 5–10 s before issue 41): as quick as the
    # first time, the search cleared and the map following it first.
    wait(lambda: js("return document.querySelectorAll('[data-testid=marker]:not(.hidden)').length") == expected, 15)
    idle_frames(5)
    reopened = open_list()
    check(b.shown("list-view") and b.by_id("list-summary").text.startswith("{:,} students".format(expected)),
          "%s: the list opens again, all %d in it" % (where, expected))
    js("document.getElementById('map-tab').click()")
    wait(lambda: not b.shown("list-view"))
    tag = where.replace("x", "_")
    unit = "ms" if quiet <= CALM else "ms (machine busy: idle frames up to %.0f ms)" % quiet
    b.measure("list_open_%d_%s" % (expected, tag), "%.0f" % opened, unit)
    b.measure("list_reopen_%d_%s" % (expected, tag), "%.0f" % reopened, unit)
    b.measure("list_keystroke_%d_%s_max" % (expected, tag), "%.0f" % max(keys), unit)
    b.measure("list_keystroke_%d_%s_median" % (expected, tag), "%.0f" % statistics.median(keys), unit)
    b.measure("list_longest_task_%d_%s" % (expected, tag), "%.0f" % longest, unit)
    b.measure("map_after_search_longest_task_%d_%s" % (expected, tag), "%.0f" % back, unit)
    b.measure("change_longest_task_%d_%s" % (expected, tag), "%.0f" % change_task, unit)
    each = ", ".join("%.0f" % (t or 0) for t in first_tasks)
    b.measure("first_draw_longest_task_%d_%s" % (expected, tag), "%.0f" % first_task,
              "%s (worst of %d logins: %s)" % (unit, LOGINS, each))
    if quiet > CALM:
        print("skip %s: the list's timings not judged: the machine was busy (idle frames up to %.0f ms)" % (where, quiet))
        return
    b.timing(opened <= 200, "%s: the list of %d opens in %.0f ms (≤ 200)" % (where, expected, opened))
    b.timing(reopened <= 200, "%s: back to the list of %d, it opens in %.0f ms (≤ 200)" % (where, expected, reopened))
    b.timing(max(keys) <= 50, "%s: a keystroke in its search answers in %.0f ms at most (median %.0f; ≤ 50)"
             % (where, max(keys), statistics.median(keys)))
    b.timing(longest <= 50, "%s: no task over 50 ms meanwhile (the longest %.0f ms)" % (where, longest))
    b.timing(back <= 50, "%s: no task over 50 ms as the map follows the search (the longest %.0f ms)" % (where, back))
    b.timing(first_task <= 50, "%s: no task over 50 ms as the first map after login is drawn, in %d logins "
             "(the longest %.0f ms; each login's %s)" % (where, LOGINS, first_task, each))
    b.timing(change_task <= 50, "%s: no task over 50 ms as a pin moved elsewhere is drawn (the longest %.0f ms)" % (where, change_task))


try:
    expected = int(sys.argv[sys.argv.index("--pins") + 1]) if "--pins" in sys.argv else 10000
    run("1400x900", False, expected)
    js("document.getElementById('logout').click()")
    wait(lambda: b.shown("login"))
    run("390x844", True, expected)
    errors = b.console_errors()
    check(not errors, "no errors in the console: %s" % [e["message"][:160] for e in errors[:3]])
except Exception as error:
    import traceback
    traceback.print_exc()
    check(False, "the run stopped: %r" % error)
b.finish()
