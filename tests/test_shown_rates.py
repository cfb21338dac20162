"""The rates a card page shows in both units come from the figures stage whole: each curve's and claim's MiB/s
figure is its MB/s figure ÷ 1.048576, point by point, with the gaps where they are."""

import pytest

from cardbench.figures.shown_rates import claimed_rates, dd_sweep_curve, fill_curve, find_fat_curves, open_au_curve

MIB_S = pytest.approx


def test_a_dd_sweep_in_kb_s_is_charted_in_mb_s_and_mib_s():
    sweep = {"unit": "kB/s", "points": [{"block_size_bytes": 4096, "value": 1048.576},
                                        {"block_size_bytes": 8192, "value": "n/a"}]}
    curve = dd_sweep_curve(sweep)
    assert curve["x"] == [4096, 8192]
    assert curve["mb_s"] == [MIB_S(1.048576), None]
    assert curve["mib_s"] == [MIB_S(1.0), None]


def test_a_fill_is_charted_by_gb_written():
    curve = fill_curve({"unit": "MB/s", "points": [{"written_gb": 0.5, "value": 20.97152}]})
    assert curve == {"x": [0.5], "mb_s": [20.97152], "mib_s": [MIB_S(20.0)]}


def test_flashbench_sweeps_and_erase_blocks_are_read_in_mb_s():
    au = open_au_curve({"points": [{"block_size_bytes": 512, "value": 10.48576}]})
    assert au["mb_s"] == [10.48576] and au["mib_s"] == [MIB_S(10.0)]
    table = {"rows": [{"block_size_bytes": 512, "values": [2.097152, 1.048576]},
                      {"block_size_bytes": 1024, "values": [4.194304]}]}
    first, second = find_fat_curves(table)
    assert first["x"] == [512, 1024] and first["mib_s"] == [MIB_S(2.0), MIB_S(4.0)]
    assert second == {"x": [512], "mb_s": [1.048576], "mib_s": [MIB_S(1.0)]}
    assert find_fat_curves({"rows": []}) == []


def test_claims_are_given_in_both_units_and_none_where_unclaimed():
    assert claimed_rates({"claimed": {"read_mb_s": 104.8576}}) == {"read": {"mb_s": 104.8576,
                                                                            "mib_s": MIB_S(100.0)}, "write": None}
    assert claimed_rates({}) == {"read": None, "write": None}
