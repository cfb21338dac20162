"""What an HTML fragment really holds once a browser's parser reads it: its tags and its text."""

from html.parser import HTMLParser


class HtmlAudit(HTMLParser):
    """Feed it HTML; .tags is [(tag, {attribute: value})], .texts the text between them."""

    def __init__(self):
        super().__init__()
        self.tags, self.texts = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.texts.append(data)
