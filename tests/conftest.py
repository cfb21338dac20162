"""Shared test set-up: the repository root, the package on the import path, and small helpers."""

import contextlib
import copy
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))


@pytest.fixture
def cards(tmp_path):
    """An empty data/cards/ folder in the test's own temporary folder."""
    folder = tmp_path / "data" / "cards"
    folder.mkdir(parents=True)
    return folder


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory):
    """The shipped cards built into a site once per run (Hugo takes seconds): its public/ folder, for
    tests that only read it. A test that changes the site builds its own with sitebuild.build()."""
    import sitebuild

    return sitebuild.built_public(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def _shipped_result_once():
    from cardbench.card.load import load_card
    from cardbench.core.paths import CARDS_DIR
    from cardbench.figures.aggregate import aggregate

    return aggregate([load_card(path).data for path in sorted(Path(CARDS_DIR).glob("*.yaml"))])


@pytest.fixture(scope="module")
def shipped_result(_shipped_result_once):
    """aggregate() of the shipped cards, worked out once per test process; each test module reads its own copy,
    so that no module sees what another changed in it."""
    return copy.deepcopy(_shipped_result_once)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per test module (tests/browser.py says how it starts)."""
    from browser import chromium

    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def site(shipped_site):
    """(address, public folder) of the shipped site served over HTTP; a module building its own site
    defines its own `site`."""
    from browser import serve_dir

    with serve_dir(shipped_site) as url:
        yield url, shipped_site


def field_paths(value, path=()):
    """Every field path of a nested structure of mappings and lists, the document itself first: (), ("a",), ("a", 0)…"""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from field_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from field_paths(item, path + (index,))


@contextlib.contextmanager
def hang_guard(seconds, what):
    """Fails the test naming `what` if the block has used `seconds` of this process's CPU time (it would run
    for minutes or forever), or is still waiting after ten times that: a guard against hangs in this
    process, not a speed target. CPU time, so that a machine busy with other work does not fail it. A
    signal reaches Python code and a running regular expression alike (the regex engine checks signals)."""
    def stop(signum, frame):
        pytest.fail(f"{what} still running after {seconds} s: it hangs", pytrace=False)

    previous = {number: signal.signal(number, stop) for number in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, 10 * seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in previous.items():
            signal.signal(number, handler)


# What a test needs beyond Python, by module: `make check` runs the quick rest (-m "not browser and
# not device and not build and not slow"), `make test` runs everything.
NEEDS = {
    "browser": {"test_site_browser", "test_card_page_browser", "test_leaderboard_browser", "test_chart_text_browser",
                "test_readers_browser", "test_compare_paths_browser", "test_compare_browser"},  # Chromium
    "device": {"test_collect_e2e", "test_collect_loopcard", "test_collect_pinned", "test_collect_steps",
               "test_collect_stops", "test_guard_loop"},  # root, loop devices, cgroup throttles, mounts
    "build": {"test_site_build", "test_site_build_readers", "test_compare_paths_browser", "test_bench",
              "test_build_cache", "test_make_setup", "test_make_variables",  # Hugo, make, npm, builds in turn
              "test_preview_first", "test_preview_watch", "test_card_file_served"},  # the preview's serve loop
    "slow": {"test_fuzz_parsers", "test_fuzz_validate"},  # generated inputs by the thousand
}
# Single tests that take seconds each: hang guards on the largest allowed inputs and lines of megabytes, many
# processes at once, the worst line of every pattern, cards made again from their sources' kept files, the quick
# paths against the plain ones over every shipped card, the site data built under several hash seeds.
SLOW_TESTS = {"test_card_transaction": {"test_twenty_parallel_imports_all_land",
                                        "test_the_same_file_imported_in_parallel_lands_once"},
              "test_import_hostile": {"test_as_many_lines_as_allowed", "test_more_dd_commands_than_a_session_holds",
                                      "test_a_figure_of_megabytes_is_quoted_cut"},
              "test_parsers_registry": {"test_a_damaged_line_of_any_tool_is_refused_by_name_or_changes_nothing"},
              "test_schema": {"test_a_card_at_the_bounds_is_valid"},
              "test_parsers_fio_bwlog": {"test_a_live_fio_log"},  # runs fio
              "test_regex_linear": {"test_every_pattern_ends_in_linear_time_on_its_worst_line",
                                    "test_every_pattern_made_as_the_program_runs_is_reached"},
              "test_quick_paths": {"test_card_pages_render_as_plain_jinja_renders_them",
                                   "test_card_twins_name_the_raw_files_of_the_cards_json"},
              "test_sources": {"test_every_card_made_from_a_source_is_what_its_kept_files_give",
                               "test_a_parser_fix_reaches_every_card_from_a_source"},
              "test_comparemodel": {"test_the_site_data_is_the_same_whatever_order_python_keeps_its_sets_in"},
              "test_twin_figures": {"test_every_figure_of_the_shipped_twins_is_as_recorded"},
              "test_yaml_build": {"test_every_card_file_reads_alike_with_its_lines"},
              "test_findings_wording": {"test_findings_figures_are_mb_s_with_the_unit_on_each"},
              "test_submission": {"test_measuring_and_importing_need_none_of_the_sites_packages"}}
# Sweeps whose every case takes a while (each shipped card, corpus case, issue, hostile file, list bound,
# quadratic shape or planted copy): the first case stays in `make check` as a sample of its family, the others are slow.
SLOW_SWEEPS = {"test_shipped_cards_take_results": {
                   "test_make_import_adds_to_a_shipped_card",
                   "test_the_form_adds_to_a_shipped_card_named_as_on_its_page",
                   "test_the_collector_knows_a_shipped_card_takes_its_session_before_writing"},
               "test_import_corpus": {"test_case_lands_or_says_what_to_add"},
               "test_submission": {"test_an_issue_of_each_tool_becomes_the_card_change_an_import_makes"},
               "test_yaml_build": {"test_fast_yaml_path_reads_what_the_careful_loader_reads"},
               "test_hostile": {"test_aggregate_stops_and_publishes_nothing"},
               "test_schema": {"test_bad_file_stops_validate_and_aggregate",
                               "test_a_list_one_over_its_bound_is_refused"},
               "test_regex_linear": {"test_the_worst_lines_find_the_known_quadratic_shapes"},
               "test_one_home": {"test_a_unit_factor_planted_in_a_copy_is_reported",
                                 "test_a_price_or_claim_figure_planted_in_a_page_is_reported",
                                 "test_a_factor_table_planted_in_a_copy_is_reported",
                                 "test_a_name_given_a_units_size_in_a_copy_is_reported"},
               "test_schemacheck": {"test_shipped_cards_pass_both"}}  # make check validates every card itself


def pytest_configure(config):
    # Every site the tests build draws the same cards' link-preview images: one folder for all of them (each
    # image is named by a digest of what it shows), instead of drawing them again for every build.
    import os
    import tempfile

    os.environ.setdefault("CARDBENCH_PREVIEW_CACHE", tempfile.mkdtemp(prefix="cardbench-previews-"))
    for marker, why in (("browser", "drives Chromium"), ("device", "needs root and loop devices"),
                        ("build", "builds the site or runs make"), ("slow", "takes seconds: left out of make check")):
        config.addinivalue_line("markers", f"{marker}: {why}")


def left_out_by(markexpr):
    """The markers a -m expression of the form "not a and not b ..." leaves out (make check's); none for any other
    form, which may select a test by a marker its module does not carry."""
    terms = [term.split() for term in (markexpr or "").split(" and ")]
    if not markexpr or any(len(term) != 2 or term[0] != "not" for term in terms):
        return set()
    return {name for _, name in terms}


def pytest_ignore_collect(collection_path, config):
    # A module all of whose tests `make check` leaves out (NEEDS) is not even imported: importing and rewriting
    # them is seconds of every worker's collection.
    left_out = left_out_by(config.getoption("markexpr"))
    if left_out and collection_path.suffix == ".py":
        if any(collection_path.stem in NEEDS.get(marker, ()) for marker in left_out):
            return True
    return None


def pytest_collection_modifyitems(items):
    sampled = set()  # (module, test) of the sweeps whose first case has been seen
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1]
        for marker, modules in NEEDS.items():
            if module in modules:
                item.add_marker(marker)
        if item.originalname in SLOW_TESTS.get(module, ()):
            item.add_marker("slow")
        if item.originalname in SLOW_SWEEPS.get(module, ()):
            if (module, item.originalname) in sampled:
                item.add_marker("slow")
            sampled.add((module, item.originalname))
        if getattr(item.obj, "is_hypothesis_test", False):
            item.add_marker("slow")  # generated inputs: a hundred examples or more each
        if "shipped_site" in item.fixturenames:
            item.add_marker("build")
        if item.get_closest_marker("device"):
            # Loop devices, their throttles and the figures they give: one after another, in one worker,
            # while the other worker runs the tests that only need the processor.
            item.add_marker(pytest.mark.xdist_group("device"))
