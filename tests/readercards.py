"""Small cards measured through several hosts and readers, for the tests of the paths table, the
leaderboard's host and reader filters and the /readers/ page."""

from cardbench.card.dump import new_card_text

PI = "Raspberry Pi 4, Raspberry Pi OS"
USB2 = "USB 2.0 card reader"
UHS = "UHS-I USB 3.0 reader"
HOSTILE_READER = '</script><script>alert(1)</script> "reader" & <b>co</b>'


def session(sid, runs, host=None, reader=None, tests=("SEQ1M Q8T1",)):
    """A session of fio-style results: each test's read runs as given, its writes at half of them."""
    results = [{"test": test, "op": op, "unit": "MB/s", "runs": [r if op == "read" else r / 2 for r in runs]}
               for test in tests for op in ("read", "write")]
    out = {"id": sid, "label": f"Session {sid}", "results": results}
    out.update({k: v for k, v in (("host", host), ("reader", reader)) if v})
    return out


def card(slug, sessions):
    return {"schema_version": 1, "slug": slug, "brand": "Acme", "model": slug, "capacity_gb": 64,
            "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "source": {"name": "test bench"},
            "sessions": sessions}


def two_readers():
    """Through a USB 2.0 reader (39 MB/s, 3 runs), a UHS-I reader over two sessions (92 MB/s, 3 runs; one
    subtest only there) and a session stating neither host nor reader (30 MB/s, 1 run)."""
    return card("acme-two-readers", [
        session("usb2", [38.0, 39.0, 40.0], PI, USB2),
        session("uhs-a", [90.0, 92.0], PI, UHS),
        session("uhs-b", [94.0], PI, UHS, tests=("SEQ1M Q8T1", "RND4K Q1T1")),
        session("unknown", [30.0]),
    ])


def one_reader():
    """Another card, only through the USB 2.0 reader on a laptop."""
    return card("acme-usb2-only", [session("s1", [20.0, 21.0], "Laptop, Linux", USB2)])


def hostile_reader():
    """A card read through a reader whose name is markup, and through the USB 2.0 reader."""
    return card("acme-hostile-reader", [session("h1", [50.0], HOSTILE_READER, HOSTILE_READER),
                                        session("h2", [30.0], PI, USB2)])


def write_cards(folder, cards):
    folder.mkdir(parents=True, exist_ok=True)
    for c in cards:
        (folder / f"{c['slug']}.yaml").write_text(new_card_text(c), encoding="utf-8")
    return folder


def reader_site(work):
    """The site built from two_readers(), one_reader() and hostile_reader() in `work`: its public/ folder;
    the build must succeed."""
    import sitebuild

    cards = write_cards(work / "cards", [two_readers(), one_reader(), hostile_reader()])
    project, agg, hugo = sitebuild.build(work / "site", cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert hugo.returncode == 0, hugo.stdout + hugo.stderr
    return project / "public"
