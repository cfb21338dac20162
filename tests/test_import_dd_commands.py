"""dd commands as logs hold them: which side of the command is the card, its block size, count and
flags, variables and loops worked out without running anything."""

from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers.dd.command import described, size_bytes
from cardbench.parsers.dd.session import from_dd

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = FIXTURES / "import-corpus" / "dd"
SUMMARY = "8+0 records in\n8+0 records out\n33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n"


def described_command(command, **hints):
    return described(command.split(), 1, **hints)


# --- which side is the card ---------------------------------------------------------------------

@pytest.mark.parametrize("command, op, target", [
    ("if=raspios.img of=/dev/sdc bs=4M", "write", "device"),  # an image written to the card
    ("if=/dev/mmcblk0 of=backup.img bs=4M", "read", "device"),  # the card backed up
    ("if=/dev/zero of=/media/user/CARD/test.bin bs=1M", "write", "file"),
    ("if=/media/user/CARD/test.bin of=/dev/null bs=1M", "read", "file"),
    ("if=/dev/zero of=test bs=4M", "write", "file"),  # a file in the card's folder
    ("if=test of=/dev/null bs=4M", "read", "file"),
    ("if=/dev/nvme1n1p1 of=/dev/null", "read", "device"),
    ("if=/dev/urandom of=/dev/rdisk4 bs=1m", "write", "device"),
    ("if=/dev/disk4 of=/dev/null bs=1m", "read", "device"),
    ("if=/dev/disk/by-id/usb-Generic_SD-0:0 of=/dev/null", "read", "device"),
    ("of=/dev/sdc bs=4M", "write", "device"),  # xzcat image.xz | dd of=/dev/sdc
    ("if=/dev/sdc bs=4M", "read", "device"),  # dd if=/dev/sdc | gzip > backup.gz
    ("if=/home/user/big.iso of=/run/media/user/CARD/big.iso bs=1M", "write", "file"),
    ("if=/Volumes/CARD/big.iso of=/Users/me/big.iso bs=1m", "read", "file"),
])
def test_the_card_is_the_device_or_the_file_on_its_filesystem(command, op, target):
    got = described_command(command)
    assert (got["op"], got["target"]) == (op, target)


@pytest.mark.parametrize("command", [
    "if=/dev/sda of=/dev/sdc bs=4M",  # a disk cloned onto the card, or the card onto a disk
    "if=a.img of=b.img",  # two files, neither on a mounted filesystem
])
def test_a_command_that_does_not_say_asks_for_op(command):
    with pytest.raises(ParseError) as err:
        described_command(command)
    assert "OP=read or OP=write" in err.value.message and "--op" in err.value.message
    assert described_command(command, op="write")["op"] == "write"


@pytest.mark.parametrize("command, op, why", [
    ("if=/dev/zero of=/dev/null bs=1M", None, "copies /dev/zero to /dev/null: no card in it"),
    ("if=/dev/zero of=/dev/null bs=1M", "write", "copies /dev/zero to /dev/null: no card in it"),
    ("of=/dev/null bs=1M", "write", "writes /dev/null, not a card"),
    ("if=/dev/zero of=/dev/shm/test bs=1M", None, "copies /dev/zero to /dev/shm/test: no card in it"),
])
def test_a_command_that_measured_no_card_says_why_whatever_op_is_given(command, op, why):
    assert described_command(command, op=op)["no_card"].startswith(why)


def test_op_given_against_the_command_is_refused():
    with pytest.raises(ParseError, match="writes the card, but the import was told op read"):
        described_command("if=/dev/zero of=/dev/sdc bs=4M", op="read")
    with pytest.raises(ParseError, match="bs=4M, but the import was told bs 1M"):
        described_command("if=/dev/zero of=/dev/sdc bs=4M", block_size="1M")
    assert described_command("if=/dev/zero of=/dev/sdc bs=4M", op="write", block_size="4194304")["op"] == "write"


# --- shell variables and loops in the logged commands ---------------------------------------------

def summary(count, block, seconds, rate):
    total = count * block
    return f"{count}+0 records in\n{count}+0 records out\n{total} bytes copied, {seconds} s, {rate} MB/s\n"


def test_variables_set_earlier_in_the_log_are_worked_out():
    log = ("$ DEV=/dev/sdc\n$ export BS=4M\n$ sudo dd if=$DEV of=/dev/null bs=$BS count=$((1024/4)) iflag=direct\n"
           + summary(256, 4 << 20, "12.0", "89.5"))
    (entry,) = from_dd(log).measurements["dd"]
    assert (entry["op"], entry["target"], entry["block_size"], entry["count"]) == ("read", "device", "4M", 256)
    assert entry["command"] == "dd if=/dev/sdc of=/dev/null bs=4M count=256 iflag=direct"


