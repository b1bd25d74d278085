"""The table in the browser: its pages, their htmx requests and the table socket."""
