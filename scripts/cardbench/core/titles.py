"""How a card is named to readers."""

from .units import GB_IN_TB, tb_from_gb


def card_title(card):
    """'SanDisk Extreme 256 GB microSDXC': brand, model, capacity, and size with capacity family."""
    cap = card["capacity_gb"]
    cap_text = f"{tb_from_gb(cap):g} TB" if cap >= GB_IN_TB else f"{cap:g} GB"
    family = card.get("family")
    kind = (("micro" if card["form_factor"] == "microSD" else "") + family) if family else card["form_factor"]
    return f"{card['brand']} {card['model']} {cap_text} {kind}"
