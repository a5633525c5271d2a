"""The web table's moves in words (services/table/web/commands.js), run in Node on views made
here: a move with choices asks one question at a time, one button per value, and ends on the
whole move in the game's words with names; every language says it. Node is what make setup
installs for the TypeScript client (deploy/ensure-node.sh)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[3] / "services" / "table" / "web"

PROBE = r"""
import { readFileSync } from "node:fs";
const lang = process.argv[2];
globalThis.localStorage = { getItem: () => lang };
globalThis.navigator = { languages: [lang] };
globalThis.document = { documentElement: {}, title: "" };
globalThis.fetch = async (url) => ({
  json: async () => JSON.parse(readFileSync(new URL("." + url.replace("/web", ""), import.meta.url))),
});
const { loadCatalogue } = await import("./i18n.js");
await loadCatalogue();
const { Picker, describe, groupOf, movesPanel, stepQuestion, valueLabel } = await import("./commands.js");
const card = (position, c = null) => ({ position, face_up: false, card: c, seen_by: [], seen: [], wounded: false });
const seat = (n, name, cards, extra = {}) => ({ seat: n, name, cards, gun: null, arms: null, zombie: false, ...extra });
const view = (legal, extra = {}) => ({
  you: { seat: 0 }, prompt: null, legal_commands: legal,
  seats: [seat(0, "Ann", [card(1, "honest"), card(2, "crooked"), card(3, "agent")], { gun: { aimed_at: 2 } }),
          seat(1, "Bea", [card(1), card(2), card(3)]), seat(2, "Cid", [card(1), card(2, "kingpin"), card(3)])],
  ...extra,
});
// walk a group to its end, always taking the last value offered; each step's question and labels
function walk(v, group) {
  const p = new Picker(); p.group = group;
  const steps = [];
  for (let s = p.step(v); s; s = p.step(v)) {
    steps.push({ path: s.path, question: stepQuestion(s.sample, s.path), values: s.values.map((x) => valueLabel(s.sample, s.path, x, v)) });
    p.chosen[s.path] = s.values[s.values.length - 1];
  }
  const left = p.candidates(v);
  return { steps, left: left.length, sent: left[0], says: describe(left[0], v) };
}
const arm = view([1, 2].flatMap((t) => [2, 3].map((p) => ({ type: "arm", target: t, position: p }))));
const perms = [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]];
const arrange = view(perms.map((positions) => ({ type: "arrange", positions })));
const investigate = view([1, 2].flatMap((t) => [1, 2, 3].map((p) => ({ type: "investigate", target: t, position: p }))));
const mixed = view([{ type: "shoot" }, { type: "equip" }, { type: "play_equipment", card: "coffee" },
  { type: "play_equipment", card: "wiretap", targets: [1, 2], positions: [1, 3] },
  { type: "play_equipment", card: "wiretap", targets: [1, 2], positions: [2, 3] }]);
console.log(JSON.stringify({
  arm: walk(arm, "arm"), arrange: walk(arrange, "arrange"), investigate: walk(investigate, "investigate"),
  wiretap: walk(mixed, "play_equipment:wiretap"), groups: [...new Set(mixed.legal_commands.map(groupOf))],
  shoot: describe({ type: "shoot" }, mixed),
}));
"""


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> Path:
    node = shutil.which("node")
    assert node, "node is missing: make setup installs it (deploy/ensure-node.sh)"
    here = tmp_path_factory.mktemp("web")
    for f in WEB.glob("*.js"):
        shutil.copy(f, here / f.name)
    shutil.copytree(WEB / "i18n", here / "i18n")
    (here / "package.json").write_text('{"type": "module"}')  # ES modules on any Node
    (here / "probe.js").write_text(PROBE)
    return here


def probe(scripts: Path, lang: str) -> dict:
    done = subprocess.run(
        ["node", "probe.js", lang], cwd=scripts, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_move_asks_one_choice_at_a_time_and_says_the_whole_move(scripts):
    got = probe(scripts, "en")
    arm = got["arm"]
    assert [s["path"] for s in arm["steps"]] == ["target", "position"]
    assert arm["steps"][0] == {
        "path": "target",
        "question": "Aim the gun at whom?",
        "values": ["Bea", "Cid"],
    }
    assert arm["steps"][1]["values"] == ["your card 2 (Crooked)", "your card 3 (Agent)"]
    assert arm["left"] == 1 and arm["sent"] == {"type": "arm", "target": 2, "position": 3}
    assert arm["says"] == "Arm: take a gun, aim at Cid, turn your card 3 face up"

    inv = got["investigate"]
    assert inv["steps"][1]["values"] == ["Cid's card 1", "Cid's card 2 (Kingpin)", "Cid's card 3"]
    assert inv["says"] == "Investigate Cid's card 3"


def test_arranging_is_choosing_which_card_goes_in_each_position(scripts):
    arrange = probe(scripts, "en")["arrange"]
    assert [s["question"] for s in arrange["steps"]] == [
        "Which card goes in position 1?",
        "Which card goes in position 2?",
    ]
    assert arrange["steps"][0]["values"] == [
        "your card 1 (Honest)",
        "your card 2 (Crooked)",
        "your card 3 (Agent)",
    ]
    assert arrange["sent"] == {"type": "arrange", "positions": [3, 2, 1]}
    assert arrange["says"] == "Keep your cards in this order: Agent · Crooked · Honest"


def test_one_button_per_action_or_card_and_the_shot_names_its_target(scripts):
    got = probe(scripts, "en")
    assert got["groups"] == ["shoot", "equip", "play_equipment:coffee", "play_equipment:wiretap"]
    assert got["shoot"] == "Shoot Cid"
    wiretap = got["wiretap"]
    assert [s["path"] for s in wiretap["steps"]] == ["positions.0"]
    assert wiretap["steps"][0]["values"] == ["Bea's card 1", "Bea's card 2"]
    assert wiretap["says"] == "Play Wiretap, on Bea and Cid, Bea's card 2 and Cid's card 3"


@pytest.mark.parametrize("lang", ["it", "ja"])
def test_every_language_says_the_moves_with_names(scripts, lang):
    got = probe(scripts, lang)
    catalogue = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    assert got["arm"]["steps"][0]["question"] == catalogue["pick.arm_target"]
    assert "Cid" in got["arm"]["says"] and "{" not in got["arm"]["says"]
    assert got["arm"]["says"].startswith(catalogue["cmd.arm"].split("{")[0])
    assert got["shoot"] == catalogue["cmd.shoot"].replace("{name}", "Cid")
