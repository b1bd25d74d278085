"""How the site is served: the HTTP server's own answers, lanes, the channel layer, the
cache, the request log."""
