"""The viewer page embeds the replay as JSON in a <script> block: no string from the file may end that block or
turn on the parser's escaped-script state (`<!--<script>` in an agent's name broke the page)."""
from __future__ import annotations

import json

from tests.training.replay.test_replay_bounds import recorded_game
from training.replay import files as replay
from training.replay.viewer import write_html

OPEN = '<script type="application/json" id="data">'


def test_no_string_in_a_replay_can_break_out_of_the_pages_data_block(tmp_path):
    _, data = recorded_game(tmp_path, steps=4)
    data["agents"] = ["<!--<script>", "x</script><script>alert(1)</script>"]
    source = replay.write(data, tmp_path / "tricky.rubble.json")
    page = write_html(source, tmp_path / "page.html").read_text(encoding="utf-8")
    block = page[page.index(OPEN) + len(OPEN):]
    block = block[: block.index("</script>")]        # where an HTML parser ends it
    assert "<" not in block
    assert json.loads(block)["agents"] == data["agents"]     # the whole page data, its strings as in the file