def test_a_variable_the_log_never_sets_is_named_not_taken_for_a_file():
    """of=$DEV unset could be the card or a file on it: the import asks, it does not guess."""
    with pytest.raises(ParseError) as err:
        from_dd("$ dd if=/dev/zero of=$DEV bs=4M count=8 oflag=direct\n" + summary(8, 4 << 20, "1.0", "33.6"))
    assert "the log does not set $DEV" in err.value.message and "OP=read or OP=write" in err.value.message
    assert err.value.line == 1
    with pytest.raises(ParseError, match=r"bs=\$BS \(the log does not set \$BS\): give BS="):
        from_dd("$ dd if=/dev/sdc of=/dev/null bs=$BS count=8\n" + summary(8, 4 << 20, "1.0", "33.6"))
    (entry,) = from_dd("$ dd if=/dev/sdc of=/dev/null bs=$BS count=8\n" + summary(8, 4 << 20, "1.0", "33.6"),
                       block_size="4M").measurements["dd"]
    assert entry["block_size"] == "4M"


def test_a_loop_over_block_sizes_gives_each_summary_its_own_command():
    log = "$ for bs in 512K 1M 4M; do sudo dd if=/dev/zero of=/dev/sdc bs=$bs count=64 oflag=direct; done\n"
    log += (summary(64, 512 << 10, "2.0", "16.8") + summary(64, 1 << 20, "3.0", "22.4")
            + summary(64, 4 << 20, "10.0", "26.8"))
    entries = from_dd(log).measurements["dd"]
    assert [(e["block_size"], e["runs"]) for e in entries] == [("512K", [16.8]), ("1M", [22.4]), ("4M", [26.8])]
    with pytest.raises(ParseError, match="the loop runs dd 3 times with different options, but 2 summaries"):
        from_dd(log.rsplit("64+0 records in", 1)[0])


def test_a_loop_repeating_one_command_is_one_entry_with_every_run():
    log = "$ for i in 1 2 3; do dd if=/dev/sdc of=/dev/null bs=4M count=64 iflag=direct; done\n"
    log += summary(64, 4 << 20, "3.0", "89.5") * 3
    (entry,) = from_dd(log).measurements["dd"]
    assert entry["runs"] == [89.5, 89.5, 89.5]


# --- block size, count, flags -------------------------------------------------------------------

@pytest.mark.parametrize("text, size", [
    ("512", 512), ("4k", 4096), ("4K", 4096), ("10k", 10240), ("1M", 2**20), ("1m", 2**20), ("1MB", 10**6),
    ("1kB", 1000), ("2x512", 1024), ("8b", 4096), ("1w", 2), ("1G", 2**30), ("4KiB", 4096), ("4Q", None), ("", None),
    ("-1", None), ("1.5M", None),
])
def test_dd_sizes(text, size):
    assert size_bytes(text) == size


@pytest.mark.parametrize("bs, written", [("4m", "4M"), ("64k", "64K"), ("1MB", "1MB"), ("4096", "4096"),
                                          ("2x512", "1K"), ("8b", "4K"), ("1kB", "1000")])
def test_block_size_as_the_card_file_writes_it(bs, written):
    assert described_command(f"if=/dev/sdc of=/dev/null bs={bs}")["block_size"] == written


def test_block_size_of_the_card_side_and_the_default():
    assert described_command("if=/dev/sdc of=/dev/null ibs=64k obs=1M")["block_size"] == "64K"
    assert described_command("if=/dev/zero of=/dev/sdc ibs=64k obs=1M")["block_size"] == "1M"
    assert described_command("if=/dev/sdc of=/dev/null")["block_size"] == "512"
    with pytest.raises(ParseError, match="bs=4Q is not a size"):
        described_command("if=/dev/sdc of=/dev/null bs=4Q")


def test_count_with_suffixes_and_count_bytes():
    assert described_command("if=/dev/zero of=/dev/sdc bs=4k count=10k")["count"] == 10240
    assert described_command("if=/dev/zero of=/dev/sdc bs=4k count=256")["count"] == 256
    assert described_command("if=/dev/sdc of=/dev/null bs=4k count=1M iflag=count_bytes")["count"] is None


