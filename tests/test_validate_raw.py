"""Raw tool outputs beside a card: present, listed in SHA256SUMS, unchanged, inside the card's own folder, named so
every system can check them out."""

import hashlib

import pytest

from cardbench.card.store.checksums import update_sha256sums
from cardbench.card.dump import new_card_text
from cardbench.card.checks.problems import Finding
from cardbench.card.checks.validate import validate_paths
from carddata import SLUG, TODAY, by_rule, card_data, findings_for


def session(data):
    return data["sessions"][0]


def _raw_card(tmp_path, *names):
    data = card_data()
    session(data)["results"][0]["raw"] = [f"raw/{SLUG}/{name}" for name in names]
    return data


def _write_raw(tmp_path, name, content=b"fio output\n"):
    path = tmp_path / "raw" / SLUG / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def test_missing_raw_file_is_an_error(tmp_path):
    [finding] = by_rule(findings_for(_raw_card(tmp_path, "2025-05-01/fio-1.json"), tmp_path), "raw-present")
    assert f"data/raw/{SLUG}/2025-05-01/fio-1.json is missing" in finding.error.message


def test_raw_without_sums_file_is_an_error(tmp_path):
    """Deleting SHA256SUMS must not turn a changed raw file from an error into a warning."""
    _write_raw(tmp_path, "2025-05-01/fio-1.json")
    [finding] = by_rule(findings_for(_raw_card(tmp_path, "2025-05-01/fio-1.json"), tmp_path), "raw-hash")
    assert finding.severity == "error" and f"data/raw/{SLUG}/SHA256SUMS is missing" in finding.error.message


def test_a_tampered_raw_file_stays_an_error_when_sums_is_deleted(tmp_path):
    raw = _write_raw(tmp_path, "a.json")
    update_sha256sums(tmp_path / "raw" / SLUG, ["a.json"])
    raw.write_bytes(b"fio output, edited\n")
    data = _raw_card(tmp_path, "a.json")
    assert [f.severity for f in by_rule(findings_for(data, tmp_path), "raw-hash")] == ["error"]
    (tmp_path / "raw" / SLUG / "SHA256SUMS").unlink()
    assert [f.severity for f in by_rule(findings_for(data, tmp_path), "raw-hash")] == ["error"]


def test_raw_hashes_recorded_then_changed(tmp_path):
    raw = _write_raw(tmp_path, "2025-05-01/fio-1.json")
    written = update_sha256sums(tmp_path / "raw" / SLUG, ["2025-05-01/fio-1.json"])
    assert written == {"2025-05-01/fio-1.json": hashlib.sha256(b"fio output\n").hexdigest()}
    data = _raw_card(tmp_path, "2025-05-01/fio-1.json")
    assert findings_for(data, tmp_path) == []
    raw.write_bytes(b"fio output, edited\n")
    [finding] = by_rule(findings_for(data, tmp_path), "raw-hash")
    assert finding.severity == "error" and "changed after it was recorded" in finding.error.message


def test_raw_not_listed_in_sums_is_an_error(tmp_path):
    _write_raw(tmp_path, "a.json")
    _write_raw(tmp_path, "b.json")
    update_sha256sums(tmp_path / "raw" / SLUG, ["a.json"])
    [finding] = by_rule(findings_for(_raw_card(tmp_path, "a.json", "b.json"), tmp_path), "raw-hash")
    assert "b.json is not listed" in finding.error.message


def test_broken_sums_file_is_named_with_its_line(tmp_path):
    _write_raw(tmp_path, "a.json")
    (tmp_path / "raw" / SLUG / "SHA256SUMS").write_text("not a checksum line\n")
    [finding] = by_rule(findings_for(_raw_card(tmp_path, "a.json"), tmp_path), "raw-hash")
    assert "SHA256SUMS line 1" in finding.error.message


def test_sums_file_matches_sha256sum_format(tmp_path):
    import subprocess
    _write_raw(tmp_path, "d/a.json", b"x")
    update_sha256sums(tmp_path / "raw" / SLUG, ["d/a.json"])
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=tmp_path / "raw" / SLUG,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize("raw", [f"raw/{SLUG}/../../cards/x.yaml", f"raw/{SLUG}/./a.json", f"raw/{SLUG}//a.json"])
def test_raw_paths_stay_in_the_card_folder(tmp_path, raw):
    data = card_data()
    session(data)["results"][0]["raw"] = [raw]
    assert [f.rule for f in findings_for(data, tmp_path) if f.severity == "error"] == ["raw-path"]


@pytest.mark.parametrize("name", ["nul.txt", "CON.out", "com1.log.txt", "a:b.json", "trailing.txt."])
def test_raw_names_every_system_can_check_out(tmp_path, name):
    _write_raw(tmp_path, f"s1/{name}", b"1 MB/s\n")
    data = card_data()
    session(data)["results"][0]["raw"] = [f"raw/{SLUG}/s1/{name}"]
    found = [f for f in findings_for(data, tmp_path) if f.rule == "raw-path"]  # (the schema refuses ':' too)
    assert len(found) == 1 and found[0].severity == "error" and "Windows" in found[0].error.message


def test_raw_symlink_out_of_the_data_folder_is_refused(tmp_path):
    link = tmp_path / "raw" / SLUG / "passwd"
    link.parent.mkdir(parents=True)
    link.symlink_to("/etc/passwd")
    data = _raw_card(tmp_path, "passwd")
    assert [f.rule for f in findings_for(data, tmp_path)] == ["raw-path"]


def test_raw_in_another_cards_folder_warns(tmp_path):
    other = tmp_path / "raw" / "other-card" / "a.json"
    other.parent.mkdir(parents=True)
    other.write_text("x")
    data = card_data()
    session(data)["results"][0]["raw"] = ["raw/other-card/a.json"]
    assert "raw-folder" in [f.rule for f in findings_for(data, tmp_path) if f.severity == "warning"]


def test_finding_knows_its_rule_and_path(tmp_path):
    [finding] = findings_for(card_data(slug="acme-other"), tmp_path)
    assert isinstance(finding, Finding) and finding.rule == "slug-equals-filename"
    assert finding.path.endswith(f"{SLUG}.yaml")


def test_raw_paths_are_relative_to_the_data_folder_of_the_cards_folder(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    data = _raw_card(tmp_path, "a.json")
    (cards / f"{SLUG}.yaml").write_text(new_card_text(data), encoding="utf-8")
    _, findings = validate_paths([cards / f"{SLUG}.yaml"], today=TODAY)
    assert [f.rule for f in findings] == ["raw-present"]
    _write_raw(tmp_path / "data", "a.json")
    update_sha256sums(tmp_path / "data" / "raw" / SLUG, ["a.json"])
    _, findings = validate_paths([cards / f"{SLUG}.yaml"], today=TODAY)
    assert findings == []


