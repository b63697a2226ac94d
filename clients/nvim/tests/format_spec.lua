-- Pure parts: text helpers and map painting from a result of the documented shape.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local format = require("onthemap.format")
local map = require("onthemap.map")
local buffer = require("onthemap.buffer")

return {
  {
    "counts are grouped by three, as the CLI's CountText.grouped writes them",
    function()
      for count, text in pairs({ [0] = "0", [7] = "7", [950] = "950", [1000] = "1,000", [1234] = "1,234", [10000] = "10,000",
        [123456] = "123,456", [1234567] = "1,234,567", [-1234] = "-1,234", [-100] = "-100", [1100.5] = "1,100",
        [1e15] = "1,000,000,000,000,000" }) do
        t.eq(format.grouped(count), text, tostring(count))
      end
    end,
  },
  {
    "columns align by display width, wide characters included",
    function()
      local lines = format.columns({ { "NAME", "PLACE", "LINK" }, { "Ada", "東京", "https://a" }, { "Grace Hopper", "Köln", "x" } })
      local link_column = vim.fn.strdisplaywidth(lines[1]:sub(1, lines[1]:find("LINK") - 1))
      t.eq(vim.fn.strdisplaywidth(lines[2]:sub(1, lines[2]:find("https") - 1)), link_column, "row 2's link column")
      t.eq(vim.fn.strdisplaywidth(lines[3]:sub(1, lines[3]:find(" x$"))), link_column, "row 3's link column")
      t.eq(format.truncate("abcdefghij", 5), "abcd…", "truncated")
    end,
  },
  {
    "other people's text is shown safe, by the CLI's rule: line breaks a space, controls U+FFFD, bidi dropped",
    function()
      local r = format.replacement
      t.eq(r, "\239\191\189", "U+FFFD")
      t.eq(format.clean("a\nb\tc\rd"), "a b c d", "line feed, tab, carriage return: a space")
      t.eq(format.clean("a\226\128\168b\226\128\169c"), "a b c", "U+2028, U+2029: a space")
      t.eq(format.clean("esc\27[31m"), "esc" .. r .. "[31m", "ESC")
      t.eq(format.clean("nul\0bel\7del\127us\31"), "nul" .. r .. "bel" .. r .. "del" .. r .. "us" .. r, "NUL, BEL, DEL, U+001F")
      t.eq(format.clean("csi\194\155x\194\128\194\159"), "csi" .. r .. "x" .. r .. r, "C1: U+009B, U+0080, U+009F")
      t.eq(format.clean("Mallory Bidi\226\128\174gnp.exe"), "Mallory Bidignp.exe", "U+202E (right-to-left override) dropped")
      t.eq(format.clean("a\226\128\170\226\128\171\226\128\172\226\128\173b"), "ab", "U+202A–U+202D dropped")
      t.eq(format.clean("a\226\129\166\226\129\167\226\129\168\226\129\169b"), "ab", "U+2066–U+2069 (isolates) dropped")
      t.eq(format.clean("a\226\128\142\226\128\143\216\156b"), "ab", "U+200E, U+200F, U+061C (bidi marks) dropped")
      -- Bytes that are not UTF-8 around a dropped character do not join into another one.
      t.eq(format.clean("\194\226\128\174\155"), r, "no C1 made by dropping")
      t.eq(format.clean("\226\226\128\174\128\174x"), "x", "no override made by dropping")
      local kept = "Köln 東京 — “quoted” … ⣿ (ü) \226\128\175 \194\160 \194\173 \216\128"
      t.eq(format.clean(kept), kept, "everything else as it is (U+202F, no-break space, soft hyphen, U+0600)")
      t.eq(format.clean(nil), "", "not a string")
      t.ok(format.is_clean("https://ada.example/ü"), "a clean link")
      t.ok(not format.is_clean("https://ada.example/\0x"), "a link with a NUL")
      for _, hidden in ipairs({ "\t", "\n", "\r", "\226\128\168", "\226\128\169", "\127", "\194\133", "\216\156", "\226\128\142",
        "\226\128\143", "\226\128\170", "\226\128\174", "\226\129\166", "\226\129\169" }) do
        t.ok(not format.is_clean("https://ada.example/" .. hidden .. "x"), "a link with " .. vim.inspect(hidden) .. " is not clean")
      end
    end,
  },
  {
    "format characters that show as nothing are dropped, not drawn as <200b>: widths as the CLI counts them",
    function()
      -- Neovim drew "Ad<200b>min", "Q<feff>z" and "👩<200d>👩…" in the list, the statusline and
      -- messages (a tester's round, /work/audit6.md item 7).
      local zwsp, zwnj, zwj, fe, wj = "\226\128\139", "\226\128\140", "\226\128\141", "\239\187\191", "\226\129\160"
      t.eq(format.clean("Ad" .. zwsp .. "min Q" .. fe .. "z"), "Admin Qz", "U+200B, U+FEFF")
      -- A Persian name with a zero-width non-joiner (می‌خواهم): the letters as they are.
      t.eq(format.clean("می" .. zwnj .. "خواهم"), "میخواهم", "U+200C")
      local woman, girl = "\240\159\145\169", "\240\159\145\167"
      local family = woman .. zwj .. woman .. zwj .. girl
      t.eq(format.clean("Tokyo " .. family .. ", Japan"), "Tokyo " .. woman .. woman .. girl .. ", Japan", "an emoji ZWJ family")
      t.eq(format.width(format.clean(family)), 6, "its width: three emoji, two cells each, as the CLI's DisplayWidth counts")
      t.eq(format.clean("a" .. wj .. "\226\129\164\226\129\170\226\129\175b"), "ab", "U+2060, U+2064, U+206A, U+206F")
      t.eq(format.clean("x\239\191\185y\239\191\187"), "xy", "U+FFF9, U+FFFB")
      t.eq(format.clean("m\225\160\139\225\160\142n"), "mn", "U+180B, U+180E (Mongolian)")
      -- A subdivision flag: the black flag, its tags (U+E0067 …, U+E007F) dropped.
      local scotland = "\240\159\143\180\243\160\129\167\243\160\129\162\243\160\129\179\243\160\129\163\243\160\129\180\243\160\129\191"
      t.eq(format.clean(scotland), "\240\159\143\180", "tags")
      t.eq(format.clean("a\243\160\128\129\240\157\133\179\240\155\178\160\240\147\144\176b"), "ab", "U+E0001, U+1D173, U+1BCA0, U+13430")
      -- Nothing of them reaches the screen: no "<" from strtrans, one cell or none per character.
      local name = format.clean("Ad" .. zwsp .. "min " .. family .. " می" .. zwnj .. "خواهم")
      t.eq(vim.fn.strtrans(name), name, "drawn as it is")
      t.eq(format.width(name), format.width("Admin ") + 6 + format.width(" میخواهم"), "no cell for what was dropped")
      -- Dropped before marks are counted: a joiner between marks does not make room for more.
      local marks = "\204\129\204\129\204\129"
      t.eq(format.clean("a" .. marks .. zwj .. marks .. zwj .. marks .. "b"), "a" .. marks .. "\204\129b", "four marks at most")
      -- Bytes that are not UTF-8 around a dropped one do not join into it again.
      t.eq(format.clean("\226\226\128\139\128\139x"), "x", "no U+200B made by dropping")
      -- Links with them are not offered as a prompt's default (the daemon refuses them anyway).
      t.ok(not format.is_clean("https://ada.example/" .. zwsp .. "x"), "a link with U+200B is not clean")
      t.eq(format.without_invisible("a" .. zwj .. "b\194\173c"), "ab\194\173c", "without_invisible keeps the soft hyphen")
    end,
  },
  {
    "a list's keys reach more than the link: y copies the line's link, g? lists y, p, s, gn and m",
    function()
      -- Only <CR>, r, q and g? were there (a tester's round, /work/audit6.md item 10).
      local list = require("onthemap.list")
      local help = require("onthemap.help")
      local from = #t.notifications + 1
      vim.fn.setreg('"', "before")
      t.ok(list.yank({ firstName = "Ada", lastName = "Lovelace", mediaURL = "https://ada.example/me" }), "copied")
      t.eq(vim.fn.getreg('"'), "https://ada.example/me", "the unnamed register")
      -- Said, in shorter words on a narrow command line ("OnTheMap: copied https://… to the \" register").
      local said = t.notified("OnTheMap: copied ", 5000, from)
      t.ok(said.message:find("https://ada.example/me", 1, true), vim.inspect(said))
      -- A link the daemon dropped is not copied, and the message says why, as <CR>'s does.
      t.ok(not list.yank({ firstName = "Eve", lastName = "X", mediaURL = "", mediaURLDropped = "it holds a hidden character (U+202E)" }), "not copied")
      t.eq(vim.fn.getreg('"'), "https://ada.example/me", "the register as it was")
      -- (Cut to the command line's 68 cells, as <CR>'s: the whole is in :checkhealth.)
      t.notified("OnTheMap: not copying Eve X's link: it", 5000, from)
      t.ok(not list.yank(nil), "no student")
      t.notified("OnTheMap: no student on this line", 5000, from)
      -- The keys of a list (here one that cannot reach a daemon: its keys are the same), in g?.
      require("onthemap").setup({ socket = "/nonexistent/onthemap.sock", timeout_ms = 2000, reconnect_ms = 60000 })
      local buf = list.students()
      local lines = help.lines(buf)
      local text = table.concat(lines, "\n")
      for _, key in ipairs({ { "<CR>", "open the link" }, { "y", "copy the link on this line" }, { "p", "post or move your pin" },
        { "s", "search the students" }, { "gn", "the students near a place" }, { "m", "the map of the students" },
        { "r", "fetch again" }, { "q", "close" }, { "g?", "this list of keys" } }) do
        t.ok(text:find("\n" .. vim.pesc(key[1]) .. "%s+" .. vim.pesc(key[2])), key[1] .. " in g?:\n" .. text)
        t.eq(vim.fn.maparg(key[1], "n", false, true).buffer, 1, key[1] .. " mapped in the list")
      end
      require("onthemap.buffer").close(buf)
      require("onthemap").setup({})
    end,
  },
  {
    "other people's text is shown as the fixture of the daemon's rule says (Tests/Fixtures/display-text.json)",
    function()
      local path = debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "../../../Tests/Fixtures/display-text.json"
      local file = t.ok(io.open(path, "rb"), "the fixture at " .. path)
      local cases = vim.fn.json_decode(file:read("*a")).cases
      file:close()
      t.ok(#cases >= 15, "the fixture's cases: " .. #cases)
      for _, case in ipairs(cases) do
        -- The daemon's rule, then the format characters that show as nothing dropped (M.clean's one
        -- step more, as Emacs's; the case "other format characters … kept" loses them).
        local shown = format.without_invisible(case.shown)
        t.eq(format.clean(case.text), shown, case.name)
        t.eq(format.is_clean(case.text), case.text == shown, "is_clean: " .. case.name)
      end
    end,
  },
  {
    "the statusline shows each status as the fixture of the CLI's bar text says (Tests/Fixtures/bar-text.json)",
    function()
      require("onthemap").setup({})
      local status = require("onthemap.status")
      local path = debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "../../../Tests/Fixtures/bar-text.json"
      local file = t.ok(io.open(path, "rb"), "the fixture at " .. path)
      -- Read as the daemon's answers are (rpc.lua): JSON null and absent members alike are nil.
      local cases = vim.json.decode(file:read("*a"), { luanil = { object = true, array = true } }).cases
      file:close()
      t.ok(#cases >= 10, "the fixture's cases: " .. #cases)
      local running, state, current = status.running, status.state, status.status
      local ok, err = pcall(function()
        -- As a subscription that has answered: no connection is started for the test.
        status.running, status.state = true, "online"
        for _, case in ipairs(cases) do
          status.status = case.status
          t.eq(status.text(), case.text, case.name)
        end
      end)
      status.running, status.state, status.status = running, state, current
      assert(ok, err)
    end,
  },
  {
    "a link the daemon dropped is not opened, and the message says why, as the CLI's open does",
    function()
      local open = require("onthemap.open")
      local opened, from, columns = {}, #t.notifications + 1, vim.o.columns
      require("onthemap").setup({ opener = function(url) opened[#opened + 1] = url end })
      -- Wide enough for the whole sentence on the command line (narrower, it is shortened).
      vim.o.columns = 200
      local ok, err = pcall(function()
        t.eq(open.open("", "Eve\27[31m", "it holds a hidden character (U+001B)"), false, "refused")
        local note = t.notified("OnTheMap: not opening", 1000, from)
        t.eq(note.message, "OnTheMap: not opening Eve" .. format.replacement .. "[31m's link: it holds a hidden character (U+001B)", "the CLI's sentence")
        from = #t.notifications + 1
        t.eq(open.open("", nil, "it is not an http:// or https:// address"), false, "refused, no name")
        t.eq(t.notified("OnTheMap: not opening", 1000, from).message, "OnTheMap: not opening the link: it is not an http:// or https:// address", "no name")
        from = #t.notifications + 1
        t.eq(open.open(nil, "Ada"), false, "no link")
        t.eq(t.notified("OnTheMap:", 1000, from).message, "OnTheMap: Ada has no web link to open", "no link")
        t.eq(opened, {}, "nothing handed to the opener")
        t.eq(open.open("https://ada.example/me?q=1", "Ada"), true, "a link the daemon passed on is opened")
        t.eq(opened, { "https://ada.example/me?q=1" }, "handed to the opener as it is")
      end)
      vim.o.columns = columns
      require("onthemap").setup({})
      t.ok(ok, err)
    end,
  },
  {
    "the place choices: words for the precision, each choice once, in the geocoder's order",
    function()
      local post = require("onthemap.post")
      local koln = { name = "Köln", admin1 = "North Rhine-Westphalia", country = "Germany", precision = "locality",
        label = "Köln, North Rhine-Westphalia, Germany" }
      local region = { name = "Köln", admin1 = "", country = "Germany", precision = "region", label = "Köln, Germany" }
      local choices = post.choices({ koln, vim.deepcopy(koln), region })
      t.eq(vim.tbl_map(function(c) return c.shown end, choices),
        { "Köln, North Rhine-Westphalia, Germany (town or city)", "Köln, Germany (region)" }, "deduplicated, in words")
      t.eq(choices[1].label, "Köln, North Rhine-Westphalia, Germany", "the label stored")
      -- The daemon's label, as it is: the plugin names no place itself (the daemon's rule leaves
      -- out the country named like the town; a rule that drops only neighbouring repeats keeps it).
      local monaco = { name = "Monaco", admin1 = "Commune de Monaco", country = "Monaco", precision = "locality",
        label = "Monaco, Commune de Monaco" }
      t.eq(post.choices({ monaco })[1].label, "Monaco, Commune de Monaco", "the daemon's label")
      t.eq(#post.choices({}), 0, "none")
    end,
  },
  {
    "the daemon's protocol errors are told in words",
    function()
      local rpc = require("onthemap.rpc")
      for _, case in ipairs({
        { -32602, "Invalid params: query is required." },
        { -32600, "Invalid request: bad jsonrpc" },
        { -32601, "Method not found: frobnicate" },
        { -32700, "Parse error" },
      }) do
        local text = rpc.in_editor_words(case[1], case[2])
        t.ok(not text:find("Invalid", 1, true) and not text:find("query", 1, true) and not text:find("Method", 1, true)
          and not text:find("Parse", 1, true), "no protocol word: " .. text)
        t.ok(text:find("different versions", 1, true), "what to do: " .. text)
      end
      t.eq(rpc.in_editor_words(-32603, "Internal error: the cache is gone."), "onthemapd failed (the cache is gone); its log says more", "internal")
      t.eq(rpc.in_editor_words(-32005, 'No place matches "x".'), 'No place matches "x".', "the daemon's own words")
    end,
  },
  {
    "a cut name keeps its (you)",
    function()
      t.eq(format.truncate_keeping("Ada Lovelace", " (you)", 40), "Ada Lovelace (you)", "room enough")
      t.eq(format.truncate_keeping("Ada Lovelace", " (you)", 14), "Ada Lov… (you)", "cut before it")
      t.eq(format.width(format.truncate_keeping("Ada Lovelace", " (you)", 14)), 14, "within the width")
    end,
  },
  {
    "the link prompt: a link pasted after the default replaces it; only a link naming no scheme gets https://",
    function()
      t.eq(format.typed_link("https://old.example/ahttps://new.example/b", "https://old.example/a"), "https://new.example/b", "pasted after the default")
      t.eq(format.typed_link("https://old.example/a HTTPS://New.example/b", "https://old.example/a"), "HTTPS://New.example/b", "pasted after a space, in capitals")
      t.eq(format.typed_link("https://old.example/a/more", "https://old.example/a"), "https://old.example/a/more", "the default edited")
      t.eq(format.typed_link("  example.com/x ", nil), "https://example.com/x", "no scheme")
      t.eq(format.typed_link("http://example.com", nil), "http://example.com", "http kept")
      t.eq(format.typed_link("https://a.example/?u=https://b.example", nil), "https://a.example/?u=https://b.example", "a link inside a link")
      -- Another scheme stays as typed, for the daemon to refuse with its reason: it was made
      -- https://mailto:me@example.com (a host, example.com) and posted (a tester's round,
      -- /work/audit6.md item 3). As the CLI's PostCommand.typedLink.
      t.eq(format.typed_link("mailto:me@example.com", nil), "mailto:me@example.com", "mailto: kept")
      t.eq(format.typed_link("javascript:alert(1)", nil), "javascript:alert(1)", "javascript: kept")
      t.eq(format.typed_link(" JavaScript:alert(1)", "https://old.example"), "JavaScript:alert(1)", "in capitals, a default given")
      t.eq(format.typed_link("ftp://ada.example/x", nil), "ftp://ada.example/x", "ftp:// kept")
      t.eq(format.typed_link("example.com:8080/me", nil), "https://example.com:8080/me", "a host and its port")
      t.eq(format.typed_link("localhost:8080", nil), "https://localhost:8080", "a host and its port, no path")
      t.eq(format.typed_link("1password.com/x", nil), "https://1password.com/x", "a host starting with a digit")
      t.eq(format.typed_link("", "https://old.example"), nil, "nothing typed")
      t.eq(format.typed_link(nil, nil), nil, "cancelled")
    end,
  },
  {
    "ages",
    function()
      local now = format.parse_time("2026-11-22T12:00:00.000Z")
      t.eq(format.age("2026-11-22T11:59:30.000Z", now), "just now", "30 s")
      t.eq(format.age("2026-11-22T11:55:00.000Z", now), "5 min ago", "5 min")
      t.eq(format.age("2026-11-21T09:00:00.000Z", now), "1 d ago", "27 h")
      t.eq(format.age("garbage", now), "—", "unreadable")
      t.eq(format.parse_time("1970-01-02T00:00:00Z"), 86400, "epoch + 1 day")
    end,
  },
  {
    "a near list shows the daemon's distanceKm, never one of its own",
    function()
      local list = require("onthemap.list")
      -- Distances no sphere gives for these coordinates: only the daemon's value can show them.
      local result = {
        students = {
          { firstName = "Ada", lastName = "L", mapString = "Berlin", mediaURL = "https://a.example", latitude = 52.52, longitude = 13.405, distanceKm = 1234.4 },
          { firstName = "Alan", lastName = "T", mapString = "Paris", mediaURL = "https://b.example", latitude = 48.8566, longitude = 2.3522, distanceKm = 7.6 },
          { firstName = "Kim", lastName = "H", mapString = "Hamburg", mediaURL = "https://c.example", latitude = 53.55, longitude = 9.99, distanceKm = 252.5 },
          { firstName = "Old", lastName = "Daemon", mapString = "Oslo", mediaURL = "https://d.example", latitude = 59.91, longitude = 10.75 },
        },
        total = 4,
      }
      local buf = vim.api.nvim_create_buf(false, true)
      list.render(buf, result, { latitude = 52.52, longitude = 13.405, label = "Berlin", km = 2000 })
      local lines = t.lines(buf)
      -- Wiped before checking: a list left behind would keep the header timer for the next specs.
      vim.api.nvim_buf_delete(buf, { force = true })
      t.ok(lines[2]:find("^NAME%s+PLACE%s+KM%s+LINK%s+UPDATED$"), "header: " .. lines[2])
      t.ok(lines[3]:find("Berlin%s+1234%s+https://a%.example"), "the daemon's 1234.4 km: " .. lines[3])
      t.ok(lines[4]:find("Paris%s+8%s+https://b%.example"), "the daemon's 7.6 km: " .. lines[4])
      t.ok(lines[5]:find("Hamburg%s+253%s+https://c%.example"), "the daemon's 252.5 km, rounded as the CLI does: " .. lines[5])
      t.ok(lines[6]:find("Oslo%s+https://d%.example"), "no distanceKm, no distance: " .. lines[6])
    end,
  },
  {
    "a world view a low window cut says where, and counts the pins it left out, as the CLI does",
    function()
      local result = {
        rows = { "⠀⣿⣿⠀" },
        styles = { " ll " },
        pins = { { n = 1, row = 0, col = 1, firstName = "Ada", lastName = "L", mapString = "Oslo", mediaURL = "https://a.example", mine = false } },
        outside = 10,
        view = { west = -180, south = -30.4, east = 180, north = 71.2, zoom = 1 },
      }
      t.eq(map.where("the world", result), "the world cut at 71°N, 30°S", "cut, with pins left out")
      t.eq(map.where("Paris, France", result), "Paris, France", "a place is named as it is")
      t.eq(map.where("the world", vim.tbl_extend("force", result, { outside = 0 })), "the world", "nothing left out")
      t.eq(map.where("the world", vim.tbl_extend("force", result, { view = vim.tbl_extend("force", result.view, { zoom = 3 }) })),
        "the world", "zoomed in: not the world view")
      local buf = map.buffer()
      map.render(buf, result, "the world", 5)
      local lines = t.lines(buf)
      t.eq(lines[1], "Map of the world cut at 71°N, 30°S · zoom 1", "the title")
      t.ok(lines[3]:find("^1 pin in view, 10 outside it · "), "the summary: " .. lines[3])
    end,
  },
  {
    "a map result is painted with one highlight group per style code",
    function()
      -- The shape of the daemon's `map` result: rows and styles of equal cells, pins, view.
      local result = {
        rows = { "⠀⣿⣿⠀2⠀", "⠀⣿⠁⠀⠀⠀" },
        styles = { " llbc ", " lm   " },
        pins = {
          { n = 1, row = 0, col = 4, firstName = "Ada", lastName = "L", mapString = "Munich", mediaURL = "https://a.example", mine = false },
          { n = 2, row = 0, col = 4, firstName = "Alan", lastName = "T", mapString = "Munich", mediaURL = "https://b.example", mine = false },
          { n = 3, row = 1, col = 2, firstName = "Me", lastName = "Myself", mapString = "Köln", mediaURL = "https://me.example", mine = true },
        },
        view = { west = -180, south = -85, east = 180, north = 85, zoom = 1 },
      }
      local buf = map.buffer()
      map.render(buf, result, "Munich, Bavaria, Germany", 5)
      local lines = t.lines(buf)
      t.eq(lines[1], "Map of Munich, Bavaria, Germany · zoom 1", "the title: the place and zoom shown")
      t.eq(lines[2], result.rows[1], "row 1")
      t.eq(lines[3], result.rows[2], "row 2")
      t.ok(lines[4]:find("^3 pins in view · <CR> opens · %+/%- zoom"), "the legend's title and the keys: " .. lines[4])
      t.ok(lines[7]:find("Me Myself (you)", 1, true) and lines[7]:find("https://me.example", 1, true), "your pin in the legend: " .. lines[7])
      local marks = vim.api.nvim_buf_get_extmarks(buf, map.namespace, 0, -1, { details = true })
      local painted = {}
      for _, mark in ipairs(marks) do
        local row, col, details = mark[2], mark[3], mark[4]
        if row >= 1 and row <= 2 then
          painted[#painted + 1] = { row, col, details.end_col, details.hl_group }
        end
      end
      -- Braille cells are 3 bytes each; "2" is 1 byte.
      t.eq(painted, {
        { 1, 3, 9, "OnTheMapLand" },
        { 1, 9, 12, "OnTheMapCoast" },
        { 1, 12, 13, "OnTheMapCluster" },
        { 2, 3, 6, "OnTheMapLand" },
        { 2, 6, 9, "OnTheMapMyPin" },
      }, "highlights of the map rows")
      -- <CR> on a legend line opens that pin; on a map cell with two pins it asks which (Neovim's
      -- own vim.ui.select, answered with typed keys).
      local opened = {}
      require("onthemap").setup({ opener = function(url) opened[#opened + 1] = url end })
      vim.api.nvim_win_set_cursor(0, { 7, 0 })
      t.feed("<CR>")
      t.eq(opened, { "https://me.example" }, "opened from the legend")
      vim.api.nvim_win_set_cursor(0, { 2, 12 })
      t.feed("<CR>2<CR>")
      t.wait(2000, function() return #opened == 2 end, "the chosen pin's link")
      t.after_prompts()
      t.eq(opened[2], "https://b.example", "opened from the map cell")
      require("onthemap").setup({})
      buffer.close(buf)
      t.ok(not vim.api.nvim_buf_is_valid(buf), "q closes the buffer")
    end,
  },
  {
    "one pin is \"1 pin\"; labels have a style of their own; a capped zoom says so",
    function()
      local result = {
        rows = { "⠀Paris*⠀" },
        styles = { " nnnnnp " },
        pins = { { n = 1, row = 0, col = 6, firstName = "Ada", lastName = "L", mapString = "Paris", mediaURL = "https://a.example" } },
        view = { west = 0, south = 40, east = 10, north = 50, zoom = 2048.4 },
      }
      local buf = map.buffer()
      map.render(buf, result, "Paris, France", 5, true)
      local lines = t.lines(buf)
      local marks = vim.api.nvim_buf_get_extmarks(buf, map.namespace, { 1, 0 }, { 1, -1 }, { details = true })
      buffer.close(buf)
      t.eq(lines[1], "Map of Paris, France · zoom 2048 (as close as the map goes)", "the title")
      t.ok(lines[3]:find("^1 pin in view"), "one pin: " .. lines[3])
      t.eq(marks[1][4].hl_group, "OnTheMapLabel", "a label's cells")
      -- Thousands of pins are counted as the CLI counts them, grouped by three.
      local pins = {}
      for n = 1, 1234 do
        pins[n] = { n = n, row = 0, col = 6, firstName = "Ada", mapString = "Paris", mediaURL = "https://a.example" }
      end
      result.pins = pins
      buf = map.buffer()
      map.render(buf, result, "Paris, France", 5, true)
      lines = t.lines(buf)
      buffer.close(buf)
      t.ok(lines[3]:find("^1,234 pins in view %(1,229 more below%)"), "1,234 pins: " .. lines[3])
      -- A daemon whose cache is full draws only the newest students, and the line says so.
      result.limitedTo = 1500
      buf = map.buffer()
      map.render(buf, result, "Paris, France", 5, false)
      lines = t.lines(buf)
      buffer.close(buf)
      t.eq(lines[1], "Map of Paris, France · zoom 2048 · only the newest 1,500 students", "limited")
      -- A title wider than the window is cut to it, with "…".
      result.view.zoom = 2048.4
      t.eq(map.title("Paris, France", result.view, true, 1500):len() > 80, true, "a title over 80 columns")
      buf = map.buffer()
      map.render(buf, result, "Paris, France", 5, true)
      lines = t.lines(buf)
      buffer.close(buf)
      t.ok(vim.fn.strdisplaywidth(lines[1]) <= vim.o.columns and vim.endswith(lines[1], "…"), "cut: " .. lines[1])
    end,
  },
  {
    "the legend keeps lines on screen: a window of 22 lines keeps 5",
    function()
      t.eq(map.legend_room(22), 5, "22 lines")
      t.eq(map.legend_room(6), 2, "at least 2")
      t.eq(map.legend_room(100), 8, "at most 8")
    end,
  },
  {
    "the words after near and map: a place, coordinates, a radius",
    function()
      local place = require("onthemap.place")
      local function read(text)
        local where, why = place.read(vim.split(text, " ", { trimempty = true }))
        return where or why
      end
      t.eq(read("48.85, 2.35"), { text = "48.85, 2.35", latitude = 48.85, longitude = 2.35 }, "coordinates with a space")
      t.eq(read("48.85,2.35"), { text = "48.85,2.35", latitude = 48.85, longitude = 2.35 }, "without")
      t.eq(read("-33.9, 151.2 300"), { text = "-33.9, 151.2", latitude = -33.9, longitude = 151.2, km = 300 }, "and a radius")
      t.eq(read("Berlin, Germany 2000"), { text = "Berlin, Germany", km = 2000 }, "a place and a radius")
      t.eq(read("Mountain View, CA"), { text = "Mountain View, CA" }, "a place")
      t.eq(read("Paris"), { text = "Paris" }, "one word")
      t.eq(read("95, 2"), "latitude 95 is out of range: it goes from -90 to 90", "a typo, not a place")
      t.eq(read("45, 200"), "longitude 200 is out of range: it goes from -180 to 180", "the other one")
    end,
  },
  {
    "columns fit the window: NAME, PLACE and LINK give way, the widest first; KM and UPDATED never",
    function()
      local rows = {
        { "NAME", "PLACE", "LINK", "UPDATED" },
        { "Ada Lovelace", "Buenos Aires, Argentina", "https://www.linkedin.com/in/adalovelace-example", "12 d ago" },
      }
      t.eq(format.fit(rows, 200), { 12, 23, 47, 8 }, "room for all")
      local widths = format.fit(rows, 80, nil, { [4] = true })
      t.eq(widths[4], 8, "UPDATED whole")
      t.eq(widths[1], 12, "the narrowest kept")
      t.eq(widths[1] + widths[2] + widths[3] + widths[4] + 6, 80, "exactly the room")
      t.ok(widths[3] >= widths[2], "the widest gives way last: " .. vim.inspect(widths))
      for _, line in ipairs(format.columns(rows, widths)) do
        t.ok(format.width(line) <= 80, "fits: " .. line)
        t.ok(line:find("UPDATED$") or line:find("12 d ago$"), "ends with UPDATED: " .. line)
      end
    end,
  },
  {
    "limits hold only while the window is short of room (spare): what is left goes to the cut columns",
    function()
      local rows = {
        { "NAME", "PLACE", "LINK", "UPDATED" },
        { "Ada Lovelace", "Springfield, Illinois, United States", "https://www.linkedin.com/in/ada-lovelace-example-account-name", "12 d ago" },
      }
      local limits = { 30, 34, 56, 12 }
      local opts = { spare = true }
      t.eq(format.fit(rows, 200, limits, { [4] = true }), { 12, 34, 56, 8 }, "the limits without spare")
      t.eq(format.fit(rows, 200, limits, { [4] = true }, nil, opts), { 12, 36, 61, 8 }, "whole at 200 columns")
      -- 5 cells over the limits' 116: the least cut (PLACE, 2 short) first, then LINK.
      t.eq(format.fit(rows, 121, limits, { [4] = true }, nil, opts), { 12, 36, 59, 8 }, "the least cut first")
      local widths = format.fit(rows, 80, limits, { [4] = true }, nil, opts)
      t.eq(widths[1] + widths[2] + widths[3] + widths[4] + 6, 80, "a short window: exactly the room")
    end,
  },
  {
    "the map's camera: the centre of a view, a pan, a zoom within the daemon's range",
    function()
      local camera = require("onthemap.camera")
      local now = camera.from_view({ west = -10, east = 10, north = 10, south = -10, zoom = 18 })
      t.ok(math.abs(now.latitude) < 1e-9 and math.abs(now.longitude) < 1e-9 and now.zoom == 18, vim.inspect(now))
      local east = camera.pan(now, 1, 0, 80, 20)
      t.ok(math.abs(east.longitude - 5) < 1e-9, "a quarter of 20° east: " .. east.longitude)
      t.eq(camera.zoom(now, 2).zoom, 36, "zoom in")
      t.eq(camera.zoom({ latitude = 0, longitude = 0, zoom = 3000 }, 2).zoom, 4096, "no closer than the daemon draws")
      t.eq(camera.zoom({ latitude = 0, longitude = 0, zoom = 1 }, 0.5).zoom, 1, "no further than the world")
      t.eq(camera.where({ latitude = -33.57, longitude = 18.49 }), "33.57°S 18.49°E", "a centre in words")
      t.eq(camera.zoom_text(18.34), "18", "zoom 18")
      t.eq(camera.zoom_text(2.5), "2.5", "zoom 2.5")
      local across = camera.from_view({ west = 170, east = 200, north = 10, south = -10, zoom = 12 })
      t.ok(math.abs(across.longitude + 175) < 1e-9, "across the antimeridian: " .. across.longitude)
    end,
  },
  {
    "on Neovim 0.7 the plugin asks with input() itself; a UI plugin's vim.ui.input is used as it is",
    function()
      local ui = require("onthemap.ui")
      t.eq(ui.input_loses_empty(), vim.fn.has("nvim-0.8") == 0, "Neovim's own vim.ui.input on " .. tostring(vim.version().minor))
      local stock = vim.ui.input
      local asked
      vim.ui.input = function(opts, on_confirm)
        asked = opts.prompt
        on_confirm("")
      end
      local answer
      local ok, err = pcall(ui.input, { prompt = "Place: " }, function(text)
        answer = text
      end)
      vim.ui.input = stock
      t.ok(ok, tostring(err))
      t.eq({ asked, answer }, { "Place: ", "" }, "the UI plugin asked")
      -- Neovim's own, on 0.7: Enter on nothing is "", Esc is nil (typed keys, input() reading them).
      for _, case in ipairs({ { "<CR>", "" }, { "<Esc>", nil }, { "Lima<CR>", "Lima" } }) do
        answer = "unset"
        vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(case[1], true, false, true), "t", false)
        ui.input({ prompt = "Place: " }, function(text)
          answer = text
        end)
        t.eq(answer, case[2], "after " .. case[1])
      end
      t.after_prompts()
    end,
  },
  {
    "a vim.ui.input that passes nil for an empty answer (as 0.7.2's does): the login says so and sends nothing",
    function()
      local stock, sent = vim.ui.input, false
      local rpc = require("onthemap.rpc")
      local request = rpc.request
      rpc.request = function()
        sent = true
      end
      vim.ui.input = function(_, on_confirm)
        on_confirm(nil)
      end
      local from = #t.notifications + 1
      local ok, err = pcall(require("onthemap.session").login)
      vim.ui.input, rpc.request = stock, request
      t.ok(ok, tostring(err))
      t.eq(t.notified("OnTheMap:", 1000, from).message, "OnTheMap: no email given: login cancelled", "what happened")
      t.ok(not sent, "nothing sent")
    end,
  },
  {
    "the socket is found as the CLI finds it",
    function()
      local socket = require("onthemap.socket")
      local saved = { vim.env.ONTHEMAP_SOCKET, vim.env.XDG_RUNTIME_DIR }
      local uid = vim.loop.getuid()
      vim.env.ONTHEMAP_SOCKET = nil
      vim.env.XDG_RUNTIME_DIR = "/run/user/4242"
      t.eq(socket.candidates(), {
        "/run/user/4242/onthemap/onthemapd.sock",
        "/run/user/" .. uid .. "/onthemap/onthemapd.sock",
        "/tmp/onthemap-" .. uid .. "/onthemapd.sock",
      }, "with XDG_RUNTIME_DIR")
      vim.env.XDG_RUNTIME_DIR = nil
      t.eq(socket.candidates(), { "/run/user/" .. uid .. "/onthemap/onthemapd.sock", "/tmp/onthemap-" .. uid .. "/onthemapd.sock" }, "without")
      vim.env.ONTHEMAP_SOCKET = "/somewhere/d.sock"
      t.eq(socket.candidates(), { "/somewhere/d.sock" }, "$ONTHEMAP_SOCKET alone")
      require("onthemap").setup({ socket = "/option/d.sock" })
      t.eq(socket.candidates(), { "/option/d.sock" }, "the option first")
      require("onthemap").setup({})
      vim.env.ONTHEMAP_SOCKET, vim.env.XDG_RUNTIME_DIR = saved[1], saved[2]
      t.eq(socket.reason("ECONNREFUSED: connection refused"), "Connection refused", "luv's error as strerror says it")
      t.eq(socket.reason("ECONNREFUSED"), "Connection refused", "0.7's connect callback: the code alone")
      t.eq(socket.reason("ENOENT"), "No such file or directory", "no socket file")
    end,
  },
  {
    "a warning or error too wide for the command line is shortened to one line that points to the whole",
    function()
      local notify = require("onthemap.notify")
      local long = "OnTheMap: " .. string.rep("word ", 30)
      t.eq(notify.shorten("OnTheMap: short", { "unused" }, 68, true), "OnTheMap: short", "a message that fits is left alone")
      t.eq(notify.shorten(long, { "OnTheMap: " .. string.rep("x", 60), "OnTheMap: summary" }, 68, true), "OnTheMap: summary (see :checkhealth onthemap)", "the first summary that fits with the pointer")
      t.eq(notify.shorten(long, { "OnTheMap: " .. string.rep("x", 50) }, 68, true), "OnTheMap: " .. string.rep("x", 50), "else a summary that fits alone")
      local cut = notify.shorten("OnTheMap: " .. string.rep("東京 ", 40), nil, 68, true)
      t.ok(vim.fn.strdisplaywidth(cut) <= 68 and vim.endswith(cut, "… (see :checkhealth onthemap)"), "else the text cut, wide characters counted: " .. cut)
    end,
  },
  {
    "news too wide for the command line is told in its shorter words, never pointing to :checkhealth",
    function()
      local notify = require("onthemap.notify")
      local long = "OnTheMap: " .. string.rep("word ", 30)
      t.eq(notify.shorten(long, { "OnTheMap: " .. string.rep("x", 60), "OnTheMap: " .. string.rep("y", 55), "OnTheMap: summary" }, 68, false), "OnTheMap: " .. string.rep("y", 55), "the first summary that fits, alone")
      local cut = notify.shorten(long, nil, 68, false)
      t.ok(vim.fn.strdisplaywidth(cut) <= 68 and vim.endswith(cut, "…") and not cut:find("checkhealth", 1, true), "else the text cut: " .. cut)
      -- Shown with vim.notify: an INFO never points to :checkhealth, nor is kept for it.
      local columns, from, kept = vim.o.columns, #t.notifications + 1, #notify.long
      vim.o.columns = 80
      notify.show("OnTheMap: " .. string.rep("news ", 20), vim.log.levels.INFO, { "OnTheMap: news in short" })
      notify.show("OnTheMap: " .. string.rep("warning ", 20), vim.log.levels.WARN, { "OnTheMap: a warning in short" })
      vim.o.columns = columns
      t.eq(vim.tbl_map(function(note)
        return note.message
      end, vim.list_slice(t.notifications, from)), { "OnTheMap: news in short", "OnTheMap: a warning in short (see :checkhealth onthemap)" }, "what was shown")
      t.eq(#notify.long, math.min(kept + 1, 5), "the warning alone kept whole")
      t.eq(notify.long[#notify.long].text, "OnTheMap: " .. string.rep("warning ", 20), "the warning kept whole")
    end,
  },
  {
    "a place's shorter forms drop its last parts, never down to a bare number",
    function()
      t.eq(format.place_forms("Springfield, Massachusetts, United States"), { "Springfield, Massachusetts, United States", "Springfield, Massachusetts", "Springfield" }, "by parts")
      t.eq(format.place_forms("東京, 日本"), { "東京, 日本", "東京" }, "any script")
      t.eq(format.place_forms("48.85, 2.35"), { "48.85, 2.35" }, "coordinates whole")
      t.eq(format.place_forms("Paris"), { "Paris" }, "one part")
    end,
  },
  {
    ":OnTheMap with unknown arguments says how to use it; near and search with nothing, what they need",
    function()
      local from = #t.notifications + 1
      vim.cmd("OnTheMap frobnicate")
      t.notified("usage: :OnTheMap", 1000, from)
      local columns = vim.o.columns
      vim.o.columns = 60
      from = #t.notifications + 1
      vim.cmd("OnTheMap near")
      vim.cmd("OnTheMap search")
      vim.cmd("OnTheMap frobnicate")
      vim.o.columns = columns
      t.eq(vim.tbl_map(function(note)
        return note.message
      end, vim.list_slice(t.notifications, from)), { "OnTheMap: near needs a place", "OnTheMap: search needs words", "OnTheMap: usage: see :help :OnTheMap" }, "at 60 columns")
    end,
  },
  {
    "a usage error points to :help at every width, never to :checkhealth",
    function()
      t.at_widths({ 32, 40, 60, 80, 100, 140, 200 }, function(width)
        for _, command in ipairs({ "OnTheMap bogus", "OnTheMap near", "OnTheMap search" }) do
          local from = #t.notifications + 1
          vim.cmd(command)
          local note = t.ok(t.notifications[from], command .. " says something")
          t.fits(note)
          t.ok(not note.message:find("checkhealth", 1, true), ("no :checkhealth at %d columns: %s"):format(width, note.message))
          if command == "OnTheMap bogus" then
            t.ok(note.message:find(":help :OnTheMap", 1, true), ("points to :help at %d columns: %s"):format(width, note.message))
          end
        end
      end)
    end,
  },
  {
    "a post's news keeps the place whole at every width, never pointing to :checkhealth",
    function()
      local post = require("onthemap.post")
      t.at_widths({ 32, 36, 40, 50, 60, 80, 120 }, function(width)
        for _, before in ipairs({ "moved your pin to ", "posted your pin at ", "your pin stays at " }) do
          local from = #t.notifications + 1
          post.tell(before, "Springfield, Massachusetts, United States", " (https://ada.example/springfield)")
          local note = t.ok(t.notifications[from], "the news")
          t.fits(note)
          t.ok(not note.message:find("checkhealth", 1, true), ("no :checkhealth at %d columns: %s"):format(width, note.message))
          t.ok(note.message:find("Springfield$") or note.message:find("Springfield, Massachusetts$")
            or note.message:find("Springfield, Massachusetts, United States", 1, true),
            ("the place whole at %d columns: %s"):format(width, note.message))
        end
      end)
      t.at_widths({ 80 }, function()
        local from = #t.notifications + 1
        post.tell("moved your pin to ", "Springfield, Massachusetts, United States", " (https://ada.example/springfield)")
        t.eq(t.notifications[from].message, "OnTheMap: moved your pin to Springfield, Massachusetts", "at 80 columns, as before")
      end)
    end,
  },
  {
    "an error too wide for the command line says what happened whole, not cut mid-word",
    function()
      local rpc = require("onthemap.rpc")
      t.eq(rpc.what_happened("The link is not a web link (its scheme is javascript): give an http:// address."), "The link is not a web link", "up to the first mark")
      t.eq(rpc.what_happened("Not logged in: run :OnTheMapLogin first."), "Not logged in", "a colon")
      t.eq(rpc.what_happened("Nothing to say"), nil, "the whole message")
      local columns, from = vim.o.columns, #t.notifications + 1
      vim.o.columns = 80
      rpc.report({ message = "The link is not a web link (its scheme, javascript, is not http or https): give an http:// or https:// address, like https://example.com/me." }, "post")
      vim.o.columns = columns
      t.eq(t.notifications[from].message, "OnTheMap: The link is not a web link (see :checkhealth onthemap)", "at 80 columns")
    end,
  },
}