def test_flags_that_change_the_figure_are_kept():
    got = described_command("if=/dev/sdc of=/dev/null bs=1M iflag=direct,fullblock oflag=dsync,nonblock "
                            "conv=fdatasync,notrunc,sync status=progress")
    assert got["flags"] == ["direct", "fullblock", "dsync", "fdatasync"]
    assert described_command("if=/dev/zero of=/dev/sdc conv=fsync")["flags"] == ["fsync"]
    assert described_command("if=/dev/zero of=/dev/sdc conv=sync,noerror")["flags"] is None  # padding, not speed


def test_a_summary_the_command_could_not_have_copied_is_refused_naming_its_line():
    """8 blocks of 4 MiB below "bs=1M count=8": the summary belongs to another command."""
    with pytest.raises(ParseError, match=r"this summary copied 33554432 bytes in 8\+0 records, but the command "
                                         r"above says bs=1M count=8") as err:
        from_dd("$ dd if=/dev/zero of=/dev/sdc bs=1M count=8\n" + summary(8, 4 << 20, "1.0", "33.6"))
    assert err.value.line == 4
    # Without its records line, count × bs still bounds the bytes.
    with pytest.raises(ParseError, match="copied 33554432 bytes, but the command above says bs=4M count=2") as err:
        from_dd("$ dd if=/dev/zero of=/dev/sdc bs=4M count=2\n33554432 bytes copied, 1.0 s, 33.6 MB/s\n")
    assert err.value.line == 2
    # A short last block (7+1 records) and a copy that stopped before count are what dd does.
    entry, = from_dd("$ dd if=/dev/sdc of=/dev/null bs=4M count=16\n7+1 records in\n7+1 records out\n"
                     "30000000 bytes copied, 1.0 s, 30.0 MB/s\n").measurements["dd"]
    assert entry["runs"] == [30.0]


def test_a_loop_over_block_sizes_with_its_summaries_swapped_is_refused():
    log = "$ for b in 1M 4M; do dd if=/dev/zero of=/dev/sdc bs=$b count=8; done\n"
    with pytest.raises(ParseError, match="but the command above says bs=1M count=8") as err:
        from_dd(log + summary(8, 4 << 20, "1.0", "33.6") + summary(8, 1 << 20, "1.0", "8.4"))
    assert err.value.line == 4


def test_more_summaries_than_a_loop_ran_are_refused_fewer_are_kept():
    log = "$ for i in 1 2; do dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct; done\n"
    runs = summary(8, 4 << 20, "1.0", "33.6") + summary(8, 4 << 20, "2.0", "16.8") + summary(8, 4 << 20, "4.0", "8.4")
    with pytest.raises(ParseError, match="runs dd 2 times, but 3 summaries follow it") as err:
        from_dd(log + runs)
    assert err.value.line == 10  # the third summary
    entry, = from_dd(log + summary(8, 4 << 20, "1.0", "33.6")).measurements["dd"]  # a partial paste
    assert entry["runs"] == [33.6]


def test_a_variable_holding_shell_syntax_is_not_read_as_words_of_the_command():
    """X='/dev/null; dd …' is one word to the shell: it must not cut the command short or add operands."""
    for value in ("'/dev/null; dd if=/dev/zero of=/dev/sdd'", "'/dev/null | true'", "'/dev/null #'"):
        entry, = from_dd(f"$ X={value}\n$ dd if=/dev/sdc of=$X bs=4M count=8\n"
                         + summary(8, 4 << 20, "1.0", "33.6")).measurements["dd"]
        assert (entry["op"], entry["block_size"], entry["count"]) == ("read", "4M", 8)
    with pytest.raises(ParseError, match=r"the log sets \$X to more than one plain word.*OP=read or OP=write"):
        from_dd('$ X="/dev/sdc count=99"\n$ dd if=$X of=/tmp/copy bs=4M count=8\n' + summary(8, 4 << 20, "1.0", "33.6"))
    with pytest.raises(ParseError, match=r"operands may be in \$OPTS \(the log sets \$OPTS to more than one"):
        from_dd('$ OPTS="if=/dev/sdc of=/dev/null bs=4M"\n$ dd $OPTS count=8\n' + summary(8, 4 << 20, "1.0", "33.6"))


def test_a_loop_inside_a_loop_gives_each_summary_its_command():
    log = "$ for b in 1M 4M; do for i in 1 2; do dd if=/dev/zero of=/dev/sdc bs=$b count=8; done; done\n"
    log += summary(8, 1 << 20, "1.0", "8.4") * 2 + summary(8, 4 << 20, "1.0", "33.6") * 2
    first, second = from_dd(log).measurements["dd"]
    assert (first["block_size"], first["runs"], second["block_size"], second["runs"]) == ("1M", [8.4, 8.4], "4M",
                                                                                          [33.6, 33.6])
