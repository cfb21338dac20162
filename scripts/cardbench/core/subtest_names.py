"""How a dd entry is named among a card's subtests ('dd bs=4M'): the site, the card's checks and the
importer's messages all say it so."""

METHOD_NOT_STATED = " (method not stated)"
BLOCK_SIZE_NOT_STATED = " (block size not stated)"


def dd_test_name(entry):
    """How a dd entry is named among subtests: 'dd bs=4M'; 'dd (method not stated)' when the source does not
    say which command gave its figures (method_stated: false: no block size either, so it never pools or
    compares with a stated method); 'dd (block size not stated)' when nothing told the block size
    (block_size_stated: false). An entry that gives no block size without saying so (one a card's checks
    refuse) is 'dd bs=not stated'."""
    if not entry.get("method_stated", True):
        return "dd" + METHOD_NOT_STATED
    if not entry.get("block_size_stated", True):
        return "dd" + BLOCK_SIZE_NOT_STATED
    return f"dd bs={entry.get('block_size', 'not stated')}"
