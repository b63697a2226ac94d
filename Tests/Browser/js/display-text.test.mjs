// The web page's shownText (web/js/text.mjs) against the cases of the one rule, DisplayText.clean
// (Tests/Fixtures/display-text.json, which the CLI's, Neovim's and Emacs's tests read too).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { shownText } from "../../../Sources/CWebPage/web/js/text.mjs";

const { cases } = JSON.parse(readFileSync(new URL("../../Fixtures/display-text.json", import.meta.url), "utf8"));

test("other people's text is shown by the rule of the fixture (display-text.json)", () => {
  assert.ok(cases.length >= 15, "the fixture's cases");
  for (const { name, text, shown } of cases) {
    assert.equal(shownText(text), shown, name);
  }
});
