"""Each player's event log and its streams (NDJSON and the event socket), moves over the
socket, idempotent POSTs."""
