"""``benchmarks/papers/001_ueno_suzumura.py --tiny``: the page of paper 001 written, and the
machine-independent checks that hold at SCALE 10 on the 2 x 2 mesh: every tree valid with
and without vertex sorting, compression and ``--fold paper``; raw pairs at 16 bytes; the
paper's body at about 5 bytes a pair (Fig. 10 and section 4.2, within 30 %); the paper fold
sending at least what the default does; Table 1, Fig. 4's ownership, Fig. 1's limits and the
section 4.2 VLQ example exact.
"""
import importlib.util
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "benchmarks", "papers", "001_ueno_suzumura.py")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("paper_001", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path_factory.mktemp("p001") / "page.md"
    return module, module.main(["--tiny", "--out", str(out)]), out.read_text()


def test_exact_items_hold(tiny):
    _, got, _ = tiny
    for name in ("trees", "fig1", "fig4", "table1", "vlq_example", "fig10", "fig2", "fig17"):
        assert got["checks"][name], name


def test_fold_bytes_against_the_paper(tiny):
    module, got, _ = tiny
    tot = got["totals"]
    for key, t in tot.items():
        fold, compress, _ = key
        assert t["pairs"] > 0
        assert t["raw"] == (16 if fold == "paper" else 8) * t["pairs"]
        if compress == "vlq":
            assert t["fold"] < t["raw"]
        else:  # the raw fields themselves, plus the packets' headers
            assert t["fold"] > t["raw"]
    for srt in (False, True):
        assert (tot[("paper", "vlq", srt)]["pairs"] == tot[("paper", "none", srt)]["pairs"])
    # sorting renames the vertices inside a block: the same edges are sent
    assert tot[("paper", "vlq", True)]["pairs"] == tot[("paper", "vlq", False)]["pairs"]
    assert tot[("paper", "vlq", True)]["pairs"] > tot[("dedup", "vlq", True)]["pairs"]
    per_pair = tot[("paper", "vlq", True)]["fold"] / tot[("paper", "vlq", True)]["pairs"]
    assert 5.0 <= per_pair < 5.0 * 1.3  # v in 4 bytes, u's delta at least 1
    assert module.within(per_pair, 16 * 13.1 / 32.3, 0.3)


def test_page_lists_every_table_and_figure(tiny):
    module, got, page = tiny
    names = ["Table 1", "Sec. 4.2 example", "Figs. 6-8"] + [
        f"Fig. {k}" for k in (1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)]
    for name in names:
        assert f"## {name}: " in page, name
    assert page.count("**Status: ") == len(names)
    assert "| 2048 | 32x64 | 32x64 | yes |" in page  # Table 1's last row, exact
    assert "0xAC, 0x02, 0x01, 0x00, 0x02" in page
    assert [it.name for it in got["page"].items][:4] == ["Fig. 1", "Fig. 2", "Fig. 3", "Fig. 4"]
