"""A pasted log of several tools: the tools come from the registry, every part is read or the log refused."""

import types

import pytest

from cardbench import cli
from cardbench.card.load import load_card
from cardbench.errors import ParseError
from cardbench.imports import several_tools as logs
from cardbench.parsers import NAMED, NOT_MINE, registry
from cardbench.parsers.card_entries import tool_result_entry
from cardbench.parsers.fields import SessionFields
from cardbench.parsers.tool import ToolInfo

DD_RUN = ("$ dd if=/dev/zero of=/media/user/CARD/test bs=8k count=50k conv=fsync\n51200+0 records in\n"
          "51200+0 records out\n419430400 bytes (419 MB, 400 MiB) copied, 30.871 s, 13.6 MB/s\n")
HDPARM_RUN = "$ hdparm -t /dev/sdc\n\n/dev/sdc:\n Timing buffered disk reads: 120 MB in  3.06 seconds =  39.25 MB/sec\n"


def _fake_tool():
    """A tool module the mixed reader has never heard of, as a new parsers/<tool>.py would be."""
    module = types.ModuleType("fakebench")
    module.INFO = ToolInfo(name="fakebench", programs=("fakebench",), family="sequential", description="fake")

    def detect(text):
        return NAMED if "fakebench result:" in text else NOT_MINE

    def parse(text):
        for number, line in enumerate(text.split("\n"), start=1):
            if line.startswith("fakebench result:"):
                return {"value": float(line.split()[2]), "line": number}
        raise ParseError("fakebench", "no result line")

    module.detect, module.parse = detect, parse
    module.to_session = lambda parsed, **hints: SessionFields(
        tools=[{"name": "fakebench"}], runs=1,
        measurements={"tool_results": [tool_result_entry("fakebench", "seq read", "read", "MB/s", [parsed["value"]])]})
    return module


def test_a_tool_module_in_the_registry_is_read_in_a_log_without_being_named(monkeypatch):
    fake = _fake_tool()
    monkeypatch.setattr(registry, "FORMATS", registry.FORMATS + (registry.tool_format(fake),))
    assert registry.logged_tools()["fakebench"] == ("fakebench",)
    fields = logs.several_tools(DD_RUN + HDPARM_RUN + "$ fakebench /dev/sdc\nfakebench result: 21.5 MB/s\n")
    assert [tool["name"] for tool in fields.tools] == ["dd", "hdparm", "fakebench"]
    assert [(e["tool"], e["runs"]) for e in fields.measurements["tool_results"]] == [
        ("hdparm", [39.25]), ("fakebench", [21.5])]
    assert fields.measurements["dd"][0]["runs"] == [13.6]


def test_a_part_of_the_log_no_reader_takes_is_refused_naming_its_line(monkeypatch):
    fake = _fake_tool()
    monkeypatch.setattr(registry, "FORMATS", registry.FORMATS + (registry.tool_format(fake),))
    log = DD_RUN + HDPARM_RUN + "$ fakebench /dev/sdc\nsomething fakebench prints that its parser cannot read\n"
    with pytest.raises(ParseError, match="fakebench part of the log") as refused:
        logs.several_tools(log)
    assert refused.value.line == 9 and refused.value.tool == "fakebench"  # its command


def test_an_hdparm_failure_in_a_dd_log_is_refused_not_dropped():
    log = DD_RUN + "$ hdparm -t /dev/sdc\n\n/dev/sdc:\n Timing buffered disk reads: read() failed: Input/output error\n"
    with pytest.raises(ParseError, match="without its") as refused:
        logs.several_tools(log)
    assert refused.value.line == 8 and refused.value.tool == "hdparm"


def test_a_command_whose_output_went_to_a_file_leaves_nothing_to_read():
    log = DD_RUN + HDPARM_RUN + "$ fio --name=w --rw=write --bs=1M --size=8M --output=write.json\n"
    fields = logs.several_tools(log)
    assert [tool["name"] for tool in fields.tools] == ["dd", "hdparm"]


def test_the_command_line_imports_hdparm_dd_and_iozone_as_one_session(tmp_path, capsys):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    log = tmp_path / "session.log"
    log.write_text(HDPARM_RUN + DD_RUN)
    assert cli.main(["import", str(log), "--card", "my-card", "--name", "My Card 64GB", "--cards-dir", str(cards)]) == 0
    session = load_card(cards / "my-card.yaml").data["sessions"][-1]
    assert session["tool_results"][0]["runs"] == [39.25] and session["tool_results"][0]["unit"] == "MiB/s"
    assert session["dd"][0]["runs"] == [13.6] and session["dd"][0]["block_size"] == "8K"
