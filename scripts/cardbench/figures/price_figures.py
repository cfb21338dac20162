"""What a card's price buys, from the price a source gives: its sequential read per unit of that price and the
price per GB of its marketed capacity. aggregate.py works them out with the card's other figures; the page
models round and word them."""


def _amount(card):
    price = (card or {}).get("price")
    return price["amount"] if price and price.get("amount") else None


def read_per_price(card, seq_read):
    """Sequential read (MB/s) per unit of the card's price, or None without a price or a sequential read."""
    amount = _amount(card)
    return seq_read["mb_s"] / amount if amount and seq_read else None


def price_per_gb(card):
    """The card's price per GB of its marketed capacity, or None without a price or a capacity."""
    amount = _amount(card)
    return amount / card["capacity_gb"] if amount and card.get("capacity_gb") else None


def price_figures(card, seq_read):
    """{"per_price", "per_gb"}: the card's figures of its price (each None where the card lacks what it needs)."""
    return {"per_price": read_per_price(card, seq_read), "per_gb": price_per_gb(card)}


__all__ = ["read_per_price", "price_per_gb", "price_figures"]
