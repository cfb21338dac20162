"""What each page shows: page and chart models, figures as the pages print them, the HTML written once per
card, the JSON Schemas every page model is checked against, link-preview images."""
