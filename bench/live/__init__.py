"""Live play under load (``python -m bench.live``): API players pair and move on a site."""
