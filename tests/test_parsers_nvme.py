"""nvme-cli parser: id-ctrl, smart-log and get-feature text in the formats nvme-cli prints."""

import json
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers import NOT_MINE, SHAPED, nvme

FIXTURES = Path(__file__).parent / "fixtures" / "nvme"


def read(name):
    return (FIXTURES / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in FIXTURES.glob("nvme--*.json")))
def test_fixture_parses_to_expected(case):
    assert nvme.parse(read(f"{case}.out")) == json.loads(read(f"{case}.json"))


def test_id_ctrl():
    parsed = nvme.parse_id_ctrl(read("nvme--id-ctrl.out"))
    assert parsed["firmware"] == "X0705A"
    assert parsed["thresholds_c"]["wctemp"] == 83 and parsed["thresholds_c"]["cctemp"] == 85


def test_thermal_features():
    assert nvme.parse_features(read("nvme--features-thermal.out"))["thresholds_c"] == {
        "tmpth": 83, "tmt1": 81, "tmt2": 85}


@pytest.mark.parametrize("text, celsius", [
    ("41 C", 41), ("48 C (321 Kelvin)", 48), ("41°C (314 Kelvin)", 41), ("41 °C (314 K)", 41),
    ("105 °F (314 K)", 41), ("41 °C (314 K, 105 °F)", 41), ("354 Kelvin (81°C)", 81), ("41 Celsius", 41),
    ("105 Fahrenheit", 40.6), ("314 K", 41), ("105 °F", 40.6),
])
def test_temperature_forms(text, celsius):
    assert nvme.temperature_c(text) == pytest.approx(celsius)


@pytest.mark.parametrize("name, temperature, sensors", [
    ("nvme--smart-log.out", 41, [41, 39]), ("nvme--smart-log-v1.out", 20, [20]),
    ("nvme--smart-log-fahrenheit.out", 41, [41, 39]), ("nvme--smart-log-json.out", 41, [41, 39]),
])
def test_smart_log_forms(name, temperature, sensors):
    parsed = nvme.parse_smart_log(read(name))
    assert parsed["temperature_c"] == temperature and parsed["sensors_c"] == sensors


def test_newest_table_layout():
    text = "Smart Log for NVME device:nvme0 namespace-id:ffffffff\ncritical_warning : 0\n" \
           "temperature : 41 °C (314 K, 105 °F)\nTemperature Sensor 1 : 41 °C (314 K, 105 °F)\n"
    assert nvme.parse(text) == {"kind": "smart_log", "temperature_c": 41, "sensors_c": [41]}


def test_id_ctrl_without_firmware_line():
    text = "\n".join(line for line in read("nvme--id-ctrl.out").splitlines() if not line.startswith("fr "))
    with pytest.raises(ParseError, match="fr"):
        nvme.parse_id_ctrl(text)


def test_bad_temperature_names_the_line():
    with pytest.raises(ParseError) as err:
        nvme.parse_smart_log("Smart Log for NVME device:nvme0\ncritical_warning : 0\ntemperature : hot\n")
    assert err.value.line == 3


def test_unrelated_text():
    with pytest.raises(ParseError):
        nvme.parse("hello world\n")


def test_json_with_a_huge_number_or_deep_nesting_names_the_line():
    with pytest.raises(ParseError, match="a number of 5000 characters") as err:
        nvme.parse('{\n  "mn" : "Card",\n  "wctemp" : ' + "9" * 5000 + "\n}\n")
    assert err.value.line == 3
    with pytest.raises(ParseError, match="nested more than 64 levels") as err:
        nvme.parse('{\n  "temperature" : ' + "[" * 100_000 + "\n")
    assert err.value.line == 2


def test_key_value_lines_keep_their_text():
    parsed = nvme.parse_id_ctrl("mn        : Lexar Card   \nsn :  ABC  \nfr\t: X0705A\n")
    assert (parsed["model"], parsed["serial"], parsed["firmware"]) == ("Lexar Card", "ABC", "X0705A")


def test_json_output_is_detected_without_a_format_option():
    assert nvme.detect(read("nvme--smart-log-json.out")) == SHAPED
    id_ctrl = json.dumps({"vid": 7575, "sn": "X1 ", "mn": "EXAMPLE CARD ", "fr": "1.0", "wctemp": 358}, indent=2)
    assert nvme.detect(id_ctrl) == SHAPED
    assert nvme.parse(id_ctrl) == {"kind": "id_ctrl", "model": "EXAMPLE CARD", "serial": "X1", "firmware": "1.0",
                                   "thresholds_c": {"wctemp": 85}}
    assert nvme.detect('{"jobs": [], "temperature": 1}') == NOT_MINE


def test_outputs_one_after_another_are_read_apart():
    from cardbench.imports.importer import session_fields
    smart = read("nvme--smart-log-json.out")
    id_ctrl = json.dumps({"sn": "X1", "mn": "EXAMPLE CARD", "fr": "1.0"}, indent=2)
    fields = session_fields("nvme", id_ctrl + "\n" + smart + smart.replace('"temperature":314', '"temperature":330'))
    assert fields.measurements["nvme"]["model"] == "EXAMPLE CARD"
    assert fields.measurements["nvme"]["temperature_c"] == {"before": 41, "after": 57, "max": 57}
    listed = ("$ sudo nvme list\nNode  SN  Model\n/dev/nvme0n1  X1  EXAMPLE CARD\n"
              "$ sudo nvme smart-log /dev/nvme0 -o json\n")
    assert session_fields("nvme", listed + smart).measurements["nvme"]["temperature_c"] == {"before": 41, "max": 41}
    with pytest.raises(ParseError, match="no nvme-cli"):
        session_fields("nvme", listed)


def test_outputs_read_one_by_one_make_the_block_a_file_of_them_makes():
    """The collector reads id-ctrl and get-feature as it runs them, and times its own smart-log readings: the
    registry's to_session() makes its nvme block, with those readings, the PCIe link and the raw files."""
    from cardbench.parsers.registry import format_named

    id_ctrl, features = read("nvme--id-ctrl.out"), read("nvme--features-thermal.out")
    as_file = format_named("nvme").read_session(id_ctrl + "\n" + features).measurements["nvme"]
    parsed = nvme.parsed_outputs(nvme.parse_id_ctrl(id_ctrl), nvme.parse_features(features))
    assert format_named("nvme").session_of(parsed).measurements["nvme"] == as_file
    timed = {"before": 30, "after": 41, "samples": [{"seconds": 10.0, "value": 35}], "max": 41}
    entry = format_named("nvme").session_of(parsed, temperature_c=timed, pcie_link="PCIe Gen3 x1",
                                            raw=["raw/s/nvme-id-ctrl.json"]).measurements["nvme"]
    assert entry == dict(as_file, pcie_link="PCIe Gen3 x1", temperature_c=timed, raw=["raw/s/nvme-id-ctrl.json"])
    assert "temperature_c" not in format_named("nvme").session_of(nvme.parsed_outputs()).measurements["nvme"]
