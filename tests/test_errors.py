"""Error messages quote only a part of the input line they stopped at: enough to find it, never a whole
line of a file read by mistake (a password hash from /etc/shadow, a token), and no control characters."""

from cardbench import cli
from cardbench.errors import QUOTED_CHARS, ParseError


def test_a_long_line_is_cut_in_the_message():
    secret = "root:$6$" + "x" * 500 + ":19000:0:99999:7:::"
    message = str(ParseError("dd", "not a dd summary", line=1, text=secret))
    assert secret not in message and "…" in message
    assert len(message) < len("dd output line 1: not a dd summary: ") + QUOTED_CHARS + 10


def test_control_characters_never_reach_the_terminal():
    message = str(ParseError("dd", "not a dd summary", line=3, text="\x1b]0;owned\x07 1 byte"))
    assert "\x1b" not in message and "\x07" not in message


def test_an_import_of_a_file_of_secrets_quotes_at_most_the_limit(tmp_path, capsys):
    secret_line = "api_token=" + "s3cr3t" * 40
    path = tmp_path / "notes.txt"
    path.write_text(f"{secret_line}\n")
    code = cli.main(["import", str(path), "--card", "x-card", "--name", "X Card 64GB", "--format", "dd",
                     "--cards-dir", str(tmp_path / "cards")])
    err = capsys.readouterr().err
    assert code == 2 and secret_line not in err
