"""HTTP: the h11 front door, the JSON API, game pages and their replay."""
