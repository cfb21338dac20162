"""What a run will do, decided before any device is opened: the profile and its tests, the tools they
need, how long the readonly profile's test file must be, and how long each test is expected to take."""

from ..card.identity import check_slug
from . import tools
from .errors import CardMismatchError
from .profiles import PROFILES, DdStep, FillStep, Profile


def profile_of(request):
    """A profile by name, or a Profile object (tests run small custom profiles)."""
    return request.profile if isinstance(request.profile, Profile) else PROFILES.get(request.profile)


def check_request(request):
    """The request's profile; CardMismatchError for an unknown profile, a slug no card file can have or a
    label of the wrong length."""
    profile = profile_of(request)
    if profile is None:
        raise CardMismatchError(f"unknown profile '{request.profile}'; choose one of {', '.join(PROFILES)}")
    check_slug(request.slug, "--card, make: CARD=", error=CardMismatchError)
    if request.label is not None and not (1 <= len(request.label) <= 200):
        raise CardMismatchError("--label must be 1 to 200 characters")
    return profile


def find_tools(profile):
    """{tool: absolute path} for every tool the profile runs; ToolMissingError naming the first missing."""
    return {name: tools.find_tool(name) for name in profile.tools}


def test_file_bytes(profile):
    """How long the readonly profile's test file must be: the most any of its file steps covers."""
    spans = [step.bs * step.count if isinstance(step, DdStep) else step.job.size
             for step in profile.steps if getattr(step, "target", "device") == "file"]
    return max(spans, default=0)


def estimate_seconds(step, rates, device_bytes):
    """Expected seconds of one test at the rates measured so far; a fill's depends on the card's size."""
    return step.estimate(rates, device_bytes) if isinstance(step, FillStep) else step.estimate(rates)
