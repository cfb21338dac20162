"""What a pasted log shows around fio's normal output (text_output.py's): the fio command that ran and a job file
shown above it, for the options fio's text output does not print (a mixed job's read share) or that a paste
left out (the job's first line, with its rw, bs and iodepth).

Logged(): see(line) takes in a log line (True for a fio command, which is no output of fio); share(name) the
    read share of a mixed job; options(name) the job options of the last fio command that ran a job on its
    command line ({"rw", "bs", "iodepth", "numjobs", …} as written), None when none did or it named another job.
command_options(line) -> the options of a "$ fio …" command line, "-bs=4k" and "--bs 4k" alike.
"""

import re

from ..text.log_lines import PROMPT

_COMMAND = re.compile(rf"^{re.escape(PROMPT)}(?:\S*/)?fio(?:\s|$)")
_OPTION = re.compile(r"(?:^|\s)--?([a-z_]{1,40})(?:=|\s+(?!-))([^\s]{0,200})")
_MIX_READ = re.compile(r"(?:^|[\s-])rwmixread\s*=\s*(\d{1,3})\b")
_MIX_WRITE = re.compile(r"(?:^|[\s-])rwmixwrite\s*=\s*(\d{1,3})\b")
_UNPROMPTED = re.compile(r"(?:^|[\s/])fio\s.{0,4000}?\s--?(?:rw|readwrite)(?:=|\s)")
_MIX_PART = re.compile(r"--?rwmix(?:read|write)=")
_SECTION = re.compile(r"^\s*\[([^\]\s]{1,200})\]\s*$")
_OPTIONS_KEPT = ("name", "rw", "readwrite", "bs", "blocksize", "iodepth", "numjobs", "rwmixread", "rwmixwrite",
                 "bsrange", "bssplit", "kb_base")


def command_options(line):
    """{option: value} of a logged fio command, the options this import reads."""
    found = {}
    for key, value in _OPTION.findall(line):
        if key in _OPTIONS_KEPT and value:
            found[key] = value.strip("'\"")
    return found


def mix_share(line, default):
    """The read share a command or job file line sets (rwmixread=, rwmixwrite=), else default."""
    read, write = _MIX_READ.search(line), _MIX_WRITE.search(line)
    if read:
        return int(read.group(1))
    return 100 - int(write.group(1)) if write else default


class Logged:
    """The read share of mixed jobs and the options of the fio command that ran, from the log around
    fio's output: the last fio command (--rwmixread=, --rwmixwrite=; a command giving --rw= without them:
    fio's 50) and a job file shown (rwmixread= under [global] or the job's own section; a job file without
    it: 50)."""

    def __init__(self):
        self.command, self.sections, self.section, self.job_file = None, {}, "global", False
        self.ran = None  # the options of the last fio command giving its job on the command line

    def see(self, line):
        """Take in a log line; True when it is a fio command (no output of fio)."""
        if _COMMAND.match(line):
            options = command_options(line)
            if "rw" in options or "readwrite" in options:  # a job on the command line
                self.command, self.sections, self.job_file = mix_share(line, 50), {}, False
                self.ran = options
            else:  # a job file run: the file's shares, unless the command sets one
                self.command, self.ran = mix_share(line, None), None
            return True
        section = _SECTION.match(line)
        if section:
            self.section, self.job_file = section.group(1), True
        elif re.match(r"^\s*rwmix(?:read|write)\s*=", line):
            share = mix_share(line, None)
            if share is not None:
                self.sections[self.section] = share
        elif _UNPROMPTED.search(line):  # a fio command not typed behind a prompt ("> sudo fio …" in a quote)
            self.ran, self.sections, self.job_file = command_options(line), {}, False
            self.command = mix_share(line, 50)
        elif self.command is None and _MIX_PART.search(line):  # the part of a wrapped command with the read share
            self.command = mix_share(line, None)
        return False

    def share(self, name):
        default = self.sections.get("global", 50 if self.job_file else None)
        return self.command if self.command is not None else self.sections.get(name, default)

    def options(self, name):
        """The last command's options for the job `name` (None: a group summary, whose job is not named)."""
        if self.ran is None or (name is not None and self.ran.get("name") not in (None, name)):
            return None
        return {**self.ran, "mix": self.command}
